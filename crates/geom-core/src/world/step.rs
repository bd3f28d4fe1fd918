//! [`World::step`]: one tick of motion, collision response and events.

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::events::{self, Event, EventKind};
use super::index::{Aabb, Entry, Index, body_box, body_reach, collider_box};
use super::{Body, BodyId, Collider, Id, Shape, World, WorldConfig};
use crate::query::kernel::Narrow;
use crate::query::kernel::{clamp_to_range, scale};
use crate::query::{
    Contact, Sweep, contact_capsule_capsule, contact_circle_capsule, contact_circle_circle, contact_circle_segment,
    sweep_capsule_capsule, sweep_circle_capsule, sweep_circle_circle, sweep_circle_segment,
};
use crate::scalar::{Exact, Scalar};
use crate::vec2::Vec2;

/// `a·b`, rounded once to nearest (saturating).
fn mul<S: Scalar>(a: S, b: S) -> S {
    // (deg 1 · deg 1) / deg 1 = deg 1
    S::from_ratio(a.to_exact() * b.to_exact(), S::EXACT_ONE)
}

/// `a·b` for vectors, rounded once to nearest (saturating).
fn dot<S: Scalar>(a: Vec2<S>, b: Vec2<S>) -> S {
    S::from_ratio(a.to_exact().dot(b.to_exact()), S::EXACT_ONE)
}

/// `a / b` for `b > 0`, rounded once to nearest (saturating).
fn ratio<S: Scalar>(a: S, b: S) -> S {
    S::from_ratio(a.to_exact() * S::EXACT_ONE, b.to_exact())
}

/// `√(a·b)` for `a, b ≥ 0`, the exact value rounded once: the friction of
/// a contact.
fn geometric_mean<S: Scalar>(a: S, b: S) -> S {
    if a <= S::ZERO || b <= S::ZERO {
        // Frictionless, the default: no square root to take.
        return S::ZERO;
    }
    // (deg 1 · deg 1) / deg 0 = deg 2 under the root.
    S::from_sqrt_ratio(a.to_exact() * b.to_exact(), <S::Exact as crate::scalar::Exact>::ONE)
}

/// The size of a value (within the safe range: `-MIN` overflows a
/// fixed-point type).
pub(super) fn abs<S: Scalar>(v: S) -> S {
    if v < S::ZERO { -v } else { v }
}

/// The larger of two values.
fn max<S: Scalar>(a: S, b: S) -> S {
    if b > a { b } else { a }
}

/// An impact as an event reports it, held within the safe range as every
/// number the world hands out: its point (a body at the range's edge
/// touches beyond it by up to a radius) and its speed (two things there
/// can approach faster than `MAX_COORD`).
fn impact<S: Scalar>(t: S, point: Vec2<S>, normal: Vec2<S>, approach: S) -> EventKind<S> {
    let speed = if approach > S::MAX_COORD { S::MAX_COORD } else { approach };
    EventKind::Impact { t, point: clamp_to_range(point), normal, speed }
}

/// `v·k`, each component rounded once and held within the safe range.
fn scale_held<S: Scalar>(v: Vec2<S>, k: S) -> Vec2<S> {
    clamp_to_range(scale(v, k))
}

impl<S: Scalar> Body<S> {
    /// The gravity this body feels, per tick per tick: the world's times its
    /// gravity scale, none for an immovable body.
    fn gravity(&self, gravity: Vec2<S>) -> Vec2<S> {
        if self.inverse_mass <= S::ZERO {
            Vec2::ZERO
        } else if self.gravity_scale == S::ONE {
            gravity
        } else {
            scale_held(gravity, self.gravity_scale)
        }
    }
}

/// Half, exactly, in every type.
fn half<S: Scalar>() -> S {
    S::from_dyadic::<1>(1)
}

/// What a contact's surface is made of, for the response: the other's
/// velocity (units per tick), and the combined restitution and friction.
#[derive(Clone, Copy, Debug)]
struct Surface<S> {
    velocity: Vec2<S>,
    restitution: S,
    friction: S,
}

