//! The headless runner, driven as a user would: the real binary, its
//! output, its exit codes and its error messages.

use std::path::PathBuf;
use std::process::{Command, Output};

use crate::binary;

use binary::{geom_tui, stderr, stdout};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch file that is removed when the test ends.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &str) -> Self {
        let path = std::env::temp_dir().join(format!("geom-tui-{}-{name}", std::process::id()));
        std::fs::write(&path, contents).expect("write the scratch file");
        Self(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temp path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn pinned(name: &str) -> String {
    let text = std::fs::read_to_string(manifest_dir().join("golden/digests.txt")).expect("the pinned digests");
    let digests = geom_test::golden::parse(&text).expect("a well-formed digest file");
    format!("{:016x}", digests[name])
}

#[test]
fn the_default_scene_prints_stable_checksums_ending_on_the_pinned_digest() {
    for kind in ["f32", "f64", "I16F16", "I32F32", "I48F16"] {
        let first = geom_tui(&["run", "default", "--ticks", "1000", "--scalar", kind]);
        assert!(first.status.success(), "{kind}: {}", stderr(&first));
        let second = geom_tui(&["run", "default", "--ticks", "1000", "--scalar", kind]);
        assert_eq!(first.stdout, second.stdout, "{kind}: two runs differ");
        let text = stdout(&first);
        assert_eq!(text.lines().count(), 1001, "{kind}: one line per tick from 0");
        let last = text.lines().last().unwrap();
        assert_eq!(last, format!("1000 {}", pinned(&format!("scene.default.{kind}"))), "{kind}");
    }
}

#[test]
fn the_sandbox_page_quotes_the_pinned_output() {
    let readme = std::fs::read_to_string(manifest_dir().join("../../docs/SANDBOX.md")).expect("docs/SANDBOX.md");
    let line = format!("1000 {}", pinned("scene.default.I16F16"));
    assert!(
        readme.contains(&format!("--ticks 1000 --scalar I16F16 | tail -1\n{line}\n")),
        "docs/SANDBOX.md should show `{line}`"
    );
}

/// The page's examples are real: the event lines it quotes are what
/// `--events` prints for the built-in scene, and the inputs file it shows is
/// `inputs/example.toml` as it is.
#[test]
fn the_sandbox_page_quotes_real_events_and_the_example_inputs_file() {
    let page = std::fs::read_to_string(manifest_dir().join("../../docs/SANDBOX.md")).expect("docs/SANDBOX.md");
    let run = geom_tui(&["run", "default", "--ticks", "20", "--events"]);
    assert!(run.status.success(), "{}", stderr(&run));
    let printed = stdout(&run);
    for line in ["4 impact b0 c10 t=0.25 point=36,-8 normal=-1,0 speed=3", "14 sensor-began b6 c8"] {
        assert!(page.contains(&format!("`{line}`")), "docs/SANDBOX.md should quote `{line}`");
        assert!(printed.lines().any(|l| l == line), "`run default --events` no longer prints `{line}`");
    }
    let example = std::fs::read_to_string(manifest_dir().join("inputs/example.toml")).expect("the example inputs");
    assert!(
        page.contains(&format!("```toml\n{example}```")),
        "docs/SANDBOX.md should show inputs/example.toml as it is"
    );
}

#[test]
fn the_scene_file_on_disk_is_the_built_in_default() {
    let file = manifest_dir().join("scenes/default.toml");
    let from_file = geom_tui(&["run", file.to_str().unwrap(), "--ticks", "50", "--scalar", "I16F16"]);
    let built_in = geom_tui(&["run", "default", "--ticks", "50", "--scalar", "i16f16"]);
    assert!(from_file.status.success() && built_in.status.success());
    assert_eq!(from_file.stdout, built_in.stdout);
}

#[test]
fn json_output_is_one_stable_document_with_the_final_state() {
    let run = || geom_tui(&["run", "default", "--ticks", "100", "--scalar", "I32F32", "--json"]);
    let (first, second) = (run(), run());
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(first.stdout, second.stdout);
    let text = stdout(&first);
    assert!(text.starts_with(r#"{"scalar":"I32F32","ticks":100,"checksums":["#), "{text}");
    let text_run = stdout(&geom_tui(&["run", "default", "--ticks", "100", "--scalar", "I32F32"]));
    let last = text_run.lines().last().unwrap().split_once(' ').unwrap().1;
    assert!(text.contains(&format!(r#""final":{{"tick":100,"checksum":"{last}","bodies":[{{"id":0,"#)), "{text}");
}

#[test]
fn without_scalar_a_run_uses_the_scenes_own_precision_then_i32f32() {
    let built_in = std::fs::read_to_string(manifest_dir().join("scenes/default.toml")).expect("the default scene");
    let scene = TempFile::new("i16f16.toml", &format!("scalar = \"I16F16\"\n{built_in}"));
    let named = geom_tui(&["run", scene.path(), "--ticks", "20"]);
    let explicit = geom_tui(&["run", "default", "--ticks", "20", "--scalar", "I16F16"]);
    assert!(named.status.success(), "{}", stderr(&named));
    assert_eq!(named.stdout, explicit.stdout);
    let overridden = geom_tui(&["run", scene.path(), "--ticks", "20", "--scalar", "f64"]);
    assert_eq!(overridden.stdout, geom_tui(&["run", "default", "--ticks", "20", "--scalar", "f64"]).stdout);
    let unnamed = geom_tui(&["run", "default", "--ticks", "20"]);
    assert_eq!(unnamed.stdout, geom_tui(&["run", "default", "--ticks", "20", "--scalar", "I32F32"]).stdout);
}

#[test]
fn a_malformed_scene_is_an_error_naming_the_file_and_line_with_exit_code_1() {
    let scene =
        TempFile::new("malformed.toml", "gravity = [0.0, -0.1]\n\n[[body]]\nposition = [0.0, 1.0]\nradius = -0.5\n");
    let output = geom_tui(&["run", scene.path(), "--ticks", "10"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty(), "nothing is printed for a bad scene");
    let expected = format!("geom-tui: error: {}:5: the radius must be zero or more, not -0.5\n", scene.path());
    assert_eq!(stderr(&output), expected);
}

#[test]
fn a_scene_outside_the_chosen_types_range_is_an_error_naming_the_body() {
    let scene = TempFile::new("far.toml", "gravity = [0.0, -0.1]\n\n[[body]]\nposition = [5000.0, 1.0]\nradius = 1\n");
    let fits = geom_tui(&["run", scene.path(), "--ticks", "3", "--scalar", "I32F32"]);
    assert!(fits.status.success());
    let output = geom_tui(&["run", scene.path(), "--ticks", "3", "--scalar", "I16F16"]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(message.contains(":3: body 0:") && message.contains("±4096"), "{message}");
}

/// A scratch directory, removed with everything in it when the test ends.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("geom-tui-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("make the scratch directory");
        Self(dir)
    }

    fn file(&self, name: &str, contents: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).expect("write the scratch file");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn each_kind_of_bad_file_is_a_one_line_error_naming_the_file_with_exit_code_1() {
    let scratch = Scratch::new("bad-files");
    let huge = scratch.0.join("huge.toml");
    // Sparse: 16 MiB and one byte long, and no disk used.
    std::fs::File::create(&huge).expect("create").set_len((16 << 20) + 1).expect("grow");
    let default = std::fs::read(manifest_dir().join("scenes/default.toml")).expect("the default scene");
    // Cut short just after a key's `=`, so the last line has no value.
    let cut_inside_a_value = default.windows(9).rposition(|w| w == b"radius = ").expect("a radius") + 9;
    let many = format!("gravity = [0.0, -0.1]\n{}", "[[body]]\nposition = [0, 0]\nradius = 1\n".repeat(5001));
    let mut cases = vec![
        (huge, ": too large: 16777217 bytes, more than the 16777216 (16 MiB) a scene file may have"),
        (scratch.file("elf", b"\x7fELF\x02\x01\x01\x00\x00\x00"), ":1: not a text file: byte 7 is NUL"),
        (scratch.file("latin1.toml", b"gravity = [0.0, -0.1]\n# caf\xe9\n"), ":2: not UTF-8 text: byte 27 is 0xe9"),
        (
            scratch.file("cut-char.toml", "gravity = [0.0, -0.1] # ∞".as_bytes().split_last().unwrap().1),
            ":1: not UTF-8 text: the file ends inside a character at byte 24 (cut short?)",
        ),
        (scratch.file("cut.toml", &default[..cut_inside_a_value]), ":"),
        (scratch.file("typo.toml", b"gravty = [0.0, -1.0]\n"), ":1: unknown field `gravty`"),
        (scratch.file("many.toml", many.as_bytes()), ":15002: too many bodies: a scene may have at most 5000"),
        (scratch.0.clone(), ": a directory, not a scene file"),
    ];
    if cfg!(unix) {
        cases.push(("/dev/zero".into(), ": too large: more than the 16777216 bytes (16 MiB) a scene file may have"));
    }
    for (path, expected) in cases {
        let path = path.to_str().expect("a UTF-8 path").to_owned();
        let output = geom_tui(&["run", &path, "--ticks", "5"]);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{path}: {message}");
        assert!(output.stdout.is_empty(), "{path}: nothing is printed for a bad scene");
        assert!(message.starts_with(&format!("geom-tui: error: {path}:")), "{message}");
        assert!(message[17 + path.len()..].starts_with(expected), "{path}: {message}");
        assert_eq!(message.lines().count(), 1, "{path}: one line: {message}");
        assert!(message.ends_with('\n') && !message.contains("panicked"), "{path}: {message}");
    }
}

#[test]
fn a_scene_at_the_body_and_collider_limits_runs() {
    let scratch = Scratch::new("limits");
    let items = (0..5000).map(|i| {
        let (x, y) = (f64::from(i % 100) * 4.0, f64::from(i / 100) * 4.0);
        let (y1, x2, y2) = (y - 1.0, x + 2.0, y - 1.5);
        format!(
            "[[collider]]\nshape = \"segment\"\nstart = [{x}, {y1}]\nend = [{x2}, {y2}]\n\n\
             [[body]]\nposition = [{x}, {y}]\nradius = 0.5\nvelocity = [0.125, 0.0]\n"
        )
    });
    let text = format!("gravity = [0.0, -0.015625]\n{}", items.collect::<String>());
    let scene = scratch.file("limits.toml", text.as_bytes());
    let output = geom_tui(&["run", scene.to_str().expect("a UTF-8 path"), "--ticks", "3", "--scalar", "I48F16"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output).lines().count(), 4);
}

#[test]
fn a_missing_file_is_an_error_with_exit_code_1() {
    let output = geom_tui(&["run", "no/such/scene.toml", "--ticks", "1"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).starts_with("geom-tui: error: no/such/scene.toml: "), "{}", stderr(&output));
}

#[test]
fn bad_arguments_are_usage_errors_with_exit_code_2() {
    for (args, expected) in [
        (&["run", "default", "--ticks", "5", "--scalar", "f16"][..], "unknown scalar type `f16`"),
        (&["run", "default"][..], "--ticks"),
        (&["run", "default", "--ticks", "-3"][..], "--ticks"),
        (&["--scalar", "f16"][..], "unknown scalar type `f16`"),
        (&["run", "default", "--ticks", "5", "--frobnicate"][..], "--frobnicate"),
    ] {
        let output = geom_tui(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr(&output).contains(expected), "{args:?}: {}", stderr(&output));
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn the_sandbox_without_a_terminal_says_so_instead_of_hanging() {
    // Output captured, so stdout is not a terminal.
    let output = Command::new(env!("CARGO_BIN_EXE_geom-tui"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("needs a terminal"), "{}", stderr(&output));
    let lab = Command::new(env!("CARGO_BIN_EXE_geom-tui"))
        .arg("net")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary runs");
    assert_eq!(lab.status.code(), Some(1));
    assert!(stderr(&lab).contains("the lab needs a terminal; `geom-tui run --net` does not"), "{}", stderr(&lab));
}

/// The final position of every body in a `--json` run.
fn final_positions(output: &Output) -> Vec<(f64, f64)> {
    let json: serde_json::Value = serde_json::from_str(&stdout(output)).expect("one JSON document");
    let bodies = json["final"]["bodies"].as_array().expect("the final bodies");
    bodies.iter().map(|b| (b["position"][0].as_f64().unwrap(), b["position"][1].as_f64().unwrap())).collect()
}

/// A ball with restitution 0.85 dropped on a floor comes to rest: at the
/// same position on consecutive ticks, within 3000 ticks, in every type.
#[test]
fn a_bouncy_ball_is_at_rest_within_3000_ticks() {
    let scene = TempFile::new(
        "bouncy.toml",
        "gravity = [0.0, -0.02]\n\n[[collider]]\nshape = \"segment\"\nstart = [-10.0, 0.0]\nend = [10.0, 0.0]\n\n\
         [[body]]\nposition = [0.0, 2.0]\nradius = 0.5\nrestitution = 0.85\n",
    );
    for kind in ["f32", "f64", "I16F16", "I32F32", "I48F16"] {
        let at = |ticks: &str| {
            final_positions(&geom_tui(&["run", scene.path(), "--ticks", ticks, "--scalar", kind, "--json"]))
        };
        let (a, b) = (at("3000"), at("3001"));
        assert_eq!(a, b, "{kind}: still moving after 3000 ticks");
        assert!((a[0].1 - 0.5).abs() < 1e-3, "{kind}: resting at {:?}, not on the floor", a[0]);
    }
}

/// A capsule body standing upright (its core 1 below and 1 above its
/// position), dropped onto a floor, lands on its lower end and rests there
/// in every type, its position 1.5 above the floor (a circle at its
/// position would rest at 0.5); a lying one rests on its side. The final
/// state keeps their shape and core.
#[test]
fn a_capsule_body_falls_onto_a_segment_and_rests_on_its_end() {
    let scene = TempFile::new(
        "capsule.toml",
        "gravity = [0.0, -0.02]\n\n[[collider]]\nshape = \"segment\"\nstart = [-10.0, 0.0]\nend = [10.0, 0.0]\n\n\
         [[body]]\nshape = \"capsule\"\nposition = [0.0, 4.0]\nstart = [0.0, -1.0]\nend = [0.0, 1.0]\nradius = 0.5\n\
         restitution = 0.5\n\n\
         [[body]]\nshape = \"capsule\"\nposition = [5.0, 3.0]\nstart = [-1.0, 0.0]\nend = [1.0, 0.0]\nradius = 0.5\n",
    );
    for kind in ["f32", "f64", "I16F16", "I32F32", "I48F16"] {
        let run = |ticks: &str| geom_tui(&["run", scene.path(), "--ticks", ticks, "--scalar", kind, "--json"]);
        let (a, b) = (final_positions(&run("1000")), final_positions(&run("1001")));
        assert_eq!(a, b, "{kind}: still moving after 1000 ticks");
        assert!((a[0].1 - 1.5).abs() < 1e-3, "{kind}: the standing capsule rests at {:?}, not on its end", a[0]);
        assert!(a[0].0.abs() < 1e-3, "{kind}: it fell straight: {:?}", a[0]);
        assert!((a[1].1 - 0.5).abs() < 1e-3, "{kind}: the lying capsule rests at {:?}, not on its side", a[1]);
        let json: serde_json::Value = serde_json::from_str(&stdout(&run("10"))).expect("one JSON document");
        let standing = &json["final"]["bodies"][0];
        assert_eq!(standing["shape"], "capsule", "{kind}");
        assert_eq!((standing["start"][1].as_f64(), standing["end"][1].as_f64()), (Some(-1.0), Some(1.0)), "{kind}");
    }
}

/// A ball sliding on a floor with friction 0.5 (both) stops, and stays.
#[test]
fn friction_stops_a_sliding_ball() {
    let scene = TempFile::new(
        "sliding.toml",
        "gravity = [0.0, -0.02]\n\n[[collider]]\nshape = \"segment\"\nstart = [-100.0, 0.0]\nend = [100.0, 0.0]\n\
         friction = 0.5\n\n[[body]]\nposition = [0.0, 0.5]\nradius = 0.5\nvelocity = [0.5, 0.0]\nfriction = 0.5\n",
    );
    for kind in ["f32", "f64", "I16F16", "I32F32", "I48F16"] {
        let at = |ticks: &str| {
            final_positions(&geom_tui(&["run", scene.path(), "--ticks", ticks, "--scalar", kind, "--json"]))
        };
        let (a, b) = (at("200"), at("400"));
        assert_eq!(a, b, "{kind}: still sliding");
        // v²/(2μg) = 0.25 / 0.02 = 12.5, less half a tick's worth.
        assert!((a[0].0 - 12.5).abs() < 0.5, "{kind}: stopped at {:?}", a[0]);
    }
}

/// `--events` prints each tick's events after its checksum line, as
/// `<tick> <kind> <ids…> …`, the same on every run.
#[test]
fn events_are_printed_after_their_ticks_line() {
    let features = manifest_dir().join("scenes/features.toml");
    let run = || geom_tui(&["run", features.to_str().unwrap(), "--ticks", "60", "--scalar", "I32F32", "--events"]);
    let (first, second) = (run(), run());
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(first.stdout, second.stdout, "two runs differ");
    let text = stdout(&first);
    let mut tick = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        if fields.len() == 2 {
            assert_eq!(fields[0], tick.to_string(), "checksum lines in order");
            tick += 1;
            continue;
        }
        assert_eq!(fields[0], (tick - 1).to_string(), "an event after its tick's line: {line}");
        assert!(fields[2].starts_with('b') && (fields[3].starts_with('b') || fields[3].starts_with('c')), "{line}");
        kinds.insert(fields[1].to_owned());
        if fields[1] == "impact" {
            let names: Vec<&str> = fields[4..].iter().map(|f| f.split('=').next().unwrap()).collect();
            assert_eq!(names, ["t", "point", "normal", "speed"], "{line}");
        }
    }
    assert_eq!(tick, 61);
    for kind in ["contact-began", "impact", "contact-ended", "sensor-began", "sensor-ended"] {
        assert!(kinds.contains(kind), "no {kind} in 60 ticks of the features scene:\n{text}");
    }
    let json = geom_tui(&["run", features.to_str().unwrap(), "--ticks", "60", "--json", "--events"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&json)).expect("one JSON document");
    let events = json["events"].as_array().expect("the events");
    let lines = text.lines().filter(|l| l.split(' ').count() > 2).count();
    assert_eq!(events.len(), lines, "the same events as text and JSON");
    assert!(events.iter().any(|e| e["kind"] == "impact" && e["speed"].as_f64().is_some()));
}

/// Regression: `geom-tui default` looked for a file called `default`,
/// while `geom-tui run default` opened the built-in scene. Without a
/// terminal the sandbox cannot start, so it must fail for that reason
/// alone, never for a missing file.
#[test]
fn the_sandbox_takes_default_for_the_built_in_scene_like_run_does() {
    let output = Command::new(env!("CARGO_BIN_EXE_geom-tui"))
        .arg("default")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary runs");
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(message.contains("needs a terminal"), "{message}");
    assert!(!message.contains("default:") && !message.contains("No such file"), "{message}");
}

/// A file literally called `default` is `./default`, for the sandbox and
/// for `run` alike: the path is read, not the built-in scene.
#[test]
fn a_file_called_default_is_named_as_dot_slash_default() {
    let scratch = Scratch::new("dot-default");
    scratch.file("default", b"gravity = [0.0, -0.1]\n[[body]]\nposition = [0, 1]\nradius = -1\n");
    for args in [&["run", "./default", "--ticks", "1"][..], &["./default"][..]] {
        let output = Command::new(env!("CARGO_BIN_EXE_geom-tui"))
            .args(args)
            .current_dir(&scratch.0)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("the binary runs");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let message = stderr(&output);
        assert!(message.starts_with("geom-tui: error: ./default:4: the radius"), "{args:?}: {message}");
    }
}

/// Regression: `geom-tui run default --ticks 100 | head -1` printed
/// "Broken pipe" and exited with 1. A reader that stops reading ends the
/// run quietly, with success, as `yes | head -1` does.
#[test]
fn a_reader_closing_the_pipe_early_ends_the_run_quietly_with_success() {
    use std::io::BufRead as _;
    // Far more output than a pipe holds, so the writer is still writing
    // when the reader goes away.
    let mut child = Command::new(env!("CARGO_BIN_EXE_geom-tui"))
        .args(["run", "default", "--ticks", "1000000", "--scalar", "I16F16"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut first = String::new();
    let mut reader = std::io::BufReader::new(child.stdout.take().expect("piped stdout"));
    reader.read_line(&mut first).expect("one line");
    assert!(first.starts_with("0 "), "{first}");
    drop(reader);
    let output = child.wait_with_output().expect("the run ends");
    assert_eq!(stderr(&output), "", "nothing to say about a closed pipe");
    assert_eq!(output.status.code(), Some(0));
}

/// Only a closed pipe ends quietly: any other write error (here a full
/// disk) is still reported, with exit code 1.
#[cfg(target_os = "linux")]
#[test]
fn a_write_error_other_than_a_closed_pipe_is_still_an_error() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("open /dev/full");
    let output = Command::new(env!("CARGO_BIN_EXE_geom-tui"))
        .args(["run", "default", "--ticks", "3"])
        .stdout(full)
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).starts_with("geom-tui: error: cannot write the output: "), "{}", stderr(&output));
}
