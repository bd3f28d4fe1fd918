//! Cross-precision properties of the static queries, checked against the
//! exact rational oracle and against `f64`, for every scalar type.
//!
//! Each property is a generic function stating in words what must hold; the
//! `properties!` macro runs all of them for one scalar type.
//!
//! Tolerances are stated in rounding steps of the types involved: a
//! quantity computed from values of magnitude up to `scale` may be off by
//! `k·(STEP + RELATIVE·scale)` (see `Testable::tolerance`), where `STEP` is
//! `2^-F` for fixed-point types and `RELATIVE` is the machine epsilon for
//! floats.

use geom_core::{
    Capsule, Circle, Contact, Segment, Vec2, closest_point_point_segment, contact_capsule_capsule,
    contact_circle_capsule, contact_circle_circle, contact_circle_segment, distance_point_segment,
    intersects_capsule_capsule, intersects_circle_capsule, intersects_circle_circle, intersects_circle_segment,
};
use geom_test::oracle::{self, Q};
use geom_test::{QVec, Testable, qvec, strategy, vec_to_f64};
use num_bigint::BigInt;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// The largest magnitude among the given values: what rounding errors scale
/// with.
fn scale_of<S: Testable>(values: &[S]) -> f64 {
    values.iter().map(|v| v.to_f64().abs()).fold(1.0, f64::max)
}

fn circle_values<S: Testable>(c: &Circle<S>) -> [S; 3] {
    [c.center().x, c.center().y, c.radius()]
}

fn segment_values<S: Testable>(s: &Segment<S>) -> [S; 4] {
    [s.start().x, s.start().y, s.end().x, s.end().y]
}

fn capsule_values<S: Testable>(c: &Capsule<S>) -> [S; 5] {
    let [a, b, x, y] = segment_values(&c.segment());
    [a, b, x, y, c.radius()]
}

fn q_of<S: Testable>(v: S) -> Q {
    v.to_rational()
}

fn to_f64_circle<S: Testable>(c: &Circle<S>) -> Circle<f64> {
    Circle::new(vec_to_f64(c.center()), c.radius().to_f64()).expect("f64 holds every in-range value")
}

fn to_f64_segment<S: Testable>(s: &Segment<S>) -> Segment<f64> {
    Segment::new(vec_to_f64(s.start()), vec_to_f64(s.end())).expect("f64 holds every in-range value")
}

fn to_f64_capsule<S: Testable>(c: &Capsule<S>) -> Capsule<f64> {
    Capsule::new(vec_to_f64(c.segment().start()), vec_to_f64(c.segment().end()), c.radius().to_f64())
        .expect("f64 holds every in-range value")
}

// ------------------------------------------------------------ closest point

/// The closest point lies on the segment (within rounding), matches the
/// oracle's closest point, and no point sampled along the segment is closer
/// to the query point.
fn closest_point_is_on_the_segment_and_nothing_is_closer<S: Testable>(
    p: Vec2<S>,
    segment: Segment<S>,
) -> Result<(), TestCaseError> {
    let c = closest_point_point_segment(p, &segment);
    let scale = scale_of(&[p.x, p.y]).max(scale_of(&segment_values(&segment)));
    // The closest point is rounded once per coordinate from an exact ratio
    // (fixed point), or computed with a few f64 roundings (floats).
    let tol = S::tolerance(scale, 4.0);
    let (a, b, qp) = (qvec(segment.start()), qvec(segment.end()), qvec(p));
    let off = oracle::sqrt_f64(&oracle::dist2_point_segment(&qvec(c.point), &a, &b));
    prop_assert!(off <= tol, "{}: closest point {:?} is {off:e} off the segment (tol {tol:e})", S::NAME, c.point);
    let (exact, _) = oracle::closest_point_segment(&qp, &a, &b);
    let miss = oracle::sqrt_f64(&qvec(c.point).sub(&exact).length_squared());
    prop_assert!(miss <= tol, "{}: closest point {:?} is {miss:e} from the exact one", S::NAME, c.point);
    let found = oracle::sqrt_f64(&qp.sub(&qvec(c.point)).length_squared());
    let d = b.sub(&a);
    for k in 0..=32 {
        let t = Q::new(BigInt::from(k), BigInt::from(32));
        let sample = a.add(&d.scale(&t));
        let there = oracle::sqrt_f64(&qp.sub(&sample).length_squared());
        prop_assert!(found <= there + tol, "{}: sample t = {k}/32 is closer ({there:e} < {found:e})", S::NAME);
    }
    Ok(())
}

