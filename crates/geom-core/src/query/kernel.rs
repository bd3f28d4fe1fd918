//! The exact kernels every query is built from.
//!
//! Each kernel computes in `S::Exact` (see `scalar/exact.rs`): exact integers
//! for fixed-point scalars, `f64` for floats. Decisions (which feature is
//! closest, is the distance within a radius, do two segments cross) are
//! made on exact values; only the values handed back to the caller are
//! rounded, once each.
//!
//! Degrees are noted in comments: a coordinate has degree 1, a product of two
//! coordinate differences degree 2, and so on. Ratios handed to
//! `from_ratio` must have degree 1 and those handed to `from_sqrt_ratio` or
//! `wide_from_ratio` degree 2 (see `scalar::private::Sealed`).

use crate::scalar::Exact;
use crate::scalar::Scalar;
use crate::scalar::private::Sealed;
use crate::shape::Segment;
use crate::vec2::{ExactVec, Vec2};

/// Which part of a segment a closest point lies on.
///
/// # Examples
///
/// ```
/// use geom_core::{closest_point_point_segment, Segment, SegmentFeature, Vec2};
///
/// let s = Segment::new(Vec2::new(0.0_f32, 0.0), Vec2::new(4.0, 0.0)).unwrap();
/// let beyond = closest_point_point_segment(Vec2::new(9.0, 1.0), &s);
/// assert_eq!(beyond.feature, SegmentFeature::End);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SegmentFeature {
    /// The start point (`t = 0`). A zero-length segment always reports
    /// `Start`.
    Start,
    /// Strictly between the endpoints (`0 < t < 1`).
    Interior,
    /// The end point (`t = 1`).
    End,
}

impl SegmentFeature {
    fn reversed(self) -> Self {
        match self {
            Self::Start => Self::End,
            Self::Interior => Self::Interior,
            Self::End => Self::Start,
        }
    }
}

/// A squared distance as the exact ratio `num / den` of degree 2, `den > 0`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dist2<E> {
    pub(crate) num: E,
    pub(crate) den: E,
}

impl<E: Exact> Dist2<E> {
    /// Exactly: is the distance at most `radius` (a degree-1 value ≥ 0)?
    /// `num ≤ r²·den`, both sides of the same degree.
    #[inline]
    pub(crate) fn within(self, radius: E) -> bool {
        self.num <= radius * radius * self.den
    }

    /// Exactly: is the distance below `radius` (overlapping, not just
    /// touching)?
    #[inline]
    pub(crate) fn overlaps(self, radius: E) -> bool {
        self.num < radius * radius * self.den
    }

    /// The distance, rounded once.
    #[inline]
    pub(crate) fn distance<S: Scalar<Exact = E>>(self) -> S {
        S::from_sqrt_ratio(self.num, self.den)
    }

    /// The squared distance in `S::Wide`, rounded once.
    #[inline]
    pub(crate) fn squared<S: Scalar<Exact = E>>(self) -> S::Wide {
        S::wide_from_ratio(self.num, self.den)
    }

    /// Is this distance smaller than `other`? Exact for fixed-point types:
    /// two distances to end points (denominator one) compare their
    /// numerators; when one ratio has denominator one, cross-multiplying
    /// stays within degree 4; two perpendicular-foot distances are compared
    /// by `Exact::ratios_less` (a floating-point estimate, else degree-6
    /// cross products). Floats compare those two rounded to `S::Wide`.
    #[inline]
    pub(crate) fn less_than<S: Scalar<Exact = E>>(self, other: Self) -> bool {
        if E::WIDE_PRODUCTS && other.den == E::ONE && self.den == E::ONE {
            // A product by one in the 256-bit ring cost the closest points
            // of two segments 13% more instructions (`I32F32`, `uniform`);
            // in the other rings it is cheaper than this test.
            self.num < other.num
        } else if other.den == E::ONE {
            self.num < other.num * self.den
        } else if self.den == E::ONE {
            self.num * other.den < other.num
        } else if let Some(less) = E::ratios_less(self.num, self.den, other.num, other.den) {
            less
        } else {
            self.squared::<S>() < other.squared::<S>()
        }
    }
}

/// The exact sum of two radii (degree 1): the reach that intersection tests
/// compare distances with. Every test and contact query uses this one
/// expression, so they agree for floats too.
#[inline]
pub(crate) fn reach<S: Scalar>(r1: S, r2: S) -> S::Exact {
    r1.to_exact() + r2.to_exact()
}

/// The squared distance between two points and the vector from `q` to `p`
/// (degree 1), both taken in the narrow ring (points within `±3·MAX_COORD`:
/// the squared distance is below `2^127` raw for `FixedI64`).
#[inline]
pub(crate) fn point_point<S: Scalar>(p: Vec2<S>, q: Vec2<S>) -> (Dist2<S::Exact>, ExactVec<S::Exact>) {
    let dir = p.narrow_sub(q);
    let num = <S::Exact as Exact>::from_narrow(dir.length_squared());
    (Dist2 { num, den: <S::Exact as Exact>::ONE }, full::<S>(dir))
}

