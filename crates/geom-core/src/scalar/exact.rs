//! The rings in which the query kernels evaluate their polynomials.
//!
//! For a fixed-point type the ring is an integer wide enough that every
//! polynomial the kernels build from in-range coordinates (degree ≤ 4) is
//! exact, so every comparison is the mathematically right one. For a float
//! type the ring is `f64`: products of `f32` values are exact there, and `f64`
//! itself is evaluated as usual. Every conversion back to a scalar goes
//! through [`round_div`] or [`sqrt_ratio`], which round to nearest and
//! saturate instead of wrapping.

use core::fmt::Debug;
use core::ops::{Add, Mul, Neg, Sub};

use ethnum::I256;

/// A ring the kernels compute in: exact integers for fixed-point scalars,
/// `f64` for floats.
pub trait Exact:
    Copy + Debug + PartialOrd + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Neg<Output = Self>
{
    /// Additive identity.
    const ZERO: Self;
    /// Multiplicative identity: the integer `1`, not the scalar's one.
    const ONE: Self;

    /// Whether the squared distance `num / den` (degree 2) between shapes
    /// whose coordinates are at most `scale` in magnitude is to be treated
    /// as zero: exactly zero in an exact ring; in `f64`, below the rounding
    /// error of a kernel at that scale, where the side a point lies on is
    /// not known.
    fn is_negligible(num: Self, den: Self, scale: impl FnOnce() -> Self) -> bool;

    /// An upper bound on `√self` for `self ≥ 0`: exact (`⌈√self⌉`) below
    /// `2^126`, and above that within one part in `2^62`; `√self` for `f64`.
    fn sqrt_upper(self) -> Self;

    /// `⌊self / den⌋` for `den > 0` (the plain quotient for `f64`).
    fn div_floor(self, den: Self) -> Self;
}

impl Exact for i128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;

    #[inline]
    fn is_negligible(num: Self, _: Self, _: impl FnOnce() -> Self) -> bool {
        num == 0
    }

    #[inline]
    fn sqrt_upper(self) -> Self {
        sqrt_upper_int(self)
    }

    #[inline]
    fn div_floor(self, den: Self) -> Self {
        self.div_rem_floor(den).0
    }
}

impl Exact for I256 {
    const ZERO: Self = I256::ZERO;
    const ONE: Self = I256::ONE;

    #[inline]
    fn is_negligible(num: Self, _: Self, _: impl FnOnce() -> Self) -> bool {
        num == I256::ZERO
    }

    #[inline]
    fn sqrt_upper(self) -> Self {
        sqrt_upper_int(self)
    }

    #[inline]
    fn div_floor(self, den: Self) -> Self {
        self.div_rem_floor(den).0
    }
}

impl Exact for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;

    #[inline]
    fn is_negligible(num: Self, den: Self, scale: impl FnOnce() -> Self) -> bool {
        // An interior distance is |d × w| / |d| with |w| ≤ 2√2·scale; the
        // rounded cross product is off by at most ~4ε·|d|·|w|, so the
        // distance by ~4ε·|w| < 12ε·scale (an end-point distance |w| by less).
        let tolerance = 16.0 * f64::EPSILON * scale();
        num <= tolerance * tolerance * den
    }

    #[inline]
    fn sqrt_upper(self) -> Self {
        libm::sqrt(self)
    }

    #[inline]
    fn div_floor(self, den: Self) -> Self {
        self / den
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
}

impl ExactInt for i128 {
    #[inline]
    fn div_rem_floor(self, den: Self) -> (Self, Self) {
        // One division; the remainder by multiplication.
        let q = self.div_euclid(den);
        (q, self - q * den)
    }
    #[inline]
    fn is_odd(self) -> bool {
        self & 1 == 1
    }
    #[inline]
    fn isqrt_small(self) -> Self {
        self.unsigned_abs().isqrt() as i128
    }
    #[inline]
    fn shl(self, k: u32) -> Self {
        self << k
    }
    #[inline]
    fn shr(self, k: u32) -> Self {
        self >> k
    }
}

impl ExactInt for I256 {
    #[inline]
    fn div_rem_floor(self, den: Self) -> (Self, Self) {
        // Both operands fit in 128 bits for most calls; the native division
        // is several times faster than the 256-bit one.
        if let (Ok(n), Ok(d)) = (i128::try_from(self), i128::try_from(den)) {
            let (q, r) = n.div_rem_floor(d);
            (I256::new(q), I256::new(r))
        } else {
            self.div_rem_euclid(den)
        }
    }
    #[inline]
    fn is_odd(self) -> bool {
        self.as_i128() & 1 == 1
    }
    #[inline]
    fn isqrt_small(self) -> Self {
        I256::from(self.as_u128().isqrt())
    }
    #[inline]
    fn shl(self, k: u32) -> Self {
        self << k
    }
    #[inline]
    fn shr(self, k: u32) -> Self {
        self >> k
    }
}

/// `num / den` rounded to the nearest integer, ties to even; `den > 0`.
#[inline]
pub(crate) fn round_div<E: ExactInt>(num: E, den: E) -> E {
    let (q, r) = num.div_rem_floor(den);
    let twice = r + r;
    if twice > den || (twice == den && q.is_odd()) { q + E::ONE } else { q }
}

