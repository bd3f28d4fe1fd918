//! The checks behind the sandbox's fuzz targets in `fuzz/` (run with
//! `cargo xtask fuzz`), as ordinary library code behind the `fuzzing`
//! feature (which `fuzz/Cargo.toml` turns on), so that their committed
//! corpus is replayed by `cargo test` (this module's unit tests, for which
//! it is compiled without the feature) through the very same functions.
//!
//! - [`scene_parser`]: scene text in, a scene or a typed error out; a
//!   scene that parses writes back to its very text, edited or built in
//!   code to TOML that reads back equal, and runs headless in every scalar
//!   type to a typed answer, with and without [`INPUTS`].
//! - [`headless_args`]: command lines built from a grammar of the real
//!   arguments and junk, through [`cli::parse`]; whatever parses as `run`
//!   runs headless on the built-in scene (with [`INPUTS`] for
//!   `--inputs`).
//!
//! Each panics, with a message naming the property and the input, when a
//! guarantee is broken.
//!
//! # Examples
//!
//! ```
//! geom_tui::fuzz::scene_parser(b"gravity = [0.0, -0.5]\n[[body]]\nposition = [0.0, 1.0]\nradius = 0.5\n");
//! geom_tui::fuzz::headless_args(b"any bytes make some command line");
//! ```

use std::ffi::OsString;

use arbitrary::Unstructured;
use geom_core::Vec2;

use crate::ScalarKind;
use crate::cli::{self, Cli, Command, DEFAULT_KIND, SceneSource};
use crate::headless::{self, Options, RunError};
use crate::inputs::Inputs;
use crate::scene::{BodySpec, DEFAULT_SCENE, MAX_BODIES, Scene};

/// The most ticks a fuzzed run steps, whatever the input asks for: the
/// work must not grow with a number read from the input.
pub const MAX_TICKS: u64 = 8;

/// The inputs a fuzzed run applies, read from this text instead of the
/// file a command line names (the fuzzer must not read the disk): an
/// impulse on body 0 at tick 0, and a velocity for it at tick 1, within
/// the range of every scalar type and the default scene.
///
/// # Examples
///
/// ```
/// let inputs = geom_tui::inputs::Inputs::parse(geom_tui::fuzz::INPUTS)?;
/// assert_eq!(inputs.items().len(), 2);
/// # Ok::<(), geom_tui::inputs::InputsError>(())
/// ```
pub const INPUTS: &str = "[[impulse]]\ntick = 0\nbody = 0\nimpulse = [0.25, 0.5]\n\n\
                          [[velocity]]\ntick = 1\nbody = 0\nvelocity = [-0.125, 0.0]\n";

/// [`INPUTS`], parsed.
fn inputs() -> Inputs {
    Inputs::parse(INPUTS).expect("the fuzz inputs parse")
}

/// The `scene_parser` target: the bytes as text (invalid UTF-8 replaced),
/// through [`Scene::parse`].
///
/// Properties: parsing never panics and answers a scene or an error whose
/// line, if any, is a line of the text; a parsed scene's
/// [`to_toml`](Scene::to_toml) is the text itself, and once the scene is
/// edited (a body moved, a collider removed, a body added, settings
/// changed), or the same scene is built in code, it parses back to an
/// equal scene (and writes the same text again); and the scene runs
/// headless for a few ticks in every scalar type, answering `Ok` with one
/// line per tick, or a typed scene error before writing anything; and so
/// it does with [`INPUTS`] applied, or answers a typed inputs error (a
/// scene without body 0).
///
/// # Panics
///
/// When one of those properties does not hold.
///
/// # Examples
///
/// See the [module documentation](self).
pub fn scene_parser(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let scene = match Scene::parse(&text) {
        Ok(scene) => scene,
        Err(e) => {
            let lines = text.lines().count() + 1;
            assert!(
                e.line.is_none_or(|l| l >= 1 && l <= lines),
                "error {e} names a line beyond the text ({lines} lines)"
            );
            assert!(!e.to_string().is_empty(), "an empty error message");
            return;
        }
    };
    assert_eq!(round_trip(&scene, &text), text, "a scene written unchanged is not the text it was read from");
    round_trip(&edited(&scene), &text);
    let mut built = Scene::new(scene.settings);
    (built.scalar, built.colliders, built.bodies) = (scene.scalar, scene.colliders.clone(), scene.bodies.clone());
    round_trip(&built, &text);
    for kind in ScalarKind::ALL {
        for (json, events) in [(false, false), (true, false), (false, true), (true, true)] {
            run_checked(&scene, None, &Options { ticks: 2, kind, json, events }, &text);
        }
        run_checked(&scene, Some(&inputs()), &Options { ticks: 2, kind, json: true, events: true }, &text);
    }
}

