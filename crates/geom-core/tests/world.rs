//! Tests of the stepping world, written once and run for each scalar type.

mod common;

use common::{TestScalar, v};
use geom_core::world::{BodyDef, BodyId, Collider, World, WorldConfig, WorldError, sync_test};
use geom_core::{Capsule, Circle, Segment, ShapeError, Vec2, contact_circle_capsule, contact_circle_segment};

/// A deterministic generator for scene values (`SplitMix64`).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)` on a 2^-8 grid, exact in every type.
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        let unit = (self.next() >> 11) as f64 / (1_u64 << 53) as f64;
        ((lo + (hi - lo) * unit) * 256.0).floor() / 256.0
    }
}

fn world<S: TestScalar>(gravity: f64) -> World<S> {
    World::new(WorldConfig::new(v(0.0, gravity))).expect("valid config")
}

fn segment<S: TestScalar>(ax: f64, ay: f64, bx: f64, by: f64) -> Collider<S> {
    Collider::Segment(Segment::new(v(ax, ay), v(bx, by)).expect("in range"))
}

fn body<S: TestScalar>(world: &mut World<S>, x: f64, y: f64, r: f64, vx: f64, vy: f64, e: f64) -> BodyId {
    let mut def = BodyDef::new(v(x, y), S::lit(r));
    def.velocity = v(vx, vy);
    def.restitution = S::lit(e);
    world.add_body(def).expect("valid body")
}

/// A box of thin walls (segments) from -20 to 20 with a slanted segment and
/// a capsule inside, and fast bodies bouncing around in it.
fn pinball<S: TestScalar>(bodies: usize, speed: f64) -> World<S> {
    let mut w = world::<S>(-0.02);
    for c in [
        segment(-20.0, -20.0, 20.0, -20.0),
        segment(20.0, -20.0, 20.0, 20.0),
        segment(20.0, 20.0, -20.0, 20.0),
        segment(-20.0, 20.0, -20.0, -20.0),
        segment(-12.0, 4.0, 6.0, -6.0),
        Collider::Capsule(Capsule::new(v(4.0, 10.0), v(14.0, 12.0), S::lit(1.0)).expect("in range")),
        Collider::Circle(Circle::new(v(-10.0, -12.0), S::lit(2.0)).expect("in range")),
    ] {
        w.add_collider(c);
    }
    let mut rng = Rng(0x5EED);
    for _ in 0..bodies {
        let (x, y) = (rng.range(-18.0, 18.0), rng.range(8.0, 18.0));
        let (vx, vy) = (rng.range(-speed, speed), rng.range(-speed, speed));
        let r = rng.range(0.25, 1.0);
        let e = rng.range(0.0, 1.0);
        body(&mut w, x, y, r, vx, vy, e);
    }
    w
}

/// Whether a body penetrates a collider by more than the type's tolerance.
fn penetration<S: TestScalar>(circle: &Circle<S>, collider: &Collider<S>) -> f64 {
    let contact = match collider {
        Collider::Segment(s) => contact_circle_segment(circle, s),
        Collider::Capsule(c) => contact_circle_capsule(circle, c),
        Collider::Circle(c) => geom_core::contact_circle_circle(circle, c),
    };
    contact.map_or(0.0, |c| c.depth.f())
}

fn fast_bodies_never_tunnel_through_thin_walls<S: TestScalar>() {
    // Up to 6 units a tick: many times the radii and far more than the
    // walls' thickness, which is zero.
    let mut w = pinball::<S>(24, 6.0);
    for tick in 0..400 {
        w.step();
        for b in w.bodies() {
            let p = b.position();
            assert!(
                p.x.f().abs() < 20.0 && p.y.f().abs() < 20.0,
                "tick {tick}: body {:?} left the box at {p:?}",
                b.id()
            );
            for (id, collider) in w.colliders() {
                let depth = penetration(&b.circle(), collider);
                assert!(depth <= 4.0 * S::TOL, "tick {tick}: body {:?} is {depth} into collider {id:?}", b.id());
            }
        }
    }
}

