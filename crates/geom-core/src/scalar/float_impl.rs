//! [`Scalar`] for `f32` and `f64`.
//!
//! Both compute their kernels in `f64`. The square roots come from `libm`,
//! whose `sqrt` and `sqrtf` are correctly rounded, so results do not depend
//! on the platform's math library; no fused multiply-add is used anywhere.

use super::Scalar;
use super::exact::Rounding;
use super::private::{Format, FromExact, Sealed};

/// `f32` in `f64`: the conversion is exact.
impl Sealed for f32 {
    type Exact = f64;
    const EXACT_ONE: f64 = 1.0;
    const TIME_STEP: Self = f32::EPSILON;
    const FORMAT: Format = Format { float: true, bits: 32, frac: 0 };

    #[inline]
    fn to_exact(self) -> f64 {
        f64::from(self)
    }

    #[inline]
    fn to_narrow(self) -> f64 {
        f64::from(self)
    }

    #[inline]
    fn from_ratio(num: f64, den: f64) -> Self {
        (num / den) as f32
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
    fn is_finite(self) -> bool {
        f32::is_finite(self)
    }

    #[inline]
    fn hash_bits(self) -> u64 {
        u64::from(self.to_bits())
    }
}

impl Sealed for f64 {
    type Exact = f64;
    const EXACT_ONE: f64 = 1.0;
    const TIME_STEP: Self = f64::EPSILON;
    const FORMAT: Format = Format { float: true, bits: 64, frac: 0 };

    #[inline]
    fn to_exact(self) -> f64 {
        self
    }

    #[inline]
    fn to_narrow(self) -> f64 {
        self
    }

    #[inline]
    fn from_ratio(num: f64, den: f64) -> Self {
        num / den
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
    fn is_finite(self) -> bool {
        f64::is_finite(self)
    }

    #[inline]
    fn hash_bits(self) -> u64 {
        self.to_bits()
    }
}

impl FromExact<f64> for f32 {
    #[inline]
    fn from_exact_ratio(num: f64, den: f64) -> Self {
        (num / den) as f32
    }
}

impl FromExact<f64> for f64 {
    #[inline]
    fn from_exact_ratio(num: f64, den: f64) -> Self {
        num / den
    }
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
