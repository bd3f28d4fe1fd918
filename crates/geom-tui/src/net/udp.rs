//! The game over a real network: one peer in this process, the other in
//! another (on this machine or another one), joined by ggrs's own UDP
//! socket.

use std::cell::Cell;
use std::io::ErrorKind;
use std::net::{SocketAddr, UdpSocket};
use std::rc::Rc;
use std::time::{Duration, Instant};

use ggrs::{Message, NonBlockingSocket, SessionState};

use super::peer::{Peer, session};
use super::{NetError, Options, PeerReport, bot_or_rest, players};
use crate::num::{SandboxScalar, with_scalar};
use crate::scene::Scene;

/// How long a peer waits for the other to answer at all.
const SYNC_PATIENCE: Duration = Duration::from_secs(30);

/// How long without a packet before ggrs declares the other peer gone.
pub(super) const TIMEOUT: Duration = Duration::from_secs(5);

/// How long a peer goes on answering once it has confirmed its last
/// frame, so the other, a few frames behind, can confirm it too.
const LINGER: Duration = Duration::from_secs(1);

/// One end of a game over UDP: the port this peer listens on (on every
/// interface), the other peer's address, and which player this one is.
///
/// # Examples
///
/// ```
/// use geom_tui::net::Endpoint;
///
/// let remote = "127.0.0.1:7001".parse()?;
/// // Without `--player`, the lower port plays player 1.
/// assert_eq!(Endpoint::new(7000, remote, None)?.player, 1);
/// assert_eq!(Endpoint::new(7002, remote, None)?.player, 2);
/// let other_machine = "192.168.1.20:7001".parse()?;
/// assert_eq!(Endpoint::new(7001, other_machine, Some(2))?.player, 2);
/// assert!(Endpoint::new(7001, other_machine, None).is_err(), "the same port on both: say which player");
/// assert!(Endpoint::new(7001, remote, Some(1)).is_err(), "127.0.0.1:7001 is this peer itself");
/// assert!(Endpoint::new(0, remote, Some(1)).is_err(), "no peer can name port 0");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// The UDP port this peer listens on.
    pub local_port: u16,
    /// The other peer's address.
    pub remote: SocketAddr,
    /// This peer's player, 1 or 2.
    pub player: u8,
}

impl Endpoint {
    /// The endpoint, playing `player` or, without one, player 1 if this
    /// peer's port is the lower of the two and player 2 if it is the
    /// higher.
    ///
    /// # Errors
    ///
    /// [`NetError::Udp`] when the port is 0, when `remote` is this peer
    /// itself (this port on this machine), when `player` is neither 1 nor
    /// 2, or when it is not given and both ports are the same (two
    /// machines on the same port must say which player each is).
    ///
    /// See [`Endpoint`] for an example.
    pub fn new(local_port: u16, remote: SocketAddr, player: Option<u8>) -> Result<Self, NetError> {
        if local_port == 0 {
            return Err(NetError::Udp("port 0 is no port the other peer can name: give one from 1 to 65535".into()));
        }
        let here = remote.ip().is_loopback() || remote.ip().is_unspecified();
        if here && remote.port() == local_port {
            return Err(NetError::Udp(format!("--remote {remote} is this peer itself: name the other peer's port")));
        }
        let player = match player {
            Some(p @ (1 | 2)) => p,
            Some(p) => return Err(NetError::Udp(format!("there are players 1 and 2, not {p}"))),
            None if local_port < remote.port() => 1,
            None if local_port > remote.port() => 2,
            None => {
                return Err(NetError::Udp(format!(
                    "both peers use port {local_port}: say which player this one is (--player 1 or 2, and the \
                     other for the other peer)"
                )));
            }
        };
        Ok(Self { local_port, remote, player })
    }

    /// This peer's ggrs handle: 0 for player 1, 1 for player 2.
    pub(super) fn handle(&self) -> usize {
        usize::from(self.player == 2)
    }
}

