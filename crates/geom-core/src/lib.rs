//! Deterministic 2D collision queries for circles, line segments and
//! capsules, generic over `f32`, `f64` and the fixed-point types of the
//! [`fixed`] crate, for lockstep and rollback netcode games.
//!
//! One API serves every [`Scalar`] type. Fixed-point types get exact yes/no
//! answers and bit-identical results on every platform; floats get the same
//! formulas evaluated in `f64`, bit-identical on every IEEE-754 target.
//!
//! # Layers
//!
//! 1. [`Scalar`]: the number types and their safe coordinate ranges.
//! 2. [`Vec2`]: vectors, with exact products in [`Scalar::Wide`].
//! 3. [`Segment`], [`Circle`], [`Capsule`]: validated shapes.
//! 4. [`query`]: closest points, distances, intersection tests, contacts,
//!    and sweeps of moving circles, capsules and segments with their time
//!    of impact, named `<question>_<a>_<b>` (see the module for the rules).
//! 5. [`world`] (with the default `alloc` feature): a deterministic stepping
//!    world of static and moving colliders and dynamic circles and
//!    capsules, with inputs, events, friction, sensors, layers, world
//!    queries, checksums, snapshots and a rollback sync test.
//!
//! # Features
//!
//! - `alloc` (default): the [`world`] module. Without it the crate needs no
//!   allocator.
//! - `serde`: serialisation of shapes and worlds (validated when read).
//!   Floats are written as `serde` writes them. A fixed-point value is
//!   written in a binary format (`postcard`, the world's
//!   `World::to_bytes`) as its raw bits, and in a human-readable one
//!   (JSON, TOML, RON) as a decimal, where `fixed`'s own `Serialize` writes
//!   `{"bits": 4294967296}`: a number (`1.5`) when its magnitude is below
//!   2<sup>50 − F</sup> for `F` fractional bits (every `I16F16` value,
//!   `I32F32` values below 262 144), so that `f64` holds it exactly with
//!   room to spare; otherwise a string holding its exact decimal expansion
//!   (`"300000.25"`). Reading takes a number (rounded to the nearest value,
//!   ties to even), a decimal string (exactly, then rounded the same way)
//!   or `{"bits": …}`, and refuses a value beyond the type's range. Every
//!   value written is read back bit for bit.
//!
//!   ```
//!   # #[cfg(feature = "serde")] {
//!   use geom_core::fixed::types::I32F32;
//!   use geom_core::Vec2;
//!
//!   let p = Vec2::<I32F32>::from_f64(1.5, -300_000.25);
//!   let json = serde_json::to_string(&p).unwrap();
//!   assert_eq!(json, r#"{"x":1.5,"y":"-300000.25"}"#);
//!   assert_eq!(serde_json::from_str::<Vec2<I32F32>>(&json).unwrap(), p);
//!   assert_eq!(serde_json::from_str::<Vec2<I32F32>>(r#"{"x":"1.5","y":-300000.25}"#).unwrap(), p);
//!   # }
//!   ```
//!
//! # Examples
//!
//! ```
//! use geom_core::fixed::types::I16F16;
//! use geom_core::{contact_circle_segment, intersects_circle_segment, Circle, Segment, Vec2};
//!
//! fn push_ball_out<S: geom_core::Scalar>(ball: Circle<S>, floor: &Segment<S>) -> Vec2<S> {
//!     match contact_circle_segment(&ball, floor) {
//!         Some(contact) => ball.center() + contact.push_out(),
//!         None => ball.center(),
//!     }
//! }
//!
//! // The same code in floating point…
//! let floor = Segment::new(Vec2::new(-10.0_f32, 0.0), Vec2::new(10.0, 0.0))?;
//! let ball = Circle::new(Vec2::new(2.0, 0.5), 1.0)?;
//! assert_eq!(push_ball_out(ball, &floor), Vec2::new(2.0, 1.0));
//!
//! // …and in fixed point.
//! let v = Vec2::<I16F16>::from_f64;
//! let floor = Segment::new(v(-10.0, 0.0), v(10.0, 0.0))?;
//! let ball = Circle::new(v(2.0, 0.5), I16F16::ONE)?;
//! assert!(intersects_circle_segment(&ball, &floor));
//! assert_eq!(push_ball_out(ball, &floor), v(2.0, 1.0));
//! # Ok::<(), geom_core::ShapeError>(())
//! ```
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod query;
mod scalar;
mod shape;
mod vec2;
#[cfg(feature = "alloc")]
pub mod world;

