//! `proptest` strategies for scenes inside a scalar type's safe range.
//!
//! Coordinates come at four scales (unit, tens, thousands and the edge of
//! the safe range). Points are placed anywhere, near a segment, exactly on
//! it or on an end point; segments are sometimes zero-length or axis-aligned;
//! radii are mostly chosen within a few rounding steps of the exact touching
//! distance, where an inexact test would go wrong.
//!
//! Each public strategy is used in `proptest!` blocks; outside one, a value
//! can be drawn with a `TestRunner`:
//!
//! ```
//! use geom_core::Scalar;
//! use geom_test::strategy;
//! use proptest::strategy::{Strategy, ValueTree};
//! use proptest::test_runner::TestRunner;
//!
//! let mut runner = TestRunner::deterministic();
//! let (p, segment) = strategy::point_segment::<f32>().new_tree(&mut runner).unwrap().current();
//! assert!(p.x.abs() <= f32::MAX_COORD && segment.start().y.abs() <= f32::MAX_COORD);
//! ```

use geom_core::{Capsule, Circle, Scalar, Segment, Vec2};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;

use crate::oracle::{self, Q};
use crate::{Testable, qvec, vec_to_f64};

/// The scales scenes are drawn at, as powers of two: `2^0`, `2^4`, `2^10`,
/// and the safe range itself.
fn scale<S: Testable>() -> impl Strategy<Value = f64> {
    let max = S::MAX_COORD.to_f64();
    prop_oneof![Just(1.0_f64.min(max)), Just(16.0_f64.min(max)), Just(1024.0_f64.min(max)), Just(max)]
}

/// A value in `[-scale, scale]`: uniform over the type's grid for fixed
/// point; uniform or on a coarse dyadic grid (where exact ties happen) for
/// floats.
fn coord<S: Testable>(scale: f64) -> BoxedStrategy<S> {
    S::arbitrary(scale)
}

/// A point in `[-scale, scale]²`.
fn point<S: Testable>(scale: f64) -> BoxedStrategy<Vec2<S>> {
    (coord::<S>(scale), coord::<S>(scale)).prop_map(|(x, y)| Vec2::new(x, y)).boxed()
}

/// A segment at the given scale: general, zero-length, or axis-aligned.
fn segment_at<S: Testable>(scale: f64) -> BoxedStrategy<Segment<S>> {
    prop_oneof![
        6 => (point::<S>(scale), point::<S>(scale)),
        1 => point::<S>(scale).prop_map(|p| (p, p)),
        1 => (point::<S>(scale), coord::<S>(scale)).prop_map(|(p, x)| (p, Vec2::new(x, p.y))),
        1 => (point::<S>(scale), coord::<S>(scale)).prop_map(|(p, y)| (p, Vec2::new(p.x, y))),
    ]
    .prop_map(|(a, b)| Segment::new(a, b).expect("generated in range"))
    .boxed()
}

/// A point anywhere at the segment's scale, near it, exactly on it (at a
/// dyadic parameter), or on an end point.
fn point_near<S: Testable>(segment: Segment<S>, scale: f64) -> BoxedStrategy<Vec2<S>> {
    let (a, b) = (segment.start(), segment.end());
    let on = (0_u32..=64).prop_map(move |k| {
        // a + (b − a)·k/64, rounded to the grid: on the segment or one
        // rounding step off it.
        let t = f64::from(k) / 64.0;
        let lerp = |p: S, q: S| S::from_f64(p.to_f64() + (q.to_f64() - p.to_f64()) * t);
        Vec2::new(lerp(a.x, b.x), lerp(a.y, b.y))
    });
    let near = (on.clone(), -8_i32..=8, -8_i32..=8).prop_map(|(p, dx, dy)| Vec2::new(p.x.nudge(dx), p.y.nudge(dy)));
    prop_oneof![
        3 => point::<S>(scale),
        2 => near,
        1 => on,
        1 => Just(a),
        1 => Just(b),
    ]
    .prop_map(clamp_point)
    .boxed()
}

