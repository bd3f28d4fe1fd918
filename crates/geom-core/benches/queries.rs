//! Throughput of the static queries, per scalar type.
//!
//! Every result goes through `black_box`, so no part of an answer can be
//! optimised away. Each benchmark runs one query over the same 1024 scenes (drawn from a
//! seeded generator, so every run and every type sees the same geometry:
//! coordinates in ±64, radii 4 to 48, about half the pairs in contact;
//! motions in ±64, so that of the sweeps about 13% hit, 30% start in contact
//! and the rest miss). Run with
//! `cargo xtask bench`, which prints the medians per query.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
mod common;

use common::{FromF64, SplitMix};
use fixed::types::{I16F16, I32F32, I48F16};
use geom_core::{
    Capsule, Circle, Segment, Vec2, closest_point_point_segment, contact_capsule_capsule, contact_circle_capsule,
    contact_circle_circle, contact_circle_segment, intersects_circle_segment, sweep_circle_capsule,
    sweep_circle_circle, sweep_circle_segment,
};

const SCENES: usize = 1024;

struct Scene<S> {
    a: Circle<S>,
    b: Circle<S>,
    /// A motion over one tick for `a` (and, negated, for `b`).
    motion: Vec2<S>,
    segment: Segment<S>,
    capsule: Capsule<S>,
    other: Capsule<S>,
}

fn scenes<S: FromF64>() -> Vec<Scene<S>> {
    let mut rng = SplitMix(0x6765_6f6d);
    let v = |rng: &mut SplitMix| Vec2::new(S::from_f64(rng.range(-64.0, 64.0)), S::from_f64(rng.range(-64.0, 64.0)));
    (0..SCENES)
        .map(|_| {
            let (c1, c2, s1, s2, k1, k2) =
                (v(&mut rng), v(&mut rng), v(&mut rng), v(&mut rng), v(&mut rng), v(&mut rng));
            let r = |rng: &mut SplitMix| S::from_f64(rng.range(4.0, 48.0));
            Scene {
                motion: v(&mut rng),
                a: Circle::new(c1, r(&mut rng)).expect("in range"),
                b: Circle::new(c2, r(&mut rng)).expect("in range"),
                segment: Segment::new(s1, s2).expect("in range"),
                capsule: Capsule::new(s1, s2, r(&mut rng)).expect("in range"),
                other: Capsule::new(k1, k2, r(&mut rng)).expect("in range"),
            }
        })
        .collect()
}

/// Benchmarks one query over every scene, each answer through `black_box`.
fn run<S, R>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    query: &str,
    scenes: &[Scene<S>],
    answer: impl Fn(&Scene<S>) -> R,
) {
    group.bench_function(BenchmarkId::from_parameter(query), |b| {
        b.iter(|| {
            for scene in scenes {
                black_box(answer(black_box(scene)));
            }
        });
    });
}

fn bench_type<S: FromF64>(c: &mut Criterion, name: &str) {
    let scenes = scenes::<S>();
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(SCENES as u64));
    group.sample_size(50).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    let g = &mut group;
    run(g, "closest_point_point_segment", &scenes, |s| closest_point_point_segment(s.a.center(), &s.segment));
    run(g, "intersects_circle_segment", &scenes, |s| intersects_circle_segment(&s.a, &s.segment));
    run(g, "contact_circle_segment", &scenes, |s| contact_circle_segment(&s.a, &s.segment));
    run(g, "contact_circle_capsule", &scenes, |s| contact_circle_capsule(&s.a, &s.capsule));
    run(g, "contact_circle_circle", &scenes, |s| contact_circle_circle(&s.a, &s.b));
    run(g, "contact_capsule_capsule", &scenes, |s| contact_capsule_capsule(&s.capsule, &s.other));
    run(g, "sweep_circle_segment", &scenes, |s| sweep_circle_segment(&s.a, s.motion, &s.segment));
    run(g, "sweep_circle_capsule", &scenes, |s| sweep_circle_capsule(&s.a, s.motion, &s.capsule));
    run(g, "sweep_circle_circle", &scenes, |s| sweep_circle_circle(&s.a, s.motion, &s.b, -s.motion));
    group.finish();
}

fn queries(c: &mut Criterion) {
    bench_type::<f32>(c, "f32");
    bench_type::<f64>(c, "f64");
    bench_type::<I16F16>(c, "I16F16");
    bench_type::<I32F32>(c, "I32F32");
    bench_type::<I48F16>(c, "I48F16");
}

criterion_group!(benches, queries);
criterion_main!(benches);
