//! `geom-tui`: the sandbox, or with `run`, the headless runner.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use geom_tui::headless::{self, Options};
use geom_tui::scene::{DEFAULT_SCENE, Scene, SceneError};
use geom_tui::{App, ScalarKind};

/// The precision used when neither the command line nor the scene names one.
const DEFAULT_KIND: ScalarKind = ScalarKind::I32F32;

/// geom's collision sandbox: step, rewind, edit and inspect collisions tick
/// by tick in f32, f64, I16F16, I32F32 and I48F16. Press ? inside for keys.
#[derive(Parser)]
#[command(name = "geom-tui", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// A scene file (TOML) to open; without one, the built-in scene.
    scene: Option<PathBuf>,
    /// The precision to start in: f32, f64, I16F16, I32F32 or I48F16
    /// [default: the scene's `scalar`, else I32F32].
    #[arg(long, value_parser = parse_kind)]
    scalar: Option<ScalarKind>,
}

#[derive(Subcommand)]
enum Command {
    /// Step a scene without a terminal and print the world's checksum at
    /// every tick ("<tick> <16 hex digits>"), or with --json one JSON
    /// document with the final state too.
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
    },
}

fn parse_kind(s: &str) -> Result<ScalarKind, String> {
    s.parse()
}

/// The scene at `path`, or the built-in one.
fn load(path: Option<&std::path::Path>) -> Result<Scene, SceneError> {
    match path {
        Some(path) => Scene::load(path),
        None => Scene::parse(DEFAULT_SCENE),
    }
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("geom-tui: error: {message}");
    ExitCode::FAILURE
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Run { scene, ticks, scalar, json }) => {
            let path = (scene != "default").then(|| PathBuf::from(&scene));
            let scene = match load(path.as_deref()) {
                Ok(scene) => scene,
                Err(e) => return fail(e),
            };
            let kind = scalar.or(scene.scalar).unwrap_or(DEFAULT_KIND);
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            match headless::run(&scene, &Options { ticks, kind, json }, &mut out) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    let _ = out.flush();
                    fail(e)
                }
            }
        }
        None => {
            let scene = match load(cli.scene.as_deref()) {
                Ok(scene) => scene,
                Err(e) => return fail(e),
            };
            let kind = cli.scalar.or(scene.scalar).unwrap_or(DEFAULT_KIND);
            let mut app = match App::new(scene, cli.scene, kind) {
                Ok(app) => app,
                Err(e) => return fail(e),
            };
            app.set_colors(std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()));
            match geom_tui::terminal::run(&mut app) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(format!("the terminal: {e} (the sandbox needs a terminal; `geom-tui run` does not)")),
            }
        }
    }
}
