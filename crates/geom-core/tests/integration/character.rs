//! The character controller (issue 29, item 4), driven as a platformer
//! drives it: every tick the game adds its gravity to the player's
//! vertical speed (reset while grounded), asks `move_character` to move it,
//! then steps the world. Slopes, steps, a reversing platform, a one-way
//! platform at 1× and 10× speed, pushing a crate, and a long scripted run
//! whose grounded flag is checked against the shapes it touches, in every
//! scalar type.

use crate::common;

use common::{TestScalar, seg, v};
use geom_core::world::{BodyDef, BodyId, CharacterConfig, CharacterMove, ColliderDef, ColliderId, World, WorldConfig};
use geom_core::{Capsule, Vec2, contact_capsule_capsule};

/// The player: an upright capsule, core ±[`HALF`] about its position,
/// radius [`RADIUS`]; its feet are `HALF + RADIUS` below its position.
const HALF: f64 = 0.5;
const RADIUS: f64 = 0.25;
const FEET: f64 = HALF + RADIUS;
/// The cosine of 45°, the slope limit of these tests, rounded up a little
/// (as the default is).
const MIN_UP: f64 = 181.0 / 256.0;

fn config<S: TestScalar>() -> CharacterConfig<S> {
    let mut config = CharacterConfig::new();
    config.step_height = S::from_f64(0.4);
    config.min_floor_up = S::from_f64(MIN_UP);
    config
}

fn player<S: TestScalar>(world: &mut World<S>, x: f64, feet: f64) -> BodyId {
    let mut def = BodyDef::capsule(v(x, feet + FEET), v(0.0, -HALF), v(0.0, HALF), S::from_f64(RADIUS));
    def.inverse_mass = S::ZERO;
    world.add_body(def).unwrap()
}

fn empty<S: TestScalar>() -> World<S> {
    World::new(WorldConfig::new(v(0.0, 0.0))).unwrap()
}

/// A platformer's player: its vertical speed, kept by the game.
struct Runner<S> {
    id: BodyId,
    vy: f64,
    gravity: f64,
    config: CharacterConfig<S>,
    last: Option<CharacterMove<S>>,
}

impl<S: TestScalar> Runner<S> {
    fn new(id: BodyId, gravity: f64) -> Self {
        Self { id, vy: 0.0, gravity, config: config(), last: None }
    }

    /// One tick: gravity (the speed reset to one tick's pull while on the
    /// ground), `jump` replacing it, the move, then the world's step.
    fn tick(&mut self, world: &mut World<S>, walk: f64, jump: Option<f64>) -> CharacterMove<S> {
        let grounded = self.last.is_some_and(|m| m.grounded());
        self.vy = if grounded { -self.gravity } else { self.vy - self.gravity };
        if let Some(speed) = jump {
            self.vy = speed;
        }
        let moved = world.move_character(self.id, v(walk, self.vy), &self.config).unwrap();
        if moved.ceiling && self.vy > 0.0 {
            self.vy = 0.0;
        }
        world.step();
        self.last = Some(moved);
        moved
    }

    fn position(&self, world: &World<S>) -> Vec2<S> {
        world.body(self.id).unwrap().position()
    }

    fn feet(&self, world: &World<S>) -> f64 {
        self.position(world).y.to_f64() - FEET
    }
}

/// A slope through the origin rising at `degrees`, 20 long each way.
fn slope<S: TestScalar>(degrees: f64) -> geom_core::Segment<S> {
    let (s, c) = degrees.to_radians().sin_cos();
    seg::<S>(-20.0 * c, -20.0 * s, 20.0 * c, 20.0 * s)
}

/// On a 30° slope (limit 45°) the player, with nothing but gravity, stands
/// exactly still: the same position bits for 600 ticks, grounded on each.
fn stands_still_on_a_walkable_slope<S: TestScalar>() {
    let mut world = empty::<S>();
    world.add_collider(slope::<S>(30.0)).unwrap();
    let id = player(&mut world, 0.0, 1.0);
    let mut runner = Runner::new(id, 0.02);
    for _ in 0..120 {
        runner.tick(&mut world, 0.0, None);
    }
    let rest = runner.position(&world);
    for tick in 0..600 {
        let moved = runner.tick(&mut world, 0.0, None);
        assert!(moved.grounded(), "tick {tick}: not grounded on a 30° slope");
        assert_eq!(runner.position(&world), rest, "tick {tick}: moved on a 30° slope");
    }
}

