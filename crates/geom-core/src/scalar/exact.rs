//! The rings in which the query kernels evaluate their polynomials.
//!
//! For a fixed-point type the ring is an integer wide enough that every
//! polynomial the kernels build from in-range coordinates (degree ≤ 4) is
//! exact, so every comparison is the mathematically right one. For a float
//! type the ring is `f64`: products of `f32` values are exact there, and `f64`
//! itself is evaluated as usual. Every conversion back to a scalar goes
//! through [`round_div`] or [`sqrt_ratio`], which round to nearest and
//! saturate instead of wrapping (`Scalar::sqrt` through [`round_sqrt_u64`]
//! or [`round_sqrt_u128`], whose results are always in range).
//!
//! Square roots are exact integer roots (`isqrt_u64`, `isqrt_u128`): a
//! correctly rounded `f64` estimate, corrected to the exact floor with
//! integer arithmetic, so the result never depends on the estimate.

use core::fmt::Debug;
use core::ops::{Add, Mul, Neg, Sub};

use ethnum::U256;

use super::wide::{Exact256, div_rem_u256_u128};

/// A ring the kernels compute in: exact integers for fixed-point scalars,
/// `f64` for floats.
pub trait Exact:
    Copy + Debug + PartialOrd + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Neg<Output = Self>
{
    /// Additive identity.
    const ZERO: Self;
    /// Multiplicative identity: the integer `1`, not the scalar's one.
    const ONE: Self;
    /// Whether a product costs more than a comparison with
    /// [`ONE`](Exact::ONE) and a branch: a 256-bit multiplication does, a
    /// native or an `f64` one does not.
    const WIDE_PRODUCTS: bool = false;

    /// The ring of the polynomials of degree 2 or less (a squared length,
    /// a dot or cross product of coordinate differences): the native
    /// integer half the full ring's width, `i64` for `FixedI32` and `i128`
    /// for `FixedI64` (a kernel's degree-2 values stay below `8M²` for
    /// `M = MAX_COORD` in raw units: `2^59` and `2^123`, the same share of
    /// each), `f64` for `f64`. The yes/no tests compute in it entirely,
    /// with degree-4 comparisons by [`products_le`](Exact::products_le),
    /// and the kernels move to `Self` only for the values they round.
    type Narrow: Exact;

    /// A narrow value in this ring.
    fn from_narrow(value: Self::Narrow) -> Self;

    /// The exact product of two narrow values in this ring (as written,
    /// for `f64`).
    fn product(a: Self::Narrow, b: Self::Narrow) -> Self;

    /// Exactly: is `a·b ≤ c·d`, for values of degree 2? For `f64`, the
    /// expression evaluated as written.
    #[inline]
    fn products_le(a: Self::Narrow, b: Self::Narrow, c: Self::Narrow, d: Self::Narrow) -> bool {
        Self::product(a, b) <= Self::product(c, d)
    }

    /// Whether the squared distance `num / den` (degree 2) between shapes
    /// whose coordinates are at most `scale` in magnitude is to be treated
    /// as zero: exactly zero in an exact ring; in `f64`, below the rounding
    /// error of a kernel at that scale, where the side a point lies on is
    /// not known.
    fn is_negligible(num: Self, den: Self, scale: impl FnOnce() -> Self) -> bool;

    /// Exactly: is `n1 / d1 < n2 / d2`, for non-negative squared distances
    /// of a point from a line (a degree-4 numerator over a degree-2
    /// denominator)? `None` for `f64`, whose ratios the kernels compare as
    /// rounded floats.
    ///
    /// A floating-point estimate decides nearly every comparison: the
    /// quotients are then within a relative `2^-50` of the ratios, and when
    /// they differ by more than that, so do the ratios. The rest are
    /// cross-multiplied exactly (degree 6: up to 370 bits).
    #[inline]
    fn ratios_less(n1: Self, d1: Self, n2: Self, d2: Self) -> Option<bool> {
        let _ = (n1, d1, n2, d2);
        None
    }

    /// How much farther apart than a radius two shapes whose coordinates
    /// and radius are at most `scale` in magnitude must be for every
    /// kernel evaluated in this ring to find them apart: zero in an exact
    /// ring; in `f64`, `2^-20·scale`, far above the kernels' rounding
    /// error (some `2^-48·scale` in a distance), plus `2^-510`, above what
    /// underflow hides (a square below `2^-1075` is zero, so points closer
    /// than `2^-537` may measure as touching).
    fn apart_margin(scale: impl FnOnce() -> Self) -> Self;

    /// An upper bound on `√self` for `self ≥ 0`: exact (`⌈√self⌉`) below
    /// `2^126`, and above that within one part in `2^62`; `√self` for `f64`.
    fn sqrt_upper(self) -> Self;

    /// A lower bound on `√self` for `self ≥ 0`: exact (`⌊√self⌋`) below
    /// `2^126`, and above that within one part in `2^62`; `√self` for `f64`.
    fn sqrt_lower(self) -> Self;

    /// `(sqrt_lower(self), sqrt_upper(self))`: the integer rings take one
    /// root for both.
    #[inline]
    fn sqrt_bounds(self) -> (Self, Self) {
        (self.sqrt_lower(), self.sqrt_upper())
    }

    /// `⌊self / den⌋` for `den > 0` (the plain quotient for `f64`).
    fn div_floor(self, den: Self) -> Self;

    /// `|self|`. For `f64` the sign bit cleared (one instruction, where a
    /// comparison and a negation take a branch or a blend), so a zero is
    /// `+0.0` whatever its sign: the scales of [`is_negligible`](Exact::is_negligible)
    /// and [`apart_margin`](Exact::apart_margin) are taken with it, and
    /// only multiply or add it, so no result depends on that sign.
    #[inline]
    fn magnitude(self) -> Self {
        if self < Self::ZERO { -self } else { self }
    }
}

/// The methods every integer ring shares: exactness (no negligible value,
/// no margin), exact roots and floor division.
macro_rules! exact_int_methods {
    () => {
        #[inline]
        fn is_negligible(num: Self, _: Self, _: impl FnOnce() -> Self) -> bool {
            num == Self::ZERO
        }

        #[inline]
        fn apart_margin(_: impl FnOnce() -> Self) -> Self {
            Self::ZERO
        }

        #[inline]
        fn sqrt_upper(self) -> Self {
            sqrt_bounds_int(self).1
        }

        #[inline]
        fn sqrt_lower(self) -> Self {
            sqrt_bounds_int(self).0
        }

        #[inline]
        fn sqrt_bounds(self) -> (Self, Self) {
            sqrt_bounds_int(self)
        }

        #[inline]
        fn div_floor(self, den: Self) -> Self {
            self.div_rem_floor(den).0
        }
    };
}

/// The ring of the `FixedI32` kernels' yes/no tests: a coordinate within
/// `±3·MAX_COORD` is below `2^30` in raw units, so a value of degree 2 (a
/// sum of a few products of differences) stays below `2^63`, as
/// `FixedI64`'s stay below `2^127` in `i128`: the same share of each.
impl Exact for i64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    type Narrow = i64;

    #[inline]
    fn from_narrow(value: i64) -> Self {
        value
    }

    /// Not called by the kernels: a product of two of `FixedI32`'s narrow
    /// values is taken in `i128`, its full ring.
    #[inline]
    fn product(a: i64, b: i64) -> Self {
        a * b
    }

    exact_int_methods!();

    /// As `i128`'s: the estimate, else exactly in [`Exact256`].
    #[inline]
    fn ratios_less(n1: Self, d1: Self, n2: Self, d2: Self) -> Option<bool> {
        i128::ratios_less(n1.into(), d1.into(), n2.into(), d2.into())
    }
}

impl Exact for i128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    type Narrow = i64;

    #[inline]
    fn from_narrow(value: i64) -> Self {
        value.into()
    }

    /// The products of the `FixedI32` kernels' degree-2 values (below
    /// `2^63`) stay below `2^126`.
    #[inline]
    fn product(a: i64, b: i64) -> Self {
        i128::from(a) * i128::from(b)
    }

    exact_int_methods!();

    /// Decided in [`Exact256`] when the estimate does not settle it (see
    /// [`ratios_less_exactly`]).
    #[inline]
    fn ratios_less(n1: Self, d1: Self, n2: Self, d2: Self) -> Option<bool> {
        Some(ratios_less_estimate(n1.approx(), d1.approx(), n2.approx(), d2.approx()).unwrap_or_else(|| {
            let wide = Exact256::new;
            ratios_less_exactly(wide(n1), wide(d1), wide(n2), wide(d2))
        }))
    }
}

impl Exact for Exact256 {
    const ZERO: Self = Exact256::ZERO;
    const ONE: Self = Exact256::ONE;
    const WIDE_PRODUCTS: bool = true;
    type Narrow = i128;

    #[inline]
    fn from_narrow(value: i128) -> Self {
        Exact256::new(value)
    }

    #[inline]
    fn product(a: i128, b: i128) -> Self {
        Exact256::widening_mul(a, b)
    }

    exact_int_methods!();

    /// The `FixedI64` kernels' denominators stay below `2^124` (see
    /// [`ratios_less_exactly`]).
    #[inline]
    fn ratios_less(n1: Self, d1: Self, n2: Self, d2: Self) -> Option<bool> {
        let estimate = ratios_less_estimate(n1.approx(), d1.approx(), n2.approx(), d2.approx());
        Some(estimate.unwrap_or_else(|| ratios_less_exactly(n1, d1, n2, d2)))
    }
}

/// Exactly: is `n1 / d1 < n2 / d2`, for `n ≥ 0` and `d > 0`? The floored
/// quotients decide when they differ; when they are equal, the remainders
/// do, cross-multiplied: `r1·d2 < r2·d1`, each product below `d1·d2`, so
/// within 256 bits for denominators below `2^127` (the kernels' stay below
/// `2^124`). Beyond that (never reached) the quotients alone decide.
#[inline]
fn ratios_less_exactly(n1: Exact256, d1: Exact256, n2: Exact256, d2: Exact256) -> bool {
    let ((q1, r1), (q2, r2)) = (n1.div_rem_floor(d1), n2.div_rem_floor(d2));
    if q1 != q2 || d1.to_i128().is_none() || d2.to_i128().is_none() { q1 < q2 } else { r1 * d2 < r2 * d1 }
}

