//! Unit tests for every query, written once and run for each scalar type.
//!
//! The suite is a set of generic functions; `scalar_suite!` instantiates it
//! per type with that type's tolerance, the way glam's test macros do.
#![allow(clippy::unreadable_literal)]

use crate::common;

use common::{TestScalar, assert_contact, assert_near, assert_vec_near, capsule, circle, seg, v};
use fixed::types::I16F16;
use geom_core::{
    Capsule, Circle, Contact, RangeError, Segment, SegmentFeature, ShapeError, Vec2, closest_point_point_segment,
    closest_points_segment_segment, contact_capsule_capsule, contact_circle_capsule, contact_circle_circle,
    contact_circle_segment, distance_point_segment, distance_squared_point_segment, intersects_capsule_capsule,
    intersects_circle_capsule, intersects_circle_circle, intersects_circle_segment,
};

// ---------------------------------------------------------------- Vec2

fn vec2_products_and_lengths<S: TestScalar>() {
    let a = v::<S>(3.0, -4.0);
    let b = v::<S>(0.5, 2.0);
    assert_eq!(S::wide_f(a.dot(b)), -6.5);
    assert_eq!(S::wide_f(a.perp_dot(b)), 8.0);
    assert_eq!(S::wide_f(a.length_squared()), 25.0);
    assert_eq!(a.length().to_f64(), 5.0);
    assert_eq!(a.perp(), v(4.0, 3.0));
    assert_eq!(a + b, v(3.5, -2.0));
    assert_eq!(a - b, v(2.5, -6.0));
    assert_eq!(-a, v(-3.0, 4.0));
    assert_eq!(a * S::from_f64(2.0), v(6.0, -8.0));
}

fn vec2_normalize_never_divides_by_zero<S: TestScalar>() {
    assert_eq!(Vec2::<S>::ZERO.try_normalize(), None);
    assert_eq!(Vec2::<S>::ZERO.normalize_or(Vec2::Y), Vec2::Y);
    let n = v::<S>(3.0, -4.0).try_normalize().unwrap();
    assert_vec_near(n, 0.6, -0.8, "n");
    assert_eq!(v::<S>(0.0, -7.0).try_normalize(), Some(v(0.0, -1.0)));
}

fn vec2_large_products_do_not_overflow<S: TestScalar>() {
    // The largest vector between two in-range points.
    let m = S::MAX_COORD.to_f64();
    let d = v::<S>(2.0 * m, -2.0 * m);
    assert_eq!(S::wide_f(d.length_squared()), 8.0 * m * m);
    assert_eq!(S::wide_f(d.dot(d)), 8.0 * m * m);
    let len = d.length().to_f64();
    assert!((len - 8.0_f64.sqrt() * m).abs() <= 8.0_f64.sqrt() * m * 1e-6, "{len}");
    assert_vec_near(d.try_normalize().unwrap(), 0.5_f64.sqrt(), -(0.5_f64.sqrt()), "n");
}

// ---------------------------------------------------------------- closest point

fn closest_point_interior_start_end<S: TestScalar>() {
    let s = seg::<S>(0.0, 0.0, 8.0, 0.0);
    let c = closest_point_point_segment(v(2.0, 3.0), &s);
    assert_eq!((c.point, c.t, c.feature), (v(2.0, 0.0), S::from_f64(0.25), SegmentFeature::Interior));
    let c = closest_point_point_segment(v(-1.0, -1.0), &s);
    assert_eq!((c.point, c.t, c.feature), (v(0.0, 0.0), S::ZERO, SegmentFeature::Start));
    let c = closest_point_point_segment(v(9.0, 5.0), &s);
    assert_eq!((c.point, c.t, c.feature), (v(8.0, 0.0), S::ONE, SegmentFeature::End));
    // Exactly perpendicular at an end: the endpoint, reported as that end.
    let c = closest_point_point_segment(v(8.0, 5.0), &s);
    assert_eq!((c.point, c.feature), (v(8.0, 0.0), SegmentFeature::End));
}

fn closest_point_on_a_slanted_segment<S: TestScalar>() {
    let s = seg::<S>(1.0, 1.0, 5.0, 3.0);
    let c = closest_point_point_segment(v(2.0, 5.0), &s);
    // Projection parameter: ((1,4)·(4,2)) / 20 = 12/20.
    assert_near(c.t, 0.6, "t");
    assert_vec_near(c.point, 3.4, 2.2, "point");
    assert_eq!(c.feature, SegmentFeature::Interior);
}