/// On a 60° slope (limit 45°) the player slides down, and is not grounded
/// while it does.
fn slides_down_a_slope_too_steep<S: TestScalar>() {
    let mut world = empty::<S>();
    world.add_collider(slope::<S>(60.0)).unwrap();
    let id = player(&mut world, 0.0, 1.0);
    let mut runner = Runner::new(id, 0.02);
    for _ in 0..30 {
        runner.tick(&mut world, 0.0, None);
    }
    let before = runner.position(&world);
    for _ in 0..60 {
        let moved = runner.tick(&mut world, 0.0, None);
        assert!(!moved.grounded());
    }
    let after = runner.position(&world);
    assert!(after.y.to_f64() < before.y.to_f64() - 1.0, "slid down: {before:?} → {after:?}");
    assert!(after.x.to_f64() < before.x.to_f64(), "down the slope, to the left");
}

/// A floor with a block from x = 2 on whose top is `height` up.
fn block_world<S: TestScalar>(height: f64) -> World<S> {
    let mut world = empty::<S>();
    world.add_collider(seg::<S>(-20.0, 0.0, 20.0, 0.0)).unwrap();
    world.add_collider(seg::<S>(2.0, 0.0, 2.0, height)).unwrap();
    world.add_collider(seg::<S>(2.0, height, 20.0, height)).unwrap();
    world
}

/// Walking right at 0.1 a tick, the player (step height 0.4) climbs a
/// 0.3 step and walks on along its top; a 0.5 step stops it.
fn climbs_a_low_step_not_a_high_one<S: TestScalar>() {
    let mut world = block_world::<S>(0.3);
    let id = player(&mut world, 0.0, 0.0);
    let mut runner = Runner::new(id, 0.02);
    let mut stepped = false;
    for _ in 0..80 {
        stepped |= runner.tick(&mut world, 0.1, None).stepped;
    }
    assert!(stepped, "it stepped up");
    assert!(runner.position(&world).x.to_f64() > 7.0, "walked on along the top");
    assert!((runner.feet(&world) - 0.3).abs() < 1e-3, "standing on the step, feet at {}", runner.feet(&world));
    assert!(runner.last.unwrap().grounded());

    let mut world = block_world::<S>(0.5);
    let id = player(&mut world, 0.0, 0.0);
    let mut runner = Runner::new(id, 0.02);
    for _ in 0..80 {
        let moved = runner.tick(&mut world, 0.1, None);
        assert!(!moved.stepped);
    }
    let p = runner.position(&world);
    assert!((p.x.to_f64() - (2.0 - RADIUS)).abs() <= S::TOL, "against the step's face, at {p:?}");
    assert!(runner.feet(&world).abs() < 1e-3, "still on the floor");
}

/// A player walking slowly (0.02 a tick, a fifth of its radius) steps up
/// a 0.2 step too: the step takes it onto the step's top, not onto its
/// rounded edge, where its foot would find no walkable ground. (It stood
/// against the step forever.)
fn a_slow_walker_steps_up_a_low_step<S: TestScalar>() {
    let mut world = empty::<S>();
    world.add_collider(seg::<S>(-20.0, 0.0, 20.0, 0.0)).unwrap();
    world.add_collider(seg::<S>(1.0, 0.0, 1.0, 0.2)).unwrap();
    world.add_collider(seg::<S>(1.0, 0.2, 9.0, 0.2)).unwrap();
    let id = player(&mut world, 0.0, 0.0);
    let mut runner = Runner::new(id, 0.02);
    for _ in 0..300 {
        runner.tick(&mut world, 0.02, None);
    }
    assert!(runner.position(&world).x.to_f64() > 3.0, "walked on along the top: {:?}", runner.position(&world));
    assert!((runner.feet(&world) - 0.2).abs() < 1e-3 && runner.last.unwrap().grounded());
}

