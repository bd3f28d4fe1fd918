//! [`Vec2`], the two-dimensional vector every query speaks in.

use core::fmt;
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use fixed::{FixedI32, FixedI64};

use crate::scalar::{Exact, Frac32, Frac64, Scalar};

/// A 2D vector or point with coordinates of type `S`.
///
/// Arithmetic operators (`+`, `-`, unary `-`, and `*` by a scalar on
/// either side) behave as `S`'s own operators do, component by component:
/// for fixed-point types they panic on overflow in debug builds and wrap in
/// release builds, like the integer types. Vectors built from shapes inside
/// the safe range (see [`Scalar::MAX_COORD`]) never get there for `+` and
/// `-` of two points, and the queries themselves never use these operators
/// on values that could overflow. Division by a scalar (`/`) never wraps
/// nor panics: see [`checked_div`](Vec2::checked_div) and the `Div`
/// implementation. The methods below never overflow unless they say so.
///
/// The products ([`dot`](Vec2::dot), [`perp_dot`](Vec2::perp_dot),
/// [`length_squared`](Vec2::length_squared)) are returned in
/// [`Scalar::Wide`], where fixed-point results are exact.
///
/// `Display` writes `(x, y)` with each component as `S` displays it (a
/// precision such as `{:.2}` applies to each); with the `serde` feature a
/// vector is written as `{"x": …, "y": …}`, each component as
/// [the `serde` feature](crate#features) describes.
///
/// # Examples
///
/// ```
/// use geom_core::fixed::types::I16F16;
/// use geom_core::Vec2;
///
/// let a = Vec2::new(1.5_f32, 2.0);
/// let b = Vec2::new(0.5, -1.0);
/// assert_eq!(a + b, Vec2::new(2.0, 1.0));
/// assert_eq!(a.dot(b), -1.25);
/// assert_eq!(2.0 * b, Vec2::new(1.0, -2.0));
///
/// let v = Vec2::<I16F16>::from_f64(3.0, 4.0);
/// assert_eq!(v.length(), 5);
/// assert_eq!(v.to_string(), "(3, 4)");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound(serialize = "S: Scalar + serde::Serialize", deserialize = "S: Scalar + serde::Deserialize<'de>"))
)]
pub struct Vec2<S> {
    /// The horizontal component.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub x: S,
    /// The vertical component.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub y: S,
}

impl<S> Vec2<S> {
    /// Creates a vector from its components.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::Vec2;
    ///
    /// let v = Vec2::new(1.0_f64, -2.0);
    /// assert_eq!((v.x, v.y), (1.0, -2.0));
    /// ```
    #[inline]
    #[must_use]
    pub const fn new(x: S, y: S) -> Self {
        Self { x, y }
    }

    /// A vector with both components `v`.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::Vec2;
    ///
    /// assert_eq!(Vec2::splat(1.5_f32), Vec2::new(1.5, 1.5));
    /// ```
    #[inline]
    #[must_use]
    pub const fn splat(v: S) -> Self
    where
        S: Copy,
    {
        Self { x: v, y: v }
    }
}

impl<S: Scalar> Vec2<S> {
    /// The zero vector.
    pub const ZERO: Self = Self::new(S::ZERO, S::ZERO);
    /// The unit vector along +x.
    pub const X: Self = Self::new(S::ONE, S::ZERO);
    /// The unit vector along +y.
    pub const Y: Self = Self::new(S::ZERO, S::ONE);

