use geom_core::Vec2;

use crate::scene::testing::built_in_code;
use crate::scene::{BodySpec, Scene};

/// A scene as a person writes one: comments above and beside values, odd
/// spacing, whole numbers without a point, a mask in hexadecimal, and no
/// bounce threshold.
const HAND: &str = "# My test level.
#   Units: metres, roughly.

gravity   = [ 0.0 , -0.1 ]   # a gentle pull
substeps = 4

# The floor.
[[collider]]
shape = \"segment\"
start = [-10, 0]   # left end
end   = [ 10, 0 ]
friction = 0.5

# A ball that bounces.
[[body]]
position = [0, 5]   # above the floor
radius = 0.5
restitution = 0.75
mask = 0xff

# A player, upright.
[[body]]
shape = \"capsule\"
position = [3, 1]
start = [0, 0]
end = [0, 1.5]
radius = 0.25   # thin

# the end
";

/// The lines of `after` that differ from those of `before`, which has as
/// many.
fn changed_lines<'a>(before: &str, after: &'a str) -> Vec<&'a str> {
    assert_eq!(before.lines().count(), after.lines().count(), "lines added or removed:\n{after}");
    before.lines().zip(after.lines()).filter(|(b, a)| b != a).map(|(_, a)| a).collect()
}

/// The comment lines of `text`, in order.
fn comments(text: &str) -> Vec<&str> {
    text.lines().filter(|line| line.trim_start().starts_with('#')).collect()
}

