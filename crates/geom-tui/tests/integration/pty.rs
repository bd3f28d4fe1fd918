//! The real binary in a pseudo-terminal, screen read back through a
//! terminal emulator: it opens on the default scene, steps, shows the help,
//! survives being shrunk to one cell and pasted into, and quits, leaving
//! the terminal as it found it.

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

const ROWS: u16 = 30;
const COLUMNS: u16 = 100;
const PATIENCE: Duration = Duration::from_secs(20);

/// The sandbox running in a pseudo-terminal.
struct Sandbox {
    screen: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
    keyboard: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    /// Kept open for as long as the child uses the terminal.
    master: Box<dyn MasterPty + Send>,
}

impl Sandbox {
    fn start(env: &[(&str, &str)]) -> Self {
        Self::start_with(&[], env)
    }

    /// The sandbox started with `args` on its command line.
    fn start_with(args: &[&str], env: &[(&str, &str)]) -> Self {
        Self::start_in(None, args, env)
    }

    /// The sandbox started in directory `dir` (else this one) with `args`.
    fn start_in(dir: Option<&std::path::Path>, args: &[&str], env: &[(&str, &str)]) -> Self {
        let pty = native_pty_system()
            .openpty(PtySize { rows: ROWS, cols: COLUMNS, pixel_width: 0, pixel_height: 0 })
            .expect("open a pseudo-terminal");
        let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_geom-tui"));
        command.args(args);
        if let Some(dir) = dir {
            command.cwd(dir);
        }
        command.env("TERM", "xterm-256color");
        command.env_remove("NO_COLOR");
        for (key, value) in env {
            command.env(key, value);
        }
        let child = pty.slave.spawn_command(command).expect("start geom-tui");
        drop(pty.slave);
        let screen = Arc::new(Mutex::new(vt100::Parser::new(ROWS, COLUMNS, 0)));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let mut reader = pty.master.try_clone_reader().expect("read the terminal");
        let (screen_in, raw_in) = (Arc::clone(&screen), Arc::clone(&raw));
        std::thread::spawn(move || {
            let mut buffer = [0_u8; 8192];
            while let Ok(n @ 1..) = reader.read(&mut buffer) {
                screen_in.lock().unwrap().process(&buffer[..n]);
                raw_in.lock().unwrap().extend_from_slice(&buffer[..n]);
            }
        });
        let keyboard = pty.master.take_writer().expect("write to the terminal");
        Self { screen, raw, keyboard, child, master: pty.master }
    }