    /// The vector nearest to `(x, y)`, each component converted by
    /// [`Scalar::from_f64`]: rounded to the nearest, ties to even; a value
    /// beyond a fixed-point type's range saturates, a NaN gives zero (the
    /// saturated value is then refused by the shape constructors, being
    /// beyond [`Scalar::MAX_COORD`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::fixed::types::I32F32;
    /// use geom_core::{Segment, Vec2};
    ///
    /// let floor = Segment::<I32F32>::new(Vec2::from_f64(-10.0, 0.0), Vec2::from_f64(10.0, 0.0))?;
    /// assert_eq!(floor.start(), Vec2::new(I32F32::from_num(-10), I32F32::ZERO));
    /// assert_eq!(Vec2::<f32>::from_f64(0.5, 2.0), Vec2::new(0.5, 2.0));
    /// # Ok::<(), geom_core::ShapeError>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn from_f64(x: f64, y: f64) -> Self {
        Self::new(S::from_f64(x), S::from_f64(y))
    }

    /// The vector nearest to `(x, y)`, or `None` when a component is NaN,
    /// infinite or beyond `S`'s range (see [`Scalar::try_from_f64`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::fixed::types::I16F16;
    /// use geom_core::Vec2;
    ///
    /// assert_eq!(Vec2::<I16F16>::try_from_f64(1.5, -2.0), Some(Vec2::from_f64(1.5, -2.0)));
    /// assert_eq!(Vec2::<I16F16>::try_from_f64(1e6, 0.0), None);
    /// assert_eq!(Vec2::<f64>::try_from_f64(0.0, f64::NAN), None);
    /// ```
    #[inline]
    #[must_use]
    pub fn try_from_f64(x: f64, y: f64) -> Option<Self> {
        Some(Self::new(S::try_from_f64(x)?, S::try_from_f64(y)?))
    }

    /// The vector in `f64`, each component converted by [`Scalar::to_f64`]
    /// (exact except for `FixedI64` values with more than 53 significant
    /// bits, rounded to the nearest).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::fixed::types::I16F16;
    /// use geom_core::Vec2;
    ///
    /// let p = Vec2::<I16F16>::from_f64(1.5, -0.25);
    /// assert_eq!(p.to_f64(), Vec2::new(1.5, -0.25));
    /// let (x, y) = p.to_f64().into();
    /// assert_eq!((x, y), (1.5, -0.25));
    /// ```
    #[inline]
    #[must_use]
    pub fn to_f64(self) -> Vec2<f64> {
        Vec2::new(self.x.to_f64(), self.y.to_f64())
    }

    /// The dot product `x·rhs.x + y·rhs.y`, exact for fixed-point types.
    ///
    /// Saturates at the bounds of [`Scalar::Wide`] for fixed-point vectors
    /// near the limits of `S` (never for vectors between in-range points).
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::{I16F16, I32F32};
    /// use geom_core::Vec2;
    ///
    /// let v = Vec2::new(I16F16::from_num(300), I16F16::from_num(400));
    /// // 250 000 would not fit in I16F16.
    /// assert_eq!(v.dot(v), I32F32::from_num(250_000));
    /// assert_eq!(Vec2::new(1.0_f32, 2.0).dot(Vec2::new(3.0, 4.0)), 11.0);
    /// ```
    #[inline]
    #[must_use]
    pub fn dot(self, rhs: Self) -> S::Wide {
        let e = self.to_exact();
        let r = rhs.to_exact();
        wide::<S>(e.x * r.x + e.y * r.y)
    }

    /// The perpendicular dot product (2D cross product)
    /// `x·rhs.y − y·rhs.x`: positive when `rhs` is counter-clockwise from
    /// `self`. Exact for fixed-point types, saturating like
    /// [`dot`](Vec2::dot).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::Vec2;
    ///
    /// assert_eq!(Vec2::new(1.0_f64, 0.0).perp_dot(Vec2::new(0.0, 1.0)), 1.0);
    /// assert_eq!(Vec2::new(0.0_f64, 1.0).perp_dot(Vec2::new(1.0, 0.0)), -1.0);
    /// ```
    #[doc(alias = "cross")]
    #[doc(alias = "wedge")]
    #[inline]
    #[must_use]
    pub fn perp_dot(self, rhs: Self) -> S::Wide {
        let e = self.to_exact();
        let r = rhs.to_exact();
        wide::<S>(e.x * r.y - e.y * r.x)
    }

    /// The vector rotated a quarter turn counter-clockwise: `(−y, x)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::Vec2;
    ///
    /// assert_eq!(Vec2::new(2.0_f32, 1.0).perp(), Vec2::new(-1.0, 2.0));
    /// ```
    #[inline]
    #[must_use]
    pub fn perp(self) -> Self {
        Self::new(-self.y, self.x)
    }

    /// The squared length, exact for fixed-point types.
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::{I16F16, I32F32};
    /// use geom_core::Vec2;
    ///
    /// let v = Vec2::new(I16F16::from_num(3), I16F16::from_num(-4));
    /// assert_eq!(v.length_squared(), I32F32::from_num(25));
    /// ```
    #[inline]
    #[must_use]
    pub fn length_squared(self) -> S::Wide {
        wide::<S>(self.to_exact().length_squared())
    }

    /// The length, rounded to the nearest representable value.
    ///
    /// Computed from the exact squared length, so it neither overflows nor
    /// loses precision on the way; a length beyond `S`'s range saturates
    /// (fixed-point) or is infinite (float).
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::I32F32;
    /// use geom_core::Vec2;
    ///
    /// assert_eq!(Vec2::new(3.0_f64, 4.0).length(), 5.0);
    /// let v = Vec2::new(I32F32::from_num(30_000), I32F32::from_num(40_000));
    /// assert_eq!(v.length(), 50_000);
    /// ```
    #[inline]
    #[must_use]
    pub fn length(self) -> S {
        S::from_sqrt_ratio(self.to_exact().length_squared(), <S::Exact as Exact>::ONE)
    }

    /// The unit vector in the same direction, or `None` for the zero vector.
    ///
    /// For fixed-point types each component is the exact `x / |v|` rounded
    /// once to the nearest representable value, however short or long the
    /// vector is. Floats take one square root and a division per component
    /// in `f64` (each component within a relative error of 2<sup>−50</sup>
    /// of the exact value before it is rounded to the type, an axis-aligned
    /// vector giving an exact unit), however short or long the vector is
    /// too. Either way the result has length one within a rounding step or
    /// two.
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::I16F16;
    /// use geom_core::Vec2;
    ///
    /// let n = Vec2::new(0.0_f32, -2.5).try_normalize();
    /// assert_eq!(n, Some(Vec2::new(0.0, -1.0)));
    /// assert_eq!(Vec2::<f32>::ZERO.try_normalize(), None);
    ///
    /// let tiny = Vec2::new(I16F16::DELTA, I16F16::DELTA);
    /// let n = tiny.try_normalize().unwrap();
    /// assert_eq!(n.x, I16F16::from_num(0.70710678));
    /// ```
    #[inline]
    #[must_use]
    pub fn try_normalize(self) -> Option<Self> {
        ExactVec::from_vec(self).try_normalize()
    }

    /// The unit vector in the same direction, or `fallback` for the zero
    /// vector.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::Vec2;
    ///
    /// assert_eq!(Vec2::new(0.0_f64, 0.0).normalize_or(Vec2::Y), Vec2::Y);
    /// assert_eq!(Vec2::new(5.0_f64, 0.0).normalize_or(Vec2::Y), Vec2::X);
    /// ```
    #[inline]
    #[must_use]
    pub fn normalize_or(self, fallback: Self) -> Self {
        self.try_normalize().unwrap_or(fallback)
    }

    /// The unit vector in the same direction, or the zero vector for the
    /// zero vector (see [`try_normalize`](Vec2::try_normalize) for the
    /// rounding).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::Vec2;
    ///
    /// assert_eq!(Vec2::new(0.0_f32, -3.0).normalize_or_zero(), Vec2::new(0.0, -1.0));
    /// assert_eq!(Vec2::<f32>::ZERO.normalize_or_zero(), Vec2::ZERO);
    /// ```
    #[inline]
    #[must_use]
    pub fn normalize_or_zero(self) -> Self {
        self.normalize_or(Self::ZERO)
    }

    /// The squared distance between two points, exact for fixed-point
    /// types (saturating like [`dot`](Vec2::dot), which points inside the
    /// safe range never reach).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::fixed::types::{I16F16, I32F32};
    /// use geom_core::Vec2;
    ///
    /// let a = Vec2::<I16F16>::from_f64(-4000.0, 0.0);
    /// let b = Vec2::from_f64(4000.0, 0.0);
    /// // 8000² does not fit in I16F16, nor does 8000 − (−4000)… in I32F32 it does.
    /// assert_eq!(a.distance_squared(b), I32F32::from_num(64_000_000));
    /// ```
    #[inline]
    #[must_use]
    pub fn distance_squared(self, rhs: Self) -> S::Wide {
        wide::<S>(self.to_exact().sub(rhs.to_exact()).length_squared())
    }

    /// The distance between two points, rounded to the nearest
    /// representable value.
    ///
    /// Computed from the exact difference, so it cannot overflow on the
    /// way, however far apart the points are; a distance beyond `S`'s range
    /// saturates (fixed point) or is infinite (float).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::fixed::types::I16F16;
    /// use geom_core::Vec2;
    ///
    /// let a = Vec2::<I16F16>::from_f64(1.0, 1.0);
    /// assert_eq!(a.distance(Vec2::from_f64(4.0, 5.0)), 5);
    /// ```
    #[inline]
    #[must_use]
    pub fn distance(self, rhs: Self) -> S {
        S::from_sqrt_ratio(self.to_exact().sub(rhs.to_exact()).length_squared(), <S::Exact as Exact>::ONE)
    }

    /// The point a fraction `t` of the way from `self` to `rhs`:
    /// `self·(1 − t) + rhs·t`, so `t = 0` gives `self` and `t = 1` gives
    /// `rhs` exactly; a `t` outside `[0, 1]` extrapolates.
    ///
    /// For fixed-point types each component is the exact value rounded
    /// once to the nearest (ties to even), saturating at the type's bounds:
    /// it never overflows. Floats evaluate the same expression in `f64`.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::fixed::types::I16F16;
    /// use geom_core::Vec2;
    ///
    /// let a = Vec2::<I16F16>::from_f64(0.0, 10.0);
    /// let b = Vec2::from_f64(4.0, -10.0);
    /// assert_eq!(a.lerp(b, I16F16::from_num(0.25)), Vec2::from_f64(1.0, 5.0));
    /// assert_eq!(Vec2::new(0.0_f64, 0.0).lerp(Vec2::new(2.0, 4.0), 0.5), Vec2::new(1.0, 2.0));
    /// ```
    #[inline]
    #[must_use]
    pub fn lerp(self, rhs: Self, t: S) -> Self {
        let (a, b, t) = (self.to_exact(), rhs.to_exact(), t.to_exact());
        let s = S::EXACT_ONE - t;
        Self::new(S::from_ratio(a.x * s + b.x * t, S::EXACT_ONE), S::from_ratio(a.y * s + b.y * t, S::EXACT_ONE))
    }

    /// The component-wise absolute value. For fixed-point types the least
    /// value, whose magnitude the type cannot hold, becomes the greatest.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::fixed::types::I16F16;
    /// use geom_core::Vec2;
    ///
    /// assert_eq!(Vec2::new(-1.5_f32, 2.0).abs(), Vec2::new(1.5, 2.0));
    /// assert_eq!(Vec2::new(I16F16::MIN, I16F16::ONE).abs(), Vec2::new(I16F16::MAX, I16F16::ONE));
    /// ```
    #[inline]
    #[must_use]
    pub fn abs(self) -> Self {
        let abs = |v: S| if v < S::ZERO { saturating_neg(v) } else { v };
        Self::new(abs(self.x), abs(self.y))
    }

    /// The component-wise minimum: each component of `rhs` where it is
    /// smaller, of `self` otherwise (so a NaN in `rhs` is never chosen).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::Vec2;
    ///
    /// assert_eq!(Vec2::new(1.0_f32, 5.0).min(Vec2::new(3.0, 2.0)), Vec2::new(1.0, 2.0));
    /// ```
    #[inline]
    #[must_use]
    pub fn min(self, rhs: Self) -> Self {
        let min = |a: S, b: S| if b < a { b } else { a };
        Self::new(min(self.x, rhs.x), min(self.y, rhs.y))
    }

    /// The component-wise maximum: each component of `rhs` where it is
    /// greater, of `self` otherwise (so a NaN in `rhs` is never chosen).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::Vec2;
    ///
    /// assert_eq!(Vec2::new(1.0_f32, 5.0).max(Vec2::new(3.0, 2.0)), Vec2::new(3.0, 5.0));
    /// ```
    #[inline]
    #[must_use]
    pub fn max(self, rhs: Self) -> Self {
        let max = |a: S, b: S| if b > a { b } else { a };
        Self::new(max(self.x, rhs.x), max(self.y, rhs.y))
    }

    /// The vector divided by `divisor`, or `None` when `divisor` is zero or
    /// a component of the quotient is beyond `S`'s range.
    ///
    /// For fixed-point types each component is the exact quotient rounded
    /// once to the nearest (ties to even), and `None` means a component's
    /// exact quotient lies more than half a step beyond the type's range.
    /// For floats, `None` means a component is not finite (an infinite or
    /// NaN component in `self` included); otherwise the components are
    /// `S`'s own correctly rounded quotients.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::fixed::types::I16F16;
    /// use geom_core::Vec2;
    ///
    /// let v = Vec2::<I16F16>::from_f64(1.0, -3.0);
    /// assert_eq!(v.checked_div(I16F16::from_num(4)), Some(Vec2::from_f64(0.25, -0.75)));
    /// assert_eq!(v.checked_div(I16F16::ZERO), None);
    /// assert_eq!(v.checked_div(I16F16::DELTA), None); // 3·2^16 does not fit
    /// assert_eq!(Vec2::new(1.0_f32, 2.0).checked_div(0.0), None);
    /// ```
    #[inline]
    #[must_use]
    pub fn checked_div(self, divisor: S) -> Option<Self> {
        let (x, x_fits) = divide(self.x, divisor);
        let (y, y_fits) = divide(self.y, divisor);
        (x_fits && y_fits).then_some(Self::new(x, y))
    }

    #[inline]
    pub(crate) fn to_exact(self) -> ExactVec<S::Exact> {
        ExactVec::from_vec(self)
    }

    /// The vector in the ring of the yes/no tests (degree 1).
    #[inline]
    pub(crate) fn to_narrow(self) -> ExactVec<<S::Exact as Exact>::Narrow> {
        ExactVec { x: self.x.to_narrow(), y: self.y.to_narrow() }
    }

    /// `self − origin` in the ring of the yes/no tests (degree 1), for
    /// points within `±4·MAX_COORD` (see `Sealed::narrow_sub`).
    #[inline]
    pub(crate) fn narrow_sub(self, origin: Self) -> ExactVec<<S::Exact as Exact>::Narrow> {
        ExactVec { x: self.x.narrow_sub(origin.x), y: self.y.narrow_sub(origin.y) }
    }
}