fn closest_point_of_zero_length_segment_is_its_point<S: TestScalar>() {
    let s = seg::<S>(2.0, -1.0, 2.0, -1.0);
    let c = closest_point_point_segment(v(7.0, 7.0), &s);
    assert_eq!((c.point, c.t, c.feature), (v(2.0, -1.0), S::ZERO, SegmentFeature::Start));
    assert_eq!(distance_point_segment(v(5.0, 3.0), &s).to_f64(), 5.0);
}

fn closest_point_is_the_same_for_a_reversed_segment<S: TestScalar>() {
    let s = seg::<S>(0.3, -1.7, 6.1, 2.9);
    for (x, y) in [(2.0, 2.0), (-4.0, 0.0), (9.0, 9.0), (3.3, -0.1), (1.0, 1.0)] {
        let p = v::<S>(x, y);
        let a = closest_point_point_segment(p, &s);
        let b = closest_point_point_segment(p, &s.reversed());
        assert_eq!(a.point, b.point, "at {p:?}");
        assert_near(a.t + b.t, 1.0, "t + t'");
        let swapped = match a.feature {
            SegmentFeature::Start => SegmentFeature::End,
            SegmentFeature::End => SegmentFeature::Start,
            SegmentFeature::Interior => SegmentFeature::Interior,
        };
        assert_eq!(b.feature, swapped);
        assert_eq!(distance_point_segment(p, &s), distance_point_segment(p, &s.reversed()));
    }
}

fn closest_point_clamps_a_point_outside_the_safe_range<S: TestScalar>() {
    let s = seg::<S>(-1.0, 0.0, 1.0, 0.0);
    let far = Vec2::new(S::MAX_COORD.step_up(), S::MAX_COORD.step_up());
    let c = closest_point_point_segment(far, &s);
    assert_eq!((c.point, c.feature), (v(1.0, 0.0), SegmentFeature::End));
    // Distance from (MAX, MAX) to (1, 0), finite.
    let m = S::MAX_COORD.to_f64();
    let expected = ((m - 1.0) * (m - 1.0) + m * m).sqrt();
    let d = distance_point_segment(far, &s).to_f64();
    assert!((d - expected).abs() <= expected * 1e-6, "{d} vs {expected}");
}

// ---------------------------------------------------------------- distance

fn distance_and_squared_distance<S: TestScalar>() {
    let s = seg::<S>(0.0, 0.0, 3.0, 0.0);
    assert_eq!(distance_point_segment(v(6.0, 4.0), &s).to_f64(), 5.0);
    assert_eq!(S::wide_f(distance_squared_point_segment(v(6.0, 4.0), &s)), 25.0);
    assert_eq!(distance_point_segment(v(1.5, -2.0), &s).to_f64(), 2.0);
    assert_eq!(S::wide_f(distance_squared_point_segment(v(1.5, -2.0), &s)), 4.0);
    assert_eq!(distance_point_segment(v(1.5, 0.0), &s), S::ZERO);
    let diagonal = seg::<S>(0.0, 0.0, 4.0, 4.0);
    assert_near(distance_point_segment(v(0.0, 2.0), &diagonal), 2.0_f64.sqrt(), "√2");
    assert_eq!(S::wide_f(distance_squared_point_segment(v(0.0, 2.0), &diagonal)), 2.0);
}

fn squared_distance_across_the_whole_range_fits_wide<S: TestScalar>() {
    let m = S::MAX_COORD.to_f64();
    let s = seg::<S>(-m, -m, -m, m);
    let d2 = S::wide_f(distance_squared_point_segment(v(m, m), &s));
    assert_eq!(d2, 4.0 * m * m);
    assert_eq!(distance_point_segment(v(m, 0.0), &s).to_f64(), 2.0 * m);
}

// ---------------------------------------------------------------- intersects

fn touching_counts_as_intersecting<S: TestScalar>() {
    let floor = seg::<S>(-10.0, 0.0, 10.0, 0.0);
    assert!(intersects_circle_segment(&circle::<S>(3.0, 2.0, 2.0), &floor));
    assert!(intersects_circle_segment(&circle::<S>(13.0, 0.0, 3.0), &floor)); // end cap
    assert!(intersects_circle_capsule(&circle::<S>(3.0, 3.0, 2.0), &capsule(-10.0, 0.0, 10.0, 0.0, 1.0)));
    assert!(intersects_circle_circle(&circle::<S>(0.0, 0.0, 2.0), &circle(3.0, 4.0, 3.0)));
    assert!(intersects_capsule_capsule(&capsule::<S>(0.0, 0.0, 4.0, 0.0, 1.0), &capsule(6.0, 0.0, 9.0, 0.0, 1.0)));
    assert!(intersects_capsule_capsule(&capsule::<S>(0.0, 0.0, 4.0, 0.0, 0.5), &capsule(2.0, 1.0, 2.0, 5.0, 0.5)));
}

