use geom_core::Vec2;
use geom_core::world::Filter;

use super::*;
use crate::scene::testing::{bodies, built_in_code, error, limit};
use crate::scene::{BodySpec, DEFAULT_SCENE, MAX_BODIES, MAX_COLLIDERS, MAX_TOKENS, Scene, Settings, Shape};
use crate::scratch::Scratch;

/// Every key of the world's bodies and colliders is read, kept, and
/// written back only where it differs from the default.
#[test]
fn the_worlds_keys_are_read_and_written_back() {
    let text = r#"gravity = [0.0, -0.1]

[[collider]]
shape = "segment"
start = [0, 0]
end = [4, 0]
velocity = [0.25, -0.5]
friction = 0.75
restitution = 0.5
sensor = true
layer = 6
mask = 0x0f
tag = 12

[[body]]
position = [1, 2]
radius = 0.5
friction = 2
gravity_scale = -0.5
sensor = true
layer = 2
mask = 3
tag = 9007199254740993
"#;
    let scene = Scene::parse(text).unwrap();
    let collider = scene.colliders[0];
    assert_eq!(
        (collider.velocity, collider.friction, collider.restitution, collider.sensor),
        (Vec2::new(0.25, -0.5), 0.75, 0.5, true)
    );
    assert_eq!((collider.layer, collider.mask, collider.tag), (6, 15, 12));
    let body = scene.bodies[0];
    assert_eq!((body.friction, body.gravity_scale, body.sensor), (2.0, -0.5, true));
    assert_eq!((body.layer, body.mask, body.tag), (2, 3, 9_007_199_254_740_993));
    assert_eq!(Scene::parse(&scene.to_toml()).unwrap(), scene);
    // The world gets every value.
    let world = scene.build::<fixed::types::I32F32>().unwrap();
    let (c, b) = (world.colliders()[0], world.bodies()[0]);
    assert_eq!((c.is_sensor(), c.filter(), c.tag()), (true, Filter { layer: 6, mask: 15 }, 12));
    assert_eq!((b.is_sensor(), b.filter(), b.tag()), (true, Filter { layer: 2, mask: 3 }, 9_007_199_254_740_993));
    assert_eq!(b.gravity_scale(), -0.5);
    // Defaults are not written.
    let plain = Scene::parse("gravity = [0.0, -0.1]\n[[body]]\nposition = [0, 0]\nradius = 1\n").unwrap();
    let written = plain.to_toml();
    for key in ["friction", "gravity_scale", "sensor", "layer", "mask", "tag"] {
        assert!(!written.contains(key), "{key} written as a default:\n{written}");
    }
}

/// A one-way ledge: `one_way` is read, given to the world, written back
/// (and not written when absent); a zero direction is refused with its
/// table's line, and one outside the type's range when the world is built.
#[test]
fn a_one_way_collider_is_read_built_and_written_back() {
    let text =
        "gravity = [0.0, -0.1]\n\n[[collider]]\nshape = \"segment\"\nstart = [0, 3]\nend = [4, 3]\none_way = [0, 1]\n";
    let scene = Scene::parse(text).unwrap();
    assert_eq!(scene.colliders[0].one_way, Some(Vec2::new(0.0, 1.0)));
    assert_eq!(Scene::parse(&scene.to_toml()).unwrap(), scene);
    let world = scene.build::<fixed::types::I16F16>().unwrap();
    assert_eq!(world.colliders()[0].one_way(), Some(Vec2::new(fixed::types::I16F16::ZERO, fixed::types::I16F16::ONE)));
    let plain =
        Scene::parse("gravity = [0.0, -0.1]\n[[collider]]\nshape = \"circle\"\ncenter = [0, 0]\nradius = 1\n").unwrap();
    assert!(!plain.to_toml().contains("one_way"));
    let e = error(&text.replace("one_way = [0, 1]", "one_way = [0, 0]"));
    assert_eq!(e.line, Some(3), "{e}");
    assert!(e.to_string().contains("one_way"), "{e}");
    let far = Scene::parse(&text.replace("one_way = [0, 1]", "one_way = [0, 1e9]")).unwrap();
    let e = far.build::<fixed::types::I16F16>().unwrap_err();
    assert!(e.to_string().contains("one-way direction"), "{e}");
}

