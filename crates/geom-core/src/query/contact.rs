//! Contacts: where two overlapping or touching shapes meet, along which
//! normal, how deep, and how far to push the first one out.

use super::kernel::{
    Axis, Dist2, EndpointRelations, Narrow, PointSegment, frame, narrow_reach, offset, point_segment,
    point_segment_within, reach, relations_within, scale,
};
use core::fmt;

use crate::scalar::private::{Frame, Sealed};
use crate::scalar::{Exact, Scalar};
use crate::shape::{Capsule, Circle, Segment};
use crate::vec2::ExactVec;
use crate::vec2::Vec2;

/// A contact between two shapes `a` and `b` (the arguments of the
/// `contact_a_b` query, in order).
///
/// - `normal` is a unit vector pointing **from `b` towards `a`**;
/// - `point` lies on the surface of `b`: the point of `b` closest to `a`
///   (for capsules whose cores cross, the deepest point of `b`);
/// - `depth ≥ 0` is how far `a` must move along `normal` to just touch `b`;
///   it is zero when the shapes touch without overlapping.
///
/// # Examples
///
/// ```
/// use geom_core::{contact_circle_segment, Circle, Segment, Vec2};
///
/// let floor = Segment::new(Vec2::new(-5.0_f32, 0.0), Vec2::new(5.0, 0.0)).unwrap();
/// let ball = Circle::new(Vec2::new(1.0, 0.75), 1.0).unwrap();
/// let c = contact_circle_segment(&ball, &floor).unwrap();
/// assert_eq!((c.point, c.normal, c.depth), (Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0), 0.25));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact<S> {
    /// The contact point, on the surface of the second shape.
    pub point: Vec2<S>,
    /// The unit normal from the second shape towards the first.
    pub normal: Vec2<S>,
    /// The penetration depth, never negative.
    pub depth: S,
}

impl<S: Scalar> Contact<S> {
    /// The push-out offset `normal × depth`: adding it to the first shape's
    /// position leaves the two shapes touching. Each component is rounded
    /// once to nearest.
    ///
    /// It is zero for shapes that only touch, and it never points into the
    /// second shape: a shape resting on a surface is not pulled towards it,
    /// and once it moves away there is no contact at all.
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::I16F16;
    /// use geom_core::{contact_circle_circle, Circle, Vec2};
    ///
    /// let v = |x: f32, y: f32| Vec2::new(I16F16::from_num(x), I16F16::from_num(y));
    /// let a = Circle::new(v(1.5, 0.0), I16F16::from_num(1)).unwrap();
    /// let b = Circle::new(v(0.0, 0.0), I16F16::from_num(1)).unwrap();
    /// let c = contact_circle_circle(&a, &b).unwrap();
    /// assert_eq!(c.push_out(), v(0.5, 0.0));
    /// ```
    #[doc(alias = "offset")]
    #[doc(alias = "mtv")]
    #[inline]
    #[must_use]
    pub fn push_out(&self) -> Vec2<S> {
        scale(self.normal, self.depth)
    }
}

/// Prints `point (x, y), normal (x, y), depth d`, each number as the
/// scalar prints it; a precision such as `{:.3}` applies to every number.
///
/// # Examples
///
/// ```
/// use geom_core::{contact_circle_segment, Circle, Segment, Vec2};
///
/// let floor = Segment::new(Vec2::new(-5.0_f32, 0.0), Vec2::new(5.0, 0.0)).unwrap();
/// let ball = Circle::new(Vec2::new(1.0, 0.75), 1.0).unwrap();
/// let c = contact_circle_segment(&ball, &floor).unwrap();
/// assert_eq!(c.to_string(), "point (1, 0), normal (0, 1), depth 0.25");
/// ```
impl<S: fmt::Display> fmt::Display for Contact<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("point ")?;
        fmt::Display::fmt(&self.point, f)?;
        f.write_str(", normal ")?;
        fmt::Display::fmt(&self.normal, f)?;
        f.write_str(", depth ")?;
        fmt::Display::fmt(&self.depth, f)
    }
}

/// `radius − distance`, never negative (rounding can put the distance of
/// touching shapes a step above the radius).
#[inline]
pub(crate) fn depth<S: Scalar>(radius: S, distance: S) -> S {
    if distance < radius { radius - distance } else { S::ZERO }
}