/// `scene`'s [`to_toml`](Scene::to_toml), having checked that it parses
/// back to an equal scene that writes the same text again.
fn round_trip(scene: &Scene, source: &str) -> String {
    let written = scene.to_toml();
    let again = Scene::parse(&written)
        .unwrap_or_else(|e| panic!("to_toml wrote text that does not parse ({e}):\n{written}\nfrom:\n{source}"));
    assert_eq!(again, *scene, "to_toml did not round-trip:\n{written}\nfrom:\n{source}");
    assert_eq!(again.to_toml(), written, "writing the read-back scene gave other text");
    written
}

/// `scene` with a little of everything changed: its first body moved and
/// made a sensor (or not), its last collider removed, a capsule body added
/// (when there is room), and its bounce threshold and precision set or
/// unset.
fn edited(scene: &Scene) -> Scene {
    let mut edited = scene.clone();
    if let Some(body) = edited.bodies.first_mut() {
        body.position *= 0.5;
        body.sensor = !body.sensor;
    }
    edited.colliders.pop();
    if edited.bodies.len() < MAX_BODIES {
        let core = (Vec2::new(0.0, 0.0), Vec2::new(0.0, 1.5));
        edited.bodies.push(BodySpec::capsule(Vec2::new(1.0, 2.0), core.0, core.1, 0.5));
    }
    let settings = &mut edited.settings;
    settings.bounce_threshold = if settings.bounce_threshold.is_some() { None } else { Some(0.25) };
    edited.scalar = if edited.scalar.is_some() { None } else { Some(ScalarKind::I16F16) };
    edited
}

/// Runs `scene` headless into memory, with `inputs` if any, and checks the
/// answer's shape.
fn run_checked(scene: &Scene, inputs: Option<&Inputs>, options: &Options, source: &str) {
    let mut out = Vec::new();
    let answer = match inputs {
        Some(inputs) => headless::run_with_inputs(scene, inputs, options, &mut out),
        None => headless::run(scene, options, &mut out),
    };
    match answer {
        Ok(()) => {
            let text = String::from_utf8(out).expect("headless output is UTF-8");
            if options.json {
                let value: serde_json::Value = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("--json output is not JSON ({e}): {text}\nscene:\n{source}"));
                let checksums = value["checksums"].as_array().map(Vec::len);
                assert_eq!(checksums, usize::try_from(options.ticks + 1).ok(), "JSON checksums: {text}");
                let applied = inputs.map(|i| i.items().iter().filter(|i| i.tick < options.ticks).count());
                assert_eq!(value["inputs"].as_array().map(Vec::len), applied, "JSON inputs: {text}");
            } else {
                // One checksum line per tick, each followed by that tick's
                // events (only with --events), every line starting with
                // its tick.
                let mut tick = 0;
                for line in text.lines() {
                    let (t, rest) = line.split_once(' ').unwrap_or_else(|| panic!("malformed line {line:?}"));
                    if rest.len() == 16 && rest.bytes().all(|b| b.is_ascii_hexdigit()) {
                        assert_eq!(t, tick.to_string(), "checksum lines in tick order: {text}");
                        tick += 1;
                    } else {
                        assert!(options.events && tick > 0, "an event line without --events: {line:?}");
                        assert_eq!(t, (tick - 1).to_string(), "an event after its tick's line: {line:?}");
                    }
                }
                assert_eq!(tick, options.ticks + 1, "one checksum line per tick: {text}");
            }
        }
        Err(RunError::Scene(e)) => {
            assert!(out.is_empty(), "a refused scene wrote output first: {e}");
            assert!(!e.to_string().is_empty(), "an empty error message");
        }
        Err(RunError::Inputs(e)) => {
            assert!(inputs.is_some(), "an inputs error without inputs: {e}");
            assert!(e.line.is_some(), "an inputs error without a line: {e}");
            // Only an impulse taking a velocity out of range is found
            // during the run, after the output of the ticks before it.
            let late = e.kind == crate::inputs::InputsErrorKind::OutOfRange && !out.is_empty();
            assert!(out.is_empty() || late, "a refused input wrote output first: {e}");
        }
        Err(RunError::Io(e)) => panic!("writing into memory failed: {e}"),
    }
}

