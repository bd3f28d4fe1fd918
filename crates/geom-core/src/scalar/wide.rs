//! [`Exact256`], the exact ring of the `FixedI64` kernels: an
//! [`ethnum::I256`] with three shortcuts `ethnum` does not take, each kept
//! because a benchmark shows it faster (figures at each): a product of
//! two values that fit in `i64` (most kernel products: a coordinate
//! difference fits in `i64`), the product of two `i128` values by their
//! magnitudes, and a floor division by a denominator below `2^128` (most
//! divisions) by [`div_rem_u256_u128`]. Everything else is `ethnum`'s.
//! Every path is exact, so the shortcuts change no result, only the time.
//!
//! The figures not from `benches/queries.rs` come from a criterion
//! micro-benchmark of 4096 calls per case on seeded random operands, the
//! hand-written code and `ethnum`'s measured in one run on the shared
//! 2-core development machine (2026-11-25). Where a hand-written helper
//! lost (a 128 × 128-bit limb product: 10.8 µs vs 9.7 µs for `ethnum`'s
//! `U256` product; a shortcut of `*` for operands in `i128`: 38.9 µs vs
//! 32.7 µs), it is gone.

use core::fmt;
use core::ops::{Add, Mul, Neg, Shl, Shr, Sub};

use ethnum::{I256, U256};

/// A signed 256-bit integer, the exact ring of the `FixedI64` kernels:
/// [`ethnum::I256`] with a faster product of two values that fit in `i64`
/// and a faster floor division by a denominator below `2^128`. An overflow
/// is `ethnum`'s: a panic with overflow checks on, wrapping without (the
/// kernels' bounds keep every value below `2^248`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Exact256(I256);

impl Exact256 {
    pub(crate) const ZERO: Self = Self(I256::ZERO);
    pub(crate) const ONE: Self = Self(I256::ONE);
    #[cfg(test)]
    pub(crate) const MAX: Self = Self(I256::MAX);

    /// The value of an `i128`.
    #[inline]
    pub(crate) const fn new(value: i128) -> Self {
        Self(I256::new(value))
    }

    /// The value as an `i128`, if it fits.
    #[inline]
    pub(crate) fn to_i128(self) -> Option<i128> {
        let (hi, lo) = self.0.into_words();
        // It fits when the high word is the low word's sign extension.
        (hi == lo >> 127).then_some(lo)
    }

    /// The value as an `i64`, if it fits.
    #[inline]
    fn to_i64(self) -> Option<i64> {
        self.to_i128().and_then(|v| i64::try_from(v).ok())
    }

    /// The low 128 bits, as `ethnum`'s `as_i128` (wrapping).
    #[inline]
    pub(crate) fn as_i128(self) -> i128 {
        self.0.as_i128()
    }

    /// The low 64 bits (wrapping).
    #[inline]
    pub(crate) fn as_i64(self) -> i64 {
        self.0.as_i64()
    }

    /// The bits as an unsigned 256-bit integer: the value itself when it
    /// is non-negative.
    #[inline]
    pub(crate) fn as_u256(self) -> U256 {
        self.0.as_u256()
    }

    /// A non-negative value below `2^255`.
    #[inline]
    pub(crate) fn from_u256(value: U256) -> Self {
        Self(value.as_i256())
    }

    /// Euclidean quotient and remainder (`ethnum`'s); `den > 0`.
    #[inline]
    pub(crate) fn div_rem_euclid(self, den: Self) -> (Self, Self) {
        let (q, r) = self.0.div_rem_euclid(den.0);
        (Self(q), Self(r))
    }

    /// `⌊self / den⌋` and the remainder in `[0, den)`, for `den > 0`, when
    /// the quotient's magnitude is below `2^128` (else `None`): one
    /// 256-by-128-bit division of the magnitude ([`div_rem_u256_u128`]).
    #[inline]
    pub(crate) fn div_rem_floor_u128(self, den: u128) -> Option<(Self, Self)> {
        let negative = self < Self::ZERO;
        // The kernels' values are far from -2^255, whose negation overflows.
        let (hi, lo) = (if negative { -self } else { self }).as_u256().into_words();
        if hi >= den {
            return None;
        }
        let (q, r) = div_rem_u256_u128(hi, lo, den);
        let (q, r) = (Self::from(q), Self::from(r));
        Some(if !negative {
            (q, r)
        } else if r == Self::ZERO {
            (-q, r)
        } else {
            (-q - Self::ONE, Self::from(den) - r)
        })
    }