/// Clamps a free point (or a motion) into the safe square
/// `[-MAX_COORD, MAX_COORD]²`, the documented saturation of every query that
/// takes a bare point or a motion.
#[inline]
pub(crate) fn clamp_to_range<S: Scalar>(p: Vec2<S>) -> Vec2<S> {
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

/// The segment's endpoints in canonical order (lexicographically by x, then
/// y) and whether that reversed them. Computing in canonical order makes
/// every result bit-identical for a segment and its reverse, floats
/// included.
#[inline]
pub(crate) fn canonical<S: Scalar>(segment: &Segment<S>) -> (Vec2<S>, Vec2<S>, bool) {
    let (a, b) = (segment.start(), segment.end());
    if b.x < a.x || (b.x == a.x && b.y < a.y) { (b, a, true) } else { (a, b, false) }
}

/// The direction used when a direction is undefined: the perpendicular of
/// `d` that points up (+y), or right (+x) when `d` is vertical, so it does
/// not depend on the segment's orientation; +y when `d` is zero.
#[inline]
pub(crate) fn up_direction<E: Exact>(d: ExactVec<E>) -> ExactVec<E> {
    let p = d.perp();
    if p.y < E::ZERO || (p.y == E::ZERO && p.x < E::ZERO) {
        p.neg()
    } else if p.y == E::ZERO && p.x == E::ZERO {
        ExactVec { x: E::ZERO, y: E::ONE }
    } else {
        p
    }
}

/// A direction vector as a unit normal (+y for the zero vector, which the
/// callers never pass).
#[inline]
pub(crate) fn unit<S: Scalar>(direction: ExactVec<S::Exact>) -> Vec2<S> {
    frame(direction, S::ZERO, None).normal
}

/// The vector of length `length ≥ 0` (a radius) along `direction` (+y when
/// the direction is zero, as [`unit()`]).
#[inline]
pub(crate) fn offset<S: Scalar>(direction: ExactVec<S::Exact>, length: S) -> Vec2<S> {
    let (x, y) = S::frame(direction.x, direction.y, length, None, false).offset;
    Vec2::new(x, y)
}

/// What a contact or an impact reports along a direction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame<S> {
    /// The unit normal along the direction (+y for the zero direction).
    pub(crate) normal: Vec2<S>,
    /// The vector of the given length along it: a point's offset on the
    /// surface of a circle or capsule.
    pub(crate) offset: Vec2<S>,
    /// The distance, when one was given (zero otherwise).
    pub(crate) distance: S,
}

/// The unit normal along `direction`, the vector of length `length ≥ 0`
/// along it and the distance of `dist2`, computed together (see
/// `Sealed::frame`): for fixed point each the exact value rounded once; for
/// floats one square root and a division per component, the distance
/// sharing the root when it is the direction's own length.
#[inline]
pub(crate) fn frame<S: Scalar>(direction: ExactVec<S::Exact>, length: S, dist2: Option<Dist2<S::Exact>>) -> Frame<S> {
    let f = S::frame(direction.x, direction.y, length, dist2.map(|d| (d.num, d.den)), true);
    let vec = |(x, y)| Vec2::new(x, y);
    Frame { normal: vec(f.normal), offset: vec(f.offset), distance: f.distance }
}

/// `v · k`, each component rounded once to nearest (unlike `Vec2 * S`, which
/// rounds as `S`'s own product does).
#[inline]
pub(crate) fn scale<S: Scalar>(v: Vec2<S>, k: S) -> Vec2<S> {
    // The exact products rounded once, from native integers (the same bits
    // as the exact ring's `from_ratio`: see `scalar/native.rs`).
    Vec2::new(v.x.mul_round(k), v.y.mul_round(k))
}

/// The relation of a point to a segment, decided exactly.
///
/// Everything of degree 2 or less is kept in the narrow ring (see
/// `Exact::Narrow`); only the squared distance and the direction, which the
/// callers compare and round, are in the full one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointSegment<S: Scalar> {
    /// Canonical start and end.
    start: Vec2<S>,
    end: Vec2<S>,
    /// Whether canonical order reversed the segment.
    swapped: bool,
    /// The query point (degree 1).
    p: ExactVec<Narrow<S>>,
    /// Canonical `start` (degree 1).
    s: ExactVec<Narrow<S>>,
    /// Canonical `end - start` (degree 1).
    d: ExactVec<Narrow<S>>,
    /// `|d|²` (degree 2).
    len2: Narrow<S>,
    /// The clamped projection `(p - start)·d`, in `[0, len2]` (degree 2).
    t_num: Narrow<S>,
    /// The feature in canonical order.
    feature: SegmentFeature,
    /// The squared distance.
    pub(crate) dist2: Dist2<S::Exact>,
    /// A vector from the closest point towards `p`; zero exactly when `p`
    /// lies on the segment (degree 1).
    pub(crate) dir: ExactVec<S::Exact>,
    /// `dir` and what `dist2` is made of, in the narrow ring where they
    /// were computed.
    pub(crate) near: Near<S>,
}

/// [`PointSegment`]'s direction and squared distance in the narrow ring.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Near<S: Scalar> {
    /// Closest at an end: the vector from it to the point and its squared
    /// length (`dist2`'s numerator, over one).
    End(ExactVec<Narrow<S>>, Narrow<S>),
    /// Closest inside: the perpendicular towards the point (zero on the
    /// line), whose squared length is `len2`, and `cross`, the point's
    /// distance from the line times `√len2` (`dist2 = cross² / len2`).
    Interior(ExactVec<Narrow<S>>, Narrow<S>),
}

/// A narrow vector in the full ring.
#[inline]
fn full<S: Scalar>(v: ExactVec<Narrow<S>>) -> ExactVec<S::Exact> {
    ExactVec { x: <S::Exact as Exact>::from_narrow(v.x), y: <S::Exact as Exact>::from_narrow(v.y) }
}

/// `p − end`, for `w = p − start` and `d = end − start`: the same value in
/// an exact ring, subtracted directly (see `Sealed::narrow_sub`); a float
/// keeps `w − d`, the rounding its answers have always had.
#[inline]
fn from_end<S: Scalar>(
    p: Vec2<S>,
    end: Vec2<S>,
    w: ExactVec<Narrow<S>>,
    d: ExactVec<Narrow<S>>,
) -> ExactVec<Narrow<S>> {
    if S::FORMAT.float { w.sub(d) } else { p.narrow_sub(end) }
}