impl Exact for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    type Narrow = f64;

    #[inline]
    fn from_narrow(value: f64) -> Self {
        value
    }

    #[inline]
    fn product(a: f64, b: f64) -> Self {
        a * b
    }

    #[inline]
    fn is_negligible(num: Self, den: Self, scale: impl FnOnce() -> Self) -> bool {
        // An interior distance is |d × w| / |d| with |w| ≤ 2√2·scale; the
        // rounded cross product is off by at most ~4ε·|d|·|w|, so the
        // distance by ~4ε·|w| < 12ε·scale (an end-point distance |w| by less).
        let tolerance = 16.0 * f64::EPSILON * scale();
        num <= tolerance * tolerance * den
    }

    #[inline]
    fn apart_margin(scale: impl FnOnce() -> Self) -> Self {
        const UNDERFLOW: f64 = f64::from_bits((1023 - 510) << 52); // 2^-510
        scale() * (1.0 / 1_048_576.0) + UNDERFLOW
    }

    #[inline]
    fn sqrt_upper(self) -> Self {
        libm::sqrt(self)
    }

    #[inline]
    fn sqrt_lower(self) -> Self {
        libm::sqrt(self)
    }

    #[inline]
    fn div_floor(self, den: Self) -> Self {
        self / den
    }

    #[inline]
    fn magnitude(self) -> Self {
        self.abs()
    }
}

/// The floating-point filter of [`Exact::ratios_less`], from
/// estimates of the four values each within a relative `4·2^-53` (see
/// [`approx_u256`]): each quotient is then within `9·2^-53 < 2^-49` of
/// its ratio.
#[inline]
fn ratios_less_estimate(n1: f64, d1: f64, n2: f64, d2: f64) -> Option<bool> {
    let (x, y) = (n1 / d1, n2 / d2);
    // 2^-48 bounds both errors with room for the margin's own rounding.
    let margin = (x + y) * ESTIMATE_ERROR + 2.0;
    if x + margin < y {
        Some(true)
    } else if y + margin < x {
        Some(false)
    } else {
        None
    }
}

/// The full ring of a fixed-point type from values of degree 2 or less
/// held as `i128` (whatever the type's narrow ring): the fixed-point
/// frames and closest points estimate from `i128` values, and their exact
/// fallbacks move them to the full ring with these.
pub(crate) trait FromI128: ExactInt {
    /// `value`, exactly.
    fn from_i128(value: i128) -> Self;
    /// `a·b`, exactly, for values of degree 2 or less.
    fn product_i128(a: i128, b: i128) -> Self;
}

impl FromI128 for i128 {
    #[inline]
    fn from_i128(value: i128) -> Self {
        value
    }
    /// `FixedI32`'s degree-2 values are below `2^63`, their products below
    /// `2^126`.
    #[inline]
    fn product_i128(a: i128, b: i128) -> Self {
        a * b
    }
}

impl FromI128 for Exact256 {
    #[inline]
    fn from_i128(value: i128) -> Self {
        Exact256::new(value)
    }
    #[inline]
    fn product_i128(a: i128, b: i128) -> Self {
        Exact256::widening_mul(a, b)
    }
}

/// What rounding needs from an exact integer ring.
pub(crate) trait ExactInt: Exact + Ord {
    /// Floor division by a positive `den`: `(q, r)` with `num = q·den + r`
    /// and `0 ≤ r < den`, by the type's integer division.
    fn div_rem_floor(self, den: Self) -> (Self, Self);

    /// Whether the lowest bit is set.
    fn is_odd(self) -> bool;
    /// `⌊√self⌋` for `0 ≤ self < 2^128`.
    fn isqrt_small(self) -> Self;
    /// `self · 2^k` and `⌊self / 2^k⌋`.
    fn shl(self, k: u32) -> Self;
    fn shr(self, k: u32) -> Self;
    /// A non-negative `self` as an unsigned 256-bit integer.
    fn to_u256(self) -> U256;
    /// The bits of a non-negative `self` (0 for zero).
    fn bit_length(self) -> u32 {
        256 - self.to_u256().leading_zeros()
    }
    /// `v`, exactly.
    fn from_u64(v: u64) -> Self;
    /// The value as an `i128`, if it fits.
    fn to_i128(self) -> Option<i128>;
    /// A non-negative `self` as an `f64` (see [`approx_u256`]).
    fn approx(self) -> f64 {
        approx_u256(self.to_u256())
    }
}

/// 2^128, exactly.
const TWO_POW_128: f64 = 340_282_366_920_938_463_463_374_607_431_768_211_456.0;

/// The methods both native integer rings share: floor division, parity
/// and shifts.
macro_rules! native_int_methods {
    () => {
        #[inline]
        fn div_rem_floor(self, den: Self) -> (Self, Self) {
            // One division; the remainder by multiplication, modulo the
            // width: the product can pass the type's least value (a
            // numerator near it, a divisor above a quarter of the range),
            // but the remainder, in [0, den), comes out exact.
            let q = self.div_euclid(den);
            (q, self.wrapping_sub(q.wrapping_mul(den)))
        }
        #[inline]
        fn is_odd(self) -> bool {
            self & 1 == 1
        }
        #[inline]
        fn shl(self, k: u32) -> Self {
            self << k
        }
        #[inline]
        fn shr(self, k: u32) -> Self {
            self >> k
        }
    };
}

impl ExactInt for i128 {
    native_int_methods!();
    #[inline]
    fn isqrt_small(self) -> Self {
        isqrt_u128(self.unsigned_abs()).into()
    }
    #[inline]
    fn to_u256(self) -> U256 {
        U256::new(self as u128)
    }
    #[inline]
    fn bit_length(self) -> u32 {
        128 - (self as u128).leading_zeros()
    }
    #[inline]
    fn to_i128(self) -> Option<i128> {
        Some(self)
    }
    #[inline]
    fn from_u64(v: u64) -> Self {
        v.into()
    }
}

impl ExactInt for i64 {
    native_int_methods!();
    #[inline]
    fn isqrt_small(self) -> Self {
        // The root of a value below 2^64 is below 2^32.
        isqrt_u64(self.unsigned_abs()) as i64
    }
    #[inline]
    fn to_u256(self) -> U256 {
        U256::new(u128::from(self as u64))
    }
    #[inline]
    fn bit_length(self) -> u32 {
        64 - (self as u64).leading_zeros()
    }
    #[inline]
    fn to_i128(self) -> Option<i128> {
        Some(self.into())
    }
    #[inline]
    fn from_u64(v: u64) -> Self {
        // The narrow ring takes only roots of its values (below 2^32);
        // anything larger would be held at the ring's largest.
        i64::try_from(v).unwrap_or(i64::MAX)
    }
}

impl ExactInt for Exact256 {
    #[inline]
    fn div_rem_floor(self, den: Self) -> (Self, Self) {
        // The denominator fits in 128 bits for nearly every call, and the
        // numerator for most: a native division, or a 256-by-128-bit one.
        // `ethnum`'s Euclidean division takes the same paths after checks
        // and sign handling of its own, and is slower: 178 µs vs 86 µs for
        // 4096 divisions of 120-bit numerators by 60-bit denominators (2.1
        // times), 252 µs vs 144 µs for 247-bit ones by 124-bit ones (1.75
        // times), in one run of the micro-benchmark described in `wide.rs`.
        match (self.to_i128(), den.to_i128()) {
            (Some(n), Some(d)) => {
                let (q, r) = n.div_rem_floor(d);
                (Exact256::new(q), Exact256::new(r))
            }
            (None, Some(d)) => self.div_rem_floor_u128(d.unsigned_abs()).unwrap_or_else(|| self.div_rem_euclid(den)),
            _ => self.div_rem_euclid(den),
        }
    }
    #[inline]
    fn is_odd(self) -> bool {
        self.as_i128() & 1 == 1
    }
    #[inline]
    fn isqrt_small(self) -> Self {
        Exact256::from(isqrt_u128(self.as_i128() as u128))
    }
    #[inline]
    fn shl(self, k: u32) -> Self {
        self << k
    }
    #[inline]
    fn shr(self, k: u32) -> Self {
        self >> k
    }
    #[inline]
    fn to_u256(self) -> U256 {
        self.as_u256()
    }
    #[inline]
    fn to_i128(self) -> Option<i128> {
        Exact256::to_i128(self)
    }
    #[inline]
    fn from_u64(v: u64) -> Self {
        Exact256::from(v)
    }
}

/// The relative error bound of the `f64` estimates the roundings below
/// start from, `2^-48`. An estimate is a few operations on operands
/// converted from integers: each operand within `4·2^-53` (its two 128-bit
/// halves converted, then added: [`ExactInt::approx`]; `2^-53` below
/// `2^64`), and each division, square root, reciprocal or product within
/// `2^-53` more, so a quotient is within `9·2^-53` of the exact one, its
/// square root within `5.5·2^-53` and the components of [`scaled_roots`]
/// (`c · (k / √len2)`, or `(c·k) / len2 · √len2` from a [`RootEstimate`])
/// within `18·2^-53`, to terms of order `2^-100` (the squared length
/// summed from converted components, [`RootEstimate::of_components`],
/// counts as one operand): the bound leaves nearly a factor of two to
/// spare.
const ESTIMATE_ERROR: f64 = 1.0 / 281_474_976_710_656.0;

/// Estimates from `2^46` on are not used: their error could reach a
/// quarter of a unit.
const ESTIMATE_LIMIT: f64 = 70_368_744_177_664.0;

/// `2^52`: added to a value in `[0, 2^51)`, it leaves the nearest integer
/// to that value in the sum's 52 fraction bits (the sum's unit in the last
/// place is one).
const TWO_POW_52: f64 = 4_503_599_627_370_496.0;

/// A non-negative value known by an `estimate` within `estimate·2^-48` of
/// it ([`ESTIMATE_ERROR`]), split as an integer `n` near the estimate, the
/// estimate's distance `estimate − n` from it (exact: both are below 2^46,
/// and within one of each other) and that error bound; `None` from
/// [`ESTIMATE_LIMIT`] on, or for a NaN (not produced here: every divisor is
/// positive).
///
/// `n` is read from the bits of `estimate + 2^52`, with no conversion to an
/// integer (each costs the saturation's checks). On IEEE-754 arithmetic it
/// is the nearest integer; wherever the sum kept more precision, it is
/// still an integer near the estimate, and the callers decide from the
/// exact distance to it, so a poor `n` only gives `None`.
#[inline]
fn split_estimate(estimate: f64) -> Option<(u64, f64, f64)> {
    if !(0.0..ESTIMATE_LIMIT).contains(&estimate) {
        return None;
    }
    let (near, integer) = nearest_integer(estimate);
    Some((near, estimate - integer, estimate * ESTIMATE_ERROR))
}

