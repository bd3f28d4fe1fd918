//! [`Scalar`] for `f32` and `f64`.
//!
//! Both compute their kernels in `f64`. The square roots come from `libm`,
//! whose `sqrt` and `sqrtf` are correctly rounded, so results do not depend
//! on the platform's math library; no fused multiply-add is used anywhere.

use super::Scalar;
use super::exact::Rounding;
use super::private::{Format, Frame, Sealed};

/// `f32` in `f64`: the conversion is exact.
impl Sealed<f32> for f32 {
    type Exact = f64;
    const EXACT_ONE: f64 = 1.0;
    const TIME_STEP: Self = f32::EPSILON;
    const FORMAT: Format = Format { float: true, bits: 32, frac: 0 };

    #[inline]
    fn to_narrow(self) -> f64 {
        f64::from(self)
    }

    #[inline]
    fn from_ratio_rounded(num: f64, den: f64, _: Rounding) -> Self {
        (num / den) as f32
    }

    #[inline]
    fn from_sqrt_ratio(num: f64, den: f64) -> Self {
        f64::from_sqrt_ratio(num, den) as f32
    }

    #[inline]
    fn wide_from_ratio(num: f64, den: f64) -> Self {
        (num / den) as f32
    }

    #[inline]
    fn frame(x: f64, y: f64, length: Self, dist2: Option<(f64, f64)>, _: bool) -> Frame<Self> {
        // A non-zero sum or difference of `f32` values is at least 2^−149
        // and at most 2^62 in magnitude: its square neither underflows nor
        // overflows in `f64`, so no scaling is needed.
        let Frame { normal, offset, distance } = frame_f64::<false>(x, y, f64::from(length), dist2);
        let narrow = |(x, y): (f64, f64)| (x as f32, y as f32);
        Frame { normal: narrow(normal), offset: narrow(offset), distance: distance as f32 }
    }

    #[inline]
    fn mul_round(self, rhs: Self) -> Self {
        // The f64 product of two f32 values is exact, so rounding it to
        // f32 is rounding the exact product once: f32's own product.
        self * rhs
    }

    #[inline]
    fn dot_round(a: (Self, Self), b: (Self, Self)) -> Self {
        (f64::from(a.0) * f64::from(b.0) + f64::from(a.1) * f64::from(b.1)) as f32
    }

    #[inline]
    fn div_round(self, rhs: Self) -> Self {
        // As the exact ring's `from_ratio`: the f64 quotient rounded to f32.
        (f64::from(self) / f64::from(rhs)) as f32
    }

    #[inline]
    fn mul_wrap(self, rhs: Self) -> Self {
        self.mul_round(rhs)
    }

    #[inline]
    fn dot_wrap(a: (Self, Self), b: (Self, Self)) -> Self {
        Self::dot_round(a, b)
    }

    #[inline]
    fn add_wrap(self, rhs: Self) -> Self {
        self + rhs
    }

    #[inline]
    fn sub_wrap(self, rhs: Self) -> Self {
        self - rhs
    }

    #[inline]
    fn flight_wrap(self, g: Self, h: Self, n: u8) -> (Self, Self) {
        super::flight_steps(self, g, h, n)
    }

    // The negation is the point: a NaN is not within the bound either, and
    // `!(a <= b)` is one comparison where `a > b || a.is_nan()` is two.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    #[inline]
    fn mark(self, bound: Self) -> u64 {
        // A flag, so that marks merge by an `|`, which vectorises where a
        // 64-bit maximum does not.
        u64::from(!(self.abs() <= bound))
    }

    #[inline]
    fn merge_marks(a: u64, b: u64) -> u64 {
        a | b
    }

    #[inline]
    fn marks_beyond(marks: u64, _bound: Self) -> bool {
        marks != 0
    }

    #[inline]
    fn is_finite(self) -> bool {
        f32::is_finite(self)
    }

    #[inline]
    fn hash_bits(self) -> u64 {
        u64::from(self.to_bits())
    }
}

impl Sealed<f64> for f64 {
    type Exact = f64;
    const EXACT_ONE: f64 = 1.0;
    const TIME_STEP: Self = f64::EPSILON;
    const FORMAT: Format = Format { float: true, bits: 64, frac: 0 };

    #[inline]
    fn to_narrow(self) -> f64 {
        self
    }

