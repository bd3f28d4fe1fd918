//! The `swept_queries` checks: every `sweep_*` query on shapes and motions
//! from the grammar, huge and non-finite motions included.

use geom_core::{
    Capsule, Circle, Contact, Impact, Segment, Sweep, Vec2, contact_capsule_capsule, contact_circle_capsule,
    contact_circle_circle, contact_circle_segment, intersects_capsule_capsule, intersects_circle_capsule,
    intersects_circle_circle, intersects_circle_segment, sweep_capsule_capsule, sweep_capsule_circle,
    sweep_capsule_segment, sweep_circle_capsule, sweep_circle_circle, sweep_circle_segment, sweep_segment_segment,
};

use super::{FuzzScalar, Input, finite, has_nan, scale_of, tolerance, unit_tolerance, unit_within};
use crate::oracle::{self, FirstTouch, Q, QVec};
use crate::strategy::clamp_point;
use crate::{qvec, rational_to_f64};
use num_traits::Zero;

pub(super) fn check<S: FuzzScalar>(input: &mut Input<'_, S>) {
    let circle = input.circle();
    let motion = input.point();
    let segment = input.segment();
    let capsule = input.capsule();
    let capsule_motion = input.point();
    let other = input.circle();
    let other_motion = input.point();
    if let (Some(c), Some(s)) = (circle, segment) {
        circle_segment(&c, motion, &s);
    }
    if let (Some(c), Some(k)) = (circle, capsule) {
        circle_capsule(&c, motion, &k);
        capsule_circle(&k, capsule_motion, &c);
    }
    if let (Some(c), Some(d)) = (circle, other) {
        circle_circle(&c, motion, &d, other_motion);
    }
    // Drawn after the circle sweeps' shapes, so that inputs written for
    // those still decode to the same scenes.
    let second = input.capsule();
    let second_motion = input.point();
    let thin = |s: Segment<S>| Capsule::new(s.start(), s.end(), S::ZERO).expect("a valid core");
    if let (Some(k), Some(s)) = (capsule, segment) {
        let outcome = sweep_capsule_segment(&k, capsule_motion, &s);
        cores("sweep_capsule_segment", outcome, (&k, capsule_motion), (&thin(s), Vec2::ZERO));
    }
    if let (Some(k), Some(l)) = (capsule, second) {
        let outcome = sweep_capsule_capsule(&k, capsule_motion, &l, second_motion);
        cores("sweep_capsule_capsule", outcome, (&k, capsule_motion), (&l, second_motion));
        let (a, b) = (k.segment(), l.segment());
        let outcome = sweep_segment_segment(&a, capsule_motion, &b, second_motion);
        cores("sweep_segment_segment", outcome, (&thin(a), capsule_motion), (&thin(b), second_motion));
    }
}

/// A sweep in the oracle's terms: the core `start.0`–`start.1` (a point,
/// for a circle) moving by `relative` against the core `core.0`–`core.1`,
/// the radii summed in `reach`.
struct Case<'a, S> {
    what: &'a str,
    start: (Vec2<S>, Vec2<S>),
    relative: QVec,
    core: (Vec2<S>, Vec2<S>),
    reach: Q,
    /// The motions as given (both, for two moving shapes).
    motions: [Vec2<S>; 2],
    /// Whether the shapes touch at the start (the static `intersects_*`).
    touching: bool,
    /// How far the moving core has moved relative to the static one once
    /// both shapes have moved by an impact's travels.
    moved: &'a dyn Fn(&Impact<S>) -> QVec,
    /// The static query's contact, and whether its normal is the other way
    /// round from the sweep's (the sweep moves the capsule, the static
    /// query the circle; the points then lie on different shapes).
    static_contact: Option<Contact<S>>,
    flipped: bool,
    scene: String,
}

