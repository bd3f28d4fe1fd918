//! The narrow phase: for a pair the broad phase found, whether it makes a
//! contact for the solver this tick, and along which normal.
//!
//! Every answer is one of geom's public queries:
//!
//! - Shapes that touch or overlap at the start of the tick give their
//!   contact (normal, overlap, point).
//! - Two bodies closer than their speculative margin (a quarter of the
//!   smaller radius: see [`speculative_margin`]) give the contact of the
//!   first with the second grown by the margin: the normal along which
//!   they are closest, and the gap. The solver lets them close it and no
//!   more.
//! - Shapes further apart give a contact only if their expected motions
//!   (velocity and gravity over the tick) meet during the tick: the sweep
//!   of one against the other gives the normal at the first touch and the
//!   gap along it. A bullet crossing a body in one tick therefore stops at
//!   it, and a body sliding past a corner or along a floor made of many
//!   segments is held by the normal it would touch, not by the one it is
//!   nearest to (no ghost bumps). Against colliders the margin is only a
//!   few rounding steps (a body the continuous motion stopped a step short
//!   of a wall is still against it), so that the normal of a segment's
//!   end never holds up a body sliding onto the next segment; the
//!   continuous motion (`motion.rs`) then keeps bodies out of colliders,
//!   whatever the solver did.

use alloc::vec::Vec;

use super::aabb::speculative_margin;
use super::arith::{dot, hold, manhattan, scale};
use super::{Body, Shape};
use crate::query::{
    Contact, Sweep, contact_capsule_capsule, contact_circle_capsule, contact_circle_circle, contact_circle_segment,
    sweep_capsule_capsule, sweep_circle_capsule, sweep_circle_circle, sweep_circle_segment,
};
use crate::scalar::Scalar;
use crate::shape::{Capsule, Circle};

impl<S: Scalar> Shape<S> {
    /// The shape grown by `margin` (a segment becomes a capsule).
    fn grown(&self, margin: S) -> Self {
        match self {
            Self::Segment(s) => Self::Capsule(Capsule::new_unchecked(*s, margin)),
            Self::Capsule(c) => Self::Capsule(Capsule::new_unchecked(c.segment(), c.radius() + margin)),
            Self::Circle(c) => Self::Circle(Circle::new_unchecked(c.center(), c.radius() + margin)),
        }
    }
}
use crate::vec2::Vec2;

/// Where a pair meets: the unit normal from the second towards the first,
/// the separation along it at the start of the tick (the gap, or minus
/// the overlap), and the point on the second's surface.
#[derive(Clone, Copy, Debug)]
pub(super) struct Geometry<S> {
    pub(super) normal: Vec2<S>,
    pub(super) separation: S,
    pub(super) point: Vec2<S>,
}

impl<S: Scalar> Geometry<S> {
    fn of_contact(contact: &Contact<S>) -> Self {
        Self { normal: contact.normal, separation: -contact.depth, point: contact.point }
    }

    /// The first touch of a sweep whose shapes moved by `travel_a` and
    /// `travel_b` to meet: the gap is how far they closed along the normal.
    /// `None` for a touch whose normal does not oppose the motion (a
    /// float near-tie: they only graze, moving apart).
    fn of_hit(normal: Vec2<S>, point: Vec2<S>, travel: Vec2<S>) -> Option<Self> {
        let gap = -dot(travel, normal);
        (gap >= S::ZERO).then_some(Self { normal, separation: hold(gap), point })
    }

    fn of_sweep(sweep: Sweep<S>, relative: Vec2<S>) -> Option<Self> {
        match sweep {
            Sweep::InContact { contact, .. } => Some(Self::of_contact(&contact)),
            Sweep::Hit(hit) if dot(relative, hit.normal) < S::ZERO => {
                Self::of_hit(hit.normal, hit.point, hit.travel_a - hit.travel_b)
            }
            Sweep::Miss | Sweep::Hit(_) => None,
        }
    }
}

