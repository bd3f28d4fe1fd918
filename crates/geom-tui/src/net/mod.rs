//! A scene as a two-player rollback game: two peers in one process, each a
//! `ggrs` [`P2PSession`](ggrs::P2PSession) with its own copy of the world, joined by a
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

pub(crate) mod lab;
mod peer;
mod udp;
mod wire;

use std::cell::RefCell;
use std::rc::Rc;

use geom_core::Vec2;
use geom_core::world::{BodyId, Snapshot, World};
use ggrs::{GgrsError, SessionState};

pub use self::lab::{Control, LAB_KEYS, Lab};
use self::peer::{Peer, session};
pub use self::udp::{Endpoint, UdpReport, run_udp};
pub use self::wire::Conditions;
use self::wire::{Socket, Wire};
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

impl PeerReport {
    /// The report as a line of text: `peer N: …, checksum …`.
    fn line(&self, n: usize) -> String {
        format!(
            "peer {n}: {}, {}, {} re-simulated, at most {} ahead, {}, checksum {:016x}",
            count(self.frames, "frame"),
            count(self.rollbacks, "rollback"),
            count(self.resimulated, "tick"),
            count(self.worst_prediction, "frame"),
            count(self.stalls, "wait"),
            self.checksum
        )
    }

    /// The report as a JSON object.
    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "frames": self.frames,
            "rollbacks": self.rollbacks,
            "resimulated": self.resimulated,
            "worst_prediction": self.worst_prediction,
            "stalls": self.stalls,
            "checksum": format!("{:016x}", self.checksum),
            "desync": self.desync.map(|d| serde_json::json!({
                "frame": d.frame,
                "local": format!("{:016x}", d.local),
                "remote": format!("{:016x}", d.remote),
            })),
        })
    }
}

/// `n` and the word, plural when `n` is not 1: "1 rollback", "2 rollbacks".
pub(crate) fn count(n: impl TryInto<usize>, what: &str) -> String {
    crate::app::count(n.try_into().unwrap_or(usize::MAX), what)
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
                "peers": self.peers.each_ref().map(PeerReport::json),
                "packets": self.packets,
                "lost": self.lost,
            });
            return writeln!(out, "{document}");
        }
        for (n, p) in self.peers.iter().enumerate() {
            writeln!(out, "{}", p.line(n + 1))?;
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
    /// A UDP socket could not be opened, or the other peer never answered
    /// or went away.
    Udp(String),
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Scene(e) => write!(f, "{e}"),
            Self::Players(m) | Self::Session(m) | Self::Stuck(m) | Self::Udp(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for NetError {}

impl From<GgrsError> for NetError {
    fn from(e: GgrsError) -> Self {
        Self::Session(format!("ggrs: {e}"))
    }
}

/// Longer than any run: ggrs's real-time disconnection timers, which the
/// simulated network never trips however long a loaded machine pauses.
const NEVER: std::time::Duration = std::time::Duration::from_hours(24);

/// A frame at 60 a second, in the simulated network's microseconds.
const FRAME_US: u64 = 16_667;

/// The impulse a pressed direction gives its player's body per frame.
const PUSH: f64 = 0.01;

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
            .ok_or_else(|| {
                NetError::Players(format!(
                    "the scene names no body for player {player}: give one body `player = 1` and another \
                     `player = 2`"
                ))
            })
            .and_then(|body| {
                // The players push their bodies: one nothing moves is no
                // player's.
                if body.inverse_mass() == S::ZERO {
                    return Err(NetError::Players(format!(
                        "player {player}'s body (body {}) has inverse_mass = 0, so no push moves it: give the \
                         player a body that moves",
                        body.id().index()
                    )));
                }
                Ok(body.id())
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
    if options.conditions.loss_percent >= 100 {
        return Err(NetError::Stuck("with every packet lost (loss 100%) the peers can never play".to_owned()));
    }
    let world = scene.build::<S>().map_err(NetError::Scene)?;
    let players = players(scene, &world)?;
    let wire = Rc::new(RefCell::new(Wire::new(options.conditions, options.seed)));
    let mut peers = wired_peers(&wire, &world, players, options.frames, 0)?;
    peers[1].nudge_at = options.desync_at.map(u64::from);
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
        for peer in &mut peers {
            peer.poll();
            advanced |= peer.advance(bot_or_rest(options, peer.handle, peer.session.current_frame()))?;
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
    let wire = wire.borrow();
    Ok(Report { peers: peers.map(|peer| peer.report), packets: wire.sent, lost: wire.lost })
}

/// Both peers of a game on `world`, joined by `wire`, each keeping frame
/// `watch`'s checksum for its report, with an input delay of `delay`
/// frames.
fn wired_peers<S: SandboxScalar>(
    wire: &Rc<RefCell<Wire>>,
    world: &World<S>,
    players: [BodyId; 2],
    watch: u32,
    delay: usize,
) -> Result<[Peer<S, u8>; 2], NetError> {
    let peer = |handle: usize| -> Result<Peer<S, u8>, NetError> {
        let address = u8::from(handle == 1);
        let session = session(handle, 1 - address, NEVER, delay, Socket { wire: Rc::clone(wire), address })?;
        Ok(Peer::new(session, handle, world.clone(), players, watch))
    };
    Ok([peer(0)?, peer(1)?])
}

/// The bot's input for `player` at `frame`; past the last frame the
/// players let go, until it is confirmed on both peers.
fn bot_or_rest(options: &Options, player: usize, frame: i32) -> Input {
    match u32::try_from(frame) {
        Ok(frame) if frame < options.frames => bot(options.seed, player, frame),
        _ => 0,
    }
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

    #[test]
    fn a_player_whose_body_nothing_moves_is_refused_by_name() {
        let mut scene = Scene::parse(DEFAULT_SCENE).unwrap();
        let body = scene.bodies.iter_mut().find(|b| b.player == Some(2)).unwrap();
        body.inverse_mass = 0.0;
        let options =
            Options { kind: ScalarKind::F64, frames: 10, conditions: Conditions::default(), seed: 0, desync_at: None };
        let e = run(&scene, &options).unwrap_err();
        assert!(e.to_string().contains("player 2's body (body 5) has inverse_mass = 0"), "{e}");
        let lost = Options { conditions: Conditions { loss_percent: 100, ..Conditions::default() }, ..options };
        let e = run(&Scene::parse(DEFAULT_SCENE).unwrap(), &lost).unwrap_err();
        assert!(e.to_string().contains("every packet lost"), "{e}");
    }
}
