//! Closest points: of a segment to a point, and of two segments to each
//! other.

use super::kernel::{SegmentFeature, clamp_to_range, endpoint_relations, point_segment};
use crate::scalar::Scalar;
use crate::shape::Segment;
use crate::vec2::Vec2;

/// The point of a segment closest to a query point.
///
/// # Examples
///
/// ```
/// use geom_core::{closest_point_point_segment, Segment, SegmentFeature, Vec2};
///
/// let s = Segment::new(Vec2::new(0.0_f64, 0.0), Vec2::new(4.0, 0.0)).unwrap();
/// let c = closest_point_point_segment(Vec2::new(1.0, 3.0), &s);
/// assert_eq!(c, geom_core::ClosestPoint { point: Vec2::new(1.0, 0.0), t: 0.25, feature: SegmentFeature::Interior });
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoint<S> {
    /// The closest point on the segment.
    pub point: Vec2<S>,
    /// Its parameter along the segment, clamped to `[0, 1]`:
    /// `point ≈ start + t·(end − start)`.
    pub t: S,
    /// Which part of the segment it lies on.
    pub feature: SegmentFeature,
}

/// The closest point of `segment` to `p`.
///
/// The projection of `p` onto the segment's line is clamped to the segment
/// (not extended past its ends), so the answer lies on the segment. For
/// fixed-point types the feature is decided exactly and `point` and `t` are
/// the exact values rounded once to nearest; swapping the segment's
/// endpoints gives a bit-identical `point` in every scalar type (`t` becomes
/// `1 − t` and `Start` and `End` trade places). A zero-length segment
/// reports its point, `t = 0` and [`SegmentFeature::Start`].
///
/// A point outside the safe range is first clamped into it.
///
/// # Examples
///
/// ```
/// use fixed::types::I16F16;
/// use geom_core::{closest_point_point_segment, Segment, SegmentFeature, Vec2};
///
/// let v = |x: f32, y: f32| Vec2::new(I16F16::from_num(x), I16F16::from_num(y));
/// let s = Segment::new(v(0.0, 0.0), v(10.0, 0.0)).unwrap();
///
/// let inside = closest_point_point_segment(v(2.5, -4.0), &s);
/// assert_eq!(inside.point, v(2.5, 0.0));
/// assert_eq!(inside.t, I16F16::from_num(0.25));
///
/// let before = closest_point_point_segment(v(-3.0, 1.0), &s);
/// assert_eq!((before.point, before.feature), (v(0.0, 0.0), SegmentFeature::Start));
/// ```
///
/// # See also
///
/// [`distance_point_segment`](crate::distance_point_segment) for the
/// distance to that point.
#[inline]
#[must_use]
pub fn closest_point_point_segment<S: Scalar>(p: Vec2<S>, segment: &Segment<S>) -> ClosestPoint<S> {
    let k = point_segment(clamp_to_range(p), segment);
    ClosestPoint { point: k.closest(), t: k.t(), feature: k.feature() }
}

/// The closest points of two segments.
///
/// # Examples
///
/// ```
/// use geom_core::{closest_points_segment_segment, Segment, Vec2};
///
/// let a = Segment::new(Vec2::new(0.0_f32, 1.0), Vec2::new(4.0, 1.0)).unwrap();
/// let b = Segment::new(Vec2::new(2.0_f32, -3.0), Vec2::new(2.0, -1.0)).unwrap();
/// let c = closest_points_segment_segment(&a, &b);
/// assert_eq!((c.a, c.b, c.distance), (Vec2::new(2.0, 1.0), Vec2::new(2.0, -1.0), 2.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoints<S> {
    /// The closest point on the first segment.
    pub a: Vec2<S>,
    /// The closest point on the second segment.
    pub b: Vec2<S>,
    /// The distance between them (zero when the segments touch or cross).
    pub distance: S,
}

/// The closest points of segments `a` and `b`: the segment–segment query
/// behind [`contact_capsule_capsule`](crate::contact_capsule_capsule).
///
/// When the segments cross, both points are the crossing point. When they
/// are parallel and overlap, or several pairs are equally close, the pair
/// through the first endpoint in the order `a.start`, `a.end`, `b.start`,
/// `b.end` is returned. Whether the segments touch or cross is decided
/// exactly for fixed-point types; the points and the distance are rounded
/// once each.
///
/// # Examples
///
/// ```
/// use fixed::types::I32F32;
/// use geom_core::{closest_points_segment_segment, Segment, Vec2};
///
/// let v = |x: i32, y: i32| Vec2::new(I32F32::from_num(x), I32F32::from_num(y));
/// let a = Segment::new(v(-2, -2), v(2, 2)).unwrap();
/// let b = Segment::new(v(-2, 2), v(2, -2)).unwrap();
/// let c = closest_points_segment_segment(&a, &b);
/// assert_eq!((c.a, c.b, c.distance), (v(0, 0), v(0, 0), I32F32::ZERO));
/// ```
#[inline]
#[must_use]
pub fn closest_points_segment_segment<S: Scalar>(a: &Segment<S>, b: &Segment<S>) -> ClosestPoints<S> {
    let k = endpoint_relations(a, b).closest(a, b);
    ClosestPoints { a: k.on_a, b: k.on_b, distance: k.dist2.distance() }
}
