//! Properties of the stepping world, for every scalar type: what a game
//! built on it relies on, checked on seeded random scenes.
//!
//! Scenes are built from values on a 2^-6 grid, so a scene is the same in
//! every type; each property is a generic function stating in words what
//! must hold, and `world_properties!` runs them all for one type, with
//! `geom_test::config()`'s fixed seed and fewer cases than the query
//! properties (a case steps a world for a few hundred ticks).

use geom_core::world::{BodyDef, BodyId, ColliderDef, EventKind, Filter, Id, World, WorldConfig};
use geom_core::{Circle, Segment, Vec2};
use geom_test::Testable;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

fn v<S: Testable>(x: f64, y: f64) -> Vec2<S> {
    Vec2::new(S::from_f64(x), S::from_f64(y))
}

/// A value on the 2^-6 grid in `[lo, hi]`.
fn grid(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    ((lo * 64.0) as i32..=(hi * 64.0) as i32).prop_map(|k| f64::from(k) / 64.0)
}

/// A body to throw in: position, velocity, restitution.
type Thrown = (f64, f64, f64, f64, f64);
/// A body to throw in without a restitution.
type Ball = (f64, f64, f64, f64);
/// Two speeds, two inverse masses, an offset, restitution and friction.
type Meeting = ((f64, f64), (f64, f64), f64, (f64, f64));

fn config() -> ProptestConfig {
    geom_test::config_with_cases(48)
}

fn world<S: Testable>(gravity: f64) -> World<S> {
    World::new(WorldConfig::new(v(0.0, gravity))).expect("a valid configuration")
}

fn wall<S: Testable>(w: &mut World<S>, a: (f64, f64), b: (f64, f64)) {
    w.add_collider(Segment::new(v(a.0, a.1), v(b.0, b.1)).expect("in range")).expect("a valid collider");
}

/// The side of `p` of the line through `a` and `b`, as the sign of the
/// exact cross product (in `f64`, exact for grid values and, for the
/// 64-bit types, rounded: compared with a tolerance).
fn side<S: Testable>(p: Vec2<S>, a: (f64, f64), b: (f64, f64)) -> f64 {
    let (px, py) = (p.x.to_f64(), p.y.to_f64());
    ((b.0 - a.0) * (py - a.1) - (b.1 - a.1) * (px - a.0)) / (b.0 - a.0).hypot(b.1 - a.1)
}

/// A box 40 wide split by `dividers`, thin walls from its left side to its
/// right (slanted, never crossing), and bodies of every radius from 0 up,
/// some no wider than a rounding step, thrown in fast.
#[derive(Clone, Debug)]
struct Dividers {
    heights: Vec<(f64, f64)>,
    bodies: Vec<(f64, f64, f64, f64, f64, f64)>,
}

fn dividers() -> impl Strategy<Value = Dividers> {
    let heights = prop::collection::vec((grid(-3.0, 3.0), grid(-3.0, 3.0)), 1..4).prop_map(|mut offsets| {
        // Bands 10 apart, each divider within 3 of its band's middle.
        offsets
            .iter_mut()
            .enumerate()
            .map(|(i, (l, r))| (-12.0 + 10.0 * i as f64 + *l, -12.0 + 10.0 * i as f64 + *r))
            .collect()
    });
    let body = (
        grid(-18.0, 18.0),
        grid(-18.0, 18.0),
        prop::sample::select(vec![0.0, 1.0 / 65536.0, 0.25, 0.75]),
        grid(-9.0, 9.0),
        grid(-9.0, 9.0),
        grid(0.0, 1.0),
    );
    (heights, prop::collection::vec(body, 1..10)).prop_map(|(heights, bodies)| Dividers { heights, bodies })
}