/// The documented saturation of a bare point or motion: each component
/// clamped to `±MAX_COORD` (a NaN stays NaN). Written here rather than
/// taken from `geom-core`, so that the checks hold the library to it.
pub(crate) fn clamp_point<S: Scalar>(p: Vec2<S>) -> Vec2<S> {
    let clamp = |v: S| {
        if v > S::MAX_COORD {
            S::MAX_COORD
        } else if v < -S::MAX_COORD {
            -S::MAX_COORD
        } else {
            v
        }
    };
    Vec2::new(clamp(p.x), clamp(p.y))
}

/// A query point and a segment.
///
/// # Examples
///
/// ```
/// use geom_test::strategy;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let (p, s) = strategy::point_segment::<fixed::types::I16F16>().new_tree(&mut runner).unwrap().current();
/// assert!(geom_core::distance_point_segment(p, &s) >= 0);
/// ```
pub fn point_segment<S: Testable>() -> BoxedStrategy<(Vec2<S>, Segment<S>)> {
    scale::<S>()
        .prop_flat_map(|scale| segment_at::<S>(scale).prop_flat_map(move |s| (point_near(s, scale), Just(s))))
        .boxed()
}

/// A radius near the exact distance `√dist2`: mostly within a few rounding
/// steps of touching, sometimes anywhere up to twice the distance (or the
/// scale). Always in the safe range.
fn radius_near<S: Testable>(dist2: &Q, scale: f64) -> BoxedStrategy<S> {
    let touching = S::sqrt_floor(dist2);
    let clamp = |r: S| {
        if r < S::ZERO {
            S::ZERO
        } else if r > S::MAX_COORD {
            S::MAX_COORD
        } else {
            r
        }
    };
    let anywhere = (0.0..=2.0_f64).prop_map(move |u| clamp(S::from_f64(u * touching.to_f64().max(scale / 8.0))));
    prop_oneof![
        3 => (-3_i32..=3).prop_map(move |k| clamp(touching.nudge(k))),
        1 => anywhere,
    ]
    .boxed()
}

/// A circle and a segment, mostly near touching.
///
/// # Examples
///
/// ```
/// use geom_test::strategy;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let (c, s) = strategy::circle_segment::<f64>().new_tree(&mut runner).unwrap().current();
/// assert!(c.radius() >= 0.0 && s.start().x.is_finite());
/// ```
pub fn circle_segment<S: Testable>() -> BoxedStrategy<(Circle<S>, Segment<S>)> {
    scale::<S>()
        .prop_flat_map(|scale| {
            segment_at::<S>(scale).prop_flat_map(move |s| (point_near(s, scale), Just(s))).prop_flat_map(
                move |(c, s)| {
                    let d2 = oracle::dist2_point_segment(&qvec(c), &qvec(s.start()), &qvec(s.end()));
                    (radius_near::<S>(&d2, scale), Just((c, s)))
                },
            )
        })
        .prop_map(|(r, (c, s))| (Circle::new(c, r).expect("in range"), s))
        .boxed()
}

/// Splits a total reach `reach` into two radii whose exact sum is `reach`
/// (or within a rounding step of it, for floats).
fn split<S: Testable>(reach: S) -> BoxedStrategy<(S, S)> {
    (0_u32..=8)
        .prop_map(move |k| {
            let first = S::from_f64(reach.to_f64() * f64::from(k) / 8.0);
            let first = if first > reach { reach } else { first };
            (first, reach - first)
        })
        .boxed()
}

