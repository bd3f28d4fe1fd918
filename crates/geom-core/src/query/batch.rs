//! Batch intersection tests: one shape against a slice of others, answers
//! written into the caller's buffer.
//!
//! Each answer is bit for bit the single query's (the same kernel runs for
//! every element); the batch form saves the per-call overhead and lets
//! the compiler keep the shared operand in registers. No allocation: the caller owns the output slice, which
//! must be as long as the input.

use core::fmt;

use super::kernel::{narrow_reach, within_point, within_segment};
use crate::scalar::Scalar;
use crate::shape::{Capsule, Circle, Segment};

/// The output buffer of a batch query is shorter or longer than its input.
///
/// Nothing is written when this is returned.
///
/// # Examples
///
/// ```
/// use geom_core::query::batch::{intersects_circle_segments, LengthMismatch};
/// use geom_core::{Circle, Segment, Vec2};
///
/// let ball = Circle::new(Vec2::new(0.0_f32, 0.0), 1.0).unwrap();
/// let walls = [Segment::new(Vec2::new(-1.0, 0.5), Vec2::new(1.0, 0.5)).unwrap(); 3];
/// let mut hits = [false; 2];
/// let error = intersects_circle_segments(&ball, &walls, &mut hits).unwrap_err();
/// assert_eq!(error, LengthMismatch { inputs: 3, outputs: 2 });
/// assert_eq!(hits, [false; 2]); // untouched
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthMismatch {
    /// How many shapes were given.
    pub inputs: usize,
    /// How long the output buffer was.
    pub outputs: usize,
}

impl fmt::Display for LengthMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a batch of {} shapes needs an output buffer of that length, not {}", self.inputs, self.outputs)
    }
}

impl core::error::Error for LengthMismatch {}

/// Writes `test(item)` into `out` for every item, and returns how many
/// were true; nothing is written when the lengths differ.
#[inline]
fn batch<T>(items: &[T], out: &mut [bool], test: impl Fn(&T) -> bool) -> Result<usize, LengthMismatch> {
    if items.len() != out.len() {
        return Err(LengthMismatch { inputs: items.len(), outputs: out.len() });
    }
    let mut hits = 0;
    for (item, slot) in items.iter().zip(out.iter_mut()) {
        let hit = test(item);
        *slot = hit;
        hits += usize::from(hit);
    }
    Ok(hits)
}

/// For every segment, whether `circle` overlaps or touches it: `out[i]` is
/// [`intersects_circle_segment`](crate::intersects_circle_segment)`(circle,
/// &segments[i])`. Returns the number of hits.
///
/// # Errors
///
/// [`LengthMismatch`] when `out` is not as long as `segments`; nothing is
/// written then.
///
/// # Examples
///
/// ```
/// use fixed::types::I16F16;
/// use geom_core::query::batch::intersects_circle_segments;
/// use geom_core::{Circle, Segment, Vec2};
///
/// let v = |x: i32, y: i32| Vec2::new(I16F16::from_num(x), I16F16::from_num(y));
/// let ball = Circle::new(v(0, 0), I16F16::from_num(2)).unwrap();
/// let walls = [
///     Segment::new(v(-5, 2), v(5, 2)).unwrap(), // touching
///     Segment::new(v(-5, 3), v(5, 3)).unwrap(), // apart
/// ];
/// let mut hits = [false; 2];
/// assert_eq!(intersects_circle_segments(&ball, &walls, &mut hits), Ok(1));
/// assert_eq!(hits, [true, false]);
/// ```
#[inline]
pub fn intersects_circle_segments<S: Scalar>(
    circle: &Circle<S>,
    segments: &[Segment<S>],
    out: &mut [bool],
) -> Result<usize, LengthMismatch> {
    let (center, radius) = (circle.center(), circle.radius().to_narrow());
    batch(segments, out, |segment| within_segment(center, segment, radius))
}

/// For every circle, whether it overlaps or touches `segment`: `out[i]` is
/// [`intersects_circle_segment`](crate::intersects_circle_segment)`(&circles[i],
/// segment)`. Returns the number of hits.
///
/// # Errors
///
/// [`LengthMismatch`] when `out` is not as long as `circles`; nothing is
/// written then.
///
/// # Examples
///
/// ```
/// use geom_core::query::batch::intersects_circles_segment;
/// use geom_core::{Circle, Segment, Vec2};
///
/// let floor = Segment::new(Vec2::new(-10.0_f64, 0.0), Vec2::new(10.0, 0.0)).unwrap();
/// let balls = [Circle::new(Vec2::new(0.0, 1.0), 1.0).unwrap(), Circle::new(Vec2::new(12.0, 1.0), 1.0).unwrap()];
/// let mut hits = [false; 2];
/// assert_eq!(intersects_circles_segment(&balls, &floor, &mut hits), Ok(1));
/// assert_eq!(hits, [true, false]); // the second is past the rounded end
/// ```
#[inline]
pub fn intersects_circles_segment<S: Scalar>(
    circles: &[Circle<S>],
    segment: &Segment<S>,
    out: &mut [bool],
) -> Result<usize, LengthMismatch> {
    batch(circles, out, |circle| within_segment(circle.center(), segment, circle.radius().to_narrow()))
}