/// No body crosses a collider, whatever its speed or radius (0 included):
/// every body stays on its side of every divider, and inside the box.
fn no_body_crosses_a_divider<S: Testable>(scene: &Dividers) -> Result<(), TestCaseError> {
    let mut w = world::<S>(-0.05);
    for (a, b) in [
        ((-20.0, -20.0), (20.0, -20.0)),
        ((20.0, -20.0), (20.0, 20.0)),
        ((20.0, 20.0), (-20.0, 20.0)),
        ((-20.0, 20.0), (-20.0, -20.0)),
    ] {
        wall(&mut w, a, b);
    }
    let lines: Vec<((f64, f64), (f64, f64))> = scene.heights.iter().map(|&(l, r)| ((-20.0, l), (20.0, r))).collect();
    for &(a, b) in &lines {
        wall(&mut w, a, b);
    }
    let mut sides = Vec::new();
    for &(x, y, r, vx, vy, e) in &scene.bodies {
        let mut def = BodyDef::new(v(x, y), S::from_f64(r));
        def.velocity = v(vx, vy);
        def.restitution = S::from_f64(e);
        let start: Vec<f64> = lines.iter().map(|&(a, b)| side(def.position, a, b)).collect();
        // A body that starts on a divider (or too close to tell) has no side.
        if start.iter().any(|s| s.abs() <= r + 1e-6) {
            continue;
        }
        w.add_body(def).expect("a valid body");
        sides.push(start);
    }
    let slack = S::tolerance(40.0, 16.0);
    for tick in 1..=200 {
        w.step();
        for (body, start) in w.bodies().iter().zip(&sides) {
            let p = body.position();
            prop_assert!(
                p.x.to_f64().abs() <= 20.0 + slack && p.y.to_f64().abs() <= 20.0 + slack,
                "{}: out of the box at tick {tick}: {body:?}",
                S::NAME
            );
            for (&(a, b), &s) in lines.iter().zip(start) {
                let now = side(p, a, b);
                prop_assert!(
                    now * s.signum() >= -slack,
                    "{}: body {:?} crossed a divider at tick {tick}: {now} vs {s}",
                    S::NAME,
                    body.id()
                );
            }
        }
    }
    Ok(())
}

/// Friction never adds energy: on a flat floor, under gravity (which has
/// no horizontal part), a sliding body's horizontal speed never grows,
/// whatever the two friction coefficients.
fn friction_never_speeds_a_slider_up<S: Testable>(
    (speed, radius, mu_body, mu_floor, gravity): (f64, f64, f64, f64, f64),
) -> Result<(), TestCaseError> {
    let mut w = world::<S>(-gravity);
    let mut floor = ColliderDef::new(Segment::new(v(-1000.0, 0.0), v(1000.0, 0.0)).expect("in range"));
    floor.friction = S::from_f64(mu_floor);
    w.add_collider(floor).expect("a valid floor");
    let mut def = BodyDef::new(v(0.0, radius), S::from_f64(radius));
    def.velocity = v(speed, 0.0);
    def.friction = S::from_f64(mu_body);
    let id = w.add_body(def).expect("a valid body");
    let mut previous = speed.abs();
    for tick in 1..=150 {
        w.step();
        let now = w.body(id).expect("the body").velocity().x.to_f64().abs();
        prop_assert!(
            now <= previous + S::tolerance(speed.abs(), 2.0),
            "{}: speed {previous} then {now} at tick {tick}",
            S::NAME
        );
        previous = now;
    }
    Ok(())
}

