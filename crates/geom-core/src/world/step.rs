//! [`World::step`]: one tick, stage by stage.
//!
//! 1. The colliders' travels for the tick, and each awake body's expected
//!    motion (its velocity and gravity, as the solver would move it alone).
//! 2. The broad phase (`index.rs`): the pairs whose boxes for the tick meet.
//! 3. Waking (`sleep.rs`): a sleeping island that an awake body or a moving
//!    collider meets this tick wakes, whole.
//! 4. The narrow phase (`narrow.rs`): the contacts of the tick, with their
//!    last impulses to start from.
//! 5. The solver (`solver.rs`): substeps, warm start, relax, restitution.
//! 6. Continuous motion (`motion.rs`): each body moves by what the solver
//!    made of its tick, swept against the colliders; then the platforms
//!    move.
//! 7. Bodies whose motion the narrow phase did not expect are checked
//!    against each other along their real paths: sensors report their
//!    overlaps, and a touch nobody predicted is still a contact.
//! 8. The contacts kept for the next tick, the events, and sleep.

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::aabb::{collider_box, rounding_margin, speculative_margin, tick_box};
use super::arith::{add_held, dot, geometric_mean, hold, hold_vec, in_range, manhattan, max, min, ratio, scale};
use super::contact::ContactState;
use super::events::{self, Event, EventKind};
use super::index::Index;
use super::motion::{Colliders, Motion, MotionScratch, Record, Touch, interact};
use super::narrow::{Memo, with_body, with_collider};
use super::sleep::{Islands, is_slow, wake_body};
use super::solver::{Constraint, Prepared, Settings, Solver};
use super::{Body, BodyId, Collider, Id, World};
use crate::query::kernel::clamp_to_range;
use crate::query::{Sweep, sweep_capsule_capsule, sweep_circle_circle};
use crate::scalar::Scalar;
use crate::vec2::Vec2;

impl<S: Scalar> Body<S> {
    /// The gravity this body feels, per tick per tick: the world's times its
    /// gravity scale, none for an immovable body.
    pub(super) fn gravity(&self, gravity: Vec2<S>) -> Vec2<S> {
        if self.inverse_mass <= S::ZERO {
            Vec2::ZERO
        } else if self.gravity_scale == S::ONE {
            gravity
        } else {
            clamp_to_range(scale(gravity, self.gravity_scale))
        }
    }

    /// Whether the body sleeps.
    pub(super) fn asleep(&self) -> bool {
        self.sleep.island.is_some()
    }
}

/// How far a collider moves this tick: its velocity, held so that its
/// core stays in the safe range (a platform stops at the range's edge).
pub(super) fn travel<S: Scalar>(collider: &Collider<S>) -> Vec2<S> {
    let v = collider.velocity;
    if v == Vec2::ZERO {
        return v;
    }
    let (low, high) = collider.shape.core_bounds();
    let hold = |v: S, low: S, high: S| {
        // Within ±2·MAX_COORD: no overflow.
        let (least, most) = (-S::MAX_COORD - low, S::MAX_COORD - high);
        if v < least {
            least
        } else if v > most {
            most
        } else {
            v
        }
    };
    Vec2::new(hold(v.x, low.x, high.x), hold(v.y, low.y, high.y))
}

/// Where a body goes over a tick with nothing in its way, moved as the
/// solver moves it (each substep its share of gravity, then its velocity's
/// share of the tick): its velocity at the end, and its motion.
fn free_flight<S: Scalar>(velocity: Vec2<S>, gravity_step: Vec2<S>, settings: &Settings<S>) -> (Vec2<S>, Vec2<S>) {
    let (mut v, mut moved) = (velocity, Vec2::ZERO);
    if settings.tame(velocity) && settings.tame(gravity_step) {
        // Within the fast lane's bounds no hold or saturation below can
        // act (the velocity grows to at most 256 times its bound): the
        // same bits from plain arithmetic.
        let (h, n) = (settings.h(), settings.substeps());
        let ((vx, x), (vy, y)) = (v.x.flight_wrap(gravity_step.x, h, n), v.y.flight_wrap(gravity_step.y, h, n));
        return (Vec2::new(vx, vy), Vec2::new(x, y));
    }
    for _ in 0..settings.substeps() {
        v = add_held(v, gravity_step);
        moved = add_held(moved, scale(v, settings.h()));
    }
    (v, moved)
}

/// Whether two bodies interact at all, and neither is a sensor.
fn solid_pair<S: Scalar>(a: &Body<S>, b: &Body<S>) -> bool {
    a.filter.matches(b.filter) && !a.sensor && !b.sensor
}

/// A pair of bodies the narrow phase gave no contact, to look at again
/// once they have moved: they can have touched only if they closed by
/// more than `margin`, and (when `swept`, their expected motions having
/// missed each other) only if one of them moved otherwise than expected.
#[derive(Clone, Copy, Debug)]
struct Watch<S> {
    i: u32,
    j: u32,
    margin: S,
    swept: bool,
    sensor: bool,
}

