//! The numeric layer: the [`Scalar`] trait and its implementations for
//! `f32`, `f64` and the signed fixed-point types of the [`fixed`] crate.
//!
//! Every query in this crate is written once, generic over `S: Scalar`.
//! The trait carries only what the queries need: ring operations, ordering,
//! zero and one, a square root, an exact widening product, the safe
//! coordinate range, lossless conversions for literals, and rounding
//! conversions from and to `f64`.
//!
//! The pieces, for a contributor (all but the first are crate-private):
//!
//! - [`Scalar`] (this file): the public, sealed trait.
//! - `private::Sealed<W>` (this file): what the kernels need of a scalar
//!   beyond it: its exact ring `Exact`, conversions into the ring and,
//!   rounded once, back out (`W` is the scalar's `Wide`), and the facts a
//!   world needs (time step, storage format, finiteness, checksum bits).
//! - `Exact` (`exact.rs`): a ring the kernels compute in: `i128` for
//!   `FixedI32`, [`Exact256`](wide::Exact256) for `FixedI64`, `f64` for
//!   floats, with `Exact::Narrow` (`i64`, `i128` or `f64`) for the yes/no
//!   tests.
//! - `ExactInt` (`exact.rs`): what rounding needs of the two integer rings
//!   (floor division, shifts, an `f64` estimate); the rounding functions
//!   (`round_div`, `rounded_div`, `sqrt_ratio`, `scaled_roots`) and the
//!   exact integer roots (`isqrt_u64`, `isqrt_u128`) are written once over
//!   it.
//! - `Exact256` (`wide.rs`): the one 256-bit signed type, `ethnum::I256`
//!   with benchmarked shortcuts; unsigned 256-bit values are
//!   `ethnum::U256`, used directly.
//! - `native.rs`: products, dot products and quotients of fixed-point
//!   values rounded once from native integers (`i64`, `i128`): the
//!   world's arithmetic, as exact as the ring's and several times faster.
//! - `fixed_impl.rs`, `float_impl.rs`: the implementations, and
//!   [`Frac32`]/[`Frac64`], the fractional bit counts `fixed` types may have.

mod exact;
mod fixed_impl;
mod float_impl;
mod native;
#[cfg(feature = "serde")]
pub(crate) mod serde_scalar;
mod wide;

use core::fmt::{Debug, Display};
use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};
use core::str::FromStr;

use num_traits::{ConstOne, ConstZero};

pub use fixed_impl::{Frac32, Frac64};

pub(crate) use exact::{Exact, Rounding};

