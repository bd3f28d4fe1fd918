//! [`Scalar`] for the signed fixed-point types of the `fixed` crate.
//!
//! Raw bounds: coordinates are at most `2^28` raw units for `FixedI32`
//! (`2^60` for `FixedI64`), so coordinate differences stay below `2^29`
//! (`2^61`), products of two differences below `2^59` (`2^123`) and products
//! of four below `2^119` (`2^247`): the kernels' degree-4 polynomials fit in
//! `i128` (`Exact256`) with room for the few additions they make.

use core::ops::Neg;

use fixed::types::extra::{
    LeEqU32, LeEqU64, LeEqU128, U8, U9, U10, U11, U12, U13, U14, U15, U16, U17, U18, U19, U20, U21, U22, U23, U24, U25,
    U26, U27, U28, U29, U30, U31, U32, U33, U34, U35, U36, U37, U38, U39, U40, U41, U42, U43, U44, U45, U46, U47, U48,
    U50, U52, U54, U56, U58, U60, U62, U64, U66, U68, U70, U72, U74, U76, U78, U80, U82, U84, U86, U88, U90, U92, U94,
    U96,
};
use fixed::{FixedI32, FixedI64, FixedI128};
use num_traits::{ConstOne, ConstZero};

use super::Scalar;
use super::exact::{
    Exact, ExactInt, FromI128, RootEstimate, Rounding, lerp_estimated, magnitude_estimate, round_div, round_sqrt_u64,
    round_sqrt_u128, round_sqrt_u128_from, rounded_div, rounded_shift, saturate, scaled_roots, scaled_roots_estimated,
    share_estimated, sqrt_ratio,
};
use super::native;
use super::private::{Format, Frame, Sealed, SealedFrac};
use super::wide::Exact256;

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

impl<F: Frac32> Sealed<FixedI64<F::Double>> for FixedI32<F> {
    type Exact = i128;
    const EXACT_ONE: i128 = 1 << F::U32;
    const TIME_STEP: Self = Self::DELTA;
    const FORMAT: Format = Format { float: false, bits: 32, frac: F::U32 as u8 };

    #[inline]
    fn to_narrow(self) -> i64 {
        self.to_bits().into()
    }

    #[inline]
    fn narrow_sub(self, rhs: Self) -> i64 {
        // Never overflows `i64`: one subtraction rather than two.
        i64::from(self.to_bits()) - i64::from(rhs.to_bits())
    }

    #[inline]
    fn from_ratio_rounded(num: i128, den: i128, mode: Rounding) -> Self {
        let q = if den == Self::EXACT_ONE { rounded_shift(num, F::U32, mode) } else { rounded_div(num, den, mode) };
        Self::from_bits(saturate(q, i32::MIN.into(), i32::MAX.into()) as i32)
    }

    #[inline]
    fn from_sqrt_ratio(num: i128, den: i128) -> Self {
        // The result is at most i32::MAX, so the cast is exact.
        Self::from_bits(sqrt_ratio(num, den, i32::MAX as u64) as i32)
    }

    #[inline]
    fn wide_from_ratio(num: i128, den: i128) -> FixedI64<F::Double> {
        let raw = saturate(round_div(num, den), i64::MIN.into(), i64::MAX.into());
        FixedI64::from_bits(raw as i64)
    }

    #[inline]
    fn frame(
        x: Self::Exact,
        y: Self::Exact,
        length: Self,
        dist2: Option<(Self::Exact, Self::Exact)>,
        want_normal: bool,
    ) -> Frame<Self> {
        let root = |r: u64| Self::from_bits(r as i32);
        frame_rounded_once(x, y, length, dist2, want_normal, (Self::from_bits(1 << F::U32), i32::MAX as u64, root))
    }