/// For every capsule, whether `circle` overlaps or touches it: `out[i]` is
/// [`intersects_circle_capsule`](crate::intersects_circle_capsule)`(circle,
/// &capsules[i])`. Returns the number of hits.
///
/// # Errors
///
/// [`LengthMismatch`] when `out` is not as long as `capsules`; nothing is
/// written then.
///
/// # Examples
///
/// ```
/// use geom_core::query::batch::intersects_circle_capsules;
/// use geom_core::{Capsule, Circle, Vec2};
///
/// let ball = Circle::new(Vec2::new(0.0_f32, 0.0), 1.0).unwrap();
/// let paddles = [
///     Capsule::new(Vec2::new(-3.0, 1.5), Vec2::new(3.0, 1.5), 0.5).unwrap(), // touching
///     Capsule::new(Vec2::new(-3.0, 3.0), Vec2::new(3.0, 3.0), 0.5).unwrap(), // apart
/// ];
/// let mut hits = [false; 2];
/// assert_eq!(intersects_circle_capsules(&ball, &paddles, &mut hits), Ok(1));
/// assert_eq!(hits, [true, false]);
/// ```
#[inline]
pub fn intersects_circle_capsules<S: Scalar>(
    circle: &Circle<S>,
    capsules: &[Capsule<S>],
    out: &mut [bool],
) -> Result<usize, LengthMismatch> {
    let center = circle.center();
    batch(capsules, out, |capsule| {
        within_segment(center, &capsule.segment(), narrow_reach(circle.radius(), capsule.radius()))
    })
}

/// For every circle, whether it overlaps or touches `capsule`: `out[i]` is
/// [`intersects_circle_capsule`](crate::intersects_circle_capsule)`(&circles[i],
/// capsule)`. Returns the number of hits.
///
/// # Errors
///
/// [`LengthMismatch`] when `out` is not as long as `circles`; nothing is
/// written then.
///
/// # Examples
///
/// ```
/// use geom_core::query::batch::intersects_circles_capsule;
/// use geom_core::{Capsule, Circle, Vec2};
///
/// let paddle = Capsule::new(Vec2::new(0.0_f64, 0.0), Vec2::new(4.0, 0.0), 1.0).unwrap();
/// let balls = [Circle::new(Vec2::new(6.0, 0.0), 1.0).unwrap(), Circle::new(Vec2::new(6.0, 0.5), 1.0).unwrap()];
/// let mut hits = [false; 2];
/// assert_eq!(intersects_circles_capsule(&balls, &paddle, &mut hits), Ok(1));
/// assert_eq!(hits, [true, false]);
/// ```
#[inline]
pub fn intersects_circles_capsule<S: Scalar>(
    circles: &[Circle<S>],
    capsule: &Capsule<S>,
    out: &mut [bool],
) -> Result<usize, LengthMismatch> {
    let core = capsule.segment();
    batch(circles, out, |circle| {
        within_segment(circle.center(), &core, narrow_reach(circle.radius(), capsule.radius()))
    })
}

/// For every circle in `others`, whether it overlaps or touches `circle`:
/// `out[i]` is
/// [`intersects_circle_circle`](crate::intersects_circle_circle)`(circle,
/// &others[i])`. Returns the number of hits.
///
/// # Errors
///
/// [`LengthMismatch`] when `out` is not as long as `others`; nothing is
/// written then.
///
/// # Examples
///
/// ```
/// use fixed::types::I32F32;
/// use geom_core::query::batch::intersects_circle_circles;
/// use geom_core::{Circle, Vec2};
///
/// let v = |x: i32, y: i32| Vec2::new(I32F32::from_num(x), I32F32::from_num(y));
/// let a = Circle::new(v(0, 0), I32F32::from_num(2)).unwrap();
/// let others = [Circle::new(v(3, 4), I32F32::from_num(3)).unwrap(), Circle::new(v(3, 4), I32F32::from_num(2)).unwrap()];
/// let mut hits = [false; 2];
/// assert_eq!(intersects_circle_circles(&a, &others, &mut hits), Ok(1));
/// assert_eq!(hits, [true, false]); // distance 5: touching, then apart
/// ```
#[inline]
pub fn intersects_circle_circles<S: Scalar>(
    circle: &Circle<S>,
    others: &[Circle<S>],
    out: &mut [bool],
) -> Result<usize, LengthMismatch> {
    batch(others, out, |other| {
        within_point(circle.center(), other.center(), narrow_reach(circle.radius(), other.radius()))
    })
}
