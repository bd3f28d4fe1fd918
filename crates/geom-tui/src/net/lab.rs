//! The netcode lab (`geom-tui net`): the game of [`run`](super::run) played
//! in real time, 60 frames a second, with the players on the keyboard or
//! bots, the simulated network's conditions on keys, and a key that
//! desyncs one peer. [`ui::lab`](crate::ui::lab) draws it.

use std::cell::{Cell, RefCell};
use std::net::SocketAddr;
use std::rc::Rc;
use std::time::Duration;

use geom_core::world::BodyId;
use ggrs::SessionState;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::peer::{Address, Peer};
use super::udp::{Heard, heard_text, udp_peer};
use super::wire::Wire;
use super::{Conditions, Desync, Endpoint, FRAME_US, Input, NetError, bot, players, wired_peers};
use crate::num::{SandboxScalar, ScalarKind, with_scalar};
use crate::scene::Scene;
use crate::sim::Sim;
use crate::timeline::{Deviation, deviation};

/// A frame at 60 a second.
const FRAME: Duration = Duration::from_micros(FRAME_US);

/// The most frames one call of [`Lab::advance`] plays: after a longer
/// pause (a loaded machine, a suspended terminal) the lab goes on from
/// where it was instead of racing to catch up.
const CATCH_UP: u32 = 4;

/// How many frames a key press holds its direction: a little longer than
/// a terminal's key repeat, so a held key is a held direction.
const HOLD: u8 = 12;

/// The most input delay the keys set, in frames.
const MAX_DELAY: usize = 8;

/// The keys of the lab, as its help and docs/SANDBOX.md show them.
pub const LAB_KEYS: &[(&str, &str)] = &[
    (
        "w a s d",
        "player 1 (over UDP: this peer's player); a press holds for 12 frames, as a terminal repeats a held key",
    ),
    ("arrows", "player 2 (over UDP: this peer's player)"),
    ("1 2", "player 1's, player 2's input: the keys or a seeded bot (player 1 starts on the keys, player 2 as a bot)"),
    ("l L", "latency 10 ms less, more (in one process)"),
    ("j J", "jitter 5 ms less, more (in one process)"),
    ("p P", "packets lost: 5% less, more (in one process)"),
    ("r R", "packets held back past later ones: 5% less, more (in one process)"),
    ("i I", "input delay a frame less, more (in one process both peers', over UDP this peer's)"),
    ("x", "desync: nudge peer 2's world (over UDP, this one's) one rounding step at its next frame"),
    ("n", "a new game from frame 0, with the same settings"),
    ("space", "pause or go on"),
    ("?", "these keys"),
    ("q Esc", "quit"),
];

/// Who presses a player's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// The keyboard.
    Keys,
    /// A bot (the seeded bot of `run --net`).
    Bot,
    /// The peer in the other process, over UDP.
    Remote,
}

/// One peer as the lab shows it.
pub(crate) struct PeerView<'a> {
    /// Its world, at its current frame.
    pub world: &'a dyn Sim,
    /// The bodies players 1 and 2 drive.
    pub players: [BodyId; 2],
    /// Its player's handle: 0 for player 1, 1 for player 2.
    pub handle: usize,
    /// Whether it is synchronised with the other and playing.
    pub running: bool,
    /// The frame it is at.
    pub frame: i32,
    /// The last frame it has both players' inputs for, up to the frame it
    /// is at.
    pub confirmed: i32,
    /// Rollbacks so far.
    pub rollbacks: u32,
    /// Ticks re-simulated over the last second.
    pub resimulated_per_second: u32,
    /// Frames it waited, too far ahead of the other's inputs.
    pub stalls: u32,
    /// The latest frame every peer here has confirmed, and this peer's
    /// checksum of it: the kind ggrs compares, the same on both peers
    /// unless they desynced.
    pub compared: Option<(i32, u64)>,
    /// The round trip to the other peer, as ggrs measures it.
    pub ping_ms: Option<u128>,
    /// The first desync ggrs reported to it.
    pub desync: Option<Desync>,
    /// Whether ggrs declared the other peer gone.
    pub disconnected: bool,
    /// The frames it has waited in a row for the other's inputs.
    pub waiting: u32,
}

