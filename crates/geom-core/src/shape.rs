//! The shapes: [`Segment`], [`Circle`] and [`Capsule`], each validated when
//! it is built so that every query on it stays inside the safe range.

use core::fmt;
use core::hash::{Hash, Hasher};

use crate::scalar::Scalar;
use crate::scalar::private::Format;
use crate::vec2::Vec2;

/// Why a shape could not be built.
///
/// # Examples
///
/// ```
/// use geom_core::fixed::types::I16F16;
/// use geom_core::{Circle, ShapeError, Vec2};
///
/// let err = Circle::new(Vec2::new(0.0_f32, 0.0), -1.0).unwrap_err();
/// assert_eq!(err, ShapeError::NegativeRadius);
/// assert_eq!(err.to_string(), "the radius is negative");
///
/// let err = Circle::<I16F16>::new(Vec2::from_f64(5000.0, 0.0), I16F16::ONE).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "coordinate 5000 is outside I16F16's safe range ±4096 (Scalar::MAX_COORD)"
/// );
/// let ShapeError::OutOfRange(range) = err else { panic!("{err:?}") };
/// assert_eq!((range.value(), range.limit()), (5000.0, 4096.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ShapeError {
    /// A coordinate or the radius is NaN or infinite.
    NotFinite,
    /// The radius is below zero.
    NegativeRadius,
    /// A coordinate or the radius has a magnitude above
    /// [`Scalar::MAX_COORD`], the scalar type's safe range: which value,
    /// and the limit.
    OutOfRange(RangeError),
}

impl ShapeError {
    /// The error for a coordinate `value` beyond [`Scalar::MAX_COORD`], as
    /// the shape constructors return it (see [`RangeError::coordinate`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::fixed::types::I16F16;
    /// use geom_core::{Segment, ShapeError, Vec2};
    ///
    /// let far = Vec2::<I16F16>::from_f64(5000.0, 0.0);
    /// assert_eq!(Segment::new(far, far), Err(ShapeError::out_of_range(far.x)));
    /// ```
    #[must_use]
    pub fn out_of_range<S: Scalar>(value: S) -> Self {
        Self::OutOfRange(RangeError::coordinate(value))
    }
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFinite => f.write_str("a coordinate or the radius is NaN or infinite"),
            Self::NegativeRadius => f.write_str("the radius is negative"),
            Self::OutOfRange(range) => range.fmt(f),
        }
    }
}

impl core::error::Error for ShapeError {}

/// A coordinate or radius beyond its scalar type's safe range
/// ([`Scalar::MAX_COORD`]): the value, the limit and the type, carried by
/// [`ShapeError::OutOfRange`].
///
/// Its `Display` names all three: `coordinate 5000 is outside I16F16's
/// safe range ±4096 (Scalar::MAX_COORD)`. The value and the limit are kept
/// as `f64` ([`Scalar::to_f64`]: exact except for `FixedI64` values with
/// more than 53 significant bits); two errors are equal when they hold the
/// same bits.
///
/// # Examples
///
/// ```
/// use geom_core::fixed::types::I32F32;
/// use geom_core::{Capsule, RangeError, ShapeError, Vec2};
///
/// let p = Vec2::<I32F32>::ZERO;
/// let err = Capsule::new(p, p, I32F32::from_num(3e8)).unwrap_err();
/// assert_eq!(err, ShapeError::OutOfRange(RangeError::radius(I32F32::from_num(3e8))));
/// assert_eq!(err.to_string(), "radius 300000000 is outside I32F32's safe range ±268435456 (Scalar::MAX_COORD)");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct RangeError {
    value: f64,
    limit: f64,
    radius: bool,
    format: Format,
}

impl RangeError {
    /// The error for a coordinate `value` of type `S`, whose limit is
    /// `S::MAX_COORD`. (It does not check that `value` is beyond it.)
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::RangeError;
    ///
    /// let err = RangeError::coordinate(2e20_f32);
    /// assert_eq!(err.value(), 2e20_f32 as f64);
    /// assert!(!err.is_radius());
    /// ```
    #[must_use]
    pub fn coordinate<S: Scalar>(value: S) -> Self {
        Self { value: value.to_f64(), limit: S::MAX_COORD.to_f64(), radius: false, format: S::FORMAT }
    }