/// Decides where `p` is relative to `segment`.
///
/// Bounds (fixed-point, raw units, `M = 2^28` or `2^60`): `|p|, |s|, |e| ≤ M`,
/// so `|w|, |d| ≤ 2M`, `|t_num|, len2 ≤ 8M²` and `|cross| ≤ 8M²`, below
/// `2^63` in the narrow `i64` and `2^127` in the narrow `i128`; `cross² ≤
/// 64M⁴` is below `2^119` in `i128` and `2^247` in `Exact256`.
#[inline]
pub(crate) fn point_segment<S: Scalar>(p: Vec2<S>, segment: &Segment<S>) -> PointSegment<S> {
    Projection::new(p, segment).locate()
}

/// [`point_segment`] when `p` lies within `radius` of `segment`
/// ([`within_segment`]'s answer), else `None`: both from one set-up, as a
/// contact needs them.
///
/// Always inlined: called, it returned the located segment through memory
/// and cost the circle–segment contact 13% more instructions than the two
/// calls it replaces on pairs that miss (`I32F32`, 128 against 114).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn point_segment_within<S: Scalar>(
    p: Vec2<S>,
    segment: &Segment<S>,
    radius: Narrow<S>,
) -> Option<PointSegment<S>> {
    let projection = Projection::new(p, segment);
    projection.within(radius).then(|| projection.locate())
}

/// What [`point_segment`] and [`within_segment`] start from: the segment in
/// canonical order and the point's projection on it, in the narrow ring.
#[derive(Clone, Copy)]
struct Projection<S: Scalar> {
    p: Vec2<S>,
    start: Vec2<S>,
    end: Vec2<S>,
    swapped: bool,
    /// `end − start` and `p − start` (degree 1).
    d: ExactVec<Narrow<S>>,
    w: ExactVec<Narrow<S>>,
    /// `|d|²` and `w·d` (degree 2).
    len2: Narrow<S>,
    t_num: Narrow<S>,
}

impl<S: Scalar> Projection<S> {
    #[inline]
    fn new(p: Vec2<S>, segment: &Segment<S>) -> Self {
        let (start, end, swapped) = canonical(segment);
        let (d, w) = (end.narrow_sub(start), p.narrow_sub(start));
        Self { p, start, end, swapped, d, w, len2: d.length_squared(), t_num: w.dot(d) }
    }

    /// See [`within_segment`].
    #[inline]
    fn within(&self, radius: Narrow<S>) -> bool {
        let Self { p, end, d, w, len2, t_num, .. } = *self;
        let r2 = radius * radius;
        let zero = <Narrow<S> as Exact>::ZERO;
        // The three cases of `locate`; `Dist2::within` multiplies the end
        // points' squared distances by a denominator of one, which changes
        // no bit.
        if len2 <= zero || t_num <= zero {
            w.length_squared() <= r2
        } else if t_num >= len2 {
            from_end::<S>(p, end, w, d).length_squared() <= r2
        } else {
            let cross = d.perp_dot(w);
            <S::Exact as Exact>::products_le(cross, cross, r2, len2)
        }
    }

    /// See [`point_segment`].
    #[inline]
    fn locate(self) -> PointSegment<S> {
        let Self { p, start, end, swapped, d, w, len2, t_num } = self;
        let zero = <Narrow<S> as Exact>::ZERO;
        let one = <S::Exact as Exact>::ONE;
        let wide = <S::Exact as Exact>::from_narrow;
        let at = |feature, t_num, v: ExactVec<Narrow<S>>| {
            let v2 = v.length_squared();
            (feature, t_num, Dist2 { num: wide(v2), den: one }, v, Near::End(v, v2))
        };
        let (feature, t_num, dist2, dir, near) = if len2 <= zero || t_num <= zero {
            at(SegmentFeature::Start, zero, w)
        } else if t_num >= len2 {
            at(SegmentFeature::End, len2, from_end::<S>(p, end, w, d))
        } else {
            // Perpendicular foot: distance² = cross² / len2 (degree 4 / degree 2).
            let cross = d.perp_dot(w);
            let dir = if cross > zero {
                d.perp()
            } else if cross < zero {
                d.perp().neg()
            } else {
                ExactVec { x: zero, y: zero }
            };
            let num = <S::Exact as Exact>::product(cross, cross);
            (SegmentFeature::Interior, t_num, Dist2 { num, den: wide(len2) }, dir, Near::Interior(dir, cross))
        };
        let (p, s) = (p.to_narrow(), start.to_narrow());
        PointSegment { start, end, swapped, p, s, d, len2, t_num, feature, dist2, dir: full::<S>(dir), near }
    }
}

impl<S: Scalar> PointSegment<S> {
    /// The closest point on the segment, the exact point rounded once.
    #[inline]
    pub(crate) fn closest(&self) -> Vec2<S> {
        match self.feature {
            SegmentFeature::Start => self.start,
            SegmentFeature::End => self.end,
            SegmentFeature::Interior => {
                // (deg 1 · deg 2 + deg 1 · deg 2) / deg 2 = deg 1
                let [x, y] = S::lerp_narrow([self.s.x, self.s.y], [self.d.x, self.d.y], self.t_num, self.len2);
                Vec2::new(x, y)
            }
        }
    }

    /// The parameter of the closest point along the segment as given
    /// (`start + t·(end − start)`), rounded once.
    #[inline]
    pub(crate) fn t(&self) -> S {
        if self.len2 <= <Narrow<S> as Exact>::ZERO {
            // At the canonical start, which is the given end when the
            // order was swapped: only an `f64` segment so short that its
            // squared length underflows has distinct ends here.
            return if self.swapped { S::ONE } else { S::ZERO };
        }
        let t_num = if self.swapped { self.len2 - self.t_num } else { self.t_num };
        S::share_narrow(t_num, self.len2)
    }

    /// The distance from the point to the segment, rounded once: the
    /// root of `dist2`, from the narrow ring.
    #[inline]
    pub(crate) fn distance(&self) -> S {
        let (_, len2, cross) = self.narrow_direction();
        S::distance_narrow(len2, cross)
    }

