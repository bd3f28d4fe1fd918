//! The fuzz targets' input grammar: how a byte string becomes numbers,
//! points and shapes, weighted towards the values where geometry code
//! breaks.
//!
//! Every number is decoded by [`Input::scalar`], which reads a tag byte and
//! then picks, for the scalar type at hand:
//!
//! - about 3 times in 8, a **special value**: zero (and `-0.0`), ±1, ±½,
//!   the smallest positive value (one fixed-point step, the smallest float
//!   subnormal), the safe-range bound [`Scalar::MAX_COORD`](geom_core::Scalar::MAX_COORD) and its
//!   neighbours just inside and just outside, twice the bound, the type's
//!   own extremes, and for floats the largest subnormal, the smallest
//!   normal, the machine epsilon, both infinities and NaN;
//! - 2 in 8, a **small dyadic** `k / 2^j` (`|k| ≤ 128`, `j ≤ 4`), where shapes
//!   touch exactly and ties happen;
//! - 1 in 8, a **log-uniform** magnitude anywhere from far below one up to
//!   just past the safe range, so every scale is reached;
//! - 1 in 8, a **previous value again**, or one step beside it: coincident
//!   coordinates and near-ties;
//! - 1 in 8, **arbitrary bits** (any value of the type, NaN payloads
//!   included).
//!
//! Points ([`Input::point`]) repeat an earlier point exactly, or one step
//! away, about one time in five: zero-length segments, coincident centres,
//! centres on endpoints. Shapes are built only through the public
//! constructors, whose typed error is the documented answer for bad input;
//! [`Input::segment`] and friends check that the constructor refused
//! exactly what its documentation says it refuses, and nothing else.
//!
//! Running out of bytes is not an error: missing bytes read as zero, and
//! callers stop looping when [`Input::is_empty`].

use arbitrary::Unstructured;
use fixed::types::{I16F16, I32F32, I48F16};
use geom_core::{Capsule, Circle, RangeError, Segment, ShapeError, Vec2};

use crate::Testable;

/// What the fuzz grammar needs from a scalar type beyond [`Testable`]: its
/// extreme values.
///
/// # Examples
///
/// ```
/// use geom_test::fuzz::FuzzScalar;
///
/// assert!(f32::EXTREMES.iter().any(|v| v.is_nan()));
/// assert!(fixed::types::I16F16::EXTREMES.contains(&fixed::types::I16F16::MIN));
/// ```
pub trait FuzzScalar: Testable + serde::Serialize + serde::de::DeserializeOwned {
    /// The type's own limits and the values beside them: `MIN`, `MAX`,
    /// and for floats the infinities, NaN, the subnormal boundary and the
    /// machine epsilon.
    const EXTREMES: &'static [Self];

    /// `-self`, or `self` where negating would overflow (a fixed-point
    /// `MIN`).
    ///
    /// See [`FuzzScalar`]'s implementations; for example
    /// `I16F16::MIN.neg_or_self() == I16F16::MIN`.
    #[must_use]
    fn neg_or_self(self) -> Self;

    /// Whether the value is NaN (never, for fixed point).
    #[must_use]
    fn is_nan(self) -> bool {
        self.to_f64().is_nan()
    }

    /// Whether the value is finite (always, for fixed point).
    #[must_use]
    fn is_finite(self) -> bool {
        self.to_f64().is_finite()
    }
}

impl FuzzScalar for f32 {
    const EXTREMES: &'static [Self] = &[
        f32::MAX,
        f32::MIN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(0x007f_ffff), // the largest subnormal
        f32::from_bits(0x8000_0001), // the smallest negative subnormal
        f32::EPSILON,
        -0.0,
    ];

    fn neg_or_self(self) -> Self {
        -self
    }
}

impl FuzzScalar for f64 {
    const EXTREMES: &'static [Self] = &[
        f64::MAX,
        f64::MIN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        f64::from_bits(0x000f_ffff_ffff_ffff), // the largest subnormal
        f64::from_bits(0x8000_0000_0000_0001), // the smallest negative subnormal
        f64::EPSILON,
        -0.0,
    ];

    fn neg_or_self(self) -> Self {
        -self
    }
}

macro_rules! fuzz_fixed {
    ($t:ty) => {
        impl FuzzScalar for $t {
            const EXTREMES: &'static [Self] = &[
                <$t>::MAX,
                <$t>::MIN,
                <$t>::from_bits(<$t>::MIN.to_bits() + 1),
                <$t>::from_bits(<$t>::MAX.to_bits() - 1),
                <$t>::from_bits(-1),
                <$t>::from_bits(<$t>::MAX.to_bits() >> 1),
                <$t>::from_bits(<$t>::MIN.to_bits() >> 1),
            ];

            fn neg_or_self(self) -> Self {
                self.checked_neg().unwrap_or(self)
            }
        }
    };
}