/// The buffers of a step, reused from tick to tick; never state.
#[derive(Debug)]
pub(super) struct Scratch<S> {
    /// Each collider's travel this tick.
    travels: Vec<Vec2<S>>,
    /// Each body's position at the start of the tick, its gravity's share
    /// of a substep, its expected motion, and its velocity at the end of
    /// that motion (what it keeps if it meets nothing).
    starts: Vec<Vec2<S>>,
    gravity: Vec<Vec2<S>>,
    expected: Vec<Vec2<S>>,
    flight: Vec<Vec2<S>>,
    solver: Solver<S>,
    /// For each contact of the solver: the body (or collider) indices and
    /// the point, in the order of `solver.pairs`, then `solver.fixed`.
    pair_meta: Vec<(u32, u32, Vec2<S>)>,
    fixed_meta: Vec<(u32, u32, Vec2<S>)>,
    watched: Vec<Watch<S>>,
    touches: Vec<(u32, Touch<S>)>,
    /// The contacts found this tick (with a rank: the solver's first), and
    /// the sensor overlaps.
    found: Vec<(ContactState<S>, u8)>,
    overlaps: Vec<(BodyId, Id)>,
    /// The pairs in contact before this tick, for the events.
    previous: Vec<(BodyId, Id)>,
    motion: MotionScratch<S>,
    /// The narrow phase's answers, for bodies that have not changed.
    memo: Memo<S>,
    /// The pairs of awake bodies in contact, and the islands they make.
    links: Vec<(u32, u32)>,
    islands: Islands,
    /// The buffer the contacts' index by second body is sorted through.
    keys: Vec<u64>,
    /// The events' sort keys, and the buffer they are sorted into.
    event_keys: Vec<(BodyId, Id, u8, u32)>,
    sorted_events: Vec<Event<S>>,
}

impl<S> Default for Scratch<S> {
    fn default() -> Self {
        Self {
            travels: Vec::new(),
            starts: Vec::new(),
            gravity: Vec::new(),
            expected: Vec::new(),
            flight: Vec::new(),
            solver: Solver::default(),
            pair_meta: Vec::new(),
            fixed_meta: Vec::new(),
            watched: Vec::new(),
            touches: Vec::new(),
            found: Vec::new(),
            overlaps: Vec::new(),
            previous: Vec::new(),
            motion: MotionScratch::default(),
            memo: Memo::default(),
            links: Vec::new(),
            islands: Islands::default(),
            keys: Vec::new(),
            event_keys: Vec::new(),
            sorted_events: Vec::new(),
        }
    }
}

/// Scratch is never copied: a copy starts with empty buffers, and a
/// restored world keeps its own.
impl<S> Clone for Scratch<S> {
    fn clone(&self) -> Self {
        Self::default()
    }

    fn clone_from(&mut self, _: &Self) {}
}

/// Looks up the impulses a pair ended the last tick with, for keys asked
/// in ascending order (each of the step's two lists of contacts is).
struct Warm<'a, S> {
    contacts: &'a [ContactState<S>],
    at: usize,
}

impl<S: Scalar> Warm<'_, S> {
    fn impulses(&mut self, key: (BodyId, Id)) -> (S, S) {
        while self.at < self.contacts.len() && self.contacts[self.at].key() < key {
            self.at += 1;
        }
        match self.contacts.get(self.at) {
            Some(c) if c.key() == key => (c.normal_impulse, c.tangent_impulse),
            _ => (S::ZERO, S::ZERO),
        }
    }
}