    /// The error for a radius `value` of type `S`, whose limit is
    /// `S::MAX_COORD`. (It does not check that `value` is beyond it.)
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::RangeError;
    ///
    /// assert!(RangeError::radius(1e300_f64).is_radius());
    /// ```
    #[must_use]
    pub fn radius<S: Scalar>(value: S) -> Self {
        Self { radius: true, ..Self::coordinate(value) }
    }

    /// The value that is out of range, as `f64`.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::RangeError;
    ///
    /// assert_eq!(RangeError::coordinate(-3e72_f64).value(), -3e72);
    /// ```
    #[must_use]
    pub fn value(&self) -> f64 {
        self.value
    }

    /// The limit it is beyond: the type's [`Scalar::MAX_COORD`], as `f64`
    /// (always exact: a power of two).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::fixed::types::I16F16;
    /// use geom_core::RangeError;
    ///
    /// assert_eq!(RangeError::coordinate(I16F16::MAX).limit(), 4096.0);
    /// ```
    #[must_use]
    pub fn limit(&self) -> f64 {
        self.limit
    }

    /// Whether the value is a radius rather than a coordinate.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::RangeError;
    ///
    /// assert!(!RangeError::coordinate(1e300_f64).is_radius());
    /// ```
    #[must_use]
    pub fn is_radius(&self) -> bool {
        self.radius
    }
}

impl PartialEq for RangeError {
    fn eq(&self, other: &Self) -> bool {
        // By bits, so that equality is an equivalence (`Eq`) even for a
        // NaN put in by hand, and agrees with `Hash`.
        self.value.to_bits() == other.value.to_bits()
            && self.limit.to_bits() == other.limit.to_bits()
            && self.radius == other.radius
            && self.format == other.format
    }
}

impl Eq for RangeError {}

impl Hash for RangeError {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.value.to_bits().hash(state);
        self.limit.to_bits().hash(state);
        self.radius.hash(state);
        (self.format.float, self.format.bits, self.format.frac).hash(state);
    }
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = if self.radius { "radius" } else { "coordinate" };
        let Format { float, bits, frac } = self.format;
        // An `f32` value as `f32` shows it: `3e20`, not its `f64` digits.
        let single = float && bits == 32;
        write!(f, "{what} {} is outside ", Number(self.value, single))?;
        if float {
            write!(f, "f{bits}")?;
        } else {
            write!(f, "I{}F{frac}", bits - frac)?;
        }
        write!(f, "'s safe range ±{} (Scalar::MAX_COORD)", Number(self.limit, single))
    }
}

impl core::error::Error for RangeError {}

/// A value in a message, as `f32` when the flag says so: plain up to
/// 10^16, in scientific notation above (`f64`'s limit has 73 digits).
struct Number(f64, bool);

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0.abs() < 1e16, self.1) {
            (true, false) => write!(f, "{}", self.0),
            (false, false) => write!(f, "{:e}", self.0),
            (true, true) => write!(f, "{}", self.0 as f32),
            (false, true) => write!(f, "{:e}", self.0 as f32),
        }
    }
}

/// Checks one coordinate or radius against the scalar's domain.
fn check_value<S: Scalar>(value: S, radius: bool) -> Result<(), ShapeError> {
    if !value.is_finite() {
        Err(ShapeError::NotFinite)
    } else if value > S::MAX_COORD || value < -S::MAX_COORD {
        let range = if radius { RangeError::radius(value) } else { RangeError::coordinate(value) };
        Err(ShapeError::OutOfRange(range))
    } else {
        Ok(())
    }
}

/// Checks a point's coordinates, `x` first.
pub(crate) fn check_point<S: Scalar>(p: Vec2<S>) -> Result<(), ShapeError> {
    check_value(p.x, false)?;
    check_value(p.y, false)
}

fn check_radius<S: Scalar>(radius: S) -> Result<(), ShapeError> {
    if !radius.is_finite() {
        Err(ShapeError::NotFinite)
    } else if radius < S::ZERO {
        Err(ShapeError::NegativeRadius)
    } else {
        check_value(radius, true)
    }
}