/// `√(num / den)` rounded to the nearest integer, ties to even, saturating
/// at `max`; `den > 0`, and a non-positive `num` gives zero.
#[inline]
pub(crate) fn sqrt_ratio<E: ExactInt>(num: E, den: E, max: E) -> E {
    if num <= E::ZERO {
        return E::ZERO;
    }
    let (q, _) = num.div_rem_floor(den);
    let above = max + E::ONE;
    if q >= above * above {
        return max;
    }
    // ⌊√(num/den)⌋ = ⌊√⌊num/den⌋⌋, and q < (max + 1)² < 2^128 here.
    let s = q.isqrt_small();
    let two_s_plus_one = s + s + E::ONE;
    let four_num = num + num + num + num;
    // Round up when num/den > (s + ½)², i.e. 4·num > (2s + 1)²·den.
    let midpoint = two_s_plus_one * two_s_plus_one * den;
    let up = four_num > midpoint || (four_num == midpoint && s.is_odd());
    if up && s < max { s + E::ONE } else { s }
}

/// An upper bound on `√n` for `n ≥ 0`: `⌈√n⌉` when `n < 2^126`; otherwise
/// `n` is scaled down by `4^k` into that range first, and
/// `(⌊√⌊n / 4^k⌋⌋ + 1)·2^k`, which exceeds `√n` by at most `2^k`, is
/// returned (one part in `2^62` of the root).
#[inline]
fn sqrt_upper_int<E: ExactInt>(n: E) -> E {
    let limit = E::ONE.shl(126);
    if n <= E::ZERO {
        return E::ZERO;
    }
    if n < limit {
        let s = n.isqrt_small();
        return if s * s < n { s + E::ONE } else { s };
    }
    let mut k = 1;
    while n.shr(2 * k) >= limit {
        k += 1;
    }
    (n.shr(2 * k).isqrt_small() + E::ONE).shl(k)
}

/// A direction to round a quotient in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// Toward −∞.
    Down,
    /// Toward +∞.
    Up,
    /// Toward zero.
    TowardZero,
}

/// `num / den` rounded as `mode` says; `den > 0`.
#[inline]
pub(crate) fn directed_div<E: ExactInt>(num: E, den: E, mode: Rounding) -> E {
    let (q, r) = num.div_rem_floor(den);
    let up = match mode {
        Rounding::Down => false,
        Rounding::Up => r > E::ZERO,
        // Floor rounds a negative inexact quotient away from zero.
        Rounding::TowardZero => q < E::ZERO && r > E::ZERO,
    };
    if up { q + E::ONE } else { q }
}

/// Clamps an exact integer into `[min, max]`.
#[inline]
pub(crate) fn saturate<E: ExactInt>(value: E, min: E, max: E) -> E {
    value.clamp(min, max)
}

#[cfg(test)]
mod tests {
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
    fn round_div_agrees_between_i128_and_i256() {
        for num in -50_i128..50 {
            for den in 1_i128..9 {
                assert_eq!(I256::new(round_div(num, den)), round_div(I256::new(num), I256::new(den)), "{num}/{den}");
            }
        }
    }

    #[test]
    fn round_div_on_operands_beyond_128_bits() {
        let big = I256::new(i128::MAX) * I256::new(8);
        assert_eq!(round_div(big, I256::new(8)), I256::new(i128::MAX));
        assert_eq!(round_div(-big, I256::new(16)), -I256::new(i128::MAX / 2 + 1));
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
            assert_eq!(I256::new(n).sqrt_upper(), I256::new(s));
        }
        let big: I256 = (I256::new(3) << 200) + I256::new(7);
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
    }

    #[test]
    fn sqrt_ratio_is_exact_around_perfect_squares_in_i128_and_i256() {
        // Radicands around perfect squares, where a rounding mistake would
        // show, at several magnitudes; the I256 results must match the i128
        // ones and the definition.
        for shift in [0_u32, 20, 40, 60, 80] {
            for k in [1_i128, 3, 1000, 65_535, 1 << 20] {
                let root = k << (shift / 2);
                for delta in [-2_i128, -1, 0, 1, 2] {
                    let n = root * root + delta;
                    if n <= 0 {
                        continue;
                    }
                    let s = sqrt_ratio(n, 1, i128::from(i64::MAX));
                    assert!((2 * s - 1) * (2 * s - 1) <= 4 * n && 4 * n <= (2 * s + 1) * (2 * s + 1), "√{n} -> {s}");
                    let wide = sqrt_ratio(I256::new(n) << 64, I256::ONE << 64, I256::new(i128::from(i64::MAX)));
                    assert_eq!(wide, I256::new(s), "√{n}");
                }
            }
        }
    }

    #[test]
    fn sqrt_ratio_is_exact_for_every_small_radicand() {
        for n in 0_i128..5000 {
            let s = sqrt_ratio(n, 1, i128::from(i32::MAX));
            // |s - √n| ≤ ½  ⇔  (2s - 1)² ≤ 4n ≤ (2s + 1)²
            assert!((2 * s - 1) * (2 * s - 1) <= 4 * n || s == 0, "{n} -> {s}");
            assert!(4 * n <= (2 * s + 1) * (2 * s + 1), "{n} -> {s}");
        }
    }
}