impl<S: Scalar> World<S> {
    /// Advances the world by one tick (see the [module documentation](crate::world)
    /// for what happens in it), replacing the [events](World::events) with
    /// the new tick's.
    ///
    /// Deterministic: the same world gives the same bits after the step, on
    /// every platform for fixed-point types and on every IEEE-754 platform
    /// for floats.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
    /// // A thin wall, and a bullet crossing 50 units a tick straight at it.
    /// world.add_collider(Segment::new(Vec2::new(10.0, -5.0), Vec2::new(10.0, 5.0))?)?;
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
        self.step_in(true);
    }

    /// [`World::step`], with the solver's fast lane allowed or not (the
    /// result is the same: the tests compare them).
    pub(super) fn step_in(&mut self, fast: bool) {
        // Saturating: 2^64 ticks are never reached by playing, only by a
        // loaded state, and then the count stops rather than overflows.
        self.tick = self.tick.saturating_add(1);
        self.events.clear();
        let moving = self.colliders.iter().any(|c| c.velocity != Vec2::ZERO);
        if !moving && self.bodies.iter().all(Body::asleep) {
            // Everything asleep and nothing moving: the tick changes
            // nothing but its count (the full step would find the same).
            return;
        }
        let config = self.config;
        let settings = Settings::new(&config, fast);
        let Self { bodies, colliders, index, scratch, events, contacts, pairs, by_second, overlaps, .. } = self;

        // 1. Travels and expected motions.
        scratch.travels.clear();
        scratch.travels.extend(colliders.iter().map(travel));
        scratch.starts.clear();
        scratch.gravity.clear();
        scratch.expected.clear();
        scratch.flight.clear();
        for body in bodies.iter() {
            let gravity_step = scale(body.gravity(config.gravity), settings.h());
            scratch.starts.push(body.position());
            scratch.gravity.push(gravity_step);
            let (flight, expected) = if body.asleep() {
                (Vec2::ZERO, Vec2::ZERO)
            } else {
                free_flight(body.velocity, gravity_step, &settings)
            };
            scratch.flight.push(flight);
            scratch.expected.push(expected);
        }

        // 2. The broad phase.
        let gravity_reach = manhattan(config.gravity);
        index.build(
            bodies
                .iter()
                .zip(&scratch.expected)
                .map(|(b, &m)| tick_box(b, m, speculative_margin(b, b) + gravity_reach)),
            colliders.iter().zip(&scratch.travels).map(|(c, &t)| collider_box(c, t)),
        );

        // 3. Waking.
        wake_touched(bodies, colliders, index, scratch, moving, &settings);

        // 4. The narrow phase.
        build_contacts(bodies, colliders, index, scratch, contacts);

        // 5. The solver.
        scratch.solver.solve(&settings);

        // 6. Continuous motion, then the platforms.
        scratch.touches.clear();
        {
            let motion = Motion {
                colliders: Colliders { list: colliders, travels: &scratch.travels },
                index,
                bounce_threshold: config.bounce_threshold,
            };
            let mut record = Record { touches: &mut scratch.touches, events };
            let fixed_meta = &scratch.fixed_meta;
            for (i, body) in bodies.iter_mut().enumerate() {
                if body.asleep() {
                    continue;
                }
                // A body without contacts flies as expected.
                let (velocity, path) = scratch.solver.outcome(i).unwrap_or((scratch.flight[i], scratch.expected[i]));
                body.velocity = in_range(velocity);
                let expected = |c: u32| fixed_meta.binary_search_by_key(&(i as u32, c), |&(b, c, _)| (b, c)).is_ok();
                motion.advance(i, body, path, expected, &mut scratch.motion, &mut record);
            }
        }
        if scratch.travels.iter().any(|&t| t != Vec2::ZERO) {
            for (collider, &t) in Arc::make_mut(colliders).iter_mut().zip(&scratch.travels) {
                if t != Vec2::ZERO {
                    collider.shape = collider.shape.translated(t).unwrap_or(collider.shape);
                }
            }
        }

        // 7. What the narrow phase did not expect.
        check_watched(bodies, scratch);

        // 8. Contacts, events and sleep.
        keep_contacts(bodies, colliders, scratch, contacts, overlaps, config.bounce_threshold, events);
        scratch.previous.clear();
        scratch.previous.append(pairs);
        super::contact::list(contacts, pairs, by_second, &mut scratch.keys);
        events::diff(&scratch.previous, pairs, events, (EventKind::ContactBegan, EventKind::ContactEnded));
        events::diff(overlaps, &scratch.overlaps, events, (EventKind::SensorBegan, EventKind::SensorEnded));
        core::mem::swap(overlaps, &mut scratch.overlaps);
        scratch.overlaps.clear();
        settle(bodies, scratch, contacts, &config);
        events::sort(events, &mut scratch.event_keys, &mut scratch.sorted_events);
        index.hold_final(bodies);
        if self.colliders_hash.is_none() || moving {
            self.colliders_hash = Some(self.hash_colliders());
        }
    }
}

/// Wakes every sleeping island an awake body or a moving collider meets
/// this tick (as the narrow phase would find it), until none is left to
/// wake; then gives the woken bodies their expected motions.
fn wake_touched<S: Scalar>(
    bodies: &mut [Body<S>],
    colliders: &[Collider<S>],
    index: &Index<S>,
    scratch: &mut Scratch<S>,
    moving: bool,
    settings: &Settings<S>,
) {
    if bodies.iter().all(|b| !b.asleep()) {
        return;
    }
    loop {
        let mut woke = false;
        for &(i, j) in &index.bodies {
            let (i, j) = (i as usize, j as usize);
            let (a, b) = (&bodies[i], &bodies[j]);
            if a.asleep() == b.asleep() || !solid_pair(a, b) {
                continue;
            }
            if with_body(a, b, scratch.expected[i], scratch.expected[j]).is_some() {
                woke |= wake_body(bodies, if a.asleep() { i } else { j });
            }
        }
        if moving {
            for i in 0..bodies.len() {
                let body = &bodies[i];
                if !body.asleep() || body.sensor {
                    continue;
                }
                let solid = body.solid();
                let meets = index.colliders_of(i).iter().any(|&c| {
                    let (collider, travel) = (&colliders[c as usize], scratch.travels[c as usize]);
                    travel != Vec2::ZERO
                        && interact(body, collider)
                        && !collider.sensor
                        && with_collider(&solid, &collider.shape, -travel, S::ZERO).is_some()
                });
                if meets {
                    woke |= wake_body(bodies, i);
                }
            }
        }
        if !woke {
            break;
        }
    }
    for (i, body) in bodies.iter().enumerate() {
        if !body.asleep() && scratch.expected[i] == Vec2::ZERO && body.velocity == Vec2::ZERO {
            (scratch.flight[i], scratch.expected[i]) = free_flight(Vec2::ZERO, scratch.gravity[i], settings);
        }
    }
}

