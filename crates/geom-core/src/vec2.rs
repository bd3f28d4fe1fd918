//! [`Vec2`], the two-dimensional vector every query speaks in.

use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use crate::scalar::{Exact, Scalar};

/// A 2D vector or point with coordinates of type `S`.
///
/// Arithmetic operators (`+`, `-`, unary `-`, and `*` by a scalar) behave as
/// `S`'s own operators do, component by component: for fixed-point types
/// they panic on overflow in debug builds and wrap in release builds, like
/// the integer types. Vectors built from shapes inside the safe range (see
/// [`Scalar::MAX_COORD`]) never get there; the queries themselves never use
/// these operators on values that could overflow.
///
/// The products ([`dot`](Vec2::dot), [`perp_dot`](Vec2::perp_dot),
/// [`length_squared`](Vec2::length_squared)) are returned in
/// [`Scalar::Wide`], where fixed-point results are exact.
///
/// # Examples
///
/// ```
/// use fixed::types::I16F16;
/// use geom_core::Vec2;
///
/// let a = Vec2::new(1.5_f32, 2.0);
/// let b = Vec2::new(0.5, -1.0);
/// assert_eq!(a + b, Vec2::new(2.0, 1.0));
/// assert_eq!(a.dot(b), -1.25);
///
/// let v = Vec2::new(I16F16::from_num(3), I16F16::from_num(4));
/// assert_eq!(v.length(), 5);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Vec2<S> {
    /// The horizontal component.
    pub x: S,
    /// The vertical component.
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
}

impl<S: Scalar> Vec2<S> {
    /// The zero vector.
    pub const ZERO: Self = Self::new(S::ZERO, S::ZERO);
    /// The unit vector along +x.
    pub const X: Self = Self::new(S::ONE, S::ZERO);
    /// The unit vector along +y.
    pub const Y: Self = Self::new(S::ZERO, S::ONE);

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

    #[inline]
    pub(crate) fn to_exact(self) -> ExactVec<S::Exact> {
        ExactVec::from_vec(self)
    }

    /// The vector in the ring of the yes/no tests (degree 1).
    #[inline]
    pub(crate) fn to_narrow(self) -> ExactVec<<S::Exact as Exact>::Narrow> {
        ExactVec { x: self.x.to_narrow(), y: self.y.to_narrow() }
    }
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
        if self.x == E::ZERO && self.y == E::ZERO {
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