/// The contact of a disc of `radius` around a point with a shape of radius
/// `inflate` around a core, given their exact squared distance, the closest
/// point of the core and the exact direction of the normal from it
/// (computed only on contact). The point is the closest core point moved by
/// `inflate` along the exact direction: within a rounding step per
/// component, whatever the radius.
#[inline]
pub(crate) fn contact_point_core<S: Scalar>(
    dist2: Dist2<S::Exact>,
    radius: S,
    inflate: S,
    closest: impl FnOnce() -> Vec2<S>,
    direction: impl FnOnce() -> ExactVec<S::Exact>,
) -> Option<Contact<S>> {
    if !dist2.within(reach(radius, inflate)) {
        return None;
    }
    let f = frame(direction(), inflate, Some(dist2));
    Some(Contact { point: closest() + f.offset, normal: f.normal, depth: depth(radius + inflate, f.distance) })
}

/// [`contact_point_core`] for the point–segment kernel `k` of a point that
/// [`point_segment_within`] found within `radius + inflate` of the segment
/// (the same comparisons `k` would make: fixed point does not make them
/// again).
/// Fixed point frames it from the narrow ring unless the point lies on the
/// segment: at an end as a point's contact ([`contact_circle_circle`]'s),
/// inside as a line's (`Sealed::frame_narrow` with `cross`); the same
/// values. (Floats, whose two rings are both `f64`, would only recompute
/// what `k` holds.)
#[inline]
pub(crate) fn contact_point_segment<S: Scalar>(k: &PointSegment<S>, radius: S, inflate: S) -> Option<Contact<S>> {
    if S::FORMAT.float {
        return contact_point_core(k.dist2, radius, inflate, || k.closest(), || k.normal_direction());
    }
    let (dir, len2, cross) = k.narrow_direction();
    // On the segment exactly (`k.on_segment()` in an exact ring): the
    // squared distance, `dir2` or `cross² / len2`, is zero.
    if cross.unwrap_or(len2) == <Narrow<S> as Exact>::ZERO {
        return contact_point_core(k.dist2, radius, inflate, || k.closest(), || k.normal_direction());
    }
    let f = S::frame_narrow((dir.x, dir.y), len2, cross, inflate);
    Some(framed_contact(&f, radius, (k.closest(), inflate)))
}

/// The contact of a disc of `radius` around a point with a shape of radius
/// `inflate` around a core whose closest point is `closest`, from the
/// frame of the direction between them (offset by `inflate`).
#[inline]
fn framed_contact<S: Scalar>(f: &Frame<S>, radius: S, (closest, inflate): (Vec2<S>, S)) -> Contact<S> {
    let (normal, offset) = (Vec2::new(f.normal.0, f.normal.1), Vec2::new(f.offset.0, f.offset.1));
    Contact { point: closest + offset, normal, depth: depth(radius + inflate, f.distance) }
}

/// The contact of `circle` with `segment`, or `None` when they are apart.
///
/// `point` is the point of the segment closest to the centre, `normal` points
/// from it towards the centre, `depth` is the radius minus the distance. When
/// the centre lies exactly on the segment, the normal is the segment's
/// perpendicular that points up (+y), or right (+x) for a vertical segment
/// (+y for a zero-length one), whichever way the segment is given.
///
/// # Examples
///
/// ```
/// use fixed::types::I16F16;
/// use geom_core::{contact_circle_segment, Circle, Segment, Vec2};
///
/// let v = |x: i32, y: i32| Vec2::new(I16F16::from_num(x), I16F16::from_num(y));
/// let wall = Segment::new(v(0, 10), v(0, -10)).unwrap();
/// let ball = Circle::new(v(-1, 3), I16F16::from_num(3)).unwrap();
/// let c = contact_circle_segment(&ball, &wall).unwrap();
/// assert_eq!((c.point, c.normal, c.depth), (v(0, 3), v(-1, 0), I16F16::from_num(2)));
/// assert_eq!(c.push_out(), v(-2, 0));
///
/// // A centre exactly on the wall still gets a direction.
/// let on = Circle::new(v(0, 3), I16F16::from_num(1)).unwrap();
/// assert_eq!(contact_circle_segment(&on, &wall).unwrap().normal, v(1, 0));
/// ```
#[inline]
#[must_use]
pub fn contact_circle_segment<S: Scalar>(circle: &Circle<S>, segment: &Segment<S>) -> Option<Contact<S>> {
    // The narrow test first: most pairs are apart, and it decides that in
    // a fraction of the time the full kernel takes.
    let k = point_segment_within(circle.center(), segment, circle.radius().to_narrow())?;
    contact_point_segment(&k, circle.radius(), S::ZERO)
}

