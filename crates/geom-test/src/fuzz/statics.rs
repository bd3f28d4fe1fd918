//! The `static_queries` checks: closest points, distances, intersection
//! tests, contacts and batch tests, on shapes from the grammar.

use geom_core::query::batch::{
    LengthMismatch, intersects_circle_capsules, intersects_circle_circles, intersects_circle_segments,
    intersects_circles_capsule, intersects_circles_segment,
};
use geom_core::{
    Capsule, Circle, Contact, Segment, SegmentFeature, Vec2, closest_point_point_segment,
    closest_points_segment_segment, contact_capsule_capsule, contact_circle_capsule, contact_circle_circle,
    contact_circle_segment, distance_point_segment, distance_squared_point_segment, intersects_capsule_capsule,
    intersects_circle_capsule, intersects_circle_circle, intersects_circle_segment,
};
use num_bigint::BigInt;
use num_traits::{Signed, Zero};

use super::{FuzzScalar, Input, finite, has_nan, in_box, scale_of, tolerance, unit_tolerance, unit_within};
use crate::oracle::{self, Q};
use crate::strategy::clamp_point;
use crate::{qvec, rational_to_f64};

/// How many shapes of each kind are decoded (the batches hold them all;
/// pairs are checked among the first [`PAIRED`]).
const MAX_SHAPES: usize = 8;
/// How many shapes of each kind are paired with each other.
const PAIRED: usize = 4;

pub(super) fn check<S: FuzzScalar>(input: &mut Input<'_, S>) {
    let p = input.point();
    let (mut segments, mut circles, mut capsules) = (Vec::new(), Vec::new(), Vec::new());
    // At most 3 × MAX_SHAPES attempts: the work is bounded by the input's
    // length and this constant, never by a number read from the input.
    for _ in 0..3 * MAX_SHAPES {
        if input.is_empty() {
            break;
        }
        match input.byte() % 3 {
            0 if segments.len() < MAX_SHAPES => segments.extend(input.segment()),
            1 if circles.len() < MAX_SHAPES => circles.extend(input.circle()),
            _ if capsules.len() < MAX_SHAPES => capsules.extend(input.capsule()),
            _ => {}
        }
    }
    for s in segments.iter().take(PAIRED) {
        point_segment(p, s);
        for c in circles.iter().take(PAIRED) {
            circle_segment(c, s);
        }
        for t in segments.iter().take(PAIRED) {
            segment_segment(s, t);
        }
    }
    for c in circles.iter().take(PAIRED) {
        for k in capsules.iter().take(PAIRED) {
            circle_capsule(c, k);
        }
        for d in circles.iter().take(PAIRED) {
            circle_circle(c, d);
        }
    }
    for k in capsules.iter().take(PAIRED) {
        for l in capsules.iter().take(PAIRED) {
            capsule_capsule(k, l);
        }
    }
    batches(&segments, &circles, &capsules);
}

fn is_fixed<S: FuzzScalar>() -> bool {
    S::RELATIVE == 0.0
}

/// Half a rounding step of a fixed-point type, exactly.
fn half_step<S: FuzzScalar>() -> Q {
    S::ZERO.nudge(1).to_rational() / Q::from_integer(BigInt::from(2))
}

/// Whether `value` is `√dist2` as the queries promise: for fixed point,
/// the exact root rounded to nearest (so within half a step of it,
/// decided exactly); for floats, within `k` rounding steps at `scale`.
fn is_root<S: FuzzScalar>(value: S, dist2: &Q, scale: f64, k: f64) -> bool {
    is_root_within(value, dist2, 1, scale, k)
}

/// [`is_root`], within `half_steps` half steps for fixed point.
fn is_root_within<S: FuzzScalar>(value: S, dist2: &Q, half_steps: i64, scale: f64, k: f64) -> bool {
    if is_fixed::<S>() {
        let (v, half) = (value.to_rational(), half_step::<S>() * Q::from_integer(BigInt::from(half_steps)));
        let low = (&v - &half).max(Q::zero());
        let high = v + half;
        &low * &low <= *dist2 && *dist2 <= &high * &high
    } else {
        (value.to_f64() - oracle::sqrt_f64(dist2)).abs() <= tolerance::<S>(scale, k)
    }
}

