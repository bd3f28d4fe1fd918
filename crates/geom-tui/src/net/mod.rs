//! A scene as a two-player rollback game: two peers in one process, each a
//! `ggrs` [`P2PSession`] with its own copy of the world, joined by a
//! simulated network ([`Conditions`]: latency, jitter, loss, reordering)
//! whose clock the run advances a frame at a time (60 a second).
//!
//! Each player drives the body whose `player` key names them (see
//! [`BodySpec::player`](crate::scene::BodySpec::player)): every frame a
//! seeded bot presses left, right, up or down, and the body gets an
//! impulse that way. ggrs predicts the other player's input, rolls back
//! when the real one arrives late or differs, and compares the two peers'
//! checksums of every confirmed frame. [`run`] plays a number of frames
//! and reports, per peer, what that cost and whether the peers agree.
//!
//! The packets' fates are a hash of the seed and each packet's number;
//! ggrs also sends packets on timers of its own (keep-alives, quality
//! reports, retries), whose number depends on how fast the run goes, so
//! the counts of rollbacks may differ a little from run to run. The
//! checksums never do: both peers end on the same one, on every run and
//! machine, unless a desync is forced.

mod wire;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::rc::Rc;

use geom_core::Vec2;
use geom_core::world::{BodyId, Snapshot, World};
use ggrs::{
    Config, DesyncDetection, GgrsError, GgrsEvent, GgrsRequest, P2PSession, PlayerType, PredictRepeatLast,
    SessionBuilder, SessionState,
};

pub use self::wire::Conditions;
use self::wire::{Address, Socket, Wire};
use crate::num::{SandboxScalar, ScalarKind, with_scalar};
use crate::scene::{Scene, SceneError};

/// A player's input for one frame: bit 0 left, 1 right, 2 up, 3 down.
type Input = u8;

/// What to play.
///
/// # Examples
///
/// See [`run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The scalar type both peers step in.
    pub kind: ScalarKind,
    /// How many frames each peer plays; the report compares the
    /// checksums of the last, once both have confirmed it.
    pub frames: u32,
    /// The network between them.
    pub conditions: Conditions,
    /// The bots' and the network's seed.
    pub seed: u64,
    /// A frame at which the second peer's world is nudged by one rounding
    /// step (player 1's body, one step right), every time it simulates
    /// that frame: a desync for ggrs to detect.
    pub desync_at: Option<u32>,
}

/// One peer's account of the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PeerReport {
    /// Frames it advanced.
    pub frames: u32,
    /// Times it rolled back (loaded a saved frame).
    pub rollbacks: u32,
    /// Ticks it simulated again after rolling back.
    pub resimulated: u32,
    /// The most frames it ran ahead of its last confirmed one.
    pub worst_prediction: u32,
    /// Frames it had to wait, too far ahead of the other's inputs.
    pub stalls: u32,
    /// The world's checksum at the last frame (see [`Options::frames`]).
    pub checksum: u64,
    /// The first desync ggrs reported, if any.
    pub desync: Option<Desync>,
}

/// A desync ggrs detected: the frame whose checksums differ, and both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Desync {
    /// The frame.
    pub frame: i32,
    /// This peer's checksum of it.
    pub local: u64,
    /// The other peer's.
    pub remote: u64,
}

/// Both peers' accounts, and what the network did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Player 1's peer, then player 2's.
    pub peers: [PeerReport; 2],
    /// Packets sent, both ways.
    pub packets: u64,
    /// Of them, lost.
    pub lost: u64,
}

impl Report {
    /// Whether both peers end on the same checksum and saw no desync.
    ///
    /// See [`run`] for an example.
    #[must_use]
    pub fn agree(&self) -> bool {
        let [a, b] = &self.peers;
        a.checksum == b.checksum && a.desync.is_none() && b.desync.is_none()
    }
}