/// A line segment from [`start`](Segment::start) to [`end`](Segment::end).
/// The two endpoints may coincide: a zero-length segment behaves as its
/// point in every query.
///
/// # Examples
///
/// ```
/// use fixed::types::I16F16;
/// use geom_core::{Segment, ShapeError, Vec2};
///
/// let floor = Segment::new(Vec2::new(-10.0_f32, 0.0), Vec2::new(10.0, 0.0))?;
/// assert_eq!(floor.end().x, 10.0);
///
/// let far = Vec2::new(I16F16::from_num(5000), I16F16::ZERO);
/// assert!(matches!(Segment::new(far, far), Err(ShapeError::OutOfRange(_))));
/// # Ok::<(), ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "serde_data::SegmentData<S>",
        into = "serde_data::SegmentData<S>",
        bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned"
    )
)]
pub struct Segment<S> {
    start: Vec2<S>,
    end: Vec2<S>,
}

impl<S: Scalar> Segment<S> {
    /// Creates a segment between two points.
    ///
    /// # Errors
    ///
    /// [`ShapeError::NotFinite`] for a NaN or infinite coordinate,
    /// [`ShapeError::OutOfRange`] for one beyond [`Scalar::MAX_COORD`].
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::{Segment, ShapeError, Vec2};
    ///
    /// assert!(Segment::new(Vec2::new(0.0_f64, 0.0), Vec2::new(1.0, 1.0)).is_ok());
    /// let bad = Segment::new(Vec2::new(f64::NAN, 0.0), Vec2::new(1.0, 1.0));
    /// assert_eq!(bad, Err(ShapeError::NotFinite));
    /// ```
    pub fn new(start: Vec2<S>, end: Vec2<S>) -> Result<Self, ShapeError> {
        check_point(start)?;
        check_point(end)?;
        Ok(Self { start, end })
    }

    /// A segment the caller knows to be within the kernels' bounds: a
    /// circle's path over a tick (up to twice the safe range), or a point.
    #[inline]
    pub(crate) fn new_unchecked(start: Vec2<S>, end: Vec2<S>) -> Self {
        Self { start, end }
    }

    /// The first endpoint (parameter `t = 0`).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::{Segment, Vec2};
    ///
    /// let s = Segment::new(Vec2::new(1.0_f32, 2.0), Vec2::new(3.0, 4.0)).unwrap();
    /// assert_eq!(s.start(), Vec2::new(1.0, 2.0));
    /// ```
    #[inline]
    #[must_use]
    pub fn start(&self) -> Vec2<S> {
        self.start
    }

    /// The second endpoint (parameter `t = 1`).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::{Segment, Vec2};
    ///
    /// let s = Segment::new(Vec2::new(1.0_f32, 2.0), Vec2::new(3.0, 4.0)).unwrap();
    /// assert_eq!(s.end(), Vec2::new(3.0, 4.0));
    /// ```
    #[inline]
    #[must_use]
    pub fn end(&self) -> Vec2<S> {
        self.end
    }

    /// The same segment traversed the other way.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::{Segment, Vec2};
    ///
    /// let s = Segment::new(Vec2::new(1.0_f32, 2.0), Vec2::new(3.0, 4.0)).unwrap();
    /// assert_eq!(s.reversed().start(), s.end());
    /// ```
    #[inline]
    #[must_use]
    pub fn reversed(&self) -> Self {
        Self { start: self.end, end: self.start }
    }
}

/// A disc: every point within [`radius`](Circle::radius) of
/// [`center`](Circle::center), boundary included.
///
/// # Examples
///
/// ```
/// use fixed::types::I32F32;
/// use geom_core::{Circle, Vec2};
///
/// let ball = Circle::new(Vec2::new(I32F32::from_num(1), I32F32::from_num(2)), I32F32::from_num(0.5))?;
/// assert_eq!(ball.radius(), 0.5);
/// # Ok::<(), geom_core::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "serde_data::CircleData<S>",
        into = "serde_data::CircleData<S>",
        bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned"
    )
)]
pub struct Circle<S> {
    center: Vec2<S>,
    radius: S,
}

