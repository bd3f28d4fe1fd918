//! Properties of the swept queries, checked against the exact oracle for
//! every scalar type.
//!
//! Tolerances, in the notation of `properties.rs`. A time of impact is
//! judged by where it leaves the shapes, not by the time itself: near a
//! grazing or parallel approach the first touch moves a long way in time for
//! a rounding step in space, so no bound on the time alone can hold. At the
//! reported time the shapes (moved by the impact's travels) must not
//! overlap (for floats: by more than 8 rounding steps at the scene's scale)
//! and must be apart by at most 16 rounding steps plus 4 steps of the time's
//! resolution times the speed: the distance covered between two
//! representable times. For fixed point the time is also never after the
//! exact first touch.

use geom_core::{
    Circle, Impact, Segment, Sweep, Vec2, sweep_circle_capsule, sweep_circle_circle, sweep_circle_segment,
};
use geom_test::oracle::{self, FirstTouch, Q};
use geom_test::{QVec, Testable, qvec, strategy};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

fn scale_of<S: Testable>(values: &[S]) -> f64 {
    values.iter().map(|v| v.to_f64().abs()).fold(1.0, f64::max)
}

fn length<S: Testable>(v: Vec2<S>) -> f64 {
    v.x.to_f64().hypot(v.y.to_f64())
}

/// A time as an exact rational (every `f64` is one).
fn q_time(t: f64) -> Q {
    Q::from_float(t).expect("finite")
}

/// One swept scene in the oracle's terms: a point moving from `start` by
/// `motion` against the segment `a`–`b` inflated by `reach`, and the gap
/// (negative: overlap) of the moving shape at a position.
struct Scene {
    start: QVec,
    motion: QVec,
    a: QVec,
    b: QVec,
    reach: Q,
}

impl Scene {
    fn gap_at(&self, p: &QVec) -> f64 {
        oracle::gap(&oracle::dist2_point_segment(p, &self.a, &self.b), &self.reach)
    }

    fn position(&self, t: f64) -> QVec {
        self.start.add(&self.motion.scale(&q_time(t)))
    }
}

/// The sweep's outcome agrees with the oracle's: a miss exactly when the
/// path never comes within reach, in contact exactly when it starts within
/// reach (exact for fixed point; floats may differ only for near-ties);
/// and a hit's time is within tolerance of the exact first touch, never
/// after it for fixed point, with the shapes moved to it (as
/// the impact's travels) not overlapping and touching within
/// tolerance, and every sampled earlier position clear.
fn check_sweep<S: Testable>(
    outcome: Sweep<S>,
    scene: &Scene,
    moved_gap: impl Fn(&Impact<S>) -> f64,
    scale: f64,
    speed: f64,
) -> Result<(), TestCaseError> {
    let exact = oracle::first_touch(&scene.start, &scene.motion, &scene.a, &scene.b, &scene.reach);
    let overlap_tol = if S::RELATIVE == 0.0 { 0.0 } else { S::tolerance(scale, 8.0) };
    let apart_tol = S::tolerance(scale, 16.0) + 4.0 * (S::STEP + S::RELATIVE) * speed;
    match (outcome, exact) {
        (Sweep::Miss, FirstTouch::Never) | (Sweep::InContact { .. }, FirstTouch::AtStart) => Ok(()),
        (Sweep::Hit(impact), FirstTouch::At(t_true)) => {
            let t = impact.t.to_f64();
            prop_assert!((0.0..=1.0).contains(&t), "{}: t = {t} outside the tick", S::NAME);
            if S::RELATIVE == 0.0 {
                // The oracle's time is itself an f64 rounding of the exact one.
                let t_late = t_true + 4.0 * f64::EPSILON;
                prop_assert!(t <= t_late, "{}: t = {t} after the first touch at {t_true}", S::NAME);
            }
            let gap = moved_gap(&impact);
            prop_assert!(gap >= -overlap_tol, "{}: overlapping by {:e} at t = {t} (exact: {t_true})", S::NAME, -gap);
            prop_assert!(
                gap <= apart_tol,
                "{}: {gap:e} apart at t = {t} (exact first touch {t_true}, tol {apart_tol:e})",
                S::NAME
            );
            for k in 0..8 {
                let earlier = t * f64::from(k) / 8.0;
                let gap = scene.gap_at(&scene.position(earlier));
                prop_assert!(gap >= -overlap_tol, "{}: overlapping by {:e} at t = {earlier}", S::NAME, -gap);
            }
            Ok(())
        }
        (outcome, exact) => {
            // Only a float may disagree, and only where the path's closest
            // approach, or its start, is within rounding of the reach.
            let end = scene.start.add(&scene.motion);
            let closest =
                oracle::gap(&oracle::dist2_segment_segment(&scene.start, &end, &scene.a, &scene.b), &scene.reach);
            let at_start = scene.gap_at(&scene.start);
            let near_tie = closest.abs().min(at_start.abs()) <= S::tolerance(scale, 16.0);
            prop_assert!(
                S::RELATIVE > 0.0 && near_tie,
                "{}: sweep says {outcome:?}, the oracle {exact:?} (closest gap {closest:e}, at start {at_start:e})",
                S::NAME
            );
            Ok(())
        }
    }
}