/// The solver's bodies and contacts for the tick (warm-started from
/// `contacts`, last tick's), and the pairs to look at again after the
/// motion.
fn build_contacts<S: Scalar>(
    bodies: &[Body<S>],
    colliders: &[Collider<S>],
    index: &Index<S>,
    scratch: &mut Scratch<S>,
    contacts: &[ContactState<S>],
) {
    let Scratch { solver, pair_meta, fixed_meta, watched, gravity, memo, .. } = scratch;
    solver.clear(bodies.len());
    pair_meta.clear();
    fixed_meta.clear();
    watched.clear();
    // A pair's effective mass, held within the safe range.
    let mass = |w: S| min(ratio(S::ONE, w), S::MAX_COORD);

    let mut warm = Warm { contacts, at: 0 };
    for (i, body) in bodies.iter().enumerate() {
        if body.asleep() || body.sensor || body.inverse_mass <= S::ZERO {
            continue;
        }
        let solid = body.solid();
        let margin = rounding_margin(body);
        let margin = margin + margin;
        for &c in index.colliders_of(i) {
            let collider = &colliders[c as usize];
            if !interact(body, collider) || collider.sensor {
                continue;
            }
            let travel = scratch.travels[c as usize];
            let motion = hold_vec(scratch.expected[i] - travel);
            let Some(g) = with_collider(&solid, &collider.shape, motion, margin) else {
                continue;
            };
            if !collider.blocks(body, g.normal, -g.separation) {
                continue;
            }
            let (normal_impulse, tangent_impulse) = warm.impulses((body.id(), Id::Collider(collider.id())));
            let a = solver.slot(i, bodies, gravity);
            solver.fixed.push(Constraint {
                a,
                b: c,
                normal: g.normal,
                push_a: scale(g.normal, body.inverse_mass),
                push_b: Vec2::ZERO,
                separation: g.separation,
                gap: g.separation,
                mass: mass(body.inverse_mass),
                prepared: Prepared::default(),
                other: travel,
                closing: dot(travel, g.normal),
                friction: geometric_mean(body.friction, collider.friction),
                restitution: max(body.restitution, collider.restitution),
                approach: dot(hold_vec(body.velocity - travel), g.normal),
                normal_impulse,
                tangent_impulse,
                total: S::ZERO,
            });
            fixed_meta.push((i as u32, c, g.point));
        }
    }

    let mut warm = Warm { contacts, at: 0 };
    memo.begin(bodies);
    for &(i, j) in &index.bodies {
        let (a, b) = (&bodies[i as usize], &bodies[j as usize]);
        if a.asleep() || b.asleep() || !a.filter.matches(b.filter) || (a.sensor && b.sensor) {
            continue;
        }
        let (ei, ej) = (scratch.expected[i as usize], scratch.expected[j as usize]);
        let margin = speculative_margin(a, b);
        let total = hold(a.inverse_mass + b.inverse_mass);
        if a.sensor || b.sensor || total <= S::ZERO {
            // No contact to solve: only whether they touch.
            watched.push(Watch { i, j, margin: S::ZERO, swept: false, sensor: a.sensor || b.sensor });
            continue;
        }
        let Some(g) = memo.with_body((i, j), (a, b), ei, ej) else {
            watched.push(Watch { i, j, margin, swept: manhattan(ei - ej) > margin, sensor: false });
            continue;
        };
        let (normal_impulse, tangent_impulse) = warm.impulses((a.id(), Id::Body(b.id())));
        let (sa, sb) = (solver.slot(i as usize, bodies, gravity), solver.slot(j as usize, bodies, gravity));
        let push_a = scale(g.normal, a.inverse_mass);
        // Equal masses (most of a pile's pairs): the same product.
        let same_mass = a.inverse_mass.hash_bits() == b.inverse_mass.hash_bits();
        solver.pairs.push(Constraint {
            a: sa,
            b: sb,
            normal: g.normal,
            push_a,
            push_b: if same_mass { push_a } else { scale(g.normal, b.inverse_mass) },
            separation: g.separation,
            gap: g.separation,
            mass: mass(total),
            prepared: Prepared::default(),
            other: Vec2::ZERO,
            closing: S::ZERO,
            friction: geometric_mean(a.friction, b.friction),
            restitution: max(a.restitution, b.restitution),
            approach: dot(hold_vec(a.velocity - b.velocity), g.normal),
            normal_impulse,
            tangent_impulse,
            total: S::ZERO,
        });
        pair_meta.push((i, j, g.point));
    }
}

/// How far body `i` moved this tick.
fn moved<S: Scalar>(bodies: &[Body<S>], scratch: &Scratch<S>, i: usize) -> Vec2<S> {
    hold_vec(bodies[i].position() - scratch.starts[i])
}

