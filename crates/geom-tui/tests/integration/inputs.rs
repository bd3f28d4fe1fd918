//! `geom-tui run … --inputs FILE`, driven as a user would: the real
//! binary with a scene and an inputs file on disk, its output, its exit
//! codes and its error messages; and checked against the same inputs
//! applied through geom-core's `World` directly.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::binary;

use binary::{geom_tui, stderr, stdout};

use fixed::types::I32F32;
use geom_core::world::{BodyDef, World, WorldConfig};
use geom_core::{Scalar, Segment, Vec2};

const KINDS: [&str; 5] = ["f32", "f64", "I16F16", "I32F32", "I48F16"];

/// A scratch directory, removed with everything in it when the test ends.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("geom-tui-inputs-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("make the scratch directory");
        Self(dir)
    }

    /// Writes a file and answers its path as text.
    fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, contents).expect("write the scratch file");
        path.to_str().expect("a UTF-8 temp path").to_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Inputs for the built-in scene: the first at tick 10 (body 5 has an
/// inverse mass of 0.25, body 2 of 1), listed out of tick order.
const DEFAULT_SCENE_INPUTS: &str = "\
[[impulse]]
tick = 25
body = 3
impulse = [-0.5, 0.25]

[[impulse]]
tick = 10
body = 5
impulse = [2.0, 1.0]

[[velocity]]
tick = 10
body = 2
velocity = [0.25, 0.5]
";

/// The checksum lines of a text run.
fn lines(output: &Output) -> Vec<String> {
    assert!(output.status.success(), "{}", stderr(output));
    stdout(output).lines().map(str::to_owned).collect()
}

#[test]
fn checksums_diverge_from_a_plain_run_exactly_from_the_tick_after_the_first_input() {
    let scratch = Scratch::new("diverge");
    let inputs = scratch.file("inputs.toml", DEFAULT_SCENE_INPUTS);
    for kind in KINDS {
        let plain = lines(&geom_tui(&["run", "default", "--ticks", "30", "--scalar", kind]));
        let pushed = lines(&geom_tui(&["run", "default", "--ticks", "30", "--scalar", kind, "--inputs", &inputs]));
        assert_eq!(plain.len(), 31, "{kind}");
        assert_eq!(pushed.len(), 31, "{kind}: the inputs add no lines");
        let first_different = plain.iter().zip(&pushed).position(|(a, b)| a != b);
        assert_eq!(first_different, Some(11), "{kind}: inputs at tick 10 first change tick 11's line");
    }
}

#[test]
fn the_same_inputs_give_the_same_output_on_every_run() {
    let scratch = Scratch::new("repeat");
    let inputs = scratch.file("inputs.toml", DEFAULT_SCENE_INPUTS);
    for kind in KINDS {
        for json in [false, true] {
            let mut args = vec!["run", "default", "--ticks", "200", "--scalar", kind, "--inputs", &inputs, "--events"];
            if json {
                args.push("--json");
            }
            let (first, second) = (geom_tui(&args), geom_tui(&args));
            assert!(first.status.success(), "{kind}: {}", stderr(&first));
            assert_eq!(first.stdout, second.stdout, "{kind}, json {json}: two runs differ");
        }
    }
}

#[test]
fn a_json_run_lists_the_inputs_it_applied_in_the_order_applied() {
    let scratch = Scratch::new("json");
    let inputs = scratch.file("inputs.toml", DEFAULT_SCENE_INPUTS);
    let run = |ticks: &str, json: bool| {
        let mut args = vec!["run", "default", "--ticks", ticks, "--scalar", "I16F16", "--inputs", &inputs];
        if json {
            args.push("--json");
        }
        geom_tui(&args)
    };
    let json: serde_json::Value = serde_json::from_str(&stdout(&run("30", true))).expect("one JSON document");
    assert_eq!(
        json["inputs"],
        serde_json::json!([
            {"tick": 10, "kind": "impulse", "body": 5, "value": [2.0, 1.0]},
            {"tick": 10, "kind": "velocity", "body": 2, "value": [0.25, 0.5]},
            {"tick": 25, "kind": "impulse", "body": 3, "value": [-0.5, 0.25]},
        ])
    );
    let text: Vec<String> = lines(&run("30", false)).iter().map(|l| l.split(' ').nth(1).unwrap().to_owned()).collect();
    let checksums: Vec<&str> = json["checksums"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    assert_eq!(checksums, text, "the same checksums as text and JSON");
    // A run that ends before tick 25 applies only the inputs of tick 10.
    let short: serde_json::Value = serde_json::from_str(&stdout(&run("25", true))).expect("one JSON document");
    assert_eq!(short["inputs"].as_array().map(Vec::len), Some(2));
    // A run without --inputs has no `inputs` key at all.
    let plain: serde_json::Value =
        serde_json::from_str(&stdout(&geom_tui(&["run", "default", "--ticks", "3", "--json"]))).unwrap();
    assert!(plain.get("inputs").is_none(), "{plain}");
}

#[test]
fn an_input_at_or_beyond_the_last_tick_is_checked_but_never_applied() {
    let scratch = Scratch::new("late");
    let late = scratch.file("late.toml", "[[velocity]]\ntick = 20\nbody = 1\nvelocity = [1, 1]\n");
    let plain = geom_tui(&["run", "default", "--ticks", "20"]);
    let with_late = geom_tui(&["run", "default", "--ticks", "20", "--inputs", &late]);
    assert_eq!(lines(&plain), lines(&with_late));
    let json = geom_tui(&["run", "default", "--ticks", "20", "--inputs", &late, "--json"]);
    let plain_json = geom_tui(&["run", "default", "--ticks", "20", "--json"]);
    let (json, plain_json): (serde_json::Value, serde_json::Value) =
        (serde_json::from_str(&stdout(&json)).unwrap(), serde_json::from_str(&stdout(&plain_json)).unwrap());
    assert_eq!(json["final"], plain_json["final"], "the final state is the world at tick 20, untouched");
    assert_eq!(json["inputs"], serde_json::json!([]));
    let missing = scratch.file("missing.toml", "[[velocity]]\ntick = 900\nbody = 40\nvelocity = [1, 1]\n");
    assert_eq!(geom_tui(&["run", "default", "--ticks", "20", "--inputs", &missing]).status.code(), Some(1));
}

#[test]
fn an_input_naming_a_missing_body_is_an_error_naming_the_file_and_line() {
    let scratch = Scratch::new("missing-body");
    let inputs = scratch.file(
        "inputs.toml",
        "[[impulse]]\ntick = 1\nbody = 0\nimpulse = [1, 0]\n\n[[impulse]]\ntick = 3\nbody = 8\nimpulse = [1, 0]\n",
    );
    let output = geom_tui(&["run", "default", "--ticks", "10", "--inputs", &inputs]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty(), "nothing is printed for bad inputs");
    assert_eq!(
        stderr(&output),
        format!("geom-tui: error: {inputs}:8: impulse at tick 3: the scene has no body 8 (its bodies are 0 to 7)\n")
    );
}

/// A `[[move]]` moves a character as `World::move_character` does: the
/// built-in scene's bullet (body 0, inverse mass 0), moved back and up at
/// tick 12, is somewhere else from tick 13 on than without the input; a
/// `[[move]]` on a body that is not a character ends the run at its tick,
/// naming the `body` key's line.
#[test]
fn a_move_moves_a_character_and_is_refused_for_any_other_body() {
    let scratch = Scratch::new("move");
    let inputs = scratch.file("inputs.toml", "[[move]]\ntick = 12\nbody = 0\nmotion = [-0.5, 0.25]\n");
    let (with, without) = (
        geom_tui(&["run", "default", "--ticks", "14", "--inputs", &inputs]),
        geom_tui(&["run", "default", "--ticks", "14"]),
    );
    assert!(with.status.success(), "{}", stderr(&with));
    let (with, without) = (stdout(&with), stdout(&without));
    let line = |text: &str, tick: usize| text.lines().nth(tick).unwrap_or_default().to_owned();
    assert_eq!(line(&with, 12), line(&without, 12), "nothing moves before the input's tick");
    assert_ne!(line(&with, 13), line(&without, 13), "the move changes the next tick");

    let crate_body = scratch.file("crate.toml", "[[move]]\ntick = 2\nbody = 1\nmotion = [1, 0]\n");
    let output = geom_tui(&["run", "default", "--ticks", "5", "--inputs", &crate_body]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "geom-tui: error: {crate_body}:3: move at tick 2 on body 1: only a character moves (a body of \
             inverse_mass = 0)\n"
        )
    );
}

#[test]
fn each_kind_of_bad_inputs_file_is_a_one_line_error_naming_the_file_with_exit_code_1() {
    let scratch = Scratch::new("bad");
    let mut cases = vec![
        (
            scratch.file("unknown-key.toml", "[[impulse]]\ntick = 1\nbody = 0\nimpulse = [1, 0]\nmass = 2\n"),
            ":5: unknown field `mass`, expected one of `tick`, `body`, `impulse`",
        ),
        (
            scratch.file("unknown-table.toml", "[[push]]\ntick = 1\n"),
            ":1: unknown field `push`, expected one of `impulse`, `velocity`, `move`",
        ),
        (
            scratch.file("nan.toml", "[[velocity]]\ntick = 1\nbody = 0\nvelocity = [nan, 0]\n"),
            ":4: a vector must have finite coordinates, not [NaN, 0]",
        ),
        (
            scratch.file("negative.toml", "[[velocity]]\ntick = -4\nbody = 0\nvelocity = [1, 0]\n"),
            ":2: a tick is a whole number from 0, not -4",
        ),
        (
            scratch.file("range.toml", "[[velocity]]\ntick = 1\nbody = 1\nvelocity = [8192, 0]\n"),
            ":4: velocity at tick 1: [8192, 0] is outside I16F16's safe range ±4096",
        ),
        (scratch.file("latin1.toml", b"# caf\xe9\n"), ":1: not UTF-8 text: byte 5 is 0xe9"),
        (scratch.0.to_str().unwrap().to_owned(), ": a directory, not an inputs file"),
    ];
    if cfg!(unix) {
        cases.push(("/dev/zero".into(), ": too large: more than the 16777216 bytes (16 MiB) an inputs file may have"));
    }
    for (path, expected) in cases {
        let output = geom_tui(&["run", "default", "--ticks", "5", "--scalar", "I16F16", "--inputs", &path]);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{path}: {message}");
        assert!(output.stdout.is_empty(), "{path}: nothing is printed for bad inputs");
        assert_eq!(message, format!("geom-tui: error: {path}{expected}\n"), "{path}");
    }
}

#[test]
fn an_impulse_overflowing_a_velocity_ends_the_run_at_its_tick_naming_its_line() {
    let scratch = Scratch::new("overflow");
    let inputs = scratch.file(
        "inputs.toml",
        "[[impulse]]\ntick = 2\nbody = 1\nimpulse = [4000, 0]\n\n[[impulse]]\ntick = 2\nbody = 1\nimpulse = [4000, 0]\n",
    );
    let output = geom_tui(&["run", "default", "--ticks", "5", "--scalar", "I16F16", "--inputs", &inputs]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output).lines().count(), 3, "the lines of ticks 0 to 2, before the input");
    let message = stderr(&output);
    assert_eq!(
        message,
        format!(
            "geom-tui: error: {inputs}:9: impulse at tick 2 on body 1: \
             the body's velocity would be outside I16F16's safe range ±4096\n"
        )
    );
}