/// Whether `f64` arithmetic rounds every result to a double, as IEEE-754
/// asks: everywhere but on the x87 unit, which 32-bit x86 without SSE2
/// computes on, where a sum may keep more digits.
const DOUBLES_ROUNDED: bool = !cfg!(target_arch = "x86") || cfg!(target_feature = "sse2");

/// The integer `near` nearest a non-negative `estimate` below `2^46`, and
/// the same integer as an `f64`. Below `2^46 + 2^52 < 2^53` the low 52
/// bits of `sum = estimate + 2^52` are the integer part of the sum above
/// `2^52`, and `near` below `2^47` converts exactly. Where sums are rounded
/// to doubles ([`DOUBLES_ROUNDED`]) the `f64` is `sum − 2^52`, exact, and
/// a float subtraction: no trip through the integer registers, which
/// x86-64 has no packed conversion for. Where a sum may keep more digits,
/// `sum − 2^52` could be the estimate itself, so `near`, read from the
/// stored bits, is converted instead.
#[inline]
fn nearest_integer(estimate: f64) -> (u64, f64) {
    let sum = estimate + TWO_POW_52;
    let near = sum.to_bits() & ((1 << 52) - 1);
    (near, if DOUBLES_ROUNDED { sum - TWO_POW_52 } else { near as i64 as f64 })
}

/// The integer nearest to a value known by an `estimate` (see
/// [`split_estimate`]), when that settles it: the estimate is further than
/// its error from a midpoint, so the value lies on the same side of it.
/// `None` otherwise (then the caller computes exactly). The answer never
/// depends on the estimate, only whether there is one: it is the exact
/// value's rounding, the same on every platform.
#[inline]
fn nearest_of_estimate(estimate: f64) -> Option<u64> {
    let (near, offset, error) = split_estimate(estimate)?;
    // The value lies within `|offset| + error` of `near`: below a half,
    // `near` is its rounding. (`0.5 − |offset|` is exact when `|offset|`
    // is a quarter or more; below, it exceeds a quarter either way, and
    // `error` stays below a quarter.)
    (0.5 - libm::fabs(offset) > error).then_some(near)
}

/// The floor of a value known by an `estimate` (see [`split_estimate`]),
/// when the estimate is further than its error from every integer: then the
/// value is no integer and lies strictly between the floor returned and the
/// next integer.
#[inline]
fn floor_of_estimate(estimate: f64) -> Option<u64> {
    let (near, offset, error) = split_estimate(estimate)?;
    // Further than its error from `near` and from the integer on the
    // other side. (`1 − |offset|` is exact when `|offset|` is a half or
    // more; below, it exceeds a half either way, and `error` stays below
    // a quarter.)
    let distance = libm::fabs(offset);
    if distance <= error || 1.0 - distance <= error {
        return None;
    }
    Some(if offset > 0.0 { near } else { near - 1 })
}

/// `num / den` rounded to the nearest integer, ties to even; `den > 0`.
#[inline]
pub(crate) fn round_div<E: ExactInt>(num: E, den: E) -> E {
    // A whole ratio (a squared distance to an end point) is its numerator:
    // from 2^46 on no estimate settles it, and the division would be a
    // 128- or 256-bit one.
    if den == E::ONE {
        return num;
    }
    let negative = num < E::ZERO;
    let magnitude = if negative { -num } else { num };
    if let Some(q) = nearest_of_estimate(magnitude.approx() / den.approx()) {
        // Ties to even are symmetric: round(−v) = −round(v).
        let q = E::from_u64(q);
        return if negative { -q } else { q };
    }
    let (q, r) = num.div_rem_floor(den);
    let twice = r + r;
    if twice > den || (twice == den && q.is_odd()) { q + E::ONE } else { q }
}

/// `t·2^frac / len2` rounded to the nearest integer, for `0 ≤ t ≤ len2`
/// and `len2 > 0`, when the `f64` estimate settles it (`None` otherwise,
/// for the caller to compute exactly): the raw value of a share `t / len2`
/// in a type of `frac` fraction bits. The estimate is within `7·2^-53` of
/// the quotient (two conversions and a division; the power of two is
/// exact).
#[inline]
pub(crate) fn share_estimated(t: i128, len2: i128, frac: u32) -> Option<u64> {
    if t < 0 {
        return None;
    }
    let scale = f64::from_bits(u64::from(1023 + frac) << 52);
    nearest_of_estimate(approx_f64(t.unsigned_abs()) / approx_f64(len2.unsigned_abs()) * scale)
}

/// `s + d·t / len2` rounded to the nearest integer for each component of
/// `s` and `d`, for `len2 > 0` and `0 ≤ t ≤ len2`, when the `f64` estimate
/// of `|d|·t / len2` settles its rounding (the estimate is within
/// `11·2^-53` of it: three conversions within `3·2^-53` each, a quotient
/// and a product). Its fraction is then no half, so adding the integer `s`
/// moves no rounding: the result is exactly `round_div(s·len2 + d·t,
/// len2)`, without forming that numerator. `None` unless both settle, for
/// the caller to compute exactly.
// Forced, as `lerp_native` is (see `fixed_impl.rs`).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn lerp_estimated(s: [i128; 2], d: [i128; 2], t: i128, len2: i128) -> Option<[i128; 2]> {
    let share = approx_f64(t.unsigned_abs()) / approx_f64(len2.unsigned_abs());
    let along = |s: i128, d: i128| {
        let q = i128::from(nearest_of_estimate(approx_f64(d.unsigned_abs()) * share)?);
        Some(if d < 0 { s - q } else { s + q })
    };
    Some([along(s[0], d[0])?, along(s[1], d[1])?])
}

/// `√(num / den)` rounded to the nearest integer, ties to even, saturating
/// at `max`; `den > 0`, and a non-positive `num` gives zero.
///
/// Exact for every input: `⌊√(num/den)⌋ = ⌊√q⌋` for the integer quotient
/// `q = ⌊num/den⌋`, and the remainder decides the rounding (see
/// [`round_root`]). The arithmetic is unsigned 128-bit wherever the operands
/// allow, which is nearly always: 256-bit arithmetic only divides a
/// numerator of 128 bits or more.
#[inline]
pub(crate) fn sqrt_ratio<E: ExactInt>(num: E, den: E, max: u64) -> u64 {
    if num <= E::ZERO {
        return 0;
    }
    let (num, den) = (num.to_u256(), den.to_u256());
    // A whole number's root (`den = 1`) is float-seeded and exact already.
    if den != U256::ONE
        && let Some(root) = nearest_of_estimate(libm::sqrt(approx_u256(num) / approx_u256(den)))
        && root <= max
    {
        return root;
    }
    let ((num_hi, num_lo), (den_hi, den_lo)) = (num.into_words(), den.into_words());
    let (q, r) = if den == U256::ONE {
        // Lengths and `Scalar::sqrt`: no division at all.
        if num_hi != 0 {
            return max;
        }
        (num_lo, U256::ZERO)
    } else if num_hi == 0 && den_hi == 0 {
        // One native division; the remainder by multiplication.
        let q = num_lo / den_lo;
        (q, U256::new(num_lo - q * den_lo))
    } else if den_hi == 0 && num_hi >= den_lo {
        // q ≥ 2^128 > (max + 1)²: saturated without dividing.
        return max;
    } else if den_hi == 0 {
        // Here num_hi < den_lo, so q < 2^128.
        let (q, r) = div_rem_u256_u128(num_hi, num_lo, den_lo);
        (q, U256::new(r))
    } else {
        // Here q < 2^128, as den ≥ 2^128.
        let (q, r) = num.div_rem(den);
        (q.as_u128(), r)
    };
    round_root(q, r, den, max)
}

/// `|c|·k / √len2` for each component `c`, rounded to the nearest integer,
/// ties to even, saturating at `max`: each exactly `sqrt_ratio(c²·k², len2,
/// max)`, the magnitudes of a vector's components scaled to length `k` (a
/// unit vector's for `k` one) when `len2` is its squared length. `k ≥ 0`,
/// `len2 > 0`.
///
/// One `f64` estimate of `k / √len2` serves every component, whose estimate
/// is then within `13·2^-53` of its value (see [`ESTIMATE_ERROR`]); a
/// component the estimate does not settle is divided as [`sqrt_ratio`]
/// does.
#[inline]
pub(crate) fn scaled_roots<E: ExactInt, const N: usize>(components: [E; N], k: E, len2: E, max: u64) -> [u64; N] {
    let scale = k.approx() / libm::sqrt(len2.approx());
    components.map(|c| {
        let magnitude = if c < E::ZERO { -c } else { c };
        match nearest_of_estimate(magnitude.approx() * scale) {
            Some(m) if m <= max => m,
            _ => sqrt_ratio(c * c * (k * k), len2, max),
        }
    })
}

/// The `f64` estimate of `√len2` that [`scaled_roots_estimated`] and
/// [`round_sqrt_u128_from`] start from, with the estimate of `len2` it is
/// the root of: computed once, they serve a frame's offset, normal and
/// distance alike.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootEstimate {
    root: f64,
    len2: f64,
}

impl RootEstimate {
    /// The estimate of `√len2` (and of `len2` itself).
    #[inline]
    pub(crate) fn of(len2: u128) -> Self {
        Self::of_squared_length(approx_f64(len2))
    }

    /// The estimate of `√len2` from an estimate of `len2`.
    #[inline]
    pub(crate) fn of_squared_length(len2: f64) -> Self {
        Self { root: libm::sqrt(len2), len2 }
    }