/// A player falling beside the end of a platform that moves towards it is
/// pushed along by the platform and falls on: it slides in the platform's
/// frame. (In fixed point it hung there, carried along.)
fn falls_beside_a_platform_moving_at_it<S: TestScalar>() {
    for (x, walk) in [(0.26, 0.0), (0.26, -0.1), (0.3, -0.1)] {
        let mut world = empty::<S>();
        let mut def = ColliderDef::new(seg::<S>(-3.0, 2.4, 0.0, 2.4));
        def.velocity = v(0.03, 0.0);
        world.add_collider(def).unwrap();
        let id = player(&mut world, x, 2.5 - FEET);
        for _ in 0..30 {
            world.move_character(id, v(walk, -0.4), &config()).unwrap();
            world.step();
        }
        let y = world.body(id).unwrap().position().y.to_f64();
        assert!(y < 2.5 - 10.0, "from x = {x}, walking {walk}: fell on past the platform, at y = {y}");
    }
}

/// A player on the ground pressed against a wall jumps: the rule that a
/// wall is not climbed by sliding keeps a jump's own rise. (It stood
/// still, grounded.)
fn jumps_while_pressed_against_a_wall<S: TestScalar>() {
    let mut world = empty::<S>();
    world.add_collider(seg::<S>(-20.0, 0.0, 20.0, 0.0)).unwrap();
    world.add_collider(seg::<S>(1.0, 0.0, 1.0, 5.0)).unwrap();
    let id = player(&mut world, 1.0 - RADIUS, 0.0);
    let moved = world.move_character(id, v(0.1, 0.34375), &config()).unwrap();
    assert!((moved.motion.y.to_f64() - 0.34375).abs() < 1e-3, "{moved:?}");
    assert!(moved.wall && !moved.grounded());
}

/// A platform moving 1/16 a tick, turned round every 120 ticks, carries
/// the player standing on it for 2,000 ticks: the player's place on it
/// never changes (every value here is dyadic, so not even by a rounding
/// step), and it is grounded on the platform throughout. The same for a
/// lift going up and down.
fn rides_a_reversing_platform_without_drifting<S: TestScalar>() {
    for velocity in [(0.0625, 0.0), (0.0, 0.0625)] {
        let mut world = empty::<S>();
        let mut def = ColliderDef::new(seg::<S>(-3.0, 1.0, 3.0, 1.0));
        def.velocity = v(velocity.0, velocity.1);
        let platform = world.add_collider(def).unwrap();
        let id = player(&mut world, 0.5, 1.0);
        let mut runner = Runner::new(id, 0.02);
        let offset = |world: &World<S>| {
            let shape = world.collider(platform).unwrap().shape();
            let (low, _) = shape.bounds();
            runner_offset(world.body(id).unwrap().position(), low)
        };
        runner.tick(&mut world, 0.0, None);
        let start = offset(&world);
        for tick in 1..2000 {
            if tick % 120 == 0 {
                let turned = -world.collider(platform).unwrap().velocity();
                world.set_collider_velocity(platform, turned).unwrap();
            }
            let moved = runner.tick(&mut world, 0.0, None);
            assert!(moved.grounded(), "tick {tick}: off the platform");
            assert_eq!(offset(&world), start, "tick {tick}: drifted on the platform");
        }
    }
}

fn runner_offset<S: TestScalar>(p: Vec2<S>, corner: Vec2<S>) -> (S, S) {
    (p.x - corner.x, p.y - corner.y)
}

