use geom_core::Vec2;

use super::*;
use crate::scene::testing::{CAPSULES, bodies, error};
use crate::scene::{DEFAULT_SCENE, MAX_BODIES, MAX_COLLIDERS, Scene};

#[test]
fn the_default_scene_parses_and_builds_in_every_precision() {
    let scene = Scene::parse(DEFAULT_SCENE).unwrap();
    for kind in ScalarKind::ALL {
        crate::num::with_scalar!(kind, S => {
            let world = scene.build::<S>().unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert_eq!(world.bodies().len(), scene.bodies.len());
            assert_eq!(world.colliders().len(), scene.colliders.len());
        });
    }
}

#[test]
fn the_features_scene_parses_and_builds_in_every_precision() {
    let text = include_str!("../../../scenes/features.toml");
    let scene = Scene::parse(text).unwrap();
    assert!(scene.colliders.iter().any(|c| c.sensor) && scene.colliders.iter().any(ColliderSpec::is_moving));
    for kind in ScalarKind::ALL {
        crate::num::with_scalar!(kind, S => {
            let world = scene.build::<S>().unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert_eq!(world.colliders().len(), scene.colliders.len());
        });
    }
}

#[test]
fn bad_settings_name_their_line() {
    let e = error("gravity = [0.0, -0.1]\nsubsteps = 0\n");
    assert_eq!((e.line, e.message.as_str()), (Some(2), "substeps must be at least 1"));
    // The older name is read as `substeps`.
    let e = error("gravity = [0.0, -0.1]\nmax_substeps = 0\n");
    assert_eq!((e.line, e.message.as_str()), (Some(2), "substeps must be at least 1"));
    let e = error("\ngravity = [0.0, -0.1]\nbounce_threshold = -1.0\n");
    assert_eq!((e.line, e.message.as_str()), (Some(3), "the bounce threshold must be zero or more, not -1"));
    let e = error("gravity = [0.0, nan]\n");
    assert_eq!(e.line, Some(1), "{e}");
    let far = Scene::parse("# far\ngravity = [0.0, -5000.0]\n").unwrap();
    let e = far.build::<fixed::types::I16F16>().unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.message.contains("gravity") && e.message.contains("±4096"), "{e}");
    let far = Scene::parse("gravity = [0.0, -1.0]\nbounce_threshold = 5000.0\n").unwrap();
    assert_eq!(far.build::<fixed::types::I16F16>().unwrap_err().line, Some(2));
}

#[test]
fn a_value_outside_the_types_range_names_its_item_line_and_the_range() {
    let text = "gravity = [0.0, -0.1]\n\n[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\n\n\
                [[body]]\nposition = [5000.0, 1.0]\nradius = 1.0\n";
    let scene = Scene::parse(text).unwrap();
    assert!(scene.build::<f32>().is_ok());
    let e = scene.build::<fixed::types::I16F16>().unwrap_err();
    assert_eq!(e.line, Some(7), "{e}");
    assert!(e.message.starts_with("body 1:") && e.message.contains("±4096"), "{e}");
}

#[test]
fn a_capsule_body_is_read_with_its_core_relative_to_its_position() {
    let scene = Scene::parse(CAPSULES).unwrap();
    let [standing, lying, ball] = scene.bodies[..] else { panic!("three bodies: {:?}", scene.bodies) };
    assert!(standing.is_capsule() && lying.is_capsule() && !ball.is_capsule());
    assert_eq!(standing.core, [Vec2::new(0.0, -0.5), Vec2::new(0.0, 1.5)]);
    assert_eq!(
        standing.shape(),
        Shape::Capsule { start: Vec2::new(1.0, 1.5), end: Vec2::new(1.0, 3.5), radius: 0.5 },
        "the core is placed at the position"
    );
    assert_eq!(
        (lying.core, lying.velocity, lying.friction, lying.tag),
        ([Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)], Vec2::new(0.5, 0.0), 0.75, 3)
    );
    assert_eq!(ball, BodySpec::new(Vec2::new(-3.0, 1.0), 1.0), "`shape = \"circle\"` is the default");
    for kind in ScalarKind::ALL {
        crate::num::with_scalar!(kind, S => {
            let world = scene.build::<S>().unwrap_or_else(|e| panic!("{kind}: {e}"));
            let bodies = world.bodies();
            assert!(bodies[0].is_capsule() && bodies[1].is_capsule() && !bodies[2].is_capsule(), "{kind}");
            let core = bodies[0].capsule().segment();
            assert_eq!((of_vec(core.start()), of_vec(core.end())), (Vec2::new(1.0, 1.5), Vec2::new(1.0, 3.5)));
            assert_eq!(BodySpec::of_def(&bodies[1].def()), lying, "{kind}");
        });
    }
}

