//! One peer of the game: its ggrs session, its copy of the world and its
//! account, over any socket (the simulated network's or UDP).

use std::collections::{BTreeMap, VecDeque};
use std::fmt::Debug;
use std::hash::Hash;
use std::marker::PhantomData;
use std::time::Duration;

use geom_core::world::{BodyId, Snapshot, World};
use ggrs::{
    Config, DesyncDetection, GgrsError, GgrsEvent, GgrsRequest, NonBlockingSocket, P2PSession, PlayerType,
    PredictRepeatLast, SessionBuilder,
};

use super::{Desync, Input, NetError, PeerReport, step};
use crate::num::SandboxScalar;

/// What ggrs needs of a peer's address.
pub(super) trait Address: Clone + PartialEq + Eq + Hash + Send + Sync + Debug + 'static {}

impl<A: Clone + PartialEq + Eq + Hash + Send + Sync + Debug + 'static> Address for A {}

/// ggrs's view of the game: byte inputs, world snapshots as saved state.
pub(super) struct Game<S, A>(PhantomData<fn() -> (S, A)>);

impl<S: SandboxScalar, A: Address> Config for Game<S, A> {
    type Input = Input;
    type InputPredictor = PredictRepeatLast;
    type State = Snapshot<S>;
    type Address = A;
}

/// The frames a peer may run ahead of the other's inputs.
pub(super) const MAX_PREDICTION: usize = 8;

/// The saved frames a peer keeps to compare with the other's, newest
/// first: more than a desync report takes to arrive over any network the
/// lab makes.
const HISTORY: i32 = 256;

/// The frames over which [`Peer::resimulated_per_second`] counts: a
/// second at 60 frames a second.
const RECENT: usize = 60;

/// A P2P session for the player `handle` (0 or 1) against the other at
/// `remote`, comparing every confirmed frame's checksum, declaring the
/// other gone after `timeout` without a packet.
pub(super) fn session<S: SandboxScalar, A: Address>(
    handle: usize,
    remote: A,
    timeout: Duration,
    delay: usize,
    socket: impl NonBlockingSocket<A> + 'static,
) -> Result<P2PSession<Game<S, A>>, NetError> {
    Ok(SessionBuilder::<Game<S, A>>::new()
        .with_num_players(2)?
        .with_max_prediction_window(MAX_PREDICTION)
        .with_input_delay(delay)
        .with_desync_detection_mode(DesyncDetection::On { interval: 1 })
        .with_disconnect_timeout(timeout)
        .with_disconnect_notify_delay(timeout / 2)
        .add_player(PlayerType::Local, handle)?
        .add_player(PlayerType::Remote(remote), 1 - handle)?
        .start_p2p_session(socket)?)
}

/// One peer: its session, its world and its account.
pub(super) struct Peer<S: SandboxScalar, A: Address> {
    pub(super) session: P2PSession<Game<S, A>>,
    pub(super) world: World<S>,
    /// The bodies players 1 and 2 drive.
    pub(super) players: [BodyId; 2],
    /// Its own player's handle (0 or 1).
    pub(super) handle: usize,
    /// The frame it nudges (see [`Options::desync_at`](super::Options::desync_at)).
    pub(super) nudge_at: Option<u64>,
    /// The frame whose checksum [`PeerReport::checksum`] holds.
    watch: i32,
    /// Whether it keeps [`Peer::history`]: the lab, which compares the two
    /// peers' worlds, does; a headless run has no use for the copies.
    pub(super) keeps_history: bool,
    /// With [`Peer::keeps_history`], the last [`HISTORY`] frames saved,
    /// each as last simulated.
    pub(super) history: BTreeMap<i32, Snapshot<S>>,
    /// The ticks re-simulated in each of the last [`RECENT`] frames.
    recent: VecDeque<u32>,
    /// Whether ggrs said the other peer is gone.
    pub(super) disconnected: bool,
    /// The frames it has waited in a row, too far ahead of the other's
    /// inputs.
    pub(super) waiting: u32,
    /// The frames ggrs recommends it wait, ahead of the other by its clock.
    skip: u32,
    pub(super) report: PeerReport,
}