/// The scene both sides build: a floor and three balls, every number a
/// multiple of 2⁻⁸ so it is exact in every type.
const SCENE: &str = "\
gravity = [0.0, -0.015625]

[[collider]]
shape = \"segment\"
start = [-20.0, 0.0]
end = [20.0, 0.0]

[[body]]
position = [0.0, 4.0]
radius = 0.5
restitution = 0.5

[[body]]
position = [3.0, 0.5]
radius = 0.5

[[body]]
position = [-3.0, 2.0]
radius = 1.0
inverse_mass = 0.5
";

/// The inputs both sides apply, out of tick order in the file; at tick 6
/// a velocity then an impulse on body 1, which only file order tells
/// apart from the other way round.
const INPUTS: &str = "\
[[impulse]]
tick = 12
body = 0
impulse = [0.25, 0.5]

[[velocity]]
tick = 6
body = 1
velocity = [-0.25, 0.125]

[[impulse]]
tick = 6
body = 1
impulse = [0.0, 0.5]

[[impulse]]
tick = 6
body = 2
impulse = [1.0, 0.0]
";

/// The same scene and inputs through geom-core's API, with no geom-tui
/// code: each tick's checksum, the inputs of a tick applied before the
/// step that leaves it.
fn checksums_through_the_world_api<S: Scalar>(of: impl Fn(f64) -> S, ticks: u64) -> Vec<String> {
    let v = |x: f64, y: f64| Vec2::new(of(x), of(y));
    let mut world = World::new(WorldConfig::new(v(0.0, -0.015_625))).unwrap();
    world.add_collider(Segment::new(v(-20.0, 0.0), v(20.0, 0.0)).unwrap()).unwrap();
    let mut a = BodyDef::new(v(0.0, 4.0), of(0.5));
    a.restitution = of(0.5);
    let mut c = BodyDef::new(v(-3.0, 2.0), of(1.0));
    c.inverse_mass = of(0.5);
    let ids = [a, BodyDef::new(v(3.0, 0.5), of(0.5)), c].map(|def| world.add_body(def).unwrap());
    let mut out = vec![format!("0 {:016x}", world.checksum())];
    for tick in 0..ticks {
        if tick == 6 {
            world.set_velocity(ids[1], v(-0.25, 0.125)).unwrap();
            world.apply_impulse(ids[1], v(0.0, 0.5)).unwrap();
            world.apply_impulse(ids[2], v(1.0, 0.0)).unwrap();
        }
        if tick == 12 {
            world.apply_impulse(ids[0], v(0.25, 0.5)).unwrap();
        }
        world.step();
        out.push(format!("{} {:016x}", tick + 1, world.checksum()));
    }
    out
}