/// The player jumps from the floor up through a one-way platform at y = 3
/// and lands on it; at `speed` times the speed (and `speed²` the gravity)
/// too. Once its feet have been above the platform, they are never below
/// it again.
fn jumps_through_a_one_way_platform_and_lands<S: TestScalar>(speed: f64) {
    let mut world = empty::<S>();
    world.add_collider(seg::<S>(-20.0, 0.0, 20.0, 0.0)).unwrap();
    let mut ledge = ColliderDef::new(seg::<S>(-4.0, 3.0, 4.0, 3.0));
    ledge.one_way = Some(v(0.0, 1.0));
    world.add_collider(ledge).unwrap();
    let id = player(&mut world, 0.0, 0.0);
    let mut runner = Runner::new(id, 0.02 * speed * speed);
    runner.tick(&mut world, 0.0, None);
    let (mut above, mut highest) = (false, f64::MIN);
    runner.tick(&mut world, 0.0, Some(0.4 * speed));
    for tick in 0..(300.0 / speed) as u32 {
        runner.tick(&mut world, 0.0, None);
        let feet = runner.feet(&world);
        highest = highest.max(feet);
        above |= feet >= 3.0;
        if above {
            assert!(feet >= 3.0 - 1e-3, "tick {tick}: feet at {feet}, inside the platform");
        }
    }
    assert!(highest > 3.5, "the jump cleared the platform ({highest})");
    assert!((runner.feet(&world) - 3.0).abs() < 1e-3, "standing on it");
    assert!(runner.last.unwrap().grounded());
}

fn jumps_through_a_one_way_platform_and_lands_at_normal_speed<S: TestScalar>() {
    jumps_through_a_one_way_platform_and_lands::<S>(1.0);
}

fn jumps_through_a_one_way_platform_and_lands_at_ten_times_the_speed<S: TestScalar>() {
    jumps_through_a_one_way_platform_and_lands::<S>(10.0);
}

/// Walking into a crate pushes it, by at most the configured impulse a
/// hit; the player never ends inside it.
fn pushes_a_crate_with_a_bounded_impulse<S: TestScalar>() {
    let mut world = World::new(WorldConfig::new(v(0.0, -0.02))).unwrap();
    world.add_collider(seg::<S>(-20.0, 0.0, 40.0, 0.0)).unwrap();
    let id = player(&mut world, 0.0, 0.0);
    let mut crate_def = BodyDef::new(v(1.5, 0.5), S::from_f64(0.5));
    crate_def.friction = S::from_f64(0.2);
    let crate_id = world.add_body(crate_def).unwrap();
    let mut runner = Runner::new(id, 0.02);
    for _ in 0..30 {
        runner.tick(&mut world, 0.0, None);
    }
    let start = world.body(crate_id).unwrap().position().x.to_f64();
    for _ in 0..200 {
        runner.tick(&mut world, 0.05, None);
        let (p, c) = (runner.position(&world), world.body(crate_id).unwrap().position());
        let apart = (c.x.to_f64() - p.x.to_f64())
            .hypot(c.y.to_f64() - p.y.to_f64().clamp(c.y.to_f64() - HALF, c.y.to_f64() + HALF));
        assert!(apart >= 0.75 - 1e-3, "the player is inside the crate ({apart})");
    }
    let moved = world.body(crate_id).unwrap().position().x.to_f64() - start;
    assert!(moved > 3.0, "the crate was pushed ({moved})");
}

/// Whether the player's capsule, grown by `tolerance`, touches a collider
/// along a walkable normal (a one-way collider only where the player is
/// not inside it by more than a thousandth): the world's contacts, found
/// independently of the controller.
fn walkable_contact<S: TestScalar>(world: &World<S>, id: BodyId, tolerance: f64) -> bool {
    let body = world.body(id).unwrap().capsule();
    let grown =
        Capsule::new(body.segment().start(), body.segment().end(), body.radius() + S::from_f64(tolerance)).unwrap();
    world.colliders().iter().any(|c| {
        contact_capsule_capsule(&grown, &c.shape().as_capsule()).is_some_and(|contact| {
            // A one-way collider counts where the player is on it, not
            // part-way through it.
            let inside = contact.depth.to_f64() - tolerance > 1e-3;
            contact.normal.y.to_f64() >= MIN_UP && (c.one_way().is_none() || !inside)
        })
    })
}