/// `-v`, except that a fixed-point type's least value, whose negation does
/// not fit, gives the greatest (for floats, `-v` always).
#[inline]
fn saturating_neg<S: Scalar>(v: S) -> S {
    // `from_f64(±∞)` is a fixed-point type's least and greatest value (a
    // float's infinities, whose negations are exact).
    if v == S::from_f64(f64::NEG_INFINITY) { S::from_f64(f64::INFINITY) } else { -v }
}

/// `x / d` and whether it is in range: for fixed point the exact quotient
/// rounded once to nearest (ties to even), saturating, in range unless the
/// exact quotient lies more than half a step beyond the type's bounds; for
/// floats the quotient, in range when finite. A zero divisor gives what a
/// float division gives, through [`Scalar::from_f64`] (`±MAX` for a
/// non-zero fixed-point `x`, zero for `0 / 0`), never in range.
#[inline]
fn divide<S: Scalar>(x: S, d: S) -> (S, bool) {
    if d == S::ZERO {
        return (S::from_f64(x.to_f64() / d.to_f64()), false);
    }
    let zero = <S::Exact as Exact>::ZERO;
    // `x·one / d` is `x / d` at degree 1, with a positive denominator.
    let (num, den) = (x.to_exact() * S::EXACT_ONE, d.to_exact());
    let (num, den) = if den < zero { (-num, -den) } else { (num, den) };
    let q = S::from_ratio(num, den);
    if !q.is_finite() {
        return (q, false);
    }
    if S::FORMAT.float {
        return (q, true);
    }
    // In raw units `q` is `num / den` rounded to nearest unless it
    // saturated, which puts it more than half a step from the quotient.
    let twice_error = (num - q.to_exact() * den) * (<S::Exact as Exact>::ONE + <S::Exact as Exact>::ONE);
    (q, twice_error <= den && -twice_error <= den)
}

