//! Golden determinism digests: values pinned in `golden/digests.txt` that
//! any change to a single output bit would move: the checksum of a world
//! after [`WORLD_TICKS`] ticks, and a digest of every output bit of
//! [`QUERY_CASES`] answers of every query ([`stream`]), for each scalar
//! type. [`vectors`] holds the first cases of each stream in full.
//!
//! The file is compared by `tests/golden.rs` and rewritten only by
//! `cargo xtask golden --bless` (which points `GEOM_GOLDEN_BLESS` at a
//! token file of its own for that test, see [`blessing`]); a change to it
//! is a deliberate act that its commit explains.

pub mod stream;
pub mod vectors;

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use geom_core::world::{BodyDef, BodyId, ColliderDef, EventKind, Filter, Id, World, WorldConfig};
use geom_core::{Capsule, Circle, Segment, Vec2};

use crate::Testable;

/// The name of the digest file, relative to the crate.
pub const FILE: &str = "golden/digests.txt";

/// The world every scalar type's pinned checksum comes from: a box of thin
/// walls with slopes, a capsule, posts, a trough, and 40 bodies of mixed
/// sizes, masses and bounciness (two immovable), dropped under gravity with
/// fast starting velocities. Every value is on a 2^-8 grid, so it is the
/// same scene in every type.
///
/// # Examples
///
/// ```
/// let world = geom_test::golden::world::<f32>();
/// assert_eq!(world.bodies().len(), 40);
/// ```
pub fn world<S: Testable>() -> World<S> {
    let v = |x: f64, y: f64| Vec2::new(S::from_f64(x), S::from_f64(y));
    let mut world = World::new(WorldConfig::new(v(0.0, -1.0 / 64.0))).expect("a valid configuration");
    let segments = [
        ((-30.0, -20.0), (30.0, -20.0)),
        ((30.0, -20.0), (30.0, 25.0)),
        ((30.0, 25.0), (-30.0, 25.0)),
        ((-30.0, 25.0), (-30.0, -20.0)),
        ((-28.0, 6.0), (-8.0, -2.0)),
        ((8.0, -4.0), (28.0, 4.0)),
        ((-6.0, -14.0), (0.0, -18.0)),
        ((0.0, -18.0), (6.0, -14.0)),
    ];
    for (a, b) in segments {
        world.add_collider(Segment::new(v(a.0, a.1), v(b.0, b.1)).expect("in range")).expect("a valid collider");
    }
    let capsule = Capsule::new(v(-4.0, 8.0), v(6.0, 10.0), S::from_f64(1.25)).expect("in range");
    world.add_collider(capsule).expect("a valid collider");
    for (x, y, r) in [(-18.0, -10.0, 2.0), (18.0, -12.0, 1.5), (0.0, 16.0, 0.75)] {
        world.add_collider(Circle::new(v(x, y), S::from_f64(r)).expect("in range")).expect("a valid collider");
    }
    let mut state: u64 = 0x676f_6c64_656e;
    let mut next = |lo: f64, hi: f64| {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let unit = (state >> 11) as f64 / (1_u64 << 53) as f64;
        ((lo + (hi - lo) * unit) * 256.0).floor() / 256.0
    };
    for i in 0..40 {
        let mut def = BodyDef::new(v(next(-27.0, 27.0), next(12.0, 22.0)), S::from_f64(next(0.25, 1.25)));
        def.velocity = v(next(-3.0, 3.0), next(-3.0, 1.0));
        def.restitution = S::from_f64(next(0.0, 1.0));
        def.inverse_mass = if i % 20 == 19 { S::ZERO } else { S::from_f64(next(0.25, 2.0)) };
        world.add_body(def).expect("a valid body");
    }
    world
}

/// The checksum of [`world`] after `ticks` steps.
///
/// # Examples
///
/// ```
/// let a = geom_test::golden::world_checksum::<fixed::types::I16F16>(10);
/// assert_eq!(a, geom_test::golden::world_checksum::<fixed::types::I16F16>(10));
/// ```
pub fn world_checksum<S: Testable>(ticks: u64) -> u64 {
    let mut world = world::<S>();
    for _ in 0..ticks {
        world.step();
    }
    world.checksum()
}