/// The contact of `circle` with `capsule`, or `None` when they are apart.
///
/// As [`contact_circle_segment`] against the capsule's core with the two
/// radii added; `point` is on the capsule's surface.
///
/// # Examples
///
/// ```
/// use geom_core::{contact_circle_capsule, Capsule, Circle, Vec2};
///
/// let paddle = Capsule::new(Vec2::new(0.0_f64, 0.0), Vec2::new(4.0, 0.0), 1.0).unwrap();
/// let ball = Circle::new(Vec2::new(5.5, 0.0), 1.0).unwrap();
/// let c = contact_circle_capsule(&ball, &paddle).unwrap();
/// assert_eq!((c.point, c.normal, c.depth), (Vec2::new(5.0, 0.0), Vec2::new(1.0, 0.0), 0.5));
/// ```
#[inline]
#[must_use]
pub fn contact_circle_capsule<S: Scalar>(circle: &Circle<S>, capsule: &Capsule<S>) -> Option<Contact<S>> {
    let core = capsule.segment();
    let k = point_segment_within(circle.center(), &core, narrow_reach(circle.radius(), capsule.radius()))?;
    contact_point_segment(&k, circle.radius(), capsule.radius())
}

/// The contact of circle `a` with circle `b`, or `None` when they are apart.
///
/// The normal points from `b`'s centre towards `a`'s; for coincident centres
/// it is +y. `point` is on `b`'s boundary.
///
/// # Examples
///
/// ```
/// use geom_core::{contact_circle_circle, Circle, Vec2};
///
/// let a = Circle::new(Vec2::new(0.0_f32, 1.0), 1.0).unwrap();
/// let b = Circle::new(Vec2::new(0.0_f32, 0.0), 0.5).unwrap();
/// let c = contact_circle_circle(&a, &b).unwrap();
/// assert_eq!((c.point, c.normal, c.depth), (Vec2::new(0.0, 0.5), Vec2::new(0.0, 1.0), 0.5));
///
/// let same = contact_circle_circle(&a, &a).unwrap();
/// assert_eq!((same.normal, same.depth), (Vec2::Y, 2.0));
/// ```
#[inline]
#[must_use]
pub fn contact_circle_circle<S: Scalar>(a: &Circle<S>, b: &Circle<S>) -> Option<Contact<S>> {
    // Decided and framed from the centres' difference in the ring of the
    // yes/no tests: the same values as `contact_point_core` of
    // `point_point`, whose full ring the direction never needs here.
    let d = a.center().narrow_sub(b.center());
    let (len2, reach) = (d.length_squared(), narrow_reach(a.radius(), b.radius()));
    if len2 > reach * reach {
        return None;
    }
    let f = S::frame_narrow((d.x, d.y), len2, None, b.radius());
    Some(framed_contact(&f, a.radius(), (b.center(), b.radius())))
}

/// The contact of capsule `a` with capsule `b`, or `None` when they are
/// apart.
///
/// When the cores are apart, the contact is along their closest points: the
/// normal points from `b`'s core towards `a`'s and the depth is the sum of
/// the radii minus the core distance. When the cores touch or cross, the
/// normal is the direction of least penetration among the perpendiculars of
/// the two cores (the separating-axis answer), so that the push-out leaves
/// the capsules touching; ties go to `b`'s perpendicular, up (+y) or right
/// (+x) for a vertical core, then its opposite, then `a`'s. Two
/// zero-length cores at one point get +y.
///
/// A zero-length core is a circle's centre: the capsules are in contact
/// exactly when [`contact_circle_capsule`] says so, with its depth, bit for
/// bit, and, unless the centre lies on the other core (or for floats
/// within rounding of it), its normal (reversed when the point is `b`).
///
/// # Examples
///
/// ```
/// use geom_core::{contact_capsule_capsule, Capsule, Vec2};
///
/// let floor = Capsule::new(Vec2::new(-4.0_f32, 0.0), Vec2::new(4.0, 0.0), 0.5).unwrap();
/// let plank = Capsule::new(Vec2::new(-1.0, 0.75), Vec2::new(1.0, 0.75), 0.5).unwrap();
/// let c = contact_capsule_capsule(&plank, &floor).unwrap();
/// assert_eq!((c.normal, c.depth), (Vec2::new(0.0, 1.0), 0.25));
///
/// // Crossed cores: pushed out along the shallower direction.
/// let post = Capsule::new(Vec2::new(0.0, -0.25), Vec2::new(0.0, 3.0), 0.5).unwrap();
/// let c = contact_capsule_capsule(&post, &floor).unwrap();
/// assert_eq!((c.normal, c.depth), (Vec2::new(0.0, 1.0), 1.25));
/// ```
#[must_use]
pub fn contact_capsule_capsule<S: Scalar>(a: &Capsule<S>, b: &Capsule<S>) -> Option<Contact<S>> {
    contact_cores(&a.segment(), a.radius(), &b.segment(), b.radius()).map(|(contact, _)| contact)
}