/// Properties of every sweep:
///
/// - no panic for any motion, NaN and infinities included; no NaN or
///   infinity in the answer when the motions are not NaN (infinite motions
///   are clamped, the documented saturation);
/// - `InContact` exactly when the static `intersects_*` says the shapes
///   touch at the start, with the static `contact_*`'s contact: its depth
///   always, and its normal and point unless the centre lies on the core,
///   where the sweep takes the normal from the motion (the documented
///   exception: a unit normal, then);
/// - a hit has `t` in `[0, 1]`, a unit normal, and travels no longer than
///   the (clamped) motions;
/// - the outcome is the exact oracle's (fixed point: always; floats: except
///   on near-ties); a fixed-point time is never late; and moved by their
///   travels the shapes never overlap.
fn check_case<S: FuzzScalar>(case: &Case<'_, S>, outcome: Sweep<S>) {
    if case.motions.iter().any(|&m| has_nan(m)) {
        return;
    }
    let what = case.what;
    let scene = || case.scene.clone();
    let clamped = case.motions.map(clamp_point);
    let reach = rational_to_f64(&case.reach);
    let scale = scale_of(&[
        case.start.0,
        case.start.1,
        case.core.0,
        case.core.1,
        clamped[0],
        clamped[1],
        Vec2::new(S::from_f64(reach), S::ZERO),
    ]);
    match outcome {
        Sweep::Miss => {}
        Sweep::InContact { contact, .. } => {
            assert!(
                finite(contact.point) && finite(contact.normal) && FuzzScalar::is_finite(contact.depth),
                "{}: {what}: non-finite {outcome:?}: {}",
                S::NAME,
                scene()
            );
            let expected = case.static_contact.map(|c| if case.flipped { -c.normal } else { c.normal });
            let on_core = {
                let (a0, a1) = (qvec(case.start.0), qvec(case.start.1));
                let gap = oracle::dist2_segment_segment(&a0, &a1, &qvec(case.core.0), &qvec(case.core.1));
                oracle::within(&gap, &Q::from_float(tolerance::<S>(scale, 16.0)).expect("finite"))
            };
            // On the core the sweep's normal, and so its point, come from
            // the motion: a normal that happens to round to the static one
            // need not bring the same point.
            let same = case.static_contact.is_some_and(|c| {
                c.depth == contact.depth
                    && if on_core {
                        unit_within(contact.normal, unit_tolerance::<S>())
                    } else {
                        expected == Some(contact.normal) && (case.flipped || c.point == contact.point)
                    }
            });
            assert!(
                same,
                "{}: {what}: {outcome:?} is not the static contact {:?}: {}",
                S::NAME,
                case.static_contact,
                scene()
            );
        }
        Sweep::Hit(impact) => {
            let Impact { t, normal, point, travel_a, travel_b } = impact;
            assert!(
                FuzzScalar::is_finite(t) && finite(normal) && finite(point) && finite(travel_a) && finite(travel_b),
                "{}: {what}: non-finite {impact:?}: {}",
                S::NAME,
                scene()
            );
            assert!(t >= S::ZERO && t <= S::ONE, "{}: {what}: t outside [0, 1] in {impact:?}: {}", S::NAME, scene());
            assert!(
                unit_within(normal, unit_tolerance::<S>()),
                "{}: {what}: normal not unit {impact:?}: {}",
                S::NAME,
                scene()
            );
            for (travel, motion) in [(travel_a, clamped[0]), (travel_b, clamped[1])] {
                let longer = |tr: S, m: S| tr.to_f64().abs() > m.to_f64().abs() * (1.0 + 4.0 * S::RELATIVE) + S::STEP;
                assert!(
                    !longer(travel.x, motion.x) && !longer(travel.y, motion.y),
                    "{}: {what}: travel {travel:?} beyond its motion {motion:?}: {}",
                    S::NAME,
                    scene()
                );
            }
        }
    }
    assert_eq!(
        matches!(outcome, Sweep::InContact { .. }),
        case.touching,
        "{}: {what}: {outcome:?} but the shapes {} at the start: {}",
        S::NAME,
        if case.touching { "touch" } else { "do not touch" },
        scene()
    );
    against_oracle(case, outcome, scale);
}