/// The scene every feature of the world is pinned with: the box of
/// [`world`] with friction on its floor and slopes, a bouncy post, a lift
/// and a sliding door (moving colliders, turned round by inputs), a sensor
/// zone, bodies on three layers (one passing through another), sensor
/// bodies, point bodies (radius 0), gravity scales, tags, and every input
/// between ticks. Values are on a 2^-8 grid, and stay well inside every
/// type's range.
///
/// # Examples
///
/// ```
/// let world = geom_test::golden::features_world::<f32>();
/// assert_eq!(world.bodies().len(), 48);
/// assert!(world.colliders().iter().any(|c| c.is_sensor()));
/// ```
pub fn features_world<S: Testable>() -> World<S> {
    let v = |x: f64, y: f64| Vec2::new(S::from_f64(x), S::from_f64(y));
    let mut world = world::<S>();
    for collider in world.colliders().to_vec() {
        let mut def = collider.def();
        def.friction = S::from_f64(0.5);
        world.set_collider(collider.id(), def).expect("a valid collider");
    }
    let post = world.colliders()[9].id();
    let mut def = world.collider(post).expect("the post").def();
    def.restitution = S::ONE;
    world.set_collider(post, def).expect("a valid collider");
    let mut lift = ColliderDef::new(Segment::new(v(-26.0, -16.0), v(-20.0, -16.0)).expect("in range"));
    lift.velocity = v(0.0, 0.0625);
    lift.friction = S::ONE;
    world.add_collider(lift).expect("a valid collider");
    let mut door = ColliderDef::new(Capsule::new(v(12.0, -19.0), v(12.0, -15.0), S::from_f64(0.5)).expect("in range"));
    door.velocity = v(0.125, 0.0);
    door.tag = 7;
    world.add_collider(door).expect("a valid collider");
    let mut zone = ColliderDef::new(Circle::new(v(0.0, -10.0), S::from_f64(4.0)).expect("in range"));
    zone.sensor = true;
    zone.filter = Filter { layer: 1, mask: 0b011 };
    world.add_collider(zone).expect("a valid collider");
    for (i, body) in world.bodies().to_vec().into_iter().enumerate() {
        let mut def = body.def();
        def.friction = S::from_f64([0.0, 0.25, 1.0][i % 3]);
        def.gravity_scale = S::from_f64([1.0, 1.0, 0.5, -0.25, 2.0][i % 5]);
        // Layer-4 bodies pass through layer-2 bodies, and meet the rest.
        def.filter = Filter { layer: 1 << (i % 3), mask: if i % 3 == 2 { !0b010 } else { u32::MAX } };
        def.tag = 100 + i as u64;
        world.set_body(body.id(), def).expect("a valid body");
    }
    for i in 0..7 {
        let x = -21.0 + 6.0 * f64::from(i);
        let mut def = BodyDef::new(v(x, 20.0), if i < 4 { S::ZERO } else { S::from_f64(0.25) });
        def.velocity = v(if i % 2 == 0 { 2.5 } else { -2.5 }, -1.5);
        def.restitution = S::from_f64(0.75);
        world.add_body(def).expect("a valid body");
    }
    // A sensor body drifting across the box, weightless: it passes through
    // everything, and reports what it overlaps.
    let mut drifter = BodyDef::new(v(-24.0, -8.0), S::from_f64(1.5));
    drifter.velocity = v(0.03125, 0.0);
    drifter.gravity_scale = S::ZERO;
    drifter.sensor = true;
    world.add_body(drifter).expect("a valid body");
    world
}

