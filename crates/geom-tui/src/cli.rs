//! The command line of the `geom-tui` binary, as a library function so
//! that it can be tested and fuzzed without running the binary: [`parse`]
//! turns the arguments into a [`Cli`], or clap's typed error (which the
//! binary prints, exiting with code 2, or 0 for `--help` and `--version`).

use std::ffi::OsString;
use std::net::{SocketAddr, ToSocketAddrs as _};
use std::path::{Path, PathBuf};

use clap::builder::{OsStringValueParser, TypedValueParser as _};
use clap::{CommandFactory as _, Parser, Subcommand};

use crate::ScalarKind;
use crate::net::Conditions;
use crate::scene::{DEFAULT_SCENE, Scene, SceneError};

/// The precision used when neither the command line nor the scene names one.
pub const DEFAULT_KIND: ScalarKind = ScalarKind::I32F32;

/// geom's collision sandbox: step, rewind, edit and inspect collisions tick
/// by tick in f32, f64, I16F16, I32F32 and I48F16. Press ? inside for keys.
#[derive(Clone, Debug, PartialEq, Eq, Parser)]
#[command(name = "geom-tui", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// `run`, or nothing for the sandbox.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// A scene file (TOML) to open, or `default` for the built-in scene
    /// (a file called `default` is `./default`); without one, the built-in
    /// scene.
    #[arg(value_name = "SCENE", value_parser = scene_source())]
    pub scene: Option<SceneSource>,
    /// The precision to start in: f32, f64, I16F16, I32F32 or I48F16
    /// [default: the scene's `scalar`, else I32F32].
    #[arg(long, value_parser = parse_kind)]
    pub scalar: Option<ScalarKind>,
}

/// The subcommands.
// The doc comments are clap's help text, printed as they are: `<tick>` is
// not an HTML tag.
#[allow(rustdoc::invalid_html_tags)]
#[derive(Clone, Debug, PartialEq, Eq, Subcommand)]
pub enum Command {
    /// Step a scene without a terminal and print the world's checksum at
    /// every tick ("<tick> <16 hex digits>"), with --events every event
    /// after its tick's line ("<tick> <kind> <ids…> …"), or with --json one
    /// JSON document with the final state too.
    Run {
        /// The scene file, or `default` for the built-in scene (a file
        /// called `default` is `./default`).
        #[arg(value_name = "SCENE", value_parser = scene_source())]
        scene: SceneSource,
        /// How many ticks to step.
        #[arg(long, allow_negative_numbers = true, value_parser = parse_ticks)]
        ticks: u64,
        /// The precision: f32, f64, I16F16, I32F32 or I48F16
        /// [default: the scene's `scalar`, else I32F32].
        #[arg(long, value_parser = parse_kind)]
        scalar: Option<ScalarKind>,
        /// Print one JSON document instead of text lines.
        #[arg(long)]
        json: bool,
        /// Print every event of every tick too: impacts, contacts and
        /// sensor overlaps that began and ended.
        #[arg(long)]
        events: bool,
        /// Apply the impulses and velocities of this TOML file to bodies at
        /// the ticks it gives (--help shows the format).
        #[arg(long, value_name = "FILE", long_help = INPUTS_HELP)]
        inputs: Option<PathBuf>,
        /// Play the scene as a two-player rollback game instead (--net).
        #[command(flatten)]
        net: NetArgs,
    },
    /// The netcode lab: the scene as a two-player rollback game, two peers
    /// side by side over a simulated network you make worse with keys (or,
    /// with --local and --remote, this peer against one in another
    /// process over UDP). Press ? inside for keys.
    Net {
        /// The scene file, or `default` for the built-in scene (its bodies
        /// with `player = 1` and `player = 2` are the players').
        #[arg(value_name = "SCENE", value_parser = scene_source())]
        scene: Option<SceneSource>,
        /// The precision: f32, f64, I16F16, I32F32 or I48F16
        /// [default: the scene's `scalar`, else I32F32].
        #[arg(long, value_parser = parse_kind)]
        scalar: Option<ScalarKind>,
        /// The network to start with (keys change it).
        #[command(flatten)]
        network: NetworkArgs,
        /// Over UDP instead.
        #[command(flatten)]
        udp: UdpArgs,
    },
}