/// Reversing a segment changes nothing: the closest point, the distance and
/// every contact against it are bit-identical; `t` becomes `1 − t` within a
/// rounding step.
fn reversing_the_segment_changes_nothing<S: Testable>(c: Circle<S>, segment: Segment<S>) -> Result<(), TestCaseError> {
    let reversed = segment.reversed();
    let (p, r) = (c.center(), c.radius());
    let fwd = closest_point_point_segment(p, &segment);
    let back = closest_point_point_segment(p, &reversed);
    prop_assert_eq!(fwd.point, back.point);
    let sum = (fwd.t + back.t).to_f64();
    // A zero-length segment reports t = 0 either way.
    let expected = if segment.start() == segment.end() { 0.0 } else { 1.0 };
    prop_assert!((sum - expected).abs() <= S::tolerance(1.0, 2.0), "{}: t + t' = {sum}", S::NAME);
    prop_assert_eq!(distance_point_segment(p, &segment), distance_point_segment(p, &reversed));
    prop_assert_eq!(contact_circle_segment(&c, &segment), contact_circle_segment(&c, &reversed));
    let cap = Capsule::new(segment.start(), segment.end(), r).expect("in range");
    let cap_rev = Capsule::new(reversed.start(), reversed.end(), r).expect("in range");
    prop_assert_eq!(contact_circle_capsule(&c, &cap), contact_circle_capsule(&c, &cap_rev));
    Ok(())
}

// ------------------------------------------------------------ intersects

/// `intersects` agrees with the exact oracle, and with `contact().is_some()`.
/// For fixed-point types the agreement is total; floats may differ only
/// where the shapes are within a rounding step of touching.
fn check_intersects<S: Testable>(
    got: bool,
    contact: bool,
    dist2: &Q,
    reach: &Q,
    scale: f64,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(got, contact, "{}: intersects and contact disagree", S::NAME);
    let exact = oracle::within(dist2, reach);
    if S::RELATIVE == 0.0 {
        prop_assert_eq!(got, exact, "{}: exact answer is {} (dist² {}, reach {})", S::NAME, exact, dist2, reach);
    } else {
        let gap = oracle::sqrt_f64(dist2) - geom_test::rational_to_f64(reach);
        if gap.abs() > S::tolerance(scale, 8.0) {
            prop_assert_eq!(got, exact, "{}: gap {:e} is not a near-tie", S::NAME, gap);
        }
    }
    Ok(())
}

fn intersects_circle_segment_is_exact<S: Testable>(c: Circle<S>, s: Segment<S>) -> Result<(), TestCaseError> {
    let d2 = oracle::dist2_point_segment(&qvec(c.center()), &qvec(s.start()), &qvec(s.end()));
    let scale = scale_of(&circle_values(&c)).max(scale_of(&segment_values(&s)));
    let got = intersects_circle_segment(&c, &s);
    check_intersects::<S>(got, contact_circle_segment(&c, &s).is_some(), &d2, &q_of(c.radius()), scale)
}

fn intersects_circle_capsule_is_exact<S: Testable>(c: Circle<S>, k: Capsule<S>) -> Result<(), TestCaseError> {
    let s = k.segment();
    let d2 = oracle::dist2_point_segment(&qvec(c.center()), &qvec(s.start()), &qvec(s.end()));
    let reach = q_of(c.radius()) + q_of(k.radius());
    let scale = scale_of(&circle_values(&c)).max(scale_of(&capsule_values(&k)));
    let got = intersects_circle_capsule(&c, &k);
    check_intersects::<S>(got, contact_circle_capsule(&c, &k).is_some(), &d2, &reach, scale)
}

fn intersects_circle_circle_is_exact<S: Testable>(a: Circle<S>, b: Circle<S>) -> Result<(), TestCaseError> {
    let d2 = qvec(a.center()).sub(&qvec(b.center())).length_squared();
    let reach = q_of(a.radius()) + q_of(b.radius());
    let scale = scale_of(&circle_values(&a)).max(scale_of(&circle_values(&b)));
    let got = intersects_circle_circle(&a, &b);
    check_intersects::<S>(got, contact_circle_circle(&a, &b).is_some(), &d2, &reach, scale)
}