/// The digest of [`features_world`] over `ticks` steps, with inputs between
/// them (impulses, velocities, a teleport, platforms turned round): every
/// tick's checksum and events, and world queries every ten ticks, hashed.
///
/// # Examples
///
/// ```
/// let a = geom_test::golden::features_digest::<fixed::types::I32F32>(20);
/// assert_eq!(a, geom_test::golden::features_digest::<fixed::types::I32F32>(20));
/// ```
pub fn features_digest<S: Testable>(ticks: u64) -> u64 {
    use std::hash::Hasher;
    let v = |x: f64, y: f64| Vec2::new(S::from_f64(x), S::from_f64(y));
    let mut world = features_world::<S>();
    let mut h = seahash::SeaHasher::new();
    let (scalar, id) = (write_scalars::<S>, write_id);
    let (lift, door) = (world.colliders()[12].id(), world.colliders()[13].id());
    let mut found = Vec::new();
    for tick in 0..ticks {
        let bodies: Vec<_> = world.bodies().iter().map(geom_core::world::Body::id).collect();
        if tick % 37 == 0 {
            let target = bodies[(tick / 37) as usize % bodies.len()];
            world.apply_impulse(target, v(0.5, 0.75)).expect("a valid impulse");
        }
        if tick % 53 == 0 {
            let target = bodies[(tick / 53 * 7) as usize % bodies.len()];
            world.set_velocity(target, v(-1.5, 2.0)).expect("a valid velocity");
        }
        if tick == 300 {
            world.set_position(bodies[5], v(0.0, 20.0)).expect("a valid position");
        }
        if tick % 160 == 80 {
            let up = world.collider(lift).expect("the lift").velocity();
            world.set_collider_velocity(lift, -up).expect("a valid velocity");
            let across = world.collider(door).expect("the door").velocity();
            world.set_collider_velocity(door, -across).expect("a valid velocity");
        }
        world.step();
        h.write_u64(world.checksum());
        for event in world.events() {
            h.write_u32(event.body.index());
            id(&mut h, event.other);
            h.write(event.kind.name().as_bytes());
            if let EventKind::Impact { t, point, normal, speed } = event.kind {
                scalar(&mut h, &[t, point.x, point.y, normal.x, normal.y, speed]);
            }
        }
        if tick % 10 == 0 {
            let from = v(-29.0 + f64::from((tick % 58) as u32), 24.0);
            match world.ray_cast(from, v(3.0, -50.0), Filter::ALL) {
                Some(hit) => {
                    id(&mut h, hit.id);
                    scalar(&mut h, &[hit.t, hit.point.x, hit.point.y, hit.normal.x, hit.normal.y]);
                }
                None => h.write_u8(0),
            }
            let circle = Circle::new(v(0.0, -12.0), S::from_f64(6.0)).expect("in range");
            world.overlap_circle(&circle, Filter::default(), &mut found);
            for &f in &found {
                id(&mut h, f);
            }
            if let Some(n) = world.nearest(v(5.0, 5.0), Filter::ALL) {
                id(&mut h, n.id);
                scalar(&mut h, &[n.point.x, n.point.y, n.distance]);
            }
        }
    }
    h.finish()
}