impl Report {
    /// Writes the report: a line per peer, one for the network, and the
    /// verdict (`agree: …` or `desync: …`); with `json`, one JSON document
    /// with `options` too.
    ///
    /// # Errors
    ///
    /// The output's.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_tui::net::{Conditions, Options, run};
    /// use geom_tui::scene::{DEFAULT_SCENE, Scene};
    /// use geom_tui::ScalarKind;
    ///
    /// let scene = Scene::parse(DEFAULT_SCENE)?;
    /// let options = Options { kind: ScalarKind::I32F32, frames: 30, conditions: Conditions::default(), seed: 1, desync_at: None };
    /// let report = run(&scene, &options)?;
    /// let mut out = Vec::new();
    /// report.write(&options, false, &mut out)?;
    /// let text = String::from_utf8(out)?;
    /// let lines: Vec<&str> = text.lines().collect();
    /// assert!(lines[0].starts_with("peer 1: ") && lines[0].contains(" rollback"), "{text}");
    /// assert!(lines[2].starts_with("network: ") && lines[2].ends_with(", 0 lost"), "{text}");
    /// assert!(lines[3].starts_with("agree: both peers' checksum of frame 30 is "), "{text}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write(&self, options: &Options, json: bool, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        if json {
            let c = options.conditions;
            let document = serde_json::json!({
                "scalar": options.kind.to_string(),
                "frames": options.frames,
                "latency_ms": c.latency_ms,
                "jitter_ms": c.jitter_ms,
                "loss_percent": c.loss_percent,
                "reorder_percent": c.reorder_percent,
                "seed": options.seed,
                "desync_at": options.desync_at,
                "agree": self.agree(),
                "peers": self.peers.each_ref().map(|p| serde_json::json!({
                    "frames": p.frames,
                    "rollbacks": p.rollbacks,
                    "resimulated": p.resimulated,
                    "worst_prediction": p.worst_prediction,
                    "stalls": p.stalls,
                    "checksum": format!("{:016x}", p.checksum),
                    "desync": p.desync.map(|d| serde_json::json!({
                        "frame": d.frame,
                        "local": format!("{:016x}", d.local),
                        "remote": format!("{:016x}", d.remote),
                    })),
                })),
                "packets": self.packets,
                "lost": self.lost,
            });
            return writeln!(out, "{document}");
        }
        // "1 rollback", "2 rollbacks".
        let count = |n: u64, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        for (n, p) in self.peers.iter().enumerate() {
            writeln!(
                out,
                "peer {}: {}, {}, {} re-simulated, at most {} ahead, {}, checksum {:016x}",
                n + 1,
                count(p.frames.into(), "frame"),
                count(p.rollbacks.into(), "rollback"),
                count(p.resimulated.into(), "tick"),
                count(p.worst_prediction.into(), "frame"),
                count(p.stalls.into(), "wait"),
                p.checksum
            )?;
        }
        writeln!(out, "network: {} sent, {} lost", count(self.packets, "packet"), self.lost)?;
        let [a, b] = &self.peers;
        match (a.desync, b.desync) {
            (None, None) if a.checksum == b.checksum => {
                writeln!(out, "agree: both peers' checksum of frame {} is {:016x}", options.frames, a.checksum)
            }
            (None, None) => writeln!(out, "differ: the peers' checksums of frame {} differ", options.frames),
            (first, second) => {
                let seen = |n: usize, d: Option<Desync>| {
                    d.map_or(format!("peer {n} saw none"), |d| {
                        format!("peer {n} at frame {} ({:016x} against {:016x})", d.frame, d.local, d.remote)
                    })
                };
                writeln!(out, "desync: detected by {}, {}", seen(1, first), seen(2, second))
            }
        }
    }
}