#[test]
fn a_syntax_error_names_its_line() {
    let e = error("gravity = [0.0, -0.1]\n[[body]]\nposition = [0.0, 1.0]\nradius = 1.0.0\n");
    assert_eq!(e.line, Some(4), "{e}");
}

#[test]
fn an_unknown_key_names_its_line_and_the_key() {
    let e = error("gravity = [0.0, -0.1]\n[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\nmass = 3.0\n");
    assert_eq!(e.line, Some(5), "{e}");
    assert!(e.message.contains("mass"), "{e}");
}

#[test]
fn a_missing_key_names_the_table_and_the_key() {
    let e = error("gravity = [0.0, -0.1]\n[[collider]]\nshape = \"circle\"\ncenter = [0.0, 1.0]\n");
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.message.contains("radius"), "{e}");
}

#[test]
fn a_collider_with_the_wrong_fields_for_its_shape_names_its_line() {
    let e =
        error("gravity = [0.0, -0.1]\n\n[[collider]]\nshape = \"segment\"\nstart = [0, 0]\nend = [1, 0]\nradius = 1\n");
    assert_eq!((e.line, e.message.as_str()), (Some(3), "collider 0: a segment has no `radius` (it takes start, end)"));
    let e = error(
        "gravity = [0.0, -0.1]\n[[collider]]\nshape = \"circle\"\ncenter = [0, 0]\nradius = 1\n\n[[collider]]\nshape = \"capsule\"\nstart = [0, 0]\nend = [1, 0]\n",
    );
    assert_eq!((e.line, e.message.as_str()), (Some(7), "collider 1: a capsule needs `radius`"));
}

#[test]
fn an_unknown_shape_is_refused_with_its_line() {
    let e = error("gravity = [0.0, -0.1]\n\n[[collider]]\nshape = \"square\"\ncenter = [0.0, 1.0]\n");
    assert_eq!(e.line, Some(4), "{e}");
    assert!(e.message.contains("square"), "{e}");
}

/// `player = 1` and `player = 2` name the bodies a two-player game's
/// inputs drive: read, kept out of the world, written back; a player is 1
/// or 2, and drives one body.
#[test]
fn each_player_drives_one_body_named_by_its_player_key() {
    let body = |player: &str| format!("[[body]]\nposition = [0, 1]\nradius = 1\n{player}");
    let scene = Scene::parse(&format!("{}{}{}", body("player = 2\n"), body(""), body("player = 1\n"))).unwrap();
    assert_eq!(scene.bodies.iter().map(|b| b.player).collect::<Vec<_>>(), [Some(2), None, Some(1)]);
    assert_eq!(Scene::parse(&scene.to_toml()).unwrap(), scene);
    for wrong in ["player = 3\n", "player = 0\n", "player = -1\n"] {
        let e = error(&body(wrong));
        assert_eq!(e.line, Some(4), "{wrong}: {e}");
        assert!(e.message.contains("a player is 1 or 2"), "{wrong}: {e}");
    }
    let twice = error(&format!("{}{}", body("player = 1\n"), body("player = 1\n")));
    assert_eq!(twice.line, Some(5), "{twice}");
    assert!(twice.message.contains("body 1: player 1 drives body 0 already"), "{twice}");
}

#[test]
fn values_the_format_refuses_name_their_line() {
    let cases = [
        ("[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\nrestitution = 1.5\n", 4, "restitution"),
        ("[[body]]\nposition = [nan, 1.0]\nradius = 1.0\n", 2, "finite"),
        ("[[body]]\nposition = [0.0, 1.0]\nradius = inf\n", 3, "finite"),
        ("[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\ninverse_mass = -1\n", 4, "zero or more"),
        ("[[collider]]\nshape = \"capsule\"\nstart = [0, 0]\nend = [1, 0]\nradius = -0.5\n", 5, "radius"),
        ("[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\nfriction = -1\n", 4, "zero or more"),
        ("[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\ngravity_scale = nan\n", 4, "finite"),
        ("[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\ntag = -3\n", 4, "tag"),
        ("[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\nlayer = -1\n", 4, "layers and masks"),
        ("[[collider]]\nshape = \"circle\"\ncenter = [0, 0]\nradius = 1\nrestitution = 2\n", 5, "restitution"),
        ("[[collider]]\nshape = \"circle\"\ncenter = [0, 0]\nradius = 1\nvelocity = [inf, 0]\n", 5, "finite"),
        ("[[collider]]\nshape = \"circle\"\ncenter = [0, 0]\nradius = 1\nmask = 1.5\n", 5, "layers and masks"),
    ];
    for (tail, line, what) in cases {
        let e = error(&format!("gravity = [0.0, -0.1]\n{tail}"));
        assert_eq!(e.line, Some(line + 1), "{tail}: {e}");
        assert!(e.message.contains(what), "{tail}: {e}");
    }
}