/// A contact of two cores and the exact direction of its normal.
pub(crate) type CoreContact<S> = (Contact<S>, ExactVec<<S as Sealed<<S as Scalar>::Wide>>::Exact>);

/// [`contact_capsule_capsule`] for cores `a` and `b` of radii `ra` and
/// `rb`, with the exact direction of its normal (from `b` towards `a`, zero
/// for two zero-length cores at one point): what a sweep needs to decide
/// exactly whether a motion pushes into the contact.
pub(crate) fn contact_cores<S: Scalar>(a: &Segment<S>, ra: S, b: &Segment<S>, rb: S) -> Option<CoreContact<S>> {
    if S::FORMAT.float && (a.start() == a.end() || b.start() == b.end()) {
        return point_cores_contact(a, ra, b, rb);
    }
    contact_segment_cores(a, ra, b, rb)
}

/// [`contact_cores`] of floats where a core has zero length: a point off
/// the other core as the circle's ([`point_core`]), else as any cores.
/// Kept out of line: the pairs of two segments, most pairs, then keep
/// their values in registers.
#[inline(never)]
fn point_cores_contact<S: Scalar>(a: &Segment<S>, ra: S, b: &Segment<S>, rb: S) -> Option<CoreContact<S>> {
    match point_core(a, b) {
        Some(point) => point_core_contact(&point, ra, rb),
        None => contact_segment_cores(a, ra, b, rb),
    }
}

/// [`contact_cores`] from the four endpoint relations.
#[inline]
fn contact_segment_cores<S: Scalar>(a: &Segment<S>, ra: S, b: &Segment<S>, rb: S) -> Option<CoreContact<S>> {
    let relations = relations_within(a, b, ra, rb)?;
    let reach = ra + rb;
    if relations.touching() {
        return Some(contact_crossing_cores(a, b, reach, rb));
    }
    if !S::FORMAT.float {
        return Some(apart_cores_contact(&relations, (a, ra), (b, rb)));
    }
    let k = relations.closest(a, b);
    let f = frame(k.dir, rb, Some(k.dist2));
    Some((Contact { point: k.on_b + f.offset, normal: f.normal, depth: depth(reach, f.distance) }, k.dir))
}

/// [`contact_segment_cores`] of fixed-point cores that do not touch (so
/// that no relation's distance is zero), from their `relations`: framed
/// from the nearest relation's narrow values, as a circle's contact is
/// ([`contact_point_segment`]), which are the same values as `frame` of
/// its full ones. Out of line: inline, it cost the pairs that miss (the
/// `I32F32` capsule–capsule contact on `uniform`) 20 instructions a query
/// more, against 5 as a call.
#[inline(never)]
fn apart_cores_contact<S: Scalar>(
    relations: &EndpointRelations<S>,
    (a, ra): (&Segment<S>, S),
    (b, rb): (&Segment<S>, S),
) -> CoreContact<S> {
    let (k, endpoint_of_b, endpoint) = relations.nearest(a, b);
    let (dir, len2, cross) = k.narrow_direction();
    // From `b` towards `a`: a relation of `b`'s end point points from `a`
    // towards it.
    let (dir, exact_dir, on_b) =
        if endpoint_of_b { (dir.neg(), k.dir.neg(), endpoint) } else { (dir, k.dir, k.closest()) };
    let f = S::frame_narrow((dir.x, dir.y), len2, cross, rb);
    (framed_contact(&f, ra, (on_b, rb)), exact_dir)
}

