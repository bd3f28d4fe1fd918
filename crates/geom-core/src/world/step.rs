//! [`World::step`]: one tick of motion and collision response.

use alloc::vec;
use alloc::vec::Vec;

use super::broad_phase::{body_box, collider_box, pairs};
use super::{Body, Collider, ColliderId, World, WorldConfig};
use crate::query::kernel::{clamp_to_range, scale};
use crate::query::{
    Contact, Sweep, contact_circle_capsule, contact_circle_circle, contact_circle_segment, sweep_circle_capsule,
    sweep_circle_circle, sweep_circle_segment,
};
use crate::scalar::Scalar;
use crate::shape::Circle;
use crate::vec2::Vec2;

/// `a·b`, rounded once to nearest.
fn mul<S: Scalar>(a: S, b: S) -> S {
    // (deg 1 · deg 1) / deg 1 = deg 1
    S::from_ratio(a.to_exact() * b.to_exact(), S::EXACT_ONE)
}

/// `a·b` for vectors, rounded once to nearest.
fn dot<S: Scalar>(a: Vec2<S>, b: Vec2<S>) -> S {
    S::from_ratio(a.to_exact().dot(b.to_exact()), S::EXACT_ONE)
}

/// `a / b` for `b > 0`, rounded once to nearest.
fn ratio<S: Scalar>(a: S, b: S) -> S {
    S::from_ratio(a.to_exact() * S::EXACT_ONE, b.to_exact())
}

/// The velocity after hitting a surface with unit normal `normal`: the
/// component into the surface is reversed and scaled by the restitution,
/// or only removed when the impact is slower than the bounce threshold (so
/// resting bodies stay at rest). A velocity leaving the surface is kept.
fn respond<S: Scalar>(velocity: Vec2<S>, normal: Vec2<S>, restitution: S, bounce_threshold: S) -> Vec2<S> {
    let into = dot(velocity, normal);
    if into >= S::ZERO {
        return velocity;
    }
    let factor = if -into > bounce_threshold { S::ONE + restitution } else { S::ONE };
    velocity - scale(normal, mul(factor, into))
}

/// The first contact of a moving body with one of its candidate colliders.
struct Stop<S> {
    /// The fraction of the motion before it.
    t: S,
    normal: Vec2<S>,
    /// How far the body may travel: to the impact.
    travel: Vec2<S>,
}

/// The static colliders a body may meet this tick.
struct Candidates<'a, S> {
    colliders: &'a [(ColliderId, Collider<S>)],
    indices: &'a [u32],
}

impl<S: Scalar> Candidates<'_, S> {
    fn iter(&self) -> impl Iterator<Item = &Collider<S>> {
        self.indices.iter().map(|&i| &self.colliders[i as usize].1)
    }

    /// The earliest stop of `circle` moving by `motion`: a hit during the
    /// motion, or a contact it starts in and pushes into (at `t = 0`).
    /// Ties go to the collider with the lowest id.
    fn first_stop(&self, circle: &Circle<S>, motion: Vec2<S>) -> Option<Stop<S>> {
        let mut first: Option<Stop<S>> = None;
        for collider in self.iter() {
            let stop = match sweep(circle, motion, collider) {
                Sweep::Miss | Sweep::InContact { blocked: false, .. } => continue,
                Sweep::InContact { contact, blocked: true } => {
                    Stop { t: S::ZERO, normal: contact.normal, travel: Vec2::ZERO }
                }
                Sweep::Hit(impact) => Stop { t: impact.t, normal: impact.normal, travel: impact.travel_a },
            };
            if first.as_ref().is_none_or(|f| stop.t < f.t) {
                first = Some(stop);
            }
        }
        first
    }

    /// Moves `body` by `motion`, stopping at the first collider in the way.
    fn move_until_stop(&self, body: &mut Body<S>, motion: Vec2<S>) -> Option<Stop<S>> {
        let stop = self.first_stop(&body.circle, motion);
        body.translate(stop.as_ref().map_or(motion, |s| s.travel));
        stop
    }
}