/// Why a game could not be played.
#[derive(Debug)]
pub enum NetError {
    /// The scene does not fit the scalar type.
    Scene(SceneError),
    /// The scene does not name a body for each player.
    Players(String),
    /// ggrs refused something (its message).
    Session(String),
    /// The peers stopped making progress (a network that loses every
    /// packet, say).
    Stuck(String),
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Scene(e) => write!(f, "{e}"),
            Self::Players(m) | Self::Session(m) | Self::Stuck(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for NetError {}

impl From<GgrsError> for NetError {
    fn from(e: GgrsError) -> Self {
        Self::Session(format!("ggrs: {e}"))
    }
}

/// ggrs's view of the game: byte inputs, world snapshots as saved state,
/// peers addressed 0 and 1.
struct Game<S>(PhantomData<S>);

impl<S: SandboxScalar> Config for Game<S> {
    type Input = Input;
    type InputPredictor = PredictRepeatLast;
    type State = Snapshot<S>;
    type Address = Address;
}

/// The frames a peer may run ahead of the other's inputs.
const MAX_PREDICTION: usize = 8;

/// Longer than any run: ggrs's real-time disconnection timers.
const NEVER: std::time::Duration = std::time::Duration::from_hours(24);

/// A frame at 60 a second, in the simulated network's microseconds.
const FRAME_US: u64 = 16_667;

/// The impulse a pressed direction gives its player's body per frame.
const PUSH: f64 = 0.01;

/// One peer: its session, its world and its account.
struct Peer<S: SandboxScalar> {
    session: P2PSession<Game<S>>,
    world: World<S>,
    players: [BodyId; 2],
    /// Its own player's handle (0 or 1).
    handle: usize,
    /// The frame it nudges (see [`Options::desync_at`]).
    nudge_at: Option<u64>,
    /// Every saved frame's checksum, the latest simulation of each.
    checksums: BTreeMap<i32, u64>,
    report: PeerReport,
}

impl<S: SandboxScalar> Peer<S> {
    fn new(
        wire: &Rc<RefCell<Wire>>,
        handle: usize,
        world: World<S>,
        players: [BodyId; 2],
        nudge_at: Option<u64>,
    ) -> Result<Self, NetError> {
        let other = 1 - handle;
        let address = Address::try_from(handle).unwrap_or_default();
        let session = SessionBuilder::<Game<S>>::new()
            .with_num_players(2)?
            .with_max_prediction_window(MAX_PREDICTION)
            .with_desync_detection_mode(DesyncDetection::On { interval: 1 })
            // ggrs times disconnection in real time; the simulated network
            // never disconnects, however long a loaded machine pauses the
            // run.
            .with_disconnect_timeout(NEVER)
            .with_disconnect_notify_delay(NEVER)
            .add_player(PlayerType::Local, handle)?
            .add_player(PlayerType::Remote(1 - address), other)?
            .start_p2p_session(Socket { wire: Rc::clone(wire), address })?;
        Ok(Self {
            session,
            world,
            players,
            handle,
            nudge_at,
            checksums: BTreeMap::new(),
            report: PeerReport::default(),
        })
    }

    /// Lets ggrs receive and send, and notes a desync it reports.
    fn poll(&mut self) {
        self.session.poll_remote_clients();
        for event in self.session.events() {
            if let GgrsEvent::DesyncDetected { frame, local_checksum, remote_checksum, .. } = event {
                // The checksums are the worlds' own, widened: the low bits
                // are all there is.
                let desync = Desync { frame, local: local_checksum as u64, remote: remote_checksum as u64 };
                self.report.desync.get_or_insert(desync);
            }
        }
    }

    /// Adds this frame's input and advances; whether it advanced (not when
    /// too far ahead of the other's inputs: ggrs then saves the frame
    /// again and waits, and takes the same frame's input next time).
    fn advance(&mut self, input: Input) -> Result<bool, NetError> {
        let before = self.session.current_frame();
        self.session.add_local_input(self.handle, input)?;
        let requests = match self.session.advance_frame() {
            Ok(requests) => requests,
            Err(GgrsError::PredictionThreshold) => {
                self.report.stalls += 1;
                return Ok(false);
            }
            Err(e) => return Err(e.into()),
        };
        let mut after_load = None;
        for request in requests {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => {
                    let checksum = self.world.checksum();
                    cell.save(frame, Some(self.world.snapshot()), Some(u128::from(checksum)));
                    self.checksums.insert(frame, checksum);
                }
                GgrsRequest::LoadGameState { cell, frame } => {
                    let saved = cell.load().ok_or_else(|| NetError::Session(format!("ggrs lost frame {frame}")))?;
                    self.world.restore(&saved);
                    self.report.rollbacks += 1;
                    after_load = Some(0);
                }
                GgrsRequest::AdvanceFrame { inputs } => {
                    self.step(inputs.iter().map(|(input, _)| *input));
                    if let Some(advanced) = &mut after_load {
                        *advanced += 1;
                    }
                }
            }
        }
        let advanced = self.session.current_frame() > before;
        // After a load, every frame stepped but a new one is stepped again.
        self.report.resimulated += after_load.map_or(0, |n: u32| n.saturating_sub(u32::from(advanced)));
        if advanced {
            self.report.frames += 1;
        } else {
            self.report.stalls += 1;
        }
        let ahead = self.session.current_frame() - self.session.confirmed_frame();
        self.report.worst_prediction = self.report.worst_prediction.max(u32::try_from(ahead).unwrap_or(0));
        Ok(advanced)
    }

    fn step(&mut self, inputs: impl Iterator<Item = Input>) {
        step(&mut self.world, self.players, inputs, self.nudge_at);
    }
}

/// One tick of the game: each player's input pushes their body, player 1's
/// body is nudged one rounding step right at tick `nudge_at`, then the
/// world steps.
fn step<S: SandboxScalar>(
    world: &mut World<S>,
    players: [BodyId; 2],
    inputs: impl Iterator<Item = Input>,
    nudge_at: Option<u64>,
) {
    let push = S::from_f64(PUSH);
    for (input, body) in inputs.zip(players) {
        let x = i8::from(input & 2 != 0) - i8::from(input & 1 != 0);
        let y = i8::from(input & 4 != 0) - i8::from(input & 8 != 0);
        if x != 0 || y != 0 {
            let impulse = Vec2::new(push * S::from_f64(f64::from(x)), push * S::from_f64(f64::from(y)));
            // An impulse the world refuses (it would take the body beyond
            // the type's range) is refused on both peers alike.
            let _ = world.apply_impulse(body, impulse);
        }
    }
    if nudge_at == Some(world.tick())
        && let Some(position) = world.body(players[0]).map(geom_core::world::Body::position)
    {
        let _ = world.set_position(players[0], Vec2::new(position.x.next_up(), position.y));
    }
    world.step();
}

/// The checksums of frames 0 to [`Options::frames`] of the same game
/// played in one world, without a network or rollbacks: the bots' inputs
/// as they were pressed, and the nudge of [`Options::desync_at`] when
/// `nudged`. What both peers of [`run`] must end on, and where a forced
/// desync first shows.
///
/// # Errors
///
/// [`run`]'s [`NetError::Scene`] and [`NetError::Players`].
///
/// # Examples
///
/// ```
/// use geom_tui::net::{Conditions, Options, checksums_without_network, run};
/// use geom_tui::scene::{DEFAULT_SCENE, Scene};
/// use geom_tui::ScalarKind;
///
/// let scene = Scene::parse(DEFAULT_SCENE)?;
/// let conditions = Conditions { latency_ms: 80, ..Conditions::default() };
/// let options = Options { kind: ScalarKind::I16F16, frames: 60, conditions, seed: 4, desync_at: None };
/// let alone = checksums_without_network(&scene, &options, false)?;
/// assert_eq!(alone.len(), 61);
/// assert_eq!(run(&scene, &options)?.peers[1].checksum, alone[60]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn checksums_without_network(scene: &Scene, options: &Options, nudged: bool) -> Result<Vec<u64>, NetError> {
    with_scalar!(options.kind, S => {
        let mut world = scene.build::<S>().map_err(NetError::Scene)?;
        let players = players(scene, &world)?;
        let nudge_at = options.desync_at.filter(|_| nudged).map(u64::from);
        let mut checksums = vec![world.checksum()];
        for frame in 0..options.frames {
            step(&mut world, players, [0, 1].into_iter().map(|p| bot(options.seed, p, frame)), nudge_at);
            checksums.push(world.checksum());
        }
        Ok(checksums)
    })
}