/// Friction and impacts between bodies never add energy: two bodies whose
/// paths meet, without gravity, have no more kinetic energy after than
/// before, within 64 rounding steps of the type (for restitution up to 1,
/// friction of any size; an immovable body, at rest, keeps its velocity);
/// and they do meet (a velocity changes), so the property is never met by
/// bodies that miss each other.
fn collisions_between_bodies_never_add_energy<S: Testable>(
    ((va, vb), (ma, mb), offset, (e, mu)): Meeting,
) -> Result<(), TestCaseError> {
    let mut w = world::<S>(0.0);
    let mut body = |x: f64, y: f64, vx: f64, vy: f64, inverse_mass: f64| {
        let mut def = BodyDef::new(v(x, y), S::ONE);
        def.velocity = v(vx, vy);
        def.inverse_mass = S::from_f64(inverse_mass);
        def.restitution = S::from_f64(e);
        def.friction = S::from_f64(mu);
        w.add_body(def).expect("a valid body")
    };
    // An immovable body is at rest: one that moves is a paddle, which can
    // make a ball faster (energy is conserved in its frame, not the world's).
    let (vb, vby) = if mb == 0.0 { (0.0, 0.0) } else { (vb, -0.0625) };
    let (vay, start_a) = (0.0625, (-4.0, 0.0));
    // Whether their free paths come within touching (radii 1 and 1, less a
    // margin) in the 60 ticks: only then is the property about a meeting.
    let (rx, ry, wx, wy) = (8.0, offset, -vb - va, vby - vay);
    let t = (-(rx * wx + ry * wy) / (wx * wx + wy * wy).max(f64::MIN_POSITIVE)).clamp(0.0, 60.0);
    prop_assume!((rx + wx * t).hypot(ry + wy * t) < 1.75, "their paths never come near");
    let (a, b) = (body(start_a.0, start_a.1, va, vay, ma), body(4.0, offset, -vb, vby, mb));
    let velocity = |w: &World<S>, id| w.body(id).expect("the body").velocity();
    let first = velocity(&w, a);
    // An immovable body (inverse mass 0) keeps its velocity, and its
    // (infinite) energy is left out.
    let energy = |w: &World<S>| {
        [a, b]
            .iter()
            .map(|&id| w.body(id).expect("the body"))
            .filter(|body| body.inverse_mass() > S::ZERO)
            .map(|body| {
                let (vx, vy) = (body.velocity().x.to_f64(), body.velocity().y.to_f64());
                (vx * vx + vy * vy) / body.inverse_mass().to_f64()
            })
            .sum::<f64>()
    };
    let before = energy(&w);
    for tick in 1..=60 {
        w.step();
        let now = energy(&w);
        prop_assert!(
            now <= before + S::tolerance(before, 64.0),
            "{}: energy {before} grew to {now} at tick {tick}",
            S::NAME
        );
    }
    // Nothing but the other body changes a velocity here.
    prop_assert!(velocity(&w, a) != first, "{}: the bodies never met", S::NAME);
    Ok(())
}

/// A body in a sensor is never pushed: the world with a sensor moves every
/// body exactly as the same world without it (the sensor's filter emptied),
/// tick after tick; and the sensor reports a body dropped through it.
fn a_sensor_never_pushes<S: Testable>(
    ((cx, cy, r), bodies): ((f64, f64, f64), Vec<Ball>),
) -> Result<(), TestCaseError> {
    let build = |sensing: bool, bodies: &[Ball]| {
        let mut w = world::<S>(-0.05);
        wall(&mut w, (-30.0, -10.0), (30.0, -10.0));
        let mut zone = ColliderDef::new(Circle::new(v(cx, cy), S::from_f64(r)).expect("in range"));
        zone.sensor = true;
        if !sensing {
            zone.filter = Filter { layer: 0, mask: 0 };
        }
        w.add_collider(zone).expect("a valid sensor");
        for &(x, y, vx, vy) in bodies {
            let mut def = BodyDef::new(v(x, y), S::from_f64(0.5));
            def.velocity = v(vx, vy);
            def.restitution = S::from_f64(0.5);
            w.add_body(def).expect("a valid body");
        }
        w
    };
    let (mut with, mut without) = (build(true, &bodies), build(false, &bodies));
    for tick in 1..=150 {
        with.step();
        without.step();
        for (a, b) in with.bodies().iter().zip(without.bodies()) {
            prop_assert_eq!(a.def(), b.def(), "{}: the sensor moved body {:?} at tick {}", S::NAME, a.id(), tick);
        }
        prop_assert!(without.sensor_overlaps().is_empty());
    }
    // And it does sense: a body dropped straight through it is reported.
    let mut dropped = build(true, &[(cx, cy + r + 2.0, 0.0, 0.0)]);
    let mut sensed = 0;
    for _ in 0..150 {
        dropped.step();
        sensed += dropped.events().iter().filter(|e| e.kind == EventKind::SensorBegan).count();
    }
    prop_assert!(sensed > 0, "{}: the sensor did not report the body dropped through it", S::NAME);
    Ok(())
}