impl<S: Scalar> Circle<S> {
    /// Creates a circle. A radius of zero is allowed: the circle is a point.
    ///
    /// # Errors
    ///
    /// [`ShapeError::NotFinite`] for a NaN or infinite value,
    /// [`ShapeError::NegativeRadius`] for a radius below zero, and
    /// [`ShapeError::OutOfRange`] for a value beyond [`Scalar::MAX_COORD`].
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::{Circle, ShapeError, Vec2};
    ///
    /// assert!(Circle::new(Vec2::new(0.0_f32, 0.0), 0.0).is_ok());
    /// let err = Circle::new(Vec2::new(0.0_f32, 0.0), f32::INFINITY);
    /// assert_eq!(err, Err(ShapeError::NotFinite));
    /// ```
    pub fn new(center: Vec2<S>, radius: S) -> Result<Self, ShapeError> {
        check_point(center)?;
        check_radius(radius)?;
        Ok(Self { center, radius })
    }

    /// A circle from the parts of an already validated shape (a capsule
    /// whose core is a point).
    #[inline]
    pub(crate) fn new_unchecked(center: Vec2<S>, radius: S) -> Self {
        Self { center, radius }
    }

    /// The centre.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::{Circle, Vec2};
    ///
    /// let c = Circle::new(Vec2::new(1.0_f64, 2.0), 3.0).unwrap();
    /// assert_eq!(c.center(), Vec2::new(1.0, 2.0));
    /// ```
    #[inline]
    #[must_use]
    pub fn center(&self) -> Vec2<S> {
        self.center
    }

    /// The radius, never negative.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::{Circle, Vec2};
    ///
    /// let c = Circle::new(Vec2::new(1.0_f64, 2.0), 3.0).unwrap();
    /// assert_eq!(c.radius(), 3.0);
    /// ```
    #[inline]
    #[must_use]
    pub fn radius(&self) -> S {
        self.radius
    }
}

/// A capsule (stadium): every point within [`radius`](Capsule::radius) of
/// its core [`segment`](Capsule::segment), boundary included. A capsule
/// with a zero-length core is a circle.
///
/// # Examples
///
/// ```
/// use geom_core::{Capsule, Vec2};
///
/// let paddle = Capsule::new(Vec2::new(-2.0_f32, 0.0), Vec2::new(2.0, 0.0), 0.5)?;
/// assert_eq!(paddle.segment().end(), Vec2::new(2.0, 0.0));
/// # Ok::<(), geom_core::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "serde_data::CapsuleData<S>",
        into = "serde_data::CapsuleData<S>",
        bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned"
    )
)]
pub struct Capsule<S> {
    segment: Segment<S>,
    radius: S,
}

/// A segment as the capsule of radius zero around it: the same points, so
/// every capsule query takes a segment.
///
/// # Examples
///
/// ```
/// use geom_core::{Capsule, Segment, Vec2};
///
/// let s = Segment::new(Vec2::new(0.0_f64, 0.0), Vec2::new(4.0, 0.0))?;
/// assert_eq!(Capsule::from(s), Capsule::new(Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0), 0.0)?);
/// # Ok::<(), geom_core::ShapeError>(())
/// ```
impl<S: Scalar> From<Segment<S>> for Capsule<S> {
    fn from(segment: Segment<S>) -> Self {
        // A valid segment and a zero radius: a valid capsule.
        Self::new_unchecked(segment, S::ZERO)
    }
}

/// A circle as the capsule around its centre (a core of length zero): the
/// same points, so every capsule query takes a circle.
///
/// # Examples
///
/// ```
/// use geom_core::{Capsule, Circle, Vec2};
///
/// let c = Circle::new(Vec2::new(1.0_f32, 2.0), 0.5)?;
/// assert_eq!(Capsule::from(c), Capsule::new(Vec2::new(1.0, 2.0), Vec2::new(1.0, 2.0), 0.5)?);
/// # Ok::<(), geom_core::ShapeError>(())
/// ```
impl<S: Scalar> From<Circle<S>> for Capsule<S> {
    fn from(circle: Circle<S>) -> Self {
        // A centre and radius within the safe range: a valid capsule.
        Self::new_unchecked(Segment::new_unchecked(circle.center(), circle.center()), circle.radius())
    }
}