fn intersects_capsule_capsule_is_exact<S: Testable>(a: Capsule<S>, b: Capsule<S>) -> Result<(), TestCaseError> {
    let (sa, sb) = (a.segment(), b.segment());
    let d2 = oracle::dist2_segment_segment(&qvec(sa.start()), &qvec(sa.end()), &qvec(sb.start()), &qvec(sb.end()));
    let reach = q_of(a.radius()) + q_of(b.radius());
    let scale = scale_of(&capsule_values(&a)).max(scale_of(&capsule_values(&b)));
    let got = intersects_capsule_capsule(&a, &b);
    check_intersects::<S>(got, contact_capsule_capsule(&a, &b).is_some(), &d2, &reach, scale)
}

// ------------------------------------------------------------ contacts

/// A contact's depth is the exact one (the oracle's gap, negated, within
/// 8 steps of `S` plus 8 of `f64` at the scene's scale: the depth of `f64`
/// is held to the oracle too, not to itself), and its normal agrees with
/// `f64`'s, each component within 4 steps of `S` at unit scale plus the
/// positional tolerance divided by the core distance, where the normal is
/// well conditioned (closer than that, any direction is within rounding of
/// right). `f64`'s own normal is
/// held by [`check_push_out`]: pushed out along a wrong normal, the shapes
/// would not be left touching.
fn check_contact_depth_is_exact_and_normal_agrees_with_f64<S: Testable>(
    got: Option<Contact<S>>,
    reference: Option<Contact<f64>>,
    core_distance: f64,
    exact_gap: Option<f64>,
    scale: f64,
) -> Result<(), TestCaseError> {
    let Some(got) = got else { return Ok(()) };
    let position_tol = S::tolerance(scale, 8.0) + f64::tolerance(scale, 8.0);
    // Crossing cores have no gap to take the depth from (it is how far
    // apart they must be pushed): there the depth is held to f64's, and
    // f64's by the push-out check.
    let expected = match (exact_gap, &reference) {
        (Some(gap), _) => Some(("exact", (-gap).max(0.0))),
        (None, Some(r)) if S::NAME != "f64" => Some(("f64", r.depth)),
        (None, _) => None,
    };
    if let Some((what, depth)) = expected {
        let depth_error = (got.depth.to_f64() - depth).abs();
        prop_assert!(
            depth_error <= position_tol,
            "{}: depth {} vs {what} {depth} (off {depth_error:e}, tol {position_tol:e})",
            S::NAME,
            got.depth
        );
    }
    if let Some(reference) = reference.filter(|_| S::NAME != "f64") {
        let normal_tol = S::tolerance(1.0, 4.0) + 4.0 * position_tol / core_distance.max(f64::MIN_POSITIVE);
        if normal_tol < 0.1 {
            let n = vec_to_f64(got.normal);
            let error = (n.x - reference.normal.x).abs().max((n.y - reference.normal.y).abs());
            prop_assert!(
                error <= normal_tol,
                "{}: normal {:?} vs f64 {:?} (off {error:e}, tol {normal_tol:e})",
                S::NAME,
                got.normal,
                reference.normal
            );
        }
    }
    Ok(())
}

/// After moving the first shape by the push-out offset the shapes touch:
/// their exact gap is zero within the rounding of the offset (the normal's
/// rounding times the depth, plus the depth's own rounding). Floats treat a
/// distance below 16 `f64` rounding steps of the scale as zero, because the
/// side a point lies on is unknown there; pushing out along the resulting
/// default normal may leave up to twice that.
fn check_push_out<S: Testable>(
    contact: Option<Contact<S>>,
    gap_after: impl Fn(Vec2<S>) -> f64,
    scale: f64,
) -> Result<(), TestCaseError> {
    let Some(contact) = contact else { return Ok(()) };
    let offset = contact.push_out();
    let gap = gap_after(offset);
    let snap = if S::RELATIVE > 0.0 { 32.0 * f64::EPSILON * scale } else { 0.0 };
    let tol = S::tolerance(scale, 8.0) + S::tolerance(1.0, 4.0) * contact.depth.to_f64() + snap;
    prop_assert!(gap.abs() <= tol, "{}: gap {gap:e} after pushing out of {contact:?} (tol {tol:e})", S::NAME);
    Ok(())
}

fn moved(p: &QVec, offset: &QVec) -> QVec {
    p.add(offset)
}