fn one_step_apart_is_not_intersecting<S: TestScalar>() {
    let floor = seg::<S>(-10.0, 0.0, 10.0, 0.0);
    let r = S::from_f64(2.0);
    let lifted = Circle::new(v(3.0, 0.0) + Vec2::new(S::ZERO, r.step_up()), r).unwrap();
    assert!(!intersects_circle_segment(&lifted, &floor));
    assert_eq!(contact_circle_segment(&lifted, &floor), None);
    let beyond_cap = Circle::new(Vec2::new(S::from_f64(12.0).step_up(), S::ZERO), r).unwrap();
    assert!(!intersects_circle_segment(&beyond_cap, &floor));
    let b = Circle::new(Vec2::new(S::from_f64(5.0).step_up(), S::ZERO), S::from_f64(3.0)).unwrap();
    assert!(!intersects_circle_circle(&circle::<S>(0.0, 0.0, 2.0), &b));
    assert_eq!(contact_circle_circle(&circle::<S>(0.0, 0.0, 2.0), &b), None);
    let far_cap = Capsule::new(Vec2::new(S::from_f64(6.0).step_up(), S::ZERO), v(9.0, 0.0), S::ONE).unwrap();
    assert!(!intersects_capsule_capsule(&capsule::<S>(0.0, 0.0, 4.0, 0.0, 1.0), &far_cap));
    assert_eq!(contact_capsule_capsule(&capsule::<S>(0.0, 0.0, 4.0, 0.0, 1.0), &far_cap), None);
}

fn intersects_agrees_with_contact_on_a_grid<S: TestScalar>() {
    let s = seg::<S>(-1.5, -0.5, 2.0, 1.25);
    let cap = capsule::<S>(-1.5, -0.5, 2.0, 1.25, 0.75);
    let other = capsule::<S>(0.25, 2.0, 0.25, 3.0, 0.5);
    let disc = circle::<S>(0.5, 0.25, 1.0);
    for i in -16..=16 {
        for j in -16..=16 {
            let (x, y) = (f64::from(i) * 0.25, f64::from(j) * 0.25);
            let c = circle::<S>(x, y, 1.0);
            assert_eq!(intersects_circle_segment(&c, &s), contact_circle_segment(&c, &s).is_some());
            assert_eq!(intersects_circle_capsule(&c, &cap), contact_circle_capsule(&c, &cap).is_some());
            assert_eq!(intersects_circle_circle(&c, &disc), contact_circle_circle(&c, &disc).is_some());
            let moved = capsule::<S>(x, y, x + 1.0, y - 0.5, 0.25);
            assert_eq!(intersects_capsule_capsule(&moved, &other), contact_capsule_capsule(&moved, &other).is_some());
            assert_eq!(intersects_capsule_capsule(&moved, &cap), contact_capsule_capsule(&moved, &cap).is_some());
        }
    }
}

// ------------------------------------------------- the seed articles' pitfalls

/// Extending the segment by `r` at both ends and testing the perpendicular
/// distance reports hits in the square corners beyond the end caps.
fn pitfall_no_hit_in_the_square_corner_beyond_an_end<S: TestScalar>() {
    let s = seg::<S>(0.0, 0.0, 10.0, 0.0);
    // Perpendicular distance 0.8 ≤ r = 1, projection 10.8 within [−1, 11],
    // but the true distance to the end point is 0.8·√2 ≈ 1.13 > 1.
    let c = circle::<S>(10.8, 0.8, 1.0);
    assert!(!intersects_circle_segment(&c, &s));
    assert_eq!(contact_circle_segment(&c, &s), None);
    assert!(!intersects_circle_capsule(&circle::<S>(10.8, 0.8, 0.5), &capsule(0.0, 0.0, 10.0, 0.0, 0.5)));
}

/// Comparing the squared distance with an unsquared radius (`P·P <= r`).
fn pitfall_squared_distance_is_compared_with_squared_radius<S: TestScalar>() {
    let s = seg::<S>(-5.0, 0.0, 5.0, 0.0);
    // d = 1.9, r = 2: d² = 3.61 > r but d < r, a hit.
    assert!(intersects_circle_segment(&circle::<S>(0.0, 1.9, 2.0), &s));
    // d = 0.6, r = 0.5: d² = 0.36 < r but d > r, a miss.
    assert!(!intersects_circle_segment(&circle::<S>(0.0, 0.6, 0.5), &s));
}