fn sweep_circle_segment_matches_the_oracle<S: Testable>(
    c: Circle<S>,
    m: Vec2<S>,
    s: Segment<S>,
) -> Result<(), TestCaseError> {
    let scene = Scene {
        start: qvec(c.center()),
        motion: qvec(m),
        a: qvec(s.start()),
        b: qvec(s.end()),
        reach: c.radius().to_rational(),
    };
    let scale = scale_of(&[c.center().x, c.center().y, m.x, m.y, s.start().x, s.start().y, s.end().x, s.end().y]);
    let moved_gap = |i: &Impact<S>| scene.gap_at(&qvec(c.center() + i.travel_a));
    check_sweep(sweep_circle_segment(&c, m, &s), &scene, moved_gap, scale, length(m))
}

fn sweep_circle_capsule_matches_the_oracle<S: Testable>(
    c: Circle<S>,
    m: Vec2<S>,
    k: geom_core::Capsule<S>,
) -> Result<(), TestCaseError> {
    let s = k.segment();
    let reach = c.radius().to_rational() + k.radius().to_rational();
    let scene = Scene { start: qvec(c.center()), motion: qvec(m), a: qvec(s.start()), b: qvec(s.end()), reach };
    let scale = scale_of(&[c.center().x, c.center().y, m.x, m.y, s.start().x, s.start().y, s.end().x, s.end().y]);
    let moved_gap = |i: &Impact<S>| scene.gap_at(&qvec(c.center() + i.travel_a));
    check_sweep(sweep_circle_capsule(&c, m, &k), &scene, moved_gap, scale, length(m))
}

/// Two moving circles are swept on their relative motion: the outcome
/// matches the oracle for `a` moving by `ma − mb` against a static `b`, and
/// the query with `b` held still gives the same outcome (the same time,
/// within the back-off of rounding the two moved positions).
fn sweep_moving_circles_is_the_static_sweep_on_relative_motion<S: Testable>(
    a: Circle<S>,
    ma: Vec2<S>,
    b: Circle<S>,
    mb: Vec2<S>,
) -> Result<(), TestCaseError> {
    let relative = qvec(ma).sub(&qvec(mb));
    let point = qvec(b.center());
    let reach = a.radius().to_rational() + b.radius().to_rational();
    let scene = Scene { start: qvec(a.center()), motion: relative.clone(), a: point.clone(), b: point, reach };
    let scale = scale_of(&[a.center().x, a.center().y, b.center().x, b.center().y, ma.x, ma.y, mb.x, mb.y]);
    let (rx, ry) = relative.to_f64();
    let speed = rx.hypot(ry);
    let moving = sweep_circle_circle(&a, ma, &b, mb);
    let moved_gap = |i: &Impact<S>| {
        let (pa, pb) = (qvec(a.center() + i.travel_a), qvec(b.center() + i.travel_b));
        oracle::gap(&pa.sub(&pb).length_squared(), &scene.reach)
    };
    check_sweep(moving, &scene, moved_gap, scale, speed)?;
    // Held still, `b` sees `a` move by the difference, unless that exceeds
    // the range a single motion is clamped to.
    let difference = ma - mb;
    let max = S::MAX_COORD;
    if difference.x.abs_le(max) && difference.y.abs_le(max) {
        let still = sweep_circle_circle(&a, difference, &b, Vec2::ZERO);
        let still_gap = |i: &Impact<S>| {
            oracle::gap(&qvec(a.center() + i.travel_a).sub(&qvec(b.center())).length_squared(), &scene.reach)
        };
        check_sweep(still, &scene, still_gap, scale, speed)?;
        match (moving, still) {
            (Sweep::Miss, Sweep::Miss) | (Sweep::Hit(_), Sweep::Hit(_)) => {}
            (Sweep::InContact { blocked: x, .. }, Sweep::InContact { blocked: y, .. }) => prop_assert_eq!(x, y),
            (x, y) => prop_assert!(S::RELATIVE > 0.0, "{}: moving {x:?}, relative {y:?}", S::NAME),
        }
    }
    Ok(())
}

/// A circle whose centre crosses a segment within the tick is always
/// caught: the sweep never reports a miss (no tunnelling).
fn a_crossing_circle_never_tunnels<S: Testable>(c: Circle<S>, m: Vec2<S>, s: Segment<S>) -> Result<(), TestCaseError> {
    let start = qvec(c.center());
    let end = start.add(&qvec(m));
    prop_assume!(oracle::segments_intersect(&start, &end, &qvec(s.start()), &qvec(s.end())));
    let outcome = sweep_circle_segment(&c, m, &s);
    prop_assert_ne!(outcome, Sweep::Miss, "{}: tunnelled", S::NAME);
    Ok(())
}

