//! geom against parry2d: the same questions on the same scenes.
//!
//! Each benchmark runs one implementation of a query over the 4096 scenes of
//! a workload shared with geom's own benchmarks (`common::Workload`:
//! `uniform`, few pairs touching, and `near`, about half touching or
//! hitting), every answer through `black_box`. Shapes are built before the
//! timed loop. The implementations (`<query>/<impl>.r<round>` in the groups
//! `peers-uniform` and `peers-near`, each measured in [`ROUNDS`] rounds):
//!
//! - `geom_f32`, `geom_f64`, `geom_I32F32`, `geom_I16F16`: geom's query in
//!   that type;
//! - `parry_query_f32`, `parry_query_f64`: parry's generic `query::*` entry
//!   point on `&dyn Shape` (parry2d and parry2d-f64);
//! - `parry_kernel_f32`, `parry_kernel_f64`: parry's fastest typed path for
//!   the pair (see `parry/mod.rs` for each choice).
//!
//! Run with `cargo xtask bench --peers`, which prints each implementation's
//! median per query (the median of its rounds' medians) and the ratios.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fixed::types::{I16F16, I32F32};
use geom_core::{
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

/// How many times each query's implementations are measured in turn.
/// `cargo xtask bench --peers` reports each implementation's median over
/// its rounds (`<implementation>.r<k>`, `k` from 0).
const ROUNDS: usize = 3;

/// Every implementation of each query listed, one after another (geom's
/// in each type, then parry's generic query and typed kernel from each
/// parry crate, `parry/mod.rs`), in [`ROUNDS`] rounds, so that the ratios
/// between them (what the tables are read for) compare measurements
/// seconds apart rather than minutes apart, and a spell of a few seconds
/// in which the shared machine runs slower moves one round of an
/// implementation, not its median over the rounds.
macro_rules! peer_queries {
    ($($name:literal => |$s:ident| $call:expr, parry: $query:ident, $kernel:ident;)*) => {
        fn bench_queries(g: &mut BenchmarkGroup<'_, WallTime>, workload: Workload) {
            let (f32s, f64s) = (scenes::<f32>(workload), scenes::<f64>(workload));
            let (fixed64, fixed32) = (scenes::<I32F32>(workload), scenes::<I16F16>(workload));
            let (p32, p64) = (parry32::scenes(workload), parry64::scenes(workload));
            $(
                for round in 0..ROUNDS {
                    let id = |implementation: &str| format!("{implementation}.r{round}");
                    run(g, $name, &id("geom_f32"), &f32s, |$s| $call);
                    run(g, $name, &id("geom_f64"), &f64s, |$s| $call);
                    run(g, $name, &id("geom_I32F32"), &fixed64, |$s| $call);
                    run(g, $name, &id("geom_I16F16"), &fixed32, |$s| $call);
                    run(g, $name, &id("parry_query_f32"), &p32, parry32::$query);
                    run(g, $name, &id("parry_kernel_f32"), &p32, parry32::$kernel);
                    run(g, $name, &id("parry_query_f64"), &p64, parry64::$query);
                    run(g, $name, &id("parry_kernel_f64"), &p64, parry64::$kernel);
                }
            )*
        }
    };
}

peer_queries! {
    "intersects_circle_segment" => |s| intersects_circle_segment(&s.a, &s.segment),
        parry: intersects_circle_segment_query, intersects_circle_segment_kernel;
    "distance_point_segment" => |s| distance_point_segment(s.a.center(), &s.segment),
        parry: distance_point_segment_query, distance_point_segment_kernel;
    "contact_circle_segment" => |s| contact_circle_segment(&s.a, &s.segment),
        parry: contact_circle_segment_query, contact_circle_segment_kernel;
    "contact_circle_capsule" => |s| contact_circle_capsule(&s.a, &s.capsule),
        parry: contact_circle_capsule_query, contact_circle_capsule_kernel;
    "contact_circle_circle" => |s| contact_circle_circle(&s.a, &s.b),
        parry: contact_circle_circle_query, contact_circle_circle_kernel;
    "contact_capsule_capsule" => |s| contact_capsule_capsule(&s.capsule, &s.other),
        parry: contact_capsule_capsule_query, contact_capsule_capsule_kernel;
    "sweep_circle_segment" => |s| sweep_circle_segment(&s.mover, s.motion, &s.segment),
        parry: sweep_circle_segment_query, sweep_circle_segment_kernel;
    "sweep_capsule_segment" => |s| sweep_capsule_segment(&s.sweeper, s.motion, &s.segment),
        parry: sweep_capsule_segment_query, sweep_capsule_segment_kernel;
    "sweep_capsule_capsule" => |s| sweep_capsule_capsule(&s.sweeper, s.sweeper_motion, &s.capsule, s.drift),
        parry: sweep_capsule_capsule_query, sweep_capsule_capsule_kernel;
}

fn peers(c: &mut Criterion) {
    for workload in Workload::ALL {
        let mut group = c.benchmark_group(format!("peers-{}", workload.name()));
        group.throughput(Throughput::Elements(SCENES as u64));
        // Three rounds of half a second: about 1.6 times the time of one
        // round of a second.
        group.sample_size(30).warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_millis(500));
        bench_queries(&mut group, workload);
        group.finish();
    }
}

criterion_group!(benches, peers);
criterion_main!(benches);