/// A course (floor, a 30° ramp, a 0.3 step, a one-way ledge, a moving
/// platform and walls) run for 10,000 ticks of scripted input (walking both ways,
/// jumping every so often): on every tick, grounded agrees with the
/// player's contacts, found with the public queries: grounded means a
/// walkable contact within a hair (a thousandth), and not grounded means
/// none touching at all.
fn grounded_agrees_with_the_contacts_every_tick<S: TestScalar>() {
    let mut world = empty::<S>();
    world.add_collider(seg::<S>(-30.0, 0.0, 30.0, 0.0)).unwrap();
    world.add_collider(seg::<S>(-30.0, 0.0, -30.0, 20.0)).unwrap();
    world.add_collider(seg::<S>(30.0, 0.0, 30.0, 20.0)).unwrap();
    // A 30° ramp up to the left, ending in a wall.
    world.add_collider(seg::<S>(-12.0, 0.0, -20.0, 4.618_802_153_517_006)).unwrap();
    world.add_collider(seg::<S>(-20.0, 0.0, -20.0, 4.618_802_153_517_006)).unwrap();
    world.add_collider(seg::<S>(5.0, 0.0, 5.0, 0.3)).unwrap();
    world.add_collider(seg::<S>(5.0, 0.3, 12.0, 0.3)).unwrap();
    let mut ledge = ColliderDef::new(seg::<S>(14.0, 2.5, 20.0, 2.5));
    ledge.one_way = Some(v(0.0, 1.0));
    world.add_collider(ledge).unwrap();
    // A low platform (a step up) moving 2.5 each way.
    let mut lift = ColliderDef::new(seg::<S>(20.5, 0.25, 24.5, 0.25));
    lift.velocity = v(0.03125, 0.0);
    let lift: ColliderId = world.add_collider(lift).unwrap();
    let id = player(&mut world, 0.0, 0.0);
    let mut runner = Runner::new(id, 0.02);
    let (mut grounded_ticks, mut airborne_ticks) = (0, 0);
    let (mut stood_on, mut stepped) = (std::collections::BTreeSet::new(), 0);
    for tick in 0..10_000_u32 {
        if tick % 160 == 80 {
            let turned = -world.collider(lift).unwrap().velocity();
            world.set_collider_velocity(lift, turned).unwrap();
        }
        let walk = if (tick / 700) % 2 == 0 { 0.09 } else { -0.09 };
        // Now and then, and before the ledge to land on it.
        let x = runner.position(&world).x.to_f64();
        let before_ledge = walk > 0.0 && (11.8..12.6).contains(&x);
        let jump = ((tick % 97 == 0 || before_ledge) && runner.last.is_some_and(|m| m.grounded())).then_some(0.4);
        let moved = runner.tick(&mut world, walk, jump);
        if let Some(g) = moved.ground {
            stood_on.insert(g.other);
        }
        stepped += u32::from(moved.stepped);
        if moved.grounded() {
            grounded_ticks += 1;
            assert!(walkable_contact(&world, id, 1e-3), "tick {tick}: grounded without a walkable contact");
        } else {
            airborne_ticks += 1;
            assert!(!walkable_contact(&world, id, 0.0), "tick {tick}: touching walkable ground, not grounded");
        }
    }
    assert!(grounded_ticks > 5000 && airborne_ticks > 500, "{grounded_ticks} grounded, {airborne_ticks} not");
    // Every part of the course: floor, ramp, the step's top, the one-way
    // ledge and the moving platform; and steps up.
    for part in [0, 3, 6, 7, 8] {
        let part = geom_core::world::Id::Collider(world.colliders()[part].id());
        assert!(stood_on.contains(&part), "never stood on {part:?}: {stood_on:?}");
    }
    assert!(stepped > 0);
}