/// A busy scene for the rollback property: a box with a slope and a
/// post, a lift going up and down, a sensor, and bouncing bodies.
fn busy<S: Testable>(bodies: &[Thrown]) -> World<S> {
    let mut w = world::<S>(-0.03);
    for (a, b) in [
        ((-20.0, -20.0), (20.0, -20.0)),
        ((20.0, -20.0), (20.0, 20.0)),
        ((-20.0, 20.0), (-20.0, -20.0)),
        ((-18.0, 0.0), (-4.0, -6.0)),
    ] {
        wall(&mut w, a, b);
    }
    w.add_collider(Circle::new(v(8.0, -12.0), S::from_f64(2.0)).expect("in range")).expect("a valid post");
    let mut lift = ColliderDef::new(Segment::new(v(2.0, -16.0), v(10.0, -16.0)).expect("in range"));
    lift.velocity = v(0.0, 0.0625);
    lift.friction = S::ONE;
    w.add_collider(lift).expect("a valid lift");
    let mut zone = ColliderDef::new(Circle::new(v(-10.0, 8.0), S::from_f64(3.0)).expect("in range"));
    zone.sensor = true;
    w.add_collider(zone).expect("a valid sensor");
    for &(x, y, vx, vy, e) in bodies {
        let mut def = BodyDef::new(v(x, y), S::from_f64(0.5));
        def.velocity = v(vx, vy);
        def.restitution = S::from_f64(e);
        def.friction = S::from_f64(0.25);
        w.add_body(def).expect("a valid body");
    }
    w
}

/// Events are the same on a re-simulation after rollback: restoring a
/// snapshot and stepping again gives every tick's events (and checksum)
/// exactly as the first time, inputs included.
fn events_are_the_same_after_a_rollback<S: Testable>(
    (bodies, back): (Vec<Thrown>, usize),
) -> Result<(), TestCaseError> {
    let mut w = busy::<S>(&bodies);
    let ids: Vec<BodyId> = w.bodies().iter().map(geom_core::world::Body::id).collect();
    let input = |w: &mut World<S>, tick: usize| {
        if tick.is_multiple_of(17) {
            // Within range for every body of the scene: never refused.
            w.apply_impulse(ids[tick % ids.len()], v(0.25, 0.5)).expect("an impulse within range");
        }
        if tick % 40 == 20 {
            let lift = w.colliders()[5].id();
            let up = w.collider(lift).expect("the lift").velocity();
            w.set_collider_velocity(lift, -up).expect("a valid velocity");
        }
    };
    let mut first = Vec::new();
    let mut saved = None;
    for tick in 0..120 {
        if tick == back {
            saved = Some(w.snapshot());
        }
        input(&mut w, tick);
        w.step();
        first.push((w.checksum(), w.events().to_vec()));
    }
    w.restore(&saved.expect("a snapshot"));
    for (tick, (checksum, events)) in first.iter().enumerate().skip(back) {
        input(&mut w, tick);
        w.step();
        prop_assert_eq!(w.checksum(), *checksum, "{}: tick {}", S::NAME, tick + 1);
        prop_assert_eq!(w.events(), &events[..], "{}: tick {}", S::NAME, tick + 1);
    }
    Ok(())
}

/// `apply_impulse` conserves momentum between two bodies: equal and
/// opposite impulses change `m·v` of the two by equal and opposite
/// amounts, to within the rounding of each velocity change.
fn impulses_conserve_momentum<S: Testable>(
    ((ia, ib), (jx, jy)): ((f64, f64), (f64, f64)),
) -> Result<(), TestCaseError> {
    let mut w = world::<S>(0.0);
    let mut body = |x: f64, inverse_mass: f64| {
        let mut def = BodyDef::new(v(x, 0.0), S::ONE);
        def.inverse_mass = S::from_f64(inverse_mass);
        w.add_body(def).expect("a valid body")
    };
    let (a, b) = (body(-5.0, ia), body(5.0, ib));
    w.apply_impulse(a, v(jx, jy)).expect("a valid impulse");
    w.apply_impulse(b, v(-jx, -jy)).expect("a valid impulse");
    let momentum = |id: BodyId| {
        let body = w.body(id).expect("the body");
        let m = 1.0 / body.inverse_mass().to_f64();
        (m * body.velocity().x.to_f64(), m * body.velocity().y.to_f64())
    };
    let ((ax, ay), (bx, by)) = (momentum(a), momentum(b));
    let slack = (1.0 / ia + 1.0 / ib) * S::tolerance(jx.abs().max(jy.abs()) * ia.max(ib), 1.0);
    prop_assert!(
        (ax + bx).abs() <= slack && (ay + by).abs() <= slack,
        "{}: momentum ({}, {}) after equal and opposite impulses",
        S::NAME,
        ax + bx,
        ay + by
    );
    Ok(())
}