/// `run --net`: the scene as a two-player rollback game (see
/// [`net`](crate::net)).
#[derive(Clone, Debug, Default, PartialEq, Eq, clap::Args)]
pub struct NetArgs {
    /// Play --ticks frames of the scene as a two-player rollback game: two
    /// peers (ggrs P2P sessions) over a simulated network (or one peer
    /// over UDP, with --local and --remote), seeded bots driving the
    /// bodies with `player = 1` and `player = 2`; print per peer the
    /// frames, rollbacks, re-simulated ticks, worst prediction and the
    /// last frame's checksum, and whether the peers agree.
    #[arg(long, conflicts_with_all = ["events", "inputs"])]
    pub net: bool,
    /// The network.
    #[command(flatten)]
    pub network: NetworkArgs,
    /// With --net: nudge the second peer's world (over UDP, this peer's)
    /// one rounding step at this frame, for ggrs's desync detection to
    /// catch.
    #[arg(long, value_name = "FRAME", allow_negative_numbers = true)]
    pub desync: Option<u32>,
    /// Over UDP instead.
    #[command(flatten)]
    pub udp: UdpArgs,
}

impl NetArgs {
    /// The first option given that only `--net` takes, if `--net` is not.
    fn needing_net(&self) -> Option<&'static str> {
        let n = &self.network;
        let given = [
            ("--latency", n.latency.is_some()),
            ("--jitter", n.jitter.is_some()),
            ("--loss", n.loss.is_some()),
            ("--reorder", n.reorder.is_some()),
            ("--bots", n.bots.is_some()),
            ("--desync", self.desync.is_some()),
            ("--local", self.udp.local.is_some()),
        ];
        given.into_iter().find(|&(_, given)| given && !self.net).map(|(name, _)| name)
    }
}

/// The simulated network between two peers in one process, and the bots'
/// seed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::Args)]
pub struct NetworkArgs {
    /// Each packet's delay in milliseconds [default: 0].
    #[arg(long, value_name = "MS", allow_negative_numbers = true)]
    pub latency: Option<u32>,
    /// The most a packet's delay differs from the latency [default: 0].
    #[arg(long, value_name = "MS", allow_negative_numbers = true)]
    pub jitter: Option<u32>,
    /// The percentage of packets lost [default: 0].
    #[arg(long, value_name = "PCT", allow_negative_numbers = true, value_parser = percent())]
    pub loss: Option<u32>,
    /// The percentage of packets held back past later ones [default: 0].
    #[arg(long, value_name = "PCT", allow_negative_numbers = true, value_parser = percent())]
    pub reorder: Option<u32>,
    /// The seed of the bots' inputs and the network's losses [default: 0].
    #[arg(long, value_name = "SEED", allow_negative_numbers = true)]
    pub bots: Option<u64>,
}

impl NetworkArgs {
    /// The conditions named, 0 where not.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_tui::cli::NetworkArgs;
    /// use geom_tui::net::Conditions;
    ///
    /// let args = NetworkArgs { latency: Some(100), ..NetworkArgs::default() };
    /// assert_eq!(args.conditions(), Conditions { latency_ms: 100, ..Conditions::default() });
    /// ```
    #[must_use]
    pub fn conditions(&self) -> Conditions {
        Conditions {
            latency_ms: self.latency.unwrap_or(0),
            jitter_ms: self.jitter.unwrap_or(0),
            loss_percent: self.loss.unwrap_or(0),
            reorder_percent: self.reorder.unwrap_or(0),
        }
    }
}

/// One peer per process, over UDP.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::Args)]
pub struct UdpArgs {
    /// Play one peer over UDP, listening on this port; the other peer runs
    /// elsewhere with --remote naming this one.
    #[arg(
        long,
        value_name = "PORT",
        requires = "remote",
        conflicts_with_all = ["latency", "jitter", "loss", "reorder"],
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u16).range(1..)
    )]
    pub local: Option<u16>,
    /// The other peer's address, HOST:PORT (with --local).
    #[arg(long, value_name = "HOST:PORT", requires = "local", value_parser = socket_address)]
    pub remote: Option<SocketAddr>,
    /// Which player this peer is, 1 or 2 [default: 1 on the lower of the
    /// two ports, 2 on the higher].
    #[arg(long, value_name = "N", requires = "local", value_parser = clap::value_parser!(u8).range(1..=2))]
    pub player: Option<u8>,
}

