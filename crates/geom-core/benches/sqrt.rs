//! Throughput of the square root per scalar type: geom's `Scalar::sqrt`
//! (correctly rounded, exact integer arithmetic for fixed point) against the
//! `fixed` crate's own `sqrt` (rounded down, a bit-by-bit loop), with `f32`
//! and `f64` for reference.
//!
//! Each benchmark takes the square root of the same 4096 values of its type,
//! drawn from a seeded generator and spread log-uniformly over
//! `[0, MAX_COORD]` (every magnitude from the smallest step to the largest
//! safe coordinate is equally likely), every result through `black_box`.
//! Divide a median by 4096 for the time of one square root. Run with
//! `cargo bench -p geom-core --bench sqrt`.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fixed::types::{I16F16, I32F32, I48F16};
use geom_core::Scalar;

mod common;
use common::SplitMix;

/// How many values each benchmark takes the square root of.
const VALUES: usize = 4096;

/// A scalar type the bench can draw values of.
trait Sample: Scalar {
    /// A value in `[0, MAX_COORD]` whose magnitude is log-uniform.
    fn sample(rng: &mut SplitMix) -> Self;
}

macro_rules! sample_float {
    ($($t:ty),*) => {$(
        impl Sample for $t {
            fn sample(rng: &mut SplitMix) -> Self {
                // MAX_COORD · 2^(-u·log2 MAX_COORD): from 1 up to MAX_COORD.
                let max = f64::from(<$t>::MAX_COORD);
                (max * (-rng.unit() * max.log2()).exp2()) as $t
            }
        }
    )*};
}

macro_rules! sample_fixed {
    ($($t:ty),*) => {$(
        impl Sample for $t {
            fn sample(rng: &mut SplitMix) -> Self {
                // A raw value with a uniformly drawn bit length below that
                // of MAX_COORD (a power of two) and uniform bits under it.
                let bits = <$t>::MAX_COORD.to_bits().trailing_zeros();
                let length = (rng.next_u64() % u64::from(bits)) as u32;
                let raw = (1 << length) | (rng.next_u64() & ((1 << length) - 1));
                <$t>::from_bits(raw as _)
            }
        }
    )*};
}

sample_float!(f32, f64);
sample_fixed!(I16F16, I32F32, I48F16);

fn values<S: Sample>() -> Vec<S> {
    let mut rng = SplitMix(0x7371_7274);
    (0..VALUES).map(|_| S::sample(&mut rng)).collect()
}

/// Benchmarks one square root over every value, each result through
/// `black_box`.
fn run<S: Copy>(group: &mut BenchmarkGroup<'_, WallTime>, id: BenchmarkId, values: &[S], sqrt: impl Fn(S) -> S) {
    group.bench_function(id, |b| {
        b.iter(|| {
            for &x in values {
                black_box(sqrt(black_box(x)));
            }
        });
    });
}

fn sqrt(c: &mut Criterion) {
    let mut group = c.benchmark_group("sqrt");
    group.throughput(Throughput::Elements(VALUES as u64));
    group.sample_size(30).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
    let g = &mut group;
    let (a, b, c) = (values::<I16F16>(), values::<I32F32>(), values::<I48F16>());
    run(g, BenchmarkId::new("geom", "I16F16"), &a, Scalar::sqrt);
    run(g, BenchmarkId::new("geom", "I32F32"), &b, Scalar::sqrt);
    run(g, BenchmarkId::new("geom", "I48F16"), &c, Scalar::sqrt);
    run(g, BenchmarkId::new("fixed", "I16F16"), &a, I16F16::sqrt);
    run(g, BenchmarkId::new("fixed", "I32F32"), &b, I32F32::sqrt);
    run(g, BenchmarkId::new("fixed", "I48F16"), &c, I48F16::sqrt);
    run(g, BenchmarkId::from_parameter("f32"), &values::<f32>(), Scalar::sqrt);
    run(g, BenchmarkId::from_parameter("f64"), &values::<f64>(), Scalar::sqrt);
    group.finish();
}

criterion_group!(benches, sqrt);
criterion_main!(benches);