/// The sweep of a body's shape `a` moving by `motion` against a static
/// shape `b`.
pub(super) fn sweep_shape<S: Scalar>(a: &Shape<S>, motion: Vec2<S>, b: &Shape<S>) -> Sweep<S> {
    match (a, b) {
        (Shape::Circle(c), Shape::Segment(s)) => sweep_circle_segment(c, motion, s),
        (Shape::Circle(c), Shape::Capsule(k)) => sweep_circle_capsule(c, motion, k),
        (Shape::Circle(c), Shape::Circle(d)) => sweep_circle_circle(c, motion, d, Vec2::ZERO),
        (a, b) => sweep_capsule_capsule(&a.as_capsule(), motion, &b.as_capsule(), Vec2::ZERO),
    }
}

/// The contact of shape `a` with shape `b`.
pub(super) fn contact_shape<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Option<Contact<S>> {
    match (a, b) {
        (Shape::Circle(c), Shape::Segment(s)) => contact_circle_segment(c, s),
        (Shape::Circle(c), Shape::Capsule(k)) => contact_circle_capsule(c, k),
        (Shape::Circle(c), Shape::Circle(d)) => contact_circle_circle(c, d),
        (a, b) => contact_capsule_capsule(&a.as_capsule(), &b.as_capsule()),
    }
}

/// A body (its shape against colliders, `solid`) expected to move by
/// `motion` relative to a collider's shape `other` (the collider's travel
/// taken off): where they meet this tick, if they do. Within `margin` (a
/// few rounding steps: a body the continuous motion stopped a step short
/// of a collider is still against it) the contact is where they are
/// closest; further apart, where the motion first touches.
pub(super) fn with_collider<S: Scalar>(
    solid: &Shape<S>,
    other: &Shape<S>,
    motion: Vec2<S>,
    margin: S,
) -> Option<Geometry<S>> {
    if let Some(contact) = contact_shape(solid, &other.grown(margin)) {
        let normal = contact.normal;
        return Some(Geometry {
            normal,
            separation: hold(margin - contact.depth),
            point: contact.point - scale(normal, margin),
        });
    }
    if motion == Vec2::ZERO {
        return None;
    }
    Geometry::of_sweep(sweep_shape(solid, motion, other), motion)
}

/// Bodies `a` and `b` expected to move by `motion_a` and `motion_b`: where
/// they meet this tick, if they do (see the module documentation).
pub(super) fn with_body<S: Scalar>(
    a: &Body<S>,
    b: &Body<S>,
    motion_a: Vec2<S>,
    motion_b: Vec2<S>,
) -> Option<Geometry<S>> {
    near_body(a, b).or_else(|| apart_body(a, b, motion_a, motion_b))
}

/// Where bodies `a` and `b` touch, overlap or come within their
/// speculative margin, from their shapes alone.
fn near_body<S: Scalar>(a: &Body<S>, b: &Body<S>) -> Option<Geometry<S>> {
    let margin = speculative_margin(a, b);
    let contact = if a.is_capsule() || b.is_capsule() {
        let grown = Capsule::new_unchecked(b.capsule().segment(), b.radius() + margin);
        contact_capsule_capsule(&a.capsule(), &grown)
    } else {
        contact_circle_circle(&a.circle, &Circle::new_unchecked(b.position(), b.radius() + margin))
    }?;
    let normal = contact.normal;
    Some(Geometry { normal, separation: hold(margin - contact.depth), point: contact.point - scale(normal, margin) })
}

/// Where bodies `a` and `b`, apart by more than their speculative margin,
/// first touch as they move by `motion_a` and `motion_b`, if they do.
fn apart_body<S: Scalar>(a: &Body<S>, b: &Body<S>, motion_a: Vec2<S>, motion_b: Vec2<S>) -> Option<Geometry<S>> {
    // They meet only if they close by more than the margin.
    let relative = motion_a - motion_b;
    if manhattan(relative) <= speculative_margin(a, b) {
        return None;
    }
    let sweep = if a.is_capsule() || b.is_capsule() {
        sweep_capsule_capsule(&a.capsule(), motion_a, &b.capsule(), motion_b)
    } else {
        sweep_circle_circle(&a.circle, motion_a, &b.circle, motion_b)
    };
    Geometry::of_sweep(sweep, relative)
}