/// A `HOST:PORT` resolved to its first address (IPv4 first).
fn socket_address(s: &str) -> Result<SocketAddr, String> {
    let addresses: Vec<SocketAddr> =
        s.to_socket_addrs().map_err(|e| format!("not an address as HOST:PORT (`{s}`): {e}"))?.collect();
    addresses
        .iter()
        .find(|a| a.is_ipv4())
        .or(addresses.first())
        .copied()
        .ok_or_else(|| format!("`{s}` names no address"))
}

/// A percentage: a whole number from 0 to 100.
fn percent() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(0..=100)
}

/// The long help of `run --inputs`: the format, with the example file
/// that the [`inputs`](crate::inputs) module documents and tests.
const INPUTS_HELP: &str = concat!(
    "Apply the impulses, velocities and character moves of this TOML file to bodies at the ticks it gives, ",
    "to reproduce a run that needs a push. The file holds [[impulse]], [[velocity]] and [[move]] tables:\n\n",
    include_str!("../inputs/example.toml"),
    "\n\
The first line an input can change is tick + 1's. `body` is the body's id,
its place in the scene's list from 0. Every number is converted from f64 to
the run's scalar type once. An input at or beyond --ticks is checked but
never applied (a warning on standard error says so). An unknown key, a number that is not finite, a body the
scene does not have or a value outside the scalar type's range is an error
naming the file and line, before anything is printed; an impulse that would
take a velocity out of that range ends the run at its tick. With --json, the
document lists the inputs applied under \"inputs\"."
);

fn parse_kind(s: &str) -> Result<ScalarKind, String> {
    s.parse()
}

/// A tick count: a whole number, 0 or more (`-1` is refused as a count,
/// not taken for an option).
fn parse_ticks(s: &str) -> Result<u64, String> {
    s.parse().map_err(|_| format!("a whole number of ticks from 0 to {}, not `{s}`", u64::MAX))
}

/// Reads a scene argument, which may be any path (not only UTF-8).
fn scene_source() -> impl clap::builder::TypedValueParser<Value = SceneSource> {
    OsStringValueParser::new().map(SceneSource::from_arg)
}

/// Where a scene comes from, as the command line names it: `default` is
/// the built-in scene, anything else a file (so a file called `default`
/// is `./default`). The sandbox and `run` read their scene argument the
/// same way, through this.
///
/// # Examples
///
/// ```
/// use std::path::Path;
/// use geom_tui::cli::SceneSource;
///
/// assert_eq!(SceneSource::from_arg("default"), SceneSource::BuiltIn);
/// assert_eq!(SceneSource::from_arg("./default"), SceneSource::File("./default".into()));
/// assert_eq!(SceneSource::from_arg("default").path(), None);
/// assert_eq!(SceneSource::from_arg("a.toml").path(), Some(Path::new("a.toml")));
/// let scene = SceneSource::BuiltIn.load()?;
/// assert_eq!(scene, geom_tui::scene::Scene::parse(geom_tui::scene::DEFAULT_SCENE)?);
/// # Ok::<(), geom_tui::scene::SceneError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SceneSource {
    /// The built-in scene, [`DEFAULT_SCENE`], named [`BUILT_IN_NAME`](Self::BUILT_IN_NAME).
    BuiltIn,
    /// A scene file.
    File(PathBuf),
}

impl SceneSource {
    /// The argument that names the built-in scene: `default`.
    pub const BUILT_IN_NAME: &str = "default";

    /// The source a command-line argument names: exactly `default` is the
    /// built-in scene, anything else (`./default` included) a path.
    ///
    /// See [`SceneSource`] for an example.
    #[must_use]
    pub fn from_arg(arg: impl Into<OsString>) -> Self {
        let arg = arg.into();
        if arg == Self::BUILT_IN_NAME { Self::BuiltIn } else { Self::File(arg.into()) }
    }