/// A number type the queries are generic over.
///
/// Implemented for `f32`, `f64`, every [`FixedI32<F>`](fixed::FixedI32) with
/// `F` from 8 to 24 fractional bits (see [`Frac32`]) and every
/// [`FixedI64<F>`](fixed::FixedI64) with `F` from 8 to 48 (see [`Frac64`]):
/// among them [`I16F16`](fixed::types::I16F16),
/// [`I32F32`](fixed::types::I32F32) and [`I48F16`](fixed::types::I48F16).
/// The trait is sealed: the guarantees below are proved for these types and
/// no others.
///
/// Every type converts from and to `f64` ([`from_f64`](Scalar::from_f64),
/// [`to_f64`](Scalar::to_f64)) and from a decimal string (`FromStr`, which
/// rounds to the nearest value, ties to even, and refuses a value beyond
/// the type's range).
///
/// # Safe range
///
/// Shapes are accepted only when every coordinate and radius has a
/// magnitude of at most [`MAX_COORD`](Scalar::MAX_COORD). Inside that range
/// no intermediate value of any query can overflow:
///
/// | type | `MAX_COORD` | resolution |
/// |---|---|---|
/// | `FixedI32<F>` | 2<sup>28 − F</sup> (`I16F16`: 4096) | 2<sup>−F</sup> |
/// | `FixedI64<F>` | 2<sup>60 − F</sup> (`I32F32`: 268 435 456; `I48F16`: 2<sup>44</sup> ≈ 1.76 × 10<sup>13</sup>) | 2<sup>−F</sup> |
/// | `f32` | 2<sup>60</sup> ≈ 1.15 × 10<sup>18</sup> | 24-bit significand |
/// | `f64` | 2<sup>240</sup> ≈ 1.77 × 10<sup>72</sup> | 53-bit significand |
///
/// The fixed-point bound leaves three bits of headroom below the type's own
/// limit, so sums such as a centre plus a push-out offset, or two radii
/// added together, stay representable. The float bounds only exclude overflow to infinity; a
/// float's precision degrades with magnitude long before them.
///
/// # Exactness
///
/// For fixed-point types every yes/no answer is decided exactly, in an
/// integer type wide enough for the polynomial behind it (128 bits for
/// `FixedI32`, 256 bits for `FixedI64`), and every value a query returns is
/// the exact result rounded once to the nearest representable value (ties
/// to even), except where a query's documentation says otherwise. For float
/// types the same formulas are evaluated in `f64` and rounded to `S`, except
/// that a unit normal, the offset of a contact point along it and the
/// distance it goes with share one square root (a division per component
/// for the normal): each within a relative error of 2<sup>−50</sup> before
/// the rounding to `S`, bit-identical on every IEEE-754 target.
/// (So in `f64` a segment shorter than about 1.5 × 10<sup>−154</sup>, whose
/// squared length underflows to zero, is taken as a point: the end that is
/// lexicographically smaller, with `t` 0 or 1 to match.)
///
/// # Examples
///
/// Generic code uses the trait's constants and lossless conversions for
/// literals: `From<i8>` for small integers, [`from_dyadic`](Scalar::from_dyadic)
/// for halves, quarters and so on; [`from_f64`](Scalar::from_f64) takes any
/// number, rounded to the nearest value of the type, and
/// [`to_f64`](Scalar::to_f64) gives one back.
///
/// ```
/// use fixed::types::I16F16;
/// use geom_core::Scalar;
///
/// fn seven_halves<S: Scalar>() -> S {
///     S::from(3_i8) + S::from_dyadic::<1>(1)
/// }
///
/// assert_eq!(seven_halves::<f32>(), 3.5);
/// assert_eq!(seven_halves::<I16F16>(), I16F16::from_num(3.5));
/// assert_eq!(I16F16::ONE + I16F16::ZERO, 1);
/// assert_eq!(I16F16::from_f64(3.5).to_f64(), 3.5);
/// ```
pub trait Scalar:
    private::Sealed<<Self as Scalar>::Wide>
    + Copy
    + Default
    + Debug
    + Display
    + PartialEq
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + ConstZero
    + ConstOne
    + From<i8>
    + FromStr
    + Send
    + Sync
    + 'static
{
    /// The type that holds the exact product of two values of `Self`, used
    /// for squared lengths, dot products and squared distances.
    ///
    /// For `FixedI32<F>` it is `FixedI64<2F>` (`I16F16` → `I32F32`), for
    /// `FixedI64<F>` it is `FixedI128<2F>` (`I32F32` → `I64F64`), exactly as
    /// `fixed`'s own `wide_mul` returns. For floats it is the type itself.
    type Wide: Copy
        + Default
        + Debug
        + Display
        + PartialEq
        + PartialOrd
        + Add<Output = Self::Wide>
        + Sub<Output = Self::Wide>
        + Neg<Output = Self::Wide>
        + ConstZero
        + Send
        + Sync
        + 'static;

    /// The largest coordinate or radius magnitude a shape may have: the
    /// safe range is `[-MAX_COORD, MAX_COORD]` (see the table above).
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::{I16F16, I32F32};
    /// use geom_core::Scalar;
    ///
    /// assert_eq!(I16F16::MAX_COORD, 4096);
    /// assert_eq!(I32F32::MAX_COORD, 1 << 28);
    /// ```
    const MAX_COORD: Self;

    /// Multiplies two values into [`Wide`](Scalar::Wide) without rounding
    /// (for floats: rounded as `Self`'s own product).
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::{I16F16, I32F32};
    /// use geom_core::Scalar;
    ///
    /// let big = I16F16::from_num(4000);
    /// // 16 000 000 does not fit in I16F16, but it does in I32F32.
    /// assert_eq!(big.wide_mul(big), I32F32::from_num(16_000_000));
    /// assert_eq!(3.0_f32.wide_mul(0.5), 1.5);
    /// ```
    #[must_use]
    fn wide_mul(self, rhs: Self) -> Self::Wide;

    /// The square root, rounded to the nearest representable value.
    ///
    /// Floats use `libm`'s correctly rounded `sqrtf` / `sqrt`, so the result
    /// is the same on every IEEE-754 target. Fixed-point types compute it
    /// with integer arithmetic. A negative input gives zero rather than a NaN
    /// or a panic (the queries never pass one); a NaN stays NaN.
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::I16F16;
    /// use geom_core::Scalar;
    ///
    /// assert_eq!(Scalar::sqrt(2.25_f64), 1.5);
    /// assert_eq!(Scalar::sqrt(I16F16::from_num(6.25)), 2.5);
    /// assert_eq!(Scalar::sqrt(I16F16::from_num(-1)), 0);
    /// ```
    #[must_use]
    fn sqrt(self) -> Self;

    /// The dyadic constant `numerator / 2^LOG2_DEN`, exactly.
    ///
    /// Every implementing type holds these exactly: fixed-point types have at
    /// least 8 fractional bits and 8 integer bits. A `LOG2_DEN` above 8 is a
    /// compile-time error.
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::I32F32;
    /// use geom_core::Scalar;
    ///
    /// assert_eq!(f64::from_dyadic::<2>(3), 0.75);
    /// assert_eq!(I32F32::from_dyadic::<8>(-1), I32F32::from_num(-0.00390625));
    /// ```
    #[must_use]
    fn from_dyadic<const LOG2_DEN: u32>(numerator: i8) -> Self;

    /// The value nearest to `value`. Rounding is to the nearest, with ties
    /// rounded to even.
    ///
    /// What the type cannot hold is handled as Rust's `as` casts handle it,
    /// so this never panics:
    ///
    /// - fixed point (as `f64 as i32`): a value beyond the type's range,
    ///   an infinity included, saturates at `MIN` or `MAX`; a NaN gives
    ///   zero;
    /// - `f32` (as `f64 as f32`): a value beyond `f32`'s finite range gives
    ///   an infinity, a NaN stays NaN; `f64`: the value itself.
    ///
    /// A saturated or infinite value is refused by the shape constructors
    /// (it is beyond [`MAX_COORD`](Scalar::MAX_COORD)); a NaN turned into
    /// zero is not. To tell such input apart, use
    /// [`try_from_f64`](Scalar::try_from_f64). For a constant that must be
    /// exact in every type, [`from_dyadic`](Scalar::from_dyadic) and
    /// `From<i8>` are exact; `from_f64(0.1)` is the fixed-point value
    /// nearest to 0.1, which differs between types.
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::I16F16;
    /// use geom_core::Scalar;
    ///
    /// assert_eq!(I16F16::from_f64(1.25), I16F16::from_num(1.25));
    /// // 0.1 is not a multiple of 2^-16: the nearest one.
    /// assert_eq!(I16F16::from_f64(0.1), I16F16::from_bits(6554));
    /// assert_eq!(I16F16::from_f64(1e9), I16F16::MAX);
    /// assert_eq!(I16F16::from_f64(f64::NEG_INFINITY), I16F16::MIN);
    /// assert_eq!(I16F16::from_f64(f64::NAN), 0);
    /// assert_eq!(f32::from_f64(0.1), 0.1_f32);
    /// assert_eq!(f32::from_f64(1e300), f32::INFINITY);
    ///
    /// // Generic code gets its constants the same way.
    /// fn quarter<S: Scalar>() -> S {
    ///     S::from_f64(0.25)
    /// }
    /// assert_eq!(quarter::<I16F16>(), I16F16::from_dyadic::<2>(1));
    /// ```
    #[must_use]
    fn from_f64(value: f64) -> Self;

    /// The value nearest to `value` (ties to even), or `None` when `value`
    /// is NaN, infinite, or beyond the type's finite range once rounded.
    ///
    /// `Some` always holds a finite value, so this is the conversion for
    /// input that may be wrong (a number read from a file); note that a
    /// finite value may still be beyond [`MAX_COORD`](Scalar::MAX_COORD).
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::I16F16;
    /// use geom_core::Scalar;
    ///
    /// assert_eq!(I16F16::try_from_f64(-2.5), Some(I16F16::from_num(-2.5)));
    /// assert_eq!(I16F16::try_from_f64(40_000.0), None);
    /// assert_eq!(I16F16::try_from_f64(f64::NAN), None);
    /// assert_eq!(f32::try_from_f64(1e300), None);
    /// assert_eq!(f64::try_from_f64(f64::INFINITY), None);
    /// assert_eq!(f64::try_from_f64(1e300), Some(1e300));
    /// ```
    #[must_use]
    fn try_from_f64(value: f64) -> Option<Self>;

    /// The value as `f64`.
    ///
    /// Exact for `f32`, `f64` and every `FixedI32` type. A `FixedI64` value
    /// with more than 53 significant bits (for `I32F32`, some values above
    /// 2<sup>21</sup> in magnitude) is rounded to the nearest, with ties
    /// rounded to even.
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::{I16F16, I32F32};
    /// use geom_core::Scalar;
    ///
    /// assert_eq!(I16F16::from_bits(6554).to_f64(), 0.100006103515625);
    /// assert_eq!(I32F32::MAX_COORD.to_f64(), 268_435_456.0);
    /// assert_eq!(I32F32::MAX.to_f64(), 2_147_483_648.0); // rounded
    /// assert_eq!(1.5_f32.to_f64(), 1.5);
    /// ```
    #[must_use]
    fn to_f64(self) -> f64;
}

