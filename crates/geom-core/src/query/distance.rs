//! Distances from a point to a segment.

use super::kernel::{clamp_to_range, point_segment};
use crate::scalar::Scalar;
use crate::shape::Segment;
use crate::vec2::Vec2;

/// The squared distance from `p` to `segment`, in [`Scalar::Wide`].
///
/// For fixed-point types this is the exact squared distance rounded once to
/// nearest in `Wide` (`I16F16` → `I32F32`), which holds every squared
/// distance in the safe range; for floats it is computed in `f64` and
/// rounded to `S`. A point outside the safe range is first clamped into it.
///
/// # Examples
///
/// ```
/// use fixed::types::{I16F16, I32F32};
/// use geom_core::{distance_squared_point_segment, Segment, Vec2};
///
/// let v = |x: i32, y: i32| Vec2::new(I16F16::from_num(x), I16F16::from_num(y));
/// let wall = Segment::new(v(0, -100), v(0, 100)).unwrap();
/// // 300² = 90 000 does not fit in I16F16; it does in its Wide type.
/// assert_eq!(distance_squared_point_segment(v(300, 0), &wall), I32F32::from_num(90_000));
///
/// let s = Segment::new(Vec2::new(0.0_f32, 0.0), Vec2::new(1.0, 0.0)).unwrap();
/// assert_eq!(distance_squared_point_segment(Vec2::new(4.0, 4.0), &s), 25.0);
/// ```
#[inline]
#[must_use]
pub fn distance_squared_point_segment<S: Scalar>(p: Vec2<S>, segment: &Segment<S>) -> S::Wide {
    point_segment(clamp_to_range(p), segment).dist2.squared::<S>()
}

/// The distance from `p` to `segment`, rounded once to nearest.
///
/// Computed from the exact squared distance (for fixed-point types), not
/// from the rounded closest point. A point outside the safe range is first
/// clamped into it.
///
/// # Examples
///
/// ```
/// use fixed::types::I16F16;
/// use geom_core::{distance_point_segment, Segment, Vec2};
///
/// let s = Segment::new(Vec2::new(0.0_f64, 0.0), Vec2::new(3.0, 0.0)).unwrap();
/// assert_eq!(distance_point_segment(Vec2::new(6.0, 4.0), &s), 5.0);
///
/// let v = |x: i32, y: i32| Vec2::new(I16F16::from_num(x), I16F16::from_num(y));
/// let s = Segment::new(v(0, 0), v(4, 4)).unwrap();
/// // √2 to the nearest 2^-16.
/// assert_eq!(distance_point_segment(v(0, 2), &s), I16F16::from_num(1.41421));
/// ```
#[inline]
#[must_use]
pub fn distance_point_segment<S: Scalar>(p: Vec2<S>, segment: &Segment<S>) -> S {
    point_segment(clamp_to_range(p), segment).distance()
}
