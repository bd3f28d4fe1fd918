//! Intersection tests: do two shapes overlap or touch?
//!
//! Each test is decided exactly for fixed-point types: the squared distance
//! is compared with the squared radius as integers wide enough to hold both,
//! with no division or square root before the comparison.

use super::kernel::{narrow_reach, segments_within, within_point, within_segment};
use crate::scalar::Scalar;
use crate::shape::{Capsule, Circle, Segment};

/// Whether `circle` and `segment` overlap or touch.
///
/// True exactly when [`contact_circle_segment`](crate::contact_circle_segment)
/// is `Some`. The distance is measured to the segment itself (the
/// projection is clamped to its ends), so points beyond an end are tested
/// against the rounded end cap, not a square corner.
///
/// # Examples
///
/// ```
/// use fixed::types::I16F16;
/// use geom_core::{intersects_circle_segment, Circle, Segment, Vec2};
///
/// let v = |x: i32, y: i32| Vec2::new(I16F16::from_num(x), I16F16::from_num(y));
/// let floor = Segment::new(v(-10, 0), v(10, 0)).unwrap();
/// let resting = Circle::new(v(3, 2), I16F16::from_num(2)).unwrap();
/// assert!(intersects_circle_segment(&resting, &floor)); // touching counts
///
/// let corner = Circle::new(v(12, 2), I16F16::from_num(2)).unwrap();
/// assert!(!intersects_circle_segment(&corner, &floor)); // beyond the rounded end
/// ```
#[inline]
#[must_use]
pub fn intersects_circle_segment<S: Scalar>(circle: &Circle<S>, segment: &Segment<S>) -> bool {
    within_segment(circle.center(), segment, circle.radius().to_narrow())
}

/// Whether `circle` and `capsule` overlap or touch: the circle's centre is
/// within the sum of the radii of the capsule's core segment.
///
/// True exactly when [`contact_circle_capsule`](crate::contact_circle_capsule)
/// is `Some`.
///
/// # Examples
///
/// ```
/// use geom_core::{intersects_circle_capsule, Capsule, Circle, Vec2};
///
/// let paddle = Capsule::new(Vec2::new(0.0_f32, 0.0), Vec2::new(4.0, 0.0), 1.0).unwrap();
/// let ball = Circle::new(Vec2::new(6.0, 0.0), 1.0).unwrap();
/// assert!(intersects_circle_capsule(&ball, &paddle));
/// let away = Circle::new(Vec2::new(6.0, 0.5), 1.0).unwrap();
/// assert!(!intersects_circle_capsule(&away, &paddle));
/// ```
#[inline]
#[must_use]
pub fn intersects_circle_capsule<S: Scalar>(circle: &Circle<S>, capsule: &Capsule<S>) -> bool {
    within_segment(circle.center(), &capsule.segment(), narrow_reach(circle.radius(), capsule.radius()))
}

/// Whether two circles overlap or touch.
///
/// True exactly when [`contact_circle_circle`](crate::contact_circle_circle)
/// is `Some`.
///
/// # Examples
///
/// ```
/// use fixed::types::I32F32;
/// use geom_core::{intersects_circle_circle, Circle, Vec2};
///
/// let v = |x: i32, y: i32| Vec2::new(I32F32::from_num(x), I32F32::from_num(y));
/// let a = Circle::new(v(0, 0), I32F32::from_num(2)).unwrap();
/// let b = Circle::new(v(3, 4), I32F32::from_num(3)).unwrap();
/// assert!(intersects_circle_circle(&a, &b)); // distance 5 = 2 + 3
/// ```
#[inline]
#[must_use]
pub fn intersects_circle_circle<S: Scalar>(a: &Circle<S>, b: &Circle<S>) -> bool {
    within_point(a.center(), b.center(), narrow_reach(a.radius(), b.radius()))
}

/// Whether two capsules overlap or touch: their core segments cross, or
/// come within the sum of the radii of each other.
///
/// True exactly when
/// [`contact_capsule_capsule`](crate::contact_capsule_capsule) is `Some`.
///
/// # Examples
///
/// ```
/// use geom_core::{intersects_capsule_capsule, Capsule, Vec2};
///
/// let a = Capsule::new(Vec2::new(0.0_f64, 0.0), Vec2::new(4.0, 0.0), 0.5).unwrap();
/// let b = Capsule::new(Vec2::new(2.0, 1.0), Vec2::new(2.0, 5.0), 0.5).unwrap();
/// assert!(intersects_capsule_capsule(&a, &b)); // gap 1 = 0.5 + 0.5
/// ```
#[inline]
#[must_use]
pub fn intersects_capsule_capsule<S: Scalar>(a: &Capsule<S>, b: &Capsule<S>) -> bool {
    segments_within(&a.segment(), &b.segment(), narrow_reach(a.radius(), b.radius()))
}
