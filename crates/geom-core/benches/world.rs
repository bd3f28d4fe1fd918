//! Ticks per second of the stepping world: 1000 circles among 200 segments,
//! per scalar type. Run with `cargo xtask bench`.
//!
//! The scene (`world/<type>`): a 400 × 400 box, 196 short slanted
//! platforms in staggered rows, and 1000 circles (radii 0.5 to 1.5) dropped
//! from the top half with random velocities under gravity. Each measured
//! step starts from the same state, 120 ticks in, reached by one untimed
//! step from a copy of the state the tick before (made into a world kept
//! between iterations, whose step buffers and narrow-phase answers are
//! therefore what a game's are: `world_scene::time_ticks`), when most
//! bodies are falling onto or bouncing between the platforms and many are
//! in contact.
//!
//! The same scene with the world's features in use (`world_features/<type>`):
//! friction on every platform and body, every seventh platform moving up
//! and down, 24 sensor zones, bodies on two layers, and the tick's events
//! read after every step.
//!
//! Building a world (`world_build/<colliders>`, `I32F32`): adding 2000 and
//! then 8000 colliders to an empty world one by one and taking its
//! checksum, which should cost four times as much for four times as many.
//!
//! How the tick grows with the number of bodies (`world_scale/<type>/<n>`,
//! n = 1000, 4000, 16000): the same box of platforms, grown with the count
//! so that the density stays the same, 120 ticks in; and dense piles
//! (`world_pile/<type>/<n>`, n = 2000, 5000): balls touching their
//! neighbours on a hexagonal grid on the floor, 10 ticks in. One `step()`
//! is measured (no checksum or events), as the rapier2d comparison in
//! `peers/` measures rapier's. The scenes are plain data shared with it
//! (`common/world_scene.rs`).
//!
//! A rollback client's frame (`world_rollback/<type>`): a jar 20 wide of
//! 400 balls stepped 600 ticks with sleeping off, when every ball touches
//! others and all are awake; one iteration is what a GGRS-style client does
//! when a late input arrives: restore a snapshot of that state, then step
//! 8 ticks, taking a snapshot after each, and read the last one's checksum.
//!
//! What a game reads every tick (`world_contacts/<type>`): in the same jar
//! of 400 at tick 600, every body's contacts (`contacts_of`, each one's
//! impulse summed) and whether it stands on something (`ground`, slopes up
//! to 45°), for all 400 bodies.
//!
//! A platformer's player (`world_character/<type>`): one call of the
//! character controller, `move_character`, on a course of a floor, a 0.3
//! step, a 30° ramp, a one-way ledge, a moving platform and ten crates:
//! an iteration walks the player 64 ticks (0.09 a tick, its gravity the
//! game's) from x = 3 up the step and along its top, then puts it back;
//! the figure is per call.
//!
//! What sleeping saves (`world_sleep/<scene>`, `I32F32`, sleeping on): one
//! tick of a jar of 1200 balls while they fall in and pile up (`jar_1200`,
//! 120 ticks in) and once they have come to rest (`jar_1200_settled`, 1800
//! ticks in).

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};
mod common;

use common::world_scene::{self, WorldScene};
use fixed::types::{I16F16, I32F32, I48F16};
use geom_core::world::{BodyDef, CharacterConfig, ColliderDef, Filter, Snapshot, World, WorldConfig};
use geom_core::{Circle, Scalar, Segment, Vec2};