/// For [`contact_cores`] of floats: when a core has zero length and does
/// not lie on the other core, that point, its relation to the other core,
/// and whether the point is `b`. Such a core is a circle's centre, and its
/// contact is decided and measured as the circle's from this relation
/// alone ([`point_core_contact`]). The four endpoint relations would decide
/// otherwise: they count a point within rounding of the core as on it (and
/// take the crossing cores' depth, as if the distance were zero), and their
/// candidates, equally near exactly, may round apart. Fixed point decides
/// all of this exactly, and the same. (A point on the core keeps the
/// crossing cores' normal, as in fixed point.)
fn point_core<S: Scalar>(a: &Segment<S>, b: &Segment<S>) -> Option<PointCore<S>> {
    let (p, core, reversed) = if a.start() == a.end() {
        (a.start(), b, false)
    } else if b.start() == b.end() {
        (b.start(), a, true)
    } else {
        return None;
    };
    let k = point_segment(p, core);
    (k.dist2.num != <S::Exact as Exact>::ZERO).then_some(PointCore { p, k, reversed })
}

/// A zero-length core `p` off the other core, its relation `k` to it, and
/// whether it is `b` (see [`point_core`]).
struct PointCore<S: Scalar> {
    p: Vec2<S>,
    k: PointSegment<S>,
    reversed: bool,
}

/// The contact of a point core ([`point_core`]), seen from `a`:
/// `contact_circle_capsule`'s presence and depth, with the normal along the
/// direction from the core to the point even within rounding of the core,
/// where the circle's takes the core's perpendicular (see
/// `PointSegment::normal_direction`): the capsules part to the side they
/// are on.
fn point_core_contact<S: Scalar>(point: &PointCore<S>, ra: S, rb: S) -> Option<CoreContact<S>> {
    let PointCore { p, k, reversed } = point;
    if !k.dist2.within(reach(ra, rb)) {
        return None;
    }
    // From `b`'s core towards `a`'s, the point on `b`'s surface (framed
    // along the reversed direction when the point is `b`: never a −0).
    let (direction, surface) = if *reversed { (k.dir.neg(), *p) } else { (k.dir, k.closest()) };
    let f = frame(direction, rb, Some(k.dist2));
    Some((Contact { point: surface + f.offset, normal: f.normal, depth: depth(ra + rb, f.distance) }, direction))
}

/// The separating-axis contact of two capsules whose cores touch or cross.
///
/// The Minkowski difference of the cores is a parallelogram containing the
/// origin; its edges are perpendicular to the cores, so the least
/// penetration is along one of the four directions `±n_b`, `±n_a`. Along
/// `+n` (moving `a` that way) the cores need to separate by the largest
/// extent of `a` below `b`'s line (for `n_b`) or of `b` above `a`'s line
/// (for `n_a`); the capsules then need the radii on top.
fn contact_crossing_cores<S: Scalar>(
    a: &Segment<S>,
    b: &Segment<S>,
    reach: S,
    radius_b: S,
) -> (Contact<S>, ExactVec<S::Exact>) {
    struct Best<S: Scalar> {
        penetration: S,
        normal: Vec2<S>,
        direction: ExactVec<S::Exact>,
        point_on_core_b: Vec2<S>,
    }
    let mut best: Option<Best<S>> = None;
    let mut consider = |penetration: S, (normal, direction), point_on_core_b: Vec2<S>| {
        if best.as_ref().is_none_or(|b| penetration < b.penetration) {
            best = Some(Best { penetration, normal, direction, point_on_core_b });
        }
    };
    let closest_on_b = |p: Vec2<S>| point_segment(p, b).closest();
    if let Some(axis) = Axis::new(b) {
        let (u0, u1) = (axis.signed_distance(a.start()), axis.signed_distance(a.end()));
        let (low, low_at) = if u1 < u0 { (u1, a.end()) } else { (u0, a.start()) };
        let (high, high_at) = if u1 > u0 { (u1, a.end()) } else { (u0, a.start()) };
        consider(-low, (axis.normal, axis.perp), closest_on_b(low_at));
        consider(high, (-axis.normal, axis.perp.neg()), closest_on_b(high_at));
    }
    if let Some(axis) = Axis::new(a) {
        let (s0, s1) = (axis.signed_distance(b.start()), axis.signed_distance(b.end()));
        let (high, high_at) = if s1 > s0 { (s1, b.end()) } else { (s0, b.start()) };
        let (low, low_at) = if s1 < s0 { (s1, b.end()) } else { (s0, b.start()) };
        consider(high, (axis.normal, axis.perp), high_at);
        consider(-low, (-axis.normal, axis.perp.neg()), low_at);
    }
    let zero = <S::Exact as crate::scalar::Exact>::ZERO;
    let up = ExactVec { x: zero, y: zero }; // `offset` reads a zero direction as +y
    let Best { penetration, normal, direction, point_on_core_b } =
        best.unwrap_or(Best { penetration: S::ZERO, normal: Vec2::Y, direction: up, point_on_core_b: b.start() });
    // Rounding of the signed distances can leave a touching pair a step
    // negative; the cores do touch, so the core penetration is at least 0.
    let penetration = if penetration < S::ZERO { S::ZERO } else { penetration };
    (Contact { point: point_on_core_b + offset(direction, radius_b), normal, depth: reach + penetration }, direction)
}