/// What the socket saw of the other peer that ggrs cannot say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Heard {
    /// Nothing amiss.
    #[default]
    Nothing,
    /// It plays another game: another scene or scalar type.
    OtherGame,
    /// It started a new game (pressed `n`, or was started again) while
    /// this one goes on.
    NewGame,
}

/// The bytes before each datagram's message: `GEOM`, the game's mark (a
/// hash of the scene and the scalar type), the sender's game's number and
/// the receiver's as the sender knows it (0 before it does).
const HEADER: usize = 4 + 8 + 8 + 8;

/// ggrs's messages over UDP between the two ends of one game.
///
/// Each datagram carries the marks of [`HEADER`], and the socket passes
/// ggrs only those of the game it plays. ggrs itself tells a game from the
/// next only once synchronised: a peer that starts a new game (`n`, or a
/// process started again) while the other still plays the old one would
/// take the old game's inputs for its own and stop on an assertion. Here
/// the new game hears nothing until the other starts one too, and the old
/// one is told ([`Heard::NewGame`]). A game's number comes from the clock,
/// the process and the port: it only tells games apart and never reaches
/// the game itself.
struct GameSocket {
    socket: UdpSocket,
    remote: SocketAddr,
    /// The scene's and scalar type's mark.
    game: u64,
    /// This game's number.
    mine: u64,
    /// The other's game's number, once heard.
    theirs: Option<u64>,
    heard: Rc<Cell<Heard>>,
    buffer: Vec<u8>,
}

impl GameSocket {
    fn open(endpoint: &Endpoint, game: u64, heard: Rc<Cell<Heard>>) -> Result<Self, NetError> {
        let port = endpoint.local_port;
        let socket = UdpSocket::bind(("0.0.0.0", port))
            .and_then(|s| s.set_nonblocking(true).map(|()| s))
            .map_err(|e| NetError::Udp(format!("cannot listen on UDP port {port}: {e}")))?;
        let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        let mut bytes = [0_u8; 22];
        bytes[..16].copy_from_slice(&since.as_nanos().to_le_bytes());
        bytes[16..20].copy_from_slice(&std::process::id().to_le_bytes());
        bytes[20..].copy_from_slice(&port.to_le_bytes());
        let mine = seahash::hash(&bytes).max(1);
        Ok(Self { socket, remote: endpoint.remote, game, mine, theirs: None, heard, buffer: vec![0; 4096] })
    }

    /// The message of a datagram of this game, if it is one.
    fn accept(&mut self, datagram: &[u8]) -> Option<Message> {
        let (header, body) = datagram.split_at_checked(HEADER)?;
        let word = |i: usize| header.get(i..i + 8).and_then(|b| b.try_into().ok()).map(u64::from_le_bytes);
        let (game, sender, receiver) = (word(4)?, word(12)?, word(20)?);
        if &header[..4] != b"GEOM" || sender == self.mine {
            return None;
        }
        if game != self.game {
            self.heard.set(Heard::OtherGame);
            return None;
        }
        let knows_us = receiver == 0 || receiver == self.mine;
        match self.theirs {
            None if knows_us => self.theirs = Some(sender),
            Some(theirs) if theirs == sender && knows_us => {}
            Some(_) if receiver == 0 => {
                self.heard.set(Heard::NewGame);
                return None;
            }
            // An older game's datagram.
            _ => return None,
        }
        bincode::deserialize(body).ok()
    }
}

impl NonBlockingSocket<SocketAddr> for GameSocket {
    fn send_to(&mut self, message: &Message, to: &SocketAddr) {
        let Ok(body) = bincode::serialize(message) else { return };
        let mut datagram = Vec::with_capacity(HEADER + body.len());
        datagram.extend_from_slice(b"GEOM");
        for word in [self.game, self.mine, self.theirs.unwrap_or(0)] {
            datagram.extend_from_slice(&word.to_le_bytes());
        }
        datagram.extend_from_slice(&body);
        // A datagram that cannot leave is a lost packet, which ggrs
        // resends.
        let _ = self.socket.send_to(&datagram, to);
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        let mut messages = Vec::new();
        let mut buffer = std::mem::take(&mut self.buffer);
        loop {
            match self.socket.recv_from(&mut buffer) {
                Ok((n, from)) if from == self.remote => {
                    if let Some(message) = buffer.get(..n).and_then(|d| self.accept(d)) {
                        messages.push((from, message));
                    }
                }
                Ok(_) => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                // The other end's port closed (a refusal the system
                // reports on a later receive): nothing arrived.
                Err(e) if e.kind() == ErrorKind::ConnectionRefused || e.kind() == ErrorKind::ConnectionReset => {}
                Err(_) => break,
            }
        }
        self.buffer = buffer;
        messages
    }
}

