//! Every defect a new user met in an afternoon with the sandbox, in tmux at
//! 120 × 36 and 80 × 24, reproduced with the keys they pressed. Each test
//! failed before its fix.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use geom_core::Vec2;
use geom_tui::scene::{DEFAULT_SCENE, Scene};
use geom_tui::{App, ScalarKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

fn app(kind: ScalarKind) -> App {
    let mut app = App::new(Scene::parse(DEFAULT_SCENE).unwrap(), None, kind).unwrap();
    app.set_colors(false);
    app
}

fn press(app: &mut App, code: KeyCode) {
    app.handle(&Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn control(app: &mut App, c: char) {
    app.handle(&Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)));
}

/// Types `text` a key at a time.
fn keys(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// The screen as the user sees it, one line per row.
fn screen(app: &mut App, width: u16, height: u16) -> String {
    app.handle(&Event::Resize(width, height));
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| geom_tui::ui::draw(frame, app)).unwrap();
    let buffer = terminal.backend().buffer();
    (0..height)
        .map(|y| (0..width).map(|x| buffer[(x, y)].symbol()).collect::<String>().trim_end().to_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

fn geom_tui(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_geom-tui")).args(args).output().expect("the binary runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("text")
}

// --- 1. Esc quit at once, even with unsaved edits ---------------------------

#[test]
fn quitting_with_unsaved_edits_asks_first_and_esc_never_quits_from_a_question() {
    let mut app = app(ScalarKind::I32F32);
    keys(&mut app, "b");
    press(&mut app, KeyCode::Esc); // deselects the ball
    press(&mut app, KeyCode::Esc);
    assert!(!app.should_quit(), "Esc with an unsaved ball asks first");
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("quit? the set-up has unsaved edits: y quits"), "{text}");
    press(&mut app, KeyCode::Esc);
    assert!(!app.should_quit(), "Esc in the question stays");
    assert_eq!(app.message(), Some("stayed; nothing changed"));
    keys(&mut app, "q");
    keys(&mut app, "n");
    assert!(!app.should_quit(), "any key but y stays");
    keys(&mut app, "qy");
    assert!(app.should_quit());
}

#[test]
fn esc_closes_a_prompt_or_the_help_and_never_quits_from_them() {
    let mut app = app(ScalarKind::I32F32);
    press(&mut app, KeyCode::Enter); // the world's prompt: nothing selected
    keys(&mut app, "gx=1");
    press(&mut app, KeyCode::Esc);
    assert!(!app.should_quit());
    keys(&mut app, "?");
    press(&mut app, KeyCode::Esc);
    assert!(!app.should_quit());
    assert!(screen(&mut app, 80, 24).contains("? help · q quit"), "both closed");
    // Nothing was edited: quitting needs no question.
    press(&mut app, KeyCode::Esc);
    assert!(app.should_quit());
}

#[test]
fn ctrl_c_asks_too_and_a_second_ctrl_c_means_it() {
    let mut app = app(ScalarKind::F64);
    keys(&mut app, "b");
    control(&mut app, 'c');
    assert!(!app.should_quit());
    control(&mut app, 'c');
    assert!(app.should_quit());
}

// --- 2. r threw away every edit --------------------------------------------

#[test]
fn reset_returns_to_the_set_up_as_edited_not_as_opened() {
    let mut app = app(ScalarKind::I32F32);
    let bodies = app.setup().bodies.len();
    keys(&mut app, "b");
    assert_eq!(app.setup().bodies.len(), bodies + 1, "an edit at tick 0 changes the set-up");
    keys(&mut app, "..........r");
    assert_eq!(app.tick(), 0);
    assert_eq!(app.state().bodies.len(), bodies + 1, "the ball is still there");
    let fresh = {
        let mut scene = Scene::parse(DEFAULT_SCENE).unwrap();
        scene.bodies = app.setup().bodies.clone();
        App::new(scene, None, ScalarKind::I32F32).unwrap()
    };
    assert_eq!(app.checksum(), fresh.checksum(), "tick 0 is the edited set-up's");
}

#[test]
fn stepping_back_past_a_later_edit_and_forward_again_replays_it() {
    let mut app = app(ScalarKind::I16F16);
    keys(&mut app, ".....");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    keys(&mut app, "vy=0.5");
    press(&mut app, KeyCode::Enter);
    keys(&mut app, ".....");
    let (tick, checksum, unsaved) = (app.tick(), app.checksum(), app.unsaved());
    assert_eq!(unsaved.as_deref(), Some("1 edit after tick 0 that no scene file keeps"));
    keys(&mut app, ",,,,,,,,");
    assert_eq!(app.tick(), 2);
    keys(&mut app, "........");
    assert_eq!((app.tick(), app.checksum()), (tick, checksum), "the edit at tick 5 was made again");
    // From tick 0 too, and in another precision and back.
    keys(&mut app, "r");
    for _ in 0..tick {
        keys(&mut app, ".");
    }
    assert_eq!(app.checksum(), checksum);
}

#[test]
fn ctrl_z_undoes_an_edit_and_ctrl_y_makes_it_again() {
    let mut app = app(ScalarKind::I32F32);
    let before = app.checksum();
    keys(&mut app, "b");
    let with_ball = app.checksum();
    assert_ne!(with_ball, before);
    control(&mut app, 'z');
    assert_eq!((app.checksum(), app.unsaved()), (before, None), "undone: nothing left unsaved");
    control(&mut app, 'z');
    assert_eq!(app.message(), Some("nothing to undo"));
    control(&mut app, 'y');
    assert_eq!(app.checksum(), with_ball);
    // A later edit undone re-runs to the tick the user is at.
    keys(&mut app, "...");
    press(&mut app, KeyCode::Tab);
    keys(&mut app, "]");
    let grown = app.checksum();
    control(&mut app, 'z');
    assert_eq!(app.tick(), 3);
    assert_ne!(app.checksum(), grown);
    control(&mut app, 'y');
    assert_eq!(app.checksum(), grown);
}

// --- 4. the Enter prompt was cut off at 80 × 24 ----------------------------

#[test]
fn the_edit_prompt_keeps_every_field_and_the_cursor_in_view_at_80_by_24() {
    let mut app = app(ScalarKind::I32F32);
    for _ in 0..5 {
        press(&mut app, KeyCode::Tab);
    }
    assert_eq!(app.selected().as_deref(), Some("body 4"));
    press(&mut app, KeyCode::Enter);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("im=") && text.contains("mu="), "every field is shown:\n{text}");
    keys(&mut app, "x = 1.25");
    let text = screen(&mut app, 80, 24);
    assert_eq!(text.lines().last(), Some("edit> x = 1.25▏"), "{text}");
    // A long text shows its end, where the cursor is.
    keys(&mut app, &" vy=0".repeat(30));
    let text = screen(&mut app, 80, 24);
    let last = text.lines().last().unwrap();
    assert!(last.ends_with("vy=0▏") && last.chars().count() <= 80, "{last}");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.state().bodies[4].position.x, 1.25, "`x = 1.25` with spaces is taken");
}