fn contact_circle_segment_is_accurate<S: Testable>(c: Circle<S>, s: Segment<S>) -> Result<(), TestCaseError> {
    let scale = scale_of(&circle_values(&c)).max(scale_of(&segment_values(&s)));
    let contact = contact_circle_segment(&c, &s);
    let (a, b) = (qvec(s.start()), qvec(s.end()));
    let d2 = oracle::dist2_point_segment(&qvec(c.center()), &a, &b);
    let reference = contact_circle_segment(&to_f64_circle(&c), &to_f64_segment(&s));
    let gap = Some(oracle::gap(&d2, &q_of(c.radius())));
    check_contact_depth_is_exact_and_normal_agrees_with_f64(contact, reference, oracle::sqrt_f64(&d2), gap, scale)?;
    check_push_out(
        contact,
        |offset| {
            let centre = moved(&qvec(c.center()), &qvec(offset));
            oracle::gap(&oracle::dist2_point_segment(&centre, &a, &b), &q_of(c.radius()))
        },
        scale,
    )
}

fn contact_circle_capsule_is_accurate<S: Testable>(c: Circle<S>, k: Capsule<S>) -> Result<(), TestCaseError> {
    let scale = scale_of(&circle_values(&c)).max(scale_of(&capsule_values(&k)));
    let contact = contact_circle_capsule(&c, &k);
    let (a, b) = (qvec(k.segment().start()), qvec(k.segment().end()));
    let d2 = oracle::dist2_point_segment(&qvec(c.center()), &a, &b);
    let reference = contact_circle_capsule(&to_f64_circle(&c), &to_f64_capsule(&k));
    let reach = q_of(c.radius()) + q_of(k.radius());
    let gap = Some(oracle::gap(&d2, &reach));
    check_contact_depth_is_exact_and_normal_agrees_with_f64(contact, reference, oracle::sqrt_f64(&d2), gap, scale)?;
    check_push_out(
        contact,
        |offset| {
            let centre = moved(&qvec(c.center()), &qvec(offset));
            oracle::gap(&oracle::dist2_point_segment(&centre, &a, &b), &reach)
        },
        scale,
    )
}

fn contact_circle_circle_is_accurate<S: Testable>(a: Circle<S>, b: Circle<S>) -> Result<(), TestCaseError> {
    let scale = scale_of(&circle_values(&a)).max(scale_of(&circle_values(&b)));
    let contact = contact_circle_circle(&a, &b);
    let d2 = qvec(a.center()).sub(&qvec(b.center())).length_squared();
    let reference = contact_circle_circle(&to_f64_circle(&a), &to_f64_circle(&b));
    let reach = q_of(a.radius()) + q_of(b.radius());
    let gap = Some(oracle::gap(&d2, &reach));
    check_contact_depth_is_exact_and_normal_agrees_with_f64(contact, reference, oracle::sqrt_f64(&d2), gap, scale)?;
    check_push_out(
        contact,
        |offset| {
            let centre = moved(&qvec(a.center()), &qvec(offset));
            oracle::gap(&centre.sub(&qvec(b.center())).length_squared(), &reach)
        },
        scale,
    )
}

fn contact_capsule_capsule_is_accurate<S: Testable>(a: Capsule<S>, b: Capsule<S>) -> Result<(), TestCaseError> {
    let scale = scale_of(&capsule_values(&a)).max(scale_of(&capsule_values(&b)));
    let contact = contact_capsule_capsule(&a, &b);
    let (a0, a1) = (qvec(a.segment().start()), qvec(a.segment().end()));
    let (b0, b1) = (qvec(b.segment().start()), qvec(b.segment().end()));
    let d2 = oracle::dist2_segment_segment(&a0, &a1, &b0, &b1);
    let reference = contact_capsule_capsule(&to_f64_capsule(&a), &to_f64_capsule(&b));
    // When the cores touch or cross, S and f64 may pick different but
    // equally shallow directions: compare depths only.
    let core_distance = oracle::sqrt_f64(&d2);
    let reach = q_of(a.radius()) + q_of(b.radius());
    let gap = (oracle::sqrt_f64(&d2) > 0.0).then(|| oracle::gap(&d2, &reach));
    check_contact_depth_is_exact_and_normal_agrees_with_f64(contact, reference, core_distance, gap, scale)?;
    check_push_out(
        contact,
        |offset| {
            let o = qvec(offset);
            oracle::gap(&oracle::dist2_segment_segment(&moved(&a0, &o), &moved(&a1, &o), &b0, &b1), &reach)
        },
        scale,
    )
}