/// The mark both ends of a game must share: the scene as written out, and
/// the scalar type.
fn game_mark(scene: &Scene, kind: crate::ScalarKind) -> u64 {
    seahash::hash(format!("{kind}\n{}", scene.to_toml()).as_bytes())
}

/// A peer of the game over UDP, synchronising with the other: `watch` is
/// the frame whose checksum its report keeps, `delay` its input delay,
/// `heard` what the socket hears of the other that ggrs does not say.
pub(super) fn udp_peer<S: SandboxScalar>(
    scene: &Scene,
    endpoint: &Endpoint,
    watch: u32,
    delay: usize,
    heard: Rc<Cell<Heard>>,
) -> Result<Peer<S, SocketAddr>, NetError> {
    let world = scene.build::<S>().map_err(NetError::Scene)?;
    let players = players(scene, &world)?;
    let socket = GameSocket::open(endpoint, game_mark(scene, S::KIND), heard)?;
    let session = session(endpoint.handle(), endpoint.remote, TIMEOUT, delay, socket)?;
    Ok(Peer::new(session, endpoint.handle(), world, players, watch))
}

/// What [`Heard`] means, in words, or `None` for nothing amiss.
pub(crate) fn heard_text(heard: Heard, remote: SocketAddr) -> Option<String> {
    match heard {
        Heard::Nothing => None,
        Heard::OtherGame => {
            Some(format!("the peer at {remote} plays another game: both ends need the same scene and scalar type"))
        }
        Heard::NewGame => Some(format!("the peer at {remote} started a new game · n starts one here too")),
    }
}

/// What one peer of a game over UDP reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UdpReport {
    /// Where it played.
    pub endpoint: Endpoint,
    /// Its account; [`PeerReport::checksum`] is its checksum of the last
    /// frame, which the other peer's must equal.
    pub peer: PeerReport,
}

impl UdpReport {
    /// Writes the report: the peer's line (as [`Report::write`](super::Report::write)
    /// writes it), the other peer's address, and the verdict (`no desync:
    /// …` or `desync: …`); with `json`, one JSON document.
    ///
    /// # Errors
    ///
    /// The output's.
    ///
    /// See [`run_udp`] for an example.
    pub fn write(&self, options: &Options, json: bool, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let e = self.endpoint;
        if json {
            let document = serde_json::json!({
                "scalar": options.kind.to_string(),
                "frames": options.frames,
                "player": e.player,
                "local_port": e.local_port,
                "remote": e.remote.to_string(),
                "seed": options.seed,
                "desync_at": options.desync_at,
                "peer": self.peer.json(),
            });
            return writeln!(out, "{document}");
        }
        writeln!(out, "{}", self.peer.line(usize::from(e.player)))?;
        writeln!(out, "network: UDP port {} with the peer at {}", e.local_port, e.remote)?;
        match self.peer.desync {
            None => writeln!(
                out,
                "no desync: this peer's checksum of frame {} is {:016x}",
                options.frames, self.peer.checksum
            ),
            Some(d) => {
                writeln!(out, "desync: detected at frame {} ({:016x} against {:016x})", d.frame, d.local, d.remote)
            }
        }
    }
}

