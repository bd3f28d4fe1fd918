//! Ticks per second of the stepping world: 1000 circles among 200 segments,
//! per scalar type. Run with `cargo xtask bench`.
//!
//! The scene (`world/<type>`): a 400 × 400 box, 196 short slanted
//! platforms in staggered rows, and 1000 circles (radii 0.5 to 1.5) dropped
//! from the top half with random velocities under gravity. Each measured
//! step starts from a copy of the same state, 120 ticks in, when most
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

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
mod common;

use common::{FromF64, SplitMix};
use fixed::types::{I16F16, I32F32, I48F16};
use geom_core::world::{BodyDef, ColliderDef, Filter, World, WorldConfig};
use geom_core::{Circle, Segment, Vec2};

fn scene<S: FromF64>(features: bool) -> World<S> {
    let v = |x: f64, y: f64| Vec2::new(S::from_f64(x), S::from_f64(y));
    let mut world = World::new(WorldConfig::new(v(0.0, -0.05))).expect("valid config");
    let mut walls = 0;
    let mut wall = |a: (f64, f64), b: (f64, f64)| {
        let mut def = ColliderDef::new(Segment::new(v(a.0, a.1), v(b.0, b.1)).expect("in range"));
        if features {
            def.friction = S::from_f64(0.5);
            walls += 1;
            if walls % 7 == 0 {
                def.velocity = v(0.0, if walls % 2 == 0 { 0.0625 } else { -0.0625 });
            }
        }
        world.add_collider(def).expect("valid collider");
    };
    wall((-200.0, -200.0), (200.0, -200.0));
    wall((200.0, -200.0), (200.0, 200.0));
    wall((200.0, 200.0), (-200.0, 200.0));
    wall((-200.0, 200.0), (-200.0, -200.0));
    for row in 0..14 {
        for col in 0..14 {
            let x = -182.0 + f64::from(col) * 26.0 + if row % 2 == 0 { 0.0 } else { 13.0 };
            let y = -180.0 + f64::from(row) * 26.0;
            let tilt = if (row + col) % 2 == 0 { 3.0 } else { -3.0 };
            wall((x - 8.0, y + tilt), (x + 8.0, y - tilt));
        }
    }
    if features {
        for i in 0..24 {
            let (x, y) = (-180.0 + f64::from(i % 6) * 72.0, -150.0 + f64::from(i / 6) * 90.0);
            let mut zone = ColliderDef::new(Circle::new(v(x, y), S::from_f64(6.0)).expect("in range"));
            zone.sensor = true;
            world.add_collider(zone).expect("valid collider");
        }
    }
    let mut rng = SplitMix(0x0077_6f72_6c64);
    for i in 0..1000 {
        let mut def =
            BodyDef::new(v(rng.range(-190.0, 190.0), rng.range(0.0, 190.0)), S::from_f64(rng.range(0.5, 1.5)));
        def.velocity = v(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
        def.restitution = S::from_f64(rng.range(0.0, 0.8));
        if features {
            def.friction = S::from_f64(0.5);
            def.filter = Filter { layer: 1 << (i % 2), mask: u32::MAX };
        }
        world.add_body(def).expect("valid body");
    }
    for _ in 0..120 {
        world.step();
    }
    world
}

fn bench_type<S: FromF64>(c: &mut Criterion, name: &str) {
    for (group_name, features) in [("world", false), ("world_features", true)] {
        let world = scene::<S>(features);
        let mut group = c.benchmark_group(group_name);
        group.sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter_batched_ref(
                || world.clone(),
                |w| {
                    w.step();
                    black_box(w.events().len());
                    black_box(w.checksum())
                },
                BatchSize::LargeInput,
            );
        });
        group.finish();
    }
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

criterion_group!(benches, world_step, world_build);
criterion_main!(benches);