/// The bot's input for `player` at `frame`: a direction (or none) held for
/// 16 frames at a time, from a hash of the seed.
fn bot(seed: u64, player: usize, frame: u32) -> Input {
    let mut bytes = [0_u8; 16];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..12].copy_from_slice(&(frame / 16).to_le_bytes());
    bytes[12] = u8::try_from(player).unwrap_or(0);
    [0, 1, 2, 4, 8, 1 | 4, 2 | 4][usize::try_from(seahash::hash(&bytes) % 7).unwrap_or(0)]
}

/// The bodies the scene's `player` keys name: player 1's, then 2's.
fn players<S: SandboxScalar>(scene: &Scene, world: &World<S>) -> Result<[BodyId; 2], NetError> {
    let find = |player: u8| {
        scene
            .bodies
            .iter()
            .position(|b| b.player == Some(player))
            .and_then(|i| world.bodies().get(i))
            .map(geom_core::world::Body::id)
            .ok_or_else(|| {
                NetError::Players(format!(
                    "the scene names no body for player {player}: give one body `player = 1` and another \
                     `player = 2`"
                ))
            })
    };
    Ok([find(1)?, find(2)?])
}

/// Plays `scene` as a two-player game between two peers over a simulated
/// network, until both have confirmed frame [`Options::frames`].
///
/// # Errors
///
/// [`NetError::Scene`] when the scene does not fit the scalar type,
/// [`NetError::Players`] when it names no body for a player,
/// [`NetError::Stuck`] when the peers stop making progress (within a
/// bound many times the frames asked for), [`NetError::Session`] for
/// anything ggrs refuses.
///
/// # Examples
///
/// ```
/// use geom_tui::net::{Conditions, Options, run};
/// use geom_tui::scene::{DEFAULT_SCENE, Scene};
/// use geom_tui::ScalarKind;
///
/// let scene = Scene::parse(DEFAULT_SCENE)?;
/// let conditions = Conditions { latency_ms: 50, jitter_ms: 10, loss_percent: 5, reorder_percent: 0 };
/// let options = Options { kind: ScalarKind::I32F32, frames: 120, conditions, seed: 1, desync_at: None };
/// let report = run(&scene, &options)?;
/// assert!(report.agree());
/// assert!(report.peers[0].rollbacks > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(scene: &Scene, options: &Options) -> Result<Report, NetError> {
    with_scalar!(options.kind, S => run_in::<S>(scene, options))
}

