//! `geom-tui`: the sandbox, or with `run`, the headless runner.

use std::io::Write as _;
use std::process::ExitCode;

use geom_tui::App;
use geom_tui::cli::{self, Command, DEFAULT_KIND, SceneSource};
use geom_tui::headless::{self, Options, RunError};
use geom_tui::inputs::Inputs;

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("geom-tui: error: {message}");
    ExitCode::FAILURE
}

fn main() -> ExitCode {
    let cli = cli::parse(std::env::args_os()).unwrap_or_else(|e| e.exit());
    match cli.command {
        Some(Command::Run { scene, ticks, scalar, json, events, inputs }) => {
            let scene = match scene.load() {
                Ok(scene) => scene,
                Err(e) => return fail(e),
            };
            let inputs_path = inputs;
            let inputs = match inputs_path.as_deref().map(Inputs::load).transpose() {
                Ok(inputs) => inputs,
                Err(e) => return fail(e),
            };
            if let (Some(inputs), Some(path)) = (&inputs, &inputs_path) {
                let late: Vec<_> = inputs.items().iter().filter(|i| i.tick >= ticks).collect();
                if let Some(first) = late.first() {
                    let (n, are) = if late.len() == 1 {
                        ("1 input".to_owned(), "is")
                    } else {
                        (format!("{} inputs", late.len()), "are")
                    };
                    eprintln!(
                        "geom-tui: warning: {n} at or beyond --ticks {ticks} {are} never applied (the first at {}:{}, tick {})",
                        path.display(),
                        first.line,
                        first.tick
                    );
                }
            }
            let kind = scalar.or(scene.scalar).unwrap_or(DEFAULT_KIND);
            let options = Options { ticks, kind, json, events };
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let ran = match &inputs {
                Some(inputs) => headless::run_with_inputs(&scene, inputs, &options, &mut out),
                None => headless::run(&scene, &options, &mut out),
            };
            match ran {
                Ok(()) => ExitCode::SUCCESS,
                // The reader stopped reading (`| head -1`): it has what it
                // wanted, so the run ends quietly, with success, as `yes`
                // and `cat` do. Any other write error is reported.
                Err(RunError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    let _ = out.flush();
                    fail(e)
                }
            }
        }
        None => {
            let source = cli.scene.unwrap_or(SceneSource::BuiltIn);
            let scene = match source.load() {
                Ok(scene) => scene,
                Err(e) => return fail(e),
            };
            let kind = cli.scalar.or(scene.scalar).unwrap_or(DEFAULT_KIND);
            let mut app = match App::new(scene, source.path().map(ToOwned::to_owned), kind) {
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