fn sweep<S: Scalar>(circle: &Circle<S>, motion: Vec2<S>, collider: &Collider<S>) -> Sweep<S> {
    match collider {
        Collider::Segment(s) => sweep_circle_segment(circle, motion, s),
        Collider::Capsule(c) => sweep_circle_capsule(circle, motion, c),
        Collider::Circle(c) => sweep_circle_circle(circle, motion, c, Vec2::ZERO),
    }
}

fn contact<S: Scalar>(circle: &Circle<S>, collider: &Collider<S>) -> Option<Contact<S>> {
    match collider {
        Collider::Segment(s) => contact_circle_segment(circle, s),
        Collider::Capsule(c) => contact_circle_capsule(circle, c),
        Collider::Circle(c) => contact_circle_circle(circle, c),
    }
}

impl<S: Scalar> Body<S> {
    /// Moves the body, keeping its centre in the safe range (so the new
    /// circle is always valid; the `if let` is for the type checker).
    fn translate(&mut self, offset: Vec2<S>) {
        if offset == Vec2::ZERO {
            return;
        }
        if let Ok(circle) = Circle::new(clamp_to_range(self.position() + offset), self.radius()) {
            self.circle = circle;
        }
    }

    /// Moves the body by its velocity over one tick, with continuous
    /// collision against `statics`: at each stop it bounces or slides and
    /// goes on with the rest of the tick, up to `max_substeps` times; then
    /// it goes only as far as the next stop, where it stops dead along the
    /// normal. Nothing in the tick can carry it through a collider.
    fn advance(&mut self, statics: &Candidates<'_, S>, config: &WorldConfig<S>) {
        let mut remaining = S::ONE;
        for _ in 0..config.max_substeps {
            let motion = scale(self.velocity, remaining);
            if motion == Vec2::ZERO {
                return;
            }
            let Some(stop) = statics.move_until_stop(self, motion) else { return };
            self.velocity = respond(self.velocity, stop.normal, self.restitution, config.bounce_threshold);
            remaining = mul(remaining, S::ONE - stop.t);
        }
        let motion = scale(self.velocity, remaining);
        if let Some(stop) = statics.move_until_stop(self, motion) {
            // No bounce (restitution 0, and no speed counts as fast).
            self.velocity = respond(self.velocity, stop.normal, S::ZERO, S::MAX_COORD);
        }
    }
}

impl<S: Scalar> World<S> {
    /// Advances the world by one tick (see the [module documentation](crate::world)
    /// for what happens in it).
    ///
    /// Deterministic: the same world gives the same bits after the step, on
    /// every platform for fixed-point types and on every IEEE-754 platform
    /// for floats.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, Collider, World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
    /// // A thin wall, and a bullet crossing 50 units a tick straight at it.
    /// world.add_collider(Collider::Segment(Segment::new(Vec2::new(10.0, -5.0), Vec2::new(10.0, 5.0))?));
    /// let mut def = BodyDef::new(Vec2::new(0.0, 0.0), 0.25);
    /// def.velocity = Vec2::new(50.0, 0.0);
    /// let bullet = world.add_body(def)?;
    /// world.step();
    /// let body = world.body(bullet).unwrap();
    /// assert!(body.position().x <= 9.75); // stopped at the wall, not through it
    /// assert_eq!(body.velocity(), Vec2::new(0.0, 0.0)); // no bounce
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn step(&mut self) {
        self.tick += 1;
        let config = self.config;
        for body in &mut self.bodies {
            if body.inverse_mass > S::ZERO {
                body.velocity = clamp_to_range(body.velocity + config.gravity);
            }
        }
        let body_boxes: Vec<_> = self.bodies.iter().map(body_box).collect();
        let collider_boxes: Vec<_> = self.colliders.iter().map(|(_, c)| collider_box(c)).collect();
        let pairs = pairs(&body_boxes, &collider_boxes);
        let statics = |i: usize| Candidates { colliders: &self.colliders, indices: pairs.colliders_of(i) };

        for (i, body) in self.bodies.iter_mut().enumerate() {
            body.advance(&statics(i), &config);
        }

        let corrections = resolve_body_contacts(&mut self.bodies, &pairs.bodies, config.bounce_threshold);
        for (i, (body, correction)) in self.bodies.iter_mut().zip(corrections).enumerate() {
            // At most a radius per axis, so it stays inside the box the
            // broad phase gave the body, and swept against the statics.
            let r = body.radius();
            let clamp = |v: S| {
                if v > r {
                    r
                } else if v < -r {
                    -r
                } else {
                    v
                }
            };
            statics(i).move_until_stop(body, Vec2::new(clamp(correction.x), clamp(correction.y)));
        }

        for (i, body) in self.bodies.iter_mut().enumerate() {
            for collider in statics(i).iter() {
                if let Some(c) = contact(&body.circle, collider) {
                    body.translate(c.push_out());
                }
            }
            body.velocity = clamp_to_range(body.velocity);
        }
    }
}

