//! [`Scalar`] for the signed fixed-point types of the `fixed` crate.
//!
//! Raw bounds: coordinates are at most `2^28` raw units for `FixedI32`
//! (`2^60` for `FixedI64`), so coordinate differences stay below `2^29`
//! (`2^61`), products of two differences below `2^59` (`2^123`) and products
//! of four below `2^119` (`2^247`): the kernels' degree-4 polynomials fit in
//! `i128` (`I256`) with room for the few additions they make.

use ethnum::I256;
use fixed::types::extra::{
    LeEqU32, LeEqU64, LeEqU128, U8, U9, U10, U11, U12, U13, U14, U15, U16, U17, U18, U19, U20, U21, U22, U23, U24, U25,
    U26, U27, U28, U29, U30, U31, U32, U33, U34, U35, U36, U37, U38, U39, U40, U41, U42, U43, U44, U45, U46, U47, U48,
    U50, U52, U54, U56, U58, U60, U62, U64, U66, U68, U70, U72, U74, U76, U78, U80, U82, U84, U86, U88, U90, U92, U94,
    U96,
};
use fixed::{FixedI32, FixedI64, FixedI128};
use num_traits::ConstOne;

use super::Scalar;
use super::exact::{Exact, Rounding, directed_div, round_div, saturate, sqrt_ratio};
use super::private::{FromExact, Sealed, SealedFrac};

/// The fractional bit counts `F` for which [`FixedI32<F>`](fixed::FixedI32)
/// implements [`Scalar`]: `U8` to `U24`.
///
/// Fewer than 8 fractional bits cannot resolve a unit normal usefully; more
/// than 24 leave fewer than 8 integer bits. `Double` is `2F`, the fractional
/// bits of the exact product ([`Scalar::Wide`]).
pub trait Frac32: LeEqU32 + SealedFrac + Send + Sync + 'static {
    /// Twice `Self`: the fractional bits of [`Scalar::Wide`].
    type Double: LeEqU64 + Send + Sync + 'static;
}

/// The fractional bit counts `F` for which [`FixedI64<F>`](fixed::FixedI64)
/// implements [`Scalar`]: `U8` to `U48`.
///
/// `Double` is `2F`, the fractional bits of the exact product
/// ([`Scalar::Wide`], a `FixedI128`).
pub trait Frac64: LeEqU64 + SealedFrac + Send + Sync + 'static {
    /// Twice `Self`: the fractional bits of [`Scalar::Wide`].
    type Double: LeEqU128 + Send + Sync + 'static;
}

macro_rules! fracs {
    ($trait:ident: $($f:ident => $double:ident),* $(,)?) => {
        $(impl $trait for $f { type Double = $double; })*
    };
}

macro_rules! sealed_fracs {
    ($($f:ident),*) => { $(impl SealedFrac for $f {})* };
}

sealed_fracs!(
    U8, U9, U10, U11, U12, U13, U14, U15, U16, U17, U18, U19, U20, U21, U22, U23, U24, U25, U26, U27, U28, U29, U30,
    U31, U32, U33, U34, U35, U36, U37, U38, U39, U40, U41, U42, U43, U44, U45, U46, U47, U48
);

fracs!(Frac32:
    U8 => U16, U9 => U18, U10 => U20, U11 => U22, U12 => U24, U13 => U26, U14 => U28,
    U15 => U30, U16 => U32, U17 => U34, U18 => U36, U19 => U38, U20 => U40, U21 => U42,
    U22 => U44, U23 => U46, U24 => U48,
);

fracs!(Frac64:
    U8 => U16, U9 => U18, U10 => U20, U11 => U22, U12 => U24, U13 => U26, U14 => U28,
    U15 => U30, U16 => U32, U17 => U34, U18 => U36, U19 => U38, U20 => U40, U21 => U42,
    U22 => U44, U23 => U46, U24 => U48, U25 => U50, U26 => U52, U27 => U54, U28 => U56,
    U29 => U58, U30 => U60, U31 => U62, U32 => U64, U33 => U66, U34 => U68, U35 => U70,
    U36 => U72, U37 => U74, U38 => U76, U39 => U78, U40 => U80, U41 => U82, U42 => U84,
    U43 => U86, U44 => U88, U45 => U90, U46 => U92, U47 => U94, U48 => U96,
);