/// Items the queries need from a scalar that are not part of the public API.
pub(crate) mod private {
    use super::exact::{Exact, Rounding};

    /// Seals [`Scalar`](super::Scalar) and carries what the kernels need
    /// of a scalar beyond the public trait: its exact ring and the
    /// conversions into and out of it, and a few facts about the type.
    /// `W` is the type's [`Wide`](super::Scalar::Wide), which the
    /// degree-2 conversion returns.
    ///
    /// A value of `Self` is represented in `Exact` by its raw bits for
    /// fixed-point types (the value times `2^F`) and by itself for floats.
    /// A quantity built from coordinates by a homogeneous polynomial of
    /// degree `k` therefore carries a scale of `2^(kF)`; the conversions
    /// below name the degree of the ratio they expect. Every conversion out
    /// of the ring rounds once and saturates.
    pub trait Sealed<W>: Copy {
        /// The exact ring (see `exact.rs`).
        type Exact: Exact;
        /// The representation of the value one (degree 1).
        const EXACT_ONE: Self::Exact;
        /// The step by which a swept query backs a time of impact off: the
        /// resolution of a fixed-point type, the machine epsilon of a float.
        const TIME_STEP: Self;
        /// How values of the type are stored, so that a saved world names
        /// the type it was saved in.
        const FORMAT: Format;