// --- 5. the divergence threshold drifted -----------------------------------

#[test]
fn the_divergence_threshold_is_an_exact_power_of_ten_however_often_it_changes() {
    let mut app = app(ScalarKind::I16F16);
    keys(&mut app, "c");
    keys(&mut app, &"}".repeat(20));
    assert_eq!(app.message(), Some("divergence threshold 1e3"));
    keys(&mut app, &"{".repeat(30));
    assert_eq!(app.message(), Some("divergence threshold 1e-9"));
    keys(&mut app, &"}".repeat(7));
    assert_eq!(app.message(), Some("divergence threshold 1e-2"));
    assert!(screen(&mut app, 80, 24).contains("none > 1e-2 yet"));
}

// --- 6. C compared a type with itself --------------------------------------

#[test]
fn the_split_view_never_compares_a_type_with_itself() {
    for kind in ScalarKind::ALL {
        let mut app = app(kind);
        keys(&mut app, "c");
        for _ in 0..12 {
            let text = screen(&mut app, 80, 24);
            let split = text.lines().nth(1).unwrap();
            assert!(!split.contains(&format!("{kind} dotted")), "{split}");
            assert_ne!(app.split().unwrap().0.scalar, Some(kind), "{split}");
            keys(&mut app, "C");
        }
        // Switching to the compared type moves the comparison away.
        keys(&mut app, "p");
        let split = screen(&mut app, 80, 24).lines().nth(1).unwrap().to_owned();
        assert!(!split.contains(&format!("{} dotted", app.kind())), "{split}");
    }
}

// --- 7. switching precision was lossy and silently undone -------------------

#[test]
fn switching_precision_re_runs_the_set_up_and_shows_what_run_prints() {
    let mut app = app(ScalarKind::I32F32);
    for _ in 0..90 {
        keys(&mut app, ".");
    }
    let before = app.checksum();
    keys(&mut app, "1");
    assert_eq!((app.kind(), app.tick()), (ScalarKind::F32, 90));
    let f32_at_90 = format!("{:016x}", app.checksum());
    let run = geom_tui(&["run", "default", "--scalar", "f32", "--ticks", "90"]);
    assert_eq!(run.lines().last(), Some(format!("90 {f32_at_90}").as_str()), "the sandbox shows what run prints");
    assert_eq!(app.message(), Some("re-ran the set-up in f32; re-ran to tick 90"));
    keys(&mut app, "4");
    assert_eq!(app.checksum(), before, "back in I32F32: the same checksum");
    keys(&mut app, ",");
    assert_eq!((app.kind(), app.tick()), (ScalarKind::I32F32, 89), "rewinding stays in the type chosen");
}

// --- 8. small ones ----------------------------------------------------------