impl<S: Scalar> Capsule<S> {
    /// Creates a capsule around the segment from `start` to `end`.
    ///
    /// # Errors
    ///
    /// As [`Circle::new`]: [`ShapeError::NotFinite`],
    /// [`ShapeError::NegativeRadius`] or [`ShapeError::OutOfRange`].
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::I16F16;
    /// use geom_core::{Capsule, ShapeError, Vec2};
    ///
    /// let p = Vec2::new(I16F16::ZERO, I16F16::ZERO);
    /// assert_eq!(Capsule::new(p, p, I16F16::from_num(-1)), Err(ShapeError::NegativeRadius));
    /// ```
    pub fn new(start: Vec2<S>, end: Vec2<S>, radius: S) -> Result<Self, ShapeError> {
        let segment = Segment::new(start, end)?;
        check_radius(radius)?;
        Ok(Self { segment, radius })
    }

    /// A capsule from the parts of already validated shapes (a segment as
    /// a capsule of radius zero).
    #[inline]
    pub(crate) fn new_unchecked(segment: Segment<S>, radius: S) -> Self {
        Self { segment, radius }
    }

    /// The core segment.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::{Capsule, Vec2};
    ///
    /// let c = Capsule::new(Vec2::new(0.0_f64, 0.0), Vec2::new(4.0, 0.0), 1.0).unwrap();
    /// assert_eq!(c.segment().start(), Vec2::new(0.0, 0.0));
    /// ```
    #[inline]
    #[must_use]
    pub fn segment(&self) -> Segment<S> {
        self.segment
    }

    /// The radius, never negative.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::{Capsule, Vec2};
    ///
    /// let c = Capsule::new(Vec2::new(0.0_f64, 0.0), Vec2::new(4.0, 0.0), 1.0).unwrap();
    /// assert_eq!(c.radius(), 1.0);
    /// ```
    #[inline]
    #[must_use]
    pub fn radius(&self) -> S {
        self.radius
    }
}

/// The shapes as plain data for serde: read back through the validating
/// constructors, so a file cannot smuggle in an invalid shape.
#[cfg(feature = "serde")]
mod serde_data {
    use super::{Capsule, Circle, Scalar, Segment, ShapeError, Vec2};

    #[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
    #[serde(bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned")]
    pub(super) struct SegmentData<S> {
        start: Vec2<S>,
        end: Vec2<S>,
    }

    #[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
    #[serde(bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned")]
    pub(super) struct CircleData<S> {
        center: Vec2<S>,
        #[serde(with = "crate::scalar::serde_scalar")]
        radius: S,
    }

    #[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
    #[serde(bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned")]
    pub(super) struct CapsuleData<S> {
        start: Vec2<S>,
        end: Vec2<S>,
        #[serde(with = "crate::scalar::serde_scalar")]
        radius: S,
    }

    impl<S: Scalar> TryFrom<SegmentData<S>> for Segment<S> {
        type Error = ShapeError;
        fn try_from(d: SegmentData<S>) -> Result<Self, ShapeError> {
            Segment::new(d.start, d.end)
        }
    }

    impl<S: Scalar> From<Segment<S>> for SegmentData<S> {
        fn from(s: Segment<S>) -> Self {
            Self { start: s.start, end: s.end }
        }
    }

    impl<S: Scalar> TryFrom<CircleData<S>> for Circle<S> {
        type Error = ShapeError;
        fn try_from(d: CircleData<S>) -> Result<Self, ShapeError> {
            Circle::new(d.center, d.radius)
        }
    }

    impl<S: Scalar> From<Circle<S>> for CircleData<S> {
        fn from(c: Circle<S>) -> Self {
            Self { center: c.center, radius: c.radius }
        }
    }

    impl<S: Scalar> TryFrom<CapsuleData<S>> for Capsule<S> {
        type Error = ShapeError;
        fn try_from(d: CapsuleData<S>) -> Result<Self, ShapeError> {
            Capsule::new(d.start, d.end, d.radius)
        }
    }

    impl<S: Scalar> From<Capsule<S>> for CapsuleData<S> {
        fn from(c: Capsule<S>) -> Self {
            Self { start: c.segment.start, end: c.segment.end, radius: c.radius }
        }
    }
}