/// Whether `value` is within half a step of `exact` (fixed point), or
/// within `k` rounding steps at `scale` (floats).
fn is_rounded<S: FuzzScalar>(value: S, exact: &Q, scale: f64, k: f64) -> bool {
    if is_fixed::<S>() {
        let error = value.to_rational() - exact;
        error <= half_step::<S>() && -error <= half_step::<S>()
    } else {
        (value.to_f64() - rational_to_f64(exact)).abs() <= tolerance::<S>(scale, k)
    }
}

/// A wide value as `f64` (NaN and infinities kept, for floats).
fn wide_f64<S: FuzzScalar>(w: S::Wide) -> f64 {
    if is_fixed::<S>() {
        rational_to_f64(&S::wide_to_rational(w))
    } else if S::BITS.1 == 32 {
        f64::from(f32::from_bits(S::wide_to_raw(w) as u32))
    } else {
        f64::from_bits(S::wide_to_raw(w) as u64)
    }
}

/// Property: a yes/no answer is the exact one for fixed point, and for
/// floats differs from it only on a near-tie (within 16 rounding steps of
/// touching): "touching counts", and queries decide as the oracle does.
fn check_decision<S: FuzzScalar>(
    what: &str,
    answer: bool,
    dist2: &Q,
    reach: &Q,
    scale: f64,
    scene: &dyn Fn() -> String,
) {
    let exact = oracle::within(dist2, reach);
    if answer == exact {
        return;
    }
    let near = oracle::gap(dist2, reach).abs() <= tolerance::<S>(scale, 16.0);
    assert!(
        !is_fixed::<S>() && near,
        "{}: {what} answered {answer}, the exact answer is {exact} (gap {:e}): {}",
        S::NAME,
        oracle::gap(dist2, reach),
        scene()
    );
}