    /// The direction from the segment to the point in the narrow ring, as
    /// `Sealed::frame_narrow` takes it: the vector, its squared length and,
    /// for a point beside the interior, `cross` (the squared distance is
    /// then `cross² / len2`).
    #[inline]
    pub(crate) fn narrow_direction(&self) -> (ExactVec<Narrow<S>>, Narrow<S>, Option<Narrow<S>>) {
        match self.near {
            Near::End(dir, dir2) => (dir, dir2, None),
            Near::Interior(dir, cross) => (dir, self.len2, Some(cross)),
        }
    }

    /// The feature of the segment as given.
    #[inline]
    pub(crate) fn feature(&self) -> SegmentFeature {
        if self.swapped { self.feature.reversed() } else { self.feature }
    }

    /// Whether the point lies on the segment: exactly, for fixed-point
    /// types; for floats, within the kernel's rounding error, where the side
    /// the point lies on (and so the direction to it) is not known.
    #[inline]
    pub(crate) fn on_segment(&self) -> bool {
        S::Exact::is_negligible(self.dist2.num, self.dist2.den, || {
            let zero = <Narrow<S> as Exact>::ZERO;
            let abs = <Narrow<S> as Exact>::magnitude;
            let e = ExactVec { x: self.s.x + self.d.x, y: self.s.y + self.d.y };
            let scale = [self.p, self.s, e]
                .iter()
                .map(|v| if abs(v.x) > abs(v.y) { abs(v.x) } else { abs(v.y) })
                .fold(zero, |max, v| if v > max { v } else { max });
            <S::Exact as Exact>::from_narrow(scale)
        })
    }

    /// The segment's direction, `end − start` in canonical order (zero for
    /// a zero-length segment).
    #[inline]
    pub(crate) fn core_direction(&self) -> ExactVec<S::Exact> {
        full::<S>(self.d)
    }

    /// Whether the point, closest to an end point of a segment of some
    /// length, moves by `motion` outward past that end (a component along
    /// the segment, away from it): the motion then never meets the segment
    /// again.
    #[inline]
    pub(crate) fn leaves_end(&self, motion: ExactVec<S::Exact>) -> bool {
        let zero = <S::Exact as Exact>::ZERO;
        let along = self.core_direction().dot(motion);
        match self.feature {
            _ if self.len2 <= <Narrow<S> as Exact>::ZERO => false,
            SegmentFeature::Start => along < zero,
            SegmentFeature::End => along > zero,
            SegmentFeature::Interior => false,
        }
    }

    /// A vector along the normal from the segment towards the point; when
    /// the point lies on the segment, the segment's [`up_direction`].
    #[inline]
    pub(crate) fn normal_direction(&self) -> ExactVec<S::Exact> {
        if self.on_segment() { up_direction(full::<S>(self.d)) } else { self.dir }
    }
}

/// The ring of the yes/no tests of `S` (see `Exact::Narrow`).
pub(crate) type Narrow<S> = <<S as Sealed<<S as Scalar>::Wide>>::Exact as Exact>::Narrow;

/// [`reach`] in the ring of the yes/no tests: the same sum, exactly.
#[inline]
pub(crate) fn narrow_reach<S: Scalar>(r1: S, r2: S) -> Narrow<S> {
    r1.to_narrow() + r2.to_narrow()
}

/// Exactly: are `p` and `q` within `radius` (degree 1) of each other? The
/// same decision as `point_point(p, q).0.within(radius)`.
#[inline]
pub(crate) fn within_point<S: Scalar>(p: Vec2<S>, q: Vec2<S>, radius: Narrow<S>) -> bool {
    p.narrow_sub(q).length_squared() <= radius * radius
}

/// Exactly `point_segment(p, segment).dist2.within(radius)`: the
/// intersection tests' kernel, computed in the narrow ring (degree 2, and
/// one degree-4 comparison by `Exact::products_le`) rather than the full
/// one that `point_segment` needs for the values it rounds, and only for
/// the one case that applies. (Computing all three cases and selecting
/// one, so that a batch could be vectorised, measured slower for single
/// queries and batches alike.)
///
/// Bounds (fixed-point, raw units, `M = 2^28` or `2^60`): `|w|, |d|, |w − d|
/// ≤ 2M` and `radius ≤ 2M`, so every degree-2 value is at most `8M²`, below
/// `2^63` in `FixedI32`'s `i64` and `2^127` in `FixedI64`'s `i128`.
#[inline]
pub(crate) fn within_segment<S: Scalar>(p: Vec2<S>, segment: &Segment<S>, radius: Narrow<S>) -> bool {
    Projection::new(p, segment).within(radius)
}

/// Exactly: are two segments within `radius` of each other? They are when
/// they cross, or when an end point of either is within `radius` of the
/// other (two segments that do not cross are closest at an end point),
/// each decided in the narrow ring as [`within_segment`] does.
///
/// Segments whose bounding boxes are farther apart than `radius` (plus,
/// for floats, a margin above any rounding: `Exact::apart_margin`) skip
/// the four end-point tests, which would all say no; the crossing test is
/// always made, so the answer is the same bit for bit.
#[inline]
pub(crate) fn segments_within<S: Scalar>(a: &Segment<S>, b: &Segment<S>, radius: Narrow<S>) -> bool {
    cross_properly(a, b)
        || (!boxes_apart(a, b, radius)
            && (within_segment(a.start(), b, radius)
                || within_segment(a.end(), b, radius)
                || within_segment(b.start(), a, radius)
                || within_segment(b.end(), a, radius)))
}