    // Forced, with `frame_native` and `lerp_native` below: a contact's
    // frame and closest point inline in the kernel that asks for them, and
    // only their rare exact fallbacks are calls.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn frame_narrow((x, y): (i64, i64), len2: i64, cross: Option<i64>, length: Self) -> Frame<Self> {
        let root = |r: u64| Self::from_bits(r as i32);
        let xy = (x.into(), y.into());
        frame_native(
            xy,
            (len2.into(), cross.map(i128::from)),
            length,
            (Self::from_bits(1 << F::U32), i32::MAX as u64, root),
        )
    }

    #[inline]
    fn distance_narrow(len2: i64, cross: Option<i64>) -> Self {
        // At most `max`, which the type holds.
        let narrow = (len2.into(), cross.map(i128::from));
        Self::from_bits(distance_native::<Self::Exact>(narrow, i32::MAX as u64) as i32)
    }

    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn lerp_narrow(s: [i64; 2], d: [i64; 2], t: i64, len2: i64) -> [Self; 2] {
        lerp_native(s.map(i128::from), d.map(i128::from), (t.into(), len2.into()), |q| Self::from_bits(q as i32))
    }

    #[inline]
    fn share_narrow(t: i64, len2: i64) -> Self {
        // At most 2^24 (`t ≤ len2`), which the type holds.
        share_native(t.into(), len2.into(), F::U32, |q| Self::from_bits(q as i32))
    }

    #[inline]
    fn mul_round(self, rhs: Self) -> Self {
        Self::from_bits(native::mul_round_32(self.to_bits(), rhs.to_bits(), F::U32))
    }

    #[inline]
    fn dot_round(a: (Self, Self), b: (Self, Self)) -> Self {
        Self::from_bits(native::dot_round_32((a.0.to_bits(), a.1.to_bits()), (b.0.to_bits(), b.1.to_bits()), F::U32))
    }

    #[inline]
    fn div_round(self, rhs: Self) -> Self {
        Self::from_bits(native::div_round_32(self.to_bits(), rhs.to_bits(), F::U32))
    }

    #[inline]
    fn mul_wrap(self, rhs: Self) -> Self {
        Self::from_bits(native::mul_wrap_32(self.to_bits(), rhs.to_bits(), F::U32))
    }

    #[inline]
    fn dot_wrap(a: (Self, Self), b: (Self, Self)) -> Self {
        Self::from_bits(native::dot_wrap_32((a.0.to_bits(), a.1.to_bits()), (b.0.to_bits(), b.1.to_bits()), F::U32))
    }

    #[inline]
    fn add_wrap(self, rhs: Self) -> Self {
        Self::from_bits(self.to_bits().wrapping_add(rhs.to_bits()))
    }

    #[inline]
    fn sub_wrap(self, rhs: Self) -> Self {
        Self::from_bits(self.to_bits().wrapping_sub(rhs.to_bits()))
    }

    #[inline]
    fn flight_wrap(self, g: Self, h: Self, n: u8) -> (Self, Self) {
        let (v, sum) = native::flight_wrap_32(self.to_bits(), g.to_bits(), h.to_bits(), n, F::U32);
        (Self::from_bits(v), Self::from_bits(sum))
    }

    #[inline]
    fn mark(self, bound: Self) -> u64 {
        // `bits + bound` lies in `[0, 2·bound]` exactly when `bits` lies
        // in `[−bound, bound]`; anything else wraps above it.
        u64::from((self.to_bits() as u32).wrapping_add(bound.to_bits() as u32))
    }

    #[inline]
    fn merge_marks(a: u64, b: u64) -> u64 {
        // At least the larger: a mark beyond `2·bound` stays beyond it.
        a | b
    }

    #[inline]
    fn marks_beyond(marks: u64, bound: Self) -> bool {
        marks > u64::from((bound.to_bits() as u32).wrapping_add(bound.to_bits() as u32))
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

impl<F: Frac64> Sealed<FixedI128<F::Double>> for FixedI64<F> {
    type Exact = Exact256;
    const EXACT_ONE: Exact256 = Exact256::new(1 << F::U32);
    const TIME_STEP: Self = Self::DELTA;
    const FORMAT: Format = Format { float: false, bits: 64, frac: F::U32 as u8 };

    #[inline]
    fn to_narrow(self) -> i128 {
        self.to_bits().into()
    }

    #[inline]
    fn narrow_sub(self, rhs: Self) -> i128 {
        // Both within `±3·MAX_COORD` (`3·2^60` raw), so the difference fits
        // `i64`: one subtraction, whose sign extension tells the compiler
        // that a product of two differences is a widening one.
        debug_assert!(self.to_bits().checked_sub(rhs.to_bits()).is_some(), "kernel coordinates beyond ±3·MAX_COORD");
        self.to_bits().wrapping_sub(rhs.to_bits()).into()
    }

    #[inline]
    fn from_ratio_rounded(num: Exact256, den: Exact256, mode: Rounding) -> Self {
        let q = if den == Self::EXACT_ONE { rounded_shift(num, F::U32, mode) } else { rounded_div(num, den, mode) };
        Self::from_bits(saturate(q, i64::MIN.into(), i64::MAX.into()).as_i64())
    }

    #[inline]
    fn mul_rounded(self, rhs: Self, mode: Rounding) -> Self {
        // The raw product fits `i128`: the same shift as above, narrow.
        let q = rounded_shift(i128::from(self.to_bits()) * i128::from(rhs.to_bits()), F::U32, mode);
        Self::from_bits(saturate(q, i64::MIN.into(), i64::MAX.into()) as i64)
    }

    #[inline]
    fn from_sqrt_ratio(num: Exact256, den: Exact256) -> Self {
        // The result is at most i64::MAX, so the cast is exact.
        Self::from_bits(sqrt_ratio(num, den, i64::MAX as u64) as i64)
    }

    #[inline]
    fn wide_from_ratio(num: Exact256, den: Exact256) -> FixedI128<F::Double> {
        let raw = saturate(round_div(num, den), i128::MIN.into(), i128::MAX.into());
        FixedI128::from_bits(raw.as_i128())
    }

    #[inline]
    fn frame(
        x: Self::Exact,
        y: Self::Exact,
        length: Self,
        dist2: Option<(Self::Exact, Self::Exact)>,
        want_normal: bool,
    ) -> Frame<Self> {
        let root = |r: u64| Self::from_bits(r as i64);
        frame_rounded_once(x, y, length, dist2, want_normal, (Self::from_bits(1 << F::U32), i64::MAX as u64, root))
    }

    // Forced, with `frame_native` and `lerp_native` below: a contact's
    // frame and closest point inline in the kernel that asks for them, and
    // only their rare exact fallbacks are calls.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn frame_narrow(xy: (i128, i128), len2: i128, cross: Option<i128>, length: Self) -> Frame<Self> {
        let root = |r: u64| Self::from_bits(r as i64);
        frame_native(xy, (len2, cross), length, (Self::from_bits(1 << F::U32), i64::MAX as u64, root))
    }

    #[inline]
    fn distance_narrow(len2: i128, cross: Option<i128>) -> Self {
        // At most `max`, which the type holds.
        Self::from_bits(distance_native::<Self::Exact>((len2, cross), i64::MAX as u64) as i64)
    }

    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn lerp_narrow(s: [i128; 2], d: [i128; 2], t: i128, len2: i128) -> [Self; 2] {
        lerp_native(s, d, (t, len2), |q| Self::from_bits(q as i64))
    }

    #[inline]
    fn share_narrow(t: i128, len2: i128) -> Self {
        // At most 2^48 (`t ≤ len2`), which the type holds.
        share_native(t, len2, F::U32, |q| Self::from_bits(q as i64))
    }

    #[inline]
    fn mul_round(self, rhs: Self) -> Self {
        Self::from_bits(native::mul_round_64(self.to_bits(), rhs.to_bits(), F::U32))
    }

    #[inline]
    fn dot_round(a: (Self, Self), b: (Self, Self)) -> Self {
        Self::from_bits(native::dot_round_64((a.0.to_bits(), a.1.to_bits()), (b.0.to_bits(), b.1.to_bits()), F::U32))
    }

    #[inline]
    fn div_round(self, rhs: Self) -> Self {
        Self::from_bits(native::div_round_64(self.to_bits(), rhs.to_bits(), F::U32))
    }

    #[inline]
    fn mul_wrap(self, rhs: Self) -> Self {
        Self::from_bits(native::mul_wrap_64(self.to_bits(), rhs.to_bits(), F::U32))
    }

    #[inline]
    fn dot_wrap(a: (Self, Self), b: (Self, Self)) -> Self {
        Self::from_bits(native::dot_wrap_64((a.0.to_bits(), a.1.to_bits()), (b.0.to_bits(), b.1.to_bits()), F::U32))
    }

    #[inline]
    fn add_wrap(self, rhs: Self) -> Self {
        Self::from_bits(self.to_bits().wrapping_add(rhs.to_bits()))
    }

    #[inline]
    fn sub_wrap(self, rhs: Self) -> Self {
        Self::from_bits(self.to_bits().wrapping_sub(rhs.to_bits()))
    }

    #[inline]
    fn flight_wrap(self, g: Self, h: Self, n: u8) -> (Self, Self) {
        let (v, sum) = native::flight_wrap_64(self.to_bits(), g.to_bits(), h.to_bits(), n, F::U32);
        (Self::from_bits(v), Self::from_bits(sum))
    }

    #[inline]
    fn mark(self, bound: Self) -> u64 {
        // `bits + bound` lies in `[0, 2·bound]` exactly when `bits` lies
        // in `[−bound, bound]`; anything else wraps above it.
        (self.to_bits() as u64).wrapping_add(bound.to_bits() as u64)
    }

    #[inline]
    fn merge_marks(a: u64, b: u64) -> u64 {
        // At least the larger: a mark beyond `2·bound` stays beyond it.
        a | b
    }

    #[inline]
    fn marks_beyond(marks: u64, bound: Self) -> bool {
        marks > (bound.to_bits() as u64).wrapping_add(bound.to_bits() as u64)
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

/// [`Sealed::frame`] for fixed point, shared by both widths: each component
/// `sign(c)·√(c²·k² / |(x, y)|²)` for `k` one (the normal, when wanted)
/// and the length (the offset), and the distance `√(num / den)`, each the
/// exact value rounded once (the components through [`scaled_roots`]).
/// Unlike the unit vector scaled by the length, the offset does not multiply
/// the unit's rounding by the length, so a point on a large circle is as
/// accurate as one on a small one. `(one, max, root)`: the type's one, its
/// largest raw value, and the value of a raw root at most `max`.
#[inline]
fn frame_rounded_once<W, T: Sealed<W> + Neg<Output = T> + ConstZero>(
    x: T::Exact,
    y: T::Exact,
    length: T,
    dist2: Option<(T::Exact, T::Exact)>,
    want_normal: bool,
    (one, max, root): (T, u64, impl Fn(u64) -> T),
) -> Frame<T>
where
    T::Exact: FromI128,
    <T::Exact as Exact>::Narrow: Into<i128>,
{
    let distance = dist2.map_or(T::ZERO, |(num, den)| T::from_sqrt_ratio(num, den));
    let zero = <T::Exact as Exact>::ZERO;
    if let Some((normal, offset)) = frame_estimated(x, y, length, want_normal, (one, max, &root)) {
        return Frame { normal, offset, distance };
    }
    let len2 = x * x + y * y;
    if len2 <= zero {
        return Frame { normal: (T::ZERO, one), offset: (T::ZERO, length), distance };
    }
    let along = |k: T::Exact| {
        let [mx, my] = scaled_roots([x, y], k, len2, max);
        let signed = |m: u64, c: T::Exact| if c < zero { -root(m) } else { root(m) };
        (signed(mx, x), signed(my, y))
    };
    // A zero length (a unit normal alone) needs no offset, and an offset
    // alone no normal.
    let k = length.to_exact();
    let offset = if k == zero { (T::ZERO, T::ZERO) } else { along(k) };
    let normal = if want_normal { along(T::EXACT_ONE) } else { (T::ZERO, one) };
    Frame { normal, offset, distance }
}

/// `Sealed::frame_narrow` for fixed point: [`frame_estimated_narrow`]'s
/// normal and offset, with the distance from the same root estimate of
/// `√len2` ([`distance_estimated`]); else [`frame_rounded_once`] of the same
/// values in the full ring (out of line: [`cold`]).
///
/// Forced inline (with `Sealed::frame_narrow`): as a call, its set-up and
/// its returned frame through memory cost a circle–circle contact a tenth
/// of its instructions in `I32F32` and a fifth in `I16F16` (162 against 144
/// and 128 a query, `near`).
#[allow(clippy::inline_always)]
#[inline(always)]
fn frame_native<W, T: Sealed<W> + Neg<Output = T> + ConstZero>(
    (x, y): (i128, i128),
    (len2, cross): (i128, Option<i128>),
    length: T,
    (one, max, root): (T, u64, impl Fn(u64) -> T),
) -> Frame<T>
where
    T::Exact: FromI128,
    <T::Exact as Exact>::Narrow: Into<i128>,
{
    if let Some((normal, offset, root_len2)) = frame_estimated_narrow((x, y), len2, length, true, (one, max, &root))
        && let Some(distance) = distance_estimated((len2, cross), root_len2, max)
    {
        return Frame { normal, offset, distance: root(distance) };
    }
    let full = <T::Exact as FromI128>::from_i128;
    cold(move || frame_rounded_once(full(x), full(y), length, Some(dist2_i128(len2, cross)), true, (one, max, root)))
}

/// `narrow_dist2` of values held as `i128`: the squared distance `len2 / 1`,
/// or `cross² / len2`, in the full ring.
#[inline]
fn dist2_i128<E: FromI128>(len2: i128, cross: Option<i128>) -> (E, E) {
    match cross {
        None => (E::from_i128(len2), E::ONE),
        Some(cross) => (E::product_i128(cross, cross), E::from_i128(len2)),
    }
}

/// `exactly()`, out of line and marked unlikely: the exact fallback of an
/// estimate that is forced inline ([`frame_native`], [`lerp_native`]),
/// which the estimate settles nearly always.
#[cold]
#[inline(never)]
fn cold<R>(exactly: impl FnOnce() -> R) -> R {
    exactly()
}

/// `Sealed::lerp_narrow` for fixed point: [`lerp_estimated`], else the
/// exact ratio in the full ring (out of line: [`cold`]). Each
/// result lies between the segment's ends `s` and `s + d`, which the type
/// holds, so `raw` (the type's value of raw bits) never truncates.
///
/// Forced inline, as [`frame_native`] is: the circle–segment and
/// circle–capsule contacts take some 20 instructions fewer a query (`near`).
#[allow(clippy::inline_always)]
#[inline(always)]
fn lerp_native<W, T: Sealed<W>>(s: [i128; 2], d: [i128; 2], (t, len2): (i128, i128), raw: impl Fn(i128) -> T) -> [T; 2]
where
    T::Exact: FromI128,
{
    match lerp_estimated(s, d, t, len2) {
        Some(q) => q.map(raw),
        None => cold(move || {
            let (product, full) = (<T::Exact as FromI128>::product_i128, <T::Exact as FromI128>::from_i128);
            [0, 1].map(|i| T::from_ratio(product(s[i], len2) + product(d[i], t), full(len2)))
        }),
    }
}

/// `Sealed::share_narrow` for fixed point: [`share_estimated`], else the
/// exact ratio in the full ring (out of line: [`cold`]). A share lies in
/// `[0, 1]`, which the type holds, so `raw` never truncates.
#[inline]
fn share_native<W, T: Sealed<W>>(t: i128, len2: i128, frac: u32, raw: impl Fn(u64) -> T) -> T
where
    T::Exact: FromI128,
{
    match share_estimated(t, len2, frac) {
        Some(q) => raw(q),
        None => cold(move || {
            let full = <T::Exact as FromI128>::from_i128;
            T::from_ratio(full(t) * T::EXACT_ONE, full(len2))
        }),
    }
}

/// `Sealed::distance_narrow` for fixed point: [`distance_estimated`], else
/// the full ring's `sqrt_ratio` of the same squared distance.
// Forced, as `distance_estimated` is.
#[allow(clippy::inline_always)]
#[inline(always)]
fn distance_native<E: FromI128>((len2, cross): (i128, Option<i128>), max: u64) -> u64 {
    distance_estimated((len2, cross), RootEstimate::of(len2.unsigned_abs()), max).unwrap_or_else(|| {
        let (num, den) = dist2_i128::<E>(len2, cross);
        sqrt_ratio(num, den, max)
    })
}

/// The distance of `Sealed::frame_narrow` (`√len2`, or `|cross| / √len2`)
/// from the estimate `root` of `√len2`, exactly `sqrt_ratio` of the squared
/// distance (`len2 / 1` or `cross² / len2`) at `max`: for `√len2`,
/// `round_sqrt_u128(len2)` capped at `max` is exactly `sqrt_ratio(len2, 1,
/// max)` (both round up iff `len2 − s² > s`, and both saturate from `(max +
/// 1)²` on), and the floor root is exact from any estimate; for a line,
/// [`scaled_roots_estimated`] of the one component `cross` at length one,
/// `None` when the estimate does not settle it.
// Forced: with the caller's `cross` known, the match folds away (a plain
// `#[inline]` left a call: 149 instructions per `distance_point_segment`
// in `I32F32` against 133, by callgrind).
#[allow(clippy::inline_always)]
#[inline(always)]
fn distance_estimated((len2, cross): (i128, Option<i128>), root: RootEstimate, max: u64) -> Option<u64> {
    match cross {
        // Below 2^64: `max` is, so the cast is exact.
        None => Some(round_sqrt_u128_from(len2.unsigned_abs(), root).min(u128::from(max)) as u64),
        Some(cross) => scaled_roots_estimated([magnitude_estimate(cross)], [1.0], root, max).map(|[distance]| distance),
    }
}

/// The normal and offset of [`frame_rounded_once`] when the components are
/// below `2^62` (their squared length fits a `u128`) and the shared `f64`
/// estimate settles every root: the same values, without the exact ring;
/// `None` otherwise.
#[inline]
fn frame_estimated<W, T: Sealed<W> + Neg<Output = T> + ConstZero>(
    x: T::Exact,
    y: T::Exact,
    length: T,
    want_normal: bool,
    (one, max, root): (T, u64, &impl Fn(u64) -> T),
) -> Option<((T, T), (T, T))>
where
    T::Exact: FromI128,
    <T::Exact as Exact>::Narrow: Into<i128>,
{
    let (x, y) = (x.to_i128()?, y.to_i128()?);
    // Wrapping: beyond the 2^62 bound, which `frame_estimated_narrow`
    // checks before it reads the squared length, the squares may overflow.
    let len2 = x.wrapping_mul(x).wrapping_add(y.wrapping_mul(y));
    frame_estimated_narrow((x, y), len2, length, want_normal, (one, max, root))
        .map(|(normal, offset, _)| (normal, offset))
}

/// A vector's components.
type Pair<T> = (T, T);

/// Whether `|c| < 2^62`: `c` fits an `i64`, and there `c + 2^62` lies in
/// `(0, 2^63)` (wrapping: from `c = 2^62 + 1` on, the sum wraps below
/// zero, which as a `u64` is refused too). Tested in 64 bits, the
/// compiler keeps a frame's components in the integer registers: as one
/// 128-bit test it moved each difference's sign through the vector
/// registers, 13 instructions more an `I32F32` circle–circle contact
/// (`near`, callgrind).
#[inline]
fn below_2_62(c: i128) -> bool {
    i64::try_from(c).is_ok_and(|c| (c.wrapping_add((1 << 62) - 1) as u64) < (1 << 63) - 1)
}

/// [`frame_estimated`] of components `(x, y)` given as `i128` with their
/// squared length `len2 = x² + y²`, with the estimate of `√len2` it used:
/// `None` unless both are below `2^62`.
///
/// The four roots (the offset's components, scaled to the length, and the
/// normal's, scaled to one) are settled together. Below `2^62` a
/// component converts to `f64` as one signed integer, whose magnitude is
/// [`magnitude_estimate`]'s value (rounding to nearest is symmetric); the
/// length, a raw value below `2^63`, converts as `approx_f64` would.
// Forced: left to itself the compiler calls it from `frame_native`.
#[allow(clippy::inline_always)]
#[inline(always)]
fn frame_estimated_narrow<W, T: Sealed<W> + Neg<Output = T> + ConstZero>(
    (x, y): (i128, i128),
    len2: i128,
    length: T,
    want_normal: bool,
    (one, max, root): (T, u64, &impl Fn(u64) -> T),
) -> Option<(Pair<T>, Pair<T>, RootEstimate)>
where
    <T::Exact as Exact>::Narrow: Into<i128>,
{
    // `len2 == 0`: the exact path's +y; a negative length: the exact path.
    let k: i128 = length.to_narrow().into();
    if !below_2_62(x) || !below_2_62(y) || len2 == 0 || k < 0 {
        return None;
    }
    let (mx, my) = (libm::fabs(x as i64 as f64), libm::fabs(y as i64 as f64));
    // A squared length below `2^63` (a `FixedI32` type's always is)
    // converts in one instruction, which the root waits for less than for
    // the components' squares and their sum; a wider one is summed from
    // the components rather than converted in two halves, with branches.
    // (`approx_f64` of it is this conversion.)
    let root_len2 = match i64::try_from(len2) {
        Ok(len2) => RootEstimate::of_squared_length(len2 as f64),
        Err(_) => RootEstimate::of_components(mx, my),
    };
    // Scaled to the length, and to one (0 when no normal is wanted: its
    // lanes then settle at once).
    let k = k as i64 as f64;
    let unit = if want_normal { one.to_narrow().into() as i64 as f64 } else { 0.0 };
    let [ox, oy, nx, ny] = scaled_roots_estimated([mx, my, mx, my], [k, k, unit, unit], root_len2, max)?;
    let signed = |m: u64, c: i128| if c < 0 { -root(m) } else { root(m) };
    let normal = if want_normal { (signed(nx, x), signed(ny, y)) } else { (T::ZERO, one) };
    Some((normal, (signed(ox, x), signed(oy, y)), root_len2))
}

/// Shared by both widths: the square root through an exact integer root of
/// the raw value, the dyadic constants through a shift.
///
/// `$Root` is the unsigned type the radicand `x·2^F` (raw units) fits in and
/// `$round_sqrt` its correctly rounded integer square root: `u64` for
/// `FixedI32` (`x < 2^31`, `F ≤ 24`: below `2^55`), `u128` for `FixedI64`
/// (`x < 2^63`, `F ≤ 48`: below `2^111`). The root of such a radicand is
/// below `2^28` (`2^56`), far inside the type, so it never saturates.
macro_rules! impl_scalar_fixed {
    ($Fixed:ident, $Frac:ident, $Wide:ident, $Bits:ty, $WideBits:ty, $Root:ty, $round_sqrt:ident, $max_raw:expr) => {
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
                const {
                    assert!(
                        <$Bits>::BITS - 1 + F::U32 < <$Root>::BITS,
                        "the raw radicand x·2^F must fit in the root type"
                    );
                };
                // √(x·2^F) in raw units is √x · 2^F: the raw radicand is
                // x·2^F, computed here without the 128/256-bit ring. A
                // negative value gives zero, as `from_sqrt_ratio` does.
                let Ok(raw) = <$Root>::try_from(self.to_bits()) else {
                    return Self::ZERO;
                };
                Self::from_bits($round_sqrt(raw << F::U32) as $Bits)
            }

            #[inline]
            fn from_dyadic<const LOG2_DEN: u32>(numerator: i8) -> Self {
                const { assert!(LOG2_DEN <= 8, "from_dyadic supports denominators up to 2^8") };
                // F ≥ 8 ≥ LOG2_DEN, and F ≤ N - 8 keeps an i8 numerator in range.
                Self::from_bits(<$Bits>::from(numerator) << (F::U32 - LOG2_DEN))
            }

            #[inline]
            fn from_f64(value: f64) -> Self {
                // `saturating_from_num` panics on a NaN: it is zero here,
                // as `f64 as i32` makes it.
                if value.is_nan() { Self::ZERO } else { Self::saturating_from_num(value) }
            }

            #[inline]
            fn try_from_f64(value: f64) -> Option<Self> {
                Self::checked_from_num(value)
            }

            #[inline]
            fn to_f64(self) -> f64 {
                self.to_num()
            }
        }
    };
}

