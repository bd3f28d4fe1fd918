//! Play mode (issue 29): the keys drive a character through geom's
//! character controller, the moves are recorded on the timeline like any
//! edit, rewinding replays them, and `I` saves them as an inputs file that
//! `geom-tui run --inputs` replays to the same checksum.

use crate::common;

use std::process::Command;

use common::*;

fn player_scene_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenes/player.toml")
}

/// The player scene in `kind`, its character (body 0) selected.
fn player_app(kind: ScalarKind) -> App {
    let scene = Scene::load(&player_scene_path()).unwrap();
    let mut app = App::new(scene, None, kind).unwrap();
    select(&mut app, "body 0 (capsule)");
    app
}

/// Plays a short course: P, walk right for 40 ticks, jump, walk on for
/// 60, stop for 20; each tick stepped by `.`.
fn play(app: &mut App) {
    press(app, KeyCode::Char('P'));
    press(app, KeyCode::Char(' ')); // pause: the ticks are stepped below
    press(app, KeyCode::Right);
    apply_n(app, &Action::StepForward, 40);
    press(app, KeyCode::Up);
    apply_n(app, &Action::StepForward, 60);
    press(app, KeyCode::Down);
    apply_n(app, &Action::StepForward, 20);
}

#[test]
fn the_keys_drive_the_character_and_the_status_bar_says_where_it_stands() {
    let mut app = player_app(ScalarKind::I32F32);
    let start = app.state().bodies[0].position;
    press(&mut app, KeyCode::Char('P'));
    assert!(app.message().unwrap().starts_with("playing body 0"), "{:?}", app.message());
    press(&mut app, KeyCode::Char(' '));
    press(&mut app, KeyCode::Right);
    apply_n(&mut app, &Action::StepForward, 16);
    let walked = app.state().bodies[0].position;
    assert_eq!(walked.x - start.x, 16.0 * 0.125, "walked 16 ticks at 1/8");
    let (first, _) = status(&app);
    assert!(first.contains("play b0: grounded · walking →"), "{first}");
    // A jump leaves the ground.
    press(&mut app, KeyCode::Up);
    apply_n(&mut app, &Action::StepForward, 3);
    let (first, _) = status(&app);
    assert!(first.contains("play b0: in the air"), "{first}");
    assert!(app.state().bodies[0].position.y > walked.y + 0.5, "it rose");
    // A body that is not a character cannot be played.
    press(&mut app, KeyCode::Char('P'));
    select(&mut app, "body 1");
    press(&mut app, KeyCode::Char('P'));
    assert!(app.message().unwrap().contains("not a character"), "{:?}", app.message());
}

#[test]
fn rewinding_replays_the_moves_to_the_same_checksums() {
    let mut app = player_app(ScalarKind::I16F16);
    play(&mut app);
    press(&mut app, KeyCode::Char('P')); // play mode off: stepping replays
    let tick = usize::try_from(app.tick()).unwrap();
    let mut checksums = vec![app.checksum()];
    for _ in 0..tick {
        app.apply(Action::StepBack);
        checksums.push(app.checksum());
    }
    assert_eq!(app.tick(), 0);
    checksums.reverse();
    let mut replayed = vec![app.checksum()];
    for _ in 0..tick {
        app.apply(Action::StepForward);
        replayed.push(app.checksum());
    }
    assert_eq!(replayed, checksums);
    // And from the set-up again (r), in another precision and back.
    app.apply(Action::Precision(ScalarKind::F64));
    app.apply(Action::Precision(ScalarKind::I16F16));
    assert_eq!(app.checksum(), *checksums.last().unwrap());
}

#[test]
fn the_moves_saved_with_i_replay_in_run_inputs_to_the_same_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = player_app(ScalarKind::I32F32);
    play(&mut app);
    let inputs = dir.path().join("moves.toml");
    // The prompt offers a name beside the scene; replace it with ours.
    app.apply(Action::SaveInputsPrompt);
    apply_n(&mut app, &Action::Line(LineEdit::Backspace), 200);
    app.apply(Action::Paste(inputs.display().to_string()));
    app.apply(Action::Submit);
    assert!(app.message().unwrap().starts_with("saved 120 moves to"), "{:?}", app.message());
    let run = Command::new(env!("CARGO_BIN_EXE_geom-tui"))
        .args(["run", player_scene_path().to_str().unwrap(), "--ticks", "120", "--scalar", "I32F32", "--inputs"])
        .arg(&inputs)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stdout = String::from_utf8(run.stdout).unwrap();
    let last = stdout.lines().last().unwrap();
    assert_eq!(last, format!("120 {:016x}", app.checksum()), "the run ends where the sandbox is");
    // This session wrote the file: saving there again asks nothing. In
    // another session it is the user's: saving there asks first.
    let save_again = |app: &mut App| {
        app.apply(Action::SaveInputsPrompt);
        app.apply(Action::Line(LineEdit::DeleteToStart));
        app.apply(Action::Paste(inputs.display().to_string()));
        app.apply(Action::Submit);
    };
    save_again(&mut app);
    assert!(app.message().unwrap().starts_with("saved 120 moves to"), "{:?}", app.message());
    let mut later = player_app(ScalarKind::I32F32);
    play(&mut later);
    save_again(&mut later);
    let asked = later.message().unwrap();
    assert!(
        asked.ends_with("is there already (inputs: 120 entries): y writes over it, any other key keeps it"),
        "{asked}"
    );
}
