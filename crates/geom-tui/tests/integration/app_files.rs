//! The sandbox's files, driven as a user drives it: saving the set-up or a
//! tick's state, opening, and every way that can fail.

use crate::common;

use common::*;

// --- Files ----------------------------------------------------------------

/// What a refused action must leave as it was: the tick, the world, the
/// set-up, the split view, what is unsaved, the history, and the file
/// `w` saves to (what the open prompt starts with).
#[derive(Debug, PartialEq)]
struct Snapshot {
    tick: u64,
    checksum: u64,
    kind: ScalarKind,
    setup: Scene,
    state: Scene,
    split: Option<u64>,
    unsaved: Option<String>,
    rewindable: usize,
    file: String,
}

fn snapshot(app: &mut App) -> Snapshot {
    app.apply(Action::OpenPrompt);
    let prompt = lines(app, 240, 24).pop().unwrap();
    app.apply(Action::Cancel);
    let file = prompt.split("> ").nth(1).unwrap().trim_end_matches('▏').to_owned();
    Snapshot {
        tick: app.tick(),
        checksum: app.checksum(),
        kind: app.kind(),
        setup: app.setup().clone(),
        state: app.state(),
        split: app.split().map(|(_, c)| c),
        unsaved: app.unsaved(),
        rewindable: rewindable(app),
        file,
    }
}

#[test]
fn saving_writes_the_set_up_and_capital_w_writes_this_ticks_state() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved.toml");
    let mut app = App::new(default_scene(), Some(path.clone()), ScalarKind::I32F32).unwrap();
    app.apply(Action::Add(Addition::Ball));
    keys(&mut app, ".....w");
    assert_done(&app, &path.display().to_string());
    assert_eq!(Scene::load(&path).unwrap(), *app.setup(), "w saves the set-up, not tick 5");
    assert_eq!(app.unsaved(), None);

    press(&mut app, KeyCode::Char('W'));
    let state_file = dir.path().join("saved-tick5.toml");
    assert!(lines(&app, 240, 24).pop().unwrap().ends_with(&format!("{}▏", state_file.display())));
    press(&mut app, KeyCode::Enter);
    assert_done(&app, "saved tick 5");
    let state = Scene::load(&state_file).unwrap();
    assert_eq!(state.bodies, app.state().bodies);
    assert_ne!(state.bodies, app.setup().bodies);
    let reopened = App::new(state, None, ScalarKind::I32F32).unwrap();
    assert_eq!(reopened.state().bodies, app.state().bodies, "the state reads back as it was");

    app.apply(Action::SaveStatePrompt);
    apply_n(&mut app, &Action::Line(LineEdit::Backspace), 2000);
    app.apply(Action::Submit);
    assert_refused(&app, "no file name");
}

#[test]
fn opening_a_file_starts_afresh_in_the_precision_it_names_and_a_bad_file_keeps_the_scene() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved.toml");
    let mut app = App::new(default_scene(), Some(path.clone()), ScalarKind::I32F32).unwrap();
    keys(&mut app, ".....w");

    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "gravity = [0.0, -0.1]\n[[body]]\nposition = [0.0, 1.0]\nradius = -3\n").unwrap();
    let before = snapshot(&mut app);
    open(&mut app, &bad);
    assert_refused(&app, ":4: the radius");
    assert_eq!(snapshot(&mut app), before);

    keys(&mut app, "c.");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('O'));
    press(&mut app, KeyCode::Enter);
    assert_done(&app, "opened");
    assert_eq!((app.tick(), app.state().bodies), (0, default_scene().bodies), "reopened the saved file");
    assert_eq!((rewindable(&app), app.selected(), app.split().is_some()), (0, None, false), "a fresh start");
    assert_eq!(app.kind(), ScalarKind::I32F32, "the file names no precision: the current one");
    press(&mut app, KeyCode::Char('1'));
    press(&mut app, KeyCode::Char('O'));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.kind(), ScalarKind::F32, "still the current one");

    let mut named = default_scene();
    named.scalar = Some(ScalarKind::I48F16);
    let named_path = dir.path().join("named.toml");
    named.save(&named_path).unwrap();
    open(&mut app, &named_path);
    assert_done(&app, "I48F16");
    assert_eq!(app.kind(), ScalarKind::I48F16, "opened in the precision the file asks for");
    assert_eq!(snapshot(&mut app).file, named_path.display().to_string(), "w now saves there");
}