/// The part of [`check_case`] that asks the exact oracle: the outcome, the
/// time and the placement after the travels.
fn against_oracle<S: FuzzScalar>(case: &Case<'_, S>, outcome: Sweep<S>, scale: f64) {
    let what = case.what;
    let scene = || case.scene.clone();
    let fixed = S::RELATIVE == 0.0;
    let (a0, a1) = (qvec(case.start.0), qvec(case.start.1));
    let (b0, b1) = (qvec(case.core.0), qvec(case.core.1));
    let exact = oracle::first_touch_cores(&a0, &a1, &case.relative, &b0, &b1, &case.reach);
    let agrees = matches!(
        (outcome, exact),
        (Sweep::Miss, FirstTouch::Never)
            | (Sweep::InContact { .. }, FirstTouch::AtStart)
            | (Sweep::Hit(_), FirstTouch::At(_))
    );
    if !agrees {
        let near = |d2: &Q| oracle::gap(d2, &case.reach).abs() <= tolerance::<S>(scale, 16.0);
        let near_tie = near(&oracle::path_dist2_cores(&a0, &a1, &case.relative, &b0, &b1))
            || near(&oracle::dist2_segment_segment(&a0, &a1, &b0, &b1));
        assert!(!fixed && near_tie, "{}: {what}: {outcome:?}, but exactly {exact:?}: {}", S::NAME, scene());
    }
    if let (Sweep::Hit(impact), FirstTouch::At(t_true)) = (outcome, exact) {
        // The oracle's time is an f64 from exact terms: good to ~1e-15.
        // Property: a fixed-point time is never late.
        assert!(
            !fixed || impact.t.to_f64() <= t_true + 1e-12,
            "{}: {what}: late, t = {:?} after the exact {t_true}: {}",
            S::NAME,
            impact.t,
            scene()
        );
        let moved = (case.moved)(&impact);
        let dist2 = oracle::dist2_segment_segment(&a0.add(&moved), &a1.add(&moved), &b0, &b1);
        let overlap = -oracle::gap(&dist2, &case.reach);
        let allowed = if fixed { 0.0 } else { tolerance::<S>(scale, 16.0) };
        assert!(
            overlap <= allowed,
            "{}: {what}: moved by their travels the shapes overlap by {overlap:e} ({impact:?}): {}",
            S::NAME,
            scene()
        );
        // Property: shapes of no reach (a segment against a segment) moved
        // by their travels do not even touch, for fixed point.
        assert!(
            !fixed || !case.reach.is_zero() || !dist2.is_zero(),
            "{}: {what}: moved by their travels the shapes touch ({impact:?}): {}",
            S::NAME,
            scene()
        );
    }
}

fn circle_segment<S: FuzzScalar>(c: &Circle<S>, m: Vec2<S>, s: &Segment<S>) {
    let outcome = sweep_circle_segment(c, m, s);
    if has_nan(m) {
        return;
    }
    let static_contact = contact_circle_segment(c, s);
    let case = Case {
        what: "sweep_circle_segment",
        start: (c.center(), c.center()),
        relative: qvec(clamp_point(m)),
        core: (s.start(), s.end()),
        reach: c.radius().to_rational(),
        motions: [m, Vec2::new(S::ZERO, S::ZERO)],
        touching: intersects_circle_segment(c, s),
        moved: &|i| qvec(i.travel_a),
        static_contact,
        flipped: false,
        scene: format!("circle {c:?} moving {m:?}, segment {s:?}"),
    };
    check_case(&case, outcome);
}

