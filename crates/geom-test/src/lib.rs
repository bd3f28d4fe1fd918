//! Cross-precision testing for `geom-core`: an exact rational oracle, the
//! scalar types' tolerances, and `proptest` strategies that generate scenes
//! inside each type's safe range, the awkward cases included.
//!
//! The property tests themselves live in `tests/`.

// A test-support crate: its helpers panic on a broken invariant (a generated
// shape outside the safe range, say), which fails the test that called them.
#![allow(clippy::missing_panics_doc)]

pub mod oracle;
pub mod strategy;

use fixed::types::{I16F16, I32F32, I48F16};
use geom_core::{Scalar, Vec2};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;
use proptest::prelude::*;

pub use oracle::{Q, QVec};

/// What the tests need from a scalar type beyond [`Scalar`]: exact
/// conversions to and from the oracle's rationals, and the size of one
/// rounding step.
pub trait Testable: Scalar {
    /// The type's name, for messages.
    const NAME: &'static str;
    /// One rounding step of an absolute quantity (fixed-point: `2^-F`;
    /// floats: the smallest normal step, negligible next to `RELATIVE`).
    const STEP: f64;
    /// One rounding step relative to the magnitude of the values involved
    /// (floats: half an ulp; fixed-point: zero).
    const RELATIVE: f64;

    /// The exact value.
    fn to_rational(self) -> Q;
    /// The value as `f64` (rounded for 64-bit fixed-point types).
    fn to_f64(self) -> f64;
    /// The representable value nearest to `v`, saturating at the type's
    /// bounds.
    fn from_f64(v: f64) -> Self;
    /// The representable value nearest to `v`.
    fn from_rational(v: &Q) -> Self;
    /// The next representable value above `self` (or below, for a negative
    /// `steps`).
    fn nudge(self, steps: i32) -> Self;
    /// The largest representable value whose square is at most `q` (for
    /// floats: the nearest to `√q`).
    fn sqrt_floor(q: &Q) -> Self;
    /// A strategy for values in `[-scale, scale]`.
    fn arbitrary(scale: f64) -> BoxedStrategy<Self>;

    /// The tolerance for a quantity computed from values of magnitude up to
    /// `scale`, `k` rounding steps wide.
    fn tolerance(scale: f64, k: f64) -> f64 {
        k * (Self::STEP + Self::RELATIVE * scale)
    }
}