#[test]
fn a_capsule_body_with_a_missing_or_misplaced_key_or_an_unknown_shape_names_its_line() {
    let head = "gravity = [0.0, -0.1]\n\n[[body]]\nposition = [0, 1]\nradius = 1\n\n[[body]]\n";
    let cases = [
        (
            "shape = \"capsule\"\nposition = [0, 1]\nstart = [0, 0]\nradius = 0.5\n",
            7,
            "body 1: a capsule needs `end` (it takes position, start, end, radius; start and end relative to the \
             position)",
        ),
        (
            "shape = \"capsule\"\nposition = [0, 1]\nend = [0, 2]\nradius = 0.5\n",
            7,
            "body 1: a capsule needs `start` (it takes position, start, end, radius; start and end relative to \
             the position)",
        ),
        (
            "position = [0, 1]\nstart = [0, 0]\nradius = 0.5\n",
            7,
            "body 1: a circle has no `start` (it takes position, radius; a capsule body needs shape = \"capsule\")",
        ),
        (
            "shape = \"circle\"\nposition = [0, 1]\nradius = 0.5\nend = [0, 2]\n",
            7,
            "body 1: a circle has no `end` (it takes position, radius; a capsule body needs shape = \"capsule\")",
        ),
    ];
    for (tail, line, message) in cases {
        let e = error(&format!("{head}{tail}"));
        assert_eq!((e.kind, e.line, e.message.as_str()), (SceneErrorKind::Invalid, Some(line), message), "{tail}");
    }
    // An unknown shape: at the `shape` line, naming it and the two there are.
    let e = error(&format!("{head}position = [0, 1]\nradius = 0.5\nshape = \"triangle\"\n"));
    assert_eq!((e.kind, e.line), (SceneErrorKind::Invalid, Some(10)), "{e}");
    for word in ["triangle", "circle", "capsule"] {
        assert!(e.message.contains(word), "{word}: {e}");
    }
    // Colliders' shapes are not bodies' shapes.
    let e = error(&format!("{head}shape = \"segment\"\nposition = [0, 1]\nstart = [0, 0]\nend = [1, 0]\n"));
    assert_eq!((e.line, e.message.contains("segment")), (Some(8), true), "{e}");
    // The core's values are checked as a collider's are.
    let e =
        error(&format!("{head}shape = \"capsule\"\nposition = [0, 1]\nstart = [nan, 0]\nend = [0, 2]\nradius = 1\n"));
    assert_eq!((e.line, e.message.contains("finite")), (Some(10), true), "{e}");
}

#[test]
fn a_capsule_whose_ends_are_both_zero_is_a_circle() {
    let text = "gravity = [0.0, -0.1]\n[[body]]\nshape = \"capsule\"\nposition = [0, 1]\nstart = [0, 0]\nend = [0.0, 0]\nradius = 1\n";
    let scene = Scene::parse(text).unwrap();
    assert_eq!(scene.bodies, [BodySpec::new(Vec2::new(0.0, 1.0), 1.0)]);
    assert!(!scene.to_toml().contains("shape"), "saved as a circle:\n{}", scene.to_toml());
}

/// Scenes built in code; one read from text keeps that text.
#[test]
fn circle_bodies_are_saved_exactly_as_they_always_were() {
    let text = "gravity = [0.0, -0.1]\n[[body]]\nposition = [0, 1]\nradius = 0.5\n\n[[body]]\nposition = [2, 1]\n\
                radius = 0.25\nvelocity = [0.5, 0]\nrestitution = 0.5\ninverse_mass = 0\nfriction = 0.25\n\
                gravity_scale = 0.5\nsensor = true\nlayer = 2\nmask = 3\ntag = 4\n";
    let saved = built_in_code(&Scene::parse(text).unwrap()).to_toml();
    let expected = "[[body]]\nposition = [0.0, 1.0]\nradius = 0.5\nvelocity = [0.0, 0.0]\nrestitution = 0.0\n\
                    inverse_mass = 1.0\n\n[[body]]\nposition = [2.0, 1.0]\nradius = 0.25\nvelocity = [0.5, 0.0]\n\
                    restitution = 0.5\ninverse_mass = 0.0\nfriction = 0.25\ngravity_scale = 0.5\nsensor = true\n\
                    layer = 2\nmask = 3\ntag = 4\n";
    assert!(saved.ends_with(expected), "{saved}");
}