#[test]
fn counts_of_one_are_singular() {
    let mut app = app(ScalarKind::F64);
    keys(&mut app, &"-".repeat(10));
    assert_eq!(app.message(), Some("1 tick per second"));
    keys(&mut app, "+");
    assert_eq!(app.message(), Some("2 ticks per second"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one.toml");
    let mut scene = Scene::new(geom_tui::scene::Settings::new(Vec2::new(0.0, -0.125)));
    scene.bodies.push(geom_tui::scene::BodySpec::new(Vec2::new(0.0, 1.0), 0.5));
    scene.colliders.push(geom_tui::scene::Shape::Circle { center: Vec2::new(0.0, 0.0), radius: 0.5 }.into());
    let mut app = App::new(scene, Some(path.clone()), ScalarKind::F64).unwrap();
    keys(&mut app, "w");
    let expected = format!("saved the set-up (1 body, 1 collider) to {}", path.display());
    assert_eq!(app.message(), Some(expected.as_str()));
}

#[test]
fn the_help_scrolls_to_every_key_in_a_40_by_12_terminal() {
    let mut app = app(ScalarKind::F64);
    keys(&mut app, "?");
    let mut seen = String::new();
    for _ in 0..60 {
        seen.push_str(&screen(&mut app, 40, 12));
        press(&mut app, KeyCode::Down);
    }
    assert!(screen(&mut app, 40, 12).contains("↑↓ scroll"), "the title says it scrolls");
    for (key, _) in geom_tui::keymap::KEYS {
        assert!(seen.contains(key), "`{key}` never came into view");
    }
    assert!(seen.contains("dotted green"), "nor the last line");
}

#[test]
fn the_inspector_shows_by_how_much_values_that_print_alike_differ() {
    // A ball whose distance to the floor is a third: I32F32's and f64's
    // agree to the digits a column holds, but not beyond.
    let mut scene = Scene::new(geom_tui::scene::Settings::new(Vec2::new(0.0, 0.0)));
    let floor = geom_tui::scene::Shape::Segment { start: Vec2::new(-8.0, 0.0), end: Vec2::new(8.0, 0.0) };
    scene.colliders.push(floor.into());
    scene.bodies.push(geom_tui::scene::BodySpec::new(Vec2::new(0.0, 29.0 + 1.0 / 3.0), 0.0));
    let mut app = App::new(scene, None, ScalarKind::F64).unwrap();
    app.set_colors(false);
    press(&mut app, KeyCode::Tab);
    let text = screen(&mut app, 80, 24);
    let gap = text.lines().find(|l| l.starts_with("│gap")).unwrap_or_else(|| panic!("{text}"));
    let cells: Vec<&str> = gap.trim_start_matches("│gap").split_whitespace().collect();
    assert_eq!(cells[1], "29.33333333", "f64's own value:\n{text}");
    // I32F32 holds 29⅓ to within 2⁻³², which prints alike to ten digits:
    // the cell says by how much it differs instead.
    let delta: f64 = cells[3].strip_prefix('Δ').and_then(|d| d.strip_suffix('*')).unwrap().parse().unwrap();
    assert!(delta != 0.0 && delta.abs() <= 2f64.powi(-32), "{gap}");
    assert!(!cells[2].starts_with('Δ'), "I16F16 differs in the digits shown: {gap}");
}

// --- 9. missing and expected ----------------------------------------------

#[test]
fn the_inspector_shows_the_selected_bodys_own_position_and_velocity() {
    let mut scene = Scene::new(geom_tui::scene::Settings::new(Vec2::new(0.0, 0.0)));
    let mut ball = geom_tui::scene::BodySpec::new(Vec2::new(1.5, 2.25), 0.75);
    ball.velocity = Vec2::new(0.5, -0.25);
    scene.bodies.push(ball);
    scene.bodies.push(geom_tui::scene::BodySpec::new(Vec2::new(-5.0, -5.0), 0.5));
    let mut app = App::new(scene, None, ScalarKind::I32F32).unwrap();
    press(&mut app, KeyCode::Tab);
    let own = |app: &mut App| {
        let text = screen(app, 80, 24);
        text.lines().find(|l| l.starts_with("│now ")).unwrap_or_else(|| panic!("{text}")).to_owned()
    };
    assert_eq!(own(&mut app), "│now x=1.5 y=2.25 vx=0.5 vy=-0.25 r=0.75");
    keys(&mut app, ".");
    assert_eq!(own(&mut app), "│now x=2.0 y=2.0 vx=0.5 vy=-0.25 r=0.75", "one tick on");
}

#[test]
fn the_status_bar_shows_the_zoom_and_the_world_point_under_the_mouse() {
    let mut app = app(ScalarKind::I32F32);
    let _ = screen(&mut app, 120, 36);
    let (column, row) = app.cell_of(Vec2::new(0.0, 0.0)).expect("the origin is in view");
    let moved = MouseEvent { kind: MouseEventKind::Moved, column, row, modifiers: KeyModifiers::NONE };
    app.handle(&Event::Mouse(moved));
    let status = screen(&mut app, 120, 36).lines().next().unwrap().to_owned();
    let (_, at) = status.split_once("│ at ").unwrap_or_else(|| panic!("{status}"));
    let coords: Vec<f64> = at.split(" │").next().unwrap().split(", ").map(|v| v.parse().unwrap()).collect();
    let cell = app.cell_of(Vec2::new(coords[0], coords[1]));
    assert_eq!(cell, Some((column, row)), "the point shown is under the mouse: {status}");
    assert!(status.contains("│ 1 cell = "), "{status}");
    keys(&mut app, "z");
    let zoomed = screen(&mut app, 120, 36).lines().next().unwrap().to_owned();
    assert_ne!(zoomed.split("1 cell = ").nth(1), status.split("1 cell = ").nth(1), "zooming changes it");
}

#[test]
fn the_world_settings_are_edited_with_nothing_selected_and_re_run_to_this_tick() {
    let mut app = app(ScalarKind::I32F32);
    keys(&mut app, "....");
    press(&mut app, KeyCode::Enter);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("gx=0.0 gy=-0.015625"), "{text}");
    keys(&mut app, "gy = -0.03125 bounce=0.25");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.tick(), 4);
    assert_eq!(app.setup().settings.gravity, Vec2::new(0.0, -0.03125));
    assert_eq!(app.setup().settings.bounce_threshold, Some(0.25));
    let mut scene = Scene::parse(DEFAULT_SCENE).unwrap();
    scene.settings = app.setup().settings;
    let mut same = App::new(scene, None, ScalarKind::I32F32).unwrap();
    keys(&mut same, "....");
    assert_eq!(app.checksum(), same.checksum(), "as if the scene had always had them");
    press(&mut app, KeyCode::Enter);
    keys(&mut app, "substeps=0");
    press(&mut app, KeyCode::Enter);
    assert!(app.message().unwrap().contains("from 1 to 255"), "{:?}", app.message());
}

