//! `geom-tui`: the sandbox, or with `run`, the headless runner.

use std::io::Write as _;
use std::process::ExitCode;

use geom_tui::cli::{self, Command, DEFAULT_KIND, NetArgs, NetworkArgs, SceneSource, UdpArgs};
use geom_tui::headless::{self, RunError};
use geom_tui::inputs::Inputs;
use geom_tui::net::{self, Endpoint, Lab, Options};
use geom_tui::scene::Scene;
use geom_tui::terminal::Screen;
use geom_tui::{App, ScalarKind};

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("geom-tui: error: {message}");
    ExitCode::FAILURE
}

/// `run --net`: plays the scene as a two-player rollback game and prints
/// the report; fails when the peers disagree without a forced desync, and
/// when a forced one does not show.
fn play(scene: &Scene, ticks: u64, kind: ScalarKind, json: bool, args: &NetArgs) -> ExitCode {
    let Ok(frames) = u32::try_from(ticks) else {
        return fail(format!("--net plays at most {} frames, not {ticks}", u32::MAX));
    };
    if let Some(frame) = args.desync.filter(|&f| f >= frames) {
        return fail(format!("--desync {frame} is not among the frames played: give one below --ticks {ticks}"));
    }
    let seed = args.network.bots.unwrap_or(0);
    let options = Options { kind, frames, conditions: args.network.conditions(), seed, desync_at: args.desync };
    let stdout = std::io::stdout();
    if let (Some(local), Some(remote)) = (args.udp.local, args.udp.remote) {
        let report = match Endpoint::new(local, remote, args.udp.player).and_then(|e| net::run_udp(scene, &options, &e))
        {
            Ok(report) => report,
            Err(e) => return fail(e),
        };
        if let Err(e) = report.write(&options, json, &mut stdout.lock()) {
            return fail(format!("cannot write the output: {e}"));
        }
        return match (report.peer.desync, args.desync) {
            (None, None) | (Some(_), Some(_)) => ExitCode::SUCCESS,
            (None, Some(frame)) => undetected(frame),
            (Some(d), None) => fail(format!("the peers' worlds differ at frame {}", d.frame)),
        };
    }
    let report = match net::run(scene, &options) {
        Ok(report) => report,
        Err(e) => return fail(e),
    };
    if let Err(e) = report.write(&options, json, &mut stdout.lock()) {
        return fail(format!("cannot write the output: {e}"));
    }
    // A forced desync shows when a peer caught it or the last checksums
    // differ.
    match (report.agree(), args.desync) {
        (true, None) | (false, Some(_)) => ExitCode::SUCCESS,
        (true, Some(frame)) => undetected(frame),
        (false, None) => fail("the peers disagree"),
    }
}

/// The failure of a forced desync that no peer caught.
fn undetected(frame: u32) -> ExitCode {
    fail(format!(
        "the desync forced at frame {frame} was not detected (in f32 and f64 the next step may round a one-step \
         nudge away)"
    ))
}

/// `geom-tui net`: the netcode lab in the terminal.
fn lab(source: Option<SceneSource>, scalar: Option<ScalarKind>, network: NetworkArgs, udp: UdpArgs) -> ExitCode {
    let scene = match source.unwrap_or(SceneSource::BuiltIn).load() {
        Ok(scene) => scene,
        Err(e) => return fail(e),
    };
    let kind = scalar.or(scene.scalar).unwrap_or(DEFAULT_KIND);
    let lab = match (udp.local, udp.remote) {
        (Some(local), Some(remote)) => {
            Endpoint::new(local, remote, udp.player).and_then(|endpoint| Lab::over_udp(scene, kind, endpoint))
        }
        _ => Lab::new(scene, kind, network.conditions(), network.bots.unwrap_or(0)),
    };
    let mut lab = match lab {
        Ok(lab) => lab,
        Err(e) => return fail(e),
    };
    lab.set_colors(colors());
    show(&mut lab, "the lab", "`geom-tui run --net`")
}

/// Runs `screen` (`what`) in the terminal; `instead` runs without one.
fn show(screen: &mut impl Screen, what: &str, instead: &str) -> ExitCode {
    match geom_tui::terminal::run(screen) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(format!("the terminal: {e} ({what} needs a terminal; {instead} does not)")),
    }
}

/// Colours, unless `NO_COLOR` is set to something.
fn colors() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

fn main() -> ExitCode {
    let cli = cli::parse(std::env::args_os()).unwrap_or_else(|e| e.exit());
    match cli.command {
        Some(Command::Run { scene, ticks, scalar, json, events, inputs, net }) => {
            let scene = match scene.load() {
                Ok(scene) => scene,
                Err(e) => return fail(e),
            };
            if net.net {
                return play(&scene, ticks, scalar.or(scene.scalar).unwrap_or(DEFAULT_KIND), json, &net);
            }
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
            let options = headless::Options { ticks, kind, json, events };
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
        Some(Command::Net { scene, scalar, network, udp }) => lab(scene, scalar, network, udp),
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
            app.set_colors(colors());
            show(&mut app, "the sandbox", "`geom-tui run`")
        }
    }
}