impl_scalar_fixed!(FixedI32, Frac32, FixedI64, i32, i64, u64, round_sqrt_u64, 1 << 28);
impl_scalar_fixed!(FixedI64, Frac64, FixedI128, i64, i128, u128, round_sqrt_u128, 1 << 60);

#[cfg(test)]
mod tests {
    use fixed::types::{I16F16, I24F8, I32F32, I48F16};

    use super::*;

    /// Merged marks against a power-of-two bound answer whether any value
    /// marked lay outside `[−bound, bound]`: always when one did (the fast
    /// lane's soundness), and never when all lay strictly inside (so it
    /// is not given up for nothing), in every type.
    fn marks_tell_whether_a_value_left_the_bound<S: Scalar>() {
        let bound = S::from_f64(4096.0);
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let count = 1 + next() % 6;
            let values: alloc::vec::Vec<f64> = (0..count)
                .map(|_| {
                    let unit = (next() >> 11) as f64 / (1_u64 << 53) as f64;
                    let scale = [4095.0, 4096.0, 4097.0, 1e6][(next() % 4) as usize];
                    (unit * 2.0 - 1.0) * scale
                })
                .collect();
            let scalars: alloc::vec::Vec<S> = values.iter().map(|&v| S::from_f64(v)).collect();
            let marks = scalars.iter().fold(0, |m, v| S::merge_marks(m, v.mark(bound)));
            let outside = scalars.iter().any(|v| *v > bound || *v < -bound);
            let inside = scalars.iter().all(|v| *v < bound && *v > -bound);
            if outside {
                assert!(S::marks_beyond(marks, bound), "{values:?}");
            }
            if inside {
                assert!(!S::marks_beyond(marks, bound), "{values:?}");
            }
        }
        for v in [S::from_f64(1e9), S::from_f64(-1e9), S::from_f64(-4096.0), S::from_f64(4096.0)] {
            assert_eq!(S::marks_beyond(v.mark(bound), bound), v > bound || v < -bound);
        }
    }

    #[test]
    fn marks_tell_whether_a_value_left_the_bound_in_every_type() {
        marks_tell_whether_a_value_left_the_bound::<f32>();
        marks_tell_whether_a_value_left_the_bound::<f64>();
        marks_tell_whether_a_value_left_the_bound::<I16F16>();
        marks_tell_whether_a_value_left_the_bound::<I32F32>();
        marks_tell_whether_a_value_left_the_bound::<I48F16>();
        assert!(f32::marks_beyond(f32::NAN.mark(4096.0), 4096.0));
        assert!(f64::marks_beyond(f64::merge_marks(1.0_f64.mark(4096.0), f64::NAN.mark(4096.0)), 4096.0));
    }

    #[test]
    fn below_2_62_is_the_magnitude_test_at_its_edges() {
        let edge = 1_i128 << 62;
        for c in [0, 1, -1, edge - 1, 1 - edge] {
            assert!(below_2_62(c), "{c}");
        }
        for c in [edge, -edge, edge + 1, -edge - 1, i128::from(i64::MAX), i128::from(i64::MIN), i128::MAX, i128::MIN] {
            assert!(!below_2_62(c), "{c}");
        }
    }

    /// The property: whenever the frame's estimated path answers, each
    /// component of its normal and offset is the exact ring's
    /// `scaled_roots` of the same vector (itself checked against the
    /// divided root), with the vector's sign; and it answers for every
    /// vector of the sizes the kernels give, so the exact ring is not
    /// taken for nothing. Vectors of every size up to past its `2^62`
    /// bound, lengths of every size up to `2^63` and zero, and both
    /// widths' saturation (`FixedI32`'s offsets beyond `i32::MAX`).
    fn estimated_frame_is_the_exact_ring_s<S: Scalar>(from_bits: impl Fn(i64) -> S, max: u64)
    where
        S::Exact: FromI128,
        <S::Exact as Exact>::Narrow: Into<i128>,
    {
        let mut rng = crate::SplitMix(0x6573_7469_6d61 ^ max);
        let (one, root) = (S::ONE, |r: u64| from_bits(r as i64));
        let mut answered = 0;
        for i in 0..100_000 {
            // Of a random number of bits below `bits`, zero included.
            let mut draw = |bits: u64| {
                let bits = rng.next() % bits;
                (rng.next() >> (64 - bits.max(1))) as i64 >> u32::from(bits == 0)
            };
            let (x, y) = (i128::from(draw(64)), -i128::from(draw(64)));
            let (x, y) = if i % 2 == 0 { (x, y) } else { (x >> 40, y >> 40) };
            let length = from_bits(draw(64).abs() >> (draw(8) % 64));
            let len2 = x * x + y * y;
            let Some((normal, offset, _)) = frame_estimated_narrow((x, y), len2, length, true, (one, max, &root))
            else {
                // Declined: beyond its reach, a root beyond `max`, or one
                // the estimate cannot settle.
                continue;
            };
            assert!(below_2_62(x) && below_2_62(y) && len2 != 0, "({x}, {y}) answered");
            answered += 1;
            let exact = |k: i128| {
                let full = <S::Exact as FromI128>::from_i128;
                let [mx, my] = scaled_roots([full(x), full(y)], full(k), full(len2), max);
                let signed = |m: u64, c: i128| if c < 0 { -root(m) } else { root(m) };
                (signed(mx, x), signed(my, y))
            };
            assert_eq!(normal, exact(one.to_narrow().into()), "normal of ({x}, {y})");
            assert_eq!(offset, exact(length.to_narrow().into()), "({x}, {y}) at {length:?}");
        }
        assert!(answered > 40_000, "{answered} answered");
    }

    #[test]
    fn the_estimated_frame_is_the_exact_ring_s_in_both_widths() {
        estimated_frame_is_the_exact_ring_s(I32F32::from_bits, i64::MAX as u64);
        estimated_frame_is_the_exact_ring_s(I48F16::from_bits, i64::MAX as u64);
        estimated_frame_is_the_exact_ring_s(|b| I16F16::from_bits(b as i32), i32::MAX as u64);
    }

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
        assert_eq!(I32F32::from_ratio(Exact256::ONE << 200, Exact256::ONE), I32F32::MAX);
    }

    #[test]
    fn from_ratio_rounded_goes_the_way_it_is_told() {
        let r = |num: i128, mode| I16F16::from_ratio_rounded(num, 2, mode).to_bits();
        assert_eq!((r(7, Rounding::Down), r(7, Rounding::Up), r(7, Rounding::TowardZero)), (3, 4, 3));
        assert_eq!((r(-7, Rounding::Down), r(-7, Rounding::Up), r(-7, Rounding::TowardZero)), (-4, -3, -3));
        assert_eq!((r(6, Rounding::Down), r(6, Rounding::Up), r(-6, Rounding::TowardZero)), (3, 3, -3));
        // To nearest, ties to even: 3.5 → 4, 2.5 → 2, −3.5 → −4, as `from_ratio`.
        assert_eq!((r(7, Rounding::Nearest), r(5, Rounding::Nearest), r(-7, Rounding::Nearest)), (4, 2, -4));
        assert_eq!(I16F16::from_ratio(5, 2).to_bits(), 2);
        assert_eq!(
            I32F32::from_ratio_rounded(Exact256::new(-7), Exact256::new(2), Rounding::Up),
            I32F32::from_bits(-3)
        );
    }

    #[test]
    fn max_coord_matches_the_documented_table() {
        assert_eq!(I16F16::MAX_COORD, 4096);
        assert_eq!(I24F8::MAX_COORD, 1 << 20);
        assert_eq!(I32F32::MAX_COORD, 1 << 28);
        assert_eq!(I48F16::MAX_COORD, 1_i64 << 44);
    }
}