fn a_dropped_ball_comes_to_rest_on_the_floor<S: TestScalar>() {
    let mut w = world::<S>(-0.05);
    w.add_collider(segment(-10.0, 0.0, 10.0, 0.0));
    let ball = body(&mut w, 0.0, 6.0, 0.5, 0.0, 0.0, 0.5);
    for _ in 0..600 {
        w.step();
    }
    let resting = w.body(ball).unwrap().def();
    assert!((resting.position.y.f() - 0.5).abs() <= S::TOL, "resting at {:?}", resting.position);
    assert_eq!(resting.velocity, Vec2::ZERO);
    // At rest means no jitter: the same bits tick after tick.
    for _ in 0..100 {
        w.step();
        assert_eq!(w.body(ball).unwrap().def(), resting);
    }
}

fn a_resting_ball_given_an_upward_velocity_leaves_the_floor<S: TestScalar>() {
    let mut w = world::<S>(-0.05);
    w.add_collider(segment(-10.0, 0.0, 10.0, 0.0));
    let ball = body(&mut w, 0.0, 0.5, 0.5, 0.0, 0.0, 0.0);
    for _ in 0..10 {
        w.step();
    }
    let mut def = w.body(ball).unwrap().def();
    def.velocity = v(0.0, 1.0);
    w.set_body(ball, def).unwrap();
    w.step();
    let after = w.body(ball).unwrap();
    assert!(after.position().y.f() > 1.4, "still at {:?}", after.position());
    assert!(after.velocity().y.f() > 0.9);
}

fn a_bouncy_ball_bounces_back_up<S: TestScalar>() {
    let mut w = world::<S>(-0.05);
    w.add_collider(segment(-10.0, 0.0, 10.0, 0.0));
    let ball = body(&mut w, 0.0, 5.0, 0.5, 0.0, 0.0, 1.0);
    let mut highest_after_bounce: f64 = 0.0;
    let mut bounced = false;
    for _ in 0..200 {
        w.step();
        let b = w.body(ball).unwrap();
        bounced |= b.velocity().y.f() > 0.0;
        if bounced {
            highest_after_bounce = highest_after_bounce.max(b.position().y.f());
        }
    }
    // Perfectly elastic: back up to about where it started.
    assert!(highest_after_bounce > 4.5, "only back up to {highest_after_bounce}");
}

fn equal_balls_colliding_head_on_exchange_velocities<S: TestScalar>() {
    let mut w = world::<S>(0.0);
    let a = body(&mut w, 0.0, 0.0, 1.0, 0.5, 0.0, 1.0);
    let b = body(&mut w, 5.0, 0.0, 1.0, -0.5, 0.0, 1.0);
    for _ in 0..10 {
        w.step();
    }
    let (va, vb) = (w.body(a).unwrap().velocity(), w.body(b).unwrap().velocity());
    assert!((va.x.f() + 0.5).abs() <= 4.0 * S::TOL && (vb.x.f() - 0.5).abs() <= 4.0 * S::TOL, "{va:?} {vb:?}");
    // Momentum is conserved.
    assert!((va.x.f() + vb.x.f()).abs() <= 4.0 * S::TOL);
}

fn an_immovable_body_is_not_pushed<S: TestScalar>() {
    let mut w = world::<S>(-0.05);
    let mut def = BodyDef::new(v(0.0, 0.0), S::lit(2.0));
    def.inverse_mass = S::ZERO;
    let anchor = w.add_body(def).unwrap();
    let ball = body(&mut w, 0.0, 5.0, 0.5, 0.0, 0.0, 0.0);
    for _ in 0..300 {
        w.step();
    }
    assert_eq!(w.body(anchor).unwrap().position(), v(0.0, 0.0));
    let resting = w.body(ball).unwrap().position();
    assert!((resting.y.f() - 2.5).abs() <= 0.1, "the ball rests on the anchor, at {resting:?}");
}