/// A circle and a capsule, mostly near touching.
///
/// # Examples
///
/// ```
/// use geom_test::strategy;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let (c, k) = strategy::circle_capsule::<f32>().new_tree(&mut runner).unwrap().current();
/// assert!(c.radius() >= 0.0 && k.radius() >= 0.0);
/// ```
pub fn circle_capsule<S: Testable>() -> BoxedStrategy<(Circle<S>, Capsule<S>)> {
    circle_segment::<S>()
        .prop_flat_map(|(c, s)| (split(c.radius()), Just((c, s))))
        .prop_map(|((rc, rs), (c, s))| {
            (Circle::new(c.center(), rc).expect("in range"), Capsule::new(s.start(), s.end(), rs).expect("in range"))
        })
        .boxed()
}

/// Two circles, mostly near touching, sometimes concentric.
///
/// # Examples
///
/// ```
/// use geom_test::strategy;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let (a, b) = strategy::circle_circle::<fixed::types::I32F32>().new_tree(&mut runner).unwrap().current();
/// assert!(a.radius() >= 0 && b.radius() >= 0);
/// ```
pub fn circle_circle<S: Testable>() -> BoxedStrategy<(Circle<S>, Circle<S>)> {
    scale::<S>()
        .prop_flat_map(|scale| {
            let centres = prop_oneof![
                4 => (point::<S>(scale), point::<S>(scale)),
                1 => point::<S>(scale).prop_map(|p| (p, p)),
            ];
            centres.prop_flat_map(move |(a, b)| {
                let d2 = qvec(a).sub(&qvec(b)).length_squared();
                (radius_near::<S>(&d2, scale), Just((a, b)))
            })
        })
        .prop_flat_map(|(reach, centres)| (split(reach), Just(centres)))
        .prop_map(|((ra, rb), (a, b))| (Circle::new(a, ra).expect("in range"), Circle::new(b, rb).expect("in range")))
        .boxed()
}

/// Two capsules, mostly near touching; their cores sometimes cross, touch,
/// or degenerate to points.
///
/// # Examples
///
/// ```
/// use geom_test::strategy;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let (a, b) = strategy::capsule_capsule::<f64>().new_tree(&mut runner).unwrap().current();
/// assert!(a.radius() >= 0.0 && b.radius() >= 0.0);
/// ```
pub fn capsule_capsule<S: Testable>() -> BoxedStrategy<(Capsule<S>, Capsule<S>)> {
    scale::<S>()
        .prop_flat_map(|scale| {
            segment_at::<S>(scale).prop_flat_map(move |a| {
                let b = prop_oneof![
                    2 => segment_at::<S>(scale),
                    2 => (point_near(a, scale), point::<S>(scale)).prop_map(|(p, q)| Segment::new(p, q).expect("in range")),
                ];
                (Just(a), b).prop_flat_map(move |(a, b)| {
                    let d2 = oracle::dist2_segment_segment(
                        &qvec(a.start()),
                        &qvec(a.end()),
                        &qvec(b.start()),
                        &qvec(b.end()),
                    );
                    (radius_near::<S>(&d2, scale), Just((a, b)))
                })
            })
        })
        .prop_flat_map(|(reach, cores)| (split(reach), Just(cores)))
        .prop_map(|((ra, rb), (a, b))| {
            (
                Capsule::new(a.start(), a.end(), ra).expect("in range"),
                Capsule::new(b.start(), b.end(), rb).expect("in range"),
            )
        })
        .boxed()
}

/// `⌊√q⌋` on the grid of a fixed-point type with `frac` fractional bits: the
/// largest representable value whose square does not exceed `q`.
pub(crate) fn fixed_sqrt_floor_bits(q: &Q, frac: u32) -> BigInt {
    let scaled: BigInt = (q * Q::from_integer(BigInt::one() << (2 * frac))).floor().to_integer();
    if scaled.is_negative() || scaled.is_zero() { BigInt::zero() } else { scaled.sqrt() }
}

