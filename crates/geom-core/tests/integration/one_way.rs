//! One-way colliders (issue 29, item 3): a platform a body jumps up through
//! and lands on, at every speed and in every scalar type, and what sensors
//! and queries see of it.

use crate::common;

use common::{TestScalar, seg, v};
use geom_core::Vec2;
use geom_core::world::{BodyDef, BodyId, ColliderDef, Filter, Id, World, WorldConfig, WorldError};

/// The platform's top face: a ball of radius [`R`] resting on it has its
/// centre at `TOP + R`.
const TOP: f64 = 3.0;
const R: f64 = 0.4;

/// A floor at y = 0 and a one-way platform at y = [`TOP`] from x = −2 to
/// 2 whose solid side is up, under gravity `g` (downwards).
fn platform_world<S: TestScalar>(g: f64) -> (World<S>, Id) {
    let mut world = World::new(WorldConfig::new(v(0.0, -g))).unwrap();
    world.add_collider(seg::<S>(-20.0, 0.0, 20.0, 0.0)).unwrap();
    let mut ledge = ColliderDef::new(seg::<S>(-2.0, TOP, 2.0, TOP));
    ledge.one_way = Some(v(0.0, 1.0));
    let ledge = world.add_collider(ledge).unwrap();
    (world, Id::Collider(ledge))
}

fn ball<S: TestScalar>(world: &mut World<S>, x: f64, y: f64, velocity: (f64, f64)) -> BodyId {
    let mut def = BodyDef::new(v(x, y), S::from_f64(R));
    def.velocity = v(velocity.0, velocity.1);
    world.add_body(def).unwrap()
}

fn y_of<S: TestScalar>(world: &World<S>, id: BodyId) -> f64 {
    world.body(id).unwrap().position().y.to_f64()
}

/// How far below resting height a body on the platform may be: a few
/// rounding steps of the type at these magnitudes.
fn slack<S: TestScalar>() -> f64 {
    (S::TOL * 64.0).max(1e-4)
}

/// A ball jumps from the floor up through the platform (its apex well
/// above it), comes down on its top and stays there; once its lowest point
/// has been above the top face and it falls, it is never below resting
/// height. At `speed` times the velocity and `speed²` times the gravity the
/// arc has the same shape, in as many ticks over `speed`.
fn jumps_up_through_and_lands_on_top<S: TestScalar>(speed: f64) {
    let (mut world, ledge) = platform_world::<S>(0.02 * speed * speed);
    let jumper = ball(&mut world, 0.0, R, (0.0, 0.5 * speed));
    let (mut above, mut highest) = (false, f64::MIN);
    for tick in 0..(400.0 / speed) as u32 {
        world.step();
        let y = y_of(&world, jumper);
        highest = highest.max(y);
        above |= y - R >= TOP;
        if above {
            assert!(y >= TOP + R - slack::<S>(), "tick {tick}: the ball is inside the platform at y = {y}");
        }
    }
    assert!(highest > TOP + 2.0, "the jump passed the platform (apex {highest})");
    let y = y_of(&world, jumper);
    assert!((y - (TOP + R)).abs() <= slack::<S>(), "the ball rests on the platform's top, at y = {y}");
    assert!(world.contacts_of(jumper).any(|c| c.other == ledge && c.normal == v(0.0, 1.0)));
}

fn jumps_up_through_and_lands_on_top_at_normal_speed<S: TestScalar>() {
    jumps_up_through_and_lands_on_top::<S>(1.0);
}

fn jumps_up_through_and_lands_on_top_at_ten_times_the_speed<S: TestScalar>() {
    jumps_up_through_and_lands_on_top::<S>(10.0);
}

/// A ball dropped onto the platform lands on it whatever its speed, up to
/// 40 units a tick (a hundred times its own size), and never tunnels.
fn a_body_falling_onto_it_lands_at_any_speed<S: TestScalar>() {
    for speed in [0.05, 0.5, 5.0, 40.0] {
        let (mut world, _) = platform_world::<S>(0.02);
        let falling = ball(&mut world, 0.5, 90.0, (0.0, -speed));
        for _ in 0..400 {
            world.step();
            let y = y_of(&world, falling);
            assert!(y >= TOP + R - slack::<S>(), "at {speed} a tick the ball went into the platform (y = {y})");
        }
        assert!((y_of(&world, falling) - (TOP + R)).abs() <= slack::<S>());
    }
}

/// A ball that jumps only part-way into the platform (its apex with its
/// centre inside it) falls back through, down to the floor.
fn a_body_part_way_through_falls_back<S: TestScalar>() {
    let (mut world, ledge) = platform_world::<S>(0.02);
    // From y = R the centre rises v²/2g = 2.8: the apex is at y = 3.2.
    let jumper = ball(&mut world, 0.0, R, (0.0, (2.0 * 0.02 * 2.8_f64).sqrt()));
    let mut highest = f64::MIN;
    for _ in 0..300 {
        world.step();
        highest = highest.max(y_of(&world, jumper));
    }
    assert!(highest > TOP - R && highest < TOP + R, "the apex is inside the platform ({highest})");
    assert!((y_of(&world, jumper) - R).abs() <= slack::<S>(), "back on the floor");
    assert!(world.contacts_of(jumper).all(|c| c.other != ledge));
}