/// The game in one scalar type, behind a face the lab can hold.
trait Match {
    /// Plays one frame: the network delivers, each peer polls and, once
    /// synchronised, advances with `input(handle, frame)`.
    fn frame(&mut self, input: &mut dyn FnMut(usize, i32) -> Input) -> Result<(), NetError>;
    /// Each peer (two in one process, one over UDP).
    fn peers(&self) -> Vec<PeerView<'_>>;
    /// Makes the simulated network this bad (nothing over UDP).
    fn set_conditions(&mut self, conditions: Conditions);
    /// Sets every peer's input delay.
    fn set_delay(&mut self, delay: usize) -> Result<(), NetError>;
    /// Nudges the last peer's world at the next frame it simulates (and
    /// every time it simulates it again): that frame.
    fn nudge(&mut self) -> i32;
    /// Where the two peers' worlds first differ among the frames both
    /// confirmed and still keep (none over UDP, with one world here).
    fn first_difference(&self) -> Option<Deviation>;
    /// Packets sent and lost on the simulated network.
    fn traffic(&self) -> Option<(u64, u64)>;
    /// What the UDP socket heard amiss of the other peer, in words.
    fn heard(&self) -> Option<String>;
}

/// The peers of a game: two and the wire between them, or one over UDP
/// and what its socket hears of the other.
struct Peers<S: SandboxScalar, A: Address> {
    wire: Option<Rc<RefCell<Wire>>>,
    ends: Vec<Peer<S, A>>,
    heard: Option<(Rc<Cell<Heard>>, SocketAddr)>,
}

impl<S: SandboxScalar, A: Address> Match for Peers<S, A> {
    fn frame(&mut self, input: &mut dyn FnMut(usize, i32) -> Input) -> Result<(), NetError> {
        if let Some(wire) = &self.wire {
            wire.borrow_mut().advance(FRAME_US);
        }
        for peer in &mut self.ends {
            peer.poll();
            if peer.session.current_state() == SessionState::Running && !peer.disconnected {
                peer.advance(input(peer.handle, peer.session.current_frame()))?;
            }
        }
        Ok(())
    }

    fn peers(&self) -> Vec<PeerView<'_>> {
        // With an input delay, ggrs may have both players' inputs for frames
        // it has not reached yet: a peer has confirmed at most its frame, and
        // saved the frames before it.
        let confirmed = |p: &Peer<S, A>| p.session.confirmed_frame().min(p.session.current_frame());
        let common = self.ends.iter().map(|p| confirmed(p).min(p.session.current_frame() - 1)).min().unwrap_or(-1);
        self.ends
            .iter()
            .map(|p| {
                let confirmed = confirmed(p);
                PeerView {
                    world: &p.world,
                    players: p.players,
                    handle: p.handle,
                    running: p.session.current_state() == SessionState::Running,
                    frame: p.session.current_frame(),
                    confirmed,
                    rollbacks: p.report.rollbacks,
                    resimulated_per_second: p.resimulated_per_second(),
                    stalls: p.report.stalls,
                    compared: p.history.get(&common).map(|s| (common, s.checksum())),
                    ping_ms: p.session.network_stats(1 - p.handle).ok().map(|s| s.ping),
                    desync: p.report.desync,
                    disconnected: p.disconnected,
                    waiting: p.waiting,
                }
            })
            .collect()
    }

    fn set_conditions(&mut self, conditions: Conditions) {
        if let Some(wire) = &self.wire {
            wire.borrow_mut().set_conditions(conditions);
        }
    }

    fn set_delay(&mut self, delay: usize) -> Result<(), NetError> {
        for peer in &mut self.ends {
            peer.session.set_input_delay(peer.handle, delay)?;
        }
        Ok(())
    }

    fn nudge(&mut self) -> i32 {
        let Some(peer) = self.ends.last_mut() else { return 0 };
        let frame = peer.session.current_frame();
        peer.nudge_at = u64::try_from(frame).ok();
        frame
    }

    fn first_difference(&self) -> Option<Deviation> {
        let [a, b] = self.ends.as_slice() else { return None };
        let confirmed = a.session.confirmed_frame().min(b.session.confirmed_frame());
        let (mine, theirs) = a
            .history
            .range(..=confirmed)
            .filter_map(|(frame, mine)| Some((mine, b.history.get(frame)?)))
            .find(|(mine, theirs)| mine.checksum() != theirs.checksum())?;
        let (mut one, mut two) = (a.world.clone(), b.world.clone());
        one.restore(mine);
        two.restore(theirs);
        Some(deviation(&one, &two))
    }

    fn traffic(&self) -> Option<(u64, u64)> {
        self.wire.as_ref().map(|wire| {
            let wire = wire.borrow();
            (wire.sent, wire.lost)
        })
    }

    fn heard(&self) -> Option<String> {
        self.heard.as_ref().and_then(|(heard, remote)| heard_text(heard.get(), *remote))
    }
}