/// `closest_point_point_segment`, `distance_squared_point_segment` and
/// `distance_point_segment`.
fn point_segment<S: FuzzScalar>(p: Vec2<S>, s: &Segment<S>) {
    let c = closest_point_point_segment(p, s);
    let d2 = distance_squared_point_segment(p, s);
    let d = distance_point_segment(p, s);
    let reversed = closest_point_point_segment(p, &s.reversed());
    // A NaN point is outside what the queries promise anything about
    // (beyond not panicking); an infinite one is clamped like any other.
    if has_nan(p) {
        return;
    }
    let scene = || format!("point {p:?}, segment {s:?}");
    let (pc, a, b) = (clamp_point(p), s.start(), s.end());
    let scale = scale_of(&[pc, a, b]);
    let d2f = wide_f64::<S>(d2);
    // Property: no NaN or infinity out of finite input.
    assert!(
        finite(c.point) && FuzzScalar::is_finite(c.t) && FuzzScalar::is_finite(d) && d2f.is_finite(),
        "{}: a non-finite answer {c:?}, {d2:?}, {d:?}: {}",
        S::NAME,
        scene()
    );
    // Property: the closest point lies on the segment, t in [0, 1],
    // distances are never negative.
    let slack = if is_fixed::<S>() { 0.0 } else { tolerance::<S>(scale, 2.0) };
    assert!(in_box(c.point, a, b, slack), "{}: closest point {c:?} off the segment: {}", S::NAME, scene());
    assert!(c.t >= S::ZERO && c.t <= S::ONE, "{}: t = {:?} outside [0, 1]: {}", S::NAME, c.t, scene());
    assert!(d >= S::ZERO && d2f >= 0.0, "{}: a negative distance {d:?} / {d2:?}: {}", S::NAME, scene());
    // Property: the feature is where the point is (Start: t = 0 at the
    // start; End: t = 1 at the end); a zero-length segment reports Start.
    let (dx, dy) = (b.x.to_f64() - a.x.to_f64(), b.y.to_f64() - a.y.to_f64());
    // Documented: an `f64` segment whose squared length underflows (shorter
    // than about 1.5e-154) is taken as the point at its canonical start, so
    // its `t` is 0 or 1, not the fraction along it.
    let resolvable = is_fixed::<S>() || dx * dx + dy * dy >= f64::MIN_POSITIVE || a == b;
    let length = dx.hypot(dy);
    let t_slack = if is_fixed::<S>() { 0.0 } else { tolerance::<S>(scale, 8.0) / length };
    for (r, start, end) in [(c, a, b), (reversed, b, a)] {
        match r.feature {
            SegmentFeature::Start => {
                assert!(r.point == start && r.t == S::ZERO, "{}: Start but {r:?}: {}", S::NAME, scene());
            }
            SegmentFeature::End => {
                assert!(r.point == end && r.t == S::ONE, "{}: End but {r:?}: {}", S::NAME, scene());
            }
            SegmentFeature::Interior => {}
        }
    }
    if a == b {
        assert_eq!(c.feature, SegmentFeature::Start, "{}: zero-length segment: {}", S::NAME, scene());
    }
    // Property: reversing the segment gives the same point (bit-identical
    // up to the sign of a zero: the endpoints of a segment from (x, -0.0)
    // to (x, 0.0) are equal but not bit-identical), the mirrored feature
    // and t ≈ 1 − t.
    assert_eq!(reversed.point, c.point, "{}: reversing moved the point: {}", S::NAME, scene());
    let mirrored = match c.feature {
        SegmentFeature::Start if a != b => SegmentFeature::End,
        SegmentFeature::End => SegmentFeature::Start,
        other => other,
    };
    assert_eq!(reversed.feature, mirrored, "{}: reversing did not mirror the feature: {}", S::NAME, scene());
    let t_error = (reversed.t.to_f64() + c.t.to_f64() - 1.0).abs();
    assert!(
        a == b || !resolvable || t_error <= tolerance::<S>(1.0, 2.0) + 2.0 * t_slack,
        "{}: reversed t {:?} is not 1 − {:?}: {}",
        S::NAME,
        reversed.t,
        c.t,
        scene()
    );
    // Property: the distance and its square agree (both from one exact
    // squared distance).
    if !is_fixed::<S>() {
        let root = d2f.sqrt();
        let slack = 4.0 * S::RELATIVE * d.to_f64() + 2.0 * S::STEP.sqrt();
        assert!((d.to_f64() - root).abs() <= slack, "{}: distance {d:?} but √{d2:?}: {}", S::NAME, scene());
    }
    // Property: against the exact oracle, every value is the exact one
    // rounded once to nearest (fixed point), or close to it (floats).
    let (qp, qa, qb) = (qvec(pc), qvec(a), qvec(b));
    let (q, t) = oracle::closest_point_segment(&qp, &qa, &qb);
    let exact2 = qp.sub(&q).length_squared();
    assert!(
        is_rounded(c.point.x, &q.x, scale, 8.0) && is_rounded(c.point.y, &q.y, scale, 8.0),
        "{}: closest point {:?}, exactly {:?}: {}",
        S::NAME,
        c.point,
        q.to_f64(),
        scene()
    );
    // For floats t is only as good as the positions relative to the
    // segment's length: a point far away (clamped to the range's edge,
    // say) moves t by up to its rounding over the length.
    let t_close = (c.t.to_f64() - rational_to_f64(&t)).abs() <= t_slack;
    assert!(
        !resolvable || t_close || is_rounded(c.t, &t, 1.0, 8.0),
        "{}: t {:?}, exactly {}: {}",
        S::NAME,
        c.t,
        rational_to_f64(&t),
        scene()
    );
    assert!(is_root(d, &exact2, scale, 8.0), "{}: distance {d:?} is not √{exact2}: {}", S::NAME, scene());
    if is_fixed::<S>() {
        let wide_half = half_step::<S>() * half_step::<S>() * Q::from_integer(BigInt::from(2));
        let error = S::wide_to_rational(d2) - &exact2;
        assert!(
            error <= wide_half && -error <= wide_half,
            "{}: squared distance {d2:?}, exactly {exact2}: {}",
            S::NAME,
            scene()
        );
    }
}