fuzz_fixed!(I16F16);
fuzz_fixed!(I32F32);
fuzz_fixed!(I48F16);

/// How many earlier values and points [`Input`] remembers for reuse.
const POOL: usize = 8;

/// A byte string being decoded into values of scalar type `S`.
///
/// # Examples
///
/// ```
/// use fixed::types::I16F16;
/// use geom_core::Scalar;
/// use geom_test::fuzz::Input;
///
/// // Tag 0, index 6: the special value MAX_COORD.
/// let mut input = Input::<I16F16>::new(&[0, 6]);
/// assert_eq!(input.scalar(), I16F16::MAX_COORD);
/// assert!(input.is_empty());
/// // Out of bytes: zeros from now on, which decode to zero.
/// assert_eq!(input.scalar(), I16F16::ZERO);
/// ```
pub struct Input<'a, S> {
    u: Unstructured<'a>,
    values: Vec<S>,
    points: Vec<Vec2<S>>,
}

impl<'a, S: FuzzScalar> Input<'a, S> {
    /// Starts decoding `data`.
    ///
    /// See [`Input`] for an example.
    pub fn new(data: &'a [u8]) -> Self {
        Self { u: Unstructured::new(data), values: Vec::with_capacity(POOL), points: Vec::with_capacity(POOL) }
    }

    /// Whether every byte has been read.
    ///
    /// See [`Input`] for an example.
    pub fn is_empty(&self) -> bool {
        self.u.is_empty()
    }

    /// The next byte, or zero when there are none left.
    ///
    /// See [`Input`] for an example.
    pub fn byte(&mut self) -> u8 {
        self.u.arbitrary().unwrap_or(0)
    }

    /// The next `u32`, little-endian, zero-padded.
    pub fn u32(&mut self) -> u32 {
        self.u.arbitrary().unwrap_or(0)
    }

    /// The next `u64`, little-endian, zero-padded.
    pub fn u64(&mut self) -> u64 {
        self.u.arbitrary().unwrap_or(0)
    }

    /// The next number (see the [module documentation](self) for the
    /// grammar).
    ///
    /// See [`Input`] for an example.
    pub fn scalar(&mut self) -> S {
        let tag = self.byte();
        let value = match tag >> 5 {
            0..=2 => special(self.byte()),
            3 | 4 => {
                let k = f64::from(self.byte() as i8);
                S::from_f64(k / f64::from(1_u8 << (tag % 5)))
            }
            5 => self.log_uniform(tag),
            6 => match self.values.len() {
                0 => S::ZERO,
                n => self.values[usize::from(tag) % n].nudge(i32::from(tag & 3) - 1),
            },
            _ => S::from_raw(u128::from(self.u64())),
        };
        self.remember_value(value);
        value
    }

    /// A number for a radius: as [`scalar`](Self::scalar), but made
    /// non-negative three times in four (a negative radius is an error
    /// worth reaching, not every time).
    pub fn radius(&mut self) -> S {
        let value = self.scalar();
        if value < S::ZERO && self.byte() & 3 != 0 { value.neg_or_self() } else { value }
    }

    /// A magnitude between `2^-E` and just past the safe range, spread
    /// evenly over the exponents.
    fn log_uniform(&mut self, tag: u8) -> S {
        let max = S::MAX_COORD.to_f64();
        let top = max.log2().round() as i32;
        let bottom = if S::RELATIVE == 0.0 { -(S::STEP.log2().round() as i32) } else { 40 };
        let span = (top + bottom + 1).max(1) as u32;
        let exponent = (u32::from(self.byte()) % span) as i32 - bottom;
        let mantissa = 1.0 + f64::from(self.u32()) / 4_294_967_296.0;
        let magnitude = mantissa * 2_f64.powi(exponent);
        S::from_f64(if tag & 1 == 0 { magnitude } else { -magnitude })
    }

    fn remember_value(&mut self, value: S) {
        if self.values.len() == POOL {
            self.values.remove(0);
        }
        self.values.push(value);
    }

    /// The next point: an earlier point again (about one time in eight),
    /// one step beside an earlier point (one in sixteen), or two new
    /// numbers.
    pub fn point(&mut self) -> Vec2<S> {
        let tag = self.byte();
        let n = self.points.len();
        let p = match tag {
            0..=31 if n > 0 => self.points[usize::from(tag) % n],
            32..=47 if n > 0 => {
                let p = self.points[usize::from(tag) % n];
                let steps = if tag & 1 == 0 { 1 } else { -1 };
                match tag & 6 {
                    0 => Vec2::new(p.x.nudge(steps), p.y),
                    2 => Vec2::new(p.x, p.y.nudge(steps)),
                    _ => Vec2::new(p.x.nudge(steps), p.y.nudge(-steps)),
                }
            }
            _ => Vec2::new(self.scalar(), self.scalar()),
        };
        if self.points.len() == POOL {
            self.points.remove(0);
        }
        self.points.push(p);
        p
    }