/// Two peers in this process over the simulated network.
fn local<S: SandboxScalar>(
    scene: &Scene,
    conditions: Conditions,
    seed: u64,
    delay: usize,
) -> Result<Box<dyn Match>, NetError> {
    let world = scene.build::<S>().map_err(NetError::Scene)?;
    let players = players(scene, &world)?;
    let wire = Rc::new(RefCell::new(Wire::new(conditions, seed)));
    let mut peers = Vec::from(wired_peers(&wire, &world, players, u32::MAX, delay)?);
    for peer in &mut peers {
        peer.keeps_history = true;
    }
    Ok(Box::new(Peers { wire: Some(wire), ends: peers, heard: None }))
}

/// This peer over UDP.
fn remote<S: SandboxScalar>(scene: &Scene, endpoint: &Endpoint, delay: usize) -> Result<Box<dyn Match>, NetError> {
    let heard = Rc::new(Cell::new(Heard::Nothing));
    let mut peer: Peer<S, SocketAddr> = udp_peer(scene, endpoint, u32::MAX, delay, Rc::clone(&heard))?;
    peer.keeps_history = true;
    Ok(Box::new(Peers { wire: None, ends: vec![peer], heard: Some((heard, endpoint.remote)) }))
}

/// What a message on the bottom line says, and whether it is an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Note {
    /// What it says.
    pub text: String,
    /// Whether it reports something refused or failed.
    pub error: bool,
}

/// The netcode lab.
///
/// # Examples
///
/// ```
/// use geom_tui::net::{Conditions, Lab};
/// use geom_tui::scene::{DEFAULT_SCENE, Scene};
/// use geom_tui::ScalarKind;
///
/// let conditions = Conditions { latency_ms: 50, ..Conditions::default() };
/// let mut lab = Lab::new(Scene::parse(DEFAULT_SCENE)?, ScalarKind::I32F32, conditions, 1)?;
/// for _ in 0..120 {
///     lab.play_frame();
/// }
/// let frames = lab.frames();
/// assert!(frames[0] > 60 && frames[1] > 60, "{frames:?}");
/// assert_eq!(lab.desyncs(), [None, None]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Lab {
    scene: Scene,
    kind: ScalarKind,
    endpoint: Option<Endpoint>,
    game: Box<dyn Match>,
    pub(crate) conditions: Conditions,
    seed: u64,
    /// The input delay asked for, in frames.
    pub(crate) delay: usize,
    /// The input delay the peers have (see [`Lab::change_delay`]).
    applied_delay: usize,
    pub(crate) controls: [Control; 2],
    /// Per player, the frames each direction (left, right, up, down) is
    /// still held.
    held: [[u8; 4]; 2],
    pub(crate) paused: bool,
    /// Real time not yet played.
    due: Duration,
    /// The frames desyncs were forced at, in order.
    pub(crate) nudges: Vec<i32>,
    /// Where the worlds first differ, once a desync is detected.
    pub(crate) divergence: Option<Deviation>,
    /// What stopped the game, if something did.
    pub(crate) failure: Option<String>,
    pub(crate) view: LabView,
}

/// How the lab is shown, and whether to quit.
pub(crate) struct LabView {
    /// The bottom line's message.
    pub note: Option<Note>,
    /// Whether the keys are shown.
    pub help: bool,
    /// The first line of the keys shown.
    pub help_top: u16,
    /// The terminal's width and height.
    pub size: (u16, u16),
    /// Colours, or none (`NO_COLOR`).
    pub colors: bool,
    quit: bool,
}

