//! geom against parry2d: the same questions on the same scenes.
//!
//! Each benchmark runs one implementation of a query over the 4096 scenes of
//! a workload shared with geom's own benchmarks (`common::Workload`:
//! `uniform`, few pairs touching, and `near`, about half touching or
//! hitting), every answer through `black_box`. Shapes are built before the
//! timed loop. The implementations (`<query>/<impl>` in the groups
//! `peers-uniform` and `peers-near`):
//!
//! - `geom_f32`, `geom_f64`, `geom_I32F32`: geom's query in that type;
//! - `parry_query_f32`, `parry_query_f64`: parry's generic `query::*` entry
//!   point on `&dyn Shape` (parry2d and parry2d-f64);
//! - `parry_kernel_f32`, `parry_kernel_f64`: parry's fastest typed path for
//!   the pair (see `parry/mod.rs` for each choice).
//!
//! Run with `cargo xtask bench --peers`, which prints the medians per query
//! and the ratios.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fixed::types::I32F32;
use geom_core::{
    Scalar,
    contact_capsule_capsule, contact_circle_capsule, contact_circle_circle, contact_circle_segment,
    distance_point_segment, intersects_circle_segment, sweep_capsule_capsule, sweep_capsule_segment,
    sweep_circle_segment,
};

#[path = "../../crates/geom-core/benches/common/mod.rs"]
mod common;
mod parry;

use common::{SCENES, Workload, scenes};
use parry::{parry32, parry64};

/// Benchmarks one implementation of a query over every scene, each answer
/// through `black_box`.
fn run<T, R>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    query: &str,
    implementation: &str,
    scenes: &[T],
    answer: impl Fn(&T) -> R,
) {
    group.bench_function(BenchmarkId::new(query, implementation), |b| {
        b.iter(|| {
            for scene in scenes {
                black_box(answer(black_box(scene)));
            }
        });
    });
}

/// geom's queries in `S`, as `geom_<name>`.
fn bench_geom<S: Scalar>(group: &mut BenchmarkGroup<'_, WallTime>, workload: Workload, name: &str) {
    let scenes = scenes::<S>(workload);
    let (g, s, i) = (group, &scenes, &format!("geom_{name}"));
    run(g, "intersects_circle_segment", i, s, |s| intersects_circle_segment(&s.a, &s.segment));
    run(g, "distance_point_segment", i, s, |s| distance_point_segment(s.a.center(), &s.segment));
    run(g, "contact_circle_segment", i, s, |s| contact_circle_segment(&s.a, &s.segment));
    run(g, "contact_circle_capsule", i, s, |s| contact_circle_capsule(&s.a, &s.capsule));
    run(g, "contact_circle_circle", i, s, |s| contact_circle_circle(&s.a, &s.b));
    run(g, "contact_capsule_capsule", i, s, |s| contact_capsule_capsule(&s.capsule, &s.other));
    run(g, "sweep_circle_segment", i, s, |s| sweep_circle_segment(&s.mover, s.motion, &s.segment));
    run(g, "sweep_capsule_segment", i, s, |s| sweep_capsule_segment(&s.sweeper, s.motion, &s.segment));
    run(g, "sweep_capsule_capsule", i, s, |s| sweep_capsule_capsule(&s.sweeper, s.sweeper_motion, &s.capsule, s.drift));
}

/// Parry's generic queries and typed kernels for one parry crate (a module
/// of `parry/mod.rs`), as `parry_query_<name>` and `parry_kernel_<name>`.
macro_rules! bench_parry {
    ($group:expr, $workload:expr, $module:ident, $name:literal) => {{
        let scenes = $module::scenes($workload);
        let (g, s) = ($group, &scenes);
        let (q, k) = (concat!("parry_query_", $name), concat!("parry_kernel_", $name));
        run(g, "intersects_circle_segment", q, s, $module::intersects_circle_segment_query);
        run(g, "intersects_circle_segment", k, s, $module::intersects_circle_segment_kernel);
        run(g, "distance_point_segment", q, s, $module::distance_point_segment_query);
        run(g, "distance_point_segment", k, s, $module::distance_point_segment_kernel);
        run(g, "contact_circle_segment", q, s, $module::contact_circle_segment_query);
        run(g, "contact_circle_segment", k, s, $module::contact_circle_segment_kernel);
        run(g, "contact_circle_capsule", q, s, $module::contact_circle_capsule_query);
        run(g, "contact_circle_capsule", k, s, $module::contact_circle_capsule_kernel);
        run(g, "contact_circle_circle", q, s, $module::contact_circle_circle_query);
        run(g, "contact_circle_circle", k, s, $module::contact_circle_circle_kernel);
        run(g, "contact_capsule_capsule", q, s, $module::contact_capsule_capsule_query);
        run(g, "contact_capsule_capsule", k, s, $module::contact_capsule_capsule_kernel);
        run(g, "sweep_circle_segment", q, s, $module::sweep_circle_segment_query);
        run(g, "sweep_circle_segment", k, s, $module::sweep_circle_segment_kernel);
        run(g, "sweep_capsule_segment", q, s, $module::sweep_capsule_segment_query);
        run(g, "sweep_capsule_segment", k, s, $module::sweep_capsule_segment_kernel);
        run(g, "sweep_capsule_capsule", q, s, $module::sweep_capsule_capsule_query);
        run(g, "sweep_capsule_capsule", k, s, $module::sweep_capsule_capsule_kernel);
    }};
}

fn peers(c: &mut Criterion) {
    for workload in Workload::ALL {
        let mut group = c.benchmark_group(format!("peers-{}", workload.name()));
        group.throughput(Throughput::Elements(SCENES as u64));
        group.sample_size(30).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
        bench_geom::<f32>(&mut group, workload, "f32");
        bench_geom::<f64>(&mut group, workload, "f64");
        bench_geom::<I32F32>(&mut group, workload, "I32F32");
        bench_parry!(&mut group, workload, parry32, "f32");
        bench_parry!(&mut group, workload, parry64, "f64");
        group.finish();
    }
}

criterion_group!(benches, peers);
criterion_main!(benches);