/// [`segments_within`] for two cores of radii `ra` and `rb` and, when they
/// are within reach, their [`endpoint_relations`], which a contact needs.
///
/// Fixed point makes the narrow test first (most pairs are apart, and it
/// decides that in a fraction of the time the full relations take). Floats
/// compute both rings alike in `f64`, so the relations decide the same
/// question with the very comparisons `segments_within` makes (see
/// [`within_segment`]) and are computed once: the same answer, bit for bit.
#[inline]
pub(crate) fn relations_within<S: Scalar>(
    a: &Segment<S>,
    b: &Segment<S>,
    ra: S,
    rb: S,
) -> Option<EndpointRelations<S>> {
    let radius = narrow_reach(ra, rb);
    if !S::FORMAT.float {
        return segments_within(a, b, radius).then(|| endpoint_relations(a, b));
    }
    if boxes_apart(a, b, radius) && !cross_properly(a, b) {
        return None;
    }
    let relations = endpoint_relations(a, b);
    let r = reach(ra, rb);
    (relations.crossing || relations.all().any(|k| k.dist2.within(r))).then_some(relations)
}

/// Whether the bounding boxes of two segments are more than `radius` (and
/// the ring's margin) apart along x or along y: then so are the segments.
///
/// Always inline: left to itself the compiler made it a call in the circle
/// sweep, which takes it first (some 40 instructions more a sweep).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn boxes_apart<S: Scalar>(a: &Segment<S>, b: &Segment<S>, radius: Narrow<S>) -> bool {
    let (a0, a1, b0, b1) = (a.start().to_narrow(), a.end().to_narrow(), b.start().to_narrow(), b.end().to_narrow());
    let min = |u: Narrow<S>, v: Narrow<S>| if u < v { u } else { v };
    let max = |u: Narrow<S>, v: Narrow<S>| if u < v { v } else { u };
    let beyond = |reach: Narrow<S>| {
        min(a0.x, a1.x) - max(b0.x, b1.x) > reach
            || min(b0.x, b1.x) - max(a0.x, a1.x) > reach
            || min(a0.y, a1.y) - max(b0.y, b1.y) > reach
            || min(b0.y, b1.y) - max(a0.y, a1.y) > reach
    };
    // The margin is never negative and `radius + margin` rounds to no less
    // than `radius`: boxes within the radius are within the reach, and the
    // margin, which scans every coordinate, is not needed. An exact ring's
    // margin is zero: the reach is the radius. (The gaps stay a chain of
    // comparisons: most boxes that are apart are so along the first, and
    // taking the widest of the four cost the capsule contact's misses.)
    if !beyond(radius) {
        return false;
    }
    let margin = <Narrow<S> as Exact>::apart_margin(|| {
        let abs = <Narrow<S> as Exact>::magnitude;
        let coords = [a0.x, a0.y, a1.x, a1.y, b0.x, b0.y, b1.x, b1.y];
        coords.iter().fold(abs(radius), |m, &v| max(m, abs(v))) + abs(radius)
    });
    margin == <Narrow<S> as Exact>::ZERO || beyond(radius + margin)
}

/// Whether two segments cross at a point interior to both, decided exactly
/// by the signs of four cross products (degree 2).
#[inline]
pub(crate) fn cross_properly<S: Scalar>(a: &Segment<S>, b: &Segment<S>) -> bool {
    let zero = <Narrow<S> as Exact>::ZERO;
    let strictly_opposite = |u: Narrow<S>, v: Narrow<S>| (u > zero && v < zero) || (u < zero && v > zero);
    let (a0, a1, b0, b1) = (a.start(), a.end(), b.start(), b.end());
    let (da, db) = (a1.narrow_sub(a0), b1.narrow_sub(b0));
    strictly_opposite(da.perp_dot(b0.narrow_sub(a0)), da.perp_dot(b1.narrow_sub(a0)))
        && strictly_opposite(db.perp_dot(a0.narrow_sub(b0)), db.perp_dot(a1.narrow_sub(b0)))
}

/// An axis of the separating-axis test for crossing segments: the segment's
/// up normal and what is needed to measure signed distances along it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Axis<S: Scalar> {
    origin: ExactVec<S::Exact>,
    /// `up_direction(d)` (degree 1), `|d|²` (degree 2).
    pub(crate) perp: ExactVec<S::Exact>,
    len2: S::Exact,
    /// The unit normal along `perp`.
    pub(crate) normal: Vec2<S>,
}

impl<S: Scalar> Axis<S> {
    /// The axis of a segment, or `None` for a zero-length segment.
    #[inline]
    pub(crate) fn new(segment: &Segment<S>) -> Option<Self> {
        let origin = segment.start().to_exact();
        let d = segment.end().to_exact().sub(origin);
        if d.x == <S::Exact as Exact>::ZERO && d.y == <S::Exact as Exact>::ZERO {
            return None;
        }
        let perp = up_direction(d);
        let normal = unit(perp);
        Some(Self { origin, perp, len2: perp.length_squared(), normal })
    }

    /// The signed distance of `p` from the segment's line along `normal`,
    /// rounded once.
    #[inline]
    pub(crate) fn signed_distance(&self, p: Vec2<S>) -> S {
        let proj = p.to_exact().sub(self.origin).dot(self.perp);
        // |proj| / |perp|: (deg 2)² / deg 2 = deg 2 under the root.
        let magnitude: S = S::from_sqrt_ratio(proj * proj, self.len2);
        if proj < <S::Exact as Exact>::ZERO { -magnitude } else { magnitude }
    }
}

/// The closest points of two segments.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SegmentSegment<S: Scalar> {
    /// The closest point on the first and on the second segment.
    pub(crate) on_a: Vec2<S>,
    pub(crate) on_b: Vec2<S>,
    /// Their squared distance (exactly zero when the segments touch or
    /// cross).
    pub(crate) dist2: Dist2<S::Exact>,
    /// A vector from `on_b` towards `on_a`, zero when they coincide.
    pub(crate) dir: ExactVec<S::Exact>,
}