/// Converts a degree-2 exact value into `S::Wide`.
#[inline]
fn wide<S: Scalar>(value: S::Exact) -> S::Wide {
    S::wide_from_ratio(value, <S::Exact as Exact>::ONE)
}

/// A vector in the exact ring: coordinates of some degree (1 for points and
/// differences of points).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ExactVec<E> {
    pub(crate) x: E,
    pub(crate) y: E,
}

impl<E: Exact> ExactVec<E> {
    #[inline]
    pub(crate) fn from_vec<S: Scalar<Exact = E>>(v: Vec2<S>) -> Self {
        Self { x: v.x.to_exact(), y: v.y.to_exact() }
    }

    #[inline]
    pub(crate) fn sub(self, rhs: Self) -> Self {
        Self { x: self.x - rhs.x, y: self.y - rhs.y }
    }

    #[inline]
    pub(crate) fn neg(self) -> Self {
        Self { x: -self.x, y: -self.y }
    }

    /// Whether both coordinates are zero.
    #[inline]
    pub(crate) fn is_zero(self) -> bool {
        self.x == E::ZERO && self.y == E::ZERO
    }

    /// `self · k`, exactly (of the degrees' sum).
    #[inline]
    pub(crate) fn scale(self, k: E) -> Self {
        Self { x: self.x * k, y: self.y * k }
    }