/// The scene of `world/<type>` (1000 balls among the platforms, stepped
/// 119 ticks, for `time_ticks` to time the 121st), or with `features` the
/// one of `world_features/<type>`.
fn scene<S: Scalar>(features: bool) -> World<S> {
    let data = world_scene::platforms(1000);
    if !features {
        return data.warmed_up();
    }
    let v = |x: f64, y: f64| Vec2::new(S::from_f64(x), S::from_f64(y));
    let mut world = World::new(data.config()).expect("valid config");
    for (i, &wall) in data.walls.iter().enumerate() {
        let mut def = world_scene::collider::<S>(wall);
        def.friction = S::from_f64(0.5);
        let walls = i + 1;
        if walls % 7 == 0 {
            def.velocity = v(0.0, if walls % 2 == 0 { 0.0625 } else { -0.0625 });
        }
        world.add_collider(def).expect("valid collider");
    }
    for i in 0..24 {
        let (x, y) = (-180.0 + f64::from(i % 6) * 72.0, -150.0 + f64::from(i / 6) * 90.0);
        let mut zone = ColliderDef::new(Circle::new(v(x, y), S::from_f64(6.0)).expect("in range"));
        zone.sensor = true;
        world.add_collider(zone).expect("valid collider");
    }
    for (i, ball) in data.balls.iter().enumerate() {
        let mut def = ball.body::<S>();
        def.friction = S::from_f64(0.5);
        def.filter = Filter { layer: 1 << (i % 2), mask: u32::MAX };
        world.add_body(def).expect("valid body");
    }
    // One tick short: `time_ticks` steps the last one untimed.
    for _ in 1..data.warm_up {
        world.step();
    }
    world
}

fn bench_type<S: Scalar>(c: &mut Criterion, name: &str) {
    for (group_name, features) in [("world", false), ("world_features", true)] {
        let world = scene::<S>(features);
        let mut group = c.benchmark_group(group_name);
        group.sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            world_scene::time_ticks(b, &world, |w| {
                w.step();
                black_box(w.events().len());
                w.checksum()
            });
        });
        group.finish();
    }
}

/// The ball counts of `world_scale` and of `world_pile` (shared with the
/// rapier2d comparison in `peers/benches/world.rs`).
const SCALE: [usize; 3] = [1000, 4000, 16000];
const PILES: [usize; 2] = [2000, 5000];

/// A group for whole-scene ticks, which take milliseconds: ten flat
/// samples over two seconds.
fn scene_group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    group
}

/// `world_scale/<type>/<n>` and `world_pile/<type>/<n>`: one tick of the
/// box of platforms with `n` balls (the box growing with the count) and of
/// a dense pile of `n` balls, from a copy of the same warmed-up state. Each
/// scene is built and warmed up only when its benchmark runs (not when a
/// filter leaves it out), and measured with few samples: the large ones
/// take tens of milliseconds per tick.
fn bench_scaling<S: Scalar>(c: &mut Criterion, name: &str) {
    let scale = SCALE.map(world_scene::platforms);
    let piles = PILES.map(world_scene::pile);
    for (group_name, scenes) in [("world_scale", &scale[..]), ("world_pile", &piles[..])] {
        let mut group = scene_group(c, group_name);
        for scene in scenes {
            bench_step::<S>(&mut group, BenchmarkId::new(name, scene.balls.len()), scene);
        }
        group.finish();
    }
}

/// Measures one `step()` of `scene` in `S`, from a copy of the state after
/// its warm-up ticks.
fn bench_step<S: Scalar>(group: &mut BenchmarkGroup<'_, WallTime>, id: BenchmarkId, scene: &WorldScene) {
    let mut warmed: Option<World<S>> = None;
    group.bench_function(id, |b| {
        let world = warmed.get_or_insert_with(|| scene.before_measured(true));
        world_scene::time_ticks(b, world, |w| {
            w.step();
            w.tick()
        });
    });
}

/// The ticks a rollback client re-simulates per measured frame.
const ROLLBACK_TICKS: usize = 8;