    /// The file, or `None` for the built-in scene.
    ///
    /// See [`SceneSource`] for an example.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        match self {
            Self::BuiltIn => None,
            Self::File(path) => Some(path),
        }
    }

    /// Reads the scene: [`Scene::load`] for a file, [`Scene::parse`] of
    /// [`DEFAULT_SCENE`] for the built-in one.
    ///
    /// # Errors
    ///
    /// [`Scene::load`]'s, starting with the path; the built-in scene always
    /// parses.
    ///
    /// See [`SceneSource`] for an example.
    pub fn load(&self) -> Result<Scene, SceneError> {
        match self {
            Self::BuiltIn => Scene::parse(DEFAULT_SCENE),
            Self::File(path) => Scene::load(path),
        }
    }
}

/// Parses a command line, the program's name first (as
/// [`std::env::args_os`] gives it).
///
/// # Errors
///
/// clap's error for anything it refuses: an unknown argument, a missing or
/// malformed value, an argument that is not UTF-8 where text is needed;
/// also `--help` and `--version`, whose "error" is the text to print
/// ([`clap::Error::exit`] prints it and exits with the right code).
///
/// # Examples
///
/// ```
/// use geom_tui::cli::{parse, Command, NetArgs, SceneSource};
/// use geom_tui::ScalarKind;
///
/// let cli = parse(["geom-tui", "run", "default", "--ticks", "3", "--scalar", "f64"]).unwrap();
/// assert_eq!(
///     cli.command,
///     Some(Command::Run {
///         scene: SceneSource::BuiltIn,
///         ticks: 3,
///         scalar: Some(ScalarKind::F64),
///         json: false,
///         events: false,
///         inputs: None,
///         net: NetArgs::default(),
///     })
/// );
/// assert_eq!(parse(["geom-tui", "default"]).unwrap().scene, Some(SceneSource::BuiltIn));
/// assert_eq!(parse(["geom-tui", "run", "default", "--ticks", "-1"]).unwrap_err().exit_code(), 2);
/// ```
pub fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    if let Some(extra) = second_scene(&args) {
        // clap would take it for a subcommand that conflicts with the scene.
        let message = format!(
            "unexpected argument '{}': the sandbox opens one scene (`geom-tui run SCENE --ticks N` steps one \
             without a terminal)",
            extra.to_string_lossy()
        );
        return Err(clap::Error::raw(clap::error::ErrorKind::UnknownArgument, message).format(&mut Cli::command()));
    }
    let cli = Cli::try_parse_from(args)?;
    if let Some(Command::Run { net, .. }) = &cli.command
        && let Some(name) = net.needing_net()
    {
        let message = format!("the argument '{name}' requires '--net'");
        // Formatted with `run`'s usage, which it is about.
        let mut command = Cli::command();
        command.build();
        let mut run = command.find_subcommand("run").cloned().unwrap_or(command);
        return Err(clap::Error::raw(clap::error::ErrorKind::MissingRequiredArgument, message).format(&mut run));
    }
    Ok(cli)
}