#[test]
fn a_saved_scene_reads_back_equal() {
    let mut scene = Scene::parse(DEFAULT_SCENE).unwrap();
    scene.settings.bounce_threshold = Some(0.125);
    scene.settings.substeps = Some(6);
    scene.scalar = Some(ScalarKind::I48F16);
    scene.bodies[0].velocity = Vec2::new(0.1, -1.0 / 3.0);
    assert_eq!(Scene::parse(&scene.to_toml()).unwrap(), scene);
}

#[test]
fn text_over_the_size_limit_is_refused_before_it_is_parsed() {
    let text = format!("gravity = [0.0, -0.1]\n#{}\n", "x".repeat(limit()));
    let e = error(&text);
    assert_eq!(e.kind, SceneErrorKind::TooLarge { size: Some(u64::try_from(text.len()).unwrap()) }, "{e}");
    let just_fits = format!("gravity = [0.0, -0.1]\n#{}\n", "x".repeat(limit() - 24));
    assert_eq!(just_fits.len(), limit());
    assert!(Scene::parse(&just_fits).is_ok());
}

#[test]
fn every_truncation_of_a_scene_is_refused_with_a_line_or_reads_as_a_smaller_scene() {
    let whole = Scene::parse(DEFAULT_SCENE).unwrap();
    let lines = DEFAULT_SCENE.lines().count();
    for end in (0..DEFAULT_SCENE.len()).filter(|&end| DEFAULT_SCENE.is_char_boundary(end)) {
        let cut = &DEFAULT_SCENE[..end];
        match Scene::parse(cut) {
            Ok(scene) => {
                assert!(scene.bodies.len() <= whole.bodies.len(), "cut at byte {end}");
                assert!(scene.colliders.len() <= whole.colliders.len(), "cut at byte {end}");
            }
            Err(e) => {
                assert!(e.kind == SceneErrorKind::Invalid, "cut at byte {end}: {e}");
                assert!(e.line.is_none_or(|l| (1..=lines + 1).contains(&l)), "cut at byte {end}: {e}");
                assert!(!e.message.is_empty() && !e.message.contains('\n'), "cut at byte {end}: {e:?}");
            }
        }
    }
    // Cut inside a multi-byte character, as a file on disk can be.
    let scratch = Scratch::new("scene-cut");
    let path = scratch.file("cut.toml", &"# ∞\n".as_bytes()[..3]);
    let e = Scene::load(&path).unwrap_err();
    assert_eq!((e.kind, e.line), (SceneErrorKind::NotText { byte: 2 }, Some(1)), "{e}");
    assert!(e.message.contains("cut short"), "{e}");
}

#[test]
fn a_million_bodies_are_refused_at_once_and_a_file_full_of_them_after_the_first_too_many() {
    let million = bodies(1_000_000);
    assert!(matches!(error(&million).kind, SceneErrorKind::TooLarge { .. }));
    // As many as fit in the size limit: refused at the first too many,
    // without parsing the rest.
    let most = &million[..million[..limit()].rfind("[[body]]").unwrap()];
    let e = error(most);
    assert_eq!((e.kind, e.line), (SceneErrorKind::TooManyBodies, Some(2 + 3 * MAX_BODIES)));
    // Without parsing the rest: text after the first too many that is not
    // TOML at all changes nothing (parsed, it would be a syntax error).
    let cut = million.match_indices("[[body]]").nth(MAX_BODIES + 1).unwrap().0;
    let garbage = format!("{}[[[ not = TOML\n", &million[..cut]);
    let e = error(&garbage);
    assert_eq!((e.kind, e.line), (SceneErrorKind::TooManyBodies, Some(2 + 3 * MAX_BODIES)));
}