/// Plays `scene` as player `endpoint.player` against a peer in another
/// process over UDP, with the bots of [`Options::seed`], as fast as the
/// two can, until this peer has confirmed frame [`Options::frames`];
/// then it goes on answering for a second, so the other can confirm it
/// too. [`Options::conditions`] does not apply (the network is real);
/// [`Options::desync_at`] nudges this peer's world.
///
/// # Errors
///
/// [`NetError::Udp`] when the port cannot be opened, the other peer does
/// not answer within 30 s or stops answering for 5 s; [`run`](super::run)'s
/// others.
///
/// # Examples
///
/// ```
/// use geom_tui::net::{Conditions, Endpoint, Options, checksums_without_network, run_udp};
/// use geom_tui::scene::{DEFAULT_SCENE, Scene};
/// use geom_tui::ScalarKind;
///
/// // Two peers on this machine, each on a thread of its own here (a
/// // process of its own with `geom-tui run --net --local … --remote …`).
/// let ports = [free_port(), free_port()];
/// let options = Options { kind: ScalarKind::I32F32, frames: 120, conditions: Conditions::default(), seed: 3, desync_at: None };
/// let peers: Vec<_> = (0..2)
///     .map(|i| {
///         let remote = format!("127.0.0.1:{}", ports[1 - i]).parse().unwrap();
///         let endpoint = Endpoint::new(ports[i], remote, Some(i as u8 + 1)).unwrap();
///         std::thread::spawn(move || run_udp(&Scene::parse(DEFAULT_SCENE).unwrap(), &options, &endpoint))
///     })
///     .collect();
/// let reports: Vec<_> = peers.into_iter().map(|p| p.join().unwrap().unwrap()).collect();
/// assert_eq!(reports[0].peer.checksum, reports[1].peer.checksum);
/// let alone = checksums_without_network(&Scene::parse(DEFAULT_SCENE)?, &options, false)?;
/// assert_eq!(reports[0].peer.checksum, alone[120]);
/// let mut out = Vec::new();
/// reports[0].write(&options, false, &mut out)?;
/// assert!(String::from_utf8(out)?.contains("no desync: this peer's checksum of frame 120 is "));
///
/// fn free_port() -> u16 {
///     std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_udp(scene: &Scene, options: &Options, endpoint: &Endpoint) -> Result<UdpReport, NetError> {
    let peer = with_scalar!(options.kind, S => play_udp::<S>(scene, options, endpoint)?);
    Ok(UdpReport { endpoint: *endpoint, peer })
}

fn play_udp<S: SandboxScalar>(scene: &Scene, options: &Options, endpoint: &Endpoint) -> Result<PeerReport, NetError> {
    let heard = Rc::new(Cell::new(Heard::Nothing));
    let mut peer = udp_peer::<S>(scene, endpoint, options.frames, 0, Rc::clone(&heard))?;
    peer.nudge_at = options.desync_at.map(u64::from);
    let amiss = || heard_text(heard.get(), endpoint.remote).map(NetError::Udp);
    let started = Instant::now();
    while peer.session.current_state() != SessionState::Running {
        peer.poll();
        if let Some(e) = amiss() {
            return Err(e);
        }
        if started.elapsed() > SYNC_PATIENCE {
            return Err(NetError::Udp(format!(
                "no answer from {} within {} s: is the other peer running, with --remote naming this one's port {}?",
                endpoint.remote,
                SYNC_PATIENCE.as_secs(),
                endpoint.local_port
            )));
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let last = i32::try_from(options.frames).unwrap_or(i32::MAX);
    while peer.session.confirmed_frame() < last {
        peer.poll();
        if let Some(e) = amiss() {
            return Err(e);
        }
        if peer.disconnected {
            return Err(NetError::Udp(format!(
                "the peer at {} stopped answering at frame {} ({} s without a packet)",
                endpoint.remote,
                peer.session.current_frame(),
                TIMEOUT.as_secs()
            )));
        }
        let input = bot_or_rest(options, peer.handle, peer.session.current_frame());
        if !peer.advance(input)? {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    // Every input the other needs is sent; answering lets ggrs resend
    // what was lost and acknowledge what arrives.
    let confirmed = Instant::now();
    while confirmed.elapsed() < LINGER {
        peer.poll();
        std::thread::sleep(Duration::from_millis(1));
    }
    Ok(peer.report)
}