    fn contents(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    /// Waits until the screen shows `text`, and returns the screen.
    fn wait_for(&self, what: &str, shown: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let contents = self.contents();
            if shown(&contents) {
                return contents;
            }
            assert!(start.elapsed() < PATIENCE, "timed out waiting for {what}; the screen:\n{contents}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn type_keys(&mut self, keys: &str) {
        self.keyboard.write_all(keys.as_bytes()).expect("type");
        self.keyboard.flush().expect("type");
    }

    /// Resizes the terminal, as dragging a window's corner does: the
    /// sandbox is told, and the emulator reading it back changes size too.
    fn resize(&mut self, rows: u16, cols: u16) {
        self.screen.lock().unwrap().screen_mut().set_size(rows, cols);
        self.master.resize(PtySize { rows, cols, pixel_width: 0, pixel_height: 0 }).expect("resize the terminal");
    }

    fn wait_for_exit(&mut self) -> portable_pty::ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("poll the child") {
                return status;
            }
            if start.elapsed() > PATIENCE {
                let _ = self.child.kill();
                panic!("geom-tui did not quit; the screen:\n{}", self.contents());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Everything written after the sandbox left its last screen.
    fn after_last_screen(&self) -> Vec<u8> {
        // Give the reader a moment to drain what the child wrote last.
        std::thread::sleep(Duration::from_millis(200));
        let raw = self.raw.lock().unwrap();
        let enter = b"\x1b[?1049h";
        let start =
            raw.windows(enter.len()).rposition(|w| w == enter).expect("the sandbox entered the alternate screen");
        raw[start..].to_vec()
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn it_opens_the_default_scene_steps_shows_help_and_quits_cleanly() {
    let mut sandbox = Sandbox::start(&[]);
    let first = sandbox.wait_for("the first frame", |s| s.contains("tick 0 │ I32F32"));
    assert!(first.contains("inspector"), "{first}");
    assert!(first.chars().any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)), "the scene is drawn in braille:\n{first}");

    sandbox.type_keys(".");
    sandbox.wait_for("tick 1", |s| s.contains("tick 1 │"));
    sandbox.type_keys(",");
    sandbox.wait_for("back at tick 0", |s| s.contains("tick 0 │"));

    sandbox.type_keys("?");
    let help = sandbox.wait_for("the help", |s| s.contains("keys · ? or Esc closes"));
    assert!(help.contains("play / pause") && help.contains("quit"), "{help}");
    sandbox.type_keys("\x1b");
    sandbox.wait_for("the help to close", |s| !s.contains("keys · ? or Esc closes"));

    assert_quits_cleanly(&mut sandbox);
}

/// Asserts that the sandbox quits with success and puts the terminal back.
fn assert_quits_cleanly(sandbox: &mut Sandbox) {
    sandbox.type_keys("q");
    let status = sandbox.wait_for_exit();
    assert!(status.success(), "{status:?}");
    let tail = sandbox.after_last_screen();
    for (restore, what) in [
        (&b"\x1b[?1049l"[..], "leaves the alternate screen"),
        (&b"\x1b[?1000l"[..], "stops capturing the mouse"),
        (&b"\x1b[?2004l"[..], "stops bracketing pastes"),
        (&b"\x1b[?25h"[..], "shows the cursor"),
    ] {
        assert!(contains(&tail, restore), "on quitting, geom-tui {what}");
    }
}

#[test]
fn it_survives_a_terminal_shrunk_to_one_cell_and_grown_back() {
    let mut sandbox = Sandbox::start(&[]);
    sandbox.wait_for("the first frame", |s| s.contains("tick 0 │ I32F32"));
    sandbox.resize(1, 1);
    sandbox.wait_for("the first letter of `terminal too small`", |s| s == "t");
    // Keys still work while there is no room to show anything.
    sandbox.type_keys("..");
    sandbox.resize(3, 12);
    sandbox.wait_for("more of the note", |s| s.starts_with("terminal too\nsmall"));
    sandbox.resize(ROWS, COLUMNS);
    let screen = sandbox.wait_for("the whole view again, two ticks on", |s| s.contains("tick 2 │ I32F32"));
    assert!(screen.contains("inspector") && !screen.contains("too small"), "{screen}");
    assert_quits_cleanly(&mut sandbox);
}

#[test]
fn a_paste_is_never_taken_as_keys() {
    let mut sandbox = Sandbox::start(&[]);
    sandbox.wait_for("the first frame", |s| s.contains("tick 0 │ I32F32"));
    // A bracketed paste holding keys that would step and quit.
    sandbox.type_keys("\x1b[200~..q\x1b[201~");
    sandbox.type_keys(".");
    sandbox.wait_for("one tick", |s| s.contains("tick 1 │"));
    std::thread::sleep(Duration::from_millis(300));
    assert!(sandbox.child.try_wait().expect("poll the child").is_none(), "the pasted q did not quit");
    assert!(sandbox.contents().contains("tick 1 │"), "the pasted dots did not step:\n{}", sandbox.contents());
    assert_quits_cleanly(&mut sandbox);
}

#[test]
fn it_plays_and_pauses_and_keeps_no_colour_under_no_color() {
    let mut sandbox = Sandbox::start(&[("NO_COLOR", "1")]);
    sandbox.wait_for("the first frame", |s| s.contains("tick 0 │"));
    sandbox.type_keys(" ");
    sandbox.wait_for("ticks to run", |s| s.contains("▶") && !s.contains("tick 0 │"));
    sandbox.type_keys(" ");
    sandbox.wait_for("the pause", |s| s.contains(" ⏸ │ tick"));
    {
        let parser = sandbox.screen.lock().unwrap();
        let screen = parser.screen();
        for row in 0..ROWS {
            for column in 0..COLUMNS {
                let cell = screen.cell(row, column).expect("inside the screen");
                let colours = (cell.fgcolor(), cell.bgcolor());
                assert_eq!(colours, (vt100::Color::Default, vt100::Color::Default), "colour at {row},{column}");
            }
        }
    }
    sandbox.type_keys("\x1b");
    assert!(sandbox.wait_for_exit().success());
}

#[test]
fn with_an_unsaved_ball_esc_asks_before_quitting_and_only_y_quits() {
    let mut sandbox = Sandbox::start(&[]);
    sandbox.wait_for("the first frame", |s| s.contains("tick 0 │ I32F32"));
    sandbox.type_keys("b");
    sandbox.wait_for("the ball", |s| s.contains("added body"));
    // The ball added is selected: the first Esc deselects it.
    sandbox.type_keys("\x1b");
    sandbox.wait_for("the ball deselected", |s| s.contains("nothing selected"));
    sandbox.type_keys("\x1b");
    sandbox.wait_for("the question", |s| s.contains("quit? the set-up has unsaved edits"));
    // A lone Esc in the question stays: it is not taken as quitting.
    sandbox.type_keys("\x1b");
    sandbox.wait_for("the question to close", |s| s.contains("stayed; nothing changed"));
    std::thread::sleep(Duration::from_millis(200));
    assert!(sandbox.child.try_wait().expect("poll the child").is_none(), "Esc quit with unsaved edits");
    sandbox.type_keys("q");
    sandbox.wait_for("the question again", |s| s.contains("quit?"));
    sandbox.type_keys("y");
    assert!(sandbox.wait_for_exit().success());
}

/// `geom-tui default`, a post added with `o`, then `w`: the set-up goes to
/// `./geom-scene.toml`. A file there from an earlier session is the user's:
/// `w` says what it holds and asks; any key but `y` keeps it, `y` writes
/// over it, and a second `w` (the file is now this session's) asks no more.
#[test]
fn w_asks_before_writing_over_a_geom_scene_toml_from_an_earlier_session() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("geom-scene.toml");
    let earlier = "# saved last week\ngravity = [0.0, -1.0]\n\n[[body]]\nposition = [0.0, 5.0]\nradius = 0.5\n";
    std::fs::write(&path, earlier).unwrap();
    let mut sandbox = Sandbox::start_in(Some(dir.path()), &["default"], &[]);
    sandbox.wait_for("the first frame", |s| s.contains("tick 0 │ I32F32"));
    sandbox.type_keys("ow");
    let asked = sandbox.wait_for("the question", |s| s.contains("is there already"));
    assert!(
        asked.contains("geom-scene.toml is there already (a scene of 1 body and 0 colliders): y writes over it"),
        "{asked}"
    );
    sandbox.type_keys("n");
    sandbox.wait_for("the question to close", |s| s.contains("stayed; nothing changed"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), earlier, "the earlier file is kept");
    sandbox.type_keys("wy");
    sandbox.wait_for("the save", |s| s.contains("saved the set-up"));
    let saved = std::fs::read_to_string(&path).unwrap();
    assert_ne!(saved, earlier);
    sandbox.type_keys("bw");
    let again = sandbox.wait_for("the second save", |s| s.contains("saved the set-up (9 bodies"));
    assert!(!again.contains("is there already"), "{again}");
    assert_quits_cleanly(&mut sandbox);
}

/// The status bar's checksum, from a screen.
fn checksum_shown(screen: &str) -> String {
    let rest = screen.split("checksum ").nth(1).unwrap_or_else(|| panic!("no checksum on the screen:\n{screen}"));
    rest.chars().take(16).collect()
}

/// Play mode in a real terminal: Tab selects the player scene's character,
/// P plays it, → walks and ↑ jumps, the status bar says it is grounded and
/// walking; I saves the moves; rewound to tick 0 and stepped on again (play
/// mode off) it reaches the same checksum, which is what `geom-tui run
/// --inputs` prints for the moves saved.
#[test]
fn play_mode_drives_a_character_and_rewinding_replays_what_run_inputs_replays() {
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/player.toml");
    let dir = tempfile::tempdir().expect("a scratch directory");
    let inputs = dir.path().join("moves.toml");
    let mut sandbox = Sandbox::start_with(&[scene], &[]);
    sandbox.wait_for("the first frame", |s| s.contains("tick 0 │ I32F32"));
    sandbox.type_keys("\t");
    sandbox.wait_for("the player selected", |s| s.contains("body 0 (capsule)"));
    sandbox.type_keys("P");
    sandbox.wait_for("play mode", |s| s.contains("play b0"));
    sandbox.type_keys(" "); // pause: the ticks are stepped by hand
    sandbox.wait_for("paused", |s| s.contains("⏸"));
    sandbox.type_keys("\x1b[C");
    let tick = sandbox.contents().split("tick ").nth(1).and_then(|t| t.split_whitespace().next()?.parse::<u32>().ok());
    let start = tick.expect("the tick on the status bar");
    sandbox.type_keys(&".".repeat(20));
    let walking = sandbox.wait_for("twenty ticks walked", |s| s.contains(&format!("tick {} │", start + 20)));
    assert!(walking.contains("grounded · walking →"), "{walking}");
    sandbox.type_keys("\x1b[A");
    sandbox.type_keys(&".".repeat(10));
    let jumped = sandbox.wait_for("ten ticks of a jump", |s| s.contains(&format!("tick {} │", start + 30)));
    assert!(jumped.contains("in the air"), "{jumped}");
    let end = start + 30;
    let played = checksum_shown(&jumped);

    sandbox.type_keys("I");
    sandbox.wait_for("the inputs prompt", |s| s.contains("save the moves played as>"));
    sandbox.type_keys(&"\x7f".repeat(300));
    sandbox.type_keys(&format!("{}\r", inputs.display()));
    sandbox.wait_for("the moves saved", |s| s.contains("saved ") && s.contains("moves to"));

    sandbox.type_keys("P"); // play mode off: stepping replays the moves
    sandbox.type_keys(&",".repeat(usize::try_from(end).unwrap()));
    sandbox.wait_for("tick 0 again", |s| s.contains("tick 0 │"));
    sandbox.type_keys(&".".repeat(usize::try_from(end).unwrap()));
    let replayed = sandbox.wait_for("the moves replayed", |s| s.contains(&format!("tick {end} │")));
    assert_eq!(checksum_shown(&replayed), played, "rewinding replays the same moves");

    let run = std::process::Command::new(env!("CARGO_BIN_EXE_geom-tui"))
        .args(["run", scene, "--ticks", &end.to_string(), "--inputs"])
        .arg(&inputs)
        .output()
        .expect("run geom-tui");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stdout = String::from_utf8(run.stdout).expect("text");
    assert_eq!(
        stdout.lines().last(),
        Some(format!("{end} {played}").as_str()),
        "run --inputs ends where the sandbox is"
    );
    sandbox.type_keys("q");
    sandbox.wait_for("the question", |s| s.contains("quit?"));
    sandbox.type_keys("y");
    assert!(sandbox.wait_for_exit().success());
}

/// The value after `label` on the screen, up to the next space: the
/// frame a panel shows, say.
fn number_after(screen: &str, label: &str) -> Vec<u64> {
    screen
        .match_indices(label)
        .filter_map(|(i, _)| screen[i + label.len()..].split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
        .collect()
}

/// `geom-tui net`: both peers' panels come up and play, the network keys
/// show on the status bar, a desync forced with `x` is caught and traced,
/// and `q` quits cleanly.
#[test]
fn the_netcode_lab_shows_both_peers_takes_network_keys_and_catches_a_forced_desync() {
    let mut lab = Sandbox::start_with(&["net", "--latency", "40", "--scalar", "I16F16"], &[]);
    let first = lab.wait_for("both panels playing", |s| {
        s.contains("peer 1 · player 1: keys w a s d") && s.contains("peer 2 · player 2: bot") && s.contains("predicted")
    });
    assert!(first.contains("▶ I16F16 │ input delay 0 │ latency 40±0 ms"), "{first}");
    // Frames go by in real time, on both peers.
    let later = lab.wait_for("frame 60 on both", |s| {
        let frames = number_after(s, "frame ");
        frames.len() == 2 && frames.iter().all(|&f| f >= 60)
    });
    // Both panels show the checksum of the same confirmed frame, and agree.
    // (The panels sit side by side: both are on one line of the screen.)
    let compared: Vec<&str> = later
        .match_indices("checksum of ")
        .filter_map(|(i, label)| later[i + label.len()..].split_whitespace().take(2).last())
        .collect();
    assert_eq!(compared.len(), 2, "{later}");
    assert_eq!(compared[0], compared[1], "{later}");
    lab.type_keys("LLj");
    lab.wait_for("the latency raised", |s| s.contains("latency 60±0 ms"));
    lab.type_keys("dddd");
    lab.type_keys("x");
    let caught = lab.wait_for("the desync caught and traced", |s| {
        s.contains("DESYNC ") && s.contains("the worlds first differ at frame")
    });
    assert!(caught.contains("desync caught at frame"), "{caught}");
    lab.type_keys("?");
    lab.wait_for("the keys", |s| s.contains("keys · ? or Esc closes") && s.contains("input delay a frame less"));
    lab.type_keys("\x1b");
    lab.wait_for("the keys closed", |s| !s.contains("keys · ? or Esc closes"));
    assert_quits_cleanly(&mut lab);
}