/// What was saved must read back as the scene saved, and write the same
/// text again.
fn reads_back(scene: &Scene) -> String {
    let text = scene.to_toml();
    let again = Scene::parse(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
    assert_eq!(again, *scene, "{text}");
    assert_eq!(again.to_toml(), text);
    text
}

#[test]
fn a_commented_hand_written_scene_saved_unchanged_is_byte_identical() {
    for text in [
        HAND,
        crate::scene::DEFAULT_SCENE,
        include_str!("../../../../scenes/features.toml"),
        include_str!("../../../../scenes/player.toml"),
        "gravity = [0, -1]", // no line break at the end
        "gravity = [0, -1]\r\n\r\n# Windows\r\n[[body]]\r\nposition = [0, 1]\r\nradius = 1\r\n",
    ] {
        assert_eq!(Scene::parse(text).unwrap().to_toml(), text);
    }
}

#[test]
fn changing_one_bodys_x_changes_exactly_that_line() {
    let mut scene = Scene::parse(HAND).unwrap();
    scene.bodies[0].position.x = 2.5;
    let text = reads_back(&scene);
    assert_eq!(changed_lines(HAND, &text), ["position = [2.5, 5]   # above the floor"]);
    // The player's x, a whole number still: written as one.
    scene.bodies[1].position.x = -3.0;
    assert_eq!(
        changed_lines(HAND, &reads_back(&scene)),
        ["position = [2.5, 5]   # above the floor", "position = [-3, 1]"]
    );
}

#[test]
fn gravity_as_typed_stays_as_typed_and_a_new_value_is_written_in_its_shortest_form() {
    let mut scene = Scene::parse(HAND).unwrap();
    assert_eq!(scene.settings.gravity, Vec2::new(0.0, -0.1));
    scene.bodies[0].radius = 0.75;
    let text = reads_back(&scene);
    assert!(text.contains("\ngravity   = [ 0.0 , -0.1 ]   # a gentle pull\n"), "{text}");
    // Changed, only its second number is rewritten, in the fewest digits
    // that read back as the same f64.
    let mut scene = Scene::parse(&HAND.replace("-0.1 ]", "-0.2 ]")).unwrap();
    scene.settings.gravity.y = -0.1;
    assert_eq!(reads_back(&scene), HAND);
    scene.settings.gravity.y = 0.1 + 0.2;
    assert!(reads_back(&scene).contains("\ngravity   = [ 0.0 , 0.30000000000000004 ]   # a gentle pull\n"));
}

#[test]
fn no_bounce_threshold_or_other_absent_setting_is_written_when_the_file_had_none() {
    let mut scene = Scene::parse(HAND).unwrap();
    scene.bodies[1].velocity = Vec2::new(0.5, 0.0);
    let text = reads_back(&scene);
    assert!(!text.contains("bounce_threshold") && !text.contains("scalar"), "{text}");
    // The scene's own are written, and those it no longer has removed.
    scene.settings.bounce_threshold = Some(0.25);
    scene.settings.substeps = None;
    let text = reads_back(&scene);
    assert!(text.contains("\nbounce_threshold = 0.25\n") && !text.contains("substeps"), "{text}");
}

#[test]
fn keys_that_hold_their_default_and_are_absent_stay_absent() {
    let mut scene = Scene::parse(HAND).unwrap();
    // Every key a body or collider could have, at its default, is absent.
    scene.bodies[0].restitution = 0.5;
    let text = reads_back(&scene);
    assert_eq!(changed_lines(HAND, &text), ["restitution = 0.5"]);
    // A key given a value other than its default is added to its table.
    scene.bodies[1].friction = 0.25;
    let text = reads_back(&scene);
    assert!(text.contains("radius = 0.25   # thin\nfriction = 0.25\n"), "{text}");
}

#[test]
fn a_changed_value_keeps_its_comment_and_its_spelling() {
    let mut scene = Scene::parse(HAND).unwrap();
    scene.bodies[1].radius = 0.3;
    scene.bodies[0].mask = 0xf0;
    scene.colliders[0].shape = crate::scene::Shape::Segment { start: Vec2::new(-12.0, 0.0), end: Vec2::new(10.0, 0.0) };
    let text = reads_back(&scene);
    assert_eq!(changed_lines(HAND, &text), ["start = [-12, 0]   # left end", "mask = 0xf0", "radius = 0.3   # thin"]);
}

#[test]
fn adding_a_body_appends_a_table_and_keeps_every_comment() {
    let mut scene = Scene::parse(HAND).unwrap();
    scene.bodies.push(BodySpec::new(Vec2::new(1.0, 9.0), 0.5));
    let text = reads_back(&scene);
    assert_eq!(comments(&text), comments(HAND));
    let added = "radius = 0.25   # thin\n\n[[body]]\nposition = [1.0, 9.0]\nradius = 0.5\nvelocity = [0.0, 0.0]\n\
                 restitution = 0.0\ninverse_mass = 1.0\n\n# the end\n";
    assert!(text.ends_with(added), "{text}");
    // Where bodies come before colliders, a new body is the last body still.
    let bodies_first = "gravity = [0, -1]\n\n[[body]]\nposition = [0, 1]\nradius = 1\n\n# The walls.\n[[collider]]\n\
                        shape = \"circle\"\ncenter = [0, 0]\nradius = 1\n";
    let mut scene = Scene::parse(bodies_first).unwrap();
    scene.bodies.push(BodySpec::new(Vec2::new(1.0, 9.0), 0.5));
    let text = reads_back(&scene);
    assert!(text.contains("radius = 1\n\n[[body]]\nposition = [1.0, 9.0]\n"), "{text}");
    assert!(
        text.ends_with("\n\n# The walls.\n[[collider]]\nshape = \"circle\"\ncenter = [0, 0]\nradius = 1\n"),
        "{text}"
    );
}

#[test]
fn removing_the_last_body_removes_its_table_only() {
    let mut scene = Scene::parse(HAND).unwrap();
    scene.bodies.pop();
    let player = "\n# A player, upright.\n[[body]]\nshape = \"capsule\"\nposition = [3, 1]\nstart = [0, 0]\n\
                  end = [0, 1.5]\nradius = 0.25   # thin\n";
    assert_eq!(reads_back(&scene), HAND.replace(player, ""));
    // And the rest, one by one, down to none.
    scene.bodies.pop();
    scene.colliders.pop();
    let text = reads_back(&scene);
    assert!(!text.contains("[[") && text.ends_with("substeps = 4\n\n# the end\n"), "{text}");
}

#[test]
fn a_capsule_body_that_becomes_a_circle_loses_its_shape_start_and_end_only() {
    let mut scene = Scene::parse(HAND).unwrap();
    scene.bodies[1].core = [Vec2::new(0.0, 0.0); 2];
    let text = reads_back(&scene);
    let player =
        "[[body]]\nshape = \"capsule\"\nposition = [3, 1]\nstart = [0, 0]\nend = [0, 1.5]\nradius = 0.25   # thin\n";
    assert_eq!(text, HAND.replace(player, "[[body]]\nposition = [3, 1]\nradius = 0.25   # thin\n"));
    // Back to a capsule: the keys come back, after those there are.
    let mut scene = Scene::parse(&text).unwrap();
    scene.bodies[1].core[1].y = 2.0;
    let text = reads_back(&scene);
    assert!(
        text.contains("radius = 0.25   # thin\nshape = \"capsule\"\nstart = [0.0, 0.0]\nend = [0.0, 2.0]\n"),
        "{text}"
    );
}

#[test]
fn bodies_written_as_inline_tables_are_edited_in_place() {
    let text = "gravity = [0, -1]\nbody = [\n  { position = [0, 1], radius = 1 },  # first\n  { position = [2, 1], radius = 1 },\n]\n";
    let mut scene = Scene::parse(text).unwrap();
    scene.bodies[0].position.y = 3.0;
    let edited = reads_back(&scene);
    assert_eq!(changed_lines(text, &edited), ["  { position = [0, 3], radius = 1 },  # first"]);
    scene.bodies.pop();
    scene.bodies.push(BodySpec::new(Vec2::new(5.0, 5.0), 0.5));
    scene.bodies.push(BodySpec::new(Vec2::new(6.0, 5.0), 0.5));
    let edited = reads_back(&scene);
    assert!(edited.contains("# first\n"), "{edited}");
}

#[test]
fn a_scene_written_with_none_of_a_list_gets_tables_once_it_has_some() {
    let scene = Scene::new(crate::scene::Settings::new(Vec2::new(0.0, -0.1)));
    let empty = reads_back(&scene);
    assert!(empty.contains("\ncollider = []\nbody = []\n"), "{empty}");
    let mut scene = Scene::parse(&empty).unwrap();
    scene.bodies.push(BodySpec::new(Vec2::new(1.0, 2.0), 0.5));
    let text = reads_back(&scene);
    assert!(text.contains("\ncollider = []\n") && text.contains("\n[[body]]\nposition = [1.0, 2.0]\n"), "{text}");
}

#[test]
fn windows_line_breaks_are_kept_when_the_text_is_edited() {
    let text = HAND.replace('\n', "\r\n");
    let mut scene = Scene::parse(&text).unwrap();
    scene.bodies[0].position.x = 2.5;
    scene.bodies.push(BodySpec::new(Vec2::new(1.0, 9.0), 0.5));
    let edited = reads_back(&scene);
    assert!(!edited.replace("\r\n", "").contains('\n'), "{edited:?}");
    assert!(edited.contains("\r\nposition = [2.5, 5]   # above the floor\r\n"), "{edited:?}");
}

#[test]
fn a_scene_built_in_code_is_written_whole_under_a_comment() {
    let scene = built_in_code(&Scene::parse(HAND).unwrap());
    let text = reads_back(&scene);
    assert!(text.starts_with("# A geom sandbox scene (see `geom-tui --help`).\ngravity = [0.0, -0.1]\nsubsteps = 4\n"));
    assert_eq!(comments(&text).len(), 1, "{text}");
}

#[test]
fn a_bodys_player_is_written_where_it_has_one_and_removed_where_it_no_longer_has() {
    let mut scene = Scene::parse(HAND).unwrap();
    scene.bodies[1].player = Some(1);
    let with = reads_back(&scene);
    assert!(with.contains("radius = 0.25   # thin\nplayer = 1\n"), "{with}");
    scene.bodies[1].player = None;
    assert_eq!(reads_back(&scene), HAND);
}