/// `Scalar::sqrt` and the integer floor root under it, against the `fixed`
/// crate's own `sqrt`, which rounds down (its documentation: "result ≤
/// √self < result + DELTA").
///
/// Two properties, for a value `x ≥ 0` with raw bits `b` and radicand
/// `n = b·2^F` (raw units):
///
/// 1. *floor*: our integer floor root of `n` is `fixed`'s `x.sqrt()`, and
///    both are the exact floor `f`: `f² ≤ n < (f + 1)²`;
/// 2. *rounding*: `Scalar::sqrt(x)` is `f` or `f + 1`, and `f + 1` exactly
///    when `√n` lies above `f + ½`, i.e. when `4n > (2f + 1)²` (never
///    equal: the left side is even).
///
/// Checked for every non-negative `I16F16` (all 2^31 of them) and by
/// property tests for `I32F32` and `I48F16`.
#[cfg(test)]
mod sqrt_against_fixed {
    extern crate std;

    use std::thread;
    use std::vec::Vec;

    use fixed::types::{I16F16, I32F32, I48F16};
    use proptest::prelude::*;
    use proptest::test_runner::Config;

    use crate::Scalar;
    use crate::scalar::exact::{isqrt_u64, isqrt_u128};

    /// Property 1 (*floor*) for a radicand `n`, our floor root `ours` and
    /// `fixed`'s root `f`.
    #[inline]
    fn floor_holds(n: u128, ours: u64, f: u64) -> bool {
        let wide = u128::from(f);
        ours == f && wide * wide <= n && n < (wide + 1) * (wide + 1)
    }