#[test]
fn inputs_give_the_checksums_of_the_same_inputs_applied_through_geom_cores_world() {
    let scratch = Scratch::new("world-api");
    let scene = scratch.file("scene.toml", SCENE);
    let inputs = scratch.file("inputs.toml", INPUTS);
    let run = |kind: &str| lines(&geom_tui(&["run", &scene, "--ticks", "40", "--scalar", kind, "--inputs", &inputs]));
    assert_eq!(run("f64"), checksums_through_the_world_api(|x| x, 40), "f64");
    assert_eq!(run("I32F32"), checksums_through_the_world_api(I32F32::from_num, 40), "I32F32");
    // And the inputs matter: without them, or in another order, the
    // checksums differ from tick 7 on.
    let plain = lines(&geom_tui(&["run", &scene, "--ticks", "40", "--scalar", "f64"]));
    assert_eq!(plain.iter().zip(run("f64")).position(|(a, b)| *a != b), Some(7));
    let velocity = "[[velocity]]\ntick = 6\nbody = 1\nvelocity = [-0.25, 0.125]\n\n";
    let impulse = "[[impulse]]\ntick = 6\nbody = 1\nimpulse = [0.0, 0.5]\n\n";
    assert!(INPUTS.contains(&format!("{velocity}{impulse}")), "the swap below swaps these");
    let swapped =
        scratch.file("swapped.toml", INPUTS.replace(&format!("{velocity}{impulse}"), &format!("{impulse}{velocity}")));
    let other = lines(&geom_tui(&["run", &scene, "--ticks", "40", "--scalar", "f64", "--inputs", &swapped]));
    assert_ne!(other, run("f64"));
}

#[test]
fn the_example_inputs_file_runs_on_the_built_in_scene() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("inputs/example.toml");
    let output = geom_tui(&["run", "default", "--ticks", "12", "--inputs", example.to_str().unwrap()]);
    assert_eq!(lines(&output).len(), 13);
}