#[test]
fn opening_with_unsaved_edits_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.toml");
    let mut scene = default_scene();
    scene.bodies.truncate(3);
    scene.save(&other).unwrap();
    let mut app = app(ScalarKind::F64);
    app.apply(Action::Add(Addition::Ball));
    open(&mut app, &other);
    assert_refused(&app, "open?");
    app.apply(Action::Cancel);
    assert_done(&app, "stayed");
    assert_eq!(app.state().bodies.len(), 9, "nothing opened");
    open(&mut app, &other);
    press(&mut app, KeyCode::Char('y'));
    assert_done(&app, "opened");
    assert_eq!((app.state().bodies.len(), app.unsaved()), (3, None));
}

#[test]
fn opening_a_bad_file_keeps_the_scene_and_shows_why() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, contents: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, contents).unwrap();
        path
    };
    let huge = dir.path().join("huge.toml");
    std::fs::File::create(&huge).unwrap().set_len(MAX_FILE_BYTES + 1).unwrap();
    let many = format!("gravity = [0.0, -0.1]\n{}", "[[body]]\nposition = [0, 0]\nradius = 1\n".repeat(MAX_BODIES + 1));
    let mut cases = vec![
        (huge, "too large: 16777217 bytes, more than the 16777216 (16 MiB) a scene file may have"),
        (file("elf", b"\x7fELF\x02\x01\x01\x00\x00\x00"), "elf:1: not a text file: byte 7 is NUL"),
        (file("latin1.toml", b"# caf\xe9\n"), "latin1.toml:1: not UTF-8 text: byte 5 is 0xe9"),
        (file("cut.toml", &DEFAULT_SCENE.as_bytes()[..1000]), "cut.toml:"),
        (file("many.toml", many.as_bytes()), "many.toml:15002: too many bodies: a scene may have at most 5000"),
        (dir.path().to_owned(), ": a directory, not a scene file"),
        (dir.path().join("missing.toml"), "missing.toml: "),
    ];
    #[cfg(unix)]
    cases.extend([
        ("/dev/zero".into(), "/dev/zero: too large: more than the 16777216 bytes"),
        (fifo(dir.path(), "pipe"), "pipe: a pipe with nothing written to it"),
    ]);
    let mut app = App::new(default_scene(), None, ScalarKind::I32F32).unwrap();
    keys(&mut app, "...");
    for (path, expected) in cases {
        let before = snapshot(&mut app);
        open(&mut app, &path);
        let text = assert_refused(&app, expected);
        assert!(text.starts_with(&format!("kept the current scene: {}", path.display())), "{text}");
        assert_eq!(snapshot(&mut app), before, "{}", path.display());
    }
}

/// Makes the named pipe `name` in `dir`, with no writer. Should a test
/// ever wait on it, a writer comes after 30 s with text no scene parses,
/// so that the test fails instead of hanging.
#[cfg(unix)]
fn fifo(dir: &Path, name: &str) -> PathBuf {
    use rustix::fs::{Mode, OFlags};
    let path = dir.join(name);
    let made = std::process::Command::new("mkfifo").arg(&path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
    let watched = path.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(30));
        // Opening to write without waiting succeeds only if a reader is
        // waiting; the pipe may be gone by now, which is fine.
        if let Ok(fd) = rustix::fs::open(&watched, OFlags::WRONLY | OFlags::NONBLOCK, Mode::empty()) {
            let _ = rustix::io::write(&fd, b"written by the watchdog: a test waited on a pipe\n");
        }
    });
    path
}

#[test]
fn saving_where_it_cannot_shows_why_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let read_only = dir.path().join("read-only.toml");
    std::fs::write(&read_only, b"old contents").unwrap();
    let mut permissions = std::fs::metadata(&read_only).unwrap().permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&read_only, permissions).unwrap();
    std::fs::create_dir(dir.path().join("a-directory")).unwrap();
    let cases = [
        (read_only.clone(), "the file is read-only; left as it is"),
        (dir.path().join("a-directory"), "a directory, not a file"),
        (dir.path().join("no-such-dir").join("scene.toml"), "no directory"),
    ];
    let names = || {
        let mut names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        names
    };
    for (path, expected) in cases {
        let mut app = App::new(default_scene(), Some(path.clone()), ScalarKind::I32F32).unwrap();
        app.apply(Action::Add(Addition::Ball));
        keys(&mut app, ".....");
        let before = snapshot(&mut app);
        press(&mut app, KeyCode::Char('w'));
        let text = assert_refused(&app, expected);
        assert!(text.starts_with(&format!("not saved: {}: ", path.display())), "{text}");
        assert_eq!(snapshot(&mut app), before, "{}", path.display());
        assert!(app.unsaved().is_some(), "still unsaved");
        assert_eq!(std::fs::read(&read_only).unwrap(), b"old contents");
        assert_eq!(names(), ["a-directory", "read-only.toml"], "no temporary file is left behind");
    }
}