/// The [`fixed`](https://docs.rs/fixed/1.31) crate, version 1.31 as this
/// workspace pins it: the fixed-point types ([`fixed::types::I16F16`],
/// [`fixed::types::I32F32`], …) the [`Scalar`] trait is implemented for.
///
/// Re-exported so that a program needs no `fixed` dependency of its own, and
/// cannot end up with a second, incompatible version of it.
///
/// # Examples
///
/// ```
/// use geom_core::fixed::types::I32F32;
/// use geom_core::{Segment, Vec2};
///
/// let floor = Segment::<I32F32>::new(Vec2::from_f64(-10.0, 0.0), Vec2::from_f64(10.0, 0.0))?;
/// assert_eq!(floor.end().x, I32F32::from_num(10));
/// # Ok::<(), geom_core::ShapeError>(())
/// ```
pub use fixed;
pub use query::{
    ClosestPoint, ClosestPoints, Contact, Impact, SegmentFeature, Sweep, closest_point_point_segment,
    closest_points_segment_segment, contact_capsule_capsule, contact_circle_capsule, contact_circle_circle,
    contact_circle_segment, distance_point_segment, distance_squared_point_segment, intersects_capsule_capsule,
    intersects_circle_capsule, intersects_circle_circle, intersects_circle_segment, sweep_capsule_capsule,
    sweep_capsule_circle, sweep_capsule_segment, sweep_circle_capsule, sweep_circle_circle, sweep_circle_segment,
    sweep_segment_segment,
};
pub use scalar::{Frac32, Frac64, Scalar};
pub use shape::{Capsule, Circle, RangeError, Segment, ShapeError};
pub use vec2::Vec2;

/// The README's examples, run as doctests so the front page stays true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

/// Whether the heavy tests run at their full size (`GEOM_TEST_FULL=1`, as
/// `cargo xtask ci` runs them), rather than the share of it a plain
/// `cargo test` takes.
#[cfg(test)]
pub(crate) fn full_tests() -> bool {
    extern crate std;
    std::env::var_os("GEOM_TEST_FULL").is_some_and(|v| v == "1")
}

/// The unit tests' property test configuration, as `geom_test::config()`
/// has it: `cases` cases at full size (an eighth of them, at least 64,
/// otherwise; see [`full_tests`]) from a fixed `seed`, so every run checks
/// the same ones; `PROPTEST_CASES` and `PROPTEST_RNG_SEED` override either.
#[cfg(test)]
pub(crate) fn proptest_config(cases: u32, seed: u64) -> proptest::test_runner::Config {
    extern crate std;
    let mut config = proptest::test_runner::Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = if full_tests() { cases } else { (cases / 8).max(64) };
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = proptest::test_runner::RngSeed::Fixed(seed);
    }
    config
}

/// The unit tests' seeded generator: geom-rng's `SplitMix64` (the
/// workspace's one copy), under the name and the `next` the test modules
/// use; each test module adds the draws it needs.
#[cfg(test)]
pub(crate) struct SplitMix(pub(crate) u64);

#[cfg(test)]
impl SplitMix {
    pub(crate) fn next(&mut self) -> u64 {
        let mut rng = geom_rng::SplitMix(self.0);
        let bits = rng.next_u64();
        self.0 = rng.0;
        bits
    }
}