impl<S: Scalar> Surface<S> {
    fn of(body: &Body<S>, collider: &Collider<S>, travel: Vec2<S>) -> Self {
        Self {
            velocity: travel,
            restitution: max(body.restitution, collider.restitution),
            friction: geometric_mean(body.friction, collider.friction),
        }
    }
}

/// The outcome of a body's impact: its new velocity, and how fast it was
/// approaching at the instant of impact (positive when approaching).
struct Response<S> {
    velocity: Vec2<S>,
    approach: S,
}

/// The velocity after hitting a surface with unit normal `normal` at time
/// `t` of the tick.
///
/// The body's velocity is its mean over the tick, in which gravity
/// (`gravity`, the body's own) acts throughout: at time `t` it was moving
/// `gravity·(t − ½)` faster. The normal speed at that instant, relative to
/// the surface, is reversed and scaled by the restitution (or, below the
/// bounce threshold, removed), and the mean velocity for the rest of the
/// tick is what that instant's velocity makes it. Bouncing on the instant's
/// speed adds no energy, as bouncing on the mean would: a ball that does
/// that never comes to rest. A velocity that would still point into the
/// surface loses its normal part. Friction then takes up to `friction`
/// times the normal speed change off the tangential speed, never more than
/// all of it, so it never adds energy.
fn respond<S: Scalar>(
    velocity: Vec2<S>,
    normal: Vec2<S>,
    surface: &Surface<S>,
    (t, gravity): (S, Vec2<S>),
    threshold: S,
) -> Option<Response<S>> {
    // Held in the safe range (it is, short of its edge), so that no sum
    // below passes the fixed-point types' headroom of eight times it.
    let relative = clamp_to_range(velocity - surface.velocity);
    let into = dot(relative, normal);
    if into >= S::ZERO {
        return None;
    }
    let lag = mul(dot(gravity, normal), t - half());
    let approach = -(into + lag);
    let bounced = if approach > threshold { mul(surface.restitution, approach) - lag } else { S::ZERO };
    let along = if bounced > S::ZERO { bounced } else { S::ZERO };
    let tangent = relative - scale(normal, into);
    let tangent =
        if surface.friction > S::ZERO { friction(tangent, mul(surface.friction, along - into)) } else { tangent };
    let velocity = clamp_to_range(surface.velocity + tangent + scale(normal, along));
    Some(Response { velocity, approach })
}

/// Whether two points are apart by no more than rounding: four steps of a
/// fixed-point type's resolution, or (floats) the margin within which the
/// kernels cannot tell points apart at their scale.
fn rounding_apart<S: Scalar>(p: Vec2<S>, q: Vec2<S>) -> bool {
    let zero = <Narrow<S> as Exact>::ZERO;
    let size = |v: Narrow<S>| if v < zero { -v } else { v };
    let (p, q) = (p.to_narrow(), q.to_narrow());
    let margin = <Narrow<S> as Exact>::apart_margin(|| size(p.x) + size(p.y) + S::ONE.to_narrow());
    let step = S::TIME_STEP.to_narrow();
    size(p.x - q.x) + size(p.y - q.y) <= margin + step + step + step + step
}

/// Whether two unit normals are more than a few degrees apart (the sine of
/// the angle between them above 1/16): two surfaces, not one met twice or
/// two segments of one floor, whose normals differ by rounding.
fn apart<S: Scalar>(a: Vec2<S>, b: Vec2<S>) -> bool {
    let sine = S::from_ratio(a.to_exact().perp_dot(b.to_exact()), S::EXACT_ONE);
    abs(sine) > S::from_dyadic::<4>(1)
}