/// The `headless_args` target: a command line built from the input by a
/// grammar of `geom-tui`'s arguments (`run`, `--ticks N`, `--scalar K`,
/// `--json`, `--events`, `--inputs FILE`, scene names, `--help`,
/// `--version`) and junk (any text, text that is not UTF-8, numbers that
/// overflow), through [`cli::parse`].
///
/// Properties: parsing never panics and answers [`Cli`] or clap's typed
/// error, whose exit code is 2 (0 for help and version) and whose message
/// renders; a well-formed command line (the grammar knows when it built
/// one) parses to exactly what it says; and a parsed `run` steps the
/// built-in scene (never a file: the fuzzer must not read the disk), with
/// [`INPUTS`] for any `--inputs`, for at most [`MAX_TICKS`] ticks,
/// answering one line per tick.
///
/// # Panics
///
/// When one of those properties does not hold.
///
/// # Examples
///
/// See the [module documentation](self).
pub fn headless_args(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let (args, expected) = command_line(&mut u);
    match cli::parse(args.iter().cloned()) {
        Ok(parsed) => {
            if let Some(expected) = &expected {
                assert_eq!(&parsed, expected, "a well-formed command line parsed otherwise: {args:?}");
            }
            if let Some(Command::Run { ticks, scalar, json, events, inputs: file, .. }) = parsed.command {
                let scene = Scene::parse(DEFAULT_SCENE).expect("the built-in scene parses");
                let kind = scalar.or(scene.scalar).unwrap_or(DEFAULT_KIND);
                let options = Options { ticks: ticks.min(MAX_TICKS), kind, json, events };
                let inputs = file.map(|_| inputs());
                run_checked(&scene, inputs.as_ref(), &options, DEFAULT_SCENE);
            }
        }
        Err(e) => {
            assert!(expected.is_none(), "a well-formed command line was refused: {args:?}: {e}");
            let quiet =
                matches!(e.kind(), clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion);
            assert_eq!(e.exit_code(), if quiet { 0 } else { 2 }, "exit code for {:?}: {args:?}", e.kind());
            assert!(!e.to_string().is_empty(), "an empty message for {args:?}");
        }
    }
}

/// The scalar type names, in every case the parser accepts.
fn kind_name(u: &mut Unstructured<'_>) -> (String, ScalarKind) {
    let kind = ScalarKind::ALL[usize::from(u.arbitrary::<u8>().unwrap_or(0)) % ScalarKind::ALL.len()];
    let name = match u.arbitrary::<u8>().unwrap_or(0) % 3 {
        0 => kind.name().to_owned(),
        1 => kind.name().to_ascii_lowercase(),
        _ => kind.name().to_ascii_uppercase(),
    };
    (name, kind)
}

