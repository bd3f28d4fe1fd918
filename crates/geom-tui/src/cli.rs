//! The command line of the `geom-tui` binary, as a library function so
//! that it can be tested and fuzzed without running the binary: [`parse`]
//! turns the arguments into a [`Cli`], or clap's typed error (which the
//! binary prints, exiting with code 2, or 0 for `--help` and `--version`).

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::ScalarKind;

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
    /// A scene file (TOML) to open; without one, the built-in scene.
    pub scene: Option<PathBuf>,
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
        scene: String,
        /// How many ticks to step.
        #[arg(long)]
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
    },
}

fn parse_kind(s: &str) -> Result<ScalarKind, String> {
    s.parse()
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
/// use geom_tui::cli::{parse, Command};
/// use geom_tui::ScalarKind;
///
/// let cli = parse(["geom-tui", "run", "default", "--ticks", "3", "--scalar", "f64"]).unwrap();
/// assert_eq!(
///     cli.command,
///     Some(Command::Run { scene: "default".into(), ticks: 3, scalar: Some(ScalarKind::F64), json: false, events: false })
/// );
/// assert_eq!(parse(["geom-tui", "run", "default", "--ticks", "-1"]).unwrap_err().exit_code(), 2);
/// ```
pub fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    Cli::try_parse_from(args)
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
    fn help_and_version_are_errors_that_exit_with_success() {
        for flag in ["--help", "--version"] {
            assert_eq!(parse(["geom-tui", flag]).unwrap_err().exit_code(), 0, "{flag}");
        }
    }
}