/// A motion for a circle at `c` near `segment`: anywhere at the scale, at a
/// point near the segment, along the segment, or none. Components stay
/// within the safe range, so the queries do not clamp them.
fn motion<S: Testable>(c: Vec2<S>, segment: Segment<S>, scale: f64) -> BoxedStrategy<Vec2<S>> {
    let (a, b) = (segment.start(), segment.end());
    let along = (-4_i32..=4).prop_map(move |k| {
        let f = f64::from(k) / 4.0;
        Vec2::new(S::from_f64((b.x.to_f64() - a.x.to_f64()) * f), S::from_f64((b.y.to_f64() - a.y.to_f64()) * f))
    });
    prop_oneof![
        3 => point::<S>(scale),
        3 => point_near(segment, scale).prop_map(move |target| Vec2::new(
            S::from_f64(target.x.to_f64() - c.x.to_f64()),
            S::from_f64(target.y.to_f64() - c.y.to_f64()),
        )),
        1 => along,
        1 => Just(Vec2::ZERO),
    ]
    .prop_map(clamp_point)
    .boxed()
}

/// The exact squared distance between a circle's path and a segment.
fn path_dist2<S: Testable>(c: Vec2<S>, m: Vec2<S>, s: &Segment<S>) -> Q {
    let start = qvec(c);
    oracle::dist2_segment_segment(&start, &start.add(&qvec(m)), &qvec(s.start()), &qvec(s.end()))
}

/// A circle, its motion over one tick, and a segment. The radius is mostly
/// within a few rounding steps of the path's exact distance from the segment
/// (a grazing sweep); motions aim anywhere, at the segment, along it, or
/// nowhere; segments and starting points are as in [`point_segment`].
///
/// # Examples
///
/// ```
/// use geom_test::strategy;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let (circle, motion, segment) = strategy::sweep_circle_segment::<f64>().new_tree(&mut runner).unwrap().current();
/// let _ = geom_core::sweep_circle_segment(&circle, motion, &segment);
/// ```
pub fn sweep_circle_segment<S: Testable>() -> BoxedStrategy<(Circle<S>, Vec2<S>, Segment<S>)> {
    scale::<S>()
        .prop_flat_map(|scale| {
            segment_at::<S>(scale)
                .prop_flat_map(move |s| (point_near(s, scale), Just(s)))
                .prop_flat_map(move |(c, s)| (Just(c), motion(c, s, scale), Just(s)))
                .prop_flat_map(move |(c, m, s)| (radius_near::<S>(&path_dist2(c, m, &s), scale), Just((c, m, s))))
        })
        .prop_map(|(r, (c, m, s))| (Circle::new(c, r).expect("in range"), m, s))
        .boxed()
}

/// A circle, its motion over one tick, and a capsule: as
/// [`sweep_circle_segment`], with the reach split between the two radii.
///
/// # Examples
///
/// ```
/// use geom_test::strategy;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let (circle, motion, capsule) = strategy::sweep_circle_capsule::<f32>().new_tree(&mut runner).unwrap().current();
/// let _ = geom_core::sweep_circle_capsule(&circle, motion, &capsule);
/// ```
pub fn sweep_circle_capsule<S: Testable>() -> BoxedStrategy<(Circle<S>, Vec2<S>, Capsule<S>)> {
    sweep_circle_segment::<S>()
        .prop_flat_map(|(c, m, s)| (split(c.radius()), Just((c, m, s))))
        .prop_map(|((rc, rs), (c, m, s))| {
            (Circle::new(c.center(), rc).expect("in range"), m, Capsule::new(s.start(), s.end(), rs).expect("in range"))
        })
        .boxed()
}