/// `world_rollback/<type>`: restoring a snapshot of the jar of 400 awake,
/// touching balls, then [`ROLLBACK_TICKS`] times a step and a snapshot,
/// and the last snapshot's checksum. The world and its snapshot are made
/// only when the benchmark runs; the restore reuses the world's buffers,
/// as a client's does.
fn bench_rollback<S: Scalar>(group: &mut BenchmarkGroup<'_, WallTime>, name: &str) {
    let mut start: Option<(World<S>, Snapshot<S>)> = None;
    group.bench_function(BenchmarkId::from_parameter(name), |b| {
        let (world, saved) = start.get_or_insert_with(|| {
            let world = WorldScene { warm_up: 600, ..world_scene::jar(400, 20.0) }.warmed_up_with::<S>(false);
            let saved = world.snapshot();
            (world, saved)
        });
        b.iter(|| {
            world.restore(saved);
            let frames: [Snapshot<S>; ROLLBACK_TICKS] = std::array::from_fn(|_| {
                world.step();
                world.snapshot()
            });
            black_box(frames[ROLLBACK_TICKS - 1].checksum())
        });
    });
}

fn world_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("world_build");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    for count in [2000_u32, 8000] {
        let walls: Vec<Segment<I32F32>> = (0..count)
            .map(|i| {
                let (x, y) = (f64::from(i % 100) * 4.0 - 200.0, f64::from(i / 100) * 2.0 - 100.0);
                let v = |x: f64, y: f64| Vec2::new(I32F32::from_f64(x), I32F32::from_f64(y));
                Segment::new(v(x, y), v(x + 3.0, y + 0.5)).expect("in range")
            })
            .collect();
        group.bench_function(BenchmarkId::from_parameter(count), |b| {
            b.iter(|| {
                let mut world = World::new(WorldConfig::new(Vec2::new(I32F32::ZERO, I32F32::ZERO))).expect("valid");
                for wall in &walls {
                    world.add_collider(*wall).expect("valid collider");
                }
                black_box(world.checksum())
            });
        });
    }
    group.finish();
}

fn world_step(c: &mut Criterion) {
    bench_type::<f32>(c, "f32");
    bench_type::<f64>(c, "f64");
    bench_type::<I16F16>(c, "I16F16");
    bench_type::<I32F32>(c, "I32F32");
    bench_type::<I48F16>(c, "I48F16");
}

fn world_scaling(c: &mut Criterion) {
    bench_scaling::<f32>(c, "f32");
    bench_scaling::<f64>(c, "f64");
    bench_scaling::<I16F16>(c, "I16F16");
    bench_scaling::<I32F32>(c, "I32F32");
    bench_scaling::<I48F16>(c, "I48F16");
}

fn world_rollback(c: &mut Criterion) {
    let mut group = scene_group(c, "world_rollback");
    bench_rollback::<f32>(&mut group, "f32");
    bench_rollback::<f64>(&mut group, "f64");
    bench_rollback::<I16F16>(&mut group, "I16F16");
    bench_rollback::<I32F32>(&mut group, "I32F32");
    bench_rollback::<I48F16>(&mut group, "I48F16");
    group.finish();
}

/// `world_contacts/<type>`: every body's contacts and ground in the jar
/// of 400 at tick 600 (see the module documentation).
fn bench_contacts<S: Scalar>(group: &mut BenchmarkGroup<'_, WallTime>, name: &str) {
    let mut world: Option<World<S>> = None;
    group.bench_function(BenchmarkId::from_parameter(name), |b| {
        let world = world.get_or_insert_with(|| {
            WorldScene { warm_up: 600, ..world_scene::jar(400, 20.0) }.warmed_up_with::<S>(false)
        });
        let min_up = S::from_f64(core::f64::consts::FRAC_1_SQRT_2);
        b.iter(|| {
            let mut grounded = 0_usize;
            let mut pushed = S::ZERO;
            for body in world.bodies() {
                for contact in world.contacts_of(body.id()) {
                    pushed += contact.impulse;
                }
                grounded += usize::from(world.ground(body.id(), min_up).is_some());
            }
            black_box((grounded, pushed))
        });
    });
}

