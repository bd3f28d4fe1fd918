//! The checks behind the fuzz targets in `fuzz/` (run with `cargo xtask
//! fuzz`), as ordinary library code, so that the committed corpus and every
//! crash input found and fixed are replayed by `cargo test` through the very
//! same functions (`tests/integration/fuzz_corpus.rs`, with the helpers of
//! [`replay`]).
//!
//! Each entry point takes the fuzzer's raw bytes. The first byte picks the
//! scalar type (`f32`, `f64`, `I16F16`, `I32F32`, `I48F16`, by its value
//! modulo 5); the rest is decoded by the [`grammar`](Input) into numbers,
//! points and shapes that reach the awkward cases on purpose. Each entry
//! point panics, with a message naming the property and the input, when a
//! guarantee is broken:
//!
//! - [`static_queries()`]: every closest-point, distance, intersection and
//!   contact query, and every batch query;
//! - [`swept_queries()`]: every `sweep_*` query;
//! - [`world()`]: a stream of operations on a [`World`](geom_core::world::World),
//!   with its invariants, its checksums under snapshot and restore, and a
//!   clone stepped in parallel.
//!
//! What "a guarantee" means is spelled out at each check; in short: a
//! typed error or a documented answer, never a panic (overflow checks are
//! on in the fuzz builds); no NaN or infinity out of finite input; the
//! queries agree with each other and, for fixed-point types, with the exact
//! oracle, as documented; and nothing allocates in proportion to a number
//! read from the input.
//!
//! # Examples
//!
//! ```
//! // Any bytes at all are a valid input: these decode to I16F16 shapes.
//! geom_test::fuzz::static_queries(b"\x02some bytes of a fuzzer's input");
//! geom_test::fuzz::swept_queries(b"\x03more bytes");
//! geom_test::fuzz::world(b"\x04and some operations on a world");
//! ```

pub mod grammar;
pub mod replay;
mod statics;
mod sweeps;
mod world;

use fixed::types::{I16F16, I32F32, I48F16};
use geom_core::Vec2;

pub use grammar::{FuzzScalar, Input, special};

/// Calls `$check::<S>(input)` with the scalar type the first byte picks.
macro_rules! for_type_byte {
    ($data:expr, $check:ident) => {{
        let data: &[u8] = $data;
        let (kind, rest) = data.split_first().map_or((0, &[][..]), |(k, r)| (*k, r));
        match kind % 5 {
            0 => $check::<f32>(&mut Input::new(rest)),
            1 => $check::<f64>(&mut Input::new(rest)),
            2 => $check::<I16F16>(&mut Input::new(rest)),
            3 => $check::<I32F32>(&mut Input::new(rest)),
            _ => $check::<I48F16>(&mut Input::new(rest)),
        }
    }};
}

/// The `static_queries` target: decodes a point and up to four segments,
/// circles and capsules, and checks every static query on every pair, and
/// every batch query on them all.
///
/// # Panics
///
/// When a query breaks a documented guarantee: the message says which.
///
/// # Examples
///
/// See the [module documentation](self).
pub fn static_queries(data: &[u8]) {
    for_type_byte!(data, check_statics);
}

/// The `swept_queries` target: decodes a circle with a motion, a segment,
/// a capsule with a motion and a second circle with a motion, and checks
/// every sweep query on them.
///
/// # Panics
///
/// When a sweep breaks a documented guarantee: the message says which.
///
/// # Examples
///
/// See the [module documentation](self).
pub fn swept_queries(data: &[u8]) {
    for_type_byte!(data, check_sweeps);
}

/// The `world` target: decodes a configuration and a stream of operations
/// (add, set and remove bodies, add, set and remove colliders, step,
/// snapshot, restore and re-step, a rollback sync test) and checks the
/// world's invariants after each, its checksums under rollback, and a clone
/// stepped in parallel.
///
/// # Panics
///
/// When the world breaks a documented guarantee: the message says which.
///
/// # Examples
///
/// See the [module documentation](self).
pub fn world(data: &[u8]) {
    for_type_byte!(data, check_world);
}

fn check_statics<S: FuzzScalar>(input: &mut Input<'_, S>) {
    statics::check(input);
}

fn check_sweeps<S: FuzzScalar>(input: &mut Input<'_, S>) {
    sweeps::check(input);
}

fn check_world<S: FuzzScalar>(input: &mut Input<'_, S>) {
    world::check(input);
}

/// The magnitude of the largest finite coordinate, and at least 1: the
/// scale at which a float's rounding steps are measured.
fn scale_of<S: FuzzScalar>(points: &[Vec2<S>]) -> f64 {
    points.iter().flat_map(|p| [p.x.to_f64().abs(), p.y.to_f64().abs()]).filter(|v| v.is_finite()).fold(1.0, f64::max)
}

/// A tolerance of `k` rounding steps of `S` at `scale`, plus the error of
/// doing the comparison itself in `f64` (which cannot hold every 64-bit
/// fixed-point value).
fn tolerance<S: FuzzScalar>(scale: f64, k: f64) -> f64 {
    S::tolerance(scale, k) + 8.0 * f64::EPSILON * scale
}

/// Whether both components are finite.
fn finite<S: FuzzScalar>(v: Vec2<S>) -> bool {
    FuzzScalar::is_finite(v.x) && FuzzScalar::is_finite(v.y)
}

/// Whether a component is NaN.
fn has_nan<S: FuzzScalar>(v: Vec2<S>) -> bool {
    v.x.is_nan() || v.y.is_nan()
}

/// Whether `|v| − 1` is within `tol`: a unit vector.
fn unit_within<S: FuzzScalar>(v: Vec2<S>, tol: f64) -> bool {
    let (x, y) = (v.x.to_f64(), v.y.to_f64());
    (x.hypot(y) - 1.0).abs() <= tol
}

/// The tolerance on the length of a normal: each component rounded once
/// (fixed point), or computed in `f64` and rounded (floats).
fn unit_tolerance<S: FuzzScalar>() -> f64 {
    2.0 * S::STEP + 8.0 * S::RELATIVE + 4.0 * f64::EPSILON
}

/// Whether `v` lies in the box of `a` and `b`, widened by `slack`.
fn in_box<S: FuzzScalar>(v: Vec2<S>, a: Vec2<S>, b: Vec2<S>, slack: f64) -> bool {
    let within = |v: S, a: S, b: S| {
        let (v, a, b) = (v.to_f64(), a.to_f64(), b.to_f64());
        v >= a.min(b) - slack && v <= a.max(b) + slack
    };
    within(v.x, a.x, b.x) && within(v.y, a.y, b.y)
}