#[test]
fn the_open_prompt_expands_a_tilde_and_completes_file_names_with_tab() {
    // Never skipped: without a home directory there is no `~` to test.
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let home = home.filter(|h| h.is_dir()).expect("HOME names a directory (the test types `~/` paths)");
    let dir = tempfile::Builder::new().prefix("geom-tui-open-").tempdir_in(&home).unwrap();
    let name = dir.path().file_name().unwrap().to_str().unwrap().to_owned();
    std::fs::write(dir.path().join("player-scene.toml"), include_str!("../../scenes/player.toml")).unwrap();
    let mut app = app(ScalarKind::I32F32);
    keys(&mut app, "O");
    keys(&mut app, &format!("~/{name}/pla"));
    press(&mut app, KeyCode::Tab);
    let text = screen(&mut app, 120, 36);
    assert!(text.lines().last().unwrap().contains(&format!("~/{name}/player-scene.toml▏")), "{text}");
    press(&mut app, KeyCode::Enter);
    let opened = Path::new(&home).join(&name).join("player-scene.toml");
    assert_eq!(app.message(), Some(format!("opened {} in I32F32", opened.display()).as_str()));
}

// --- 3. w overwrote a hand-written file -------------------------------------

#[test]
fn w_saves_the_set_up_and_keeps_the_files_comments_and_typed_values() {
    let text = "# My scene: a ball over a floor.\n\
                gravity = [0.0, -0.1]   # a tenth, as typed\n\
                \n\
                # The floor.\n\
                [[collider]]\n\
                shape = \"segment\"\n\
                start = [-10.0, 0.0]\n\
                end = [10.0, 0.0]\n\
                \n\
                [[body]]   # the ball\n\
                position = [0.0, 5.0]\n\
                radius = 0.5\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.toml");
    std::fs::write(&path, text).unwrap();
    let scene = Scene::load(&path).unwrap();
    let mut app = App::new(scene, Some(path.clone()), ScalarKind::I32F32).unwrap();
    for _ in 0..20 {
        keys(&mut app, ".");
    }
    keys(&mut app, "w");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "nothing changed in the set-up: the file is as it was");
    assert!(app.message().unwrap().starts_with("saved the set-up"), "{:?}", app.message());
    // An edit at tick 0 changes its own line only.
    keys(&mut app, "r");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    keys(&mut app, "x=0.1");
    press(&mut app, KeyCode::Enter);
    keys(&mut app, "w");
    let saved = std::fs::read_to_string(&path).unwrap();
    assert_eq!(saved, text.replace("position = [0.0, 5.0]", "position = [0.1, 5.0]"), "{saved}");
    assert!(!saved.contains("bounce_threshold"), "a derived value is never written");
    assert_eq!(app.unsaved(), None);
    // The current state goes elsewhere, under a name the user gives.
    for _ in 0..20 {
        keys(&mut app, ".");
    }
    keys(&mut app, "W");
    let state = dir.path().join("mine-tick20.toml");
    assert!(screen(&mut app, 80, 24).lines().last().unwrap().ends_with("mine-tick20.toml▏"));
    press(&mut app, KeyCode::Enter);
    let at_20 = Scene::load(&state).unwrap();
    assert_eq!(at_20.bodies, app.state().bodies);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), saved, "the set-up's file is untouched");
}

// === A second afternoon: tmux at 120 × 40, 80 × 24 and 40 × 12 ============

/// The bottom line as the user sees it at 120 × 40.
fn bottom(app: &mut App) -> String {
    screen(app, 120, 40).lines().last().unwrap_or_default().to_owned()
}

// --- 2. W replaced a file without asking ------------------------------------