/// What [`near_body`] reads of one body: its circle, and a capsule's
/// core.
#[derive(Clone, Copy, Debug)]
struct Outline<S> {
    circle: Circle<S>,
    core: [Vec2<S>; 2],
}

impl<S: Scalar> Outline<S> {
    fn of(body: &Body<S>) -> Self {
        Self { circle: body.circle, core: body.core() }
    }

    /// Whether every value has the same bits (a float's zero and minus
    /// zero differ, and may give answers that differ in a sign).
    fn same_bits(&self, other: &Self) -> bool {
        let values = |x: &Self| {
            let ([s, e], c) = (x.core, x.circle.center());
            [c.x, c.y, x.circle.radius(), s.x, s.y, e.x, e.y]
        };
        values(self).iter().zip(&values(other)).all(|(p, q)| p.hash_bits() == q.hash_bits())
    }
}

/// A pair's answer, by the pair's body indices.
type Answer<S> = (u32, u32, Option<Geometry<S>>);

/// The narrow phase's answers of the last tick, given again to pairs of
/// bodies that have not moved since: a pile at rest with sleeping off
/// asks the same questions tick after tick. What is kept is the part of
/// [`with_body`] that reads only the shapes ([`near_body`]), and it is
/// reused only when both shapes have the same bits as when it was found,
/// so it is the answer `near_body` would give again: the same bits, from
/// a cache that is never state. (A body resting on others keeps its
/// place but not its velocity, which the solver leaves a few rounding
/// steps from zero: the part that reads the motions is asked again.)
#[derive(Debug)]
pub(super) struct Memo<S> {
    /// Per body index: its shape this tick, and whether it is the shape
    /// of the tick before.
    shapes: Vec<Outline<S>>,
    same: Vec<bool>,
    /// The last tick's answers and this tick's, each by pair, ascending.
    last: Vec<Answer<S>>,
    next: Vec<Answer<S>>,
    /// How far `last` has been looked through, and how many answers this
    /// tick it gave again.
    at: usize,
    pub(super) recalled: usize,
}

impl<S> Default for Memo<S> {
    fn default() -> Self {
        Self { shapes: Vec::new(), same: Vec::new(), last: Vec::new(), next: Vec::new(), at: 0, recalled: 0 }
    }
}

impl<S: Scalar> Memo<S> {
    /// Starts a tick of `bodies`.
    pub(super) fn begin(&mut self, bodies: &[Body<S>]) {
        self.same.clear();
        self.shapes.truncate(bodies.len());
        for (i, body) in bodies.iter().enumerate() {
            let now = Outline::of(body);
            if let Some(then) = self.shapes.get_mut(i) {
                self.same.push(then.same_bits(&now));
                *then = now;
            } else {
                self.same.push(false);
                self.shapes.push(now);
            }
        }
        core::mem::swap(&mut self.last, &mut self.next);
        self.next.clear();
        (self.at, self.recalled) = (0, 0);
    }

    /// [`with_body`] for bodies `i < j` (`a` and `b`, expected to move by
    /// `motion_a` and `motion_b`), asked in ascending order of pairs, its
    /// shapes' part the last tick's answer if neither body moved since.
    pub(super) fn with_body(
        &mut self,
        (i, j): (u32, u32),
        (a, b): (&Body<S>, &Body<S>),
        motion_a: Vec2<S>,
        motion_b: Vec2<S>,
    ) -> Option<Geometry<S>> {
        let unchanged = |k: u32| self.same.get(k as usize).copied().unwrap_or(false);
        let recalled = if unchanged(i) && unchanged(j) { self.recall((i, j)) } else { None };
        let near = recalled.map_or_else(|| near_body(a, b), |&(_, _, near)| near);
        self.next.push((i, j, near));
        near.or_else(|| apart_body(a, b, motion_a, motion_b))
    }

    /// The last tick's answer for pair `key`, if it had one.
    fn recall(&mut self, key: (u32, u32)) -> Option<&Answer<S>> {
        while self.last.get(self.at).is_some_and(|&(i, j, _)| (i, j) < key) {
            self.at += 1;
        }
        let answer = self.last.get(self.at).filter(|&&(i, j, _)| (i, j) == key)?;
        self.recalled += 1;
        Some(answer)
    }
}