impl<F: Frac32> Sealed for FixedI32<F> {
    type Exact = i128;
    const EXACT_ONE: i128 = 1 << F::U32;
    const TIME_STEP: Self = Self::DELTA;

    #[inline]
    fn to_exact(self) -> i128 {
        self.to_bits().into()
    }

    #[inline]
    fn from_ratio(num: i128, den: i128) -> Self {
        let raw = saturate(round_div(num, den), i32::MIN.into(), i32::MAX.into());
        Self::from_bits(raw as i32)
    }

    #[inline]
    fn from_ratio_rounded(num: i128, den: i128, mode: Rounding) -> Self {
        let raw = saturate(directed_div(num, den, mode), i32::MIN.into(), i32::MAX.into());
        Self::from_bits(raw as i32)
    }

    #[inline]
    fn from_sqrt_ratio(num: i128, den: i128) -> Self {
        Self::from_bits(sqrt_ratio(num, den, i32::MAX.into()) as i32)
    }

    #[inline]
    fn is_finite(self) -> bool {
        true
    }

    #[inline]
    fn hash_bits(self) -> u64 {
        i64::from(self.to_bits()) as u64
    }
}

impl<F: Frac64> Sealed for FixedI64<F> {
    type Exact = I256;
    const EXACT_ONE: I256 = I256::new(1 << F::U32);
    const TIME_STEP: Self = Self::DELTA;

    #[inline]
    fn to_exact(self) -> I256 {
        I256::from(self.to_bits())
    }

    #[inline]
    fn from_ratio(num: I256, den: I256) -> Self {
        let raw = saturate(round_div(num, den), i64::MIN.into(), i64::MAX.into());
        Self::from_bits(raw.as_i64())
    }

    #[inline]
    fn from_ratio_rounded(num: I256, den: I256, mode: Rounding) -> Self {
        let raw = saturate(directed_div(num, den, mode), i64::MIN.into(), i64::MAX.into());
        Self::from_bits(raw.as_i64())
    }

    #[inline]
    fn from_sqrt_ratio(num: I256, den: I256) -> Self {
        Self::from_bits(sqrt_ratio(num, den, i64::MAX.into()).as_i64())
    }

    #[inline]
    fn is_finite(self) -> bool {
        true
    }

    #[inline]
    fn hash_bits(self) -> u64 {
        self.to_bits() as u64
    }
}

impl<G: LeEqU64> FromExact<i128> for FixedI64<G> {
    #[inline]
    fn from_exact_ratio(num: i128, den: i128) -> Self {
        let raw = saturate(round_div(num, den), i64::MIN.into(), i64::MAX.into());
        Self::from_bits(raw as i64)
    }
}

impl<G: LeEqU128> FromExact<I256> for FixedI128<G> {
    #[inline]
    fn from_exact_ratio(num: I256, den: I256) -> Self {
        let raw = saturate(round_div(num, den), i128::MIN.into(), i128::MAX.into());
        Self::from_bits(raw.as_i128())
    }
}

/// Shared by both widths: the square root through the exact kernel, the
/// dyadic constants through a shift.
macro_rules! impl_scalar_fixed {
    ($Fixed:ident, $Frac:ident, $Wide:ident, $Bits:ty, $WideBits:ty, $max_raw:expr) => {
        impl<F: $Frac> Scalar for $Fixed<F>
        where
            Self: From<i8> + ConstOne,
        {
            type Wide = $Wide<F::Double>;

            const MAX_COORD: Self = Self::from_bits($max_raw);

            #[inline]
            fn wide_mul(self, rhs: Self) -> Self::Wide {
                // The product of two N-bit integers always fits in 2N bits.
                $Wide::from_bits(<$WideBits>::from(self.to_bits()) * <$WideBits>::from(rhs.to_bits()))
            }

            #[inline]
            fn sqrt(self) -> Self {
                // √(x·2^F) in raw units is √x · 2^F: a degree-2 radicand.
                Self::from_sqrt_ratio(self.to_exact() * Self::EXACT_ONE, Exact::ONE)
            }

            #[inline]
            fn from_dyadic<const LOG2_DEN: u32>(numerator: i8) -> Self {
                const { assert!(LOG2_DEN <= 8, "from_dyadic supports denominators up to 2^8") };
                // F ≥ 8 ≥ LOG2_DEN, and F ≤ N - 8 keeps an i8 numerator in range.
                Self::from_bits(<$Bits>::from(numerator) << (F::U32 - LOG2_DEN))
            }
        }
    };
}

