//! Cross-precision testing for `geom-core`: an exact rational oracle, the
//! scalar types' tolerances, and `proptest` strategies that generate scenes
//! inside each type's safe range, the awkward cases included.
//!
//! The property tests themselves live in `tests/`.

// A test-support crate: its helpers panic on a broken invariant (a generated
// shape outside the safe range, say), which fails the test that called them.
#![allow(clippy::missing_panics_doc)]

pub mod accuracy;
pub mod fuzz;
pub mod golden;
pub mod oracle;
pub mod strategy;

use fixed::types::{I16F16, I32F32, I48F16};
use geom_core::{Scalar, Vec2};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;
use proptest::prelude::*;

/// The seeded generator of the golden streams (geom-rng's, the workspace's
/// one copy).
pub use geom_rng::SplitMix;
pub use oracle::{Q, QVec};

/// What the tests need from a scalar type beyond [`Scalar`] (whose
/// `to_f64` and `from_f64`, nearest and saturating, the tests use for `f64`):
/// exact conversions to and from the oracle's rationals, and the size of
/// one rounding step.
///
/// # Examples
///
/// ```
/// use fixed::types::I16F16;
/// use geom_core::Scalar;
/// use geom_test::{Q, Testable};
///
/// let x = I16F16::from_num(0.75);
/// assert_eq!(x.to_rational(), Q::new(3.into(), 4.into()));
/// assert_eq!(x.to_f64(), 0.75);
/// assert_eq!(I16F16::from_f64(0.75), x);
/// assert_eq!(I16F16::from_rational(&Q::new(3.into(), 4.into())), x);
/// assert_eq!(x.nudge(1), x + I16F16::DELTA);
/// assert_eq!(I16F16::from_num(-0.5).to_raw(), 0xffff_8000); // raw bits, 32 wide
/// assert_eq!(I16F16::from_raw(0xffff_8000), I16F16::from_num(-0.5));
/// assert_eq!(1.5_f32.to_raw(), u128::from(1.5_f32.to_bits()));
/// assert_eq!(I16F16::wide_to_raw(x.wide_mul(x)), 0x9000_0000); // 0.5625 in I32F32
/// assert_eq!(I16F16::wide_to_rational(x.wide_mul(x)), Q::new(9.into(), 16.into()));
/// assert_eq!(I16F16::sqrt_floor(&Q::from_integer(2.into())), I16F16::from_bits(92681)); // ⌊√2·2^16⌋
/// assert_eq!(I16F16::tolerance(1000.0, 2.0), 2.0 / 65536.0); // fixed point: absolute
/// assert!(f32::tolerance(1000.0, 1.0) > 1e-4); // floats: relative to the scale
/// ```
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
    ///
    /// See [`Testable`] for an example.
    fn to_rational(self) -> Q;
    /// The representable value nearest to `v`.
    ///
    /// See [`Testable`] for an example.
    fn from_rational(v: &Q) -> Self;
    /// The next representable value above `self` (or below, for a negative
    /// `steps`).
    ///
    /// See [`Testable`] for an example.
    fn nudge(self, steps: i32) -> Self;
    /// The largest representable value whose square is at most `q` (for
    /// floats: the nearest to `√q`).
    ///
    /// See [`Testable`] for an example.
    fn sqrt_floor(q: &Q) -> Self;
    /// The width of the type's bit pattern, and of its [`Scalar::Wide`]'s.
    const BITS: (u32, u32);

    /// The bit pattern, zero-extended: IEEE-754 for floats, the raw
    /// two's-complement integer for fixed point.
    ///
    /// See [`Testable`] for an example.
    fn to_raw(self) -> u128;
    /// The value with this bit pattern (the low [`BITS`](Self::BITS).0
    /// bits).
    ///
    /// See [`Testable`] for an example.
    fn from_raw(bits: u128) -> Self;
    /// The exact value of a wide value.
    ///
    /// See [`Testable`] for an example.
    fn wide_to_rational(wide: Self::Wide) -> Q;
    /// The bit pattern of a wide value, zero-extended.
    ///
    /// See [`Testable`] for an example.
    fn wide_to_raw(wide: Self::Wide) -> u128;

    /// A strategy for values in `[-scale, scale]`.
    ///
    /// Used by the strategies in [`strategy`].
    fn arbitrary(scale: f64) -> BoxedStrategy<Self>;

    /// Whether `|self| ≤ bound`.
    ///
    /// See [`Testable`] for an example.
    fn abs_le(self, bound: Self) -> bool {
        self <= bound && -bound <= self
    }

    /// The tolerance for a quantity computed from values of magnitude up to
    /// `scale`, `k` rounding steps wide.
    ///
    /// See [`Testable`] for an example.
    fn tolerance(scale: f64, k: f64) -> f64 {
        k * (Self::STEP + Self::RELATIVE * scale)
    }
}

