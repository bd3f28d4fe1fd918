//! Throughput of every public query, per scalar type and workload.
//!
//! Every result goes through `black_box`, so no part of an answer can be
//! optimised away. Each benchmark runs one query over the same 4096 scenes
//! of a workload (see `common::Workload`: `uniform`, shapes scattered over
//! a 1000 × 1000 world so that few touch, and `near`, about half touching
//! or hitting), drawn from a seeded generator so that every run and every
//! type sees the same geometry. Run with `cargo xtask bench`, which prints
//! the medians per query.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
mod common;

use common::{SCENES, Scene, Workload, scenes};
use fixed::types::{I16F16, I32F32, I48F16};
use geom_core::query::batch::{
    LengthMismatch, intersects_circle_capsules, intersects_circle_circles, intersects_circle_segments,
    intersects_circles_capsule, intersects_circles_segment,
};
use geom_core::{
    Capsule, Circle, Scalar, Segment, closest_point_point_segment, closest_points_segment_segment,
    contact_capsule_capsule, contact_circle_capsule, contact_circle_circle, contact_circle_segment,
    distance_point_segment, distance_squared_point_segment, intersects_capsule_capsule, intersects_circle_capsule,
    intersects_circle_circle, intersects_circle_segment, sweep_capsule_capsule, sweep_capsule_circle,
    sweep_capsule_segment, sweep_circle_capsule, sweep_circle_circle, sweep_circle_segment, sweep_segment_segment,
};

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

fn bench_type<S: Scalar>(c: &mut Criterion, name: &str) {
    for workload in Workload::ALL {
        let scenes = scenes::<S>(workload);
        let mut group = c.benchmark_group(format!("{name}-{}", workload.name()));
        group.throughput(Throughput::Elements(SCENES as u64));
        group.sample_size(30).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
        let g = &mut group;
        let s = &scenes;
        run(g, "closest_point_point_segment", s, |s| closest_point_point_segment(s.a.center(), &s.segment));
        run(g, "closest_points_segment_segment", s, |s| closest_points_segment_segment(&s.segment, &s.other.segment()));
        run(g, "distance_squared_point_segment", s, |s| distance_squared_point_segment(s.a.center(), &s.segment));
        run(g, "distance_point_segment", s, |s| distance_point_segment(s.a.center(), &s.segment));
        run(g, "intersects_circle_segment", s, |s| intersects_circle_segment(&s.a, &s.segment));
        run(g, "intersects_circle_capsule", s, |s| intersects_circle_capsule(&s.a, &s.capsule));
        run(g, "intersects_circle_circle", s, |s| intersects_circle_circle(&s.a, &s.b));
        run(g, "intersects_capsule_capsule", s, |s| intersects_capsule_capsule(&s.capsule, &s.other));
        run(g, "contact_circle_segment", s, |s| contact_circle_segment(&s.a, &s.segment));
        run(g, "contact_circle_capsule", s, |s| contact_circle_capsule(&s.a, &s.capsule));
        run(g, "contact_circle_circle", s, |s| contact_circle_circle(&s.a, &s.b));
        run(g, "contact_capsule_capsule", s, |s| contact_capsule_capsule(&s.capsule, &s.other));
        run(g, "sweep_circle_segment", s, |s| sweep_circle_segment(&s.mover, s.motion, &s.segment));
        run(g, "sweep_circle_capsule", s, |s| sweep_circle_capsule(&s.mover, s.motion, &s.capsule));
        run(g, "sweep_circle_circle", s, |s| sweep_circle_circle(&s.mover, s.motion, &s.b, -s.motion));
        run(g, "sweep_capsule_circle", s, |s| sweep_capsule_circle(&s.capsule, -s.motion, &s.mover));
        run(g, "sweep_capsule_segment", s, |s| sweep_capsule_segment(&s.sweeper, s.motion, &s.segment));
        run(g, "sweep_capsule_capsule", s, |s| {
            sweep_capsule_capsule(&s.sweeper, s.sweeper_motion, &s.capsule, s.drift)
        });
        run(g, "sweep_segment_segment", s, |s| {
            sweep_segment_segment(&s.sweeper.segment(), s.sweeper_motion, &s.segment, s.drift)
        });
        batches(g, s);
        group.finish();
    }
}

/// The batch intersection tests, one call over all the scenes' shapes (so
/// the medians are per pair, like the single queries'): the first scene's
/// circle against every segment, capsule and circle, and every circle
/// against the first scene's segment and capsule.
fn batches<S: Scalar>(group: &mut BenchmarkGroup<'_, WallTime>, scenes: &[Scene<S>]) {
    let segments: Vec<Segment<S>> = scenes.iter().map(|s| s.segment).collect();
    let capsules: Vec<Capsule<S>> = scenes.iter().map(|s| s.capsule).collect();
    let circles: Vec<Circle<S>> = scenes.iter().map(|s| s.a).collect();
    let others: Vec<Circle<S>> = scenes.iter().map(|s| s.b).collect();
    let (circle, segment, capsule) = (&scenes[0].a, &scenes[0].segment, &scenes[0].capsule);
    let out = &mut vec![false; scenes.len()];
    let g = group;
    batch(g, out, "batch_intersects_circle_segments", |out| {
        intersects_circle_segments(black_box(circle), &segments, out)
    });
    batch(g, out, "batch_intersects_circles_segment", |out| {
        intersects_circles_segment(&circles, black_box(segment), out)
    });
    batch(g, out, "batch_intersects_circle_capsules", |out| {
        intersects_circle_capsules(black_box(circle), &capsules, out)
    });
    batch(g, out, "batch_intersects_circles_capsule", |out| {
        intersects_circles_capsule(&circles, black_box(capsule), out)
    });
    batch(g, out, "batch_intersects_circle_circles", |out| intersects_circle_circles(black_box(circle), &others, out));
}

/// Benchmarks one batch call writing into `out`.
fn batch(
    group: &mut BenchmarkGroup<'_, WallTime>,
    out: &mut [bool],
    name: &str,
    f: impl Fn(&mut [bool]) -> Result<usize, LengthMismatch>,
) {
    group.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| black_box(f(black_box(&mut *out)).expect("same lengths")));
    });
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