fn identical_runs_give_identical_checksums_every_tick<S: TestScalar>() {
    let (mut a, mut b) = (pinball::<S>(30, 2.0), pinball::<S>(30, 2.0));
    for _ in 0..300 {
        a.step();
        b.step();
        assert_eq!(a.checksum(), b.checksum(), "tick {}", a.tick());
    }
}

fn rollback_and_resimulation_reproduce_every_checksum<S: TestScalar>() {
    let w = pinball::<S>(16, 1.5);
    let first = w.bodies()[0].id();
    let report = sync_test(&w, 1000, 8, |tick, world| {
        // An input every so often, replayed on rollback like any other.
        if tick % 97 == 0 {
            let mut def = world.body(first).unwrap().def();
            def.velocity = v(1.0, 1.0);
            world.set_body(first, def).unwrap();
        }
    });
    assert_eq!(report.first_mismatch, None);
    assert_eq!(report.ticks, 1000);
    assert_eq!(report.resimulated, (1000 - 8) * 8);
}

fn snapshots_restore_the_exact_state<S: TestScalar>() {
    let mut w = pinball::<S>(12, 2.0);
    for _ in 0..50 {
        w.step();
    }
    let saved = w.snapshot();
    let checksums: Vec<u64> = (0..50)
        .map(|_| {
            w.step();
            w.checksum()
        })
        .collect();
    w.restore(&saved);
    assert_eq!(w.tick(), 50);
    for expected in checksums {
        w.step();
        assert_eq!(w.checksum(), expected);
    }
}

fn bad_input_is_refused_and_leaves_the_world_unchanged<S: TestScalar>() {
    let mut w = pinball::<S>(4, 1.0);
    let before = w.checksum();
    let id = w.bodies()[0].id();
    let good = w.body(id).unwrap().def();
    let beyond = S::MAX_COORD.step_up();
    let cases: [(BodyDef<S>, WorldError); 5] = [
        (BodyDef { radius: -S::ONE, ..good }, WorldError::Shape(ShapeError::NegativeRadius)),
        (BodyDef { position: Vec2::new(beyond, S::ZERO), ..good }, WorldError::Shape(ShapeError::OutOfRange)),
        (BodyDef { velocity: Vec2::new(S::ZERO, -beyond), ..good }, WorldError::Velocity),
        (BodyDef { inverse_mass: -S::ONE, ..good }, WorldError::InverseMass),
        (BodyDef { restitution: S::ONE.step_up(), ..good }, WorldError::Restitution),
    ];
    for (def, error) in cases {
        assert_eq!(w.add_body(def), Err(error));
        assert_eq!(w.set_body(id, def), Err(error));
        assert_eq!(w.checksum(), before, "refusing {def:?} changed the world");
    }
    let gone = id;
    w.remove_body(gone).unwrap();
    assert_eq!(w.set_body(gone, good), Err(WorldError::UnknownBody(gone)));
}

fn moving_a_collider_keeps_its_id_and_order<S: TestScalar>() {
    let mut w = pinball::<S>(4, 1.0);
    let saved = w.snapshot();
    let before = w.checksum();
    let ids: Vec<_> = w.colliders().iter().map(|(id, _)| *id).collect();
    let moved = segment(-12.0, 5.0, 6.0, -5.0);
    w.set_collider(ids[4], moved).unwrap();
    assert_eq!(w.colliders().iter().map(|(id, _)| *id).collect::<Vec<_>>(), ids);
    assert_eq!(w.colliders()[4].1, moved);
    assert_ne!(w.checksum(), before, "the checksum covers collider shapes");
    w.restore(&saved);
    assert_eq!(w.checksum(), before, "the snapshot's shared colliders were not changed");
    let gone = w.colliders()[0].0;
    w.remove_collider(gone).unwrap();
    assert_eq!(w.set_collider(gone, moved), Err(WorldError::UnknownCollider(gone)));
}