/// A ball moving sideways at the platform's height, or below it, passes
/// through its end and its whole length: a one-way platform blocks only
/// along normals with a component towards its solid side. (A ball whose
/// centre is above the face meets the end from above, and rolls over it.)
fn its_side_lets_a_body_pass<S: TestScalar>() {
    for height in [TOP, TOP - 0.125] {
        let (mut world, _) = platform_world::<S>(0.0);
        let runner = ball(&mut world, -6.0, height, (0.25, 0.0));
        for _ in 0..48 {
            world.step();
        }
        let p = world.body(runner).unwrap().position();
        assert_eq!(p, v(6.0, height), "it flew straight through");
    }
}

/// A stack of three balls rests on the platform for 2,000 ticks: the
/// weight on the lowest never pushes it through.
fn a_stack_rests_on_it<S: TestScalar>() {
    let (mut world, _) = platform_world::<S>(0.02);
    let balls: Vec<_> =
        (0..3).map(|k| ball(&mut world, 0.0, TOP + R + 0.8 * f64::from(k) + 0.01, (0.0, 0.0))).collect();
    for _ in 0..2000 {
        world.step();
        assert!(y_of(&world, balls[0]) >= TOP + R - slack::<S>());
    }
    assert!(y_of(&world, balls[2]) > TOP + 4.0 * R - 0.1, "the stack stands");
}

/// A one-way lift rising through a ball above it picks it up only once the
/// ball is on its solid side: it carries the ball it meets from below the
/// ball's feet.
fn a_rising_one_way_lift_carries_what_it_meets_from_below<S: TestScalar>() {
    let mut world = World::new(WorldConfig::new(v(0.0, -0.02))).unwrap();
    world.add_collider(seg::<S>(-20.0, 0.0, 20.0, 0.0)).unwrap();
    let mut lift = ColliderDef::new(seg::<S>(-2.0, 0.5, 2.0, 0.5));
    lift.one_way = Some(v(0.0, 1.0));
    lift.velocity = v(0.0, 0.03125);
    world.add_collider(lift).unwrap();
    // A ball resting on the floor, the lift's face through its middle; and
    // one waiting above.
    let low = ball(&mut world, 0.0, R, (0.0, 0.0));
    let high = ball(&mut world, 1.2, 2.0 + R, (0.0, 0.0));
    for _ in 0..128 {
        world.step();
    }
    // The lift is at 4.5 now: it passed up through the low ball (which
    // fell back to the floor) and carried the high one up from 2.
    assert!((y_of(&world, low) - R).abs() <= slack::<S>());
    assert!((y_of(&world, high) - (4.5 + R)).abs() <= slack::<S>(), "carried to {}", y_of(&world, high));
}

/// Queries see a one-way collider's whole shape: a ray from below hits it,
/// and a sensor body inside it overlaps it.
fn queries_and_sensors_see_its_whole_shape<S: TestScalar>() {
    let (mut world, ledge) = platform_world::<S>(0.0);
    let hit = world.ray_cast(v(0.0, 1.0), v(0.0, 10.0), Filter::ALL).expect("the ray hits the platform from below");
    assert_eq!((hit.id, hit.point, hit.normal), (ledge, v(0.0, TOP), v(0.0, -1.0)));
    let mut def = BodyDef::new(v(0.0, TOP), S::from_f64(R));
    def.sensor = true;
    let sensor = world.add_body(def).unwrap();
    world.step();
    assert!(world.sensor_overlaps().contains(&(sensor, ledge)));
}

/// A one-way direction of zero length (or out of range) is refused with
/// its own error, and the world is left as it was.
fn a_direction_of_zero_is_refused<S: TestScalar>() {
    let (mut world, _) = platform_world::<S>(0.0);
    let before = world.checksum();
    for up in [Vec2::ZERO, Vec2::new(S::MAX_COORD + S::MAX_COORD, S::ZERO)] {
        let mut def = ColliderDef::new(seg::<S>(-1.0, 1.0, 1.0, 1.0));
        def.one_way = Some(up);
        assert_eq!(world.add_collider(def), Err(WorldError::OneWay));
    }
    assert_eq!(world.checksum(), before);
}

macro_rules! one_way_suite {
    ($module:ident, $t:ty) => {
        mod $module {
            type T = $t;
            one_way_suite!(@tests T;
                jumps_up_through_and_lands_on_top_at_normal_speed,
                jumps_up_through_and_lands_on_top_at_ten_times_the_speed,
                a_body_falling_onto_it_lands_at_any_speed,
                a_body_part_way_through_falls_back,
                its_side_lets_a_body_pass,
                a_stack_rests_on_it,
                a_rising_one_way_lift_carries_what_it_meets_from_below,
                queries_and_sensors_see_its_whole_shape,
                a_direction_of_zero_is_refused,
            );
        }
    };
    (@tests $t:ty; $($name:ident),* $(,)?) => {
        $(#[test] fn $name() { super::$name::<$t>(); })*
    };
}

one_way_suite!(f32_one_way, f32);
one_way_suite!(f64_one_way, f64);
one_way_suite!(i16f16_one_way, fixed::types::I16F16);
one_way_suite!(i32f32_one_way, fixed::types::I32F32);
one_way_suite!(i48f16_one_way, fixed::types::I48F16);