#[test]
fn text_with_too_many_tokens_or_tables_is_refused_before_it_is_parsed() {
    let zeros = format!("gravity = [0.0, -0.1]\nx = [\n{}]\n", "0,".repeat(MAX_TOKENS));
    let e = error(&zeros);
    assert_eq!((e.kind, e.line), (SceneErrorKind::TooComplex, Some(3)), "{e}");
    assert!(e.message.starts_with("too much to read: a scene file may have at most 1048576 TOML tokens"), "{e}");
    let blank = format!("gravity = [0.0, -0.1]\n{}", "\n".repeat(MAX_TOKENS));
    // The first line is 15 tokens: `gravity`, ` `, `=`, ` `, `[`, `0`, `.`, … `\n`.
    assert_eq!(error(&blank).line, Some(MAX_TOKENS - 13), "the line the limit is reached on");
    let tables = format!(
        "gravity = [0.0, -0.1]\n{}",
        (0..=MAX_BODIES + MAX_COLLIDERS).map(|i| ["[t", &i.to_string(), "]\n"].concat()).collect::<String>()
    );
    let e = error(&tables);
    assert_eq!((e.kind, e.line), (SceneErrorKind::TooComplex, Some(2 + MAX_BODIES + MAX_COLLIDERS)), "{e}");
    assert_eq!(e.message, "too many tables: a scene has one for each body and collider, at most 10000");
    let braces = format!("gravity = [0.0, -0.1]\nx = [{}]\n", "{},".repeat(MAX_BODIES + MAX_COLLIDERS + 1));
    assert_eq!(error(&braces).kind, SceneErrorKind::TooComplex);
    // Deep nesting is refused by the parser, not the stack.
    let deep = format!("gravity = [0.0, -0.1]\nx = {}\n", "[".repeat(100_000));
    assert_eq!(error(&deep).kind, SceneErrorKind::Invalid);
}

#[test]
fn the_largest_scene_saves_to_text_well_within_every_limit() {
    // Every number with all 17 digits an f64 may need.
    let long = -1_234.567_890_123_456_7;
    let far = Vec2::new(long, 3.141_592_653_589_793e6);
    let mut scene = Scene::new(Settings { gravity: far, bounce_threshold: Some(-long), substeps: Some(255) });
    scene.scalar = Some(ScalarKind::I48F16);
    let mut body = BodySpec::new(far, -long);
    (body.velocity, body.restitution, body.inverse_mass) = (far, 0.123_456_789_012_345_68, 0.987_654_321_098_765_4);
    scene.bodies = vec![body; MAX_BODIES];
    scene.colliders = vec![Shape::Capsule { start: far, end: far, radius: -long }.into(); MAX_COLLIDERS];
    let text = scene.to_toml();
    assert!(text.len() * 4 < limit(), "{} bytes", text.len());
    let tokens = toml_parser::Source::new(&text).lex().count();
    assert!(tokens * 3 / 2 < MAX_TOKENS, "{tokens} tokens");
    assert_eq!(Scene::parse(&text).unwrap(), scene);
}

/// The command line took `--scalar i16f16` while a scene file refused
/// `scalar = "i16f16"`: both read a type's name in any case now.
#[test]
fn a_scene_files_scalar_is_read_in_any_case_and_written_as_rust_spells_it() {
    for kind in ScalarKind::ALL {
        for name in [kind.name().to_owned(), kind.name().to_lowercase(), kind.name().to_uppercase()] {
            let scene = Scene::parse(&format!("gravity = [0.0, -0.1]\nscalar = \"{name}\"\n")).unwrap();
            assert_eq!(scene.scalar, Some(kind), "{name}");
            assert_eq!(Scene::parse(&scene.to_toml()).unwrap(), scene, "{name}");
        }
        let mut scene = Scene::new(Settings::new(Vec2::new(0.0, -0.1)));
        scene.scalar = Some(kind);
        assert!(scene.to_toml().contains(&format!("\nscalar = \"{}\"\n", kind.name())), "{}", scene.to_toml());
    }
    let e = error("gravity = [0.0, -0.1]\nscalar = \"i64f64\"\n");
    assert_eq!((e.kind, e.line), (SceneErrorKind::Invalid, Some(2)), "{e}");
    assert!(e.message.contains("unknown scalar type `i64f64`") && e.message.contains("I32F32"), "{e}");
}