    /// Property 2 (*rounding*) for a radicand `n`, the floor `f` and our
    /// rounded root `rounded`.
    #[inline]
    fn rounding_holds(n: u128, f: u64, rounded: u64) -> bool {
        let odd = 2 * u128::from(f) + 1;
        rounded == if 4 * n > odd * odd { f + 1 } else { f }
    }

    /// Both properties for the non-negative `I16F16` values with raw bits
    /// `start..start + 64`, as plain assertions (the exhaustive loop does not
    /// go through proptest). Each of the three roots is taken for all 64
    /// values before the next, so that independent roots overlap in the
    /// processor instead of each waiting behind `fixed`'s branchy loop.
    fn check_i16f16_block(start: i32) {
        let x = |i: usize| I16F16::from_bits(start + i as i32);
        let radicand = |i: usize| (x(i).to_bits() as u64) << 16;
        let ours: [u64; 64] = core::array::from_fn(|i| isqrt_u64(radicand(i)));
        let rounded: [i32; 64] = core::array::from_fn(|i| Scalar::sqrt(x(i)).to_bits());
        let theirs: [i32; 64] = core::array::from_fn(|i| x(i).sqrt().to_bits());
        for i in 0..64 {
            let (n, f) = (u128::from(radicand(i)), theirs[i] as u64);
            assert!(
                floor_holds(n, ours[i], f) && rounding_holds(n, f, rounded[i] as u64),
                "I16F16 {}: radicand {n}, our floor {}, fixed's {f}, rounded {}",
                x(i),
                ours[i],
                rounded[i]
            );
        }
    }