#[test]
fn capital_w_onto_a_file_this_session_did_not_write_asks_first_and_says_what_is_there() {
    let dir = tempfile::tempdir().unwrap();
    let typo = dir.path().join("typo.toml");
    std::fs::write(&typo, "just some notes\n").unwrap();
    let mut app = App::new(Scene::parse(DEFAULT_SCENE).unwrap(), None, ScalarKind::I32F32).unwrap();
    app.set_colors(false);
    keys(&mut app, "..W");
    control(&mut app, 'u');
    keys(&mut app, &typo.display().to_string());
    press(&mut app, KeyCode::Enter);
    let asked = bottom(&mut app);
    assert!(
        asked.contains("typo.toml is there already (16 bytes): y writes over it, any other key keeps it"),
        "{asked}"
    );
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.message(), Some("stayed; nothing changed"));
    assert_eq!(std::fs::read_to_string(&typo).unwrap(), "just some notes\n", "kept");
    // Asked again and answered y: written; a later W there asks no more.
    keys(&mut app, "W");
    control(&mut app, 'u');
    keys(&mut app, &typo.display().to_string());
    press(&mut app, KeyCode::Enter);
    keys(&mut app, "y");
    assert!(app.message().unwrap().starts_with("saved tick 2"), "{:?}", app.message());
    assert_eq!(Scene::load(&typo).unwrap().bodies, app.state().bodies);
    keys(&mut app, ".W");
    control(&mut app, 'u');
    keys(&mut app, &typo.display().to_string());
    press(&mut app, KeyCode::Enter);
    assert!(app.message().unwrap().starts_with("saved tick 3"), "{:?}", app.message());
    // A scene this session opened is its own: w writes over it unasked.
    let other = dir.path().join("other.toml");
    std::fs::write(&other, DEFAULT_SCENE).unwrap();
    keys(&mut app, "O");
    control(&mut app, 'u');
    keys(&mut app, &other.display().to_string());
    press(&mut app, KeyCode::Enter);
    keys(&mut app, "bw");
    assert!(app.message().unwrap().starts_with("saved the set-up (9 bodies"), "{:?}", app.message());
}

// --- 9. "the 1 edit after tick 0 are not in it" -----------------------------

#[test]
fn one_edit_after_tick_0_is_singular_when_w_saves() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scene.toml");
    let mut app = App::new(Scene::parse(DEFAULT_SCENE).unwrap(), Some(path), ScalarKind::F32).unwrap();
    keys(&mut app, ".bw");
    let said = app.message().unwrap().to_owned();
    assert!(said.ends_with("; the edit after tick 0 is not in it (W saves a tick's state)"), "{said}");
    keys(&mut app, ".bw");
    let said = app.message().unwrap().to_owned();
    assert!(said.ends_with("; the 2 edits after tick 0 are not in it (W saves a tick's state)"), "{said}");
}

// --- 10. the prompts took only typing and Backspace -------------------------

fn key_with(app: &mut App, code: KeyCode, modifiers: KeyModifiers) {
    app.handle(&Event::Key(KeyEvent::new(code, modifiers)));
}

#[test]
fn every_prompt_edits_its_line_as_a_shell_does() {
    let mut app = app(ScalarKind::F64);
    keys(&mut app, "O");
    // The open prompt starts with the scene's path; ctrl-u clears it.
    keys(&mut app, "scenes/jar.toml");
    control(&mut app, 'u');
    assert_eq!(bottom(&mut app), "open scene file (Tab completes)> ▏");
    keys(&mut app, "scenes/jar.toml");
    control(&mut app, 'w');
    assert_eq!(bottom(&mut app), "open scene file (Tab completes)> scenes/▏", "ctrl-w deletes a word");
    keys(&mut app, "pile.toml");
    press(&mut app, KeyCode::Home);
    keys(&mut app, "./");
    assert!(bottom(&mut app).ends_with("> ./▏scenes/pile.toml"));
    press(&mut app, KeyCode::End);
    for _ in 0..5 {
        press(&mut app, KeyCode::Left);
    }
    press(&mut app, KeyCode::Backspace);
    keys(&mut app, "E");
    press(&mut app, KeyCode::Delete);
    assert!(bottom(&mut app).ends_with("> ./scenes/pilE▏toml"), "{}", bottom(&mut app));
    control(&mut app, 'a');
    press(&mut app, KeyCode::Right);
    control(&mut app, 'k');
    assert!(bottom(&mut app).ends_with("> .▏"));
    control(&mut app, 'e');
    key_with(&mut app, KeyCode::Backspace, KeyModifiers::ALT);
    assert!(bottom(&mut app).ends_with("> ▏"));
    press(&mut app, KeyCode::Esc);
    // The edit prompt too: a value fixed in the middle of the line.
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    keys(&mut app, "x=2 y=3");
    for _ in 0..3 {
        key_with(&mut app, KeyCode::Left, KeyModifiers::CONTROL);
    }
    press(&mut app, KeyCode::Delete);
    keys(&mut app, "5");
    assert!(bottom(&mut app).ends_with("> x=5▏ y=3"), "{}", bottom(&mut app));
    press(&mut app, KeyCode::Enter);
    let body = app.state().bodies[0];
    assert_eq!((body.position.x, body.position.y), (5.0, 3.0), "{:?}", app.message());
}

#[test]
fn a_long_prompt_line_shows_the_text_around_the_cursor_wherever_it_is() {
    let mut app = app(ScalarKind::F64);
    keys(&mut app, "O");
    control(&mut app, 'u');
    let long: String = (0..100).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
    keys(&mut app, &long);
    let end = screen(&mut app, 40, 12).lines().last().unwrap().to_owned();
    assert!(end.ends_with("uv▏") && end.starts_with("> …"), "{end}");
    press(&mut app, KeyCode::Home);
    let start = screen(&mut app, 40, 12).lines().last().unwrap().to_owned();
    assert!(start.starts_with("> ▏abc") && start.ends_with('…'), "{start}");
    for _ in 0..50 {
        press(&mut app, KeyCode::Right);
    }
    let middle = screen(&mut app, 40, 12).lines().last().unwrap().to_owned();
    assert!(middle.starts_with("> …") && middle.ends_with('…') && middle.contains("wx▏yz"), "{middle}");
    assert_eq!(middle.chars().count(), 40);
}

