//! Continuous motion against colliders: a body moves by what the solver
//! made of its tick, swept against every collider on its way, so that
//! nothing carries it into or through one, whatever its speed or size.
//!
//! The solver already stops a body at the colliders it expected to meet;
//! this is the guarantee behind it. At the first collider the body's path
//! meets (an exact swept query, on the relative motion for a moving one),
//! it stops; the rest of its path and its velocity lose their part into
//! the surface (it slides), and it goes on, a bounded number of times
//! ([`SLIDES`]), after which it stops at its next impact. A body resting
//! on a floor whose path pushes into it is stopped where it is: exactly
//! still.

use alloc::vec::Vec;

use super::aabb::{Aabb, body_reach};
use super::arith::{dot, hold_vec, in_range, mul, scale};
use super::events::{Event, EventKind};
use super::index::{Entry, Index};
use super::narrow::{contact_shape, sweep_shape};
use super::{Body, Collider, Id, Shape};
use crate::query::Sweep;
use crate::query::kernel::clamp_to_range;
use crate::scalar::Scalar;
use crate::vec2::Vec2;

/// How many times a body may hit a collider and slide on within one tick
/// before it stops at its next impact.
pub(super) const SLIDES: u8 = 4;

/// Where the colliders are during a tick.
pub(super) struct Colliders<'a, S> {
    pub(super) list: &'a [Collider<S>],
    /// Each one's travel this tick; empty once they have all arrived.
    pub(super) travels: &'a [Vec2<S>],
}

impl<S: Scalar> Colliders<'_, S> {
    /// Collider `c`'s travel this tick.
    pub(super) fn travel(&self, c: usize) -> Vec2<S> {
        self.travels.get(c).copied().unwrap_or(Vec2::ZERO)
    }

    /// Collider `c` at time `t` of the tick, and its travel from then to
    /// the end of the tick.
    fn at(&self, c: usize, t: S, remaining: S) -> (Shape<S>, Vec2<S>) {
        let collider = &self.list[c];
        let travel = self.travel(c);
        if travel == Vec2::ZERO {
            return (collider.shape, Vec2::ZERO);
        }
        // Between where it starts and where it ends, both in range.
        let shape = collider.shape.translated(scale(travel, t)).unwrap_or(collider.shape);
        (shape, scale(travel, remaining))
    }

    /// How far collider `c` moves from time `from` to time `to`.
    fn shift(&self, c: usize, from: S, to: S) -> Vec2<S> {
        let travel = self.travel(c);
        if travel == Vec2::ZERO { travel } else { scale(travel, to) - scale(travel, from) }
    }
}

/// The first stop of a body's motion during a part of the tick.
struct Stop<S> {
    /// The collider's index.
    collider: usize,
    /// The fraction of the part before it.
    t: S,
    normal: Vec2<S>,
    point: Vec2<S>,
    /// How far the body moves, relative to the collider, to the stop.
    travel: Vec2<S>,
}

/// A body touching a collider during its motion: where, along which
/// normal (from the collider towards the body).
#[derive(Clone, Copy, Debug)]
pub(super) struct Touch<S> {
    pub(super) collider: u32,
    pub(super) normal: Vec2<S>,
    pub(super) point: Vec2<S>,
    /// Whether it is a sensor overlap (either is a sensor).
    pub(super) sensor: bool,
}

/// What bodies record as they move.
pub(super) struct Record<'a, S> {
    /// Each body's touches, with the index of the body.
    pub(super) touches: &'a mut Vec<(u32, Touch<S>)>,
    pub(super) events: &'a mut Vec<Event<S>>,
}

/// The buffers of the motion, reused from tick to tick.
#[derive(Debug)]
pub(super) struct MotionScratch<S> {
    /// The candidates of a body that went beyond its box.
    extended: Vec<u32>,
    /// Sensors a body's path touches during a part of the tick, with when.
    sensed: Vec<(S, u32, Vec2<S>, Vec2<S>)>,
}

impl<S> Default for MotionScratch<S> {
    fn default() -> Self {
        Self { extended: Vec::new(), sensed: Vec::new() }
    }
}

/// Everything a body's motion through a tick needs to see.
pub(super) struct Motion<'a, S> {
    pub(super) colliders: Colliders<'a, S>,
    pub(super) index: &'a Index<S>,
    pub(super) bounce_threshold: S,
}

/// Whether the body and the collider interact at all.
pub(super) fn interact<S: Scalar>(body: &Body<S>, collider: &Collider<S>) -> bool {
    body.filter.matches(collider.filter) && !(body.sensor && collider.sensor)
}