/// Raising an error when the centre lies exactly on the segment: a game needs
/// a push-out direction there.
fn pitfall_centre_on_the_segment_gets_a_push_out_direction<S: TestScalar>() {
    let floor = seg::<S>(-5.0, 0.0, 5.0, 0.0);
    assert_contact(contact_circle_segment(&circle::<S>(1.0, 0.0, 0.5), &floor), (1.0, 0.0), (0.0, 1.0), 0.5);
    // The same answer whichever way the segment is given.
    assert_contact(contact_circle_segment(&circle::<S>(1.0, 0.0, 0.5), &floor.reversed()), (1.0, 0.0), (0.0, 1.0), 0.5);
    // A slanted segment: the perpendicular that points up.
    let slope = seg::<S>(4.0, 4.0, 0.0, 0.0);
    let c = contact_circle_segment(&circle::<S>(2.0, 2.0, 1.0), &slope).unwrap();
    assert_vec_near(c.normal, -(0.5_f64.sqrt()), 0.5_f64.sqrt(), "normal");
    // A vertical segment: the perpendicular that points right.
    let wall = seg::<S>(0.0, 5.0, 0.0, -5.0);
    assert_contact(contact_circle_segment(&circle::<S>(0.0, 1.0, 2.0), &wall), (0.0, 1.0), (1.0, 0.0), 2.0);
    assert_contact(contact_circle_segment(&circle::<S>(0.0, 1.0, 2.0), &wall.reversed()), (0.0, 1.0), (1.0, 0.0), 2.0);
    // The centre on an end point.
    assert_contact(contact_circle_segment(&circle::<S>(5.0, 0.0, 1.0), &floor), (5.0, 0.0), (0.0, 1.0), 1.0);
    // A zero-length segment at the centre: up.
    let dot = seg::<S>(2.0, 2.0, 2.0, 2.0);
    assert_contact(contact_circle_segment(&circle::<S>(2.0, 2.0, 1.0), &dot), (2.0, 2.0), (0.0, 1.0), 1.0);
}

/// Pushing a resting ball back onto its surface every tick ("the ball can
/// never leave"): touching gives a zero push-out, moving away gives no
/// contact, and the push-out never points into the surface.
fn pitfall_a_resting_ball_is_never_pulled_back<S: TestScalar>() {
    let floor = seg::<S>(-5.0, 0.0, 5.0, 0.0);
    let resting = circle::<S>(1.0, 1.0, 1.0);
    let c = contact_circle_segment(&resting, &floor).expect("touching is a contact");
    assert_eq!(c.depth, S::ZERO);
    assert_eq!(c.push_out(), Vec2::ZERO);
    let leaving = Circle::new(Vec2::new(S::ONE, S::ONE.step_up()), S::ONE).unwrap();
    assert_eq!(contact_circle_segment(&leaving, &floor), None);
    for i in 0..=40 {
        let y = f64::from(i) * 0.05; // 0 … 2
        if let Some(c) = contact_circle_segment(&circle::<S>(1.0, y, 1.0), &floor) {
            assert!(c.depth >= S::ZERO);
            assert!(c.push_out().y >= S::ZERO, "pulled down at y = {y}");
        }
    }
}

// ---------------------------------------------------------------- contacts

fn contact_circle_segment_values<S: TestScalar>() {
    let floor = seg::<S>(-5.0, 0.0, 5.0, 0.0);
    assert_contact(contact_circle_segment(&circle::<S>(1.0, 0.75, 1.0), &floor), (1.0, 0.0), (0.0, 1.0), 0.25);
    assert_contact(contact_circle_segment(&circle::<S>(2.0, -0.5, 1.0), &floor), (2.0, 0.0), (0.0, -1.0), 0.5);
    // Against the end cap: along the diagonal from the end point.
    assert_contact(contact_circle_segment(&circle::<S>(8.0, 4.0, 6.0), &floor), (5.0, 0.0), (0.6, 0.8), 1.0);
    assert_eq!(contact_circle_segment(&circle::<S>(8.0, 4.0, 4.0), &floor), None);
}

fn contact_circle_capsule_values<S: TestScalar>() {
    let paddle = capsule::<S>(0.0, 0.0, 4.0, 0.0, 1.0);
    assert_contact(contact_circle_capsule(&circle::<S>(5.5, 0.0, 1.0), &paddle), (5.0, 0.0), (1.0, 0.0), 0.5);
    assert_contact(contact_circle_capsule(&circle::<S>(2.0, 1.5, 1.0), &paddle), (2.0, 1.0), (0.0, 1.0), 0.5);
    assert_contact(contact_circle_capsule(&circle::<S>(7.0, 4.0, 4.5), &paddle), (4.6, 0.8), (0.6, 0.8), 0.5);
    assert_contact(contact_circle_capsule(&circle::<S>(2.0, 0.0, 0.5), &paddle), (2.0, 1.0), (0.0, 1.0), 1.5);
}