        /// The exact representation of `self` (degree 1) in the ring of the
        /// yes/no tests, `Exact::Narrow`.
        fn to_narrow(self) -> <Self::Exact as Exact>::Narrow;
        /// `self − rhs` in the ring of the yes/no tests, for values within
        /// `±3·MAX_COORD`, as every coordinate a kernel takes is (a shape's
        /// or a clamped point's within `MAX_COORD`, moved by at most a
        /// relative motion of two clamped ones); the same value as
        /// `to_narrow(self) − to_narrow(rhs)`.
        ///
        /// A fixed-point type subtracts its raw integers in a native type
        /// the difference fits: `i64` for `FixedI64` (`|a − b| ≤ 6·2^60 <
        /// 2^63`), so that a product of two differences is one widening
        /// multiply rather than a full 128-bit one.
        #[inline]
        fn narrow_sub(self, rhs: Self) -> <Self::Exact as Exact>::Narrow {
            self.to_narrow() - rhs.to_narrow()
        }
        /// The exact representation of `self` (degree 1).
        #[inline]
        fn to_exact(self) -> Self::Exact {
            Self::Exact::from_narrow(self.to_narrow())
        }
        /// `num / den` as a scalar, for a ratio of degree 1; `den > 0`.
        /// Rounded as `mode` says (fixed point; floats round to nearest)
        /// and saturating.
        fn from_ratio_rounded(num: Self::Exact, den: Self::Exact, mode: Rounding) -> Self;
        /// `self·rhs` rounded as `mode` says (fixed point; floats round to
        /// nearest) and saturating: `from_ratio_rounded` of the exact
        /// product over one, which `FixedI64` computes in `i128` rather
        /// than its 256-bit ring.
        #[inline]
        fn mul_rounded(self, rhs: Self, mode: Rounding) -> Self {
            Self::from_ratio_rounded(self.to_exact() * rhs.to_exact(), Self::EXACT_ONE, mode)
        }
        /// `num / den` as a scalar, for a ratio of degree 1; `den > 0`.
        /// Rounded to nearest (ties to even) and saturating.
        #[inline]
        fn from_ratio(num: Self::Exact, den: Self::Exact) -> Self {
            Self::from_ratio_rounded(num, den, Rounding::Nearest)
        }
        /// `√(num / den)` as a scalar, for a ratio of degree 2; `den > 0`.
        /// Rounded to nearest and saturating; a non-positive ratio gives 0.
        fn from_sqrt_ratio(num: Self::Exact, den: Self::Exact) -> Self;
        /// `num / den` as the type's `Wide` (a squared distance, a dot
        /// product), for a ratio of degree 2; `den > 0`. Rounded to nearest
        /// (ties to even) and saturating.
        fn wide_from_ratio(num: Self::Exact, den: Self::Exact) -> W;
        /// What a contact or an impact hands back along the direction
        /// `(x, y)` (degree 1): its unit vector (+y for the zero
        /// direction), the vector of length `length ≥ 0` along it (a
        /// point's offset on a circle) and, given a squared distance
        /// `num / den` (degree 2, `den > 0`), the distance (zero without
        /// one).
        ///
        /// Fixed point: each value the exact one rounded once to nearest,
        /// the offset's components too (so a point on a large circle is as
        /// accurate as one on a small one). Floats: one square root and a
        /// division per component in `f64` for the unit vector (the
        /// direction first scaled by a power of two when its squared length
        /// would underflow or overflow, which changes no direction), the
        /// offset that vector times `length`, and the distance sharing the
        /// root when it is the direction's own length; each value then
        /// rounded to `Self`, within a relative error of 2<sup>−50</sup>
        /// before that rounding.
        ///
        /// Without `want_normal` the normal may be left out (as +y): fixed
        /// point skips its two square roots; floats, whose offset is built
        /// from it, compute it anyway.
        fn frame(
            x: Self::Exact,
            y: Self::Exact,
            length: Self,
            dist2: Option<(Self::Exact, Self::Exact)>,
            want_normal: bool,
        ) -> Frame<Self>;
        /// [`frame`](Self::frame) of a direction `(x, y)` given in the ring
        /// of the yes/no tests with its squared length `len2`, and its
        /// squared distance: `len2` itself (a point's direction from a
        /// point, `cross` none), or `cross² / len2` (a point's perpendicular
        /// from a line it lies `cross / √len2` from, `cross` of degree 2).
        /// The same values, which a type may compute without the full ring.
        #[inline]
        fn frame_narrow(
            (x, y): (<Self::Exact as Exact>::Narrow, <Self::Exact as Exact>::Narrow),
            len2: <Self::Exact as Exact>::Narrow,
            cross: Option<<Self::Exact as Exact>::Narrow>,
            length: Self,
        ) -> Frame<Self> {
            let full = <Self::Exact as Exact>::from_narrow;
            Self::frame(full(x), full(y), length, Some(narrow_dist2(len2, cross)), true)
        }
        /// The distance of [`frame_narrow`](Self::frame_narrow) alone:
        /// `√len2`, or `|cross| / √len2` with `cross`, rounded as
        /// [`from_sqrt_ratio`](Self::from_sqrt_ratio) rounds it.
        #[inline]
        fn distance_narrow(
            len2: <Self::Exact as Exact>::Narrow,
            cross: Option<<Self::Exact as Exact>::Narrow>,
        ) -> Self {
            let (num, den) = narrow_dist2(len2, cross);
            Self::from_sqrt_ratio(num, den)
        }
        /// `t / len2` for `0 ≤ t ≤ len2` and `len2 > 0` of degree 2 in the
        /// ring of the yes/no tests (the share of the way along a segment),
        /// the exact value rounded once as [`from_ratio`](Self::from_ratio)
        /// rounds it. The same value, which a type may compute without the
        /// full ring.
        #[inline]
        fn share_narrow(t: <Self::Exact as Exact>::Narrow, len2: <Self::Exact as Exact>::Narrow) -> Self {
            let full = <Self::Exact as Exact>::from_narrow;
            Self::from_ratio(full(t) * Self::EXACT_ONE, full(len2))
        }
        /// `s + d·t / len2` for each component of `s` and `d` (of degree
        /// 1), the exact value rounded once as
        /// [`from_ratio`](Self::from_ratio) rounds it, for `0 ≤ t ≤ len2`
        /// and `len2 > 0` of degree 2, all in the ring of the yes/no tests:
        /// the point a share `t / len2` of the way along a segment from `s`
        /// by `d`.
        #[inline]
        fn lerp_narrow(
            s: [<Self::Exact as Exact>::Narrow; 2],
            d: [<Self::Exact as Exact>::Narrow; 2],
            t: <Self::Exact as Exact>::Narrow,
            len2: <Self::Exact as Exact>::Narrow,
        ) -> [Self; 2] {
            let product = <Self::Exact as Exact>::product;
            let den = <Self::Exact as Exact>::from_narrow(len2);
            [0, 1].map(|i| Self::from_ratio(product(s[i], len2) + product(d[i], t), den))
        }
        /// `self·rhs`, the exact product rounded once to nearest (ties to
        /// even) and saturating: the product of the raw values in the
        /// native integer twice their width, then a rounding shift. The
        /// same value as `from_ratio(a.to_exact() * b.to_exact(),
        /// EXACT_ONE)`, without the exact ring (see `native.rs`).
        fn mul_round(self, rhs: Self) -> Self;
        /// `a.0·b.0 + a.1·b.1`, the exact sum rounded once to nearest and
        /// saturating (floats: evaluated in `f64`, then rounded to the type),
        /// as `from_ratio` of the exact ring's dot product.
        fn dot_round(a: (Self, Self), b: (Self, Self)) -> Self;
        /// `self / rhs` for `rhs > 0`, the exact quotient rounded once to
        /// nearest and saturating (a zero divisor saturates by the sign of
        /// `self`, zero over zero is zero), as `from_ratio(a.to_exact() ·
        /// EXACT_ONE, b.to_exact())`.
        fn div_round(self, rhs: Self) -> Self;
        /// [`mul_round`](Self::mul_round) without the saturation, for a
        /// product the caller has bounded within the type: the same value
        /// then; arbitrary bits, never a panic or a NaN from finite input,
        /// otherwise (fixed point wraps).
        fn mul_wrap(self, rhs: Self) -> Self;
        /// [`dot_round`](Self::dot_round) without the saturation, as
        /// [`mul_wrap`](Self::mul_wrap).
        fn dot_wrap(a: (Self, Self), b: (Self, Self)) -> Self;
        /// `self + rhs`, wrapping for fixed point (the caller bounds it).
        fn add_wrap(self, rhs: Self) -> Self;
        /// `self − rhs`, wrapping for fixed point (the caller bounds it).
        fn sub_wrap(self, rhs: Self) -> Self;
        /// `n` steps of `v = v + g` ([`add_wrap`](Self::add_wrap)) from
        /// `self`, each followed by `sum = sum + v·h`
        /// ([`mul_wrap`](Self::mul_wrap)) from zero: the last `v` and
        /// `sum`, for values the caller bounds. Fixed point adds the exact
        /// products `v·h` as `self·h + i·(g·h)`: the same bits, two
        /// products in all.
        fn flight_wrap(self, g: Self, h: Self, n: u8) -> (Self, Self);
        /// A mark of where `self` lies against `bound` (`bound ≥ 0`, a
        /// power of two for fixed point), to merge with others by
        /// [`merge_marks`](Self::merge_marks) and test once by
        /// [`marks_beyond`](Self::marks_beyond): whether any value marked
        /// lies outside `[−bound, bound]` or is NaN. One addition for
        /// fixed point (`bits + bound`, wrapping); for floats a flag, 1
        /// when the value is not within the bound.
        fn mark(self, bound: Self) -> u64;
        /// Two marks as one (no value marked: 0). An `|` for fixed point:
        /// the marks of values within the bound lie in `[0, 2·bound]`,
        /// those below `2·bound` (a power of two) merge below it, and a
        /// mark above it stays above. An `|` of the flags for floats.
        fn merge_marks(a: u64, b: u64) -> u64;
        /// Whether a merged mark has a value outside `[−bound, bound]` or
        /// NaN; never false when one does. (For fixed point, a value of
        /// exactly `bound` merged with others may also answer true.)
        fn marks_beyond(marks: u64, bound: Self) -> bool;
        /// Whether the value is finite (always true for fixed-point).
        fn is_finite(self) -> bool;
        /// The value's bits, for checksums: raw bits (sign-extended) for
        /// fixed-point types, the IEEE-754 pattern for floats.
        fn hash_bits(self) -> u64;
    }