impl<S: Scalar> Motion<'_, S> {
    /// The colliders body `i` may meet while its shape sweeps `reach`:
    /// those the broad phase paired it with, unless `reach` leaves the
    /// body's box (the solver or a moving collider sped it up), when the
    /// tree is asked.
    fn candidates<'b>(&'b self, i: usize, reach: &Aabb<S>, extended: &'b mut Vec<u32>) -> &'b [u32] {
        if self.index.body_box(i).contains(reach) {
            return self.index.colliders_of(i);
        }
        extended.clear();
        self.index.visit(
            |b| b.overlaps(reach),
            |b, e| {
                if let Entry::Collider(c) = e
                    && b.overlaps(reach)
                {
                    extended.push(c);
                }
            },
        );
        extended.sort_unstable();
        extended
    }

    /// Moves body `i` by `path` (its motion over the tick, from the
    /// solver), swept against the colliders: at each stop the rest of the
    /// path and the velocity lose their part into the surface, and it goes
    /// on with the rest of the tick, up to [`SLIDES`] times; then it goes
    /// only as far as its next stop. `expected(c)` tells whether the
    /// solver had a contact with collider `c` (and so reported any impact
    /// with it); an unexpected stop faster than the bounce threshold is
    /// reported here.
    pub(super) fn advance(
        &self,
        i: usize,
        body: &mut Body<S>,
        mut path: Vec2<S>,
        expected: impl Fn(u32) -> bool,
        scratch: &mut MotionScratch<S>,
        record: &mut Record<'_, S>,
    ) {
        let mut remaining = S::ONE;
        for slide in 0..=SLIDES {
            let elapsed = S::ONE - remaining;
            let motion = clamp_to_range(scale(path, remaining));
            let reach = body_reach(body, motion, body.solid().radius());
            let candidates = self.candidates(i, &reach, &mut scratch.extended);
            let stop = self.first_stop(i, body, motion, (elapsed, remaining), candidates, &mut scratch.sensed, record);
            let Some(stop) = stop else {
                body.translate(motion);
                return;
            };
            let collider = &self.colliders.list[stop.collider];
            remaining = mul(remaining, S::ONE - stop.t);
            let now = S::ONE - remaining;
            let shift = self.colliders.shift(stop.collider, elapsed, now);
            body.translate(stop.travel + shift);
            let travel = self.colliders.travel(stop.collider);
            let normal = stop.normal;
            record.touches.push((
                i as u32,
                Touch { collider: stop.collider as u32, normal, point: stop.point + shift, sensor: false },
            ));
            // The rest of the path slides along the surface.
            let into = dot(hold_vec(path - travel), normal);
            if into < S::ZERO {
                path = in_range(path - scale(normal, into));
            }
            // And so does the velocity, relative to the collider.
            let into = dot(hold_vec(body.velocity - travel), normal);
            if into < S::ZERO {
                body.velocity = in_range(body.velocity - scale(normal, into));
                let speed = -into;
                if speed > self.bounce_threshold && !expected(stop.collider as u32) {
                    let point = clamp_to_range(stop.point + shift);
                    let held = if speed > S::MAX_COORD { S::MAX_COORD } else { speed };
                    record.events.push(Event {
                        body: body.id(),
                        other: Id::Collider(collider.id()),
                        kind: EventKind::Impact { t: now, point, normal, speed: held },
                    });
                }
            }
            if slide == SLIDES {
                return;
            }
        }
    }

    /// The earliest stop of `body` moving by `motion` over the part of the
    /// tick from `elapsed` on (`remaining` of it), among `candidates`: a
    /// hit during the motion, or a contact it starts in and pushes into (at
    /// `t = 0`); ties go to the collider with the lowest id. Records the
    /// sensors the motion touches before the stop.
    #[allow(clippy::too_many_arguments)]
    fn first_stop(
        &self,
        i: usize,
        body: &Body<S>,
        motion: Vec2<S>,
        (elapsed, remaining): (S, S),
        candidates: &[u32],
        sensed: &mut Vec<(S, u32, Vec2<S>, Vec2<S>)>,
        record: &mut Record<'_, S>,
    ) -> Option<Stop<S>> {
        sensed.clear();
        let solid = body.solid();
        let mut first: Option<Stop<S>> = None;
        for &c in candidates {
            let c = c as usize;
            let collider = &self.colliders.list[c];
            if !interact(body, collider) {
                continue;
            }
            let (shape, travel) = self.colliders.at(c, elapsed, remaining);
            let sensing = body.sensor || collider.sensor;
            if motion == travel {
                // No relative motion: what touches now is the solver's, or
                // a sensor overlap.
                if sensing && let Some(contact) = contact_shape(&solid, &shape) {
                    sensed.push((S::ZERO, c as u32, contact.normal, contact.point));
                }
                continue;
            }
            let stop = match sweep_shape(&solid, motion - travel, &shape) {
                Sweep::Miss => continue,
                Sweep::InContact { contact, blocked } => {
                    if sensing {
                        sensed.push((S::ZERO, c as u32, contact.normal, contact.point));
                        continue;
                    }
                    if !blocked || !collider.blocks(body, contact.normal, contact.depth) {
                        continue;
                    }
                    Stop { collider: c, t: S::ZERO, normal: contact.normal, point: contact.point, travel: Vec2::ZERO }
                }
                Sweep::Hit(impact) => {
                    if sensing {
                        sensed.push((impact.t, c as u32, impact.normal, impact.point));
                        continue;
                    }
                    if !collider.blocks(body, impact.normal, S::ZERO) {
                        continue;
                    }
                    Stop {
                        collider: c,
                        t: impact.t,
                        normal: impact.normal,
                        point: impact.point,
                        travel: impact.travel_a,
                    }
                }
            };
            if first.as_ref().is_none_or(|f| stop.t < f.t) {
                first = Some(stop);
            }
        }
        let until = first.as_ref().map_or(S::ONE, |f| f.t);
        for &(t, c, normal, point) in sensed.iter() {
            if t <= until {
                record.touches.push((i as u32, Touch { collider: c, normal, point, sensor: true }));
            }
        }
        first
    }
}

impl<S: Scalar> Body<S> {
    /// Moves the body, keeping its core in the safe range.
    pub(super) fn translate(&mut self, offset: Vec2<S>) {
        if offset == Vec2::ZERO {
            return;
        }
        self.place(self.position() + offset);
    }
}
