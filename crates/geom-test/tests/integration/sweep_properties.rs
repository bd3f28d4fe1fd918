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
    Capsule, Circle, Impact, Segment, Sweep, Vec2, sweep_capsule_capsule, sweep_capsule_circle, sweep_capsule_segment,
    sweep_circle_capsule, sweep_circle_circle, sweep_circle_segment, sweep_segment_segment,
};
use geom_test::oracle::{self, FirstTouch, Q};
use geom_test::{QVec, Testable, qvec, strategy};
use num_traits::{One, Signed, Zero};
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

/// One swept scene in the oracle's terms: core `a0`–`a1` (a point, for a
/// circle) moving by `motion` against the static core `b0`–`b1`, with the
/// radii summed in `reach`; both moving is this on the relative motion.
struct Scene {
    a0: QVec,
    a1: QVec,
    motion: QVec,
    b0: QVec,
    b1: QVec,
    reach: Q,
}

impl Scene {
    /// A circle centred at `start` against segment `a`–`b`.
    fn point(start: QVec, motion: QVec, a: QVec, b: QVec, reach: Q) -> Self {
        Scene { a0: start.clone(), a1: start, motion, b0: a, b1: b, reach }
    }

    /// Capsules (or segments, or circles) `a` moving by `ma` and `b` by
    /// `mb`, on the relative motion.
    fn cores<S: Testable>(a: Segment<S>, ma: Vec2<S>, b: Segment<S>, mb: Vec2<S>, reach: Q) -> Self {
        Scene {
            a0: qvec(a.start()),
            a1: qvec(a.end()),
            motion: qvec(ma).sub(&qvec(mb)),
            b0: qvec(b.start()),
            b1: qvec(b.end()),
            reach,
        }
    }

    /// The exact squared distance between the cores with `a` moved by
    /// `offset` relative to `b`.
    fn dist2_at(&self, offset: &QVec) -> Q {
        oracle::dist2_segment_segment(&self.a0.add(offset), &self.a1.add(offset), &self.b0, &self.b1)
    }

    /// The gap (negative: overlap) with `a` moved by `offset` relative to `b`.
    fn gap_at(&self, offset: &QVec) -> f64 {
        oracle::gap(&self.dist2_at(offset), &self.reach)
    }

    /// The relative offset at time `t`.
    fn offset(&self, t: f64) -> QVec {
        self.motion.scale(&q_time(t))
    }

    fn exact(&self) -> FirstTouch {
        oracle::first_touch_cores(&self.a0, &self.a1, &self.motion, &self.b0, &self.b1, &self.reach)
    }

    /// The gap at the closest approach over the tick.
    fn closest(&self) -> f64 {
        oracle::gap(&oracle::path_dist2_cores(&self.a0, &self.a1, &self.motion, &self.b0, &self.b1), &self.reach)
    }

    fn speed(&self) -> f64 {
        let (x, y) = self.motion.to_f64();
        x.hypot(y)
    }
}

/// The relative offset an impact moves `a` by: its travel less `b`'s.
fn moved<S: Testable>(impact: &Impact<S>) -> QVec {
    qvec(impact.travel_a).sub(&qvec(impact.travel_b))
}