    /// The estimate of `√(x² + y²)` from the components' magnitudes `x`
    /// and `y` as `f64`s, each within `2^-53` of its integer (as a signed
    /// integer below `2^62` converts): the squares and their sum round
    /// three times more, so the squared length is within `(4 + 2^-50)·2^-53`
    /// of `x² + y²` (where [`approx_f64`] of the integer is within
    /// `3·2^-53`), and its root within `(3 + 2^-50)·2^-53`, without the
    /// squared length's conversion: from `2^63` on, its branches on the
    /// size and each half converted.
    #[inline]
    pub(crate) fn of_components(x: f64, y: f64) -> Self {
        Self::of_squared_length(x * x + y * y)
    }
}

/// The `f64` estimate of a component's magnitude that
/// [`scaled_roots_estimated`] starts from: converted once, it serves every
/// length the component is scaled to.
#[inline]
pub(crate) fn magnitude_estimate(component: i128) -> f64 {
    approx_f64(component.unsigned_abs())
}

/// [`scaled_roots`] for components, lengths and squared length known as
/// native integers (each component by its [`magnitude_estimate`], each
/// length `k` by its `f64` value as `approx_f64` converts it, the squared
/// length by its [`RootEstimate`]), from the shared estimates alone: root
/// `i` is `|c_i|·k_i / √len2`, and the same roots come back, or `None` when
/// the estimate does not settle one of them (or one saturates), for the
/// caller to compute exactly. Most vectors take this path, without the
/// 256-bit arithmetic.
#[inline]
pub(crate) fn scaled_roots_estimated<const N: usize>(
    magnitudes: [f64; N],
    lengths: [f64; N],
    root: RootEstimate,
    max: u64,
) -> Option<[u64; N]> {
    // `(|c|·k) / len2 · √len2`: the division by the squared length runs
    // beside the root rather than after it (the two longest latencies of
    // a contact, one after the other in `(|c|·k) / √len2`), and the root
    // waits for one product; two lanes to an instruction.
    let mut estimates = magnitudes;
    for (e, k) in estimates.iter_mut().zip(lengths) {
        *e = *e * k / root.len2 * root.root;
    }
    nearest_of_estimates(estimates, max)
}

/// [`nearest_of_estimate`] of each estimate, each at most `max`: `None`
/// unless every one is settled. Every lane is worked out without a branch
/// and the lanes' verdicts are combined once, so that the compiler can
/// take two lanes at a time.
#[inline]
fn nearest_of_estimates<const N: usize>(estimates: [f64; N], max: u64) -> Option<[u64; N]> {
    // As two arrays, lane by lane: an array of pairs measured one or two
    // instructions more a contact (`near`, callgrind).
    let near = estimates.map(|e| nearest_integer(e).0);
    let integers = estimates.map(|e| nearest_integer(e).1);
    // Below `max`, an integer, an estimate's nearest integer is at most
    // `max`: one comparison of the estimate tests both `split_estimate`'s
    // range and the saturation. (Below `2^46`, `max` converts exactly.)
    // An estimate at `max` or beyond is left to the exact path, which
    // saturates it.
    let limit = if (max as f64) < ESTIMATE_LIMIT { max as f64 } else { ESTIMATE_LIMIT };
    // Every estimate in range is below `limit`, so `limit`'s error bounds
    // each one's: when that bound is small (a 32-bit type's, `2^-17`), it
    // serves every lane, without a product each; it would send a quarter
    // of the lanes of a 64-bit type's to the exact path, which keeps each
    // lane's own.
    let shared_error = limit * ESTIMATE_ERROR;
    let mut settled = true;
    for (&e, &integer) in estimates.iter().zip(&integers) {
        // `nearest_of_estimate`'s test.
        let offset = e - integer;
        let error = if shared_error < 1.0 / 1024.0 { shared_error } else { e * ESTIMATE_ERROR };
        // `&`, not `&&`: no branch per lane.
        #[allow(clippy::needless_bitwise_bool)]
        let lane = (0.0..limit).contains(&e) & (0.5 - libm::fabs(offset) > error);
        settled &= lane;
    }
    settled.then_some(near)
}

/// `√(q + r/den)` rounded to the nearest integer, ties to even, saturating
/// at `max`, for the quotient `q` and remainder `0 ≤ r < den` of a division
/// `num / den`.
///
/// With `s = ⌊√q⌋` and `e = q − s² ∈ [0, 2s]`, the root lies above the
/// midpoint `s + ½` iff `4·num > (2s + 1)²·den`, i.e. (as `num = q·den + r`)
/// iff `4(e − s)·den + 4r > den`: always when `e > s` (then the left side is
/// at least `4·den`), never when `e < s` (then it is below `0` as
/// `r < den`), and when `e = s` iff `4r > den`. So the rounding needs no
/// product wider than `s²`, where the old midpoint test multiplied
/// `(2s + 1)²·den` in 256 bits.
#[inline]
fn round_root(q: u128, r: U256, den: U256, max: u64) -> u64 {
    let wide_max = u128::from(max);
    // (max + 1)² − 1 = max² + 2·max fits in u128 for every u64 `max`.
    if q > wide_max * wide_max + 2 * wide_max {
        return max;
    }
    let s = isqrt_u128(q);
    let wide_s = u128::from(s);
    let e = q - wide_s * wide_s;
    let up = e > wide_s || (e == wide_s && above_quarter(r, den, s));
    // s ≤ max here, as q < (max + 1)².
    if up && s < max { s + 1 } else { s }
}

/// For `e = s` in [`round_root`]: whether `4r > den`, or `4r = den` (an
/// exact tie) with `s` odd (ties to even). Compared through `⌊den/4⌋` so
/// that `4r` is never formed: `4r > den ⇔ r > ⌊den/4⌋`, and `4r = den ⇔
/// den ≡ 0 (mod 4) ∧ r = ⌊den/4⌋`.
#[inline]
fn above_quarter(r: U256, den: U256, s: u64) -> bool {
    let quarter = den >> 2;
    r > quarter || (r == quarter && den.low().is_multiple_of(4) && s % 2 == 1)
}

/// `√n` rounded to the nearest integer (never a tie: `(s + ½)²` is not an
/// integer), for `Scalar::sqrt` of `FixedI32`, whose radicands are below
/// `2^55`.
#[inline]
pub(crate) fn round_sqrt_u64(n: u64) -> u64 {
    let s = isqrt_u64(n);
    // n − s² ∈ [0, 2s]; the root is above s + ½ iff n − s² > s. s < 2^32.
    if n - s * s > s { s + 1 } else { s }
}

/// `√n` rounded to the nearest integer, as [`round_sqrt_u64`], for
/// `Scalar::sqrt` of `FixedI64`, whose radicands are below `2^111`.
#[inline]
pub(crate) fn round_sqrt_u128(n: u128) -> u128 {
    let s = u128::from(isqrt_u128(n));
    if n - s * s > s { s + 1 } else { s }
}

/// [`round_sqrt_u128`] from the estimate `root` of `√n` already computed:
/// the same value. The estimate alone settles most roots (it is within
/// `(3 + 2^-50)·2^-53` of `√n`, and `√n` is never a midpoint: `(s + ½)²` is no
/// integer); the others are corrected exactly from it (the floor root is
/// exact from any seed).
#[inline]
pub(crate) fn round_sqrt_u128_from(n: u128, root: RootEstimate) -> u128 {
    if let Some(rounded) = nearest_of_estimate(root.root) {
        return u128::from(rounded);
    }
    let s = u128::from(isqrt_u128_seeded(n, root.root as u64));
    if n - s * s > s { s + 1 } else { s }
}

/// `⌊√n⌋`, exact: a correctly rounded `f64` estimate, checked and corrected
/// with exact integer squares.
///
/// `n as f64` and the root each round by at most half an ulp, so the
/// truncated estimate is within 2^-20 of `√n < 2^32`: it is `⌊√n⌋` or one
/// off, and [`floor_root_u64`] finds the floor in one step. The result does
/// not depend on the estimate at all (a wrong one only costs time), so it is
/// the same on every platform; IEEE-754 square roots are deterministic
/// anyway. About twice as fast as `u64::isqrt` (see `benches/sqrt.rs`).
#[inline]
pub(crate) fn isqrt_u64(n: u64) -> u64 {
    floor_root_u64(n, libm::sqrt(n as f64) as u64)
}

/// `⌊√n⌋`, exact, as [`isqrt_u64`]: below 2^64 it is that function; below
/// 2^100 the `f64` estimate (within ¼ of the root, which is below 2^50:
/// `approx_f64` and the root round by 2^-52 relative each) is corrected in
/// one step; above, where 53 bits do not reach the root's 64, one Newton
/// step in integers from the estimate (within 2^13 of the root) lands on
/// the floor or one above it first. 2 to 3.5 times as fast as
/// `u128::isqrt`.
#[inline]
pub(crate) fn isqrt_u128(n: u128) -> u64 {
    if let Ok(small) = u64::try_from(n) {
        return isqrt_u64(small);
    }
    isqrt_u128_seeded(n, libm::sqrt(approx_f64(n)) as u64)
}

/// [`isqrt_u128`] from `estimate`, the truncated `f64` root of `n`: the
/// floor root, exact whatever the estimate (a poor one only costs time).
#[inline]
fn isqrt_u128_seeded(n: u128, estimate: u64) -> u64 {
    if let Ok(small) = u64::try_from(n) {
        return floor_root_u64(small, estimate);
    }
    let seed = if n < 1 << 100 {
        estimate
    } else {
        // ⌊(x + ⌊n/x⌋) / 2⌋ ≥ ⌊√n⌋ for every x > 0, and from within 2^13
        // of √n ≥ 2^50 it overshoots by less than one.
        let x = u128::from(estimate.max(1));
        ((x + n / x) >> 1).min(u64::MAX.into()) as u64
    };
    floor_root_u128(n, seed)
}

/// Defines `$name(n, seed)`: `⌊√n⌋` for an `n` of type `$T` from an
/// estimate `seed` (clamped to `$max`, above which no root of a `$T` lies):
/// one step down or up, each checked with exact squares (`s² ≤ n < (s +
/// 1)²`, the latter as `n − s² ≤ 2s`, which cannot overflow); an estimate
/// further off falls back to `$T::isqrt`. Exact for every `seed`.
macro_rules! floor_root {
    ($name:ident, $T:ty, $max:expr) => {
        #[inline]
        fn $name(n: $T, seed: u64) -> u64 {
            let s = <$T>::from(seed.min($max));
            let square = s * s;
            let root = if square > n {
                // s ≥ 1, since s² > n ≥ 0.
                let s = s - 1;
                if s * s <= n { s } else { n.isqrt() }
            } else {
                let rest = n - square;
                if rest <= 2 * s {
                    s
                } else if rest - (2 * s + 1) <= 2 * (s + 1) {
                    // n − (s + 1)² ≤ 2(s + 1): s + 1 is the floor.
                    s + 1
                } else {
                    n.isqrt()
                }
            };
            // The floor root of a 2k-bit integer has at most k bits.
            root as u64
        }
    };
}