fn circle_capsule<S: FuzzScalar>(c: &Circle<S>, m: Vec2<S>, k: &Capsule<S>) {
    let outcome = sweep_circle_capsule(c, m, k);
    if has_nan(m) {
        return;
    }
    let static_contact = contact_circle_capsule(c, k);
    let case = Case {
        what: "sweep_circle_capsule",
        start: (c.center(), c.center()),
        relative: qvec(clamp_point(m)),
        core: (k.segment().start(), k.segment().end()),
        reach: c.radius().to_rational() + k.radius().to_rational(),
        motions: [m, Vec2::new(S::ZERO, S::ZERO)],
        touching: intersects_circle_capsule(c, k),
        moved: &|i| qvec(i.travel_a),
        static_contact,
        flipped: false,
        scene: format!("circle {c:?} moving {m:?}, capsule {k:?}"),
    };
    check_case(&case, outcome);
}

fn capsule_circle<S: FuzzScalar>(k: &Capsule<S>, m: Vec2<S>, c: &Circle<S>) {
    let outcome = sweep_capsule_circle(k, m, c);
    if has_nan(m) {
        return;
    }
    // Seen from the capsule, the circle moves by −m: the same scene as
    // sweep_circle_capsule, with the normal the other way.
    let static_contact = contact_circle_capsule(c, k);
    let case = Case {
        what: "sweep_capsule_circle",
        start: (c.center(), c.center()),
        relative: qvec(clamp_point(m)).scale(&Q::from_integer((-1).into())),
        core: (k.segment().start(), k.segment().end()),
        reach: c.radius().to_rational() + k.radius().to_rational(),
        motions: [m, Vec2::new(S::ZERO, S::ZERO)],
        touching: intersects_circle_capsule(c, k),
        moved: &|i| qvec(i.travel_b).sub(&qvec(i.travel_a)),
        static_contact,
        flipped: true,
        scene: format!("capsule {k:?} moving {m:?}, circle {c:?}"),
    };
    check_case(&case, outcome);
}

fn circle_circle<S: FuzzScalar>(c: &Circle<S>, m: Vec2<S>, d: &Circle<S>, md: Vec2<S>) {
    let outcome = sweep_circle_circle(c, m, d, md);
    if has_nan(m) || has_nan(md) {
        return;
    }
    let static_contact = contact_circle_circle(c, d);
    let case = Case {
        what: "sweep_circle_circle",
        start: (c.center(), c.center()),
        relative: qvec(clamp_point(m)).sub(&qvec(clamp_point(md))),
        core: (d.center(), d.center()),
        reach: c.radius().to_rational() + d.radius().to_rational(),
        motions: [m, md],
        touching: intersects_circle_circle(c, d),
        moved: &|i| qvec(i.travel_a).sub(&qvec(i.travel_b)),
        static_contact,
        flipped: false,
        scene: format!("circle {c:?} moving {m:?}, circle {d:?} moving {md:?}"),
    };
    check_case(&case, outcome);
}

/// A capsule (or segment: radius zero) `a` moving against `b` moving (or
/// still), with `outcome` the sweep under test: in contact exactly as
/// `intersects_capsule_capsule` says, with `contact_capsule_capsule`'s
/// contact.
fn cores<S: FuzzScalar>(
    what: &'static str,
    outcome: Sweep<S>,
    (a, ma): (&Capsule<S>, Vec2<S>),
    (b, mb): (&Capsule<S>, Vec2<S>),
) {
    if has_nan(ma) || has_nan(mb) {
        return;
    }
    let (core_a, core_b) = (a.segment(), b.segment());
    let case = Case {
        what,
        start: (core_a.start(), core_a.end()),
        relative: qvec(clamp_point(ma)).sub(&qvec(clamp_point(mb))),
        core: (core_b.start(), core_b.end()),
        reach: a.radius().to_rational() + b.radius().to_rational(),
        motions: [ma, mb],
        touching: intersects_capsule_capsule(a, b),
        moved: &|i| qvec(i.travel_a).sub(&qvec(i.travel_b)),
        static_contact: contact_capsule_capsule(a, b),
        flipped: false,
        scene: format!("{a:?} moving {ma:?}, {b:?} moving {mb:?}"),
    };
    check_case(&case, outcome);
}