/// Two circles with their motions over one tick; the sum of the radii is
/// mostly within a few steps of the closest approach of their relative
/// motion.
///
/// # Examples
///
/// ```
/// use geom_test::strategy;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let (a, ma, b, mb) = strategy::sweep_circle_circle::<f32>().new_tree(&mut runner).unwrap().current();
/// let _ = geom_core::sweep_circle_circle(&a, ma, &b, mb);
/// ```
#[allow(clippy::type_complexity)]
pub fn sweep_circle_circle<S: Testable>() -> BoxedStrategy<(Circle<S>, Vec2<S>, Circle<S>, Vec2<S>)> {
    scale::<S>()
        .prop_flat_map(|scale| {
            (point::<S>(scale), point::<S>(scale))
                .prop_flat_map(move |(a, b)| {
                    let target = Segment::new(b, b).expect("in range");
                    (Just(a), motion(a, target, scale), Just(b), point::<S>(scale / 4.0))
                })
                .prop_flat_map(move |(a, ma, b, mb)| {
                    // The relative path, from a's view of a static b.
                    let start = qvec(a);
                    let end = start.add(&qvec(ma)).sub(&qvec(mb));
                    let d2 = oracle::dist2_point_segment(&qvec(b), &start, &end);
                    (radius_near::<S>(&d2, scale), Just((a, ma, b, mb)))
                })
        })
        .prop_flat_map(|(reach, centres)| (split(reach), Just(centres)))
        .prop_map(|((ra, rb), (a, ma, b, mb))| {
            (Circle::new(a, ra).expect("in range"), ma, Circle::new(b, rb).expect("in range"), mb)
        })
        .boxed()
}

/// Two cores with their motions over one tick, and the total reach: core
/// `a` is general or starts near `b`, and heads anywhere, at a point near
/// `b`, along `b`, or nowhere; `b` moves by up to a quarter of the scale
/// when `b_moves`, else not at all. The reach is mostly within a few
/// rounding steps of the cores' exact closest approach on the relative
/// motion (a grazing sweep). Zero-length cores come from [`segment_at`].
#[allow(clippy::type_complexity)]
fn moving_cores<S: Testable>(b_moves: bool) -> BoxedStrategy<(Segment<S>, Vec2<S>, Segment<S>, Vec2<S>, S)> {
    scale::<S>()
        .prop_flat_map(move |scale| {
            segment_at::<S>(scale)
                .prop_flat_map(move |b| {
                    let a = prop_oneof![
                        2 => segment_at::<S>(scale),
                        1 => (point_near(b, scale), point::<S>(scale)).prop_map(|(p, q)| Segment::new(p, q).expect("in range")),
                    ];
                    (a, Just(b))
                })
                .prop_flat_map(move |(a, b)| {
                    let motion_b = if b_moves {
                        prop_oneof![1 => Just(Vec2::ZERO), 2 => point::<S>(scale / 4.0)].boxed()
                    } else {
                        Just(Vec2::ZERO).boxed()
                    };
                    (Just(a), motion(a.start(), b, scale), Just(b), motion_b)
                })
                .prop_flat_map(move |(a, ma, b, mb)| {
                    let d2 = oracle::path_dist2_cores(
                        &qvec(a.start()),
                        &qvec(a.end()),
                        &qvec(ma).sub(&qvec(mb)),
                        &qvec(b.start()),
                        &qvec(b.end()),
                    );
                    (radius_near::<S>(&d2, scale), Just((a, ma, b, mb)))
                })
        })
        .prop_map(|(reach, (a, ma, b, mb))| (a, ma, b, mb, reach))
        .boxed()
}

/// Two capsules with their motions over one tick (the second sometimes
/// still), the sum of the radii mostly within a few steps of the cores'
/// closest approach on the relative motion; cores sometimes points (then
/// capsules are circles), crossing, or parallel along an axis.
///
/// # Examples
///
/// ```
/// use geom_test::strategy;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let (a, ma, b, mb) = strategy::sweep_capsule_capsule::<f32>().new_tree(&mut runner).unwrap().current();
/// let _ = geom_core::sweep_capsule_capsule(&a, ma, &b, mb);
/// ```
#[allow(clippy::type_complexity)]
pub fn sweep_capsule_capsule<S: Testable>() -> BoxedStrategy<(Capsule<S>, Vec2<S>, Capsule<S>, Vec2<S>)> {
    moving_cores::<S>(true)
        .prop_flat_map(|(a, ma, b, mb, reach)| (split(reach), Just((a, ma, b, mb))))
        .prop_map(|((ra, rb), (a, ma, b, mb))| {
            let capsule = |core: Segment<S>, r| Capsule::new(core.start(), core.end(), r).expect("in range");
            (capsule(a, ra), ma, capsule(b, rb), mb)
        })
        .boxed()
}

