//! Axis-aligned boxes: around shapes, around where a body can go during a
//! tick, and the margins the broad and narrow phases share.

use super::arith::abs;
use super::{Body, Collider, Shape};
use crate::scalar::Scalar;
use crate::vec2::Vec2;

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Aabb<S> {
    pub(crate) min: Vec2<S>,
    pub(crate) max: Vec2<S>,
}

impl<S: Scalar> Aabb<S> {
    /// The box around a centre with a half-size `reach` on both axes.
    pub(crate) fn around(center: Vec2<S>, reach: S) -> Self {
        Self { min: Vec2::new(center.x - reach, center.y - reach), max: Vec2::new(center.x + reach, center.y + reach) }
    }

    /// The box around two points, grown by `reach`.
    pub(crate) fn spanning(a: Vec2<S>, b: Vec2<S>, reach: S) -> Self {
        Self::around(a, reach).union(&Self::around(b, reach))
    }

    /// The smallest box holding both.
    pub(crate) fn union(&self, other: &Self) -> Self {
        let min = |u: S, v: S| if v < u { v } else { u };
        let max = |u: S, v: S| if v > u { v } else { u };
        Self {
            min: Vec2::new(min(self.min.x, other.min.x), min(self.min.y, other.min.y)),
            max: Vec2::new(max(self.max.x, other.max.x), max(self.max.y, other.max.y)),
        }
    }

    /// Whether the boxes overlap or touch.
    pub(crate) fn overlaps(&self, other: &Self) -> bool {
        self.min.x <= other.max.x && other.min.x <= self.max.x && self.min.y <= other.max.y && other.min.y <= self.max.y
    }

    /// Whether `other` lies inside this box.
    pub(crate) fn contains(&self, other: &Self) -> bool {
        self.min.x <= other.min.x && self.min.y <= other.min.y && other.max.x <= self.max.x && other.max.y <= self.max.y
    }
}

impl<S: Scalar> Shape<S> {
    /// The shape's bounding box.
    pub(crate) fn aabb(&self) -> Aabb<S> {
        let (min, max) = self.bounds();
        Aabb { min, max }
    }
}

/// The box of a collider over a tick in which it moves by `travel`.
pub(crate) fn collider_box<S: Scalar>(collider: &Collider<S>, travel: Vec2<S>) -> Aabb<S> {
    let at_start = collider.shape.aabb();
    if travel == Vec2::ZERO {
        return at_start;
    }
    let moved = Aabb { min: at_start.min + travel, max: at_start.max + travel };
    at_start.union(&moved)
}

/// A margin above any rounding of the contact kernels at a body's place:
/// for floats, `2^-16` of the size of its coordinates and radius (the
/// kernels work in `f64`, within `2^-20` of it); for fixed-point types,
/// four steps of their resolution.
pub(crate) fn rounding_margin<S: Scalar>(body: &Body<S>) -> S {
    if S::FORMAT.float {
        let k = S::from_dyadic::<8>(1);
        let p = body.position();
        let [start, end] = body.core();
        let size = S::ONE + abs(p.x) + abs(p.y) + abs(start.x) + abs(start.y) + abs(end.x) + abs(end.y);
        (size + body.radius()) * k * k
    } else {
        let step = S::TIME_STEP;
        step + step + step + step
    }
}

/// How close two bodies come before the solver holds them apart ahead of
/// touching (a speculative contact): a quarter of the smaller radius, and
/// the rounding margin of either. Within it a pair's contact constraint is
/// made from where the two are closest; beyond it, only if their motions
/// meet during the tick (see `narrow.rs`).
pub(crate) fn speculative_margin<S: Scalar>(a: &Body<S>, b: &Body<S>) -> S {
    let r = if a.radius() < b.radius() { a.radius() } else { b.radius() };
    let quarter = S::from_dyadic::<2>(1);
    let rounding = {
        let (ra, rb) = (rounding_margin(a), rounding_margin(b));
        if ra > rb { ra } else { rb }
    };
    r * quarter + rounding
}

/// The box a body can reach during a tick in which it is expected to move
/// by `motion` (its velocity and its gravity's pull): its shape at the
/// start and at the end of that motion, grown by `grow` (room for the
/// gravity's curve, the speculative margin and rounding).
pub(crate) fn tick_box<S: Scalar>(body: &Body<S>, motion: Vec2<S>, grow: S) -> Aabb<S> {
    body_reach(body, motion, body.solid().radius() + grow)
}

/// The box of a body's shape where it is.
pub(crate) fn circle_box<S: Scalar>(body: &Body<S>) -> Aabb<S> {
    body_reach(body, Vec2::ZERO, body.radius())
}

/// The box around a body's core moving by `motion`, grown by `grow`: its
/// centre's path for a circle, both core ends' paths for a capsule.
pub(crate) fn body_reach<S: Scalar>(body: &Body<S>, motion: Vec2<S>, grow: S) -> Aabb<S> {
    let p = body.position();
    if !body.is_capsule() {
        return Aabb::spanning(p, p + motion, grow);
    }
    let [start, end] = body.core();
    let (a, b) = (p + start, p + end);
    Aabb::spanning(a, a + motion, grow).union(&Aabb::spanning(b, b + motion, grow))
}