/// Relates two segments: each end point to the other segment, and whether
/// they cross properly (at a point interior to both, decided exactly by the
/// signs of four cross products).
#[inline]
pub(crate) fn endpoint_relations<S: Scalar>(a: &Segment<S>, b: &Segment<S>) -> EndpointRelations<S> {
    let a_to_b = [point_segment(a.start(), b), point_segment(a.end(), b)];
    let b_to_a = [point_segment(b.start(), a), point_segment(b.end(), a)];
    EndpointRelations { a_to_b, b_to_a, crossing: cross_properly(a, b) }
}

/// The four endpoint-to-segment relations of two segments, decided exactly:
/// `a.start` and `a.end` against `b`, then `b.start` and `b.end` against
/// `a`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EndpointRelations<S: Scalar> {
    pub(crate) a_to_b: [PointSegment<S>; 2],
    pub(crate) b_to_a: [PointSegment<S>; 2],
    /// Whether the segments cross at a point interior to both (a proper
    /// crossing: every other way of meeting puts an endpoint on the other
    /// segment).
    pub(crate) crossing: bool,
}

impl<S: Scalar> EndpointRelations<S> {
    /// Do the segments touch or cross? Exact for fixed-point types; for
    /// floats, an end point within rounding of the other segment counts as
    /// touching (see [`PointSegment::on_segment`]): a normal between closest
    /// points that close could point either way.
    #[inline]
    pub(crate) fn touching(&self) -> bool {
        self.crossing || self.all().any(PointSegment::on_segment)
    }

    fn all(&self) -> impl Iterator<Item = &PointSegment<S>> {
        self.a_to_b.iter().chain(self.b_to_a.iter())
    }

    /// The nearest of the four endpoint relations (see [`Dist2::less_than`];
    /// ties go to the first in the order `a.start`, `a.end`, `b.start`,
    /// `b.end`), whether its end point is `b`'s, and that end point: the
    /// closest pair of segments that do not cross.
    #[inline]
    pub(crate) fn nearest(&self, a: &Segment<S>, b: &Segment<S>) -> (&PointSegment<S>, bool, Vec2<S>) {
        let candidates = [
            (&self.a_to_b[0], false, a.start()),
            (&self.a_to_b[1], false, a.end()),
            (&self.b_to_a[0], true, b.start()),
            (&self.b_to_a[1], true, b.end()),
        ];
        let mut best = candidates[0];
        for candidate in &candidates[1..] {
            if candidate.0.dist2.less_than::<S>(best.0.dist2) {
                best = *candidate;
            }
        }
        best
    }

    /// The closest points of the two segments these relations describe.
    ///
    /// When the segments cross, both points are the crossing point.
    /// Otherwise the closest pair always involves an endpoint, and the
    /// [`nearest`](Self::nearest) of the four endpoint relations is taken.
    #[inline]
    pub(crate) fn closest(&self, a: &Segment<S>, b: &Segment<S>) -> SegmentSegment<S> {
        let zero = <S::Exact as Exact>::ZERO;
        if self.crossing {
            let x = crossing_point(a, b);
            return SegmentSegment {
                on_a: x,
                on_b: x,
                dist2: Dist2 { num: zero, den: <S::Exact as Exact>::ONE },
                dir: ExactVec { x: zero, y: zero },
            };
        }
        let (k, endpoint_of_b, endpoint) = self.nearest(a, b);
        if endpoint_of_b {
            SegmentSegment { on_a: k.closest(), on_b: endpoint, dist2: k.dist2, dir: k.dir.neg() }
        } else {
            SegmentSegment { on_a: endpoint, on_b: k.closest(), dist2: k.dist2, dir: k.dir }
        }
    }
}

/// The crossing point of two properly crossing segments, rounded once:
/// `a.start + da·t` with `t = (b0 − a0)×db / da×db`, kept within both
/// segments' extents.
///
/// The exact point lies within both, and rounding to nearest cannot move
/// it out, so for fixed-point types the clamp changes nothing. In `f64` the
/// products can round, or underflow for subnormal coordinates (to a zero
/// denominator and a NaN, even), and the clamp keeps the point on both
/// segments (a NaN goes to the low end).
#[inline]
fn crossing_point<S: Scalar>(a: &Segment<S>, b: &Segment<S>) -> Vec2<S> {
    let (a0, b0) = (a.start().to_exact(), b.start().to_exact());
    let da = a.end().to_exact().sub(a0);
    let db = b.end().to_exact().sub(b0);
    let mut num = b0.sub(a0).perp_dot(db); // degree 2
    let mut den = da.perp_dot(db); // degree 2, non-zero for a proper crossing
    if den < <S::Exact as Exact>::ZERO {
        num = -num;
        den = -den;
    }
    // (deg 1 · deg 2 + deg 1 · deg 2) / deg 2 = deg 1
    let along = |p: S::Exact, d: S::Exact| S::from_ratio(p * den + d * num, den);
    let min = |u: S, v: S| if v < u { v } else { u };
    let max = |u: S, v: S| if v > u { v } else { u };
    let within = |value: S, a0: S, a1: S, b0: S, b1: S| {
        let (low, high) = (max(min(a0, a1), min(b0, b1)), min(max(a0, a1), max(b0, b1)));
        // A NaN compares false, so it takes `low`.
        if value >= low { min(value, high) } else { low }
    };
    let (a1, b1) = (a.end(), b.end());
    let (a0, b0) = (a.start(), b.start());
    Vec2::new(
        within(along(a0.to_exact().x, da.x), a0.x, a1.x, b0.x, b1.x),
        within(along(a0.to_exact().y, da.y), a0.y, a1.y, b0.y, b1.y),
    )
}

#[cfg(test)]
mod tests {
    extern crate alloc;

    use alloc::{format, vec};