/// Scene names that cannot be mistaken for an option.
const SCENES: [&str; 4] = ["default", "scene.toml", "dir/a scene.toml", "défaut"];

/// Inputs file names that cannot be mistaken for an option.
const INPUTS_FILES: [&str; 3] = ["inputs.toml", "dir/some inputs.toml", "default"];

/// A command line (program name first) and, when the grammar built a
/// well-formed one, what it must parse to.
fn command_line(u: &mut Unstructured<'_>) -> (Vec<OsString>, Option<Cli>) {
    let mut args = vec![OsString::from("geom-tui")];
    let mode = u.arbitrary::<u8>().unwrap_or(0);
    if mode < 96 {
        // A well-formed `run`: its arguments in any order.
        let scene = SCENES[usize::from(mode) % SCENES.len()].to_owned();
        let ticks = match u.arbitrary::<u8>().unwrap_or(0) % 4 {
            0 => u64::MAX,
            1 => 0,
            _ => u.arbitrary::<u64>().unwrap_or(0),
        };
        let scalar = (u.arbitrary::<u8>().unwrap_or(0) & 1 == 1).then(|| kind_name(u));
        let json = u.arbitrary::<bool>().unwrap_or(false);
        let events = u.arbitrary::<bool>().unwrap_or(false);
        let mut parts: Vec<Vec<String>> = vec![vec![scene.clone()], vec!["--ticks".into(), ticks.to_string()]];
        if let Some((name, _)) = &scalar {
            parts.push(vec!["--scalar".into(), name.clone()]);
        }
        if json {
            parts.push(vec!["--json".into()]);
        }
        if events {
            parts.push(vec!["--events".into()]);
        }
        // A permutation chosen by the input (a fixed number of swaps).
        for i in (1..parts.len()).rev() {
            let j = usize::from(u.arbitrary::<u8>().unwrap_or(0)) % (i + 1);
            parts.swap(i, j);
        }
        // Drawn last, so that the corpus written before `--inputs` existed
        // still builds the command lines it did.
        let inputs = (u.arbitrary::<u8>().unwrap_or(0) & 1 == 1).then(|| {
            let name = INPUTS_FILES[usize::from(u.arbitrary::<u8>().unwrap_or(0)) % INPUTS_FILES.len()];
            let at = usize::from(u.arbitrary::<u8>().unwrap_or(0)) % (parts.len() + 1);
            parts.insert(at, vec!["--inputs".into(), name.into()]);
            std::path::PathBuf::from(name)
        });
        args.push("run".into());
        args.extend(parts.into_iter().flatten().map(OsString::from));
        let expected = Cli {
            command: Some(Command::Run {
                scene: SceneSource::from_arg(scene),
                ticks,
                scalar: scalar.map(|(_, k)| k),
                json,
                events,
                inputs,
                net: crate::cli::NetArgs::default(),
            }),
            scene: None,
            scalar: None,
        };
        return (args, Some(expected));
    }
    if mode < 128 {
        // A well-formed sandbox command line.
        let scene = (mode & 1 == 1).then(|| SCENES[usize::from(mode >> 1) % SCENES.len()]);
        let scalar = (mode & 2 == 2).then(|| kind_name(u));
        args.extend(scene.map(OsString::from));
        if let Some((name, _)) = &scalar {
            args.push("--scalar".into());
            args.push(name.into());
        }
        let expected = Cli { command: None, scene: scene.map(SceneSource::from_arg), scalar: scalar.map(|(_, k)| k) };
        return (args, Some(expected));
    }
    // Anything: tokens from the grammar and junk, at most 12 of them.
    for _ in 0..12 {
        if u.is_empty() {
            break;
        }
        args.push(token(u));
    }
    (args, None)
}