/// Property: a capsule whose core is a single point is a circle. Against
/// any capsule, either way round, it has a contact exactly when the circle
/// has, and the same depth, bit for bit; and unless the point lies on the
/// core (exactly, or for floats within rounding), the same normal
/// (reversed when the point is the second capsule), and as the first
/// capsule the same point too. On the core, the capsules may take the
/// crossing cores' axis, where the circle takes the core's perpendicular.
fn a_point_cored_capsule_is_the_circle<S: Testable>(c: Circle<S>, k: Capsule<S>) -> Result<(), TestCaseError> {
    let point = Capsule::new(c.center(), c.center(), c.radius()).expect("a circle's values are in range");
    let circle = contact_circle_capsule(&c, &k);
    let (first, second) = (contact_capsule_capsule(&point, &k), contact_capsule_capsule(&k, &point));
    prop_assert_eq!(first.map(|c| c.depth), circle.map(|c| c.depth));
    prop_assert_eq!(second.map(|c| c.depth), circle.map(|c| c.depth));
    // On the core: exactly for fixed point; for floats, within rounding
    // (where the float kernels may find the distance zero).
    let core = k.segment();
    let dist2 = oracle::dist2_point_segment(&qvec(c.center()), &qvec(core.start()), &qvec(core.end()));
    let on_core = if S::RELATIVE == 0.0 {
        dist2 == Q::from_integer(BigInt::from(0))
    } else {
        let scale = scale_of(&circle_values(&c)).max(scale_of(&capsule_values(&k)));
        oracle::sqrt_f64(&dist2) <= S::tolerance(scale, 16.0)
    };
    if let (Some(first), Some(second), Some(circle), false) = (first, second, circle, on_core) {
        prop_assert_eq!(first, circle);
        prop_assert_eq!(second.normal, -circle.normal);
    }
    Ok(())
}

macro_rules! properties {
    ($module:ident, $t:ty) => {
        mod $module {
            use super::*;
            type T = $t;

            proptest! {
                #![proptest_config(geom_test::config())]

                #[test]
                fn closest_point_is_on_the_segment_and_nothing_is_closer((p, s) in strategy::point_segment::<T>()) {
                    super::closest_point_is_on_the_segment_and_nothing_is_closer(p, s)?;
                }

                #[test]
                fn reversing_the_segment_changes_nothing((c, s) in strategy::circle_segment::<T>()) {
                    super::reversing_the_segment_changes_nothing(c, s)?;
                }

                #[test]
                fn intersects_circle_segment_is_exact((c, s) in strategy::circle_segment::<T>()) {
                    super::intersects_circle_segment_is_exact(c, s)?;
                }

                #[test]
                fn intersects_circle_capsule_is_exact((c, k) in strategy::circle_capsule::<T>()) {
                    super::intersects_circle_capsule_is_exact(c, k)?;
                }

                #[test]
                fn intersects_circle_circle_is_exact((a, b) in strategy::circle_circle::<T>()) {
                    super::intersects_circle_circle_is_exact(a, b)?;
                }

                #[test]
                fn intersects_capsule_capsule_is_exact((a, b) in strategy::capsule_capsule::<T>()) {
                    super::intersects_capsule_capsule_is_exact(a, b)?;
                }

                #[test]
                fn contact_circle_segment_is_accurate((c, s) in strategy::circle_segment::<T>()) {
                    super::contact_circle_segment_is_accurate(c, s)?;
                }

                #[test]
                fn contact_circle_capsule_is_accurate((c, k) in strategy::circle_capsule::<T>()) {
                    super::contact_circle_capsule_is_accurate(c, k)?;
                }

                #[test]
                fn contact_circle_circle_is_accurate((a, b) in strategy::circle_circle::<T>()) {
                    super::contact_circle_circle_is_accurate(a, b)?;
                }

                #[test]
                fn a_point_cored_capsule_is_the_circle((c, k) in strategy::circle_capsule::<T>()) {
                    super::a_point_cored_capsule_is_the_circle(c, k)?;
                }

                #[test]
                fn contact_capsule_capsule_is_accurate((a, b) in strategy::capsule_capsule::<T>()) {
                    super::contact_capsule_capsule_is_accurate(a, b)?;
                }
            }
        }
    };
}

properties!(f32_properties, f32);
properties!(f64_properties, f64);
properties!(i16f16_properties, fixed::types::I16F16);
properties!(i32f32_properties, fixed::types::I32F32);
properties!(i48f16_properties, fixed::types::I48F16);