floor_root!(floor_root_u64, u64, u64::from(u32::MAX));
floor_root!(floor_root_u128, u128, u64::MAX);

/// `n` as an `f64` within a relative `3·2^-53` (exact below 2^53): the two
/// 64-bit halves converted separately (a `u128` conversion is a slow
/// library call), then added.
#[inline]
fn approx_f64(n: u128) -> f64 {
    const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
    const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;
    if let Ok(small) = i64::try_from(n) {
        // The same correctly rounded value, by the one signed conversion.
        return small as f64;
    }
    if n < 1 << 126 {
        // Halves below 2^63 each: the signed conversions, which x86-64 has
        // an instruction for (it has none for unsigned ones).
        let (high, low) = ((n >> 63) as i64, n as i64 & i64::MAX);
        return high as f64 * TWO_POW_63 + low as f64;
    }
    ((n >> 64) as u64 as f64) * TWO_POW_64 + (n as u64 as f64)
}

/// `n` as an `f64` within a relative `4·2^-53`: each 128-bit word
/// converted from its two 64-bit halves (within `3·2^-53`, and exact below
/// 2^53), then added.
#[inline]
fn approx_u256(n: U256) -> f64 {
    let (hi, lo) = n.into_words();
    if hi == 0 {
        // The sum below, with nothing added.
        return approx_f64(lo);
    }
    approx_f64(hi) * TWO_POW_128 + approx_f64(lo)
}

/// Bounds on `√n` for `n ≥ 0`, from one root: below, `⌊√n⌋` when
/// `n < 2^126`, otherwise `⌊√⌊n / 4^k⌋⌋·2^k` (see [`scaled_floor_root`]);
/// above, `⌈√n⌉` when `n < 2^126`, otherwise `(⌊√⌊n / 4^k⌋⌋ + 1)·2^k`. Each
/// is within `2^k` (one part in `2^62` of the root) of `√n`.
#[inline]
fn sqrt_bounds_int<E: ExactInt>(n: E) -> (E, E) {
    if n <= E::ZERO {
        return (E::ZERO, E::ZERO);
    }
    match scaled_floor_root(n) {
        (s, 0) => (s, if s * s < n { s + E::ONE } else { s }),
        (s, k) => (s.shl(k), (s + E::ONE).shl(k)),
    }
}

/// `(⌊√⌊n / 4^k⌋⌋, k)` for the least `k ≥ 0` that brings `n / 4^k` below
/// `2^126`, where the integer root is exact; `n > 0`. That `k` is read from
/// `n`'s bit length `b`: `n / 4^k` has `b − 2k` bits, at most 126 from
/// `k = ⌈(b − 126) / 2⌉ = ⌊(b − 125) / 2⌋` on.
#[inline]
fn scaled_floor_root<E: ExactInt>(n: E) -> (E, u32) {
    let k = n.bit_length().saturating_sub(125) / 2;
    (n.shr(2 * k).isqrt_small(), k)
}

/// How to round a quotient.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// To the nearest, ties to even ([`round_div`]).
    Nearest,
    /// Toward −∞.
    Down,
    /// Toward +∞.
    Up,
    /// Toward zero.
    TowardZero,
}

/// `num / den` rounded as `mode` says ([`round_div`] for
/// [`Rounding::Nearest`]); `den > 0`.
#[inline]
pub(crate) fn rounded_div<E: ExactInt>(num: E, den: E, mode: Rounding) -> E {
    let negative = num < E::ZERO;
    // Whether an inexact quotient goes up (toward +∞) rather than down.
    let up = match mode {
        Rounding::Nearest => return round_div(num, den),
        Rounding::Down => false,
        Rounding::Up => true,
        Rounding::TowardZero => negative,
    };
    let magnitude = if negative { -num } else { num };
    if let Some(floor) = floor_of_estimate(magnitude.approx() / den.approx()) {
        // The quotient's magnitude lies strictly between `floor` and
        // `floor + 1`.
        let (floor, ceiling) = (E::from_u64(floor), E::from_u64(floor + 1));
        return match (up, negative) {
            (false, false) => floor,
            (true, false) => ceiling,
            (false, true) => -ceiling,
            (true, true) => -floor,
        };
    }
    let (q, r) = num.div_rem_floor(den);
    if up && r > E::ZERO { q + E::ONE } else { q }
}

/// [`round_div`] by `2^k` (`k ≥ 1`), by shifts: the same result, without a
/// division. A degree-1 ratio over `Scalar::EXACT_ONE` (a product of two
/// values, rounded back to the type) is one.
#[inline]
pub(crate) fn round_shift<E: ExactInt>(num: E, k: u32) -> E {
    let q = num.shr(k);
    let r = num - q.shl(k);
    let half = E::ONE.shl(k - 1);
    if r > half || (r == half && q.is_odd()) { q + E::ONE } else { q }
}

/// [`rounded_div`] by `2^k` (`k ≥ 1`), by shifts.
#[inline]
pub(crate) fn rounded_shift<E: ExactInt>(num: E, k: u32, mode: Rounding) -> E {
    let up = match mode {
        Rounding::Nearest => return round_shift(num, k),
        Rounding::Down => false,
        Rounding::Up => true,
        Rounding::TowardZero => num < E::ZERO,
    };
    let q = num.shr(k);
    if up && num != q.shl(k) { q + E::ONE } else { q }
}

/// Clamps an exact integer into `[min, max]`.
#[inline]
pub(crate) fn saturate<E: ExactInt>(value: E, min: E, max: E) -> E {
    value.clamp(min, max)
}

#[cfg(test)]
mod tests {
    extern crate std;

    use std::vec;
    use std::vec::Vec;

    use super::*;

    #[test]
    fn round_div_rounds_to_nearest_with_ties_to_even() {
        assert_eq!(round_div(7_i128, 2), 4); // 3.5 -> 4
        assert_eq!(round_div(5_i128, 2), 2); // 2.5 -> 2
        assert_eq!(round_div(-5_i128, 2), -2); // -2.5 -> -2
        assert_eq!(round_div(-7_i128, 2), -4); // -3.5 -> -4
        assert_eq!(round_div(10_i128, 3), 3);
        assert_eq!(round_div(11_i128, 3), 4);
        assert_eq!(round_div(-11_i128, 3), -4);
    }

    #[test]
    fn dividing_by_a_power_of_two_by_shifts_rounds_as_dividing_does() {
        for num in -300_i128..300 {
            for k in 1..6 {
                let den = 1_i128 << k;
                assert_eq!(round_shift(num, k), round_div(num, den), "{num}/2^{k}");
                assert_eq!(
                    round_shift(Exact256::new(num), k),
                    round_div(Exact256::new(num), Exact256::new(den)),
                    "{num}/2^{k}"
                );
                for mode in [Rounding::Nearest, Rounding::Down, Rounding::Up, Rounding::TowardZero] {
                    assert_eq!(rounded_shift(num, k, mode), rounded_div(num, den, mode), "{num}/2^{k} {mode:?}");
                    let wide = rounded_shift(Exact256::new(num), k, mode);
                    assert_eq!(wide, rounded_div(Exact256::new(num), Exact256::new(den), mode), "{num}/2^{k} {mode:?}");
                }
            }
        }
        let big = Exact256::new(i128::MAX) * Exact256::new(1 << 40) + Exact256::new(12345);
        assert_eq!(round_shift(big, 32), round_div(big, Exact256::new(1 << 32)));
        assert_eq!(round_shift(-big, 48), round_div(-big, Exact256::new(1 << 48)));
    }

    #[test]
    fn round_div_agrees_between_i128_and_i256() {
        for num in -50_i128..50 {
            for den in 1_i128..9 {
                assert_eq!(
                    Exact256::new(round_div(num, den)),
                    round_div(Exact256::new(num), Exact256::new(den)),
                    "{num}/{den}"
                );
            }
        }
    }

    #[test]
    fn round_div_on_operands_beyond_128_bits() {
        let big = Exact256::new(i128::MAX) * Exact256::new(8);
        assert_eq!(round_div(big, Exact256::new(8)), Exact256::new(i128::MAX));
        assert_eq!(round_div(-big, Exact256::new(16)), -Exact256::new(i128::MAX / 2 + 1));
    }

    /// A division by one (a squared distance to an end point) gives the
    /// numerator back in every ring, of either sign, from the sizes the
    /// estimate settles to those it cannot (2^46 and beyond) and past
    /// 128 bits.
    #[test]
    fn round_div_by_one_is_the_numerator_in_every_ring() {
        for num in [0_i64, 1, -1, 3, (1 << 46) - 1, 1 << 46, (1 << 46) + 1, -(1 << 50) - 3, i64::MAX, i64::MIN + 1] {
            assert_eq!(round_div(num, 1), num, "{num} in i64");
            assert_eq!(round_div(i128::from(num), 1), i128::from(num), "{num} in i128");
            let wide = Exact256::from(num) * Exact256::new(i128::MAX);
            assert_eq!(round_div(wide, Exact256::ONE), wide, "{num}·(2^127 − 1) in 256 bits");
        }
    }

    /// The definition `sqrt_ratio` must meet, computed the slow, obvious
    /// way (it was the implementation before the 128-bit fast paths):
    /// 256-bit floor division, `u128::isqrt`, and the midpoint test
    /// `4·num` against `(2s + 1)²·den` with ties to even. Needs
    /// `num < 2^251` so that nothing overflows.
    fn reference_sqrt_ratio(num: Exact256, den: Exact256, max: u64) -> u64 {
        if num <= Exact256::ZERO {
            return 0;
        }
        let q = num.div_rem_euclid(den).0;
        let above = Exact256::from(max) + Exact256::ONE;
        if q >= above * above {
            return max;
        }
        let s = q.as_u256().as_u128().isqrt();
        let odd = Exact256::from(2 * s + 1);
        let (four_num, midpoint) = (num * Exact256::new(4), odd * odd * den);
        let up = four_num > midpoint || (four_num == midpoint && s % 2 == 1);
        let s = s as u64;
        if up && s < max { s + 1 } else { s }
    }