/// A capsule, its motion over one tick, and a static segment: as
/// [`sweep_capsule_capsule`] with the whole reach on the capsule.
///
/// # Examples
///
/// ```
/// use geom_test::strategy;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let (capsule, motion, segment) = strategy::sweep_capsule_segment::<f64>().new_tree(&mut runner).unwrap().current();
/// let _ = geom_core::sweep_capsule_segment(&capsule, motion, &segment);
/// ```
pub fn sweep_capsule_segment<S: Testable>() -> BoxedStrategy<(Capsule<S>, Vec2<S>, Segment<S>)> {
    moving_cores::<S>(false)
        .prop_map(|(a, ma, b, _, reach)| (Capsule::new(a.start(), a.end(), reach).expect("in range"), ma, b))
        .boxed()
}

/// Two segments with their motions over one tick (the second sometimes
/// still): the scenes of [`sweep_capsule_capsule`] with both radii zero,
/// where an end point often arrives exactly on the other segment.
///
/// # Examples
///
/// ```
/// use geom_test::strategy;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let (a, ma, b, mb) = strategy::sweep_segment_segment::<f32>().new_tree(&mut runner).unwrap().current();
/// let _ = geom_core::sweep_segment_segment(&a, ma, &b, mb);
/// ```
#[allow(clippy::type_complexity)]
pub fn sweep_segment_segment<S: Testable>() -> BoxedStrategy<(Segment<S>, Vec2<S>, Segment<S>, Vec2<S>)> {
    moving_cores::<S>(true).prop_map(|(a, ma, b, mb, _)| (a, ma, b, mb)).boxed()
}

/// A small circle whose centre's path crosses a segment during the tick
/// (from one side to the other, through a point inside it): the scene a
/// sweep must never let tunnel.
///
/// # Examples
///
/// ```
/// use geom_test::strategy;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// let (circle, motion, segment) = strategy::tunnelling::<f32>().new_tree(&mut runner).unwrap().current();
/// assert_ne!(geom_core::sweep_circle_segment(&circle, motion, &segment), geom_core::Sweep::Miss);
/// ```
pub fn tunnelling<S: Testable>() -> BoxedStrategy<(Circle<S>, Vec2<S>, Segment<S>)> {
    // The segment at half the scale and the offset at a quarter, so the
    // path's ends stay in range without clamping (which could undo the
    // crossing).
    scale::<S>()
        .prop_flat_map(|scale| {
            let segment =
                segment_at::<S>(scale / 2.0).prop_filter("a segment of some length", |s| s.start() != s.end());
            (segment, 1_u32..64, point::<S>(scale / 4.0), 1_u32..=8)
        })
        .prop_map(|(s, k, offset, far)| {
            let t = f64::from(k) / 64.0;
            let (a, b) = (vec_to_f64(s.start()), vec_to_f64(s.end()));
            let q = (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
            let o = (offset.x.to_f64(), offset.y.to_f64());
            let f = f64::from(far) / 4.0;
            let start = Vec2::new(S::from_f64(q.0 + o.0), S::from_f64(q.1 + o.1));
            let end = Vec2::new(S::from_f64(q.0 - o.0 * f), S::from_f64(q.1 - o.1 * f));
            let motion = Vec2::new(
                S::from_f64(end.x.to_f64() - start.x.to_f64()),
                S::from_f64(end.y.to_f64() - start.y.to_f64()),
            );
            let radius = S::from_f64((o.0.abs() + o.1.abs()) / 64.0);
            (Circle::new(start, radius).expect("in range"), motion, s)
        })
        .boxed()
}