    /// The squared distance of [`Sealed::frame_narrow`] in the full ring,
    /// as a ratio: `len2 / 1`, or `cross² / len2`.
    #[inline]
    pub(crate) fn narrow_dist2<E: Exact>(len2: E::Narrow, cross: Option<E::Narrow>) -> (E, E) {
        match cross {
            None => (E::from_narrow(len2), E::ONE),
            Some(cross) => (E::product(cross, cross), E::from_narrow(len2)),
        }
    }

    /// See [`Sealed::frame`].
    #[derive(Clone, Copy, Debug)]
    pub struct Frame<T> {
        /// The unit vector along the direction (+y for the zero direction).
        pub normal: (T, T),
        /// The vector of the given length along it.
        pub offset: (T, T),
        /// The distance, when one was asked for (zero otherwise).
        pub distance: T,
    }

    /// How a scalar type stores its values: a float of `bits` bits, or a
    /// fixed-point number of `bits` bits of which `frac` are fractional.
    /// Two types with the same format read each other's raw values as the
    /// same numbers; a saved world records its type's and is refused by
    /// another.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    pub struct Format {
        /// Whether the type is an IEEE-754 float.
        pub float: bool,
        /// The number of bits of a value.
        pub bits: u8,
        /// The number of fractional bits (0 for a float).
        pub frac: u8,
    }

    /// Seals [`Frac32`](super::Frac32) and [`Frac64`](super::Frac64).
    pub trait SealedFrac {}
}

/// [`flight_wrap`](private::Sealed::flight_wrap) step by step: `n` times
/// `v + g`, each followed by adding the product `v·h` to a sum from zero.
/// The floats' way (each sum rounded), and what fixed point's gives.
#[inline]
pub(crate) fn flight_steps<S: Scalar>(v: S, g: S, h: S, n: u8) -> (S, S) {
    let (mut v, mut sum) = (v, S::ZERO);
    for _ in 0..n {
        v = v.add_wrap(g);
        sum = sum.add_wrap(v.mul_wrap(h));
    }
    (v, sum)
}