/// Converting to another type and back through exact values changes no bit.
fn converting_to_f64_and_back_is_exact<S: TestScalar>() {
    let mut w = pinball::<S>(12, 2.0);
    for _ in 0..40 {
        w.step();
    }
    // Every f32, I16F16 and (at these magnitudes) I32F32/I48F16 value is
    // an f64, so the round trip is exact in every type.
    let wide = w.convert(TestScalar::f).unwrap();
    let back = wide.convert(S::lit).unwrap();
    assert_eq!(back.tick(), 40);
    assert_eq!(back.checksum(), w.checksum());
    w.step();
    let mut back = back;
    back.step();
    assert_eq!(back.checksum(), w.checksum(), "the converted world steps on identically");
}

fn converting_refuses_values_the_new_type_cannot_hold<S: TestScalar>() {
    let mut w = world::<f64>(-0.02);
    w.add_body(BodyDef::new(v(0.0, 0.0), 1.0)).unwrap();
    let beyond = S::MAX_COORD.f() * 4.0;
    assert!(w.convert(S::lit).is_ok());
    let mut far = w.clone();
    far.add_collider(segment(0.0, 0.0, beyond, 0.0));
    let err = far.convert(S::lit).unwrap_err();
    assert!(matches!(err, WorldError::Shape(ShapeError::OutOfRange | ShapeError::NotFinite)), "{err:?}");
    let mut fast = w.clone();
    let mut def = BodyDef::new(v(1.0, 1.0), 0.5);
    def.velocity = v(beyond, 0.0);
    fast.add_body(def).unwrap();
    assert_eq!(fast.convert(S::lit).unwrap_err(), WorldError::Velocity);
}

macro_rules! world_suite {
    ($module:ident, $t:ty) => {
        mod $module {
            type T = $t;
            world_suite!(@tests T;
                fast_bodies_never_tunnel_through_thin_walls,
                a_dropped_ball_comes_to_rest_on_the_floor,
                a_resting_ball_given_an_upward_velocity_leaves_the_floor,
                a_bouncy_ball_bounces_back_up,
                equal_balls_colliding_head_on_exchange_velocities,
                an_immovable_body_is_not_pushed,
                identical_runs_give_identical_checksums_every_tick,
                rollback_and_resimulation_reproduce_every_checksum,
                snapshots_restore_the_exact_state,
                bad_input_is_refused_and_leaves_the_world_unchanged,
                moving_a_collider_keeps_its_id_and_order,
                converting_to_f64_and_back_is_exact,
            );
        }
    };
    (@tests $t:ty; $($name:ident),* $(,)?) => {
        $(#[test] fn $name() { super::$name::<$t>(); })*
    };
}

world_suite!(f32_world, f32);
world_suite!(f64_world, f64);
world_suite!(i16f16_world, fixed::types::I16F16);
world_suite!(i32f32_world, fixed::types::I32F32);
world_suite!(i48f16_world, fixed::types::I48F16);

/// From an f64 world, to every narrower type.
mod narrowing {
    #[test]
    fn f32_refuses_values_it_cannot_hold() {
        super::converting_refuses_values_the_new_type_cannot_hold::<f32>();
    }
    #[test]
    fn i16f16_refuses_values_it_cannot_hold() {
        super::converting_refuses_values_the_new_type_cannot_hold::<fixed::types::I16F16>();
    }
    #[test]
    fn i32f32_refuses_values_it_cannot_hold() {
        super::converting_refuses_values_the_new_type_cannot_hold::<fixed::types::I32F32>();
    }
    #[test]
    fn i48f16_refuses_values_it_cannot_hold() {
        super::converting_refuses_values_the_new_type_cannot_hold::<fixed::types::I48F16>();
    }
}