/// The contact solver's scene, pinned as a stream of its own: side by side
/// in one world, the scenes that a solver gets wrong first. A ball 128
/// times as heavy resting on a light one; ten balls in a tube exactly as
/// wide; five balls jammed between two walls, two of them at one point; a
/// bullet of radius 0.125 crossing 1.5 units a tick at an immovable
/// capsule body, and a sensor bullet crossing another; a jar of 80 balls
/// of radius 0.4 to 1.6 falling in; and a ball of restitution 1 in a
/// weightless pinball table of capsule bumpers. Every value is on a 2^-8
/// grid, so it is the same scene in every type.
///
/// # Examples
///
/// ```
/// let world = geom_test::golden::solver_world::<f64>();
/// assert_eq!(world.bodies().len(), 2 + 10 + 5 + 4 + 80 + 1);
/// ```
pub fn solver_world<S: Testable>() -> World<S> {
    let v = |x: f64, y: f64| Vec2::new(S::from_f64(x), S::from_f64(y));
    let r = S::from_f64;
    let mut world = World::new(WorldConfig::new(v(0.0, -1.0 / 64.0))).expect("a valid configuration");
    let wall = |world: &mut World<S>, (x0, y0): (f64, f64), (x1, y1): (f64, f64)| {
        world.add_collider(Segment::new(v(x0, y0), v(x1, y1)).expect("in range")).expect("a valid collider");
    };
    let ball = |x: f64, y: f64, radius: f64| BodyDef::new(v(x, y), r(radius));
    // The heavy ball on the light one.
    wall(&mut world, (-64.0, 0.0), (-56.0, 0.0));
    world.add_body(ball(-60.0, 0.5, 0.5)).expect("a valid body");
    let mut heavy = ball(-60.0, 1.5, 0.5);
    heavy.inverse_mass = r(1.0 / 128.0);
    world.add_body(heavy).expect("a valid body");
    // The tube.
    wall(&mut world, (-45.5, 0.0), (-44.5, 0.0));
    wall(&mut world, (-45.5, 0.0), (-45.5, 15.0));
    wall(&mut world, (-44.5, 0.0), (-44.5, 15.0));
    for k in 0..10 {
        world.add_body(ball(-45.0, 0.5 + f64::from(k), 0.5)).expect("a valid body");
    }
    // The jammed cluster.
    wall(&mut world, (-31.0, 0.0), (-28.0, 0.0));
    // Tall enough to hold the ball the jam's release throws up.
    wall(&mut world, (-30.0, 0.0), (-30.0, 160.0));
    wall(&mut world, (-28.8125, 0.0), (-28.8125, 160.0));
    for x in [-29.593_75, -29.593_75, -29.273_437_5, -29.210_937_5, -29.207_031_25] {
        world.add_body(ball(x, 0.40625, 0.40625)).expect("a valid body");
    }
    // The bullets, weightless, and the players, immovable.
    for (x, sensor) in [(-15.0, false), (-5.0, true)] {
        let mut player = BodyDef::capsule(v(x, 20.5), v(0.0, 0.0), v(0.0, 1.0), r(0.5));
        player.inverse_mass = S::ZERO;
        world.add_body(player).expect("a valid body");
        let mut bullet = ball(x + 1.5, 21.0, 0.125);
        bullet.velocity = v(-1.5, 0.0);
        bullet.gravity_scale = S::ZERO;
        bullet.sensor = sensor;
        world.add_body(bullet).expect("a valid body");
    }
    // The jar.
    wall(&mut world, (14.0, 0.0), (26.0, 0.0));
    wall(&mut world, (14.0, 0.0), (14.0, 100.0));
    wall(&mut world, (26.0, 0.0), (26.0, 100.0));
    let mut state: u64 = 0x006a_6172;
    for k in 0..80_u32 {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let radius = (0.4 + 1.2 * ((state >> 11) as f64 / (1_u64 << 53) as f64) * 256.0).floor() / 256.0;
        let (row, col) = (f64::from(k / 3), f64::from(k % 3));
        let shift = if k / 3 % 2 == 0 { 0.0 } else { 0.875 };
        world.add_body(ball(16.0 + col * 3.5 + shift, 2.0 + row * 3.5, radius)).expect("a valid body");
    }
    // The pinball table.
    let bumper = |world: &mut World<S>, (x0, y0): (f64, f64), (x1, y1): (f64, f64)| {
        let mut def = ColliderDef::new(Capsule::new(v(x0, y0), v(x1, y1), r(0.5)).expect("in range"));
        def.restitution = S::ONE;
        world.add_collider(def).expect("a valid collider");
    };
    let corners = [(50.0, 40.0), (70.0, 40.0), (70.0, 60.0), (50.0, 60.0)];
    for k in 0..4 {
        bumper(&mut world, corners[k], corners[(k + 1) % 4]);
    }
    for (x, y, dx, dy) in [(56.0, 50.0, 8.0, 0.0), (54.0, 45.0, 3.0, 2.0), (63.0, 54.0, 2.0, -3.0)] {
        bumper(&mut world, (x, y), (x + dx, y + dy));
    }
    let mut pinball = ball(64.664_062_5, 49.25, 0.5);
    pinball.velocity = v(0.316_406_25, -0.589_843_75);
    pinball.restitution = S::ONE;
    pinball.gravity_scale = S::ZERO;
    world.add_body(pinball).expect("a valid body");
    world
}

/// The digest of [`solver_world`] over `ticks` steps: every tick's
/// checksum (which covers the contacts, their impulses and who sleeps) and
/// its events, hashed.
///
/// # Examples
///
/// ```
/// let a = geom_test::golden::solver_digest::<f32>(30);
/// assert_eq!(a, geom_test::golden::solver_digest::<f32>(30));
/// ```
pub fn solver_digest<S: Testable>(ticks: u64) -> u64 {
    use std::hash::Hasher;
    let mut world = solver_world::<S>();
    let mut h = seahash::SeaHasher::new();
    for _ in 0..ticks {
        world.step();
        h.write_u64(world.checksum());
        for event in world.events() {
            h.write_u32(event.body.index());
            h.write(event.kind.name().as_bytes());
        }
    }
    h.finish()
}