impl_scalar_fixed!(FixedI32, Frac32, FixedI64, i32, i64, 1 << 28);
impl_scalar_fixed!(FixedI64, Frac64, FixedI128, i64, i128, 1 << 60);

#[cfg(test)]
mod tests {
    use fixed::types::{I16F16, I24F8, I32F32, I48F16};

    use super::*;

    #[test]
    fn sqrt_is_correctly_rounded_for_i16f16() {
        for bits in (0..1 << 20).step_by(997) {
            let x = I16F16::from_bits(bits);
            let s = Scalar::sqrt(x);
            let exact = x.to_num::<f64>().sqrt();
            let err = (s.to_num::<f64>() - exact).abs();
            assert!(err <= 0.5 / 65536.0 + 1e-12, "sqrt({x}) = {s}, exact {exact}");
        }
    }

    #[test]
    fn sqrt_of_the_largest_values_does_not_overflow() {
        let s = Scalar::sqrt(I16F16::MAX);
        assert!((s.to_num::<f64>() - I16F16::MAX.to_num::<f64>().sqrt()).abs() < 1e-4);
        let s = Scalar::sqrt(I32F32::MAX);
        assert!((s.to_num::<f64>() - I32F32::MAX.to_num::<f64>().sqrt()).abs() < 1e-8);
        let s = Scalar::sqrt(I48F16::MAX);
        assert!((s.to_num::<f64>() - I48F16::MAX.to_num::<f64>().sqrt()).abs() < 1e-4);
    }

    #[test]
    fn wide_mul_of_extremes_is_exact() {
        assert_eq!(I16F16::MIN.wide_mul(I16F16::MIN).to_bits(), 1 << 62);
        assert_eq!(I32F32::MIN.wide_mul(I32F32::MIN).to_bits(), 1 << 126);
    }

    #[test]
    fn from_ratio_saturates_instead_of_wrapping() {
        assert_eq!(I24F8::from_ratio(1_i128 << 100, 1), I24F8::MAX);
        assert_eq!(I24F8::from_ratio(-(1_i128 << 100), 1), I24F8::MIN);
        assert_eq!(I32F32::from_ratio(I256::ONE << 200, I256::ONE), I32F32::MAX);
    }

    #[test]
    fn from_ratio_rounded_goes_the_way_it_is_told() {
        let r = |num: i128, mode| I16F16::from_ratio_rounded(num, 2, mode).to_bits();
        assert_eq!((r(7, Rounding::Down), r(7, Rounding::Up), r(7, Rounding::TowardZero)), (3, 4, 3));
        assert_eq!((r(-7, Rounding::Down), r(-7, Rounding::Up), r(-7, Rounding::TowardZero)), (-4, -3, -3));
        assert_eq!((r(6, Rounding::Down), r(6, Rounding::Up), r(-6, Rounding::TowardZero)), (3, 3, -3));
        assert_eq!(I32F32::from_ratio_rounded(I256::new(-7), I256::new(2), Rounding::Up), I32F32::from_bits(-3));
    }

    #[test]
    fn max_coord_matches_the_documented_table() {
        assert_eq!(I16F16::MAX_COORD, 4096);
        assert_eq!(I24F8::MAX_COORD, 1 << 20);
        assert_eq!(I32F32::MAX_COORD, 1 << 28);
        assert_eq!(I48F16::MAX_COORD, 1_i64 << 44);
    }
}