/// `closest_points_segment_segment`.
fn segment_segment<S: FuzzScalar>(s: &Segment<S>, t: &Segment<S>) {
    let r = closest_points_segment_segment(s, t);
    let scene = || format!("segments {s:?} and {t:?}");
    let scale = scale_of(&[s.start(), s.end(), t.start(), t.end()]);
    assert!(
        finite(r.a) && finite(r.b) && FuzzScalar::is_finite(r.distance),
        "{}: non-finite {r:?}: {}",
        S::NAME,
        scene()
    );
    // Property: each point lies on its segment; the distance is never
    // negative, is the exact one rounded once, and is the distance between
    // the two points up to their rounding.
    let slack = if is_fixed::<S>() { 0.0 } else { tolerance::<S>(scale, 2.0) };
    assert!(
        in_box(r.a, s.start(), s.end(), slack) && in_box(r.b, t.start(), t.end(), slack),
        "{}: a closest point off its segment {r:?}: {}",
        S::NAME,
        scene()
    );
    assert!(r.distance >= S::ZERO, "{}: negative distance {r:?}: {}", S::NAME, scene());
    let (a0, a1, b0, b1) = (qvec(s.start()), qvec(s.end()), qvec(t.start()), qvec(t.end()));
    let exact2 = oracle::dist2_segment_segment(&a0, &a1, &b0, &b1);
    // Property: the distance is the exact one rounded once (fixed point:
    // within half a step).
    assert!(
        is_root_within(r.distance, &exact2, 1, scale, 8.0),
        "{}: distance {r:?}, exactly √{exact2}: {}",
        S::NAME,
        scene()
    );
    let between = qvec(r.a).sub(&qvec(r.b)).length_squared();
    let gap = (oracle::sqrt_f64(&between) - r.distance.to_f64()).abs();
    assert!(gap <= tolerance::<S>(scale, 4.0), "{}: points {r:?} are {gap:e} off the distance: {}", S::NAME, scene());
    // Property: crossing or touching segments are at distance zero.
    if is_fixed::<S>() && exact2.is_zero() {
        assert!(r.distance == S::ZERO, "{}: touching segments at distance {r:?}: {}", S::NAME, scene());
    }
}

/// A contact's shape in the oracle's terms: a disc around `center` against
/// a core segment `core0`–`core1` inflated by `inflate`, with total reach
/// `reach`.
struct Pair<'a, S> {
    what: &'a str,
    center: Option<Vec2<S>>,
    core: (Vec2<S>, Vec2<S>),
    inflate: S,
    reach: Q,
    dist2: Q,
    scale: f64,
    scene: String,
}