/// A point (a circle of radius 0, or one against a capsule of radius 0)
/// whose path crosses a segment is stopped on the side it came from: the
/// sweep reports a hit (or, for floats, a blocked contact when the start is
/// within rounding of the segment), the point moved by its travel is still
/// strictly on its starting side of the segment's line, and the normal
/// faces against the motion (to within the rounding of a unit vector).
fn a_crossing_point_stops_on_its_own_side<S: Testable>(
    c: Circle<S>,
    m: Vec2<S>,
    s: Segment<S>,
) -> Result<(), TestCaseError> {
    let (a, b) = (qvec(s.start()), qvec(s.end()));
    let start = qvec(c.center());
    prop_assume!(oracle::segments_intersect(&start, &start.add(&qvec(m)), &a, &b));
    let side = |p: &QVec| b.sub(&a).cross(&p.sub(&a));
    let zero = Q::from_integer(0.into());
    let start_side = side(&start);
    prop_assume!(start_side != zero);
    let point = Circle::new(c.center(), S::ZERO).expect("a valid point");
    let thin = geom_core::Capsule::new(s.start(), s.end(), S::ZERO).expect("a valid capsule");
    for outcome in [sweep_circle_segment(&point, m, &s), sweep_circle_capsule(&point, m, &thin)] {
        match outcome {
            Sweep::Hit(impact) => {
                // How far the stopped point is from the line, on its own
                // side: exactly positive for fixed point; for floats, where
                // the side within rounding of the line is not known, not
                // beyond it by more than rounding.
                let stopped = side(&qvec(c.center() + impact.travel_a));
                let own = if start_side > zero { stopped } else { -stopped };
                let beyond =
                    -geom_test::rational_to_f64(&own) / geom_test::rational_to_f64(&b.sub(&a).length_squared()).sqrt();
                let allowed = if S::RELATIVE == 0.0 {
                    0.0
                } else {
                    S::tolerance(
                        scale_of(&[
                            m.x,
                            m.y,
                            s.start().x,
                            s.start().y,
                            s.end().x,
                            s.end().y,
                            c.center().x,
                            c.center().y,
                        ]),
                        16.0,
                    )
                };
                prop_assert!(
                    if S::RELATIVE == 0.0 { own > zero } else { beyond <= allowed },
                    "{}: the point crossed or stopped on the segment's line ({beyond:e} beyond): {impact:?}",
                    S::NAME
                );
                let facing = qvec(impact.normal).dot(&qvec(m));
                let rounding = 2.0 * (S::STEP + S::RELATIVE) * length(m);
                prop_assert!(
                    geom_test::rational_to_f64(&facing) <= rounding,
                    "{}: the normal {:?} does not face against the motion {m:?}",
                    S::NAME,
                    impact.normal
                );
            }
            Sweep::InContact { blocked: true, .. } if S::RELATIVE > 0.0 => {}
            other => prop_assert!(false, "{}: a crossing point got {other:?}", S::NAME),
        }
    }
    Ok(())
}

macro_rules! sweep_properties {
    ($module:ident, $t:ty) => {
        mod $module {
            use super::*;
            type T = $t;

            proptest! {
                #![proptest_config(geom_test::config())]

                #[test]
                fn sweep_circle_segment_matches_the_oracle((c, m, s) in strategy::sweep_circle_segment::<T>()) {
                    super::sweep_circle_segment_matches_the_oracle(c, m, s)?;
                }

                #[test]
                fn sweep_circle_capsule_matches_the_oracle((c, m, k) in strategy::sweep_circle_capsule::<T>()) {
                    super::sweep_circle_capsule_matches_the_oracle(c, m, k)?;
                }

                #[test]
                fn sweep_moving_circles_is_the_static_sweep_on_relative_motion(
                    (a, ma, b, mb) in strategy::sweep_circle_circle::<T>()
                ) {
                    super::sweep_moving_circles_is_the_static_sweep_on_relative_motion(a, ma, b, mb)?;
                }

                #[test]
                fn a_crossing_circle_never_tunnels((c, m, s) in strategy::tunnelling::<T>()) {
                    super::a_crossing_circle_never_tunnels(c, m, s)?;
                }

                #[test]
                fn a_crossing_point_stops_on_its_own_side((c, m, s) in strategy::tunnelling::<T>()) {
                    super::a_crossing_point_stops_on_its_own_side(c, m, s)?;
                }
            }
        }
    };
}

sweep_properties!(f32_sweeps, f32);
sweep_properties!(f64_sweeps, f64);
sweep_properties!(i16f16_sweeps, fixed::types::I16F16);
sweep_properties!(i32f32_sweeps, fixed::types::I32F32);
sweep_properties!(i48f16_sweeps, fixed::types::I48F16);