    #[inline]
    pub(crate) fn dot(self, rhs: Self) -> E {
        self.x * rhs.x + self.y * rhs.y
    }

    #[inline]
    pub(crate) fn perp_dot(self, rhs: Self) -> E {
        self.x * rhs.y - self.y * rhs.x
    }

    /// `(−y, x)`.
    #[inline]
    pub(crate) fn perp(self) -> Self {
        Self { x: -self.y, y: self.x }
    }

    #[inline]
    pub(crate) fn length_squared(self) -> E {
        self.dot(self)
    }

    /// The unit vector along `self` (see `Sealed::along`): for fixed point
    /// each component rounded once, `x_n = sign(x)·√(x²·1² / |v|²)`.
    #[inline]
    pub(crate) fn try_normalize<S: Scalar<Exact = E>>(self) -> Option<Vec2<S>> {
        if self.is_zero() {
            return None;
        }
        let (x, y) = S::frame(self.x, self.y, S::ZERO, None, true).normal;
        Some(Vec2::new(x, y))
    }
}

impl<S: Add<Output = S>> Add for Vec2<S> {
    type Output = Self;
    #[inline]
    fn add(self, rhs: Self) -> Self {
        Self::new(self.x + rhs.x, self.y + rhs.y)
    }
}

impl<S: Sub<Output = S>> Sub for Vec2<S> {
    type Output = Self;
    #[inline]
    fn sub(self, rhs: Self) -> Self {
        Self::new(self.x - rhs.x, self.y - rhs.y)
    }
}