impl Lab {
    /// The lab on `scene` in `kind`: two peers in this process over a
    /// network with `conditions`, `seed` deciding the network's fates and
    /// the bots' inputs. Player 1 starts on the keyboard, player 2 as a
    /// bot.
    ///
    /// # Errors
    ///
    /// [`NetError::Scene`] when the scene does not fit the type,
    /// [`NetError::Players`] when it names no body for a player.
    ///
    /// See [`Lab`] for an example.
    pub fn new(scene: Scene, kind: ScalarKind, conditions: Conditions, seed: u64) -> Result<Self, NetError> {
        let game = with_scalar!(kind, S => local::<S>(&scene, conditions, seed, 0)?);
        Ok(Self::with(scene, kind, None, game, conditions, seed, [Control::Keys, Control::Bot]))
    }

    /// The lab on `scene` in `kind` as `endpoint.player`, against the
    /// other peer over UDP; this peer's player starts on the keyboard.
    ///
    /// # Errors
    ///
    /// [`Lab::new`]'s, and [`NetError::Udp`] when the port cannot be
    /// opened.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_tui::net::{Endpoint, Lab};
    /// use geom_tui::scene::{DEFAULT_SCENE, Scene};
    /// use geom_tui::ScalarKind;
    ///
    /// let port = std::net::UdpSocket::bind("127.0.0.1:0")?.local_addr()?.port();
    /// let endpoint = Endpoint::new(port, "127.0.0.1:9".parse()?, Some(1))?;
    /// let mut lab = Lab::over_udp(Scene::parse(DEFAULT_SCENE)?, ScalarKind::F64, endpoint)?;
    /// lab.play_frame();
    /// // Nobody answers on port 9: the peer waits to synchronise.
    /// assert_eq!(lab.frames(), [0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn over_udp(scene: Scene, kind: ScalarKind, endpoint: Endpoint) -> Result<Self, NetError> {
        let game = with_scalar!(kind, S => remote::<S>(&scene, &endpoint, 0)?);
        let mut controls = [Control::Remote; 2];
        controls[endpoint.handle()] = Control::Keys;
        Ok(Self::with(scene, kind, Some(endpoint), game, Conditions::default(), 0, controls))
    }

    fn with(
        scene: Scene,
        kind: ScalarKind,
        endpoint: Option<Endpoint>,
        game: Box<dyn Match>,
        conditions: Conditions,
        seed: u64,
        controls: [Control; 2],
    ) -> Self {
        Self {
            scene,
            kind,
            endpoint,
            game,
            conditions,
            seed,
            delay: 0,
            applied_delay: 0,
            controls,
            held: [[0; 4]; 2],
            paused: false,
            due: Duration::ZERO,
            nudges: Vec::new(),
            divergence: None,
            failure: None,
            view: LabView { note: None, help: false, help_top: 0, size: (80, 24), colors: true, quit: false },
        }
    }

    /// Colours on, or off for `NO_COLOR`.
    ///
    /// ```
    /// # use geom_tui::net::{Conditions, Lab};
    /// # use geom_tui::scene::{DEFAULT_SCENE, Scene};
    /// let mut lab = Lab::new(Scene::parse(DEFAULT_SCENE)?, geom_tui::ScalarKind::F32, Conditions::default(), 0)?;
    /// lab.set_colors(false);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_colors(&mut self, colors: bool) {
        self.view.colors = colors;
    }

    /// The scalar type the peers step in.
    pub(crate) fn kind(&self) -> ScalarKind {
        self.kind
    }

    /// The UDP endpoint, when playing over UDP.
    pub(crate) fn endpoint(&self) -> Option<&Endpoint> {
        self.endpoint.as_ref()
    }

    /// Each peer as the lab shows it.
    pub(crate) fn peers(&self) -> Vec<PeerView<'_>> {
        self.game.peers()
    }

    /// Packets sent and lost on the simulated network.
    pub(crate) fn traffic(&self) -> Option<(u64, u64)> {
        self.game.traffic()
    }

    /// The frame each peer is at (one over UDP).
    ///
    /// See [`Lab`] for an example.
    #[must_use]
    pub fn frames(&self) -> Vec<i32> {
        self.game.peers().iter().map(|p| p.frame).collect()
    }

    /// The first desync ggrs reported to each peer.
    ///
    /// See [`Lab`] for an example.
    #[must_use]
    pub fn desyncs(&self) -> Vec<Option<Desync>> {
        self.game.peers().iter().map(|p| p.desync).collect()
    }

    /// Whether the user asked to quit.
    #[must_use]
    pub fn should_quit(&self) -> bool {
        self.view.quit
    }

    /// How long the event loop may wait for a key before the next frame.
    #[must_use]
    pub fn frame_timeout(&self) -> Duration {
        if self.paused || self.failure.is_some() {
            Duration::from_millis(250)
        } else {
            FRAME.saturating_sub(self.due).max(Duration::from_millis(1))
        }
    }

    /// Plays the frames due after `elapsed` of real time, 60 a second (at
    /// most four at once: after a longer stall the lab goes on from where it
    /// was instead of racing to catch up), unless paused.
    pub fn advance(&mut self, elapsed: Duration) {
        if self.paused || self.failure.is_some() {
            return;
        }
        self.due += elapsed;
        let mut played = 0;
        while self.due >= FRAME && played < CATCH_UP {
            self.due -= FRAME;
            self.play_frame();
            played += 1;
        }
        if played == CATCH_UP {
            self.due = Duration::ZERO;
        }
    }

    /// Plays one frame now, whatever the clock says: the network delivers,
    /// each peer advances with its player's input, and a desync, once
    /// detected, is traced to the frame where the worlds first differ.
    ///
    /// See [`Lab`] for an example.
    pub fn play_frame(&mut self) {
        if self.failure.is_some() {
            return;
        }
        if self.applied_delay != self.delay {
            let next = if self.delay > self.applied_delay { self.applied_delay + 1 } else { self.applied_delay - 1 };
            match self.game.set_delay(next) {
                Ok(()) => self.applied_delay = next,
                Err(e) => {
                    self.warn(e.to_string());
                    self.delay = self.applied_delay;
                }
            }
        }
        let (controls, held, seed) = (self.controls, self.held, self.seed);
        let mut input = |handle: usize, frame: i32| match controls[handle] {
            Control::Bot => bot(seed, handle, u32::try_from(frame).unwrap_or(0)),
            Control::Keys => {
                held[handle].iter().enumerate().filter(|(_, left)| **left > 0).fold(0, |i, (b, _)| i | 1 << b)
            }
            Control::Remote => 0,
        };
        if let Err(e) = self.game.frame(&mut input) {
            self.failure = Some(format!("{e} · n starts a new game"));
        }
        for directions in &mut self.held {
            for left in directions {
                *left = left.saturating_sub(1);
            }
        }
        if let Some(heard) = self.game.heard() {
            self.failure = Some(heard);
            return;
        }
        let peers = self.game.peers();
        if let Some(gone) = peers.iter().find(|p| p.disconnected) {
            let whom =
                self.endpoint.map_or_else(|| "the other peer".to_owned(), |e| format!("the peer at {}", e.remote));
            self.failure = Some(format!("{whom} stopped answering at frame {} · n starts a new game", gone.frame));
        }
        if peers.iter().any(|p| p.desync.is_some()) && self.divergence.is_none() {
            self.divergence = self.game.first_difference();
        }
    }

    /// Handles a terminal event: a key press, or the terminal's new size.
    pub fn handle(&mut self, event: &Event) {
        match event {
            Event::Key(key) if key.kind == KeyEventKind::Press => self.key(*key),
            Event::Resize(width, height) => self.view.size = (*width, *height),
            _ => {}
        }
    }

    fn key(&mut self, key: KeyEvent) {
        if self.view.help {
            match key.code {
                KeyCode::Esc | KeyCode::Char('?' | 'q') => self.view.help = false,
                KeyCode::Up => self.view.help_top = self.view.help_top.saturating_sub(1),
                KeyCode::Down => {
                    let (width, height) = self.view.size;
                    let last = crate::ui::lab::help_last_top(width, height);
                    self.view.help_top = (self.view.help_top + 1).min(last);
                }
                _ => {}
            }
            return;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            self.view.quit = true;
            return;
        }
        let udp = self.endpoint.map(|e| e.handle());
        // Over UDP both sets of keys drive this peer's player.
        let press = |player: usize, direction: usize| (udp.unwrap_or(player), direction);
        let pressed = match key.code {
            KeyCode::Char('a') => Some(press(0, 0)),
            KeyCode::Char('d') => Some(press(0, 1)),
            KeyCode::Char('w') => Some(press(0, 2)),
            KeyCode::Char('s') => Some(press(0, 3)),
            KeyCode::Left => Some(press(1, 0)),
            KeyCode::Right => Some(press(1, 1)),
            KeyCode::Up => Some(press(1, 2)),
            KeyCode::Down => Some(press(1, 3)),
            _ => None,
        };
        if let Some((player, direction)) = pressed {
            return self.hold(player, direction);
        }
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => self.view.quit = true,
            KeyCode::Char('?') => (self.view.help, self.view.help_top) = (true, 0),
            KeyCode::Char(' ') => {
                self.paused = !self.paused;
                self.due = Duration::ZERO;
            }
            KeyCode::Char(c @ ('1' | '2')) => self.toggle_control(usize::from(c == '2')),
            KeyCode::Char(c @ ('l' | 'L' | 'j' | 'J' | 'p' | 'P' | 'r' | 'R')) => self.change_network(c),
            KeyCode::Char(c @ ('i' | 'I')) => self.change_delay(c == 'I'),
            KeyCode::Char('x') => {
                let frame = self.game.nudge();
                self.nudges.push(frame);
                let whose = if udp.is_some() { "this peer's" } else { "peer 2's" };
                // Floating-point addition may round a one-step difference
                // away (fixed point's is exact): the next press nudges again.
                let float = if matches!(self.kind, ScalarKind::F32 | ScalarKind::F64) {
                    " (a float step may round it away: x again)"
                } else {
                    ""
                };
                self.say(format!(
                    "{whose} world nudged at frame {frame}: player 1's body one rounding step right{float}"
                ));
            }
            KeyCode::Char('n') => self.restart(),
            _ => self.warn("no such key: ? shows the keys".to_owned()),
        }
    }

    /// Holds `direction` of `player` for [`HOLD`] frames, letting go of
    /// the opposite one, when the keyboard drives that player.
    fn hold(&mut self, player: usize, direction: usize) {
        if self.controls[player] != Control::Keys {
            let keys = if player == 0 { "1" } else { "2" };
            return self.warn(format!("player {} is a bot: {keys} gives it the keys", player + 1));
        }
        let held = &mut self.held[player];
        held[direction ^ 1] = 0;
        held[direction] = HOLD;
    }

    fn toggle_control(&mut self, player: usize) {
        let control = match self.controls[player] {
            Control::Keys => Control::Bot,
            Control::Bot => Control::Keys,
            Control::Remote => {
                return self.warn(format!("player {} plays in the other process", player + 1));
            }
        };
        self.controls[player] = control;
        self.held[player] = [0; 4];
        let what = if control == Control::Bot { "a bot" } else { "the keys" };
        self.say(format!("player {}: {what}", player + 1));
    }

    fn change_network(&mut self, key: char) {
        if self.endpoint.is_some() {
            return self.warn("over UDP the network is real: its conditions are not keys".to_owned());
        }
        let up = key.is_ascii_uppercase();
        let c = &mut self.conditions;
        let (value, step, most, name, unit) = match key.to_ascii_lowercase() {
            'l' => (&mut c.latency_ms, 10, 1000, "latency", " ms"),
            'j' => (&mut c.jitter_ms, 5, 500, "jitter", " ms"),
            'p' => (&mut c.loss_percent, 5, 100, "packet loss", "%"),
            _ => (&mut c.reorder_percent, 5, 100, "reordering", "%"),
        };
        *value = if up { (*value + step).min(most) } else { value.saturating_sub(step) };
        let text = format!("{name} {}{unit}", *value);
        self.game.set_conditions(self.conditions);
        self.say(text);
    }

    /// Asks for an input delay a frame longer or shorter; [`Lab::play_frame`]
    /// moves the peers' delay to it a frame at a time (ggrs stalls for good
    /// when it changes by two between frames).
    fn change_delay(&mut self, up: bool) {
        self.delay = if up { (self.delay + 1).min(MAX_DELAY) } else { self.delay.saturating_sub(1) };
        let delay = self.delay;
        self.say(format!("input delay {delay} frame{}", if delay == 1 { "" } else { "s" }));
    }

    /// A new game from frame 0 with the same settings and players.
    fn restart(&mut self) {
        let game = match self.endpoint {
            Some(endpoint) => {
                // The old socket lets go of the port first.
                self.game = Box::new(Peers::<f64, SocketAddr> { wire: None, ends: Vec::new(), heard: None });
                with_scalar!(self.kind, S => remote::<S>(&self.scene, &endpoint, self.delay))
            }
            None => with_scalar!(self.kind, S => local::<S>(&self.scene, self.conditions, self.seed, self.delay)),
        };
        self.applied_delay = self.delay;
        match game {
            Ok(game) => {
                self.game = game;
                self.failure = None;
                self.say("a new game".to_owned());
            }
            Err(e) => self.failure = Some(format!("{e} · n tries again")),
        }
        (self.divergence, self.held, self.due) = (None, [[0; 4]; 2], Duration::ZERO);
        self.nudges.clear();
    }

    fn say(&mut self, text: String) {
        self.view.note = Some(Note { text, error: false });
    }

    fn warn(&mut self, text: String) {
        self.view.note = Some(Note { text, error: true });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::DEFAULT_SCENE;

    fn press(lab: &mut Lab, code: KeyCode) {
        lab.handle(&Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }

    fn lab(conditions: Conditions) -> Lab {
        Lab::new(Scene::parse(DEFAULT_SCENE).unwrap(), ScalarKind::I32F32, conditions, 5).unwrap()
    }

    #[test]
    fn a_held_key_moves_player_one_on_both_peers_and_the_peers_agree() {
        let mut lab = lab(Conditions { latency_ms: 30, ..Conditions::default() });
        let x = |peer: &PeerView<'_>| {
            peer.world.bodies().into_iter().find(|(id, _)| *id == peer.players[0]).map(|(_, b)| b.position.x).unwrap()
        };
        let start = x(&lab.peers()[0]);
        for frame in 0..240 {
            // A terminal's key repeat: a press every tenth of a second.
            if frame % 6 == 0 {
                press(&mut lab, KeyCode::Char('d'));
            }
            lab.play_frame();
        }
        let peers = lab.peers();
        for peer in &peers {
            assert!(x(peer) > start + 1.0, "player 1 moved right on peer {}", peer.handle + 1);
            assert!(peer.confirmed > 100 && peer.desync.is_none(), "peer {}", peer.handle + 1);
        }
        // Peer 2 learns of the presses 30 ms late, and rolls back for them.
        assert!(peers[1].rollbacks > 0);
    }

    #[test]
    fn the_network_keys_change_the_conditions_within_their_ranges() {
        let mut lab = lab(Conditions::default());
        for _ in 0..3 {
            press(&mut lab, KeyCode::Char('L'));
        }
        press(&mut lab, KeyCode::Char('l'));
        press(&mut lab, KeyCode::Char('j'));
        for _ in 0..30 {
            press(&mut lab, KeyCode::Char('P'));
        }
        press(&mut lab, KeyCode::Char('R'));
        let expected = Conditions { latency_ms: 20, jitter_ms: 0, loss_percent: 100, reorder_percent: 5 };
        assert_eq!(lab.conditions, expected);
        assert_eq!(lab.view.note.as_ref().map(|n| n.text.as_str()), Some("reordering 5%"));
    }

    #[test]
    fn a_forced_desync_is_detected_and_traced_to_the_frame_the_worlds_first_differ() {
        let mut lab = lab(Conditions { latency_ms: 20, ..Conditions::default() });
        press(&mut lab, KeyCode::Char('2'));
        press(&mut lab, KeyCode::Char('1'));
        assert_eq!(lab.controls, [Control::Bot, Control::Keys]);
        for _ in 0..120 {
            lab.play_frame();
        }
        press(&mut lab, KeyCode::Char('x'));
        let nudged = lab.nudges[0];
        for _ in 0..120 {
            lab.play_frame();
        }
        let desyncs = lab.desyncs();
        assert!(desyncs.iter().all(Option::is_some), "{desyncs:?}");
        let first = lab.divergence.expect("traced");
        // The nudge moves a body while frame `nudged` is simulated: the
        // first frame saved with it is the next.
        assert!(first.tick > u64::try_from(nudged).unwrap(), "{first:?} after {nudged}");
        assert!(first.gap > 0.0 && first.gap < 1e-6, "{first:?}");
        for d in desyncs.into_iter().flatten() {
            assert!(u64::try_from(d.frame).unwrap() >= first.tick, "{d:?} before {first:?}");
        }
    }

    #[test]
    fn raising_the_input_delay_twice_in_a_frame_never_stalls_the_game() {
        let mut lab = lab(Conditions::default());
        for _ in 0..120 {
            lab.play_frame();
        }
        press(&mut lab, KeyCode::Char('I'));
        press(&mut lab, KeyCode::Char('I'));
        let before = lab.frames();
        for _ in 0..120 {
            lab.play_frame();
        }
        let after = lab.frames();
        assert!(after.iter().zip(&before).all(|(a, b)| a - b > 100), "{before:?} → {after:?}");
        for peer in lab.peers() {
            assert!(peer.confirmed <= peer.frame, "confirmed {} of frame {}", peer.confirmed, peer.frame);
        }
    }

    /// Two labs on this machine playing each other over UDP, as two
    /// terminals would, in this one thread.
    fn udp_pair(kinds: [ScalarKind; 2]) -> [Lab; 2] {
        let port = || std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let ports = [port(), port()];
        [0, 1].map(|i| {
            let remote = format!("127.0.0.1:{}", ports[1 - i]).parse().unwrap();
            let endpoint = Endpoint::new(ports[i], remote, Some(u8::try_from(i + 1).unwrap())).unwrap();
            Lab::over_udp(Scene::parse(DEFAULT_SCENE).unwrap(), kinds[i], endpoint).unwrap()
        })
    }

    /// Plays frames on both, a millisecond apart for the packets, until
    /// `done` says so (at most 10 s: ggrs retries a lost handshake after
    /// 200 ms of real time); whether it did.
    fn play_both_until(labs: &mut [Lab; 2], done: impl Fn(&[Lab; 2]) -> bool) -> bool {
        let start = std::time::Instant::now();
        while !done(labs) {
            if start.elapsed() > Duration::from_secs(10) {
                return false;
            }
            for lab in labs.iter_mut() {
                lab.play_frame();
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        true
    }

    /// Both labs are past frame `n`.
    fn past(n: i32) -> impl Fn(&[Lab; 2]) -> bool {
        move |labs| labs.iter().all(|l| l.failure.is_none() && l.frames()[0] > n)
    }

    #[test]
    fn over_udp_a_new_game_on_one_end_waits_for_the_other_instead_of_failing_inside_ggrs() {
        let mut labs = udp_pair([ScalarKind::I32F32; 2]);
        assert!(play_both_until(&mut labs, past(60)), "{:?}", labs.each_ref().map(Lab::frames));
        // One end starts a new game while the other plays on: before,
        // ggrs took the old game's inputs for the new one's and panicked.
        press(&mut labs[0], KeyCode::Char('n'));
        let told = |labs: &[Lab; 2]| labs[1].failure.is_some();
        assert!(play_both_until(&mut labs, told), "the other end is told");
        let failure = labs[1].failure.clone().unwrap_or_default();
        assert!(failure.contains("started a new game"), "{failure}");
        assert_eq!(labs[0].frames(), [0], "the new game waits for the other end");
        press(&mut labs[1], KeyCode::Char('n'));
        assert!(play_both_until(&mut labs, past(60)), "{:?}", labs.each_ref().map(Lab::frames));
    }

    #[test]
    fn over_udp_two_ends_in_different_scalar_types_are_told_so() {
        let mut labs = udp_pair([ScalarKind::I32F32, ScalarKind::F32]);
        let told = |labs: &[Lab; 2]| labs.iter().all(|l| l.failure.is_some());
        assert!(play_both_until(&mut labs, told), "both ends are told");
        for lab in &labs {
            let failure = lab.failure.clone().unwrap_or_default();
            assert!(failure.contains("plays another game: both ends need the same scene and scalar type"), "{failure}");
        }
    }
}