impl<S: SandboxScalar, A: Address> Peer<S, A> {
    /// A peer playing `world` in `session`, its report keeping frame
    /// `watch`'s checksum.
    pub(super) fn new(
        session: P2PSession<Game<S, A>>,
        handle: usize,
        world: World<S>,
        players: [BodyId; 2],
        watch: u32,
    ) -> Self {
        Self {
            session,
            world,
            players,
            handle,
            nudge_at: None,
            watch: i32::try_from(watch).unwrap_or(i32::MAX),
            keeps_history: false,
            history: BTreeMap::new(),
            recent: VecDeque::new(),
            disconnected: false,
            waiting: 0,
            skip: 0,
            report: PeerReport::default(),
        }
    }

    /// Lets ggrs receive and send, and notes a desync or a disconnection
    /// it reports.
    pub(super) fn poll(&mut self) {
        self.session.poll_remote_clients();
        for event in self.session.events() {
            match event {
                GgrsEvent::DesyncDetected { frame, local_checksum, remote_checksum, .. } => {
                    // The checksums are the worlds' own, widened: the low
                    // bits are all there is.
                    let desync = Desync { frame, local: local_checksum as u64, remote: remote_checksum as u64 };
                    self.report.desync.get_or_insert(desync);
                }
                GgrsEvent::Disconnected { .. } => self.disconnected = true,
                GgrsEvent::WaitRecommendation { skip_frames } => self.skip = self.skip.max(skip_frames),
                _ => {}
            }
        }
    }

    /// Adds this frame's input and advances; whether it advanced (not when
    /// too far ahead of the other's inputs: ggrs then saves the frame
    /// again and waits, and takes the same frame's input next time; nor
    /// while it waits the frames ggrs recommended, so that a peer that
    /// started first does not stay ahead and roll back the most).
    pub(super) fn advance(&mut self, input: Input) -> Result<bool, NetError> {
        if self.skip > 0 {
            self.skip -= 1;
            self.report.stalls += 1;
            self.note_resimulated(0);
            return Ok(false);
        }
        let before = self.session.current_frame();
        self.session.add_local_input(self.handle, input)?;
        let requests = match self.session.advance_frame() {
            Ok(requests) => requests,
            Err(GgrsError::PredictionThreshold) => {
                self.report.stalls += 1;
                self.waiting += 1;
                self.note_resimulated(0);
                return Ok(false);
            }
            Err(e) => return Err(e.into()),
        };
        let mut after_load = None;
        for request in requests {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => {
                    let snapshot = self.world.snapshot();
                    let checksum = snapshot.checksum();
                    if frame == self.watch {
                        self.report.checksum = checksum;
                    }
                    if self.keeps_history {
                        self.history.insert(frame, snapshot.clone());
                        while self.history.first_key_value().is_some_and(|(&oldest, _)| oldest <= frame - HISTORY) {
                            self.history.pop_first();
                        }
                    }
                    cell.save(frame, Some(snapshot), Some(u128::from(checksum)));
                }
                GgrsRequest::LoadGameState { cell, frame } => {
                    let saved = cell.load().ok_or_else(|| NetError::Session(format!("ggrs lost frame {frame}")))?;
                    self.world.restore(&saved);
                    self.report.rollbacks += 1;
                    after_load = Some(0);
                }
                GgrsRequest::AdvanceFrame { inputs } => {
                    step(&mut self.world, self.players, inputs.iter().map(|(input, _)| *input), self.nudge_at);
                    if let Some(advanced) = &mut after_load {
                        *advanced += 1;
                    }
                }
            }
        }
        let advanced = self.session.current_frame() > before;
        // After a load, every frame stepped but a new one is stepped again.
        let resimulated = after_load.map_or(0, |n: u32| n.saturating_sub(u32::from(advanced)));
        self.report.resimulated += resimulated;
        self.note_resimulated(resimulated);
        if advanced {
            self.report.frames += 1;
            self.waiting = 0;
        } else {
            self.report.stalls += 1;
            self.waiting += 1;
        }
        self.report.worst_prediction = self.report.worst_prediction.max(self.predicted());
        Ok(advanced)
    }

    /// How many frames it is ahead of its last confirmed one.
    pub(super) fn predicted(&self) -> u32 {
        u32::try_from(self.session.current_frame() - self.session.confirmed_frame()).unwrap_or(0)
    }

    fn note_resimulated(&mut self, ticks: u32) {
        self.recent.push_back(ticks);
        while self.recent.len() > RECENT {
            self.recent.pop_front();
        }
    }

    /// The ticks it re-simulated over its last 60 frames: per second, at
    /// 60 frames a second.
    pub(super) fn resimulated_per_second(&self) -> u32 {
        self.recent.iter().sum()
    }
}