fn contact_circle_circle_values<S: TestScalar>() {
    assert_contact(
        contact_circle_circle(&circle::<S>(0.0, 1.0, 1.0), &circle(0.0, 0.0, 0.5)),
        (0.0, 0.5),
        (0.0, 1.0),
        0.5,
    );
    assert_contact(
        contact_circle_circle(&circle::<S>(3.0, 4.0, 3.0), &circle(0.0, 0.0, 3.0)),
        (1.8, 2.4),
        (0.6, 0.8),
        1.0,
    );
    // Coincident centres: up.
    assert_contact(
        contact_circle_circle(&circle::<S>(1.0, 1.0, 1.0), &circle(1.0, 1.0, 2.0)),
        (1.0, 3.0),
        (0.0, 1.0),
        3.0,
    );
}

/// A contact point on a large shape is as accurate as on a small one: the
/// radius is laid along the exact normal, not along the rounded unit normal
/// (whose rounding the radius would multiply: 12 × 2^-16 for I16F16 here).
fn contact_points_on_large_shapes_are_within_rounding<S: TestScalar>() {
    let (dx, dy) = (13.0_f64, 5.5_f64);
    let length = dx.hypot(dy);
    let on_big = |r: f64| (dx / length * r, dy / length * r);
    let big = circle::<S>(0.0, 0.0, 12.0);
    let c = contact_circle_circle(&circle::<S>(dx, dy, 3.0), &big).unwrap();
    let expected = on_big(12.0);
    assert_vec_near(c.point, expected.0, expected.1, "point on the big circle");
    // A capsule with a zero-length core is the same big circle.
    let pill = capsule::<S>(0.0, 0.0, 0.0, 0.0, 12.0);
    let c = contact_circle_capsule(&circle::<S>(dx, dy, 3.0), &pill).unwrap();
    assert_vec_near(c.point, expected.0, expected.1, "point on the capsule");
    let c = contact_capsule_capsule(&capsule::<S>(dx, dy, dx + 1.0, dy + 4.0, 3.0), &pill).unwrap();
    assert_vec_near(c.point, expected.0, expected.1, "point on the capsule, from a capsule");
}

fn contact_capsule_capsule_with_cores_apart<S: TestScalar>() {
    let floor = capsule::<S>(-4.0, 0.0, 4.0, 0.0, 0.5);
    let plank = capsule::<S>(-1.0, 0.75, 1.0, 0.75, 0.5);
    let c = contact_capsule_capsule(&plank, &floor).unwrap();
    assert_vec_near(c.normal, 0.0, 1.0, "normal");
    assert_near(c.depth, 0.25, "depth");
    assert_near(c.point.y, 0.5, "point on the floor's surface");
    // End to end, diagonally: along the line between the end points.
    let a = capsule::<S>(7.0, 4.0, 9.0, 6.0, 4.75);
    let c = contact_capsule_capsule(&a, &floor).unwrap();
    assert_vec_near(c.normal, 0.6, 0.8, "normal");
    assert_vec_near(c.point, 4.3, 0.4, "point");
    assert_near(c.depth, 0.25, "depth");
}

fn contact_capsule_capsule_with_crossing_cores<S: TestScalar>() {
    let floor = capsule::<S>(-4.0, 0.0, 4.0, 0.0, 0.5);
    // A post whose foot is 0.25 below the floor's core: push it up 0.25 + 1.
    let post = capsule::<S>(0.0, -0.25, 0.0, 3.0, 0.5);
    let c = contact_capsule_capsule(&post, &floor).unwrap();
    assert_contact(Some(c), (0.0, 0.5), (0.0, 1.0), 1.25);
    // The same post reaching further down than up: pushed down instead.
    let post = capsule::<S>(0.0, 0.25, 0.0, -3.0, 0.5);
    assert_contact(contact_capsule_capsule(&post, &floor), (0.0, -0.5), (0.0, -1.0), 1.25);
    // A bar crossing a vertical rod 1 from the bar's right end and 1 below
    // the rod's top: pushing the bar right or up both need 1 of core
    // separation; the tie goes to the rod's (b's) perpendicular, right.
    let vertical = capsule::<S>(0.0, -4.0, 0.0, 4.0, 0.25);
    let bar = capsule::<S>(-1.0, 3.0, 2.0, 3.0, 0.25);
    let c = contact_capsule_capsule(&bar, &vertical).unwrap();
    assert_vec_near(c.normal, 1.0, 0.0, "normal");
    assert_near(c.depth, 1.5, "depth");
    // Applying the push-out leaves them touching.
    let pushed =
        Capsule::new(bar.segment().start() + c.push_out(), bar.segment().end() + c.push_out(), bar.radius()).unwrap();
    let after = contact_capsule_capsule(&pushed, &vertical).expect("still touching");
    assert_near(after.depth, 0.0, "depth after push-out");
}