    /// A segment from two points, through [`Segment::new`]; `None` when it
    /// refuses them, after checking that it refused exactly the documented
    /// bad input with the documented error.
    ///
    /// # Panics
    ///
    /// When the constructor's answer is not the documented one.
    pub fn segment(&mut self) -> Option<Segment<S>> {
        let (start, end) = (self.point(), self.point());
        let result = Segment::new(start, end);
        expect_constructor("Segment::new", result.map(|_| ()), &[start.x, start.y, end.x, end.y], None);
        result.ok()
    }

    /// A circle, through [`Circle::new`] (see [`segment`](Self::segment)).
    ///
    /// # Panics
    ///
    /// When the constructor's answer is not the documented one.
    pub fn circle(&mut self) -> Option<Circle<S>> {
        let (center, radius) = (self.point(), self.radius());
        let result = Circle::new(center, radius);
        expect_constructor("Circle::new", result.map(|_| ()), &[center.x, center.y], Some(radius));
        result.ok()
    }

    /// A capsule, through [`Capsule::new`] (see [`segment`](Self::segment)).
    ///
    /// # Panics
    ///
    /// When the constructor's answer is not the documented one.
    pub fn capsule(&mut self) -> Option<Capsule<S>> {
        let (start, end, radius) = (self.point(), self.point(), self.radius());
        let result = Capsule::new(start, end, radius);
        expect_constructor("Capsule::new", result.map(|_| ()), &[start.x, start.y, end.x, end.y], Some(radius));
        result.ok()
    }
}

/// The special value number `index` (modulo their count) of type `S`.
///
/// # Examples
///
/// ```
/// use geom_core::Scalar;
/// use geom_test::fuzz::special;
///
/// assert_eq!(special::<f32>(0), 0.0);
/// assert_eq!(special::<f32>(6), f32::MAX_COORD);
/// assert_eq!(special::<f32>(9), f32::MAX_COORD.next_up()); // just outside
/// ```
pub fn special<S: FuzzScalar>(index: u8) -> S {
    let max = S::MAX_COORD;
    let half = S::from_f64(0.5);
    let generic = [
        S::ZERO,
        S::ONE,
        -S::ONE,
        half,
        S::ZERO.nudge(1),
        S::ZERO.nudge(-1),
        max,
        -max,
        max.nudge(-1),
        max.nudge(1),
        (-max).nudge(1),
        (-max).nudge(-1),
        max * half,
        max + max,
        -(max + max),
        S::from_f64(S::MAX_COORD.to_f64().sqrt()),
    ];
    let i = usize::from(index) % (generic.len() + S::EXTREMES.len());
    generic.get(i).copied().unwrap_or_else(|| S::EXTREMES[i - generic.len()])
}

/// The error a shape constructor must return for these coordinates and
/// radius, checked in the documented order: each coordinate (NaN or
/// infinite, then out of range), then the radius (NaN or infinite, then
/// negative, then out of range).
fn expected_shape_error<S: FuzzScalar>(coordinates: &[S], radius: Option<S>) -> Option<ShapeError> {
    let in_range = |v: S| v <= S::MAX_COORD && v >= -S::MAX_COORD;
    for &v in coordinates {
        if !FuzzScalar::is_finite(v) {
            return Some(ShapeError::NotFinite);
        }
        if !in_range(v) {
            return Some(ShapeError::out_of_range(v));
        }
    }
    let r = radius?;
    if !FuzzScalar::is_finite(r) {
        Some(ShapeError::NotFinite)
    } else if r < S::ZERO {
        Some(ShapeError::NegativeRadius)
    } else if !in_range(r) {
        Some(ShapeError::OutOfRange(RangeError::radius(r)))
    } else {
        None
    }
}

/// Property: a shape constructor refuses exactly the documented bad input,
/// with the documented typed error, and accepts everything else.
fn expect_constructor<S: FuzzScalar>(what: &str, result: Result<(), ShapeError>, coordinates: &[S], radius: Option<S>) {
    let expected = expected_shape_error(coordinates, radius);
    assert_eq!(
        result.err(),
        expected,
        "{}: {what} answered {result:?} for coordinates {coordinates:?}, radius {radius:?}",
        S::NAME
    );
}