/// Property: `intersects_x` is true exactly when `contact_x` is `Some`; the
/// answer is the oracle's (exactly, for fixed point); a contact has a unit
/// normal from `b` towards `a`, a depth in `[0, reach]` that is the reach
/// minus the exact distance rounded once, and a point on `b`'s surface; no
/// value is NaN or infinite.
fn check_pair<S: FuzzScalar>(pair: &Pair<'_, S>, hit: bool, contact: Option<Contact<S>>) {
    let Pair { what, scene, scale, .. } = pair;
    let scene = || scene.clone();
    assert_eq!(
        hit,
        contact.is_some(),
        "{}: intersects_{what} = {hit} but contact_{what} = {contact:?}: {}",
        S::NAME,
        scene()
    );
    check_decision::<S>(&format!("intersects_{what}"), hit, &pair.dist2, &pair.reach, *scale, &scene);
    let Some(k) = contact else { return };
    assert!(
        finite(k.point) && finite(k.normal) && FuzzScalar::is_finite(k.depth),
        "{}: non-finite {k:?}: {}",
        S::NAME,
        scene()
    );
    assert!(
        unit_within(k.normal, unit_tolerance::<S>()),
        "{}: normal {k:?} is not a unit vector: {}",
        S::NAME,
        scene()
    );
    let reach = rational_to_f64(&pair.reach);
    let push = k.push_out();
    assert!(finite(push), "{}: non-finite push-out {push:?}: {}", S::NAME, scene());
    if pair.center.is_none() && pair.dist2.is_zero() {
        // Capsules whose cores touch or cross: the separating-axis depth,
        // the reach plus the cores' penetration.
        let low = if is_fixed::<S>() { 0.0 } else { tolerance::<S>(*scale, 8.0) };
        assert!(
            k.depth.to_f64() >= reach - low,
            "{}: crossing cores, depth {k:?} below the reach: {}",
            S::NAME,
            scene()
        );
        return;
    }
    assert!(
        k.depth >= S::ZERO && k.depth.to_f64() <= reach + tolerance::<S>(*scale, 2.0),
        "{}: depth {k:?} outside [0, {reach}]: {}",
        S::NAME,
        scene()
    );
    // The reach minus the depth is the rounded distance (exactly so for
    // fixed point: the reach is representable).
    let distance = pair.reach.clone() - k.depth.to_rational();
    let distance_ok = if is_fixed::<S>() {
        let half = half_step::<S>();
        let low = (&distance - &half).max(Q::zero());
        let high = &distance + half;
        &low * &low <= pair.dist2 && pair.dist2 <= &high * &high
    } else {
        (rational_to_f64(&distance) - oracle::sqrt_f64(&pair.dist2)).abs() <= tolerance::<S>(*scale, 8.0)
    };
    assert!(distance_ok, "{}: depth {k:?} is not reach − √{}: {}", S::NAME, pair.dist2, scene());
    let Some(center) = pair.center else { return };
    // The direction from the closest point of the core to the centre,
    // exactly; when it is zero the documented fallback applies.
    let (c0, c1) = (qvec(pair.core.0), qvec(pair.core.1));
    let (q, _) = oracle::closest_point_segment(&qvec(center), &c0, &c1);
    let dir = qvec(center).sub(&q);
    if dir.x.is_zero() && dir.y.is_zero() {
        let d = c1.sub(&c0);
        let (nx, ny) = (k.normal.x.to_f64(), k.normal.y.to_f64());
        // (Documented: an `f64` segment whose squared length underflows is
        // taken as a point, with the point's normal +y.)
        let (sx, sy) = d.to_f64();
        let underflows = !is_fixed::<S>() && sx * sx + sy * sy < f64::MIN_POSITIVE;
        let ok = if (d.x.is_zero() && d.y.is_zero()) || (underflows && k.normal == Vec2::new(S::ZERO, S::ONE)) {
            k.normal == Vec2::new(S::ZERO, S::ONE)
        } else if d.x.is_zero() {
            k.normal == Vec2::new(S::ONE, S::ZERO)
        } else {
            // The perpendicular pointing up: at right angles to the segment.
            let along = (nx * sx + ny * sy) / sx.hypot(sy);
            ny >= 0.0 && along.abs() <= 4.0 * unit_tolerance::<S>()
        };
        assert!(ok, "{}: centre on the core, normal {k:?} is not the documented one: {}", S::NAME, scene());
        return;
    }
    // The direction scaled to a largest component of 1 first: a direction
    // below f64's subnormals would convert to zero.
    let largest = dir.x.abs().max(dir.y.abs());
    let (dx, dy) = (rational_to_f64(&(&dir.x / &largest)), rational_to_f64(&(&dir.y / &largest)));
    let scaled_length = dx.hypot(dy);
    let (ux, uy) = (dx / scaled_length, dy / scaled_length);
    let length = rational_to_f64(&largest) * scaled_length;
    // For floats a direction shorter than the rounding at the scene's
    // scale is not resolved: the normal may then be off by as much as that
    // rounding over the distance (fixed point: exact direction, rounded).
    // Within 32 steps a float query may also treat the centre as on the
    // core and give the documented fallback normal.
    let conditioning = if is_fixed::<S>() { 0.0 } else { tolerance::<S>(*scale, 32.0) / length };
    // (Two unit vectors are never more than 2 apart: past that, anything.)
    let allowed = if conditioning >= 1.0 { 3.0 } else { 2.0 * unit_tolerance::<S>() + conditioning };
    // Property: the normal points from b towards a (along the exact
    // direction, up to its rounding).
    let normal_error = (k.normal.x.to_f64() - ux).hypot(k.normal.y.to_f64() - uy);
    assert!(
        normal_error <= allowed,
        "{}: normal {k:?} is {normal_error:e} from the exact direction ({ux}, {uy}): {}",
        S::NAME,
        scene()
    );
    // Property: the point is the core's closest point moved by `inflate`
    // along the exact direction, within a rounding step per component.
    let inflate = pair.inflate.to_f64();
    let (qx, qy) = q.to_f64();
    let (px, py) = (qx + ux * inflate, qy + uy * inflate);
    let point_error = (k.point.x.to_f64() - px).abs().max((k.point.y.to_f64() - py).abs());
    assert!(
        point_error <= tolerance::<S>(scale.max(inflate), 2.0) + inflate * allowed,
        "{}: contact point {k:?} is {point_error:e} from ({px}, {py}): {}",
        S::NAME,
        scene()
    );
}

fn circle_segment<S: FuzzScalar>(c: &Circle<S>, s: &Segment<S>) {
    let (a, b) = (s.start(), s.end());
    let pair = Pair {
        what: "circle_segment",
        center: Some(c.center()),
        core: (a, b),
        inflate: S::ZERO,
        reach: c.radius().to_rational(),
        dist2: oracle::dist2_point_segment(&qvec(c.center()), &qvec(a), &qvec(b)),
        scale: scale_of(&[c.center(), a, b, Vec2::new(c.radius(), S::ZERO)]),
        scene: format!("circle {c:?}, segment {s:?}"),
    };
    check_pair(&pair, intersects_circle_segment(c, s), contact_circle_segment(c, s));
}