/// One token of an arbitrary command line.
fn token(u: &mut Unstructured<'_>) -> OsString {
    let tag = u.arbitrary::<u8>().unwrap_or(0);
    match tag % 16 {
        0 => "run".into(),
        1 => "--ticks".into(),
        2 => "--scalar".into(),
        3 => ["--json", "--events"][usize::from(tag >> 4) % 2].into(),
        4 => kind_name(u).0.into(),
        5 => SCENES[usize::from(tag >> 4) % SCENES.len()].into(),
        6 => ["-h", "--help", "-V", "--version", "help", "--", "-", ""][usize::from(tag >> 4) % 8].into(),
        7 => ["--ticks=3", "--scalar=f32", "--json=true", "--ticks=", "--Ticks", "-t", "--tick", "--scalar="]
            [usize::from(tag >> 4) % 8]
            .into(),
        8 => u.arbitrary::<u64>().unwrap_or(0).to_string().into(),
        9 => ["-1", "18446744073709551616", "1e3", "0x10", " 3", "3 ", "+3", "٣"][usize::from(tag >> 4) % 8].into(),
        10 | 11 => u.arbitrary::<String>().unwrap_or_default().into(),
        12 => not_utf8(u),
        13 => "--inputs".into(),
        // The netcode lab's and `run --net`'s options; the address only
        // as a literal, so that no arbitrary text is ever looked up in DNS.
        14 => [
            "net",
            "--net",
            "--latency",
            "--jitter",
            "--loss",
            "--reorder",
            "--bots",
            "--desync",
            "--local",
            "--remote=127.0.0.1:7000",
            "--remote=[::1]:0",
            "--player",
            "--local=0",
            "--loss=101",
            "2",
            "7000",
        ][usize::from(tag >> 4)]
        .into(),
        _ => {
            let n = u.arbitrary::<i64>().unwrap_or(0);
            n.to_string().into()
        }
    }
}

/// Arbitrary bytes as an argument, on Unix where arguments are bytes (and
/// so may be invalid UTF-8); elsewhere lossy text.
fn not_utf8(u: &mut Unstructured<'_>) -> OsString {
    let bytes: Vec<u8> = u.arbitrary().unwrap_or_default();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt as _;
        OsString::from_vec(bytes)
    }
    #[cfg(not(unix))]
    {
        String::from_utf8_lossy(&bytes).into_owned().into()
    }
}

/// Replays the committed inputs of the sandbox's fuzz targets as ordinary
/// tests (see [`geom_test::fuzz::replay`]): the corpus and regressions of
/// `scene_parser` and `headless_args`, the built-in and example scenes, and
/// seeded pseudo-random command lines.
#[cfg(test)]
mod tests {
    use std::path::Path;

    use geom_test::fuzz::replay::{files_in, fuzz_dir, replay, replay_file, seeded_inputs};

    /// How to run these tests again, for the message naming a failing input.
    const TEST: &str = "-p geom-tui --lib fuzz::";

    #[test]
    fn scene_parser_corpus_and_regressions_keep_every_guarantee() {
        let files = replay("scene_parser", super::scene_parser, TEST);
        assert!(files > 0, "the scene_parser corpus is missing from {}", fuzz_dir().display());
    }

    #[test]
    fn headless_args_corpus_and_regressions_keep_every_guarantee() {
        let files = replay("headless_args", super::headless_args, TEST);
        assert!(files > 0, "the headless_args corpus is missing from {}", fuzz_dir().display());
    }

    #[test]
    fn the_built_in_and_example_scenes_keep_every_scene_parser_guarantee() {
        let scenes = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        let files = files_in(&scenes);
        assert!(!files.is_empty(), "no scenes in {}", scenes.display());
        for path in files {
            replay_file(&path, super::scene_parser, TEST);
        }
    }

    #[test]
    fn seeded_random_inputs_keep_every_command_line_guarantee() {
        for data in seeded_inputs(0x5eed_0004, 300) {
            super::headless_args(&data);
        }
    }
}