#[cfg(test)]
mod tests {
    extern crate alloc;

    use alloc::format;

    use fixed::types::{I16F16, I32F32};
    use proptest::prelude::*;

    use super::*;

    /// Two segments `[x0, y0, x1, y1]` and two radii: anywhere in a box
    /// of some size around the origin or far from it, or one a short step
    /// beside the other (the end points' relations then tie or nearly),
    /// or one a point.
    fn cores() -> impl Strategy<Value = ([f64; 4], [f64; 4], f64, f64)> {
        (
            prop::sample::select(alloc::vec![0.0, 1.0, 1e3, 1e5]),
            prop::sample::select(alloc::vec![1e-3, 1.0, 100.0]),
            any::<[u16; 8]>(),
            (0.0..1.5_f64, 0.0..1.5_f64),
            0_u8..4,
        )
            .prop_map(|(centre, size, raw, (ra, rb), shape)| {
                let c = |v: u16| centre + size * (f64::from(v) / 65536.0 - 0.5);
                let a = [c(raw[0]), c(raw[1]), c(raw[2]), c(raw[3])];
                let mut b = [c(raw[4]), c(raw[5]), c(raw[6]), c(raw[7])];
                match shape {
                    0 => {
                        let step = size * f64::from(raw[4] % 64) / 1024.0;
                        b = [a[0] + step, a[1] + step, a[2] + step, a[3] + step];
                    }
                    1 => b = [b[0], b[1], b[0], b[1]],
                    _ => {}
                }
                (a, b, ra * size, rb * size)
            })
    }

    proptest! {
        #![proptest_config(crate::proptest_config(20_000, 0x636f_7265))]

        /// The property: for fixed-point cores within reach that do not
        /// touch, the contact framed from the nearest relation's narrow
        /// values (`apart_cores_contact`) is the one `frame` gives of the
        /// closest points' full direction and squared distance, value for
        /// value, with the same exact direction.
        #[test]
        fn apart_cores_are_framed_from_narrow_values_as_from_full_ones(case in cores()) {
            fn check<S: Scalar>(
                from: impl Fn(f64) -> S,
                (a, b, ra, rb): ([f64; 4], [f64; 4], f64, f64),
            ) -> Result<(), TestCaseError> {
                let segment = |p: [f64; 4]| {
                    Segment::new(Vec2::new(from(p[0]), from(p[1])), Vec2::new(from(p[2]), from(p[3])))
                        .map_err(|e| TestCaseError::reject(format!("{e:?}")))
                };
                let (a, b, ra, rb) = (segment(a)?, segment(b)?, from(ra), from(rb));
                let Some(relations) = relations_within(&a, &b, ra, rb) else { return Ok(()) };
                if relations.touching() {
                    return Ok(());
                }
                let (narrow, narrow_dir) = apart_cores_contact(&relations, (&a, ra), (&b, rb));
                let k = relations.closest(&a, &b);
                let f = frame(k.dir, rb, Some(k.dist2));
                let full = Contact { point: k.on_b + f.offset, normal: f.normal, depth: depth(ra + rb, f.distance) };
                prop_assert_eq!(narrow, full);
                prop_assert_eq!(narrow_dir, k.dir);
                Ok(())
            }
            let (a, b, _, _) = case;
            if a.iter().chain(&b).all(|v| v.abs() < 2000.0) {
                check(I16F16::from_num, case)?;
            }
            check(I32F32::from_num, case)?;
        }
    }
}