fn circle_capsule<S: FuzzScalar>(c: &Circle<S>, k: &Capsule<S>) {
    let (a, b) = (k.segment().start(), k.segment().end());
    let pair = Pair {
        what: "circle_capsule",
        center: Some(c.center()),
        core: (a, b),
        inflate: k.radius(),
        reach: c.radius().to_rational() + k.radius().to_rational(),
        dist2: oracle::dist2_point_segment(&qvec(c.center()), &qvec(a), &qvec(b)),
        scale: scale_of(&[c.center(), a, b, Vec2::new(c.radius(), k.radius())]),
        scene: format!("circle {c:?}, capsule {k:?}"),
    };
    check_pair(&pair, intersects_circle_capsule(c, k), contact_circle_capsule(c, k));
}

fn circle_circle<S: FuzzScalar>(c: &Circle<S>, d: &Circle<S>) {
    let pair = Pair {
        what: "circle_circle",
        center: Some(c.center()),
        core: (d.center(), d.center()),
        inflate: d.radius(),
        reach: c.radius().to_rational() + d.radius().to_rational(),
        dist2: qvec(c.center()).sub(&qvec(d.center())).length_squared(),
        scale: scale_of(&[c.center(), d.center(), Vec2::new(c.radius(), d.radius())]),
        scene: format!("circles {c:?} and {d:?}"),
    };
    check_pair(&pair, intersects_circle_circle(c, d), contact_circle_circle(c, d));
}

fn capsule_capsule<S: FuzzScalar>(k: &Capsule<S>, l: &Capsule<S>) {
    let (s, t) = (k.segment(), l.segment());
    let pair = Pair {
        what: "capsule_capsule",
        center: None,
        core: (t.start(), t.end()),
        inflate: l.radius(),
        reach: k.radius().to_rational() + l.radius().to_rational(),
        dist2: oracle::dist2_segment_segment(&qvec(s.start()), &qvec(s.end()), &qvec(t.start()), &qvec(t.end())),
        scale: scale_of(&[s.start(), s.end(), t.start(), t.end(), Vec2::new(k.radius(), l.radius())]),
        scene: format!("capsules {k:?} and {l:?}"),
    };
    check_pair(&pair, intersects_capsule_capsule(k, l), contact_capsule_capsule(k, l));
}

/// Property: every batch answer is the single query's, bit for bit; the
/// count is the number of hits; a buffer of the wrong length is a typed
/// error and is left untouched.
fn batches<S: FuzzScalar>(segments: &[Segment<S>], circles: &[Circle<S>], capsules: &[Capsule<S>]) {
    fn one<T>(
        what: &str,
        items: &[T],
        run: impl Fn(&mut [bool]) -> Result<usize, LengthMismatch>,
        single: impl Fn(&T) -> bool,
    ) {
        let mut out = vec![false; items.len()];
        let hits = run(&mut out);
        let expected: Vec<bool> = items.iter().map(single).collect();
        assert_eq!(out, expected, "{what}: batch answers differ from the single query's");
        assert_eq!(hits, Ok(expected.iter().filter(|&&h| h).count()), "{what}: wrong hit count");
        let mut longer = vec![true; items.len() + 1];
        assert_eq!(run(&mut longer), Err(LengthMismatch { inputs: items.len(), outputs: items.len() + 1 }), "{what}");
        assert!(longer.iter().all(|&h| h), "{what}: a refused batch wrote into the buffer");
    }
    if let Some(c) = circles.first() {
        one(
            "intersects_circle_segments",
            segments,
            |out| intersects_circle_segments(c, segments, out),
            |s| intersects_circle_segment(c, s),
        );
        one(
            "intersects_circle_capsules",
            capsules,
            |out| intersects_circle_capsules(c, capsules, out),
            |k| intersects_circle_capsule(c, k),
        );
        one(
            "intersects_circle_circles",
            circles,
            |out| intersects_circle_circles(c, circles, out),
            |d| intersects_circle_circle(c, d),
        );
    }
    if let Some(s) = segments.first() {
        one(
            "intersects_circles_segment",
            circles,
            |out| intersects_circles_segment(circles, s, out),
            |c| intersects_circle_segment(c, s),
        );
    }
    if let Some(k) = capsules.first() {
        one(
            "intersects_circles_capsule",
            circles,
            |out| intersects_circles_capsule(circles, k, out),
            |c| intersects_circle_capsule(c, k),
        );
    }
}