/// Hashes scalars: fixed-point bits sign-extended, as the world's checksum
/// hashes them, so that a scene whose values fit two types of one
/// resolution (I16F16 and I48F16) gives both the same digest.
fn write_scalars<S: Testable>(h: &mut seahash::SeaHasher, values: &[S]) {
    use std::hash::Hasher;
    for value in values {
        let (raw, bits) = (value.to_raw(), S::BITS.0);
        let negative = S::RELATIVE == 0.0 && bits < 128 && raw >> (bits - 1) & 1 == 1;
        // Little-endian bytes: `Hasher::write_u128` writes native-endian
        // ones (seahash overrides it only up to 64 bits), and gave another
        // digest on big-endian s390x.
        h.write(&(if negative { raw | !((1_u128 << bits) - 1) } else { raw }).to_le_bytes());
    }
}

/// Hashes an id: colliders and bodies apart.
fn write_id(h: &mut seahash::SeaHasher, id: Id) {
    use std::hash::Hasher;
    match id {
        Id::Collider(c) => h.write_u64(u64::from(c.index())),
        Id::Body(b) => h.write_u64(1 << 32 | u64::from(b.index())),
    }
}

/// A platformer's course for the character controller: a floor between
/// walls, a 30° ramp ending in a wall, a 0.3 step, a one-way ledge, a
/// platform moving to and fro, six crates, and two players (a capsule and
/// a ball, both kinematic). Values on a 2^-8 grid, within every type's
/// range.
///
/// # Examples
///
/// ```
/// let (world, players) = geom_test::golden::character_world::<f32>();
/// assert_eq!(world.bodies().len(), 8);
/// assert!(world.colliders().iter().any(|c| c.one_way().is_some()));
/// # let _ = players;
/// ```
pub fn character_world<S: Testable>() -> (World<S>, [BodyId; 2]) {
    let v = |x: f64, y: f64| Vec2::new(S::from_f64(x), S::from_f64(y));
    let mut world = World::new(WorldConfig::new(v(0.0, -0.015_625))).expect("a valid configuration");
    let segments = [
        ((-30.0, 0.0), (30.0, 0.0)),
        ((-30.0, 0.0), (-30.0, 20.0)),
        ((30.0, 0.0), (30.0, 20.0)),
        ((-12.0, 0.0), (-20.0, 4.617_187_5)),
        ((-20.0, 0.0), (-20.0, 4.617_187_5)),
        ((5.0, 0.0), (5.0, 0.304_687_5)),
        ((5.0, 0.304_687_5), (12.0, 0.304_687_5)),
    ];
    for (a, b) in segments {
        let mut def = ColliderDef::new(Segment::new(v(a.0, a.1), v(b.0, b.1)).expect("in range"));
        def.friction = S::from_f64(0.5);
        world.add_collider(def).expect("a valid collider");
    }
    let mut ledge = ColliderDef::new(Segment::new(v(14.0, 2.5), v(20.0, 2.5)).expect("in range"));
    ledge.one_way = Some(v(0.0, 1.0));
    world.add_collider(ledge).expect("a valid collider");
    let mut platform = ColliderDef::new(Capsule::new(v(20.5, 0.25), v(24.5, 0.25), S::ZERO).expect("in range"));
    platform.velocity = v(0.03125, 0.0);
    world.add_collider(platform).expect("a valid collider");
    for k in 0..6 {
        let mut def = BodyDef::new(v(-8.0 + 1.25 * f64::from(k), 0.5), S::from_f64(0.5));
        def.friction = S::from_f64(0.25);
        world.add_body(def).expect("a valid crate");
    }
    let mut capsule = BodyDef::capsule(v(0.0, 0.75), v(0.0, -0.5), v(0.0, 0.5), S::from_f64(0.25));
    capsule.inverse_mass = S::ZERO;
    let mut ball = BodyDef::new(v(2.0, 0.375), S::from_f64(0.375));
    ball.inverse_mass = S::ZERO;
    let players = [world.add_body(capsule).expect("a player"), world.add_body(ball).expect("a player")];
    (world, players)
}