/// The pairs of bodies the narrow phase gave no contact, along their real
/// paths: a sensor overlap, or a touch nobody predicted (a contact).
fn check_watched<S: Scalar>(bodies: &[Body<S>], scratch: &mut Scratch<S>) {
    for k in 0..scratch.watched.len() {
        let Watch { i, j, margin, swept, sensor } = scratch.watched[k];
        let (i, j) = (i as usize, j as usize);
        let (mi, mj) = (moved(bodies, scratch, i), moved(bodies, scratch, j));
        if !sensor {
            if manhattan(mi - mj) <= margin {
                continue;
            }
            if swept && mi == scratch.expected[i] && mj == scratch.expected[j] {
                continue;
            }
        }
        let (a, b) = (&bodies[i], &bodies[j]);
        let (start_a, start_b) = (a.capsule_at(scratch.starts[i]), b.capsule_at(scratch.starts[j]));
        let sweep = if a.is_capsule() || b.is_capsule() {
            sweep_capsule_capsule(&start_a, mi, &start_b, mj)
        } else {
            let circle =
                |c: &crate::shape::Capsule<S>| crate::shape::Circle::new_unchecked(c.segment().start(), c.radius());
            sweep_circle_circle(&circle(&start_a), mi, &circle(&start_b), mj)
        };
        let (normal, point) = match sweep {
            Sweep::Miss => continue,
            Sweep::InContact { contact, .. } => (contact.normal, contact.point),
            Sweep::Hit(hit) => (hit.normal, hit.point),
        };
        let (body, other) = (a.id(), Id::Body(b.id()));
        if sensor {
            scratch.overlaps.push((body, other));
        } else {
            let state = ContactState {
                body,
                other,
                normal,
                point: clamp_to_range(point),
                separation: S::ZERO,
                normal_impulse: S::ZERO,
                tangent_impulse: S::ZERO,
                impulse: S::ZERO,
            };
            scratch.found.push((state, 1));
        }
    }
}

/// The contacts and sensor overlaps to keep for the next tick: the
/// solver's contacts that pushed or end touching, the colliders the
/// motion stopped at or sensed, what `check_watched` found, and what
/// sleeping bodies kept; and the impacts of the tick.
fn keep_contacts<S: Scalar>(
    bodies: &[Body<S>],
    colliders: &[Collider<S>],
    scratch: &mut Scratch<S>,
    contacts: &mut Vec<ContactState<S>>,
    overlaps: &[(BodyId, Id)],
    threshold: S,
    events: &mut Vec<Event<S>>,
) {
    // Touching at the start, pushing during the tick, or touching at its end.
    let keep = |c: &Constraint<S>, gap: S| c.separation <= S::ZERO || c.total > S::ZERO || gap <= S::ZERO;
    let impact = |c: &Constraint<S>, point: Vec2<S>| {
        let speed = -c.approach;
        if !(speed > threshold && c.total > S::ZERO) {
            return None;
        }
        let t = if c.separation > S::ZERO { min(ratio(c.separation, speed), S::ONE) } else { S::ZERO };
        let held = if speed > S::MAX_COORD { S::MAX_COORD } else { speed };
        Some(EventKind::Impact { t, point: clamp_to_range(point), normal: c.normal, speed: held })
    };
    // The runs of `found`, each in key order: what `check_watched` found
    // (in pair order), the solver's contacts between bodies (in pair
    // order) and with colliders (by body and collider), the motion's
    // touches (sorted below) and what sleeping bodies kept.
    let mut ends = [0; 5];
    ends[0] = scratch.found.len();
    for (c, &(i, j, point)) in scratch.solver.pairs.iter().zip(&scratch.pair_meta) {
        let (i, j) = (i as usize, j as usize);
        let gap =
            hold(c.separation + hold(dot(hold_vec(moved(bodies, scratch, i) - moved(bodies, scratch, j)), c.normal)));
        let (body, other) = (bodies[i].id(), Id::Body(bodies[j].id()));
        if keep(c, gap) {
            // The point on the other's surface, carried to where it ends.
            let end = add_held(point, moved(bodies, scratch, j));
            scratch.found.push((state(body, other, c, end, gap), 0));
        }
        if let Some(kind) = impact(c, point) {
            events.push(Event { body, other, kind });
        }
    }
    ends[1] = scratch.found.len();
    for (c, &(i, k, point)) in scratch.solver.fixed.iter().zip(&scratch.fixed_meta) {
        let i = i as usize;
        let travel = scratch.travels[k as usize];
        let gap = hold(c.separation + hold(dot(hold_vec(moved(bodies, scratch, i) - travel), c.normal)));
        let (body, other) = (bodies[i].id(), Id::Collider(colliders[k as usize].id()));
        if keep(c, gap) {
            scratch.found.push((state(body, other, c, add_held(point, travel), gap), 0));
        }
        if let Some(kind) = impact(c, point) {
            events.push(Event { body, other, kind });
        }
    }
    ends[2] = scratch.found.len();
    push_touches(&scratch.touches, bodies, colliders, &mut scratch.found, &mut scratch.overlaps);
    ends[3] = scratch.found.len();
    // What sleeping bodies keep: their contacts and overlaps with colliders
    // and with each other (none when every body is awake: then the search
    // of each contact's bodies is skipped).
    if bodies.iter().any(Body::asleep) {
        let asleep = |id: BodyId| bodies.binary_search_by_key(&id, Body::id).is_ok_and(|k| bodies[k].asleep());
        let kept = |(body, other): (BodyId, Id)| asleep(body) && other.body().is_none_or(asleep);
        scratch.found.extend(contacts.iter().filter(|c| kept(c.key())).map(|&c| (c, 0)));
        scratch.overlaps.extend(overlaps.iter().copied().filter(|&pair| kept(pair)));
    }

    ends[4] = scratch.found.len();
    merge_runs(&scratch.found, &ends, contacts);
    scratch.found.clear();
    scratch.overlaps.sort_unstable();
    scratch.overlaps.dedup();
}