/// A second positional argument for the sandbox (`geom-tui a b`), which
/// takes one scene; `None` for `run …` and everything else.
fn second_scene(args: &[OsString]) -> Option<&OsString> {
    let mut positional = Vec::new();
    let mut rest = args.iter().skip(1);
    while let Some(arg) = rest.next() {
        if arg == "--" {
            positional.extend(rest.by_ref());
        } else if arg == "--scalar" {
            rest.next();
        } else if !arg.to_string_lossy().starts_with('-') {
            positional.push(arg);
        }
    }
    match positional.as_slice() {
        [first, second, ..] if *first != "run" && *first != "net" => Some(second),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn the_command_definition_passes_clap_debug_asserts() {
        Cli::command().debug_assert();
    }

    #[test]
    fn no_arguments_open_the_sandbox_on_the_built_in_scene() {
        assert_eq!(parse(["geom-tui"]).unwrap(), Cli { command: None, scene: None, scalar: None });
    }

    #[test]
    fn default_names_the_built_in_scene_for_the_sandbox_and_for_run_alike() {
        let sandbox = parse(["geom-tui", "default"]).unwrap();
        assert_eq!(sandbox.scene, Some(SceneSource::BuiltIn));
        let Some(Command::Run { scene, .. }) = parse(["geom-tui", "run", "default", "--ticks", "1"]).unwrap().command
        else {
            panic!("`run` parses as run");
        };
        assert_eq!(scene, SceneSource::BuiltIn);
        for path in ["./default", "default.toml", "Default", "default/"] {
            assert_eq!(parse(["geom-tui", path]).unwrap().scene, Some(SceneSource::File(path.into())), "{path}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_scene_path_that_is_not_utf8_is_kept_as_it_is() {
        use std::os::unix::ffi::OsStringExt as _;
        let name = OsString::from_vec(b"caf\xe9.toml".to_vec());
        let cli = parse([OsString::from("geom-tui"), name.clone()]).unwrap();
        assert_eq!(cli.scene, Some(SceneSource::File(name.into())));
    }

    #[test]
    fn the_inputs_help_shows_the_example_file() {
        let help = Cli::command().find_subcommand_mut("run").expect("run").render_long_help().to_string();
        // clap indents the help: every line of the example is there, in order.
        let lines: Vec<&str> = help.lines().map(str::trim).collect();
        let example: Vec<&str> = crate::inputs::EXAMPLE.lines().map(str::trim).collect();
        assert!(lines.windows(example.len()).any(|w| w == example), "{help}");
        assert!(help.contains("--inputs <FILE>"), "{help}");
    }

    #[test]
    fn help_and_version_are_errors_that_exit_with_success() {
        for flag in ["--help", "--version"] {
            assert_eq!(parse(["geom-tui", flag]).unwrap_err().exit_code(), 0, "{flag}");
        }
    }

    #[test]
    fn net_opens_the_lab_on_a_scene_with_a_network_or_over_udp() {
        let lab = parse(["geom-tui", "net", "default", "--latency", "80", "--loss", "5", "--bots", "3"]).unwrap();
        let network = NetworkArgs { latency: Some(80), loss: Some(5), bots: Some(3), ..NetworkArgs::default() };
        let expected =
            Command::Net { scene: Some(SceneSource::BuiltIn), scalar: None, network, udp: UdpArgs::default() };
        assert_eq!(lab.command, Some(expected));
        let udp = parse(["geom-tui", "net", "--local", "7000", "--remote", "127.0.0.1:7001", "--player", "2"]).unwrap();
        let Some(Command::Net { scene: None, udp, .. }) = udp.command else { panic!("{udp:?}") };
        assert_eq!((udp.local, udp.remote, udp.player), (Some(7000), Some("127.0.0.1:7001".parse().unwrap()), Some(2)));
    }

    #[test]
    fn the_network_options_are_refused_where_they_mean_nothing() {
        let refused = |args: &[&str], says: &str| {
            let e = parse(args).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{args:?}");
            assert!(e.to_string().contains(says), "{args:?}: {e}");
        };
        // Without --net, `run` steps one world: no network, no peers.
        refused(&["geom-tui", "run", "default", "--ticks", "3", "--bots", "1"], "'--bots' requires '--net'");
        refused(&["geom-tui", "run", "default", "--ticks", "3", "--desync", "1"], "'--desync' requires '--net'");
        // UDP needs both ends, and its network is real, not simulated.
        refused(&["geom-tui", "net", "--local", "7000"], "--remote");
        refused(&["geom-tui", "net", "--remote", "127.0.0.1:7000"], "--local");
        refused(
            &["geom-tui", "net", "--local", "1", "--remote", "127.0.0.1:2", "--latency", "5"],
            "cannot be used with",
        );
        refused(&["geom-tui", "net", "--local", "1", "--remote", "127.0.0.1:2", "--player", "3"], "3 is not in 1..=2");
        refused(&["geom-tui", "net", "--local", "1", "--remote", "nowhere"], "not an address as HOST:PORT");
    }
}