/// The digest of [`character_world`] over `ticks` ticks, its two players
/// driven by scripted input through `World::move_character` (walking both
/// ways, jumping now and then, their gravity the game's, the platform
/// turned round every 160 ticks): every move's motion, ground and flags,
/// and every tick's checksum, hashed.
///
/// # Examples
///
/// ```
/// let a = geom_test::golden::character_digest::<fixed::types::I32F32>(50);
/// assert_eq!(a, geom_test::golden::character_digest::<fixed::types::I32F32>(50));
/// ```
pub fn character_digest<S: Testable>(ticks: u64) -> u64 {
    use geom_core::world::CharacterConfig;
    use std::hash::Hasher;
    let (mut world, players) = character_world::<S>();
    let platform = world.colliders()[8].id();
    let mut config = CharacterConfig::new();
    config.step_height = S::from_f64(0.375);
    let (gravity, walk, jump) = (S::from_f64(0.015_625), S::from_f64(0.093_75), S::from_f64(0.343_75));
    let mut h = seahash::SeaHasher::new();
    let mut state = [(S::ZERO, false); 2];
    for tick in 0..ticks {
        if tick % 160 == 80 {
            let turned = -world.collider(platform).expect("the platform").velocity();
            world.set_collider_velocity(platform, turned).expect("a valid velocity");
        }
        for (k, &player) in players.iter().enumerate() {
            let (vy, grounded) = &mut state[k];
            let period = [700, 530][k];
            let dx = if (tick / period) % 2 == 0 { walk } else { -walk };
            *vy = if *grounded { -gravity } else { *vy - gravity };
            if *grounded && tick % [97, 61][k] == 0 {
                *vy = jump;
            }
            let moved = world.move_character(player, Vec2::new(dx, *vy), &config).expect("a valid move");
            *grounded = moved.grounded();
            if moved.ceiling && *vy > S::ZERO {
                *vy = S::ZERO;
            }
            write_scalars(&mut h, &[moved.motion.x, moved.motion.y]);
            h.write_u8(u8::from(moved.stepped) | u8::from(moved.wall) << 1 | u8::from(moved.ceiling) << 2);
            match moved.ground {
                Some(ground) => {
                    write_id(&mut h, ground.other);
                    write_scalars(&mut h, &[ground.normal.x, ground.normal.y, ground.velocity.x, ground.velocity.y]);
                }
                None => h.write_u8(0xff),
            }
        }
        world.step();
        h.write_u64(world.checksum());
    }
    h.finish()
}

/// The ticks the pinned world checksums are taken after.
pub const WORLD_TICKS: u64 = 1000;

/// The ticks the character controller's digest covers: both players cross
/// the whole course both ways.
pub const CHARACTER_TICKS: u64 = 3000;

/// How many cases of each query's stream, per scalar type, the digests
/// cover.
pub const QUERY_CASES: usize = 100_000;

/// The digests of one scalar type: the world's checksum and every query's
/// stream.
fn digests_of<S: Testable>() -> Vec<(String, u64)> {
    let mut out = vec![
        (format!("world.{}", S::NAME), world_checksum::<S>(WORLD_TICKS)),
        (format!("features.{}", S::NAME), features_digest::<S>(WORLD_TICKS)),
        (format!("solver.{}", S::NAME), solver_digest::<S>(WORLD_TICKS)),
        (format!("character.{}", S::NAME), character_digest::<S>(CHARACTER_TICKS)),
    ];
    for query in stream::Query::ALL {
        out.push((format!("query.{}.{}", query.name(), S::NAME), stream::digest::<S>(query, QUERY_CASES)));
    }
    out
}

/// Every digest, by name (`world.<type>`, `query.<query>.<type>`), as
/// pinned in [`FILE`]; the five types are computed on threads of their own
/// where the target has threads, and in turn where it has none
/// (`wasm32-wasip1`).
///
/// # Examples
///
/// ```no_run
/// let digests = geom_test::golden::digests();
/// assert!(digests.contains_key("world.I32F32"));
/// assert!(digests.contains_key("query.sweep_circle_circle.f32"));
/// ```
pub fn digests() -> BTreeMap<String, u64> {
    use fixed::types::{I16F16, I32F32, I48F16};
    type Job = fn() -> Vec<(String, u64)>;
    let jobs: [Job; 5] =
        [digests_of::<f32>, digests_of::<f64>, digests_of::<I16F16>, digests_of::<I32F32>, digests_of::<I48F16>];
    std::thread::scope(|scope| {
        let spawned: Vec<_> =
            jobs.into_iter().map(|job| (job, std::thread::Builder::new().spawn_scoped(scope, job).ok())).collect();
        spawned
            .into_iter()
            .flat_map(|(job, handle)| match handle {
                Some(handle) => handle.join().expect("a digest thread panicked"),
                None => job(),
            })
            .collect()
    })
}