    #[inline]
    fn from_ratio_rounded(num: f64, den: f64, _: Rounding) -> Self {
        num / den
    }

    #[inline]
    fn from_sqrt_ratio(num: f64, den: f64) -> Self {
        // `<= 0` rather than `< 0` also maps -0.0 to +0.0; a NaN falls through.
        if num <= 0.0 { 0.0 } else { libm::sqrt(num / den) }
    }

    #[inline]
    fn wide_from_ratio(num: f64, den: f64) -> Self {
        num / den
    }

    #[inline]
    fn frame(x: f64, y: f64, length: Self, dist2: Option<(f64, f64)>, _: bool) -> Frame<Self> {
        frame_f64::<true>(x, y, length, dist2)
    }

    #[inline]
    fn mul_round(self, rhs: Self) -> Self {
        self * rhs
    }

    #[inline]
    fn dot_round(a: (Self, Self), b: (Self, Self)) -> Self {
        a.0 * b.0 + a.1 * b.1
    }

    #[inline]
    fn div_round(self, rhs: Self) -> Self {
        self / rhs
    }

    #[inline]
    fn mul_wrap(self, rhs: Self) -> Self {
        self.mul_round(rhs)
    }

    #[inline]
    fn dot_wrap(a: (Self, Self), b: (Self, Self)) -> Self {
        Self::dot_round(a, b)
    }

    #[inline]
    fn add_wrap(self, rhs: Self) -> Self {
        self + rhs
    }

    #[inline]
    fn sub_wrap(self, rhs: Self) -> Self {
        self - rhs
    }

    #[inline]
    fn flight_wrap(self, g: Self, h: Self, n: u8) -> (Self, Self) {
        super::flight_steps(self, g, h, n)
    }

    // The negation is the point: a NaN is not within the bound either, and
    // `!(a <= b)` is one comparison where `a > b || a.is_nan()` is two.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    #[inline]
    fn mark(self, bound: Self) -> u64 {
        // A flag, so that marks merge by an `|`, which vectorises where a
        // 64-bit maximum does not.
        u64::from(!(self.abs() <= bound))
    }

    #[inline]
    fn merge_marks(a: u64, b: u64) -> u64 {
        a | b
    }

    #[inline]
    fn marks_beyond(marks: u64, _bound: Self) -> bool {
        marks != 0
    }

    #[inline]
    fn is_finite(self) -> bool {
        f64::is_finite(self)
    }

    #[inline]
    fn hash_bits(self) -> u64 {
        self.to_bits()
    }
}

/// [`Sealed::frame`] for both float types: the unit vector `(x / |(x, y)|,
/// y / |(x, y)|)`, with one square root and a division per component, so
/// that an axis-aligned direction gives an exact unit; the offset that unit
/// times `length`; the distance the same root when it is the direction's own
/// length (as for two circles, or a point nearest an end of a segment), else
/// `√(num / den)`.
///
/// Each component is within a relative error of 2<sup>−50</sup> before it
/// is rounded to the type: at most four units of 2<sup>−53</sup>, two from
/// the squared length (halved by the root), then one each from the root, the
/// division and the product. A direction whose larger component is below
/// 2<sup>−500</sup> or above 2<sup>500</sup> is first scaled by
/// 2<sup>±600</sup> (with `SCALE`: `f64` input), so its squared length
/// neither underflows, which would lose its digits, nor overflows; scaled
/// down, the components are divided unscaled and the quotients scaled back,
/// so a small component does not lose its digits to a subnormal. A
/// component whose exact value is itself below the least normal `f64` is
/// within 2<sup>−1074</sup>, the least step, instead. No fused
/// multiply-add, and a zero component is `+0.0`: the same bits on every
/// IEEE-754 target, whatever the sign of a zero in the direction.
#[inline]
fn frame_f64<const SCALE: bool>(x: f64, y: f64, length: f64, dist2: Option<(f64, f64)>) -> Frame<f64> {
    const TINY: f64 = f64::from_bits((1023 - 500) << 52);
    const HUGE: f64 = f64::from_bits((1023 + 500) << 52);
    const UP: f64 = f64::from_bits((1023 + 600) << 52);
    const DOWN: f64 = f64::from_bits((1023 - 600) << 52);
    /// How the direction is scaled before its length is taken.
    enum Scale {
        None,
        /// By 2^600, exactly: every component of a tiny direction stays
        /// exact.
        Up,
        /// By 2^−600, which could make a small component subnormal: the
        /// components are divided unscaled and the quotient scaled back.
        Down,
    }
    let zero = x == 0.0 && y == 0.0;
    let scale = if SCALE && !zero {
        let (ax, ay) = (x.abs(), y.abs());
        let largest = if ax > ay { ax } else { ay };
        if largest < TINY {
            Scale::Up
        } else if largest > HUGE {
            Scale::Down
        } else {
            Scale::None
        }
    } else {
        Scale::None
    };
    let (sx, sy) = match scale {
        Scale::None => (x, y),
        Scale::Up => (x * UP, y * UP),
        Scale::Down => (x * DOWN, y * DOWN),
    };
    let len2 = sx * sx + sy * sy;
    let norm = libm::sqrt(len2);
    let distance = match dist2 {
        None => 0.0,
        // `√(len2 / 1)` is the root just taken, bit for bit.
        Some((num, den)) if matches!(scale, Scale::None) && den == 1.0 && num == len2 => norm,
        Some((num, den)) => f64::from_sqrt_ratio(num, den),
    };
    if zero {
        return Frame { normal: (0.0, 1.0), offset: (0.0, length), distance };
    }
    // `+ 0.0` turns a `-0.0` into `+0.0` and changes nothing else.
    let normal = match scale {
        Scale::None | Scale::Up => (sx / norm + 0.0, sy / norm + 0.0),
        Scale::Down => ((x / norm) * DOWN + 0.0, (y / norm) * DOWN + 0.0),
    };
    Frame { normal, offset: (normal.0 * length, normal.1 * length), distance }
}

