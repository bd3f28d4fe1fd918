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

/// The queries, each with the call it measures on a scene `s`: the list
/// of names [`QUERIES`] (in the order they are measured) and the function
/// [`bench_single`] that benchmarks one of them by name.
macro_rules! queries {
    ($($name:literal => |$s:ident| $call:expr,)*) => {
        const QUERIES: [&str; [$($name),*].len()] = [$($name),*];

        /// Benchmarks the query `query` (one of [`QUERIES`]) in `S`; false
        /// if there is none of that name.
        fn bench_single<S: Scalar>(g: &mut BenchmarkGroup<'_, WallTime>, query: &str, scenes: &[Scene<S>]) -> bool {
            match query {
                $($name => run(g, query, scenes, |$s| $call),)*
                _ => return false,
            }
            true
        }
    };
}

queries! {
    "closest_point_point_segment" => |s| closest_point_point_segment(s.a.center(), &s.segment),
    "closest_points_segment_segment" => |s| closest_points_segment_segment(&s.segment, &s.other.segment()),
    "distance_squared_point_segment" => |s| distance_squared_point_segment(s.a.center(), &s.segment),
    "distance_point_segment" => |s| distance_point_segment(s.a.center(), &s.segment),
    "intersects_circle_segment" => |s| intersects_circle_segment(&s.a, &s.segment),
    "intersects_circle_capsule" => |s| intersects_circle_capsule(&s.a, &s.capsule),
    "intersects_circle_circle" => |s| intersects_circle_circle(&s.a, &s.b),
    "intersects_capsule_capsule" => |s| intersects_capsule_capsule(&s.capsule, &s.other),
    "contact_circle_segment" => |s| contact_circle_segment(&s.a, &s.segment),
    "contact_circle_capsule" => |s| contact_circle_capsule(&s.a, &s.capsule),
    "contact_circle_circle" => |s| contact_circle_circle(&s.a, &s.b),
    "contact_capsule_capsule" => |s| contact_capsule_capsule(&s.capsule, &s.other),
    "sweep_circle_segment" => |s| sweep_circle_segment(&s.mover, s.motion, &s.segment),
    "sweep_circle_capsule" => |s| sweep_circle_capsule(&s.mover, s.motion, &s.capsule),
    "sweep_circle_circle" => |s| sweep_circle_circle(&s.mover, s.motion, &s.b, -s.motion),
    "sweep_capsule_circle" => |s| sweep_capsule_circle(&s.capsule, -s.motion, &s.mover),
    "sweep_capsule_segment" => |s| sweep_capsule_segment(&s.sweeper, s.motion, &s.segment),
    "sweep_capsule_capsule" => |s| sweep_capsule_capsule(&s.sweeper, s.sweeper_motion, &s.capsule, s.drift),
    "sweep_segment_segment" => |s| sweep_segment_segment(&s.sweeper.segment(), s.sweeper_motion, &s.segment, s.drift),
}

/// The batch intersection tests, one call over all the scenes' shapes (so
/// the medians are per pair, like the single queries'): the first scene's
/// circle against every segment, capsule and circle, and every circle
/// against the first scene's segment and capsule.
const BATCHES: [&str; 5] = [
    "batch_intersects_circle_segments",
    "batch_intersects_circles_segment",
    "batch_intersects_circle_capsules",
    "batch_intersects_circles_capsule",
    "batch_intersects_circle_circles",
];

/// The group of a type's benchmarks on a workload, `<type>-<workload>`
/// (`f32-near`, …).
fn group<'a>(c: &'a mut Criterion, name: &str, workload: Workload) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(format!("{name}-{}", workload.name()));
    group.throughput(Throughput::Elements(SCENES as u64));
    group.sample_size(30).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
    group
}

/// Benchmarks `query` (one of [`QUERIES`] or [`BATCHES`]) in `S`.
fn bench_query<S: Scalar>(c: &mut Criterion, name: &str, workload: Workload, query: &str, scenes: &[Scene<S>]) {
    let mut group = group(c, name, workload);
    if !bench_single(&mut group, query, scenes) {
        bench_batch(&mut group, query, scenes);
    }
    group.finish();
}

/// Benchmarks one batch call (one of [`BATCHES`]) writing into `out`.
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

/// Benchmarks the batch call `query` (one of [`BATCHES`]) over the scenes'
/// shapes.
fn bench_batch<S: Scalar>(group: &mut BenchmarkGroup<'_, WallTime>, query: &str, scenes: &[Scene<S>]) {
    let segments: Vec<Segment<S>> = scenes.iter().map(|s| s.segment).collect();
    let capsules: Vec<Capsule<S>> = scenes.iter().map(|s| s.capsule).collect();
    let circles: Vec<Circle<S>> = scenes.iter().map(|s| s.a).collect();
    let others: Vec<Circle<S>> = scenes.iter().map(|s| s.b).collect();
    let (circle, segment, capsule) = (&scenes[0].a, &scenes[0].segment, &scenes[0].capsule);
    let (g, out) = (group, &mut vec![false; scenes.len()]);
    match query {
        "batch_intersects_circle_segments" => {
            batch(g, out, query, |out| intersects_circle_segments(black_box(circle), &segments, out));
        }
        "batch_intersects_circles_segment" => {
            batch(g, out, query, |out| intersects_circles_segment(&circles, black_box(segment), out));
        }
        "batch_intersects_circle_capsules" => {
            batch(g, out, query, |out| intersects_circle_capsules(black_box(circle), &capsules, out));
        }
        "batch_intersects_circles_capsule" => {
            batch(g, out, query, |out| intersects_circles_capsule(&circles, black_box(capsule), out));
        }
        "batch_intersects_circle_circles" => {
            batch(g, out, query, |out| intersects_circle_circles(black_box(circle), &others, out));
        }
        _ => panic!("no benchmark named {query}"),
    }
}

/// Every query in every type, a query's five types one after another, so
/// that the ratios between types (what the tables are read for) compare
/// measurements seconds apart rather than minutes apart: on a shared
/// machine whose speed drifts, a type measured all at once could otherwise
/// land in a slower spell than the type it is compared with.
fn queries(c: &mut Criterion) {
    for workload in Workload::ALL {
        let (f32s, f64s) = (scenes::<f32>(workload), scenes::<f64>(workload));
        let (i16f16, i32f32, i48f16) =
            (scenes::<I16F16>(workload), scenes::<I32F32>(workload), scenes::<I48F16>(workload));
        for query in QUERIES.iter().chain(&BATCHES) {
            bench_query(c, "f32", workload, query, &f32s);
            bench_query(c, "f64", workload, query, &f64s);
            bench_query(c, "I16F16", workload, query, &i16f16);
            bench_query(c, "I32F32", workload, query, &i32f32);
            bench_query(c, "I48F16", workload, query, &i48f16);
        }
    }
}

criterion_group!(benches, queries);
criterion_main!(benches);
