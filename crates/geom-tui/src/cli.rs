//! The command line of the `geom-tui` binary, as a library function so
//! that it can be tested and fuzzed without running the binary: [`parse`]
//! turns the arguments into a [`Cli`], or clap's typed error (which the
//! binary prints, exiting with code 2, or 0 for `--help` and `--version`).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::builder::{OsStringValueParser, TypedValueParser as _};
use clap::{CommandFactory as _, Parser, Subcommand};

use crate::ScalarKind;
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
}

/// `run --net`: the scene as a two-player rollback game (see
/// [`net`](crate::net)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::Args)]
pub struct NetArgs {
    /// Play --ticks frames of the scene as a two-player rollback game: two
    /// peers (ggrs P2P sessions) over a simulated network, seeded bots
    /// driving the bodies with `player = 1` and `player = 2`; print per
    /// peer the frames, rollbacks, re-simulated ticks, worst prediction
    /// and the last frame's checksum, and whether the peers agree.
    #[arg(long, conflicts_with_all = ["events", "inputs"])]
    pub net: bool,
    /// With --net: each packet's delay in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 0, requires = "net")]
    pub latency: u32,
    /// With --net: the most a packet's delay differs from the latency.
    #[arg(long, value_name = "MS", default_value_t = 0, requires = "net")]
    pub jitter: u32,
    /// With --net: the percentage of packets lost.
    #[arg(long, value_name = "PCT", default_value_t = 0, requires = "net", value_parser = percent())]
    pub loss: u32,
    /// With --net: the percentage of packets held back past later ones.
    #[arg(long, value_name = "PCT", default_value_t = 0, requires = "net", value_parser = percent())]
    pub reorder: u32,
    /// With --net: the seed of the bots' inputs and the network's losses.
    #[arg(long, value_name = "SEED", default_value_t = 0, requires = "net")]
    pub bots: u64,
    /// With --net: nudge the second peer's world one rounding step at this
    /// frame, for ggrs's desync detection to catch.
    #[arg(long, value_name = "FRAME", requires = "net")]
    pub desync: Option<u32>,
}

/// A percentage: a whole number from 0 to 100.
fn percent() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(0..=100)
}

/// The long help of `run --inputs`: the format, with the example file
/// that the [`inputs`](crate::inputs) module documents and tests.
const INPUTS_HELP: &str = concat!(
    "Apply the impulses and velocities of this TOML file to bodies at the ticks it gives, ",
    "to reproduce a run that needs a push. The file holds [[impulse]] and [[velocity]] tables:\n\n",
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
    Cli::try_parse_from(args)
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
        [first, second, ..] if *first != "run" => Some(second),
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
}