fn contact_capsule_capsule_touching_and_collinear_cores<S: TestScalar>() {
    let floor = capsule::<S>(-4.0, 0.0, 4.0, 0.0, 0.5);
    // A T: the post's foot exactly on the floor's core.
    let post = capsule::<S>(1.0, 0.0, 1.0, 3.0, 0.5);
    assert_contact(contact_capsule_capsule(&post, &floor), (1.0, 0.5), (0.0, 1.0), 1.0);
    // Collinear and overlapping: up, by the sum of the radii.
    let rod = capsule::<S>(2.0, 0.0, 6.0, 0.0, 0.25);
    let c = contact_capsule_capsule(&rod, &floor).unwrap();
    assert_vec_near(c.normal, 0.0, 1.0, "normal");
    assert_near(c.depth, 0.75, "depth");
    // Zero-length cores are circles.
    let dot = capsule::<S>(1.0, 0.0, 1.0, 0.0, 0.5);
    let as_capsule = contact_capsule_capsule(&dot, &floor).unwrap();
    let as_circle = contact_circle_capsule(&circle::<S>(1.0, 0.0, 0.5), &floor).unwrap();
    assert_eq!(as_capsule, as_circle);
    let both = contact_capsule_capsule(&dot, &capsule(1.0, 0.0, 1.0, 0.0, 1.0)).unwrap();
    assert_eq!(both, contact_circle_circle(&circle::<S>(1.0, 0.0, 0.5), &circle(1.0, 0.0, 1.0)).unwrap());
}

fn contact_capsule_capsule_normal_points_from_b_to_a<S: TestScalar>() {
    let a = capsule::<S>(0.0, 2.0, 3.0, 2.5, 0.5);
    let b = capsule::<S>(-1.0, 0.0, 4.0, 0.0, 1.75);
    let ab = contact_capsule_capsule(&a, &b).unwrap();
    let ba = contact_capsule_capsule(&b, &a).unwrap();
    assert!(ab.normal.y > S::ZERO && ba.normal.y < S::ZERO);
    assert_near(ab.depth, ba.depth.to_f64(), "depth is symmetric");
}

fn closest_points_of_segments<S: TestScalar>() {
    let a = seg::<S>(0.0, 1.0, 4.0, 1.0);
    let b = seg::<S>(2.0, -3.0, 2.0, -1.0);
    let c = closest_points_segment_segment(&a, &b);
    assert_eq!((c.a, c.b, c.distance.to_f64()), (v(2.0, 1.0), v(2.0, -1.0), 2.0));
    let crossed = closest_points_segment_segment(&seg::<S>(-2.0, -2.0, 2.0, 2.0), &seg(-2.0, 2.0, 2.0, -2.0));
    assert_eq!((crossed.a, crossed.b, crossed.distance), (v(0.0, 0.0), v(0.0, 0.0), S::ZERO));
    let skew = closest_points_segment_segment(&seg::<S>(0.0, 0.0, 1.0, 0.0), &seg(3.0, 1.0, 5.0, 3.0));
    assert_eq!((skew.a, skew.b), (v(1.0, 0.0), v(3.0, 1.0)));
    assert_near(skew.distance, 5.0_f64.sqrt(), "distance");
}

// ---------------------------------------------------------------- push-out

/// A contact query on a circle, and the signed gap it should report.
type Query<'a, S> = (&'a dyn Fn(&Circle<S>) -> Option<Contact<S>>, &'a dyn Fn(&Circle<S>) -> f64);