    /// The exact product of two `i128` values (`Exact::product`, the
    /// degree-4 values of the kernels): `ethnum`'s unsigned product of the
    /// magnitudes, and the sign. Through `*` instead (the `i64` check, then
    /// `ethnum`'s signed product of the sign-extended values)
    /// `distance_squared_point_segment` for `I48F16` took 25% longer in
    /// `benches/queries.rs` (132 µs vs 104 µs `near`, 192 µs vs 156 µs
    /// `uniform`, medians of one interleaved run); the hand-written
    /// 64-bit-limb product of the magnitudes this replaces measured the
    /// same there (103 µs, 145 µs: within the run-to-run spread) and
    /// slower alone (10.8 µs vs `ethnum`'s 9.7 µs for 4096 products).
    #[inline]
    pub(crate) fn widening_mul(a: i128, b: i128) -> Self {
        // |a·b| ≤ 2^254: positive as a signed 256-bit integer.
        let magnitude = Self::from_u256(U256::new(a.unsigned_abs()) * U256::new(b.unsigned_abs()));
        if (a < 0) == (b < 0) { magnitude } else { -magnitude }
    }

    /// The product, or `None` if it overflows.
    #[cfg(test)]
    pub(crate) fn checked_mul(self, rhs: Self) -> Option<Self> {
        self.0.checked_mul(rhs.0).map(Self)
    }
}

/// `(hi·2^128 + lo) / den` for `hi < den` (so the quotient is below
/// `2^128`): the quotient and the remainder.
///
/// Long division in base `2^64` with a normalised divisor (Knuth's
/// algorithm D, as Hacker's Delight's `divlu` writes it with the word size
/// doubled): two quotient digits, each estimated by one division by the
/// divisor's high digit and corrected at most twice. `ethnum`'s
/// `U256::div_rem` takes the same path after its own checks, and is slower:
/// 108 µs vs 152 µs for 4096 divisions with divisors of every width
/// (another run: 74 µs vs 106 µs), about 1.4 times as fast.
#[inline]
pub(crate) fn div_rem_u256_u128(hi: u128, lo: u128, den: u128) -> (u128, u128) {
    const BASE: u128 = 1 << 64;
    const LOW: u128 = BASE - 1;
    debug_assert!(hi < den);
    let shift = den.leading_zeros();
    let den = den << shift;
    let (d1, d0) = (den >> 64, den & LOW);
    // The numerator shifted alike: three digits `n32` (two) and `n1`, `n0`.
    let n32 = if shift == 0 { hi } else { (hi << shift) | (lo >> (128 - shift)) };
    let n10 = lo << shift;
    let (n1, n0) = (n10 >> 64, n10 & LOW);
    // One quotient digit of `top·2^64 + next` by `den`, where
    // `top < den`: estimated from `d1` (never too small, at most two too
    // large), and the remainder, which is below `den`, wrapping-computed.
    let digit = |top: u128, next: u128| {
        let mut q = top / d1;
        let mut rest = top - q * d1;
        // `rest < 2^64` whenever `q·d0` is compared, so nothing overflows.
        while q >= BASE || q * d0 > ((rest << 64) | next) {
            q -= 1;
            rest += d1;
            if rest >= BASE {
                break;
            }
        }
        (q, ((top << 64) | next).wrapping_sub(q.wrapping_mul(den)))
    };
    let (q1, n21) = digit(n32, n1);
    let (q0, r) = digit(n21, n0);
    ((q1 << 64) | q0, r >> shift)
}

impl fmt::Display for Exact256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

#[cfg(test)]
impl core::ops::Div for Exact256 {
    type Output = Self;
    fn div(self, rhs: Self) -> Self {
        Self(self.0 / rhs.0)
    }
}

impl From<i64> for Exact256 {
    #[inline]
    fn from(value: i64) -> Self {
        Self::new(value.into())
    }
}

impl From<i128> for Exact256 {
    #[inline]
    fn from(value: i128) -> Self {
        Self::new(value)
    }
}

impl From<u64> for Exact256 {
    #[inline]
    fn from(value: u64) -> Self {
        Self::new(value.into())
    }
}

impl From<u128> for Exact256 {
    #[inline]
    fn from(value: u128) -> Self {
        Self::from_u256(U256::new(value))
    }
}

impl Add for Exact256 {
    type Output = Self;
    #[inline]
    fn add(self, rhs: Self) -> Self {
        Self(self.0 + rhs.0)
    }
}

impl Sub for Exact256 {
    type Output = Self;
    #[inline]
    fn sub(self, rhs: Self) -> Self {
        Self(self.0 - rhs.0)
    }
}

impl Neg for Exact256 {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Self(-self.0)
    }
}

impl Mul for Exact256 {
    type Output = Self;
    /// The exact product (overflowing above `2^255` as `ethnum` does, which
    /// the kernels never reach): one machine multiplication when both
    /// operands fit in `i64`, `ethnum`'s product otherwise. The shortcut
    /// takes 18.3 µs for 4096 products of 62-bit operands where `ethnum`
    /// takes 31.7 µs (1.7 times as fast); on a random mix of widths, where
    /// the branch cannot be predicted, it costs 5% (33.6 µs vs 32.1 µs). A second shortcut for
    /// operands in `i128` (four 64-bit products of the magnitudes) was
    /// slower than `ethnum`'s product (38.9 µs vs 32.7 µs) and is gone.
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        if let (Some(a), Some(b)) = (self.to_i64(), rhs.to_i64()) {
            // |a·b| ≤ 2^126.
            Self::new(i128::from(a) * i128::from(b))
        } else {
            Self(self.0 * rhs.0)
        }
    }
}