    use fixed::types::{I16F16, I32F32};
    use proptest::prelude::*;

    use super::*;

    /// `segments_within` without the bounding-box shortcut.
    fn segments_within_plainly<S: Scalar>(a: &Segment<S>, b: &Segment<S>, radius: Narrow<S>) -> bool {
        cross_properly(a, b)
            || within_segment(a.start(), b, radius)
            || within_segment(a.end(), b, radius)
            || within_segment(b.start(), a, radius)
            || within_segment(b.end(), a, radius)
    }

    /// `boxes_apart` as it was: the margin always, from magnitudes taken
    /// by a comparison, and the reach compared with each gap.
    fn boxes_apart_plainly<S: Scalar>(a: &Segment<S>, b: &Segment<S>, radius: Narrow<S>) -> bool {
        let zero = <Narrow<S> as Exact>::ZERO;
        let (a0, a1, b0, b1) = (a.start().to_narrow(), a.end().to_narrow(), b.start().to_narrow(), b.end().to_narrow());
        let min = |u: Narrow<S>, v: Narrow<S>| if u < v { u } else { v };
        let max = |u: Narrow<S>, v: Narrow<S>| if u < v { v } else { u };
        let margin = <Narrow<S> as Exact>::apart_margin(|| {
            let abs = |v: Narrow<S>| if v < zero { -v } else { v };
            let coords = [a0.x, a0.y, a1.x, a1.y, b0.x, b0.y, b1.x, b1.y];
            coords.iter().fold(abs(radius), |m, &v| max(m, abs(v))) + abs(radius)
        });
        let reach = radius + margin;
        min(a0.x, a1.x) - max(b0.x, b1.x) > reach
            || min(b0.x, b1.x) - max(a0.x, a1.x) > reach
            || min(a0.y, a1.y) - max(b0.y, b1.y) > reach
            || min(b0.y, b1.y) - max(a0.y, a1.y) > reach
    }

    /// `PointSegment::on_segment` as it was, its scale's magnitudes taken by
    /// a comparison (a zero keeps its sign).
    fn on_segment_plainly<S: Scalar>(k: &PointSegment<S>) -> bool {
        S::Exact::is_negligible(k.dist2.num, k.dist2.den, || {
            let zero = <Narrow<S> as Exact>::ZERO;
            let abs = |v: Narrow<S>| if v < zero { -v } else { v };
            let e = ExactVec { x: k.s.x + k.d.x, y: k.s.y + k.d.y };
            let scale = [k.p, k.s, e]
                .iter()
                .map(|v| if abs(v.x) > abs(v.y) { abs(v.x) } else { abs(v.y) })
                .fold(zero, |max, v| if v > max { v } else { max });
            <S::Exact as Exact>::from_narrow(scale)
        })
    }

    /// Two segments and a radius, as `f64`s: the second segment is the
    /// first (scaled by `size` around a centre far from the origin or not)
    /// moved so that the boxes' gap along x or y differs from the radius by
    /// a few steps of the margin's size or of the rounding's.
    fn near_apart() -> impl Strategy<Value = ([f64; 4], [f64; 4], f64)> {
        (
            prop::sample::select(vec![0.0, 1.0, 1e3, 1e6, 1e12]),
            prop::sample::select(vec![1e-3, 1.0, 100.0, 1e4]),
            any::<[u16; 4]>(),
            prop::sample::select(vec![0.0, 1e-3, 1.0, 50.0, 1e6]),
            -8_i32..=8,
            prop::sample::select(vec![22, 40, 48, 52]),
            any::<bool>(),
        )
            .prop_map(|(centre, size, raw, radius, steps, exponent, along_x)| {
                let c = |v: u16| centre + size * (f64::from(v) / 65536.0 - 0.5);
                let a = [c(raw[0]), c(raw[1]), c(raw[2]), c(raw[3])];
                let scale = centre + size + radius * 2.0;
                let gap = radius + f64::from(steps) * scale * 2.0_f64.powi(-exponent);
                let width = |i: usize| (a[i] - a[i + 2]).abs();
                let b = if along_x {
                    let dx = width(0) + gap;
                    [a[0] + dx, a[1], a[2] + dx, a[3]]
                } else {
                    let dy = width(1) + gap;
                    [a[0], a[1] + dy, a[2], a[3] + dy]
                };
                (a, b, radius)
            })
    }

    fn check<S: Scalar>(from: impl Fn(f64) -> S, (a, b, r): ([f64; 4], [f64; 4], f64)) -> Result<(), TestCaseError> {
        let segment = |p: [f64; 4]| {
            Segment::new(Vec2::new(from(p[0]), from(p[1])), Vec2::new(from(p[2]), from(p[3])))
                .map_err(|e| TestCaseError::reject(format!("{e:?}")))
        };
        let (a, b, radius) = (segment(a)?, segment(b)?, from(r));
        let r = radius.to_narrow();
        // The margin only when the gap exceeds the radius changes nothing.
        prop_assert_eq!(
            boxes_apart(&a, &b, r),
            boxes_apart_plainly(&a, &b, r),
            "the margin taken late changed the answer"
        );
        prop_assert_eq!(
            boxes_apart(&b, &a, r),
            boxes_apart_plainly(&b, &a, r),
            "the margin taken late changed the answer"
        );
        // What the shortcut rests on, and what the circle sweep takes from
        // it for its start alone: boxes apart, no end point within reach.
        if boxes_apart(&a, &b, r) {
            let ends = [(a.start(), &b), (a.end(), &b), (b.start(), &a), (b.end(), &a)];
            prop_assert!(
                !ends.iter().any(|(p, s)| within_segment(*p, s, r)),
                "the boxes are apart, but an end point is within reach of the other segment"
            );
        }
        prop_assert_eq!(segments_within(&a, &b, r), segments_within_plainly(&a, &b, r));
        prop_assert_eq!(segments_within(&b, &a, r), segments_within_plainly(&b, &a, r));
        // The contacts' path (for floats, the full relations in place of
        // the narrow test) decides the same.
        prop_assert_eq!(relations_within(&a, &b, radius, S::ZERO).is_some(), segments_within(&a, &b, r));
        prop_assert_eq!(relations_within(&b, &a, S::ZERO, radius).is_some(), segments_within(&b, &a, r));
        Ok(())
    }