#[test]
fn adding_stops_at_the_most_bodies_and_colliders_a_scene_may_have() {
    let mut scene = Scene::new(Settings::new(Vec2::new(0.0, 0.0)));
    scene.bodies = (0..MAX_BODIES).map(|i| BodySpec::new(Vec2::new(i as f64 * 3.0, 0.0), 1.0)).collect();
    let post = |i: usize| Shape::Circle { center: Vec2::new(i as f64 * 3.0, 10.0), radius: 1.0 };
    scene.colliders = (0..MAX_COLLIDERS).map(|i| post(i).into()).collect();
    let mut app = App::new(scene, None, ScalarKind::F64).unwrap();
    let before = snapshot(&mut app);
    press(&mut app, KeyCode::Char('b'));
    assert_refused(&app, "adding a ball refused: a scene may have at most 5000 bodies");
    for key in ['o', 's', 'u'] {
        press(&mut app, KeyCode::Char(key));
        assert_refused(&app, "adding refused: a scene may have at most 5000 colliders");
    }
    assert_eq!(snapshot(&mut app), before);
    assert_eq!(app.state().colliders.len(), MAX_COLLIDERS);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('x'));
    press(&mut app, KeyCode::Char('b'));
    assert_done(&app, "added");
    assert_eq!(app.state().bodies.len(), MAX_BODIES, "room for one again");
}

#[test]
fn pasted_text_goes_into_an_open_prompt_and_is_never_taken_as_keys() {
    let mut app = app(ScalarKind::I32F32);
    let before = snapshot(&mut app);
    app.handle(&Event::Paste("q\n.w b".to_owned()));
    assert!(!app.should_quit() && app.message().is_none());
    assert_eq!(snapshot(&mut app), before);

    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    app.handle(&Event::Paste("x=1.5\n\ty=2\u{1b}[A".to_owned()));
    let footer = lines(&app, 80, 24).pop().unwrap();
    assert_eq!(footer, "edit> x=1.5y=2[A▏", "control characters dropped");
    for _ in 0.."y=2[A".len() {
        press(&mut app, KeyCode::Backspace);
    }
    keys(&mut app, " y=2");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.state().bodies[0].position, Vec2::new(1.5, 2.0));

    // A prompt holds 1024 characters, however much arrives.
    press(&mut app, KeyCode::Char('O'));
    app.handle(&Event::Paste("é".repeat(3 * 1024)));
    keys(&mut app, "more");
    let footer = lines(&app, 80, 24).pop().unwrap();
    assert!(
        footer.starts_with("open scene file") && footer.contains("> …é") && footer.ends_with("é▏"),
        "the end of the text shows: {footer}"
    );
    // The edit above is unsaved, but a file that is not there is refused
    // before anything is asked.
    press(&mut app, KeyCode::Enter);
    // Too long to show whole in three lines.
    let text = outcome(&app).expect_err("the file is not there");
    assert!(text.starts_with("kept the current scene: éé"), "{text}");
    assert_eq!(text.matches('é').count(), 1024, "{text}");
    assert!(!text.contains("more"));
    press(&mut app, KeyCode::Char('O'));
    press(&mut app, KeyCode::Esc);
    assert!(!app.should_quit());
    assert!(!lines(&app, 80, 24).pop().unwrap().contains("open scene file"), "the prompt is closed");
}

/// Ctrl-c while "open?" is asked asks to quit instead; it never opens the
/// file (which would lose the edits) and a second ctrl-c quits.
#[test]
fn ctrl_c_in_the_open_question_asks_to_quit_and_never_opens() {
    let mut app = app(ScalarKind::I32F32);
    keys(&mut app, "b");
    let with_ball = app.checksum();
    keys(&mut app, "O");
    let player = format!("{}/scenes/player.toml", env!("CARGO_MANIFEST_DIR"));
    keys(&mut app, &player);
    press(&mut app, KeyCode::Enter);
    assert!(app.message().unwrap().starts_with("open? "), "{:?}", app.message());
    let ctrl_c = Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    app.handle(&ctrl_c);
    assert!(!app.should_quit() && app.message().unwrap().starts_with("quit? "), "{:?}", app.message());
    assert_eq!(app.checksum(), with_ball, "nothing was opened");
    app.handle(&ctrl_c);
    assert!(app.should_quit());
}
