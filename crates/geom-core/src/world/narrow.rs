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
    let margin = speculative_margin(a, b);
    let capsules = a.is_capsule() || b.is_capsule();
    let near = if capsules {
        let grown = Capsule::new_unchecked(b.capsule().segment(), b.radius() + margin);
        contact_capsule_capsule(&a.capsule(), &grown)
    } else {
        contact_circle_circle(&a.circle, &Circle::new_unchecked(b.position(), b.radius() + margin))
    };
    if let Some(contact) = near {
        let normal = contact.normal;
        return Some(Geometry {
            normal,
            separation: hold(margin - contact.depth),
            point: contact.point - scale(normal, margin),
        });
    }
    // Apart by more than the margin: they meet only if they close more.
    let relative = motion_a - motion_b;
    if manhattan(relative) <= margin {
        return None;
    }
    let sweep = if capsules {
        sweep_capsule_capsule(&a.capsule(), motion_a, &b.capsule(), motion_b)
    } else {
        sweep_circle_circle(&a.circle, motion_a, &b.circle, motion_b)
    };
    Geometry::of_sweep(sweep, relative)
}