#[test]
fn the_player_scene_parses_and_builds_in_every_precision_with_a_capsule_character() {
    let scene = Scene::parse(include_str!("../../../scenes/player.toml")).unwrap();
    let player = scene.bodies[0];
    assert!(player.is_capsule() && player.inverse_mass == 0.0);
    assert!(scene.colliders.iter().any(|c| c.one_way.is_some()) && scene.colliders.iter().any(ColliderSpec::is_moving));
    for kind in ScalarKind::ALL {
        crate::num::with_scalar!(kind, S => {
            let world = scene.build::<S>().unwrap_or_else(|e| panic!("{kind}: {e}"));
            let capsules = |bodies: &[geom_core::world::Body<S>]| bodies.iter().map(geom_core::world::Body::is_capsule).collect::<Vec<_>>();
            assert_eq!(capsules(world.bodies()), scene.bodies.iter().map(BodySpec::is_capsule).collect::<Vec<_>>(), "{kind}");
        });
    }
}

#[test]
fn a_scene_may_have_max_bodies_and_max_colliders_and_no_more() {
    let post = "[[collider]]\nshape = \"circle\"\ncenter = [0.0, 0.0]\nradius = 1.0\n";
    let full = format!("{}{}", bodies(MAX_BODIES), post.repeat(MAX_COLLIDERS));
    let scene = Scene::parse(&full).unwrap();
    assert_eq!((scene.bodies.len(), scene.colliders.len()), (MAX_BODIES, MAX_COLLIDERS));
    assert_eq!(scene.build::<f32>().unwrap().bodies().len(), MAX_BODIES);

    // One more of either, as tables: refused while counting, at its line.
    let e = error(&bodies(MAX_BODIES + 1));
    assert_eq!((e.kind, e.line), (SceneErrorKind::TooManyBodies, Some(2 + 3 * MAX_BODIES)));
    assert_eq!(e.message, "too many bodies: a scene may have at most 5000");
    let e = error(&format!("gravity = [0.0, -0.1]\n{}", post.repeat(MAX_COLLIDERS + 1)));
    assert_eq!((e.kind, e.line), (SceneErrorKind::TooManyColliders, Some(2 + 4 * MAX_COLLIDERS)));
    assert_eq!(e.message, "too many colliders: a scene may have at most 5000");

    // As inline tables: refused once parsed, at the first one too many.
    let inline = format!(
        "gravity = [0.0, -0.1]\nbody = [\n{}]\n",
        "{ position = [0.0, 1.0], radius = 0.5 },\n".repeat(MAX_BODIES + 1)
    );
    let e = error(&inline);
    assert_eq!((e.kind, e.line), (SceneErrorKind::TooManyBodies, Some(3 + MAX_BODIES)), "{e}");

    // Built in code: refused when built.
    let mut scene = Scene::new(Settings::new(Vec2::new(0.0, 0.0)));
    scene.bodies = vec![BodySpec::new(Vec2::new(0.0, 0.0), 1.0); MAX_BODIES + 1];
    let e = scene.build::<f64>().unwrap_err();
    assert_eq!((e.kind, e.line), (SceneErrorKind::TooManyBodies, None));
    scene.bodies.clear();
    scene.colliders = vec![Shape::Circle { center: Vec2::new(0.0, 0.0), radius: 1.0 }.into(); MAX_COLLIDERS + 1];
    assert_eq!(scene.build::<f64>().unwrap_err().kind, SceneErrorKind::TooManyColliders);
}