    use crate::SplitMix;

    impl SplitMix {
        /// A value of exactly `bits` bits (zero for `bits = 0`), uniform
        /// below the top bit: every magnitude gets tested.
        fn bits(&mut self, bits: u32) -> Exact256 {
            let mut value = U256::from_words(
                (u128::from(self.next()) << 64) | u128::from(self.next()),
                (u128::from(self.next()) << 64) | u128::from(self.next()),
            );
            if bits == 0 {
                return Exact256::ZERO;
            }
            value >>= 256 - bits;
            let value = value | (U256::ONE << (bits - 1));
            Exact256::from_u256(value)
        }
    }

    /// Values where an integer square root goes wrong if it does: 0 and 1,
    /// the extremes, every power of two and its neighbours, and the
    /// neighbours of perfect squares of every size (including the largest).
    fn hard_u128s() -> Vec<u128> {
        let mut values = vec![0, 1, 2, 3, u128::MAX, u128::MAX - 1, u128::from(u64::MAX), u128::from(u64::MAX) + 1];
        for k in 0..128 {
            let p = 1_u128 << k;
            values.extend([p - 1, p, p + 1]);
        }
        let mut roots: Vec<u128> = (0..64).flat_map(|k| [(1_u128 << k) - 1, 1 << k, (1 << k) + 1]).collect();
        roots.extend([u128::from(u64::MAX), u128::from(u32::MAX), 3_037_000_499, 3_037_000_500, 94_906_265]);
        for r in roots {
            if let Some(square) = r.checked_mul(r) {
                values.extend([square.saturating_sub(1), square, square.saturating_add(1)]);
                values.extend([square.saturating_add(r), square.saturating_add(r + 1), square.saturating_add(2 * r)]);
            }
        }
        values
    }

    /// [`hard_u128s`], and 200 values of every width from 1 to 128 bits.
    fn radicands(seed: u64) -> Vec<u128> {
        let mut rng = SplitMix(seed);
        let mut values = hard_u128s();
        for bits in 1..=128 {
            for _ in 0..200 {
                values.push(rng.bits(bits).as_u256().as_u128());
            }
        }
        values
    }

    #[test]
    fn isqrt_u64_and_u128_are_the_exact_floor() {
        for n in radicands(1) {
            assert_eq!(u128::from(isqrt_u128(n)), n.isqrt(), "⌊√{n}⌋");
            // |r − √n| < ½ ⇔ (2r − 1)² < 4n < (2r + 1)² (no ties: 4n is even).
            let r = Exact256::from(round_sqrt_u128(n));
            let (four_n, below, above) =
                (Exact256::from(n) * Exact256::new(4), r + r - Exact256::ONE, r + r + Exact256::ONE);
            assert!((r == Exact256::ZERO || below * below < four_n) && four_n < above * above, "√{n} -> {r}");
            if let Ok(small) = u64::try_from(n) {
                assert_eq!(isqrt_u64(small), small.isqrt(), "⌊√{small}⌋");
                assert_eq!(u128::from(round_sqrt_u64(small)), round_sqrt_u128(n), "√{small}");
            }
        }
    }

    #[test]
    fn the_rounded_root_from_the_shared_estimate_is_the_exact_one() {
        // Beside every rounding boundary (`s² + s` rounds down, `s² + s + 1`
        // up) and at every width, where the estimate settles the root alone
        // and where it must fall back to the integer root.
        for n in radicands(3) {
            assert_eq!(round_sqrt_u128_from(n, RootEstimate::of(n)), round_sqrt_u128(n), "√{n}");
        }
    }

    #[test]
    fn the_floor_root_does_not_depend_on_the_estimate() {
        // The estimate only decides how fast the exact floor is found: any
        // estimate, however wrong, gives the same result.
        let mut rng = SplitMix(2);
        let mut values = hard_u128s();
        for _ in 0..2000 {
            let bits = 1 + (rng.next() % 128) as u32;
            values.push(rng.bits(bits).as_u256().as_u128());
        }
        for n in values {
            let exact = n.isqrt();
            let near = u64::try_from(exact).unwrap_or(u64::MAX);
            let seeds = [
                0,
                1,
                near.saturating_sub(2),
                near.saturating_sub(1),
                near,
                near.saturating_add(1),
                near.saturating_add(2),
                rng.next(),
                u64::MAX,
            ];
            for seed in seeds {
                assert_eq!(u128::from(floor_root_u128(n, seed)), exact, "⌊√{n}⌋ from {seed}");
                if let Ok(small) = u64::try_from(n) {
                    assert_eq!(u128::from(floor_root_u64(small, seed)), exact, "⌊√{small}⌋ from {seed}");
                }
            }
        }
    }

    #[test]
    fn sqrt_ratio_rounds_to_nearest() {
        assert_eq!(sqrt_ratio(16_i128, 1, 1000), 4);
        assert_eq!(sqrt_ratio(20_i128, 1, 1000), 4); // 4.47
        assert_eq!(sqrt_ratio(21_i128, 1, 1000), 5); // 4.58
        assert_eq!(sqrt_ratio(81_i128, 4, 1000), 4); // √20.25 = 4.5, a tie: to even
        assert_eq!(sqrt_ratio(121_i128, 4, 1000), 6); // √30.25 = 5.5, a tie: to even
        assert_eq!(sqrt_ratio(0_i128, 7, 1000), 0);
        assert_eq!(sqrt_ratio(-4_i128, 1, 1000), 0);
    }

    #[test]
    fn sqrt_upper_is_the_ceiling_or_a_tight_upper_bound() {
        for n in [0_i128, 1, 2, 3, 4, 15, 16, 17, 1 << 100, (1 << 100) + 1, (1 << 125) + 12345] {
            let s = n.sqrt_upper();
            assert!(s * s >= n && (s == 0 || (s - 1) * (s - 1) < n), "⌈√{n}⌉ = {s}");
            assert_eq!(Exact256::new(n).sqrt_upper(), Exact256::new(s));
        }
        let big: Exact256 = (Exact256::new(3) << 200) + Exact256::new(7);
        let s = big.sqrt_upper();
        assert!(s * s >= big);
        // √(3·2^200) ≈ 1.732·2^100; the bound is within 2^-62 of it.
        let exact_floor = (s - (s >> 60)) * (s - (s >> 60));
        assert!(exact_floor < big);
    }

    #[test]
    fn sqrt_ratio_saturates_at_max() {
        assert_eq!(sqrt_ratio(1_000_000_i128, 1, 100), 100);
        assert_eq!(sqrt_ratio(10_200_i128, 1, 100), 100); // 100.99
        assert_eq!(sqrt_ratio(10_000_i128, 1, 100), 100);
        assert_eq!(sqrt_ratio(i128::MAX, 1, i32::MAX as u64), i32::MAX as u64);
        assert_eq!(sqrt_ratio(Exact256::MAX, Exact256::ONE, i64::MAX as u64), i64::MAX as u64);
        assert_eq!(sqrt_ratio(Exact256::MAX, Exact256::new(3), i64::MAX as u64), i64::MAX as u64);
        assert_eq!(sqrt_ratio(Exact256::MAX, Exact256::MAX, i64::MAX as u64), 1);
        assert_eq!(sqrt_ratio(Exact256::MAX - Exact256::ONE, Exact256::MAX, i64::MAX as u64), 1);
        assert_eq!(sqrt_ratio(Exact256::MAX >> 1, Exact256::MAX, i64::MAX as u64), 1); // √½ ≈ 0.71
        assert_eq!(sqrt_ratio(Exact256::MAX >> 3, Exact256::MAX, i64::MAX as u64), 0); // √⅛ ≈ 0.35
    }

    #[test]
    fn sqrt_ratio_is_exact_around_perfect_squares_in_i128_and_i256() {
        // Radicands around perfect squares, where a rounding mistake would
        // show, at several magnitudes; the Exact256 results must match the i128
        // ones and the definition.
        for shift in [0_u32, 20, 40, 60, 80] {
            for k in [1_i128, 3, 1000, 65_535, 1 << 20] {
                let root = k << (shift / 2);
                for delta in [-2_i128, -1, 0, 1, 2] {
                    let n = root * root + delta;
                    if n <= 0 {
                        continue;
                    }
                    let s = i128::from(sqrt_ratio(n, 1, i64::MAX as u64));
                    assert!((2 * s - 1) * (2 * s - 1) <= 4 * n && 4 * n <= (2 * s + 1) * (2 * s + 1), "√{n} -> {s}");
                    let wide = sqrt_ratio(Exact256::new(n) << 64, Exact256::ONE << 64, i64::MAX as u64);
                    assert_eq!(i128::from(wide), s, "√{n}");
                }
            }
        }
    }

    #[test]
    fn sqrt_ratio_is_exact_for_every_small_radicand() {
        for n in 0_i128..5000 {
            let s = i128::from(sqrt_ratio(n, 1, i32::MAX as u64));
            // |s - √n| ≤ ½  ⇔  (2s - 1)² ≤ 4n ≤ (2s + 1)²
            assert!((2 * s - 1) * (2 * s - 1) <= 4 * n || s == 0, "{n} -> {s}");
            assert!(4 * n <= (2 * s + 1) * (2 * s + 1), "{n} -> {s}");
        }
    }

    /// Checks one ratio in every ring it fits, against the reference.
    fn check_ratio(num: Exact256, den: Exact256, max: u64) {
        let expected = reference_sqrt_ratio(num, den, max);
        assert_eq!(sqrt_ratio(num, den, max), expected, "√({num} / {den}), max {max}");
        if let (Some(n), Some(d)) = (num.to_i128(), den.to_i128()) {
            assert_eq!(sqrt_ratio(n, d, max), expected, "√({n} / {d}) in i128, max {max}");
        }
    }

    #[test]
    fn sqrt_ratio_matches_the_reference_at_every_magnitude() {
        // Numerators and denominators of every bit length (numerators up to
        // 250 bits, above the kernels' 2^247), so every path is taken: no
        // division, a 128-bit one, a 256-bit one, and saturation.
        let mut rng = SplitMix(3);
        for num_bits in 0..=250 {
            for _ in 0..24 {
                let den_bits = 1 + (rng.next() % 250) as u32;
                let (num, den) = (rng.bits(num_bits), rng.bits(den_bits));
                for max in [i32::MAX as u64, i64::MAX as u64, 1000] {
                    check_ratio(num, den, max);
                }
            }
        }
    }