macro_rules! testable_float {
    ($t:ty, $name:literal, $bits:literal) => {
        impl Testable for $t {
            const NAME: &'static str = $name;
            const STEP: f64 = <$t>::MIN_POSITIVE as f64;
            const RELATIVE: f64 = <$t>::EPSILON as f64;
            fn to_rational(self) -> Q {
                BigRational::from_float(self).expect("finite")
            }
            fn from_rational(v: &Q) -> Self {
                rational_to_f64(v) as $t
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
            const BITS: (u32, u32) = ($bits, $bits);
            fn to_raw(self) -> u128 {
                self.to_bits().into()
            }
            fn from_raw(bits: u128) -> Self {
                // Truncation to the type's width is the point.
                #[allow(clippy::cast_possible_truncation)]
                <$t>::from_bits(bits as _)
            }
            fn wide_to_rational(wide: $t) -> Q {
                wide.to_rational()
            }
            fn wide_to_raw(wide: $t) -> u128 {
                wide.to_bits().into()
            }
            fn arbitrary(scale: f64) -> BoxedStrategy<Self> {
                float_arbitrary(scale)
            }
        }
    };
}

testable_float!(f32, "f32", 32);
testable_float!(f64, "f64", 64);

macro_rules! testable_fixed {
    ($t:ty, $bits:ty, $raw:ty, $wide_raw:ty, $name:literal) => {
        impl Testable for $t {
            const NAME: &'static str = $name;
            const STEP: f64 = 1.0 / (1_u64 << <$t>::FRAC_NBITS) as f64;
            const RELATIVE: f64 = 0.0;
            fn to_rational(self) -> Q {
                BigRational::new(BigInt::from(self.to_bits()), BigInt::one() << <$t>::FRAC_NBITS)
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
            const BITS: (u32, u32) = (<$raw>::BITS, <$wide_raw>::BITS);
            fn to_raw(self) -> u128 {
                // Reinterpreting the two's-complement pattern is the point.
                #[allow(clippy::cast_sign_loss)]
                u128::from(self.to_bits() as $raw)
            }
            fn from_raw(bits: u128) -> Self {
                // Truncation to the type's width, then reinterpretation.
                #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
                <$t>::from_bits(bits as $raw as $bits)
            }
            fn wide_to_rational(wide: Self::Wide) -> Q {
                BigRational::new(BigInt::from(wide.to_bits()), BigInt::one() << (2 * <$t>::FRAC_NBITS))
            }
            fn wide_to_raw(wide: Self::Wide) -> u128 {
                #[allow(clippy::cast_sign_loss)]
                u128::from(wide.to_bits() as $wide_raw)
            }
            fn arbitrary(scale: f64) -> BoxedStrategy<Self> {
                let max = (scale * <$t>::ONE.to_bits() as f64) as $bits;
                let grid = (-64_i32..=64).prop_map(move |k| Self::from_f64(f64::from(k) * scale / 64.0));
                prop_oneof![3 => (-max..=max).prop_map(<$t>::from_bits), 1 => grid].boxed()
            }
        }
    };
}

testable_fixed!(I16F16, i32, u32, u64, "I16F16");
testable_fixed!(I32F32, i64, u64, u128, "I32F32");
testable_fixed!(I48F16, i64, u64, u128, "I48F16");

/// The property tests' configuration: `proptest`'s defaults and
/// `PROPTEST_*` environment variables, except that without
/// `PROPTEST_CASES` each property runs 512 cases with `GEOM_TEST_FULL=1`
/// (as `cargo xtask ci` runs it) and 128 in a plain `cargo test`, and
/// without `PROPTEST_RNG_SEED` the seed is fixed, so a CI run is
/// reproducible.
/// Longer or differently seeded runs set those variables, e.g.
/// `PROPTEST_CASES=100000 PROPTEST_RNG_SEED=7 cargo test -p geom-test --release`.
///
/// # Examples
///
/// ```
/// // In a test: proptest! { #![proptest_config(geom_test::config())] … }
/// let config = geom_test::config();
/// assert!(config.cases > 0);
/// ```
pub fn config() -> ProptestConfig {
    config_with_cases(512)
}

/// Whether the heavy suites run at their full size: `GEOM_TEST_FULL=1`, as
/// `cargo xtask ci` runs them (a plain `cargo test` runs a share of each,
/// from the same seeds).
///
/// # Examples
///
/// ```
/// assert_eq!(geom_test::full_tests(), std::env::var("GEOM_TEST_FULL").is_ok_and(|v| v == "1"));
/// ```
#[must_use]
pub fn full_tests() -> bool {
    std::env::var_os("GEOM_TEST_FULL").is_some_and(|v| v == "1")
}

/// [`config`] with `cases` cases, for a property whose cases cost much
/// more or less than most: all of them with `GEOM_TEST_FULL=1` (as
/// `cargo xtask ci` runs them), a quarter of them (at least 16) in a plain
/// `cargo test`; `PROPTEST_CASES` overrides both.
///
/// # Examples
///
/// ```
/// let config = geom_test::config_with_cases(48);
/// assert!(config.cases == 48 || config.cases == 16 || std::env::var_os("PROPTEST_CASES").is_some());
/// ```
pub fn config_with_cases(cases: u32) -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = if full_tests() { cases } else { (cases / 4).max(16) };
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
///
/// # Examples
///
/// ```
/// use geom_test::{Q, rational_to_f64};
///
/// assert_eq!(rational_to_f64(&Q::new(3.into(), 4.into())), 0.75);
/// ```
pub fn rational_to_f64(v: &Q) -> f64 {
    use num_traits::ToPrimitive;
    v.to_f64().expect("rationals of in-range values convert to f64")
}

/// The exact point of a vector.
///
/// # Examples
///
/// ```
/// use geom_core::Vec2;
/// use geom_test::{Q, qvec};
///
/// let q = qvec(Vec2::new(0.5_f32, 2.0));
/// assert_eq!((q.x, q.y), (Q::new(1.into(), 2.into()), Q::from_integer(2.into())));
/// ```
pub fn qvec<S: Testable>(v: Vec2<S>) -> QVec {
    QVec::new(v.x.to_rational(), v.y.to_rational())
}

/// A vector converted to `f64` coordinates.
///
/// # Examples
///
/// ```
/// use fixed::types::I16F16;
/// use geom_core::Vec2;
///
/// let v = Vec2::new(I16F16::from_num(1.5), I16F16::from_num(-2));
/// assert_eq!(geom_test::vec_to_f64(v), Vec2::new(1.5, -2.0));
/// ```
pub fn vec_to_f64<S: Testable>(v: Vec2<S>) -> Vec2<f64> {
    Vec2::new(v.x.to_f64(), v.y.to_f64())
}