// --- 3, 4, 5. values reported as other numbers, types and lines -------------

/// Types `edit` into the prompt for the selection (Tab picks body 0; none
/// for the world's) and returns the bottom line's message.
fn typed_edit(app: &mut App, select: bool, edit: &str) -> String {
    if select {
        press(app, KeyCode::Tab);
    }
    press(app, KeyCode::Enter);
    keys(app, edit);
    press(app, KeyCode::Enter);
    app.message().unwrap_or_default().to_owned()
}

#[test]
fn a_huge_coordinate_is_reported_as_typed() {
    let said = typed_edit(&mut app(ScalarKind::I32F32), true, "x=1e30");
    assert!(said.contains("coordinate 1e30 is outside I32F32's safe range ±268435456"), "{said}");
    let said = typed_edit(&mut app(ScalarKind::I16F16), true, "y=-40000.5");
    assert!(said.contains("coordinate -40000.5 is outside I16F16's safe range ±4096"), "{said}");
    let scene = "gravity = [0.0, -1.0]\n\n[[body]]\nposition = [1e30, 5.0]\nradius = 0.5\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("far.toml");
    std::fs::write(&path, scene).unwrap();
    let err = Scene::load(&path).and_then(|s| App::new(s, Some(path.clone()), ScalarKind::I32F32)).err().unwrap();
    assert!(err.to_string().contains("coordinate 1e30 is outside I32F32's safe range ±268435456"), "{err}");
    let err = Scene::load(&path).and_then(|s| App::new(s, None, ScalarKind::I16F16)).err().unwrap();
    assert!(err.to_string().contains("coordinate 1e30 is outside I16F16's safe range ±4096"), "{err}");
}

#[test]
fn a_refused_friction_names_the_current_type_and_a_readable_bound() {
    for kind in ScalarKind::ALL {
        let said = typed_edit(&mut app(kind), true, "mu=-1");
        assert!(said.starts_with("edit refused: ") && said.ends_with("friction -1 is negative"), "{said}");
        let mut later = app(kind);
        keys(&mut later, "...");
        let said = typed_edit(&mut later, true, "mu=1e300");
        let bound = match kind {
            ScalarKind::F32 => "1.2e18",
            ScalarKind::F64 => "1.8e72",
            ScalarKind::I16F16 => "4096",
            ScalarKind::I32F32 => "268435456",
            ScalarKind::I48F16 => "17592186044416",
        };
        assert!(said.ends_with(&format!("friction 1e300 is beyond {kind}'s safe range ±{bound}")), "{said}");
    }
}

#[test]
fn a_refused_world_edit_names_the_setting_not_a_line_of_a_file() {
    let said = typed_edit(&mut app(ScalarKind::I32F32), false, "gy=1e30");
    assert!(!said.contains("line"), "{said}");
    assert!(said.contains("gravity 1e30 is outside I32F32's safe range ±268435456"), "{said}");
}

// --- 6. typed values saved as 300 digits ------------------------------------

#[test]
fn a_typed_value_is_saved_as_the_shortest_text_that_reads_back_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tiny.toml");
    let mut app = App::new(Scene::parse(DEFAULT_SCENE).unwrap(), Some(path.clone()), ScalarKind::F64).unwrap();
    typed_edit(&mut app, true, "x=1e-300 vx=1e30 vy=0.1");
    keys(&mut app, "w");
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("position = [1e-300, "), "{saved}");
    assert!(saved.contains("velocity = [1e30, 0.1]"), "{saved}");
    assert!(saved.lines().all(|l| l.len() < 100), "{saved}");
    let body = Scene::load(&path).unwrap().bodies[0];
    assert_eq!((body.position.x, body.velocity.x, body.velocity.y), (1e-300, 1e30, 0.1));
}

// --- 7. the inspector ignored a lone body -----------------------------------

#[test]
fn the_inspector_shows_a_lone_body_and_says_what_it_lacks() {
    let mut app = App::new(Scene::parse("gravity = [0.0, -1.0]\n").unwrap(), None, ScalarKind::I32F32).unwrap();
    keys(&mut app, "b");
    assert_eq!(app.message(), Some("added body 0"));
    let text = screen(&mut app, 120, 40);
    assert!(!text.contains("Select a body"), "{text}");
    assert!(text.contains("body 0: nothing else to measure it against"), "{text}");
    assert!(text.contains("now x=0.0 y=0.0 vx=0.0 vy=0.0 r=0.5"), "{text}");
    assert!(text.contains("Add a shape (b o s u)"), "{text}");
    // The same after Tab in a one-body scene, and for a lone collider.
    let one = "gravity = [0.0, -1.0]\n\n[[body]]\nposition = [2.0, 3.0]\nradius = 0.5\n";
    let mut app = App::new(Scene::parse(one).unwrap(), None, ScalarKind::F32).unwrap();
    press(&mut app, KeyCode::Tab);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("body 0: nothing else to measure it against"), "{text}");
    assert!(text.contains("now x=2.0 y=3.0"), "{text}");
    keys(&mut app, "xs");
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("collider 0 (segment): no body to measure it against"), "{text}");
}

// --- 8. the pointer readout went stale during a drag -------------------------