/// Touching or overlapping bodies: mass-weighted impulses along the contact
/// normal (bouncing with the larger restitution when faster than the
/// threshold), in pair order, and the push-out each body needs, split by
/// inverse mass and summed over its contacts.
fn resolve_body_contacts<S: Scalar>(bodies: &mut [Body<S>], pairs: &[(u32, u32)], threshold: S) -> Vec<Vec2<S>> {
    let mut corrections = vec![Vec2::<S>::ZERO; bodies.len()];
    for &(i, j) in pairs {
        let (i, j) = (i as usize, j as usize);
        let (a, b) = (bodies[i], bodies[j]);
        let Some(contact) = contact_circle_circle(&a.circle, &b.circle) else { continue };
        let total = a.inverse_mass + b.inverse_mass;
        if total <= S::ZERO {
            continue;
        }
        let share_a = ratio(a.inverse_mass, total);
        let share_b = S::ONE - share_a;
        let n = contact.normal;
        let into = dot(a.velocity - b.velocity, n);
        if into < S::ZERO {
            let restitution = if a.restitution > b.restitution { a.restitution } else { b.restitution };
            let factor = if -into > threshold { S::ONE + restitution } else { S::ONE };
            let change = mul(factor, into);
            bodies[i].velocity = held_sum(bodies[i].velocity, scale(n, mul(change, share_a)), true);
            bodies[j].velocity = held_sum(bodies[j].velocity, scale(n, mul(change, share_b)), false);
        }
        corrections[i] = held_sum(corrections[i], scale(n, mul(contact.depth, share_a)), false);
        corrections[j] = held_sum(corrections[j], scale(n, mul(contact.depth, share_b)), true);
    }
    corrections
}

/// `sum + term` (or `sum − term` when `subtract`) with both, and the
/// result, held within `±2·MAX_COORD` per component: a body touching many others in one tick sums many impulses
/// and push-outs, which could pass a fixed-point type's limit (eight times
/// `MAX_COORD`) and overflow. Within that bound (every scene short of the
/// safe range's edge) nothing changes; beyond it the sum saturates, and the
/// velocity is clamped to `±MAX_COORD` and the correction to `±radius`
/// afterwards anyway.
fn held_sum<S: Scalar>(sum: Vec2<S>, term: Vec2<S>, subtract: bool) -> Vec2<S> {
    let bound = S::MAX_COORD + S::MAX_COORD;
    let hold = |v: S| {
        if v > bound {
            bound
        } else if v < -bound {
            -bound
        } else {
            v
        }
    };
    // Held first, the term can be negated without overflowing.
    let signed = |v: S| if subtract { -hold(v) } else { hold(v) };
    Vec2::new(hold(hold(sum.x) + signed(term.x)), hold(hold(sum.y) + signed(term.y)))
}