/// Whether two surfaces with unit normals `a` and `b` hold a body up
/// against `gravity` together: the push against gravity lies strictly
/// between their normals (`−gravity = p·a + q·b` with `p, q > 0`), decided
/// on exact products for fixed-point types.
fn supports<S: Scalar>(gravity: Vec2<S>, a: Vec2<S>, b: Vec2<S>) -> bool {
    let up = -gravity;
    let zero = <S::Wide as num_traits::ConstZero>::ZERO;
    let side = a.perp_dot(b);
    if side == zero || up == Vec2::ZERO {
        return false;
    }
    // p = (up × b) / (a × b), q = (up × a) / (b × a) = (a × up) / (a × b).
    let (p, q) = (up.perp_dot(b), a.perp_dot(up));
    let positive = |v: S::Wide| if side > zero { v > zero } else { v < zero };
    positive(p) && positive(q)
}

/// The tangential velocity `tangent` after friction takes up to `limit` off
/// its length.
fn friction<S: Scalar>(tangent: Vec2<S>, limit: S) -> Vec2<S> {
    if tangent == Vec2::ZERO {
        return tangent;
    }
    let speed = tangent.length();
    if speed <= limit {
        return Vec2::ZERO;
    }
    // 0 < limit / speed < 1: each component shrinks, rounded to nearest,
    // never past its old size.
    scale(tangent, S::ONE - ratio(limit, speed))
}