    #[test]
    fn sqrt_ratio_matches_the_reference_at_the_edges() {
        // Exact squares of a ratio and their neighbours (where the floor
        // changes), exact midpoints (ties, which go to even), their
        // neighbours, and denominators at the 128-bit boundary.
        let mut rng = SplitMix(4);
        let two_128 = Exact256::ONE << 128;
        let mut dens = vec![
            Exact256::ONE,
            Exact256::new(2),
            Exact256::new(3),
            Exact256::new(4),
            Exact256::new(12),
            two_128 - Exact256::ONE,
        ];
        dens.extend([
            two_128,
            two_128 + Exact256::ONE,
            Exact256::new(i128::MAX),
            Exact256::new(i128::MAX) + Exact256::ONE,
        ]);
        dens.extend((1..=120).map(|bits| rng.bits(bits)));
        for den in dens {
            for root_bits in [0_u32, 1, 2, 16, 31, 32, 48, 62, 63, 64] {
                let root = if root_bits == 64 { Exact256::from(u64::MAX) } else { rng.bits(root_bits) };
                // (2·root + 1)²·den / 4: the midpoint above `root`, exact
                // when 4 divides den.
                let odd = root + root + Exact256::ONE;
                let square = |k: Exact256, d: Exact256| k.checked_mul(k).and_then(|k2| k2.checked_mul(d));
                // root² (a square), then the midpoint (root + ½)² over
                // den (a tie when 4 divides den, else just below one) and
                // over 4·den (always a tie).
                let four = Exact256::new(4);
                let points = [
                    square(root, den).map(|p| (p, den)),
                    square(odd, den).map(|p| (p / four, den)),
                    den.checked_mul(four).and_then(|d| Some((square(odd, den)?, d))),
                ];
                // Products beyond 2^250 are out of the reference's range.
                for (point, den) in
                    points.into_iter().flatten().filter(|&(p, d)| p < Exact256::ONE << 250 && d < Exact256::ONE << 250)
                {
                    for delta in [-2_i128, -1, 0, 1, 2] {
                        for max in [i32::MAX as u64, i64::MAX as u64, 5] {
                            check_ratio(point + Exact256::new(delta), den, max);
                        }
                    }
                }
            }
        }
        // Numerators at the quotient's 128-bit boundary: den·2^128 ± 1.
        for den in [Exact256::new(3), Exact256::new(i128::from(u64::MAX)), Exact256::new(i128::MAX)] {
            for delta in [-1_i128, 0, 1] {
                check_ratio((den << 128) + Exact256::new(delta), den, i64::MAX as u64);
            }
        }
    }

    /// `num / den` rounded by the integer division alone, as the roundings
    /// did before their `f64` filter: the reference the filter must match.
    fn divided(num: Exact256, den: Exact256, mode: Rounding) -> Exact256 {
        let (q, r) = num.div_rem_floor(den);
        let up = match mode {
            Rounding::Nearest => r + r > den || (r + r == den && q.is_odd()),
            Rounding::Down => false,
            Rounding::Up => r > Exact256::ZERO,
            Rounding::TowardZero => q < Exact256::ZERO && r > Exact256::ZERO,
        };
        if up { q + Exact256::ONE } else { q }
    }

    /// A positive `f64` of at least `2^-24` as an exact multiple of
    /// `2^-124`: every estimate below, and its error bound (`2^-48` of it).
    fn exactly(x: f64) -> Exact256 {
        let bits = x.to_bits();
        let (exponent, mantissa) = ((bits >> 52) as i32, (bits & ((1 << 52) - 1)) | 1 << 52);
        // x = mantissa · 2^(exponent − 1075).
        Exact256::from(mantissa) << u32::try_from(exponent - 1075 + 124).expect("at least 2^-24")
    }

    #[test]
    fn the_estimates_integer_is_answered_only_when_every_value_within_its_error_has_it() {
        // Estimates at, just beside and a few error bounds from integers and
        // midpoints, and anywhere, at every magnitude the filters take. The
        // property, checked exactly: a nearest integer is answered only when
        // the estimate and its error bound lie within a half of it (so the
        // value they stand for rounds to it), a floor only when they lie
        // strictly between it and the next integer; and both are answered
        // whenever the estimate is clear of that by a margin (the filter is
        // not given up for nothing).
        let (one, half) = (Exact256::ONE << 124, Exact256::ONE << 123);
        let margin = Exact256::ONE << 104;
        let mut rng = SplitMix(11);
        let mut estimates = Vec::new();
        for k in -24..46 {
            let base = libm::ldexp(1.0, k);
            let n = libm::floor(base + base * (rng.next() % 1024) as f64 / 1024.0);
            for at in [n, n + 0.5, base, base * (1.0 + (rng.next() % 4096) as f64 / 4096.0)] {
                let error = at * ESTIMATE_ERROR;
                for step in [0.0, 1.0, 2.0, 3.0] {
                    for e in [at + step * error, at - step * error] {
                        estimates.extend([
                            e,
                            f64::from_bits(e.to_bits() + 1),
                            f64::from_bits(e.to_bits().saturating_sub(1)),
                        ]);
                    }
                }
            }
        }
        let limit = exactly(ESTIMATE_LIMIT);
        for e in estimates.into_iter().filter(|&e| e >= libm::ldexp(1.0, -24)) {
            let (x, error) = (exactly(e), exactly(e * ESTIMATE_ERROR));
            let below = |n: u64| Exact256::from(n) << 124;
            // The nearest integer to the estimate itself, and its floor.
            let floor = (x >> 124).as_i64() as u64;
            let nearest = if x - below(floor) >= half { floor + 1 } else { floor };
            let distance = |n: u64| if x >= below(n) { x - below(n) } else { below(n) - x };
            let settles = distance(nearest) + error < half;
            match nearest_of_estimate(e) {
                Some(n) => assert!(x < limit && n == nearest && settles, "{e}: {n}"),
                None => assert!(x >= limit || distance(nearest) + error + margin >= half, "{e}: declined"),
            }
            let strictly = below(floor) < x - error && x + error < below(floor) + one;
            match floor_of_estimate(e) {
                Some(n) => assert!(x < limit && n == floor && strictly, "{e}: floor {n}"),
                None => assert!(
                    x >= limit || x - error - margin <= below(floor) || x + error + margin >= below(floor) + one,
                    "{e}: floor declined"
                ),
            }
        }
    }

    #[test]
    fn the_scaled_root_takes_the_least_shift_that_brings_its_radicand_below_2_126() {
        // The property: `scaled_floor_root`'s `k` (read from the bit
        // length) is the least with `n / 4^k < 2^126`, for the smallest
        // and largest value of every bit length, in both rings; and the
        // bounds of that one root enclose `√n`, exactly (the floor and
        // the ceiling) while `k` is 0 and within `2^k` of each other after.
        let limit = Exact256::ONE << 126;
        for bits in 1..254 {
            let low = Exact256::ONE << (bits - 1);
            for n in [low, low + low - Exact256::ONE] {
                let (_, k) = scaled_floor_root(n);
                assert!(n >> (2 * k) < limit, "{n}: {k}");
                assert!(k == 0 || n >> (2 * k - 2) >= limit, "{n}: {k} is not the least");
                let (lower, upper) = n.sqrt_bounds();
                assert!(lower * lower <= n && n <= upper * upper, "{n}: {lower}, {upper}");
                if k == 0 {
                    let one = Exact256::ONE;
                    assert!(n < (lower + one) * (lower + one) && (upper - one) * (upper - one) < n, "{n}: not exact");
                } else {
                    assert!(upper - lower <= Exact256::ONE << k, "{n}: {lower}, {upper}");
                }
                if let Some(small) = n.to_i128() {
                    assert_eq!(scaled_floor_root(small).1, k, "{small}");
                    assert_eq!(small.sqrt_bounds(), (lower.as_i128(), upper.as_i128()), "{small}");
                }
            }
        }
    }

    #[test]
    fn estimates_settled_together_are_each_one_settled_alone() {
        // The property: whenever `nearest_of_estimates` answers a batch,
        // `nearest_of_estimate` answers every one of its estimates with
        // an integer at most `max`, and the batch's integers are those.
        // It answers whenever each estimate is so settled, below `max`
        // and, for a small `max`, further than `max`'s error bound from a
        // midpoint (the one bound it shares among the lanes); for a large
        // `max`, exactly when each is settled. On estimates at, beside and
        // a few error bounds from integers and midpoints of every
        // magnitude (where one lane settles and its neighbour does not),
        // and at `max` and the filter's limit.
        let mut rng = SplitMix(12);
        let mut estimates = Vec::new();
        for k in -24..47 {
            let n = libm::floor(libm::ldexp(1.0, k) * (1.0 + (rng.next() % 1024) as f64 / 1024.0));
            for at in [n, n + 0.5, n + 0.25] {
                let error = at * ESTIMATE_ERROR;
                for e in [at, at + error, at - error, at + 3.0 * error, at - 3.0 * error] {
                    estimates.extend([
                        e,
                        f64::from_bits(e.to_bits() + 1),
                        f64::from_bits(e.to_bits().saturating_sub(1)),
                    ]);
                }
            }
        }
        estimates.extend([ESTIMATE_LIMIT, ESTIMATE_LIMIT - 1.0, 0.0, -0.0, -1.0, f64::NAN, 65_535.0, 65_536.0]);
        for max in [u64::MAX, 65_535] {
            let room = |e: f64| {
                max == u64::MAX
                    || (e < max as f64 && 0.5 - libm::fabs(e - libm::round(e)) > max as f64 * ESTIMATE_ERROR)
            };
            for _ in 0..20_000 {
                let batch: [f64; 4] = core::array::from_fn(|_| estimates[rng.next() as usize % estimates.len()]);
                let alone: Option<Vec<u64>> =
                    batch.iter().map(|&e| nearest_of_estimate(e).filter(|&n| n <= max)).collect();
                let together = nearest_of_estimates(batch, max).map(Vec::from);
                if together.is_some() || batch.iter().all(|&e| room(e)) {
                    assert_eq!(together, alone, "{batch:?} at {max}");
                }
            }
        }
    }