/// Layer filtering is symmetric: two filters match each other both ways
/// or neither, and two bodies meeting collide (and report a contact)
/// exactly when their filters match, whichever of them carries which.
fn layer_filtering_is_symmetric<S: Testable>((fa, fb): (Filter, Filter)) -> Result<(), TestCaseError> {
    prop_assert_eq!(fa.matches(fb), fb.matches(fa));
    for (first, second) in [(fa, fb), (fb, fa)] {
        let mut w = world::<S>(0.0);
        let mut body = |x: f64, vx: f64, filter: Filter| {
            let mut def = BodyDef::new(v(x, 0.0), S::ONE);
            def.velocity = v(vx, 0.0);
            def.filter = filter;
            w.add_body(def).expect("a valid body")
        };
        let (a, b) = (body(-3.0, 0.5, first), body(3.0, -0.5, second));
        let mut touched = false;
        for _ in 0..12 {
            w.step();
            touched |= w.contacts().contains(&(a, Id::Body(b)));
        }
        prop_assert_eq!(touched, fa.matches(fb), "{}: {:?} and {:?}", S::NAME, first, second);
        // Matching filters bounce the bodies apart; others pass through.
        let passed = w.body(a).expect("a").position().x > w.body(b).expect("b").position().x;
        prop_assert_eq!(passed, !fa.matches(fb));
    }
    Ok(())
}

fn filter() -> impl Strategy<Value = Filter> {
    let bits = prop::sample::select(vec![0_u32, 1, 2, 3, 4, 6, 0xffff_0000, u32::MAX]);
    (bits.clone(), bits).prop_map(|(layer, mask)| Filter { layer, mask })
}

macro_rules! world_properties {
    ($module:ident, $t:ty) => {
        mod $module {
            use super::*;
            type T = $t;

            proptest! {
                #![proptest_config(config())]

                #[test]
                fn no_body_crosses_a_divider(scene in dividers()) {
                    super::no_body_crosses_a_divider::<T>(&scene)?;
                }

                #[test]
                fn friction_never_speeds_a_slider_up(
                    case in (grid(-4.0, 4.0), grid(0.0, 2.0), grid(0.0, 2.0), grid(0.0, 2.0), grid(0.0, 0.25))
                ) {
                    super::friction_never_speeds_a_slider_up::<T>(case)?;
                }

                #[test]
                fn collisions_between_bodies_never_add_energy(
                    case in ((grid(0.25, 3.0), grid(0.0, 3.0)), (grid(0.25, 2.0), grid(0.0, 2.0)), grid(-1.5, 1.5), (grid(0.0, 1.0), grid(0.0, 2.0)))
                ) {
                    super::collisions_between_bodies_never_add_energy::<T>(case)?;
                }

                #[test]
                fn a_sensor_never_pushes(
                    case in ((grid(-10.0, 10.0), grid(-8.0, 5.0), grid(0.0, 4.0)), prop::collection::vec((grid(-12.0, 12.0), grid(-8.0, 8.0), grid(-0.5, 0.5), grid(-0.5, 0.5)), 1..6))
                ) {
                    super::a_sensor_never_pushes::<T>(case)?;
                }

                #[test]
                fn events_are_the_same_after_a_rollback(
                    case in (prop::collection::vec((grid(-18.0, 18.0), grid(-15.0, 18.0), grid(-1.0, 1.0), grid(-1.0, 1.0), grid(0.0, 1.0)), 1..8), 0_usize..100)
                ) {
                    super::events_are_the_same_after_a_rollback::<T>(case)?;
                }

                #[test]
                fn impulses_conserve_momentum(
                    case in ((grid(0.25, 4.0), grid(0.25, 4.0)), (grid(-8.0, 8.0), grid(-8.0, 8.0)))
                ) {
                    super::impulses_conserve_momentum::<T>(case)?;
                }

                #[test]
                fn layer_filtering_is_symmetric(case in (filter(), filter())) {
                    super::layer_filtering_is_symmetric::<T>(case)?;
                }
            }
        }
    };
}

world_properties!(f32_world, f32);
world_properties!(f64_world, f64);
world_properties!(i16f16_world, fixed::types::I16F16);
world_properties!(i32f32_world, fixed::types::I32F32);
world_properties!(i48f16_world, fixed::types::I48F16);