impl Testable for f32 {
    const NAME: &'static str = "f32";
    const STEP: f64 = f32::MIN_POSITIVE as f64;
    const RELATIVE: f64 = f32::EPSILON as f64;
    fn to_rational(self) -> Q {
        BigRational::from_float(self).expect("finite")
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    fn from_rational(v: &Q) -> Self {
        rational_to_f64(v) as f32
    }
    fn nudge(self, steps: i32) -> Self {
        let mut v = self;
        for _ in 0..steps.unsigned_abs() {
            v = if steps > 0 { v.next_up() } else { v.next_down() };
        }
        v
    }
    fn sqrt_floor(q: &Q) -> Self {
        Self::from_f64(oracle::sqrt_f64(q))
    }
    fn arbitrary(scale: f64) -> BoxedStrategy<Self> {
        float_arbitrary(scale)
    }
}

impl Testable for f64 {
    const NAME: &'static str = "f64";
    const STEP: f64 = f64::MIN_POSITIVE;
    const RELATIVE: f64 = f64::EPSILON;
    fn to_rational(self) -> Q {
        BigRational::from_float(self).expect("finite")
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn from_f64(v: f64) -> Self {
        v
    }
    fn from_rational(v: &Q) -> Self {
        rational_to_f64(v)
    }
    fn nudge(self, steps: i32) -> Self {
        let mut v = self;
        for _ in 0..steps.unsigned_abs() {
            v = if steps > 0 { v.next_up() } else { v.next_down() };
        }
        v
    }
    fn sqrt_floor(q: &Q) -> Self {
        Self::from_f64(oracle::sqrt_f64(q))
    }
    fn arbitrary(scale: f64) -> BoxedStrategy<Self> {
        float_arbitrary(scale)
    }
}

macro_rules! testable_fixed {
    ($t:ty, $bits:ty, $name:literal) => {
        impl Testable for $t {
            const NAME: &'static str = $name;
            const STEP: f64 = 1.0 / (1_u64 << <$t>::FRAC_NBITS) as f64;
            const RELATIVE: f64 = 0.0;
            fn to_rational(self) -> Q {
                BigRational::new(BigInt::from(self.to_bits()), BigInt::one() << <$t>::FRAC_NBITS)
            }
            fn to_f64(self) -> f64 {
                self.to_num()
            }
            fn from_f64(v: f64) -> Self {
                <$t>::saturating_from_num(v)
            }
            fn from_rational(v: &Q) -> Self {
                let scaled = v * BigRational::from_integer(BigInt::one() << <$t>::FRAC_NBITS);
                let bits: BigInt = scaled.round().to_integer();
                <$t>::from_bits(bits.try_into().expect("in range"))
            }
            fn nudge(self, steps: i32) -> Self {
                self.saturating_add(<$t>::DELTA.saturating_mul_int(steps.into()))
            }
            fn sqrt_floor(q: &Q) -> Self {
                let bits = strategy::fixed_sqrt_floor_bits(q, <$t>::FRAC_NBITS);
                <$t>::from_bits(bits.try_into().unwrap_or(<$t>::MAX.to_bits()))
            }
            fn arbitrary(scale: f64) -> BoxedStrategy<Self> {
                let max = (scale * <$t>::ONE.to_bits() as f64) as $bits;
                let grid = (-64_i32..=64).prop_map(move |k| Self::from_f64(f64::from(k) * scale / 64.0));
                prop_oneof![3 => (-max..=max).prop_map(<$t>::from_bits), 1 => grid].boxed()
            }
        }
    };
}

testable_fixed!(I16F16, i32, "I16F16");
testable_fixed!(I32F32, i64, "I32F32");
testable_fixed!(I48F16, i64, "I48F16");

/// The property tests' configuration: `proptest`'s defaults and
/// `PROPTEST_*` environment variables, except that without
/// `PROPTEST_CASES` each property runs 512 cases and without
/// `PROPTEST_RNG_SEED` the seed is fixed, so a CI run is reproducible.
/// Longer or differently seeded runs set those variables, e.g.
/// `PROPTEST_CASES=100000 PROPTEST_RNG_SEED=7 cargo test -p geom-test --release`.
pub fn config() -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = 512;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = proptest::test_runner::RngSeed::Fixed(0x6765_6f6d);
    }
    config
}

/// Floats: uniform in `[-scale, scale]`, or on a coarse dyadic grid where
/// exact ties happen.
fn float_arbitrary<S: Testable>(scale: f64) -> BoxedStrategy<S> {
    let grid = (-64_i32..=64).prop_map(move |k| S::from_f64(f64::from(k) * scale / 64.0));
    prop_oneof![3 => (-1.0..=1.0_f64).prop_map(move |u| S::from_f64(u * scale)), 1 => grid].boxed()
}

/// A rational as the nearest `f64` (exact enough for tolerances: the error
/// is one rounding of a correctly computed quotient).
pub fn rational_to_f64(v: &Q) -> f64 {
    use num_traits::ToPrimitive;
    v.to_f64().expect("rationals of in-range values convert to f64")
}

/// The exact point of a vector.
pub fn qvec<S: Testable>(v: Vec2<S>) -> QVec {
    QVec::new(v.x.to_rational(), v.y.to_rational())
}

/// A vector of `S` from `f64` coordinates, each rounded to nearest.
pub fn vec_from_f64<S: Testable>(x: f64, y: f64) -> Vec2<S> {
    Vec2::new(S::from_f64(x), S::from_f64(y))
}

/// A vector converted to `f64` coordinates.
pub fn vec_to_f64<S: Testable>(v: Vec2<S>) -> Vec2<f64> {
    Vec2::new(v.x.to_f64(), v.y.to_f64())
}