fn world_contacts(c: &mut Criterion) {
    let mut group = c.benchmark_group("world_contacts");
    bench_contacts::<f32>(&mut group, "f32");
    bench_contacts::<f64>(&mut group, "f64");
    bench_contacts::<I16F16>(&mut group, "I16F16");
    bench_contacts::<I32F32>(&mut group, "I32F32");
    bench_contacts::<I48F16>(&mut group, "I48F16");
    group.finish();
}

/// The calls of `move_character` one `world_character` iteration makes.
const CHARACTER_CALLS: u32 = 64;

/// `world_character/<type>`: see the module documentation.
fn bench_character<S: Scalar>(group: &mut BenchmarkGroup<'_, WallTime>, name: &str) {
    let v = |x: f64, y: f64| Vec2::new(S::from_f64(x), S::from_f64(y));
    let mut world = World::new(WorldConfig::new(v(0.0, -0.02))).expect("a valid configuration");
    for (a, b) in [
        ((-30.0, 0.0), (30.0, 0.0)),
        ((5.0, 0.0), (5.0, 0.3)),
        ((5.0, 0.3), (12.0, 0.3)),
        ((-12.0, 0.0), (-20.0, 4.618_802_153_517_006)),
    ] {
        world.add_collider(Segment::new(v(a.0, a.1), v(b.0, b.1)).expect("in range")).expect("a wall");
    }
    let mut ledge = ColliderDef::new(Segment::new(v(14.0, 2.5), v(20.0, 2.5)).expect("in range"));
    ledge.one_way = Some(v(0.0, 1.0));
    world.add_collider(ledge).expect("a ledge");
    let mut platform = ColliderDef::new(Segment::new(v(20.5, 0.25), v(24.5, 0.25)).expect("in range"));
    platform.velocity = v(0.03125, 0.0);
    world.add_collider(platform).expect("a platform");
    for k in 0..10 {
        world.add_body(BodyDef::new(v(-28.0 + 1.1 * f64::from(k), 0.5), S::from_f64(0.5))).expect("a crate");
    }
    let mut def = BodyDef::capsule(v(3.0, 0.75), v(0.0, -0.5), v(0.0, 0.5), S::from_f64(0.25));
    def.inverse_mass = S::ZERO;
    let player = world.add_body(def).expect("the player");
    let mut config = CharacterConfig::new();
    config.step_height = S::from_f64(0.4);
    let (walk, fall) = (S::from_f64(0.09), S::from_f64(0.02));
    group.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| {
            let mut vy = S::ZERO;
            for _ in 0..CHARACTER_CALLS {
                let moved = world.move_character(player, Vec2::new(walk, vy), &config).expect("a valid move");
                vy = if moved.grounded() { -fall } else { vy - fall };
                black_box(moved);
            }
            world.set_position(player, v(3.0, 0.75)).expect("in range");
        });
    });
}

fn world_character(c: &mut Criterion) {
    let mut group = c.benchmark_group("world_character");
    bench_character::<f32>(&mut group, "f32");
    bench_character::<f64>(&mut group, "f64");
    bench_character::<I16F16>(&mut group, "I16F16");
    bench_character::<I32F32>(&mut group, "I32F32");
    bench_character::<I48F16>(&mut group, "I48F16");
    group.finish();
}

/// `world_sleep/<scene>`: one tick of the jar of 1200 balls in `I32F32`
/// with sleeping on, falling in and settled.
fn world_sleep(c: &mut Criterion) {
    let jar = world_scene::jar(1200, 40.0);
    let mut group = scene_group(c, "world_sleep");
    for scene in [jar.clone(), jar.settled()] {
        bench_step::<I32F32>(&mut group, BenchmarkId::from_parameter(&scene.name), &scene);
    }
    group.finish();
}

criterion_group!(
    benches,
    world_step,
    world_build,
    world_scaling,
    world_rollback,
    world_contacts,
    world_character,
    world_sleep
);
criterion_main!(benches);