/// The digest file's text for `digests`: a header saying how it is made,
/// then `name = 0x<16 hex digits>` lines in name order.
///
/// # Examples
///
/// ```
/// let mut digests = std::collections::BTreeMap::new();
/// digests.insert("world.f32".to_owned(), 0xabc_u64);
/// let text = geom_test::golden::render(&digests);
/// assert!(text.ends_with("world.f32 = 0x0000000000000abc\n"));
/// assert_eq!(geom_test::golden::parse(&text), Ok(digests));
/// ```
pub fn render(digests: &BTreeMap<String, u64>) -> String {
    let mut text = String::from(
        "# Pinned determinism digests: any change to an output bit moves one.\n\
         # Checked by the crate's tests/golden.rs; rewritten only by\n\
         # `cargo xtask golden --bless`, in a commit that says why.\n",
    );
    for (name, digest) in digests {
        // Writing to a String cannot fail.
        let _ = writeln!(text, "{name} = 0x{digest:016x}");
    }
    text
}

/// Reads a digest file back (see [`render`]), naming the line of the first
/// malformed entry.
///
/// # Errors
///
/// A message with the line number and what is wrong.
///
/// # Examples
///
/// ```
/// assert!(geom_test::golden::parse("world.f32 = 12").is_err());
/// ```
pub fn parse(text: &str) -> Result<BTreeMap<String, u64>, String> {
    let mut out = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let malformed = |what: &str| format!("line {}: {what}: `{line}`", number + 1);
        let (name, value) = line.split_once(" = ").ok_or_else(|| malformed("expected `name = 0x…`"))?;
        let hex = value.strip_prefix("0x").ok_or_else(|| malformed("the value must start with 0x"))?;
        let digest = u64::from_str_radix(hex, 16).map_err(|_| malformed("the value is not 64-bit hex"))?;
        out.insert(name.to_owned(), digest);
    }
    Ok(out)
}

/// Whether this build computes floats with x87 instructions (32-bit x86
/// without SSE2, such as `i586-unknown-linux-gnu`), which keep intermediates
/// in 80 bits and round twice. Float results are not bit-identical there
/// (the README's determinism contract says so), and neither are the float
/// query streams' inputs, which the generator places with `f64` arithmetic.
/// There the golden tests check what must still match, every fixed-point
/// digest (the fixed-point streams are placed with integer arithmetic) and
/// every fixed-point test vector, and report the rest (see
/// [`checked_here`]).
///
/// # Examples
///
/// ```
/// # #[cfg(target_arch = "x86_64")]
/// assert!(!geom_test::golden::X87);
/// ```
pub const X87: bool = cfg!(all(target_arch = "x86", not(target_feature = "sse2")));

/// Whether the digest `name` must match its pinned value on this target:
/// every digest, but on [`X87`] only the fixed-point ones.
///
/// # Examples
///
/// ```
/// use geom_test::golden::{X87, checked_here};
///
/// assert!(checked_here("world.I32F32"));
/// assert!(checked_here("query.distance_point_segment.I32F32"));
/// assert_eq!(checked_here("query.distance_point_segment.f32"), !X87);
/// assert_eq!(checked_here("world.f64"), !X87);
/// ```
#[must_use]
pub fn checked_here(name: &str) -> bool {
    type_checked_here(name.rsplit('.').next().unwrap_or(name))
}

/// Whether answers in the scalar type named `type_name` (`"f32"`,
/// `"I16F16"`, …) must match bit for bit on this target: every type, but on
/// [`X87`] only the fixed-point ones.
///
/// # Examples
///
/// ```
/// use geom_test::golden::{X87, type_checked_here};
///
/// assert!(type_checked_here("I16F16"));
/// assert_eq!(type_checked_here("f32"), !X87);
/// ```
#[must_use]
pub fn type_checked_here(type_name: &str) -> bool {
    !X87 || !matches!(type_name, "f32" | "f64")
}

/// The variable `cargo xtask golden --bless` sets, to the path of a token
/// file it writes for that run and removes after it.
pub const BLESS: &str = "GEOM_GOLDEN_BLESS";

/// What the token file of a bless holds.
pub const BLESS_TOKEN: &str = "written by cargo xtask golden --bless, for this run only\n";