    #[test]
    fn the_integer_part_by_subtraction_is_the_one_read_from_the_bits() {
        // The property: for every estimate the filters take (in [0, 2^46)),
        // `sum − 2^52` (the float subtraction `nearest_integer` makes where
        // doubles are rounded) is the integer read from the bits of
        // `sum = estimate + 2^52`, converted; so the two ways of taking
        // the offset agree bit for bit, at, beside and between integers
        // and midpoints of every magnitude, and at the ends of the range.
        let mut rng = SplitMix(31);
        let mut estimates = vec![0.0, 0.5, 1.5, 2.5, ESTIMATE_LIMIT - 0.5, ESTIMATE_LIMIT - 1.0];
        for k in -24..46 {
            let n = libm::floor(libm::ldexp(1.0, k) * (1.0 + (rng.next() % 1024) as f64 / 1024.0));
            for at in [n, n + 0.5, n + 0.25, n + 0.75] {
                for e in [at, f64::from_bits(at.to_bits() + 1), f64::from_bits(at.to_bits().saturating_sub(1))] {
                    estimates.push(e);
                }
            }
        }
        for e in estimates.into_iter().filter(|e| (0.0..ESTIMATE_LIMIT).contains(e)) {
            let sum = e + TWO_POW_52;
            let near = sum.to_bits() & ((1 << 52) - 1);
            let by_bits = near as i64 as f64;
            let (n, integer) = nearest_integer(e);
            assert_eq!((n, integer.to_bits()), (near, by_bits.to_bits()), "{e}");
            // What the subtraction relies on, where it is made (on x87 the
            // sum may keep the estimate's fraction).
            if DOUBLES_ROUNDED {
                assert_eq!((sum - TWO_POW_52).to_bits(), by_bits.to_bits(), "{e}");
            }
        }
    }

    #[test]
    fn filtered_divisions_match_the_integer_division_beside_midpoints_and_integers() {
        // Quotients of every size up to past the filter's 2^46 limit, with
        // divisors of every width, placed within a few units of the
        // numerator of a midpoint (q + ½) or of an integer, of either sign:
        // where the f64 estimate cannot see the difference, the filter
        // must decline and the division decide. Without the filter's error
        // margin, these round the wrong way.
        let mut rng = SplitMix(7);
        let modes = [Rounding::Nearest, Rounding::Down, Rounding::Up, Rounding::TowardZero];
        for _ in 0..20_000 {
            let (den_bits, q_bits) = (1 + (rng.next() % 190) as u32, (rng.next() % 50) as u32);
            let (den, q) = (rng.bits(den_bits), rng.bits(q_bits));
            let half = den >> 1;
            let delta = Exact256::new(i128::from(rng.next() % 7) - 3);
            for base in [q * den + half, q * den] {
                for num in [base + delta, -(base + delta)] {
                    for mode in modes {
                        let got = rounded_div(num, den, mode);
                        assert_eq!(got, divided(num, den, mode), "{num} / {den}, {mode:?}");
                        // In i128 within the kernels' bounds (below 2^120).
                        if let (Some(n), Some(d)) = (num.to_i128(), den.to_i128())
                            && n.unsigned_abs() < 1 << 120
                        {
                            let narrow = rounded_div(n, d, mode);
                            assert_eq!(Exact256::new(narrow), got, "{n} / {d} in i128, {mode:?}");
                        }
                    }
                }
            }
        }
    }

    /// A share `t / len2` of a segment (`0 ≤ t ≤ len2`) in a type of
    /// `frac` fraction bits: the estimate answers only with the exactly
    /// rounded raw value, for squared lengths of every size up to 2^126
    /// (where a conversion rounds) and for shares within a unit of 2^-50 or
    /// so of a tie, which it must leave to the exact division.
    #[test]
    fn a_share_from_the_estimate_is_the_exactly_rounded_one() {
        let mut rng = SplitMix(7);
        let mut answered = 0;
        for _ in 0..40_000 {
            let frac = [8, 16, 24, 32, 48][(rng.next() % 5) as usize];
            let len2_bits = 1 + (rng.next() % 126) as u32;
            let len2 = rng.bits(len2_bits).as_i128().unsigned_abs().max(1) as i128;
            let t = match rng.next() % 3 {
                // Anywhere along the segment, or an end.
                0 => (rng.bits(len2_bits).as_i128().unsigned_abs() as i128).min(len2),
                1 => [0, len2][(rng.next() % 2) as usize],
                // A hair either side of a tie: t·2^frac / len2 = m + ½ ± ε.
                _ => {
                    let m = i128::from(rng.next() % (1 << frac.min(40)));
                    let tie = Exact256::new(2 * m + 1) * Exact256::new(len2);
                    let t = tie.div_rem_euclid(Exact256::new(1) << (frac + 1)).0;
                    (t + Exact256::new(i128::from(rng.next() % 3) - 1)).to_i128().unwrap_or(0).clamp(0, len2)
                }
            };
            let exact = round_div(Exact256::new(t) << frac, Exact256::new(len2));
            if let Some(q) = share_estimated(t, len2, frac) {
                answered += 1;
                assert_eq!(Exact256::from(q), exact, "{t} / {len2} at {frac} fraction bits");
            }
        }
        // Most shares are settled by the estimate (else it would be no use).
        assert!(answered > 20_000, "the estimate answered only {answered} of 40 000");
    }

    #[test]
    fn scaled_roots_are_the_ratios_roots_also_beside_a_tie_and_beyond_the_estimates_reach() {
        // The components of vectors of every magnitude scaled to lengths of
        // every magnitude (a unit normal's 2^16 and 2^32, radii up to 2^62,
        // where the shared f64 estimate can be units off), and ratios whose
        // roots lie within 2^-40 or so of a tie (c just either side of
        // (m + ½)·√len2, for k = 1), which the estimate cannot tell apart:
        // every answer is the divided root's, so the division decides
        // wherever the estimate would round the wrong way.
        let mut rng = SplitMix(6);
        for _ in 0..20_000 {
            let bits = 1 + (rng.next() % 61) as u32;
            let (x, y) = (rng.bits(bits).as_i128(), -rng.bits(bits).as_i128());
            let len2 = x * x + y * y;
            if len2 == 0 {
                continue;
            }
            let k = match rng.next() % 3 {
                0 => 1 << 16,
                1 => 1 << 32,
                _ => {
                    let k_bits = 1 + (rng.next() % 62) as u32;
                    rng.bits(k_bits).as_i128()
                }
            };
            let [rx, ry] = scaled_roots(
                [Exact256::new(x), Exact256::new(y)],
                Exact256::new(k),
                Exact256::new(len2),
                i64::MAX as u64,
            );
            let expected = |c: i128| {
                reference_sqrt_ratio(
                    Exact256::new(c) * Exact256::new(c) * Exact256::new(k * k),
                    Exact256::new(len2),
                    i64::MAX as u64,
                )
            };
            assert_eq!((rx, ry), (expected(x), expected(y)), "({x}, {y}) scaled to {k}");
        }
        for _ in 0..20_000 {
            // m < 2^45 and len2 < 2^34 keep (2m + 1)²·len2 below 2^128.
            let (m_bits, len2_bits) = (20 + (rng.next() % 26) as u32, 1 + (rng.next() % 34) as u32);
            let (m, len2) = (rng.bits(m_bits).as_u256().as_u128(), rng.bits(len2_bits).as_u256().as_u128());
            // c = ⌊(m + ½)·√len2⌋ and the next integer: the root of c²/len2
            // just below and just above m + ½.
            let below = isqrt_u128((2 * m + 1) * (2 * m + 1) * len2 / 4);
            for c in [below, below + 1] {
                let c = i128::from(c);
                let [root] = scaled_roots([c], 1, len2 as i128, i64::MAX as u64);
                assert_eq!(
                    root,
                    reference_sqrt_ratio(Exact256::new(c * c), Exact256::new(len2 as i128), i64::MAX as u64),
                    "√({c}² / {len2})"
                );
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_config(20_000, 0x6578_6163))]

        /// `ratios_less` is exact in both integer rings: it agrees with
        /// cross-multiplying in big integers, also for ratios within a few
        /// units of each other (where the floating-point estimate must
        /// decline and the cross products decide).
        #[test]
        fn ratios_less_is_exact(
            (d1_bits, d2_bits, q_bits) in (1_u32..=124, 1_u32..=124, 0_u32..=120),
            seed in proptest::prelude::any::<u64>(),
            delta in -4_i128..=4,
            near in proptest::prelude::any::<bool>(),
        ) {
            let mut rng = SplitMix(seed);
            let (d1, d2) = (rng.bits(d1_bits), rng.bits(d2_bits));
            let q1 = rng.bits(q_bits);
            let below = |d: Exact256, rng: &mut SplitMix| {
                let (_, r) = rng.bits(d1_bits.max(d2_bits)).div_rem_euclid(d);
                r
            };
            let n1 = q1 * d1 + below(d1, &mut rng);
            let q2 = if near { (q1 + Exact256::new(delta)).max(Exact256::ZERO) } else { rng.bits(q_bits) };
            // Equal ratios too: n2/d2 = n1/d1 exactly when d2 = d1.
            let n2 = if near && delta == 0 && d1_bits == d2_bits { n1 } else { q2 * d2 + below(d2, &mut rng) };
            let d2 = if near && delta == 0 && d1_bits == d2_bits { d1 } else { d2 };
            let big = |v: Exact256| num_bigint::BigInt::parse_bytes(std::format!("{v}").as_bytes(), 10).unwrap();
            let expected = big(n1) * big(d2) < big(n2) * big(d1);
            proptest::prop_assert_eq!(Exact256::ratios_less(n1, d1, n2, d2), Some(expected), "{}/{} < {}/{}", n1, d1, n2, d2);
            let narrow = (n1.to_i128(), d1.to_i128(), n2.to_i128(), d2.to_i128());
            if let (Some(n1), Some(d1), Some(n2), Some(d2)) = narrow
                && n1 < 1 << 119 && n2 < 1 << 119 && d1 < 1 << 60 && d2 < 1 << 60
            {
                proptest::prop_assert_eq!(i128::ratios_less(n1, d1, n2, d2), Some(expected));
            }
        }
    }
}