/// The sweep of a body's shape `a` moving by `motion` against a static
/// shape `b`.
fn sweep_shape<S: Scalar>(a: &Shape<S>, motion: Vec2<S>, b: &Shape<S>) -> Sweep<S> {
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

/// The buffers of a step, reused from tick to tick; never state.
#[derive(Debug)]
pub(super) struct Scratch<S> {
    /// Each collider's travel this tick (its velocity, held so that it
    /// stays in the safe range).
    travels: Vec<Vec2<S>>,
    /// Where each body started the tick.
    starts: Vec<Vec2<S>>,
    /// The push-out each body needs from the others.
    corrections: Vec<Vec2<S>>,
    /// The pairs in contact and the sensor overlaps found this tick.
    contacts: Vec<(BodyId, Id)>,
    overlaps: Vec<(BodyId, Id)>,
    /// The candidates of a body that went beyond its box.
    extended: Vec<u32>,
    /// Sensors a body's path touches during a substep, with when.
    sensed: Vec<(S, u32)>,
    /// The surfaces a body is stopped against (normal and velocity) since
    /// it last moved further than a resting body does.
    planes: Vec<(Vec2<S>, Vec2<S>)>,
    /// The colliders a body is checked against at the end of the tick.
    settling: Vec<u32>,
    /// The events' sort keys, and the buffer they are sorted into.
    event_keys: Vec<(BodyId, Id, u8, u32)>,
    sorted_events: Vec<Event<S>>,
}

impl<S> Default for Scratch<S> {
    fn default() -> Self {
        Self {
            travels: Vec::new(),
            starts: Vec::new(),
            corrections: Vec::new(),
            contacts: Vec::new(),
            overlaps: Vec::new(),
            extended: Vec::new(),
            sensed: Vec::new(),
            settling: Vec::new(),
            planes: Vec::new(),
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

/// Where the colliders are during a tick.
struct Colliders<'a, S> {
    list: &'a [Collider<S>],
    /// Each one's travel this tick; empty once they have all arrived.
    travels: &'a [Vec2<S>],
}

impl<S: Scalar> Colliders<'_, S> {
    /// Collider `c`'s travel this tick.
    fn travel(&self, c: usize) -> Vec2<S> {
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

/// The first stop of a body's motion during a substep.
struct Stop<S> {
    /// The collider's index.
    collider: usize,
    /// The fraction of the substep before it.
    t: S,
    normal: Vec2<S>,
    point: Vec2<S>,
    /// How far the body moves, relative to the collider, to the stop.
    travel: Vec2<S>,
}

/// What a body records as it moves: the pairs it touched, and its impacts.
struct Record<'a, S> {
    contacts: &'a mut Vec<(BodyId, Id)>,
    overlaps: &'a mut Vec<(BodyId, Id)>,
    events: &'a mut Vec<Event<S>>,
}

impl<S: Scalar> Record<'_, S> {
    fn touch(&mut self, body: &Body<S>, collider: &Collider<S>) {
        let pair = (body.id(), Id::Collider(collider.id()));
        if body.sensor || collider.sensor { self.overlaps.push(pair) } else { self.contacts.push(pair) }
    }
}

/// Everything a body's motion through a tick needs to see.
struct Motion<'a, S> {
    colliders: Colliders<'a, S>,
    index: &'a Index<S>,
    config: &'a WorldConfig<S>,
}

impl<S: Scalar> Motion<'_, S> {
    /// The colliders body `i` may meet while its circle sweeps `reach`:
    /// those the broad phase paired it with, unless `reach` leaves the
    /// body's box (a moving collider sped it up), when the tree is asked.
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

    /// Whether the body and the collider interact at all.
    fn interact(body: &Body<S>, collider: &Collider<S>) -> bool {
        body.filter.matches(collider.filter) && !(body.sensor && collider.sensor)
    }

    /// Moves body `i` by its velocity over the tick, with continuous
    /// collision against the colliders: at each stop it bounces or slides
    /// and goes on with the rest of the tick, up to `max_substeps` times;
    /// then it goes only as far as the next stop, where it stops dead along
    /// the normal. Nothing in the tick can carry it through a collider.
    fn advance(&self, i: usize, body: &mut Body<S>, scratch: &mut Scratch<S>, record: &mut Record<'_, S>) {
        let gravity = body.gravity(self.config.gravity);
        let mut remaining = S::ONE;
        scratch.planes.clear();
        // Where the body was when the surfaces in `planes` began to gather.
        let mut anchor = body.position();
        for substep in 0..=self.config.max_substeps {
            let last = substep == self.config.max_substeps;
            let elapsed = S::ONE - remaining;
            let motion = scale(body.velocity, remaining);
            let reach = body_reach(body, motion, body.solid().radius());
            let candidates = self.candidates(i, &reach, &mut scratch.extended);
            let stop = self.first_stop(body, motion, (elapsed, remaining), candidates, &mut scratch.sensed, record);
            let Some(stop) = stop else {
                body.translate(motion);
                return;
            };
            let collider = &self.colliders.list[stop.collider];
            record.touch(body, collider);
            remaining = mul(remaining, S::ONE - stop.t);
            let now = S::ONE - remaining;
            let shift = self.colliders.shift(stop.collider, elapsed, now);
            // Surfaces stopped against stay in force while the body moves
            // no more than a resting body does (the bounce threshold is the
            // speed, so the distance a tick, below which it rests).
            let moved = stop.travel + shift;
            body.translate(moved);
            if abs(moved.x) + abs(moved.y) > self.config.bounce_threshold {
                scratch.planes.clear();
                anchor = body.position();
            }
            let surface = Surface::of(body, collider, self.colliders.travel(stop.collider));
            // The last stop is dead along the normal: no bounce.
            let surface = if last { Surface { restitution: S::ZERO, ..surface } } else { surface };
            if let Some(response) =
                respond(body.velocity, stop.normal, &surface, (now, gravity), self.config.bounce_threshold)
            {
                body.velocity = response.velocity;
                // Stopped against two surfaces at once (a wedge, a corner):
                // sliding along this one pushes into the other, so in the
                // plane there is no way on; or, slower than a bounce, it is
                // held against gravity by the two together (a ball at the
                // bottom of a V), which a tick's gravity would otherwise
                // tip from one side to the other, tick after tick.
                let slow = {
                    let v = body.velocity - surface.velocity;
                    abs(v.x) + abs(v.y) <= self.config.bounce_threshold
                };
                let wedged = scratch.planes.iter().any(|&(n, v)| {
                    apart(n, stop.normal)
                        && (dot(body.velocity - v, n) < S::ZERO || (slow && supports(gravity, n, stop.normal)))
                });
                if wedged {
                    body.velocity = surface.velocity;
                    // Where it can go no further, rounding alone must not
                    // move it either: a step one way this tick and back the
                    // next would be jitter.
                    if rounding_apart(body.position(), anchor) {
                        body.place(anchor);
                    }
                }
                if response.approach > self.config.bounce_threshold {
                    record.events.push(Event {
                        body: body.id(),
                        other: Id::Collider(collider.id()),
                        kind: impact(now, stop.point + shift, stop.normal, response.approach),
                    });
                }
            }
            scratch.planes.push((stop.normal, surface.velocity));
            if last {
                return;
            }
        }
    }

    /// The earliest stop of `body` moving by `motion` over the part of the
    /// tick from `elapsed` on (`remaining` of it), among `candidates`: a
    /// hit during the motion, or a contact it starts in and pushes into (at
    /// `t = 0`); ties go to the collider with the lowest id. Records the
    /// contacts it starts in and the sensors the motion touches before the
    /// stop.
    fn first_stop(
        &self,
        body: &Body<S>,
        motion: Vec2<S>,
        (elapsed, remaining): (S, S),
        candidates: &[u32],
        sensed: &mut Vec<(S, u32)>,
        record: &mut Record<'_, S>,
    ) -> Option<Stop<S>> {
        sensed.clear();
        let solid = body.solid();
        let mut first: Option<Stop<S>> = None;
        for &c in candidates {
            let c = c as usize;
            let collider = &self.colliders.list[c];
            if !Self::interact(body, collider) {
                continue;
            }
            let (shape, travel) = self.colliders.at(c, elapsed, remaining);
            if motion == travel {
                // No relative motion: what touches now is found at the end
                // of the tick.
                continue;
            }
            let sensing = body.sensor || collider.sensor;
            let stop = match sweep_shape(&solid, motion - travel, &shape) {
                Sweep::Miss => continue,
                Sweep::InContact { contact, blocked } => {
                    record.touch(body, collider);
                    if !blocked || sensing {
                        continue;
                    }
                    Stop { collider: c, t: S::ZERO, normal: contact.normal, point: contact.point, travel: Vec2::ZERO }
                }
                Sweep::Hit(impact) => {
                    if sensing {
                        sensed.push((impact.t, c as u32));
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
        for &(t, c) in sensed.iter() {
            if t <= until {
                record.touch(body, &self.colliders.list[c as usize]);
            }
        }
        first
    }

    /// Moves body `i` by `offset` (a push-out) at the end of the tick,
    /// stopping at the first collider in the way.
    fn push(
        &self,
        i: usize,
        body: &mut Body<S>,
        offset: Vec2<S>,
        scratch: &mut Scratch<S>,
        record: &mut Record<'_, S>,
    ) {
        if offset == Vec2::ZERO || body.sensor {
            return;
        }
        let reach = body_reach(body, offset, body.solid().radius());
        let candidates = self.candidates(i, &reach, &mut scratch.extended);
        match self.first_stop(body, offset, (S::ONE, S::ZERO), candidates, &mut scratch.sensed, record) {
            None => body.translate(offset),
            Some(stop) => {
                record.touch(body, &self.colliders.list[stop.collider]);
                body.translate(stop.travel);
            }
        }
    }
}

impl<S: Scalar> Motion<'_, S> {
    /// The end of a body's tick: every collider it touches where it ended
    /// is recorded, and any it overlaps pushes it out (swept against the
    /// others, in id order).
    fn settle(&self, i: usize, body: &mut Body<S>, scratch: &mut Scratch<S>, record: &mut Record<'_, S>) {
        let reach = body_reach(body, Vec2::ZERO, body.solid().radius());
        let candidates = self.candidates(i, &reach, &mut scratch.extended);
        let mut settling = core::mem::take(&mut scratch.settling);
        settling.clear();
        settling.extend_from_slice(candidates);
        for &c in &settling {
            let collider = &self.colliders.list[c as usize];
            if !Self::interact(body, collider) {
                continue;
            }
            if let Some(contact) = contact_shape(&body.solid(), &collider.shape) {
                record.touch(body, collider);
                if !collider.sensor {
                    self.push(i, body, contact.push_out(), scratch, record);
                }
            }
        }
        scratch.settling = settling;
    }
}

impl<S: Scalar> Body<S> {
    /// Moves the body, keeping its core in the safe range.
    fn translate(&mut self, offset: Vec2<S>) {
        if offset == Vec2::ZERO {
            return;
        }
        self.place(self.position() + offset);
    }
}

/// How far a collider moves this tick: its velocity, held so that its
/// core stays in the safe range (a platform stops at the range's edge).
fn travel<S: Scalar>(collider: &Collider<S>) -> Vec2<S> {
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
        // Saturating: 2^64 ticks are never reached by playing, only by a
        // loaded state, and then the count stops rather than overflows.
        self.tick = self.tick.saturating_add(1);
        let config = self.config;
        let Self { bodies, colliders, index, scratch, events, contacts, overlaps, .. } = self;
        events.clear();
        for body in bodies.iter_mut() {
            let gravity = body.gravity(config.gravity);
            if gravity != Vec2::ZERO {
                body.velocity = clamp_to_range(body.velocity + gravity);
            }
        }
        scratch.travels.clear();
        scratch.travels.extend(colliders.iter().map(travel));
        index.build(
            bodies.iter().map(body_box),
            colliders.iter().zip(&scratch.travels).map(|(c, &t)| collider_box(c, t)),
        );
        scratch.starts.clear();
        scratch.starts.extend(bodies.iter().map(Body::position));
        scratch.contacts.clear();
        scratch.overlaps.clear();

        let mut own = core::mem::take(&mut scratch.contacts);
        let mut sensed = core::mem::take(&mut scratch.overlaps);
        let travels = core::mem::take(&mut scratch.travels);
        {
            let motion = Motion { colliders: Colliders { list: colliders, travels: &travels }, index, config: &config };
            let mut record = Record { contacts: &mut own, overlaps: &mut sensed, events };
            for (i, body) in bodies.iter_mut().enumerate() {
                motion.advance(i, body, scratch, &mut record);
            }
        }

        // The platforms reach the end of their travel.
        if travels.iter().any(|&t| t != Vec2::ZERO) {
            for (collider, &t) in Arc::make_mut(colliders).iter_mut().zip(&travels) {
                if t != Vec2::ZERO {
                    collider.shape = collider.shape.translated(t).unwrap_or(collider.shape);
                }
            }
        }
        scratch.travels = travels;

        let mut record = Record { contacts: &mut own, overlaps: &mut sensed, events };
        index.pair_bodies(bodies);
        resolve_body_contacts(bodies, &index.bodies, &config, scratch, &mut record);
        let motion = Motion { colliders: Colliders { list: colliders, travels: &[] }, index, config: &config };
        let corrections = core::mem::take(&mut scratch.corrections);
        for ((i, body), correction) in bodies.iter_mut().enumerate().zip(&corrections) {
            // At most a radius per axis: the push-out of overlapping bodies,
            // swept against the colliders.
            let r = body.radius();
            let hold = |v: S| max(-r, if v > r { r } else { v });
            motion.push(i, body, Vec2::new(hold(correction.x), hold(correction.y)), scratch, &mut record);
            motion.settle(i, body, scratch, &mut record);
            body.velocity = clamp_to_range(body.velocity);
        }
        scratch.corrections = corrections;

        own.sort_unstable();
        sensed.sort_unstable();
        events::diff(contacts, &mut own, events, (EventKind::ContactBegan, EventKind::ContactEnded));
        events::diff(overlaps, &mut sensed, events, (EventKind::SensorBegan, EventKind::SensorEnded));
        scratch.contacts = own;
        scratch.overlaps = sensed;
        events::sort(events, &mut scratch.event_keys, &mut scratch.sorted_events);
        index.hold_final(bodies);
        if self.colliders_hash.is_none() || self.colliders.iter().any(|c| c.velocity != Vec2::ZERO) {
            self.colliders_hash = Some(self.hash_colliders());
        }
    }
}

/// Touching or overlapping bodies: mass-weighted impulses along the contact
/// normal (bouncing with the larger restitution when faster than the
/// threshold) with friction, in pair order, and the push-out each body
/// needs, split by inverse mass and summed over its contacts (into
/// `scratch.corrections`). Sensor pairs are only recorded.
fn resolve_body_contacts<S: Scalar>(
    bodies: &mut [Body<S>],
    pairs: &[(u32, u32)],
    config: &WorldConfig<S>,
    scratch: &mut Scratch<S>,
    record: &mut Record<'_, S>,
) {
    let corrections = &mut scratch.corrections;
    corrections.clear();
    corrections.resize(bodies.len(), Vec2::ZERO);
    for &(i, j) in pairs {
        let (i, j) = (i as usize, j as usize);
        let (a, b) = (bodies[i], bodies[j]);
        if !a.filter.matches(b.filter) || (a.sensor && b.sensor) {
            continue;
        }
        let contact = if a.is_capsule() || b.is_capsule() {
            contact_capsule_capsule(&a.capsule(), &b.capsule())
        } else {
            contact_circle_circle(&a.circle, &b.circle)
        };
        let Some(contact) = contact else { continue };
        let pair = (a.id(), Id::Body(b.id()));
        if a.sensor || b.sensor {
            record.overlaps.push(pair);
            continue;
        }
        record.contacts.push(pair);
        let total = a.inverse_mass + b.inverse_mass;
        if total <= S::ZERO {
            continue;
        }
        let share_a = ratio(a.inverse_mass, total);
        let share_b = S::ONE - share_a;
        let n = contact.normal;
        // Held in the safe range, as in `respond`.
        let relative = clamp_to_range(a.velocity - b.velocity);
        let into = dot(relative, n);
        if into < S::ZERO {
            let approach = -into;
            let along = if approach > config.bounce_threshold {
                mul(max(a.restitution, b.restitution), approach)
            } else {
                S::ZERO
            };
            // The change of the relative velocity, shared by inverse mass:
            // along the normal, and (with friction) along the tangent.
            let mut change = scale(n, along - into);
            let mu = geometric_mean(a.friction, b.friction);
            if mu > S::ZERO {
                let tangent = relative - scale(n, into);
                change += friction(tangent, mul(mu, along - into)) - tangent;
            }
            bodies[i].velocity = held_sum(bodies[i].velocity, scale(change, share_a), false);
            bodies[j].velocity = held_sum(bodies[j].velocity, scale(change, share_b), true);
            if approach > config.bounce_threshold {
                // Each body from where it started the tick to where it is
                // (a circle is a capsule with a point core: the sweep
                // answers as the circles' own).
                let start = |k: usize, body: &Body<S>| {
                    (body.capsule_at(scratch.starts[k]), body.position() - scratch.starts[k])
                };
                let ((ca, ma), (cb, mb)) = (start(i, &a), start(j, &b));
                let t = match sweep_capsule_capsule(&ca, ma, &cb, mb) {
                    Sweep::Hit(hit) => hit.t,
                    Sweep::InContact { .. } => S::ZERO,
                    Sweep::Miss => S::ONE,
                };
                record.events.push(Event {
                    body: a.id(),
                    other: Id::Body(b.id()),
                    kind: impact(t, contact.point, n, approach),
                });
            }
        }
        corrections[i] = held_sum(corrections[i], scale(n, mul(contact.depth, share_a)), false);
        corrections[j] = held_sum(corrections[j], scale(n, mul(contact.depth, share_b)), true);
    }
}

/// `sum + term` (or `sum − term` when `subtract`) with both, and the
/// result, held within `±2·MAX_COORD` per component: a body touching many
/// others in one tick sums many impulses and push-outs, which could pass a
/// fixed-point type's limit (eight times `MAX_COORD`) and overflow. Within
/// that bound (every scene short of the safe range's edge) nothing changes;
/// beyond it the sum saturates, and the velocity is clamped to
/// `±MAX_COORD` and the correction to `±radius` afterwards anyway.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{BodyDef, WorldConfig};

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
        assert_eq!(world.body(ball).unwrap().position(), Vec2::new(0.0, 9.5));
    }
}