/// The world point the status bar says is under the pointer.
fn readout(app: &mut App, width: u16, height: u16) -> (f64, f64) {
    let status = screen(app, width, height).lines().next().unwrap().to_owned();
    let (_, at) = status.split_once("│ at ").unwrap_or_else(|| panic!("{status}"));
    let coords: Vec<f64> = at.split(" │").next().unwrap().split(", ").map(|v| v.parse().unwrap()).collect();
    (coords[0], coords[1])
}

#[test]
fn the_pointer_readout_follows_a_drag_and_a_pan() {
    for (width, height) in [(120, 40), (80, 24)] {
        let mut app = app(ScalarKind::I32F32);
        let _ = screen(&mut app, width, height);
        let mouse = |app: &mut App, kind, (column, row): (u16, u16)| {
            app.handle(&Event::Mouse(MouseEvent { kind, column, row, modifiers: KeyModifiers::NONE }));
        };
        // A drag of a body: the readout is where the body was dragged to.
        let body = app.state().bodies[0].position;
        let from = app.cell_of(body).expect("in view");
        mouse(&mut app, MouseEventKind::Down(MouseButton::Left), from);
        let to = (from.0 + 6, from.1 + 2);
        mouse(&mut app, MouseEventKind::Drag(MouseButton::Left), to);
        let (x, y) = readout(&mut app, width, height);
        assert_eq!(app.cell_of(Vec2::new(x, y)), Some(to), "the readout follows the drag at {width}×{height}");
        mouse(&mut app, MouseEventKind::Up(MouseButton::Left), to);
        // A pan from empty space: the point under the pointer stays the
        // one grabbed, and the readout says so where the pointer now is.
        let empty = app.cell_of(Vec2::new(0.0, 18.0)).expect("in view");
        mouse(&mut app, MouseEventKind::Moved, empty);
        let grabbed = readout(&mut app, width, height);
        mouse(&mut app, MouseEventKind::Down(MouseButton::Left), empty);
        let there = (empty.0 - 4, empty.1 + 1);
        mouse(&mut app, MouseEventKind::Drag(MouseButton::Left), there);
        let (x, y) = readout(&mut app, width, height);
        assert_eq!(app.cell_of(Vec2::new(x, y)), Some(there), "the readout is at the pointer at {width}×{height}");
        let grabbed = Vec2::new(grabbed.0, grabbed.1);
        assert_eq!(app.cell_of(grabbed), Some(there), "the point grabbed moved with the pointer");
    }
}

// === The docs and the program disagreed, or confused ========================

#[test]
fn esc_deselects_first_and_quits_only_with_nothing_selected() {
    let mut app = app(ScalarKind::I32F32);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Esc);
    assert!(!app.should_quit(), "Esc with a body selected deselects it");
    assert_eq!(app.message(), Some("nothing selected (Enter edits the world)"));
    assert!(screen(&mut app, 120, 40).contains("Select a body (Tab or click)"));
    press(&mut app, KeyCode::Esc);
    assert!(app.should_quit(), "nothing selected and nothing unsaved: Esc quits");
}

#[test]
fn a_scene_without_gravity_has_none_and_an_empty_file_is_an_empty_scene() {
    let empty = Scene::parse("").unwrap();
    assert_eq!((empty.settings.gravity, empty.bodies.len()), (Vec2::new(0.0, 0.0), 0));
    let ball = Scene::parse("[[body]]\nposition = [0.0, 1.0]\nradius = 0.5\nvelocity = [0.25, 0.0]\n").unwrap();
    let mut app = App::new(ball, None, ScalarKind::I32F32).unwrap();
    keys(&mut app, "....");
    assert_eq!(app.state().bodies[0].position, Vec2::new(1.0, 1.0), "no gravity: it flies straight");
}

#[test]
fn opening_a_missing_file_with_unsaved_edits_is_refused_without_a_question() {
    let mut app = app(ScalarKind::I32F32);
    keys(&mut app, "b");
    keys(&mut app, "O");
    control(&mut app, 'u');
    keys(&mut app, "no/such/scene.toml");
    press(&mut app, KeyCode::Enter);
    let said = app.message().unwrap().to_owned();
    assert!(said.starts_with("kept the current scene: no/such/scene.toml: "), "{said}");
    keys(&mut app, "y");
    assert_eq!(app.setup().bodies.len(), 9, "no question was pending: y did nothing");
}

#[test]
fn capital_w_says_a_saved_tick_reopens_with_checksums_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::new(Scene::parse(DEFAULT_SCENE).unwrap(), None, ScalarKind::I32F32).unwrap();
    keys(&mut app, ".....W");
    control(&mut app, 'u');
    let path = dir.path().join("tick5.toml");
    keys(&mut app, &path.display().to_string());
    press(&mut app, KeyCode::Enter);
    let said = app.message().unwrap().to_owned();
    assert!(said.ends_with("; opened, it starts afresh at tick 0, without the contacts' impulses and sleep, so its checksums are its own"), "{said}");
    // As said: the same bodies, another checksum.
    let reopened = App::new(Scene::load(&path).unwrap(), None, ScalarKind::I32F32).unwrap();
    assert_eq!(reopened.state().bodies, app.state().bodies);
    assert_ne!(reopened.checksum(), app.checksum());
}