#[cfg(test)]
mod tests {
    use fixed::types::{I16F16, I32F32};

    use super::*;

    #[test]
    fn the_safe_range_boundary_is_inclusive() {
        let max = I16F16::MAX_COORD;
        let edge = Vec2::new(max, -max);
        assert!(Circle::new(edge, max).is_ok());
        let beyond = Vec2::new(max + I16F16::DELTA, I16F16::ZERO);
        assert_eq!(Circle::new(beyond, I16F16::ZERO), Err(ShapeError::out_of_range(beyond.x)));
        let err = Capsule::new(edge, edge, max + I16F16::DELTA);
        assert_eq!(err, Err(ShapeError::OutOfRange(RangeError::radius(max + I16F16::DELTA))));
        let max = I32F32::MAX_COORD;
        assert!(Segment::new(Vec2::new(max, max), Vec2::new(-max, -max)).is_ok());
        assert_eq!(
            Segment::new(Vec2::new(max, max), Vec2::new(-max - I32F32::DELTA, max)),
            Err(ShapeError::out_of_range(-max - I32F32::DELTA))
        );
        let far = f32::MAX_COORD * 2.0;
        assert_eq!(Circle::new(Vec2::new(far, 0.0), 1.0), Err(ShapeError::out_of_range(far)));
    }

    /// Issue 19: the error named neither the value nor the limit.
    #[test]
    fn an_out_of_range_error_names_the_value_the_type_and_the_limit() {
        extern crate std;
        use std::string::ToString;

        let message = |e: Result<Circle<_>, ShapeError>| e.unwrap_err().to_string();
        let beyond = I16F16::from_num(-4096.5);
        assert_eq!(
            message(Circle::new(Vec2::new(I16F16::ZERO, beyond), I16F16::ONE)),
            "coordinate -4096.5 is outside I16F16's safe range ±4096 (Scalar::MAX_COORD)"
        );
        assert_eq!(
            message(Circle::new(Vec2::ZERO, I16F16::from_num(5000))),
            "radius 5000 is outside I16F16's safe range ±4096 (Scalar::MAX_COORD)"
        );
        let err = Segment::new(Vec2::ZERO, Vec2::new(0.0, 3e20_f32)).unwrap_err();
        let ShapeError::OutOfRange(range) = err else { panic!("{err:?}") };
        assert_eq!((range.value(), range.limit(), range.is_radius()), (f64::from(3e20_f32), 2_f64.powi(60), false));
        assert_eq!(err.to_string(), "coordinate 3e20 is outside f32's safe range ±1.1529215e18 (Scalar::MAX_COORD)");
        let err = Circle::new(Vec2::new(3e72_f64, 0.0), 1.0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "coordinate 3e72 is outside f64's safe range ±1.7668470647783843e72 (Scalar::MAX_COORD)"
        );
        let err =
            Circle::new(Vec2::new(fixed::types::I48F16::MIN, fixed::types::I48F16::ZERO), fixed::types::I48F16::ONE);
        assert_eq!(
            err.unwrap_err().to_string(),
            "coordinate -140737488355328 is outside I48F16's safe range ±17592186044416 (Scalar::MAX_COORD)"
        );
        // The same value in another type, or as a radius, is another error.
        assert_ne!(RangeError::coordinate(5000.0_f32), RangeError::coordinate(5000.0_f64));
        assert_ne!(RangeError::coordinate(5000.0_f32), RangeError::radius(5000.0_f32));
    }

    #[test]
    fn nan_radius_is_not_finite_rather_than_negative() {
        assert_eq!(Circle::new(Vec2::new(0.0_f32, 0.0), f32::NAN), Err(ShapeError::NotFinite));
        assert_eq!(
            Capsule::new(Vec2::new(0.0_f32, 0.0), Vec2::new(1.0, 0.0), f32::NEG_INFINITY),
            Err(ShapeError::NotFinite)
        );
    }

    #[test]
    fn negative_zero_radius_is_a_point_not_an_error() {
        assert!(Circle::new(Vec2::new(0.0_f64, 0.0), -0.0).is_ok());
    }
}