fn run_in<S: SandboxScalar>(scene: &Scene, options: &Options) -> Result<Report, NetError> {
    let world = scene.build::<S>().map_err(NetError::Scene)?;
    let players = players(scene, &world)?;
    let wire = Rc::new(RefCell::new(Wire::new(options.conditions, options.seed)));
    let nudge = options.desync_at.map(u64::from);
    let mut peers = [Peer::new(&wire, 0, world.clone(), players, None)?, Peer::new(&wire, 1, world, players, nudge)?];
    // Synchronising: ggrs retries a lost handshake after 200 ms of real
    // time, so this waits in real time too, a millisecond at a time.
    let mut waited = 0;
    while peers.iter().any(|p| p.session.current_state() != SessionState::Running) {
        wire.borrow_mut().advance(1000);
        for peer in &mut peers {
            peer.poll();
        }
        waited += 1;
        if waited > 30_000 {
            return Err(NetError::Stuck("the peers did not synchronise within 30 s".to_owned()));
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let last = i32::try_from(options.frames).unwrap_or(i32::MAX);
    let mut rounds: u64 = 0;
    let bound = 50 * u64::from(options.frames) + 60_000;
    while peers.iter().any(|p| p.session.confirmed_frame() < last) {
        wire.borrow_mut().advance(FRAME_US);
        let mut advanced = false;
        for (player, peer) in peers.iter_mut().enumerate() {
            peer.poll();
            // Past the last frame the players let go, until it is
            // confirmed on both peers.
            let frame = u32::try_from(peer.session.current_frame()).unwrap_or(u32::MAX);
            let input = if frame < options.frames { bot(options.seed, player, frame) } else { 0 };
            advanced |= peer.advance(input)?;
        }
        rounds += 1;
        if rounds > bound {
            return Err(NetError::Stuck(format!("no confirmed frame {last} after {rounds} rounds")));
        }
        if !advanced {
            // Both wait for packets ggrs resends on its own real-time
            // timer.
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
    let [a, b] = peers.map(|mut peer| {
        peer.report.checksum = peer.checksums.get(&last).copied().unwrap_or_default();
        peer.report
    });
    let wire = wire.borrow();
    Ok(Report { peers: [a, b], packets: wire.sent, lost: wire.lost })
}

/// What a rollback client does when a late input arrives, on a scene:
/// restore the saved frame, then step the frames since, saving each. Its
/// cost is what a game on the scene pays per rollback (`cargo xtask
/// bench`: `scene_rollback/<type>`).
///
/// # Examples
///
/// ```
/// use geom_tui::net::RollbackFrame;
/// use geom_tui::scene::{DEFAULT_SCENE, Scene};
/// use geom_tui::ScalarKind;
///
/// let scene = Scene::parse(DEFAULT_SCENE)?;
/// let mut frame = RollbackFrame::new(&scene, ScalarKind::I32F32, 100)?;
/// let first = frame.run(8);
/// assert_eq!(frame.run(8), first); // from the same saved frame, the same ticks
/// assert_ne!(frame.run(7), first);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct RollbackFrame {
    inner: Box<dyn Resimulate>,
}

/// [`RollbackFrame`] in one scalar type.
trait Resimulate {
    fn run(&mut self, ticks: usize) -> u64;
}

/// A world, and the saved frame it goes back to.
struct Saved<S: SandboxScalar> {
    world: World<S>,
    saved: Snapshot<S>,
}

impl<S: SandboxScalar> Resimulate for Saved<S> {
    fn run(&mut self, ticks: usize) -> u64 {
        self.world.restore(&self.saved);
        let snapshots: Vec<Snapshot<S>> = (0..ticks)
            .map(|_| {
                self.world.step();
                self.world.snapshot()
            })
            .collect();
        snapshots.last().map_or_else(|| self.saved.checksum(), Snapshot::checksum)
    }
}

impl RollbackFrame {
    /// The scene in `kind`, stepped to `tick` and saved there.
    ///
    /// # Errors
    ///
    /// [`NetError::Scene`] when the scene does not fit the type.
    ///
    /// See [`RollbackFrame`] for an example.
    pub fn new(scene: &Scene, kind: ScalarKind, tick: u64) -> Result<Self, NetError> {
        with_scalar!(kind, S => {
            let mut world = scene.build::<S>().map_err(NetError::Scene)?;
            for _ in 0..tick {
                world.step();
            }
            let saved = world.snapshot();
            Ok(Self { inner: Box::new(Saved { world, saved }) })
        })
    }

    /// Restores the saved frame, then `ticks` times steps and saves; the
    /// last saved frame's checksum.
    ///
    /// See [`RollbackFrame`] for an example.
    pub fn run(&mut self, ticks: usize) -> u64 {
        self.inner.run(ticks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::DEFAULT_SCENE;

    #[test]
    fn a_bot_holds_each_direction_for_sixteen_frames_and_players_differ() {
        let one: Vec<Input> = (0..64).map(|f| bot(3, 0, f)).collect();
        assert!(one.chunks(16).all(|c| c.iter().all(|&i| i == c[0])), "{one:?}");
        let two: Vec<Input> = (0..64).map(|f| bot(3, 1, f)).collect();
        assert_ne!(one, two);
    }

    #[test]
    fn a_scene_without_both_players_is_refused_by_name() {
        let mut scene = Scene::parse(DEFAULT_SCENE).unwrap();
        for body in &mut scene.bodies {
            body.player = body.player.filter(|&p| p == 1);
        }
        let options = Options {
            kind: ScalarKind::I16F16,
            frames: 10,
            conditions: Conditions::default(),
            seed: 0,
            desync_at: None,
        };
        let e = run(&scene, &options).unwrap_err();
        assert!(e.to_string().contains("no body for player 2"), "{e}");
    }
}