fn push_out_leaves_the_shapes_touching<S: TestScalar>() {
    let floor = seg::<S>(-5.0, 0.0, 5.0, 0.0);
    let paddle = capsule::<S>(-2.0, -1.0, 3.0, 1.5, 0.75);
    let other = circle::<S>(0.25, 0.5, 1.5);
    // Each query with the signed gap between the shapes (negative: overlap).
    let queries: [Query<'_, S>; 3] = [
        (&|c| contact_circle_segment(c, &floor), &|c| {
            distance_point_segment(c.center(), &floor).to_f64() - c.radius().to_f64()
        }),
        (&|c| contact_circle_capsule(c, &paddle), &|c| {
            distance_point_segment(c.center(), &paddle.segment()).to_f64()
                - c.radius().to_f64()
                - paddle.radius().to_f64()
        }),
        (&|c| contact_circle_circle(c, &other), &|c| {
            (c.center() - other.center()).length().to_f64() - c.radius().to_f64() - other.radius().to_f64()
        }),
    ];
    let mut contacts = 0;
    for (x, y) in [(0.3, 0.2), (4.9, -0.7), (-5.4, 0.3), (1.0, 0.01), (2.0, -0.9), (0.25, 0.5), (3.0, 1.5)] {
        let c = circle::<S>(x, y, 1.0);
        for (contact, gap) in queries {
            let Some(contact) = contact(&c) else { continue };
            contacts += 1;
            assert_near(S::from_f64(gap(&c)), -contact.depth.to_f64(), "gap before");
            let moved = Circle::new(c.center() + contact.push_out(), c.radius()).unwrap();
            assert_near(S::from_f64(gap(&moved)), 0.0, "gap after the push-out");
        }
    }
    assert!(contacts >= 12, "the scene exercises the queries ({contacts} contacts)");
}

// ---------------------------------------------------------------- safe range

fn queries_at_the_edge_of_the_safe_range<S: TestScalar>() {
    let m = S::MAX_COORD.to_f64();
    let wall = seg::<S>(-m, -m, -m, m);
    let big = circle::<S>(0.0, 0.0, m);
    assert!(intersects_circle_segment(&big, &wall)); // touching at distance m
    let c = contact_circle_segment(&big, &wall).unwrap();
    assert_eq!((c.normal, c.depth), (v(1.0, 0.0), S::ZERO));
    let far = circle::<S>(m, m, m);
    assert!(!intersects_circle_segment(&far, &wall));
    assert!(intersects_circle_circle(&far, &circle(-m, m, m))); // touching
    assert!(!intersects_circle_circle(&far, &circle(-m, -m, m)));
    // Two maximal capsules crossing at the centre: the deepest contact the
    // safe range allows.
    let x1 = capsule::<S>(-m, -m, m, m, m);
    let x2 = capsule::<S>(-m, m, m, -m, m);
    let c = contact_capsule_capsule(&x1, &x2).unwrap();
    let expected = 2.0 * m + 2.0_f64.sqrt() * m;
    assert!((c.depth.to_f64() - expected).abs() <= expected * 1e-6, "{c:?}");
    let pushed = x1.segment().start() + c.push_out();
    assert!(pushed.x.to_f64().is_finite() && pushed.y.to_f64().is_finite());
    let cp = closest_points_segment_segment(&x1.segment(), &x2.segment());
    assert_eq!(cp.a, Vec2::ZERO);
}

fn shapes_outside_the_safe_range_are_refused<S: TestScalar>() {
    let beyond = S::MAX_COORD.step_up();
    let origin = Vec2::<S>::ZERO;
    assert_eq!(Segment::new(origin, Vec2::new(beyond, S::ZERO)), Err(ShapeError::out_of_range(beyond)));
    assert_eq!(Circle::new(Vec2::new(S::ZERO, -beyond), S::ONE), Err(ShapeError::out_of_range(-beyond)));
    assert_eq!(Capsule::new(origin, origin, beyond), Err(ShapeError::OutOfRange(RangeError::radius(beyond))));
    assert_eq!(Circle::new(origin, -S::ONE), Err(ShapeError::NegativeRadius));
    assert!(Circle::new(Vec2::new(S::MAX_COORD, -S::MAX_COORD), S::MAX_COORD).is_ok());
}