impl Shl<u32> for Exact256 {
    type Output = Self;
    #[inline]
    fn shl(self, k: u32) -> Self {
        Self(self.0 << k)
    }
}

impl Shr<u32> for Exact256 {
    type Output = Self;
    #[inline]
    fn shr(self, k: u32) -> Self {
        Self(self.0 >> k)
    }
}

#[cfg(test)]
mod tests {
    extern crate alloc;

    use alloc::vec;

    use proptest::prelude::*;

    use super::*;

    /// A value of `bits` significant bits: a sign and `bits − 1` bits of
    /// magnitude.
    fn of_bits(bits: u32, [hi, lo]: [u128; 2]) -> I256 {
        let value = U256::from_words(hi, lo) >> (256 - bits);
        value.as_i256().wrapping_sub(I256::ONE << (bits - 1))
    }

    /// Two values whose widths add up to at most 256 bits, so that their
    /// product fits, with every split reached: both operands in `i64`,
    /// both in `i128`, and wider.
    fn pair_of_widths() -> impl Strategy<Value = (I256, I256)> {
        (1_u32..=255)
            .prop_flat_map(|a_bits| (Just(a_bits), 1..=256 - a_bits, any::<[u128; 2]>(), any::<[u128; 2]>()))
            .prop_map(|(a_bits, b_bits, a, b)| (of_bits(a_bits, a), of_bits(b_bits, b)))
    }

    /// The extremes of each path: 0, ±1, and the ends of `i64` and `i128`.
    fn edges() -> impl Strategy<Value = I256> {
        prop::sample::select(vec![
            I256::ZERO,
            I256::ONE,
            I256::MINUS_ONE,
            I256::from(i64::MIN),
            I256::from(i64::MAX),
            I256::from(i64::MIN) - I256::ONE,
            I256::from(i64::MAX) + I256::ONE,
            I256::new(i128::MIN),
            I256::new(i128::MAX),
            I256::new(i128::MIN) - I256::ONE,
            I256::new(i128::MAX) + I256::ONE,
        ])
    }

    proptest! {
        #![proptest_config(crate::proptest_config(20_000, 0x7769_6465))]

        /// The fast paths are only shortcuts: every product (and every
        /// `widening_mul` of two `i128` values) equals `ethnum`'s general
        /// product, whatever the operands' widths
        /// (the pairs never overflow: the edges are at most 129 bits).
        #[test]
        fn product_equals_ethnums_product((a, b) in prop_oneof![pair_of_widths(), (edges(), edges())]) {
            prop_assert_eq!((Exact256(a) * Exact256(b)).0, a * b);
            if let (Some(x), Some(y)) = (Exact256(a).to_i128(), Exact256(b).to_i128()) {
                prop_assert_eq!(Exact256::widening_mul(x, y).0, a * b);
            }
        }

        /// The 256-by-128-bit division is exact: the quotient and remainder
        /// are `ethnum`'s, for divisors of every width (so every
        /// normalising shift) and numerators of every size below
        /// `den·2^128`.
        #[test]
        fn division_by_128_bits_equals_ethnums(
            den_bits in 1_u32..=128,
            [den, hi, lo] in any::<[u128; 3]>(),
        ) {
            let den = (den >> (128 - den_bits)) | (1 << (den_bits - 1));
            let hi = hi % den;
            let (q, r) = div_rem_u256_u128(hi, lo, den);
            let (eq, er) = U256::from_words(hi, lo).div_rem(U256::from(den));
            prop_assert_eq!((U256::from(q), U256::from(r)), (eq, er));
        }

        /// Floor division by a 128-bit denominator, of either sign of
        /// numerator, equals `ethnum`'s Euclidean division (the same for a
        /// positive denominator), and declines only quotients of 2^128 and
        /// more.
        #[test]
        fn floor_division_by_128_bits_equals_ethnums(
            (n, _) in pair_of_widths(),
            den_bits in 1_u32..=128,
            den in any::<u128>(),
        ) {
            let den = (den >> (128 - den_bits)) | (1 << (den_bits - 1));
            let expected = n.div_rem_euclid(I256::from(den));
            match Exact256(n).div_rem_floor_u128(den) {
                Some((q, r)) => prop_assert_eq!((q.0, r.0), expected),
                None => prop_assert!(n.unsigned_abs() >= U256::from(den) << 128),
            }
        }

        /// `to_i128` says whether a value fits, and gives it back.
        #[test]
        fn to_i128_is_some_exactly_when_the_value_fits(a in prop_oneof![pair_of_widths().prop_map(|p| p.0), edges()]) {
            prop_assert_eq!(Exact256(a).to_i128(), i128::try_from(a).ok());
        }
    }
}