/// The motion's touches as contacts (in key order, after what `found`
/// holds) and sensor overlaps. A body that touches one collider again
/// later in the tick keeps the latest touch: walked backwards, then sorted
/// stably, the latest comes first of its key, and `merge_runs` keeps the
/// first. (An unstable sort leaves equal keys in an order that may differ
/// between targets: i686 kept another touch than x86-64.)
fn push_touches<S: Scalar>(
    touches: &[(u32, Touch<S>)],
    bodies: &[Body<S>],
    colliders: &[Collider<S>],
    found: &mut Vec<(ContactState<S>, u8)>,
    overlaps: &mut Vec<(BodyId, Id)>,
) {
    let start = found.len();
    for &(i, touch) in touches.iter().rev() {
        let (body, other) = (bodies[i as usize].id(), Id::Collider(colliders[touch.collider as usize].id()));
        if touch.sensor {
            overlaps.push((body, other));
        } else {
            let state = ContactState {
                body,
                other,
                normal: touch.normal,
                point: clamp_to_range(touch.point),
                separation: S::ZERO,
                normal_impulse: S::ZERO,
                tangent_impulse: S::ZERO,
                impulse: S::ZERO,
            };
            found.push((state, 1));
        }
    }
    found[start..].sort_by_key(|&(c, _)| c.key());
}

/// Merges the runs of `found` that end at `ends`, each sorted by key, into
/// `contacts` in key order, one contact per key: of equal keys the one of
/// lowest rank (the solver's), then of the earliest run.
fn merge_runs<S: Scalar, const N: usize>(
    found: &[(ContactState<S>, u8)],
    ends: &[usize; N],
    contacts: &mut Vec<ContactState<S>>,
) {
    let mut heads = [0; N];
    heads[1..].copy_from_slice(&ends[..N - 1]);
    for r in 0..N {
        debug_assert!(found[heads[r]..ends[r]].is_sorted_by_key(|(c, _)| c.key()), "run {r} out of order");
    }
    contacts.clear();
    loop {
        let mut best: Option<(usize, &(ContactState<S>, u8))> = None;
        for r in 0..N {
            if let Some(head) = found[heads[r]..ends[r]].first() {
                let order = |(c, rank): &(ContactState<S>, u8)| (c.key(), *rank);
                if best.is_none_or(|(_, b)| order(head) < order(b)) {
                    best = Some((r, head));
                }
            }
        }
        let Some((r, &(c, _))) = best else {
            return;
        };
        heads[r] += 1;
        if contacts.last().is_none_or(|last| last.key() != c.key()) {
            contacts.push(c);
        }
    }
}

/// The contact a constraint leaves for the next tick, every value held
/// within the safe range as everything the world keeps.
fn state<S: Scalar>(body: BodyId, other: Id, c: &Constraint<S>, point: Vec2<S>, gap: S) -> ContactState<S> {
    let held = |v: S| {
        if v > S::MAX_COORD {
            S::MAX_COORD
        } else if v < -S::MAX_COORD {
            -S::MAX_COORD
        } else {
            v
        }
    };
    ContactState {
        body,
        other,
        normal: c.normal,
        point: clamp_to_range(point),
        separation: held(gap),
        normal_impulse: held(c.normal_impulse),
        tangent_impulse: held(c.tangent_impulse),
        impulse: held(c.total),
    }
}