impl<S: Neg<Output = S>> Neg for Vec2<S> {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Self::new(-self.x, -self.y)
    }
}

impl<S: Mul<Output = S> + Copy> Mul<S> for Vec2<S> {
    type Output = Self;
    #[inline]
    fn mul(self, rhs: S) -> Self {
        Self::new(self.x * rhs, self.y * rhs)
    }
}

impl<S: AddAssign> AddAssign for Vec2<S> {
    #[inline]
    fn add_assign(&mut self, rhs: Self) {
        self.x += rhs.x;
        self.y += rhs.y;
    }
}

impl<S: SubAssign> SubAssign for Vec2<S> {
    #[inline]
    fn sub_assign(&mut self, rhs: Self) {
        self.x -= rhs.x;
        self.y -= rhs.y;
    }
}

impl<S: MulAssign + Copy> MulAssign<S> for Vec2<S> {
    #[inline]
    fn mul_assign(&mut self, rhs: S) {
        self.x *= rhs;
        self.y *= rhs;
    }
}

/// `scalar * vector`, as `vector * scalar`.
macro_rules! scalar_times_vec2 {
    ($(impl<$($f:ident: $frac:ident)?> for $t:ty;)*) => {$(
        impl$(<$f: $frac>)? Mul<Vec2<$t>> for $t {
            type Output = Vec2<$t>;
            /// Each component times the scalar, as `Vec2 * S`.
            #[inline]
            fn mul(self, rhs: Vec2<$t>) -> Vec2<$t> {
                rhs * self
            }
        }
    )*};
}