/// Whether a run blesses, given [`BLESS`]'s value: only when it names a
/// token file that `cargo xtask golden --bless` wrote for its run. A value
/// left in the environment (`GEOM_GOLDEN_BLESS=1`, or a token's path after
/// the run removed it) blesses nothing: `cargo test` then compares, as
/// always.
///
/// # Examples
///
/// ```
/// use geom_test::golden::{BLESS_TOKEN, blessing};
///
/// assert!(!blessing(None));
/// assert!(!blessing(Some("1".as_ref())));
/// let token = std::env::temp_dir().join(format!("geom-bless-doc-{}", std::process::id()));
/// assert!(!blessing(Some(token.as_os_str())), "no such file");
/// std::fs::write(&token, BLESS_TOKEN).unwrap();
/// assert!(blessing(Some(token.as_os_str())));
/// std::fs::write(&token, "something else").unwrap();
/// assert!(!blessing(Some(token.as_os_str())));
/// std::fs::remove_file(&token).unwrap();
/// ```
#[must_use]
pub fn blessing(value: Option<&std::ffi::OsStr>) -> bool {
    value.is_some_and(|path| std::fs::read_to_string(path).is_ok_and(|text| text == BLESS_TOKEN))
}

/// Compares `actual` with the digests pinned in the file at `path`, or,
/// when `cargo xtask golden --bless` asks (see [`blessing`]), rewrites the
/// file atomically with them instead. `explain`
/// may add a line about a digest that moved (the first differing case, say).
/// Only the digests [checked here](checked_here) are compared; on x87 the
/// others are reported on standard error, matching or not.
///
/// # Errors
///
/// Every digest that differs, is missing or is pinned but no longer
/// computed, with what to do about it; or why the file cannot be read or
/// written.
///
/// # Examples
///
/// ```
/// let dir = std::env::temp_dir().join(format!("geom-golden-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("digests.txt");
/// let mut digests = std::collections::BTreeMap::new();
/// digests.insert("scene.f32".to_owned(), 7_u64);
/// std::fs::write(&path, geom_test::golden::render(&digests)).unwrap();
/// assert_eq!(geom_test::golden::check(&path, &digests, |_| None), Ok(()));
/// digests.insert("scene.f32".to_owned(), 8);
/// # if !geom_test::golden::blessing(std::env::var_os(geom_test::golden::BLESS).as_deref()) {
/// let err = geom_test::golden::check(&path, &digests, |_| Some("why".into())).unwrap_err();
/// assert!(err.contains("scene.f32: pinned 0x0000000000000007, now 0x0000000000000008\n    why"));
/// # }
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn check(
    path: &Path,
    actual: &BTreeMap<String, u64>,
    explain: impl Fn(&str) -> Option<String>,
) -> Result<(), String> {
    if blessing(std::env::var_os(BLESS).as_deref()) {
        let temp = path.with_extension("txt.tmp");
        std::fs::write(&temp, render(actual)).map_err(|e| format!("cannot write {}: {e}", temp.display()))?;
        std::fs::rename(&temp, path).map_err(|e| format!("cannot replace {}: {e}", path.display()))?;
        eprintln!("blessed {} digests into {}", actual.len(), path.display());
        return Ok(());
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}; run `cargo xtask golden --bless` once", path.display()))?;
    let pinned = parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut differences = Vec::new();
    for (name, digest) in actual {
        if !checked_here(name) {
            let status = if pinned.get(name) == Some(digest) { "matches" } else { "differs" };
            eprintln!("not checked on x87: {name} {status} (now 0x{digest:016x})");
            continue;
        }
        let line = match pinned.get(name) {
            Some(p) if p == digest => continue,
            Some(p) => format!("{name}: pinned 0x{p:016x}, now 0x{digest:016x}"),
            None => {
                // A new stream: nothing pinned to compare its cases with.
                differences.push(format!("{name}: not pinned yet (now 0x{digest:016x}); a bless pins it"));
                continue;
            }
        };
        differences.push(match explain(name) {
            Some(why) => format!("{line}\n    {}", why.replace('\n', "\n    ")),
            None => line,
        });
    }
    for name in pinned.keys().filter(|n| !actual.contains_key(*n) && checked_here(n)) {
        differences.push(format!("{name}: pinned but no longer computed"));
    }
    if differences.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "results changed bits:\n  {}\nIf the change is deliberate, run `cargo xtask golden --bless` and say why in the commit.",
            differences.join("\n  ")
        ))
    }
}