#[test]
fn the_world_prompt_shows_substeps_as_the_whole_number_it_must_be() {
    let mut app = app(ScalarKind::F64);
    press(&mut app, KeyCode::Enter);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains(" substeps=8"), "{text}");
    assert!(!text.contains("substeps=8.0"), "{text}");
}

#[test]
fn the_inspector_says_its_columns_ask_this_worlds_shapes_unlike_the_split_view() {
    let mut app = app(ScalarKind::I32F32);
    press(&mut app, KeyCode::Tab);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("columns: this I32F32 world's shapes, in each type (c runs two worlds)"), "{text}");
    keys(&mut app, "2");
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("columns: this f64 world's shapes, in each type (c runs two worlds)"), "{text}");
}

/// Every help line's text, the box's borders and scroll marks left out.
fn help_text_seen(app: &mut App, width: u16, height: u16) -> String {
    let mut seen = String::new();
    for _ in 0..80 {
        for line in screen(app, width, height).lines() {
            let inner = line.trim_start_matches(|c: char| c != '│').trim_matches('│').trim();
            seen.push_str(inner);
            seen.push('\n');
        }
        press(app, KeyCode::Down);
    }
    seen
}

#[test]
fn every_help_row_lines_up_and_at_40_by_12_every_word_of_it_comes_into_view() {
    let mut app = app(ScalarKind::F64);
    keys(&mut app, "?");
    // 120 wide: every description starts in the same column.
    let text = screen(&mut app, 120, 60);
    let columns: BTreeSet<usize> = geom_tui::keymap::KEYS
        .iter()
        .map(|(key, what)| {
            let line = text.lines().find(|l| l.contains(what)).unwrap_or_else(|| panic!("{what}:\n{text}"));
            assert!(line.contains(key));
            line[..line.find(what).unwrap()].chars().count()
        })
        .collect();
    assert_eq!(columns.len(), 1, "{text}");
    // 40 × 12: scrolled through, every word of every row is seen whole.
    let seen = help_text_seen(&mut app, 40, 12);
    for (key, what) in geom_tui::keymap::KEYS {
        assert!(seen.contains(key), "`{key}` never came into view:\n{seen}");
        for word in what.split(' ') {
            assert!(
                seen.split_whitespace().any(|w| w == word),
                "`{word}` of `{what}` never came into view whole:\n{seen}"
            );
        }
    }
}

#[test]
fn at_80_columns_the_status_bar_keeps_the_pointer_and_the_zoom() {
    let mut app = app(ScalarKind::I32F32);
    let _ = screen(&mut app, 80, 24);
    let (column, row) = app.cell_of(Vec2::new(-30.5, 12.25)).expect("in view");
    app.handle(&Event::Mouse(MouseEvent { kind: MouseEventKind::Moved, column, row, modifiers: KeyModifiers::NONE }));
    let status = screen(&mut app, 80, 24).lines().next().unwrap().to_owned();
    assert!(status.contains("│ at ") && status.contains("│ 1 cell = "), "{status}");
    assert!(status.contains(&format!("{:016x}", app.checksum())), "{status}");
    assert!(status.chars().count() <= 80);
}

#[test]
fn at_40_by_12_the_split_status_fits_and_i_says_why_no_inspector_shows() {
    let mut app = app(ScalarKind::I32F32);
    keys(&mut app, "c");
    let text = screen(&mut app, 40, 12);
    let split = text.lines().nth(1).unwrap();
    assert!(split.starts_with(" I32F32/f64 │ gap 0.0 │ none > 1e"), "{text}");
    keys(&mut app, "ii");
    assert_eq!(app.message(), Some("inspector on, but this terminal is too small to show it: make it taller"));
    let _ = screen(&mut app, 120, 40);
    keys(&mut app, "ii");
    assert_eq!(app.message(), Some("inspector on"));
}

/// The binary's exit code and what it wrote to standard error.
fn geom_tui_err(args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_geom-tui")).args(args).output().expect("the binary runs");
    (output.status.code(), String::from_utf8(output.stderr).expect("text"))
}

#[test]
fn the_command_line_names_what_is_wrong_in_the_users_terms() {
    let (code, err) = geom_tui_err(&["a.toml", "b.toml"]);
    assert_eq!(code, Some(2));
    assert!(err.starts_with("error: unexpected argument 'b.toml': the sandbox opens one scene"), "{err}");
    assert!(!err.contains("subcommand"), "{err}");
    let (code, err) = geom_tui_err(&["run", "default", "--ticks", "-1"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("a whole number of ticks from 0 to 18446744073709551615, not `-1`"), "{err}");
    assert!(!err.contains("-- -1"), "{err}");
}

#[test]
fn run_warns_of_inputs_it_will_never_apply() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("late.toml");
    std::fs::write(&path, "[[velocity]]\ntick = 2\nbody = 0\nvelocity = [1.0, 0.0]\n\n[[velocity]]\ntick = 50\nbody = 0\nvelocity = [0.0, 1.0]\n").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_geom-tui"))
        .args(["run", "default", "--ticks", "10", "--inputs"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(output.status.success());
    let err = String::from_utf8(output.stderr).unwrap();
    let expected = format!(
        "geom-tui: warning: 1 input at or beyond --ticks 10 is never applied (the first at {}:6, tick 50)\n",
        path.display()
    );
    assert_eq!(err, expected);
    assert_eq!(String::from_utf8(output.stdout).unwrap().lines().count(), 11, "the run goes on");
}