    #[test]
    fn every_i16f16_against_fixed_the_full_range_under_geom_test_full() {
        // 2^31 values (2^25 blocks of 64) split over the available cores:
        // about 90 s of processor time, two thirds of it in `fixed`'s own
        // bit-by-bit `sqrt`, so 45 s on two cores. A plain `cargo test`
        // checks every 16th block (and the first and last 4096 whole);
        // `GEOM_TEST_FULL=1` (`cargo xtask ci`) every one.
        let threads = thread::available_parallelism().map_or(1, usize::from) as i32;
        let blocks = 1 << 25;
        let stride = if crate::full_tests() { 1 } else { 16 };
        let checked = move |block: i32| stride == 1 || block % stride == 0 || !(4096..blocks - 4096).contains(&block);
        thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|t| {
                    let (first, last) =
                        (blocks / threads * t, if t + 1 == threads { blocks } else { blocks / threads * (t + 1) });
                    scope.spawn(move || {
                        (first..last).filter(|&b| checked(b)).for_each(|block| check_i16f16_block(block << 6));
                    })
                })
                .collect();
            for worker in workers {
                worker.join().expect("a worker found a mismatch");
            }
        });
    }

    /// The configuration of the property tests: more cases than the query
    /// properties use, as a square root is cheap.
    fn config() -> Config {
        crate::proptest_config(20_000, 0x7371_7274)
    }

    /// Raw values of a 64-bit fixed-point type with `F` fractional bits
    /// where a root is most likely to go wrong, mixed with arbitrary ones:
    /// - any non-negative raw value, and one of a random bit length (so
    ///   small magnitudes are as common as large ones);
    /// - radicands `b·2^F` equal to perfect squares (`b = m²`), and one
    ///   below a perfect square (`k² − 1` for `k = j·2^(F−1) ± 1`: then
    ///   `k² − 1 = (k − 1)(k + 1)` is a multiple of `2^F`), the largest
    ///   radicand with a floor one less;
    /// - radicands `s² + s` (just below the midpoint `(s + ½)²`) for
    ///   `s = j·2^F`, i.e. `b = j·(j·2^F + 1)`, and the next value above;
    /// - the largest values, and small offsets of all of the above.
    fn raw_values(frac: u32) -> BoxedStrategy<i64> {
        let max = i128::from(i64::MAX);
        let clamp = move |b: i128| b.clamp(0, max) as i64;
        // The largest m with m² ≤ i64::MAX, k with k² ≤ i64::MAX·2^F, and
        // s with s² + s ≤ i64::MAX·2^F: every radicand they give fits.
        let (m_max, k_max) = ((max as u128).isqrt() as u64, ((max as u128) << frac).isqrt() as u64);
        let squares = (0..=m_max, -3_i64..=3).prop_map(move |(m, d)| clamp(i128::from(m * m) + i128::from(d)));
        let below = (1..=k_max >> (frac - 1), any::<bool>(), -2_i64..=2).prop_map(move |(j, plus, d)| {
            let k = u128::from(j << (frac - 1));
            let k = if plus { k + 1 } else { k - 1 };
            clamp(((k * k - 1) >> frac) as i128 + i128::from(d))
        });
        let midpoints = (0..=k_max >> frac, -1_i64..=3).prop_map(move |(j, d)| {
            let j = u128::from(j);
            clamp((j * ((j << frac) + 1)) as i128 + i128::from(d))
        });
        let any_length = (0_u32..63, any::<u64>())
            .prop_map(|(length, bits)| ((1_u64 << length) | (bits & ((1 << length) - 1))) as i64);
        prop_oneof![
            0..=i64::MAX,
            any_length,
            squares,
            below,
            midpoints,
            (0_i64..1 << 16).prop_map(|d| i64::MAX - d),
            0_i64..1 << 16,
        ]
        .boxed()
    }

    macro_rules! against_fixed {
        ($name:ident, $t:ty, $frac:expr) => {
            proptest! {
                #![proptest_config(config())]

                #[test]
                fn $name(bits in raw_values($frac)) {
                    let x = <$t>::from_bits(bits);
                    let n = (bits as u128) << $frac;
                    let f = x.sqrt().to_bits() as u64;
                    let (ours, rounded) = (isqrt_u128(n), Scalar::sqrt(x).to_bits() as u64);
                    prop_assert!(floor_holds(n, ours, f), "{}: radicand {}, our floor {}, fixed's {}", x, n, ours, f);
                    prop_assert!(rounding_holds(n, f, rounded), "{}: radicand {}, floor {}, rounded {}", x, n, f, rounded);
                }
            }
        };
    }

    against_fixed!(i32f32_against_fixed, I32F32, 32);
    against_fixed!(i48f16_against_fixed, I48F16, 16);
}