impl Scalar for f32 {
    type Wide = f32;

    /// 2^60.
    const MAX_COORD: Self = f32::from_bits((127 + 60) << 23);

    #[inline]
    fn wide_mul(self, rhs: Self) -> Self {
        self * rhs
    }

    #[inline]
    fn sqrt(self) -> Self {
        if self < 0.0 { 0.0 } else { libm::sqrtf(self) }
    }

    #[inline]
    fn from_dyadic<const LOG2_DEN: u32>(numerator: i8) -> Self {
        const { assert!(LOG2_DEN <= 8, "from_dyadic supports denominators up to 2^8") };
        f32::from(numerator) / (1_u16 << LOG2_DEN) as f32
    }

    #[inline]
    fn from_f64(value: f64) -> Self {
        value as f32
    }

    #[inline]
    fn try_from_f64(value: f64) -> Option<Self> {
        // A finite value that rounds beyond `f32::MAX` becomes an infinity.
        let narrow = value as f32;
        narrow.is_finite().then_some(narrow)
    }

    #[inline]
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

impl Scalar for f64 {
    type Wide = f64;

    /// 2^240.
    const MAX_COORD: Self = f64::from_bits((1023 + 240) << 52);

    #[inline]
    fn wide_mul(self, rhs: Self) -> Self {
        self * rhs
    }

    #[inline]
    fn sqrt(self) -> Self {
        if self < 0.0 { 0.0 } else { libm::sqrt(self) }
    }

    #[inline]
    fn from_dyadic<const LOG2_DEN: u32>(numerator: i8) -> Self {
        const { assert!(LOG2_DEN <= 8, "from_dyadic supports denominators up to 2^8") };
        f64::from(numerator) / f64::from(1_u16 << LOG2_DEN)
    }

    #[inline]
    fn from_f64(value: f64) -> Self {
        value
    }

    #[inline]
    fn try_from_f64(value: f64) -> Option<Self> {
        value.is_finite().then_some(value)
    }

    #[inline]
    fn to_f64(self) -> f64 {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_coord_is_the_documented_power_of_two() {
        assert_eq!(f32::MAX_COORD, 2.0_f32.powi(60));
        assert_eq!(f64::MAX_COORD, 2.0_f64.powi(240));
    }

    #[test]
    fn sqrt_of_negative_is_zero_and_nan_stays_nan() {
        assert_eq!(Scalar::sqrt(-4.0_f32), 0.0);
        assert_eq!(Scalar::sqrt(-4.0_f64), 0.0);
        assert!(Scalar::sqrt(f64::NAN).is_nan());
    }
}