/// Counts each awake body's slow ticks and puts to sleep the islands that
/// have been slow long enough.
fn settle<S: Scalar>(
    bodies: &mut [Body<S>],
    scratch: &mut Scratch<S>,
    contacts: &[ContactState<S>],
    config: &super::WorldConfig<S>,
) {
    if config.sleep_ticks == 0 {
        return;
    }
    for i in 0..bodies.len() {
        if bodies[i].asleep() {
            continue;
        }
        let slow = is_slow(bodies[i].velocity, moved(bodies, scratch, i), config.sleep_threshold);
        let body = &mut bodies[i];
        body.sleep.still = if slow { body.sleep.still.saturating_add(1) } else { 0 };
    }
    // Islands join the pairs the solver held together (touching or within
    // their margin: a pair that would wake a sleeping body), and those
    // that touched along their paths.
    scratch.links.clear();
    scratch.links.extend(scratch.pair_meta.iter().map(|&(i, j, _)| (i, j)));
    let index_of = |id: BodyId| bodies.binary_search_by_key(&id, Body::id).ok();
    scratch.links.extend(contacts.iter().filter_map(|c| {
        let (i, j) = (index_of(c.body)?, index_of(c.other.body()?)?);
        (!bodies[i].asleep() && !bodies[j].asleep()).then_some((i as u32, j as u32))
    }));
    scratch.islands.settle(bodies, scratch.links.iter().copied(), config);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{BodyDef, ColliderDef, WorldConfig};
    use crate::{Capsule, Segment};

    /// A jar of balls and capsules of mixed mass, friction and bounce
    /// dropped in among platforms (one moving), a bullet, and a heavy ball
    /// on a light one: every kind of contact the solver has.
    fn busy_world<S: Scalar>() -> World<S> {
        busy_world_with(WorldConfig::new(Vec2::from_f64(0.0, -0.02)))
    }

    /// The scene of [`busy_world`] in a world of `config`.
    fn busy_world_with<S: Scalar>(config: WorldConfig<S>) -> World<S> {
        let v = Vec2::<S>::from_f64;
        let mut w = World::new(config).unwrap();
        for (a, b) in [((-12.0, 0.0), (12.0, 0.0)), ((-12.0, 0.0), (-12.0, 40.0)), ((12.0, 0.0), (12.0, 40.0))] {
            let mut def = ColliderDef::new(Segment::new(v(a.0, a.1), v(b.0, b.1)).unwrap());
            def.friction = S::from_f64(0.3);
            w.add_collider(def).unwrap();
        }
        let mut lift = ColliderDef::new(Capsule::new(v(-10.0, 6.0), v(-4.0, 6.0), S::from_f64(0.25)).unwrap());
        lift.velocity = v(0.0, 0.01);
        w.add_collider(lift).unwrap();
        let mut rng = crate::SplitMix(0x5017);
        let mut unit = || (rng.next() >> 11) as f64 / (1_u64 << 53) as f64;
        for k in 0..150 {
            let x = -10.0 + (k % 10) as f64 * 2.1 + unit() * 0.2;
            let y = 3.0 + (k / 10) as f64 * 2.2;
            let r = 0.4 + unit() * 0.5;
            let mut def = if k % 5 == 0 {
                BodyDef::capsule(v(x, y), v(-0.3, 0.0), v(0.3, 0.0), S::from_f64(r * 0.6))
            } else {
                BodyDef::new(v(x, y), S::from_f64(r))
            };
            def.inverse_mass = S::from_f64([1.0, 0.5, 2.0, 0.125][k % 4]);
            def.friction = S::from_f64([0.0, 0.4, 0.8][k % 3]);
            def.restitution = S::from_f64([0.0, 0.3, 0.9][k % 3]);
            def.velocity = v(unit() - 0.5, -unit());
            w.add_body(def).unwrap();
        }
        let mut bullet = BodyDef::new(v(-11.0, 30.0), S::from_f64(0.1));
        bullet.velocity = v(4.0, -1.0);
        w.add_body(bullet).unwrap();
        w
    }

    /// The solver's fast lane changes no bit: stepped with it and without
    /// it, a busy world has the same checksum every tick (and the fast lane
    /// does serve it: a tame world).
    fn the_fast_lane_gives_the_checked_lanes_bits<S: Scalar>() -> usize {
        let (mut fast, mut checked) = (busy_world::<S>(), busy_world::<S>());
        let mut served = 0;
        for tick in 0..400 {
            fast.step_in(true);
            served += usize::from(fast.scratch.solver.fast);
            checked.step_in(false);
            assert!(!checked.scratch.solver.fast);
            assert_eq!(fast.checksum(), checked.checksum(), "tick {tick}");
        }
        served
    }

    /// The narrow phase's memo changes no bit: a busy world with sleeping
    /// off stepped as it is, and a copy of it made afresh before every tick
    /// (a copy starts with no memo), have the same checksum every tick,
    /// through edits that move, resize and remove bodies (a removal shifts
    /// the indices the memo is kept by). Returns how many answers the memo
    /// gave again (the bodies at rest).
    fn the_memo_gives_the_bits_of_asking_again<S: Scalar>() -> usize {
        let mut config = WorldConfig::new(Vec2::from_f64(0.0, -0.02));
        config.sleep_ticks = 0;
        let mut kept = busy_world_with::<S>(config);
        // Beside it, a square-grid pile that comes to rest exactly.
        let v = Vec2::<S>::from_f64;
        for (a, b) in [((20.0, 0.0), (40.0, 0.0)), ((20.0, 0.0), (20.0, 20.0)), ((40.0, 0.0), (40.0, 20.0))] {
            kept.add_collider(Segment::new(v(a.0, a.1), v(b.0, b.1)).unwrap()).unwrap();
        }
        for k in 0..60 {
            let (row, col) = ((k / 10) as f64, (k % 10) as f64);
            kept.add_body(BodyDef::new(v(21.0 + 2.0 * col, 1.0 + 2.0 * row), S::ONE)).unwrap();
        }
        let mut fresh = kept.clone();
        let mut recalled = 0;
        for tick in 0..500 {
            if tick % 100 == 50 {
                let ids: Vec<BodyId> = kept.bodies().iter().map(Body::id).collect();
                let pick = |k: usize| ids[(tick * k) % ids.len()];
                let (moved, resized, removed) = (pick(1), pick(3), pick(7));
                let p = kept.body(moved).unwrap().position();
                let nudge = Vec2::new(p.x + S::TIME_STEP, p.y);
                let mut grown = kept.body(resized).unwrap().def();
                grown.radius += S::TIME_STEP;
                for w in [&mut kept, &mut fresh] {
                    w.set_position(moved, nudge).unwrap();
                    w.set_body(resized, grown).unwrap();
                    w.remove_body(removed).unwrap();
                }
            }
            kept.step();
            recalled += kept.scratch.memo.recalled;
            fresh = fresh.clone();
            fresh.step();
            assert_eq!(fresh.scratch.memo.recalled, 0);
            assert_eq!(kept.checksum(), fresh.checksum(), "tick {tick}");
        }
        recalled
    }

    #[test]
    fn the_memo_gives_the_bits_of_asking_again_in_every_type() {
        let counts = [
            the_memo_gives_the_bits_of_asking_again::<f32>(),
            the_memo_gives_the_bits_of_asking_again::<f64>(),
            the_memo_gives_the_bits_of_asking_again::<fixed::types::I16F16>(),
            the_memo_gives_the_bits_of_asking_again::<fixed::types::I32F32>(),
            the_memo_gives_the_bits_of_asking_again::<fixed::types::I48F16>(),
        ];
        assert!(counts.iter().all(|&n| n > 10_000), "{counts:?}");
    }

    /// A tick that starts within the fast lane's bounds and leaves them
    /// midway (a ball at 4095.99 units a tick in `I32F32`, whose bound is
    /// 4096, gaining gravity as it lands on another) is solved again in the
    /// checked lane: the same bits as solving it checked.
    #[test]
    fn a_tick_that_leaves_the_fast_lanes_bounds_is_solved_again_checked() {
        use fixed::types::I32F32;
        let v = Vec2::<I32F32>::from_f64;
        let make = || {
            let mut w = World::new(WorldConfig::new(v(0.0, -0.5))).unwrap();
            w.add_collider(Segment::new(v(-50.0, 0.0), v(50.0, 0.0)).unwrap()).unwrap();
            w.add_body(BodyDef::new(v(0.0, 1.0), I32F32::ONE)).unwrap();
            let mut fast = BodyDef::new(v(0.0, 4000.0), I32F32::ONE);
            fast.velocity = v(0.0, -4095.99);
            w.add_body(fast).unwrap();
            w
        };
        let (mut fast, mut checked) = (make(), make());
        fast.step_in(true);
        checked.step_in(false);
        assert!(!fast.scratch.solver.fast, "the fast lane gave the tick up");
        assert_eq!(fast.checksum(), checked.checksum());
    }

    /// Regression: a loaded state at tick `u64::MAX` (its checksum
    /// recomputed by whoever edited it) made the next step overflow the tick
    /// count. The count stops at its maximum; the bodies still move.
    #[test]
    fn stepping_at_the_last_tick_holds_the_count_and_moves_on() {
        let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, -0.5))).unwrap();
        let ball = world.add_body(BodyDef::new(Vec2::new(0.0, 10.0), 0.5)).unwrap();
        world.tick = u64::MAX;
        world.step();
        assert_eq!(world.tick(), u64::MAX);
        assert!(world.body(ball).unwrap().position().y < 10.0);
    }

    #[test]
    fn the_fast_lane_gives_the_checked_lanes_bits_in_every_type() {
        // Every tick tame but where a kept value leaves the bounds, and
        // I16F16's bounds (1/16 of a unit a tick) too small for this scene.
        assert!(the_fast_lane_gives_the_checked_lanes_bits::<f32>() > 390);
        assert!(the_fast_lane_gives_the_checked_lanes_bits::<f64>() > 390);
        assert!(the_fast_lane_gives_the_checked_lanes_bits::<fixed::types::I32F32>() > 390);
        assert!(the_fast_lane_gives_the_checked_lanes_bits::<fixed::types::I48F16>() > 390);
        assert_eq!(the_fast_lane_gives_the_checked_lanes_bits::<fixed::types::I16F16>(), 0);
    }

    /// A body that touches one collider several times in a tick (sliding
    /// along it, then meeting its end) keeps the latest touch as its
    /// contact, however many touches there are: a rule of the world's own,
    /// not the order an unstable sort leaves equal keys in (which differed
    /// between x86-64 and i686 and gave another checksum).
    #[test]
    fn of_several_touches_of_one_collider_the_latest_is_the_contact() {
        let v = Vec2::<f64>::from_f64;
        let mut world = World::new(WorldConfig::new(v(0.0, 0.0))).unwrap();
        for x in [-10.0, 10.0] {
            world.add_collider(Segment::new(v(x, 0.0), v(x, 5.0)).unwrap()).unwrap();
            world.add_body(BodyDef::new(v(x + 1.0, 1.0), 1.0)).unwrap();
        }
        // Touches of both bodies, interleaved, each with the other wall
        // once; enough of them that no sort takes the insertion-sort path.
        let mut touches = Vec::new();
        for k in 0..48_u32 {
            let (body, collider) = (k % 2, if k % 23 == 0 { 1 - k % 2 } else { k % 2 });
            let normal = Vec2::new(1.0, f64::from(k));
            touches.push((body, Touch { collider, normal, point: v(0.0, f64::from(k)), sensor: false }));
        }
        let (mut found, mut overlaps) = (Vec::new(), Vec::new());
        push_touches(&touches, world.bodies(), world.colliders(), &mut found, &mut overlaps);
        let mut contacts = Vec::new();
        merge_runs(&found, &[found.len()], &mut contacts);
        let latest = |body: u32, collider: u32| {
            let (_, touch) = touches.iter().rev().find(|(b, t)| *b == body && t.collider == collider).unwrap();
            touch.normal
        };
        let normals: Vec<_> = contacts.iter().map(|c| c.normal).collect();
        assert_eq!(normals, [latest(0, 0), latest(0, 1), latest(1, 0), latest(1, 1)]);
        assert!(overlaps.is_empty());
    }
}