scalar_times_vec2! {
    impl<> for f32;
    impl<> for f64;
    impl<F: Frac32> for FixedI32<F>;
    impl<F: Frac64> for FixedI64<F>;
}

/// Division by a scalar, component by component, never wrapping nor
/// panicking.
///
/// For fixed-point types each component is the exact quotient rounded once
/// to the nearest (ties to even), and a quotient beyond the type's range
/// saturates at its bounds (where `fixed`'s own `/` panics in debug builds
/// and wraps in release builds). Division by zero gives what a float
/// division gives, turned into the type by [`Scalar::from_f64`]: the
/// greatest or least value (for `±∞`) by the sign of the component, zero
/// for `0 / 0` (for NaN). [`Vec2::checked_div`] tells these cases apart.
/// For floats it is `S`'s own division.
///
/// # Examples
///
/// ```
/// use geom_core::fixed::types::I16F16;
/// use geom_core::Vec2;
///
/// let v = Vec2::<I16F16>::from_f64(1.0, -3.0);
/// assert_eq!(v / I16F16::from_num(2), Vec2::from_f64(0.5, -1.5));
/// assert_eq!(v / I16F16::ZERO, Vec2::new(I16F16::MAX, I16F16::MIN));
/// let q = Vec2::new(1.0_f32, 0.0) / 0.0;
/// assert!(q.x == f32::INFINITY && q.y.is_nan());
/// ```
impl<S: Scalar> Div<S> for Vec2<S> {
    type Output = Self;
    #[inline]
    fn div(self, rhs: S) -> Self {
        Self::new(divide(self.x, rhs).0, divide(self.y, rhs).0)
    }
}

impl<S: Scalar> DivAssign<S> for Vec2<S> {
    #[inline]
    fn div_assign(&mut self, rhs: S) {
        *self = *self / rhs;
    }
}

/// `(x, y)`, each component as `S` displays it, with the formatter's
/// options (a precision, say) applied to each.
///
/// # Examples
///
/// ```
/// use geom_core::fixed::types::I16F16;
/// use geom_core::Vec2;
///
/// assert_eq!(Vec2::<I16F16>::from_f64(1.5, -2.0).to_string(), "(1.5, -2)");
/// assert_eq!(format!("{:.2}", Vec2::new(1.0_f64 / 3.0, 0.5)), "(0.33, 0.50)");
/// ```
impl<S: fmt::Display> fmt::Display for Vec2<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        self.x.fmt(f)?;
        f.write_str(", ")?;
        self.y.fmt(f)?;
        f.write_str(")")
    }
}

impl<S> From<(S, S)> for Vec2<S> {
    /// `(x, y)` as a vector.
    #[inline]
    fn from((x, y): (S, S)) -> Self {
        Self::new(x, y)
    }
}

impl<S> From<[S; 2]> for Vec2<S> {
    /// `[x, y]` as a vector.
    #[inline]
    fn from([x, y]: [S; 2]) -> Self {
        Self::new(x, y)
    }
}

impl<S> From<Vec2<S>> for (S, S) {
    /// The vector as `(x, y)`.
    #[inline]
    fn from(v: Vec2<S>) -> Self {
        (v.x, v.y)
    }
}

impl<S> From<Vec2<S>> for [S; 2] {
    /// The vector as `[x, y]`.
    #[inline]
    fn from(v: Vec2<S>) -> Self {
        [v.x, v.y]
    }
}