    /// A point and a segment as `f64`s, at every scale, with zeros of
    /// either sign among the coordinates, and points on the segment, at its
    /// ends and a few rounding steps off it.
    fn point_near_segment() -> impl Strategy<Value = ([f64; 2], [f64; 4])> {
        (
            prop::sample::select(vec![0.0, 1.0, 1e3, 1e6, 1e12]),
            prop::sample::select(vec![1e-300, 1e-3, 1.0, 100.0, 1e4]),
            any::<[u16; 6]>(),
            any::<[bool; 6]>(),
            0_u8..4,
        )
            .prop_map(|(centre, size, raw, zeros, on)| {
                let c = |v: u16| centre + size * (f64::from(v) / 65536.0 - 0.5);
                let mut v = raw.map(c);
                for (v, zero) in v.iter_mut().zip(zeros) {
                    if zero {
                        *v = if raw[0] % 2 == 0 { 0.0 } else { -0.0 };
                    }
                }
                let t = f64::from(raw[4]) / 65536.0;
                let on_line = [v[2] + t * (v[4] - v[2]), v[3] + t * (v[5] - v[3])];
                let p = match on {
                    0 => on_line,
                    // Off the line by up to 32 rounding steps at its scale,
                    // around `is_negligible`'s tolerance (16).
                    1 => {
                        let step = f64::EPSILON * (centre + size);
                        [on_line[0], on_line[1] + f64::from(raw[5]) / 2048.0 * step]
                    }
                    2 => [v[2], v[3]],
                    _ => [v[0], v[1]],
                };
                (p, [v[2], v[3], v[4], v[5]])
            })
    }

    proptest! {
        #![proptest_config(crate::proptest_config(20_000, 0x6b65_726e))]

        /// Taking the magnitudes of `on_segment`'s scale by clearing the
        /// sign bit (a zero becomes `+0.0`) changes no answer: the scale is
        /// only multiplied and squared.
        #[test]
        fn the_scales_magnitudes_change_no_answer((p, s) in point_near_segment()) {
            fn check<S: Scalar>(from: impl Fn(f64) -> S, p: [f64; 2], s: [f64; 4]) -> Result<(), TestCaseError> {
                let v = |x: f64, y: f64| Vec2::new(from(x), from(y));
                let segment = Segment::new(v(s[0], s[1]), v(s[2], s[3])).map_err(|e| TestCaseError::reject(format!("{e:?}")))?;
                let k = point_segment(v(p[0], p[1]), &segment);
                prop_assert_eq!(k.on_segment(), on_segment_plainly(&k), "the sign of a zero in the scale changed the answer");
                Ok(())
            }
            check(|v| v as f32, p, s)?;
            check(|v| v, p, s)?;
        }

        /// A contact's one set-up answers as the two it replaces: for a point
        /// on, near or off a segment, at every scale, and a radius below, at
        /// or above its distance, `point_segment_within` is `Some` exactly
        /// when `within_segment` says yes, and then holds what
        /// `point_segment` finds, value for value.
        #[test]
        fn one_set_up_answers_as_the_test_and_the_location_apart(
            (p, s) in point_near_segment(),
            share in prop::sample::select(vec![0.0, 0.5, 1.0 - 1e-9, 1.0, 1.0 + 1e-9, 2.0]),
        ) {
            fn check<S: Scalar>(from: impl Fn(f64) -> S, p: [f64; 2], s: [f64; 4], share: f64) -> Result<(), TestCaseError> {
                let v = |x: f64, y: f64| Vec2::new(from(x), from(y));
                let segment = Segment::new(v(s[0], s[1]), v(s[2], s[3])).map_err(|e| TestCaseError::reject(format!("{e:?}")))?;
                let p = v(p[0], p[1]);
                let apart = point_segment(p, &segment);
                let radius = from(apart.dist2.distance::<S>().to_f64() * share).to_narrow();
                let together = point_segment_within(p, &segment, radius);
                prop_assert_eq!(together.is_some(), within_segment(p, &segment, radius));
                if let Some(k) = together {
                    prop_assert_eq!((k.dist2.num, k.dist2.den), (apart.dist2.num, apart.dist2.den));
                    prop_assert_eq!((k.dir, k.closest(), k.on_segment()), (apart.dir, apart.closest(), apart.on_segment()));
                }
                Ok(())
            }
            check(|v| v as f32, p, s, share)?;
            check(|v| v, p, s, share)?;
            if p.iter().chain(&s).all(|v| v.abs() < 1000.0) {
                check(I16F16::from_num, p, s, share)?;
                check(I32F32::from_num, p, s, share)?;
            }
        }

        /// The bounding-box shortcut never changes the answer: with or
        /// without it, `segments_within` says the same for boxes whose gap
        /// is within a few rounding margins of the radius, at every scale;
        /// and so does `relations_within`, the contacts' form of it. Boxes
        /// found apart have no end point within reach of the other
        /// segment, whether or not the segments cross.
        #[test]
        fn the_box_shortcut_changes_no_answer(case in near_apart()) {
            check(|v| v as f32, case)?;
            check(|v| v, case)?;
            let (a, b, r) = case;
            let small = |p: [f64; 4]| p.iter().all(|v| v.abs() < 1000.0);
            if small(a) && small(b) && r < 1000.0 {
                check(I16F16::from_num, case)?;
                check(I32F32::from_num, case)?;
            }
        }
    }
}