/// The sweep's outcome agrees with the oracle's: a miss exactly when the
/// path never comes within reach, in contact exactly when it starts within
/// reach (exact for fixed point; floats may differ only for near-ties);
/// and a hit's time is within tolerance of the exact first touch, never
/// after it for fixed point, with the shapes moved by the impact's travels
/// not overlapping and touching within tolerance, and every sampled
/// earlier position clear. Shapes of no reach at all (a segment against a
/// segment, a point against a segment) moved by their travels do not even
/// touch, for fixed point.
fn check_sweep<S: Testable>(outcome: Sweep<S>, scene: &Scene, scale: f64) -> Result<(), TestCaseError> {
    let exact = scene.exact();
    let overlap_tol = if S::RELATIVE == 0.0 { 0.0 } else { S::tolerance(scale, 8.0) };
    let apart_tol = S::tolerance(scale, 16.0) + 4.0 * (S::STEP + S::RELATIVE) * scene.speed();
    match (outcome, exact) {
        (Sweep::Miss, FirstTouch::Never) | (Sweep::InContact { .. }, FirstTouch::AtStart) => Ok(()),
        (Sweep::Hit(impact), FirstTouch::At(t_true)) => {
            let t = impact.t.to_f64();
            prop_assert!((0.0..=1.0).contains(&t), "{}: t = {t} outside the tick", S::NAME);
            if S::RELATIVE == 0.0 {
                // The oracle's time is itself an f64 rounding of the exact one.
                let t_late = t_true + 4.0 * f64::EPSILON;
                prop_assert!(t <= t_late, "{}: t = {t} after the first touch at {t_true}", S::NAME);
                if scene.reach.is_zero() {
                    prop_assert!(
                        scene.dist2_at(&moved(&impact)).is_positive(),
                        "{}: moved by their travels, shapes of no reach touch: {impact:?}",
                        S::NAME
                    );
                }
            }
            let gap = scene.gap_at(&moved(&impact));
            prop_assert!(gap >= -overlap_tol, "{}: overlapping by {:e} at t = {t} (exact: {t_true})", S::NAME, -gap);
            prop_assert!(
                gap <= apart_tol,
                "{}: {gap:e} apart at t = {t} (exact first touch {t_true}, tol {apart_tol:e})",
                S::NAME
            );
            for k in 0..8 {
                let earlier = t * f64::from(k) / 8.0;
                let gap = scene.gap_at(&scene.offset(earlier));
                prop_assert!(gap >= -overlap_tol, "{}: overlapping by {:e} at t = {earlier}", S::NAME, -gap);
            }
            Ok(())
        }
        (outcome, exact) => {
            // Only a float may disagree, and only where the path's closest
            // approach, or its start, is within rounding of the reach.
            let closest = scene.closest();
            let at_start = scene.gap_at(&scene.offset(0.0));
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
    let scene = Scene::point(qvec(c.center()), qvec(m), qvec(s.start()), qvec(s.end()), c.radius().to_rational());
    let scale = scale_of(&[c.center().x, c.center().y, m.x, m.y, s.start().x, s.start().y, s.end().x, s.end().y]);
    check_sweep(sweep_circle_segment(&c, m, &s), &scene, scale)
}

fn sweep_circle_capsule_matches_the_oracle<S: Testable>(
    c: Circle<S>,
    m: Vec2<S>,
    k: Capsule<S>,
) -> Result<(), TestCaseError> {
    let s = k.segment();
    let reach = c.radius().to_rational() + k.radius().to_rational();
    let scene = Scene::point(qvec(c.center()), qvec(m), qvec(s.start()), qvec(s.end()), reach);
    let scale = scale_of(&[c.center().x, c.center().y, m.x, m.y, s.start().x, s.start().y, s.end().x, s.end().y]);
    check_sweep(sweep_circle_capsule(&c, m, &k), &scene, scale)
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
    let point = |c: &Circle<S>| Segment::new(c.center(), c.center()).expect("in range");
    let reach = a.radius().to_rational() + b.radius().to_rational();
    let scene = Scene::cores(point(&a), ma, point(&b), mb, reach);
    let scale = scale_of(&[a.center().x, a.center().y, b.center().x, b.center().y, ma.x, ma.y, mb.x, mb.y]);
    relative_sweeps_agree(|ma, mb| sweep_circle_circle(&a, ma, &b, mb), ma, mb, &scene, scale)
}

/// The sweep of `a` moving by `ma` against `b` moving by `mb`, as `sweep`,
/// matches the oracle on the relative motion; and holding `b` still with
/// `a` moving by the difference gives the same outcome, unless that
/// difference exceeds the range a single motion is clamped to.
fn relative_sweeps_agree<S: Testable>(
    sweep: impl Fn(Vec2<S>, Vec2<S>) -> Sweep<S>,
    ma: Vec2<S>,
    mb: Vec2<S>,
    scene: &Scene,
    scale: f64,
) -> Result<(), TestCaseError> {
    let moving = sweep(ma, mb);
    check_sweep(moving, scene, scale)?;
    let cores_apart = scene.dist2_at(&scene.offset(0.0));
    let cores_touch =
        cores_apart.is_zero() || (S::RELATIVE > 0.0 && oracle::sqrt_f64(&cores_apart) <= S::tolerance(scale, 16.0));
    let difference = ma - mb;
    let max = S::MAX_COORD;
    if difference.x.abs_le(max) && difference.y.abs_le(max) {
        let still = sweep(difference, Vec2::ZERO);
        check_sweep(still, scene, scale)?;
        match (moving, still) {
            (Sweep::Miss, Sweep::Miss) | (Sweep::Hit(_), Sweep::Hit(_)) => {}
            // Cores that touch at the start (for floats: within rounding)
            // have no normal in the geometry: whether the motion pushes in
            // is judged against a convention that a point core held still
            // (a circle) and a moving one (the cores' separating axis)
            // choose differently.
            (Sweep::InContact { .. }, Sweep::InContact { .. }) if cores_touch => {}
            (Sweep::InContact { blocked: x, .. }, Sweep::InContact { blocked: y, .. }) => prop_assert_eq!(x, y),
            (x, y) => prop_assert!(S::RELATIVE > 0.0, "{}: moving {x:?}, relative {y:?}", S::NAME),
        }
    }
    Ok(())
}

fn capsule_scale<S: Testable>(a: &Segment<S>, ma: Vec2<S>, b: &Segment<S>, mb: Vec2<S>) -> f64 {
    scale_of(&[
        a.start().x,
        a.start().y,
        a.end().x,
        a.end().y,
        ma.x,
        ma.y,
        b.start().x,
        b.start().y,
        b.end().x,
        b.end().y,
        mb.x,
        mb.y,
    ])
}

fn sweep_capsule_segment_matches_the_oracle<S: Testable>(
    k: Capsule<S>,
    m: Vec2<S>,
    s: Segment<S>,
) -> Result<(), TestCaseError> {
    let scene = Scene::cores(k.segment(), m, s, Vec2::ZERO, k.radius().to_rational());
    let scale = capsule_scale(&k.segment(), m, &s, Vec2::ZERO);
    check_sweep(sweep_capsule_segment(&k, m, &s), &scene, scale)
}

/// Two moving capsules are swept on their relative motion, as circles are.
fn sweep_moving_capsules_is_the_static_sweep_on_relative_motion<S: Testable>(
    a: Capsule<S>,
    ma: Vec2<S>,
    b: Capsule<S>,
    mb: Vec2<S>,
) -> Result<(), TestCaseError> {
    let reach = a.radius().to_rational() + b.radius().to_rational();
    let scene = Scene::cores(a.segment(), ma, b.segment(), mb, reach);
    let scale = capsule_scale(&a.segment(), ma, &b.segment(), mb);
    relative_sweeps_agree(|ma, mb| sweep_capsule_capsule(&a, ma, &b, mb), ma, mb, &scene, scale)
}

/// Two moving segments are swept on their relative motion; moved by their
/// travels they never touch (for fixed point; see [`check_sweep`]).
fn sweep_moving_segments_is_the_static_sweep_on_relative_motion<S: Testable>(
    a: Segment<S>,
    ma: Vec2<S>,
    b: Segment<S>,
    mb: Vec2<S>,
) -> Result<(), TestCaseError> {
    let scene = Scene::cores(a, ma, b, mb, Q::zero());
    let scale = capsule_scale(&a, ma, &b, mb);
    relative_sweeps_agree(|ma, mb| sweep_segment_segment(&a, ma, &b, mb), ma, mb, &scene, scale)
}

/// A capsule whose core is a point is a circle and sweeps as one, bit for
/// bit: two such as two circles (moving or not); one against a static
/// capsule or segment as a circle against it; a static one against a
/// capsule as the capsule against a circle.
fn a_capsule_with_a_point_core_sweeps_as_a_circle_bit_for_bit<S: Testable>(
    a: Capsule<S>,
    ma: Vec2<S>,
    b: Capsule<S>,
    mb: Vec2<S>,
) -> Result<(), TestCaseError> {
    let (pa, pb) = (a.segment().start(), b.segment().start());
    let dot = |p: Vec2<S>, r: S| Capsule::new(p, p, r).expect("in range");
    let circle = |p: Vec2<S>, r: S| Circle::new(p, r).expect("in range");
    let (ca, cb) = (circle(pa, a.radius()), circle(pb, b.radius()));
    let (dot_a, dot_b) = (dot(pa, a.radius()), dot(pb, b.radius()));
    prop_assert_eq!(sweep_capsule_capsule(&dot_a, ma, &dot_b, mb), sweep_circle_circle(&ca, ma, &cb, mb));
    // Against a static capsule whose core is not a point, as the circle
    // sweeps against capsules and segments.
    let wall = b.segment();
    if wall.start() != wall.end() {
        prop_assert_eq!(sweep_capsule_capsule(&dot_a, ma, &b, Vec2::ZERO), sweep_circle_capsule(&ca, ma, &b));
        prop_assert_eq!(sweep_capsule_segment(&dot_a, ma, &wall), sweep_circle_segment(&ca, ma, &wall));
    }
    let core_a = a.segment();
    if core_a.start() != core_a.end() {
        prop_assert_eq!(sweep_capsule_capsule(&a, ma, &dot_b, Vec2::ZERO), sweep_capsule_circle(&a, ma, &cb));
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
    let thin = Capsule::new(s.start(), s.end(), S::ZERO).expect("a valid capsule");
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

/// A blade (a segment) whose end point's path crosses a thin wall (a
/// segment) is always caught: the sweep never reports a miss, whichever of
/// the two moves; for fixed point the blade moved by its travel does not
/// touch the wall, and its end point is still strictly on its starting
/// side of the wall's line (it never skipped through).
fn a_crossing_blade_never_tunnels<S: Testable>(
    c: Circle<S>,
    m: Vec2<S>,
    wall: Segment<S>,
) -> Result<(), TestCaseError> {
    let (w0, w1) = (qvec(wall.start()), qvec(wall.end()));
    let start = qvec(c.center());
    prop_assume!(oracle::segments_intersect(&start, &start.add(&qvec(m)), &w0, &w1));
    let side = |p: &QVec| w1.sub(&w0).cross(&p.sub(&w0));
    let start_side = side(&start);
    prop_assume!(!start_side.is_zero());
    // The blade trails from the crossing end point by the circle's radius,
    // both ways, clear of the wall at the start.
    let r = c.radius();
    let tail = Vec2::new(c.center().x - r, c.center().y + r);
    prop_assume!(tail.x.abs_le(S::MAX_COORD) && tail.y.abs_le(S::MAX_COORD));
    let blade = Segment::new(c.center(), tail).expect("in range");
    prop_assume!(oracle::dist2_segment_segment(&start, &qvec(tail), &w0, &w1).is_positive());
    for (outcome, flip) in [
        (sweep_segment_segment(&blade, m, &wall, Vec2::ZERO), false),
        (sweep_segment_segment(&wall, -m, &blade, Vec2::ZERO), true),
    ] {
        match outcome {
            Sweep::Hit(impact) if S::RELATIVE == 0.0 => {
                let offset = if flip { moved(&impact).scale(&-Q::one()) } else { moved(&impact) };
                let end = start.add(&offset);
                prop_assert!(
                    side(&end) * &start_side > Q::zero(),
                    "{}: the blade's end point reached or crossed the wall: {impact:?}",
                    S::NAME
                );
                let touching = oracle::dist2_segment_segment(&end, &qvec(tail).add(&offset), &w0, &w1);
                prop_assert!(touching.is_positive(), "{}: the stopped blade touches the wall: {impact:?}", S::NAME);
            }
            Sweep::Hit(_) | Sweep::InContact { blocked: true, .. } if S::RELATIVE > 0.0 => {}
            other => prop_assert!(false, "{}: a crossing blade got {other:?}", S::NAME),
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

                #[test]
                fn sweep_capsule_segment_matches_the_oracle((k, m, s) in strategy::sweep_capsule_segment::<T>()) {
                    super::sweep_capsule_segment_matches_the_oracle(k, m, s)?;
                }

                #[test]
                fn sweep_moving_capsules_is_the_static_sweep_on_relative_motion(
                    (a, ma, b, mb) in strategy::sweep_capsule_capsule::<T>()
                ) {
                    super::sweep_moving_capsules_is_the_static_sweep_on_relative_motion(a, ma, b, mb)?;
                }

                #[test]
                fn sweep_moving_segments_is_the_static_sweep_on_relative_motion(
                    (a, ma, b, mb) in strategy::sweep_segment_segment::<T>()
                ) {
                    super::sweep_moving_segments_is_the_static_sweep_on_relative_motion(a, ma, b, mb)?;
                }

                #[test]
                fn a_capsule_with_a_point_core_sweeps_as_a_circle_bit_for_bit(
                    (a, ma, b, mb) in strategy::sweep_capsule_capsule::<T>()
                ) {
                    super::a_capsule_with_a_point_core_sweeps_as_a_circle_bit_for_bit(a, ma, b, mb)?;
                }

                #[test]
                fn a_crossing_blade_never_tunnels((c, m, s) in strategy::tunnelling::<T>()) {
                    super::a_crossing_blade_never_tunnels(c, m, s)?;
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