macro_rules! scalar_suite {
    ($module:ident, $t:ty) => {
        mod $module {
            type T = $t;
            scalar_suite!(@tests T;
                vec2_products_and_lengths,
                vec2_normalize_never_divides_by_zero,
                vec2_large_products_do_not_overflow,
                closest_point_interior_start_end,
                closest_point_on_a_slanted_segment,
                closest_point_of_zero_length_segment_is_its_point,
                closest_point_is_the_same_for_a_reversed_segment,
                closest_point_clamps_a_point_outside_the_safe_range,
                distance_and_squared_distance,
                squared_distance_across_the_whole_range_fits_wide,
                touching_counts_as_intersecting,
                one_step_apart_is_not_intersecting,
                intersects_agrees_with_contact_on_a_grid,
                pitfall_no_hit_in_the_square_corner_beyond_an_end,
                pitfall_squared_distance_is_compared_with_squared_radius,
                pitfall_centre_on_the_segment_gets_a_push_out_direction,
                pitfall_a_resting_ball_is_never_pulled_back,
                contact_circle_segment_values,
                contact_circle_capsule_values,
                contact_circle_circle_values,
                contact_points_on_large_shapes_are_within_rounding,
                contact_capsule_capsule_with_cores_apart,
                contact_capsule_capsule_with_crossing_cores,
                contact_capsule_capsule_touching_and_collinear_cores,
                contact_capsule_capsule_normal_points_from_b_to_a,
                closest_points_of_segments,
                push_out_leaves_the_shapes_touching,
                queries_at_the_edge_of_the_safe_range,
                shapes_outside_the_safe_range_are_refused,
            );
        }
    };
    (@tests $t:ty; $($name:ident),* $(,)?) => {
        $(#[test] fn $name() { super::$name::<$t>(); })*
    };
}

scalar_suite!(f32_suite, f32);
scalar_suite!(f64_suite, f64);
scalar_suite!(i16f16_suite, fixed::types::I16F16);
scalar_suite!(i32f32_suite, fixed::types::I32F32);
scalar_suite!(i48f16_suite, fixed::types::I48F16);

// ---------------------------------------------------------------- regressions

/// Found by `geom-test`: an end point of one core lay within f64 rounding of
/// the other core, the closest-point normal took the rounding error's sign,
/// and the push-out drove the capsule through. Such cores count as touching.
#[test]
fn f64_capsule_with_an_end_within_rounding_of_the_other_core_is_pushed_out() {
    let a =
        Capsule::new(Vec2::new(921.4874495740912_f64, -617.218881614009), Vec2::new(-192.0, 670.3773129770526), 0.0)
            .unwrap();
    let b = Capsule::new(Vec2::new(34.177138194737296, 408.8343359507433), Vec2::new(0.0, -848.0), 35.39198786011628)
        .unwrap();
    let c = contact_capsule_capsule(&a, &b).unwrap();
    let offset = c.push_out();
    let moved = Segment::new(a.segment().start() + offset, a.segment().end() + offset).unwrap();
    let gap = closest_points_segment_segment(&moved, &b.segment()).distance - b.radius();
    assert!(gap.abs() < 1e-9, "gap {gap} after the push-out");
}

/// Found by `geom-test`: a centre 1e-14 from a segment's end point was
/// classified by a rounded projection, and the normal came from a
/// rounding-sized vector instead of the segment's perpendicular.
#[test]
fn f64_circle_centre_within_rounding_of_a_segment_end_is_pushed_out_perpendicularly() {
    let segment = Segment::new(
        Vec2::new(777.8584671995078_f64, -108.55884437172801),
        Vec2::new(-707.8163714541622, -1.2767608671697452),
    )
    .unwrap();
    let ball = Circle::new(Vec2::new(777.8584671995078, -108.558844371728), 175.49820014598933).unwrap();
    let c = contact_circle_segment(&ball, &segment).unwrap();
    let moved = ball.center() + c.push_out();
    let gap = distance_point_segment(moved, &segment) - ball.radius();
    assert!(gap.abs() < 1e-9, "gap {gap} after the push-out, normal {:?}", c.normal);
}

/// Found by `geom-test`: two candidate closest pairs of nearly touching
/// `I16F16` cores had squared distances of 13 and 12.97 units of `I32F32`,
/// which tie once rounded; the wrong pair's direction left the capsules
/// overlapping after the push-out. End-point candidates compare exactly.
#[test]
fn i16f16_capsules_whose_closest_candidates_tie_when_rounded_use_the_exact_closest_pair() {
    let v = |x: f64, y: f64| Vec2::new(I16F16::from_num(x), I16F16::from_num(y));
    let a = Capsule::new(v(12.75, 1.42253), v(-6.31285, -12.64684), I16F16::ZERO).unwrap();
    let b = Capsule::new(v(-6.31288, -12.64679), v(-0.12863, 9.61465), I16F16::from_num(2.09874)).unwrap();
    let c = contact_capsule_capsule(&a, &b).unwrap();
    let offset = c.push_out();
    let moved = Segment::new(a.segment().start() + offset, a.segment().end() + offset).unwrap();
    let gap = closest_points_segment_segment(&moved, &b.segment()).distance - b.radius();
    assert!(gap.abs() <= I16F16::from_num(4.0 / 65536.0), "gap {gap} after the push-out");
}