/// A player a quarter of the range up inside a platform as wide as the
/// range, which moves the range's length a tick (the fastest a collider
/// may), is pushed out and carried up to the range's edge, and no
/// further: it ends inside the range, and the move it reports is the one
/// it made, itself within the range. Before, the move reported was where
/// the slide went, not where the body was put (in every type), and the
/// fuzzer found an `f32` one of twice the range (kept in
/// `fuzz/regressions/world/`).
fn pushed_out_of_a_platform_at_the_range_edge_stays_within_the_range<S: TestScalar>() {
    let mut world = empty::<S>();
    let mut platform = ColliderDef::new(geom_core::Circle::new(v(0.0, 0.0), S::MAX_COORD).unwrap());
    platform.velocity = Vec2::new(S::MAX_COORD, S::MAX_COORD);
    world.add_collider(platform).unwrap();
    let mut def = BodyDef::new(Vec2::new(S::ZERO, S::MAX_COORD * S::from_f64(0.25)), S::ZERO);
    def.inverse_mass = S::ZERO;
    let id = world.add_body(def).unwrap();
    let start = world.body(id).unwrap().position();
    let moved = world.move_character(id, v(-31.0, 0.0), &config()).unwrap();
    let end = world.body(id).unwrap().position();
    let within = |p: Vec2<S>| [p.x, p.y].iter().all(|&c| c <= S::MAX_COORD && c >= -S::MAX_COORD);
    assert!(within(end), "ends at {end:?}");
    assert!(within(moved.motion), "reports {moved:?}");
    assert_eq!(moved.motion, end - start, "reports the move it made");
    assert_eq!(end.y, S::MAX_COORD, "carried up to the range's edge: {end:?}");
}

/// A body that is not kinematic, or a setting out of range, is refused
/// with a typed error and moves nothing.
fn bad_input_is_refused_and_changes_nothing<S: TestScalar>() {
    use geom_core::world::WorldError;
    let mut world = block_world::<S>(0.3);
    let id = player(&mut world, 0.0, 0.0);
    let heavy = world.add_body(BodyDef::new(v(-5.0, 1.0), S::from_f64(0.5))).unwrap();
    let before = world.checksum();
    assert_eq!(world.move_character(heavy, v(1.0, 0.0), &config()), Err(WorldError::Character));
    let mut bad = config::<S>();
    bad.up = Vec2::ZERO;
    assert_eq!(world.move_character(id, v(1.0, 0.0), &bad), Err(WorldError::Character));
    let mut bad = config::<S>();
    bad.step_height = S::from_f64(-1.0);
    assert_eq!(world.move_character(id, v(1.0, 0.0), &bad), Err(WorldError::Character));
    let far = v(0.0, 0.0) + Vec2::new(S::MAX_COORD, S::MAX_COORD) + Vec2::new(S::MAX_COORD, S::ZERO);
    assert_eq!(world.move_character(id, far, &config()), Err(WorldError::Velocity));
    assert_eq!(world.checksum(), before);
}

macro_rules! character_suite {
    ($module:ident, $t:ty) => {
        mod $module {
            type T = $t;
            character_suite!(@tests T;
                stands_still_on_a_walkable_slope,
                slides_down_a_slope_too_steep,
                climbs_a_low_step_not_a_high_one,
                a_slow_walker_steps_up_a_low_step,
                falls_beside_a_platform_moving_at_it,
                jumps_while_pressed_against_a_wall,
                rides_a_reversing_platform_without_drifting,
                jumps_through_a_one_way_platform_and_lands_at_normal_speed,
                jumps_through_a_one_way_platform_and_lands_at_ten_times_the_speed,
                pushes_a_crate_with_a_bounded_impulse,
                grounded_agrees_with_the_contacts_every_tick,
                bad_input_is_refused_and_changes_nothing,
                pushed_out_of_a_platform_at_the_range_edge_stays_within_the_range,
            );
        }
    };
    (@tests $t:ty; $($name:ident),* $(,)?) => {
        $(#[test] fn $name() { super::$name::<$t>(); })*
    };
}

character_suite!(f32_character, f32);
character_suite!(f64_character, f64);
character_suite!(i16f16_character, fixed::types::I16F16);
character_suite!(i32f32_character, fixed::types::I32F32);
character_suite!(i48f16_character, fixed::types::I48F16);
