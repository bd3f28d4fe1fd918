//! The deterministic collision world a lockstep or rollback game is built
//! on. Every geometric question it asks (contacts, sweeps, distances,
//! overlaps) is one of geom's public [queries](crate::query).
//!
//! Its own arithmetic is not public API: impulses, friction and bounces
//! round each product or ratio once from its exact value, the broad phase
//! widens float boxes by the kernels' rounding margin, and the checksum
//! hashes each scalar's bits, all through the crate-private layer the
//! queries are built on (the scalar's exact ring and a few kernel helpers).
//! So the world is as exact as a query; code outside the crate gets the
//! same answers from the queries, but rounds its own arithmetic with the
//! public operators.
//!
//! The world holds **colliders** (segments, capsules and circles: static,
//! or kinematic platforms that move by their own velocity) and **bodies**
//! (dynamic circles and capsules: [`BodyDef::new`], [`BodyDef::capsule`]).
//! [`World::step`] advances one tick (`step.rs` has the stages):
//!
//! 1. the broad phase finds the pairs whose boxes for the tick meet, and
//!    sleeping groups that an awake body or a moving platform reaches wake;
//! 2. the narrow phase makes a contact of every pair that touches, is
//!    about to, or whose expected motions meet during the tick
//!    (speculative contacts: a bullet meets the body it would cross);
//! 3. the contact solver, bodies and colliders in one system, runs
//!    [`substeps`](WorldConfig::substeps): each adds its share of gravity,
//!    applies the last impulses again (warm start), solves every contact
//!    with soft position correction, moves the bodies and solves again
//!    without it (relax); then restitution, once per contact;
//! 4. each body moves by what the solver made of its tick with continuous
//!    collision against the colliders (moving ones on the relative motion):
//!    it stops at its earliest time of impact (a swept query), bounces,
//!    slides with friction, and continues with the rest of the tick, a
//!    bounded number of times; if those run out it stops at the next
//!    impact, so nothing tunnels through a collider, whatever its speed or
//!    radius (radius 0 included); then the platforms move;
//! 5. pairs whose motion the narrow phase did not expect are checked along
//!    their real paths (a sensor overlap, a touch nobody predicted);
//! 6. the contacts and their impulses are kept for the next tick, the
//!    tick's [events](World::events) collected (impacts, contacts and
//!    sensor overlaps that began and ended), and groups of touching bodies
//!    that stayed slow long enough fall asleep.
//!
//! Velocities are in units per tick and gravity in units per tick per tick:
//! there is no time step to convert, and no clock. Every operation is in the
//! world's scalar type `S`, in a fixed order (bodies by id, colliders by id,
//! pairs by ids), so the same inputs give the same bits on every peer: the
//! [`checksum`](World::checksum) of every tick is the desync detector.
//!
//! # What the world does
//!
//! - **Inputs between ticks**, each validated with a typed error that
//!   changes nothing: [`set_velocity`](World::set_velocity),
//!   [`apply_impulse`](World::apply_impulse),
//!   [`set_position`](World::set_position) (a teleport),
//!   [`set_body`](World::set_body) for everything else (gravity scale,
//!   friction, layers, tags), [`set_collider_velocity`](World::set_collider_velocity)
//!   to drive a platform.
//! - **Stacks and piles that rest.** Every contact between bodies, and
//!   between a body and a collider, is solved together, so weight passes
//!   down a stack to the floor; impulses are kept from tick to tick (they
//!   are state, in the checksum and the snapshot), so a resting stack is
//!   exactly still: the same bits tick after tick. Mass ratios up to
//!   1 : 100 stack (a ball 128 times as heavy rests on a light one).
//! - **Bodies never pass through each other.** A body is met along the
//!   motion it is expected to make in the tick, so a bullet crossing a
//!   body stops at it (or, as a sensor, reports the overlap), whatever its
//!   speed.
//! - **Bounces that come to rest.** Restitution is applied once per
//!   contact, to the speed at which it approached (against a collider met
//!   during the motion, to the approach speed at the instant of impact),
//!   which adds no energy; impacts slower than
//!   [`bounce_threshold`](WorldConfig::bounce_threshold) lose all their
//!   normal speed. A ball with restitution below 1 comes to rest after a
//!   bounded number of bounces, without jitter.
//! - **Sleeping.** A group of touching bodies that stays slow for
//!   [`sleep_ticks`](WorldConfig::sleep_ticks) falls asleep: exactly still,
//!   next to free to step, and woken by an awake body's touch, an input or
//!   a moving platform. Deterministic, and part of the state.
//! - **Friction**, Coulomb's, on every contact: the tangential speed
//!   changes by at most the coefficient times the normal speed change. The
//!   coefficient of a contact is the geometric mean `√(μa·μb)` of the two
//!   (as in `Box2D`); bodies and colliders are frictionless by default.
//!   Restitution combines as the larger of the two.
//! - **Sensors** ([`BodyDef::sensor`], [`ColliderDef::sensor`]) report
//!   overlaps but never push or are pushed. Two sensors ignore each other.
//! - **Layers**: every body and collider has a [`Filter`]; pairs whose
//!   filters do not [match](Filter::matches) neither collide nor report.
//! - **Moving platforms**: a collider with a velocity moves by it every
//!   tick; bodies are swept against it on the relative motion, so it pushes
//!   them without tunnelling, and carries those that rest on it (upwards by
//!   the contact, sideways by friction).
//! - **Events** of the last tick ([`World::events`]), in a stable order:
//!   by body id, then by the other id, impacts in the order they happened.
//! - **Contact data**: each contact of the last tick with its normal,
//!   point, depth and the impulse the solver applied
//!   ([`contact_details`](World::contact_details), and one body's seen from
//!   it, [`contacts_of`](World::contacts_of)), and what a body stands on
//!   within a slope limit ([`ground`](World::ground)).
//! - **World queries** through the broad phase: [`ray_cast`](World::ray_cast),
//!   [`overlap_circle`](World::overlap_circle),
//!   [`overlap_capsule`](World::overlap_capsule) and
//!   [`nearest`](World::nearest), with a layer filter and ids in a defined
//!   order.
//! - **State for rollback and the network**: `Clone`,
//!   [`snapshot`](World::snapshot) / [`restore`](World::restore), and with
//!   the `serde` feature a compact binary state (`World::to_bytes`,
//!   `World::from_bytes`) that is refused with a typed error when
//!   corrupted.
//!
//! # What it does not do
//!
//! Bodies are circles and capsules that translate: there is no rotation (a
//! body with friction slides, it does not roll; a capsule stays as upright
//! or as flat as it was made), no joints and no polygons. Contacts between
//! bodies are soft: a stack sinks a little into each contact under load
//! (about `2n·g / (2π·hertz)²` under `n` equal bodies; see
//! [`contact_hertz`](WorldConfig::contact_hertz)) and bodies made inside
//! each other are pushed apart at up to
//! [`push_speed`](WorldConfig::push_speed) per contact, so a body jammed
//! between several can leave faster. Bodies meet each other along the
//! motion they were expected to make in the tick; one deflected on the way
//! (by a wall, by a third body) is checked again along its real path and
//! reported, but the pair is resolved the next tick. A body caught between
//! a platform and a static collider is never pushed through the static
//! one; the platform passes over it.
//! Bodies and colliders that reach the edge of the safe range
//! ([`Scalar::MAX_COORD`]) stop there; velocities saturate at `MAX_COORD`
//! per component.
//!
//! Bodies meet colliders as circles or capsules at least four rounding steps wide
//! (four steps of a fixed-point type's resolution; in the float types 256
//! rounding steps at the body's distance from the origin, `2^-15` of it in
//! `f32`): a travel rounded a step away from one wall could otherwise carry
//! a point a step through another it slides along. A body of radius 0
//! therefore rests that far from a floor, never on it.
//!
//! # Examples
//!
//! ```
//! use geom_core::fixed::types::I32F32;
//! use geom_core::world::{BodyDef, ColliderDef, EventKind, Filter, Id, World, WorldConfig};
//! use geom_core::{Segment, Vec2};
//!
//! let v = Vec2::<I32F32>::from_f64;
//! let half = I32F32::from_num(0.5);
//! let mut world = World::new(WorldConfig::new(v(0.0, -0.01)))?;
//! let mut floor = ColliderDef::new(Segment::new(v(-10.0, 0.0), v(10.0, 0.0))?);
//! floor.friction = half;
//! let floor = world.add_collider(floor)?;
//! let mut ball = BodyDef::new(v(0.0, 5.0), half);
//! ball.friction = half;
//! let ball = world.add_body(ball)?;
//! world.apply_impulse(ball, v(0.05, 0.0))?; // an input, between ticks
//!
//! let mut landed = None;
//! for _ in 0..2000 {
//!     world.step();
//!     for event in world.events() {
//!         if event.body == ball && event.other == Id::Collider(floor) {
//!             if let EventKind::Impact { speed, .. } = event.kind {
//!                 landed.get_or_insert((world.tick(), speed));
//!             }
//!         }
//!     }
//! }
//! let (tick, speed) = landed.expect("the ball hit the floor");
//! assert!(tick > 25 && speed > I32F32::from_num(0.25));
//!
//! // At rest on the floor: the same bits tick after tick.
//! let resting = world.body(ball).unwrap().position();
//! world.step();
//! assert_eq!(world.body(ball).unwrap().position(), resting);
//!
//! // A ray cast down from above the ball finds the ball, beside it the floor.
//! let above = world.ray_cast(resting + v(0.0, 3.0), v(0.0, -5.0), Filter::ALL).expect("the ball");
//! assert_eq!(above.id, Id::Body(ball));
//! let beside = world.ray_cast(v(8.0, 3.0), v(0.0, -5.0), Filter::ALL).expect("the floor");
//! assert_eq!((beside.id, beside.point), (Id::Collider(floor), v(8.0, 0.0)));
//! # Ok::<(), geom_core::world::WorldError>(())
//! ```

mod aabb;
mod arith;
mod body;
mod character;
mod collider;
mod config;
mod contact;
mod digest;
mod edit;
mod events;
mod id;
mod index;
mod motion;
mod narrow;
mod query;
mod sleep;
mod solver;
#[cfg(feature = "serde")]
mod state;
mod step;
mod strips;
mod sync;

use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::scalar::Scalar;
use crate::vec2::Vec2;

pub use body::{Body, BodyDef};
pub use character::{CharacterConfig, CharacterMove};
pub use collider::{Collider, ColliderDef, Shape};
pub use config::{WorldConfig, WorldError};
pub use contact::{Ground, WorldContact};
pub use events::{Event, EventKind};
pub use id::{BodyId, ColliderId, Filter, Id, QueryFilter};
pub use query::{Nearest, RayHit};
pub use sync::{SyncTest, sync_test};

use config::{hash_scalars, in_range, in_safe_range, in_unit_range, is_nan};
use contact::ContactState;
use digest::Digest;
use index::Index;
use step::Scratch;

/// The deterministic world: colliders, bodies, and the step that moves
/// them. See the [module documentation](self).
///
/// A `World` is `Clone`; cloning shares the colliders (they are
/// reference-counted and copied only when changed, or every tick while a
/// platform moves), so it costs one copy of the bodies and of the contact
/// lists: [`snapshot`](World::snapshot) and [`restore`](World::restore)
/// are built on it.
///
/// With the `serde` feature a world serialises completely (tick, bodies,
/// colliders, contacts, ids still to hand out, and a checksum of it all)
/// and is validated when read back: a malformed or altered state gives an
/// error, never an invalid world. The events of the last tick are output,
/// not state: they are not saved.
#[derive(Debug)]
pub struct World<S> {
    config: WorldConfig<S>,
    tick: u64,
    bodies: Vec<Body<S>>,
    colliders: Arc<Vec<Collider<S>>>,
    /// The hash of every collider, or `None` when one has changed since it
    /// was computed (so that adding many colliders is not quadratic).
    colliders_hash: Option<u64>,
    next_body: u32,
    next_collider: u32,
    /// The contacts of the last tick, ascending by pair: part of the state
    /// (the next tick's solve starts from their impulses).
    contacts: Vec<ContactState<S>>,
    /// Their pairs, as [`World::contacts`] lists them, and the contacts
    /// between bodies by second body (see `contact::list`).
    pairs: Vec<(BodyId, Id)>,
    by_second: Vec<u64>,
    /// The sensor overlaps during the last tick, ascending.
    overlaps: Vec<(BodyId, Id)>,
    /// What happened during the last tick.
    events: Vec<Event<S>>,
    /// The broad phase of the last tick, kept for world queries until a
    /// change makes it stale; never part of the state.
    index: Index<S>,
    /// The step's buffers; never part of the state.
    scratch: Scratch<S>,
}

impl<S: Clone> Clone for World<S> {
    fn clone(&self) -> Self {
        Self {
            config: self.config.clone(),
            tick: self.tick,
            bodies: self.bodies.clone(),
            colliders: Arc::clone(&self.colliders),
            colliders_hash: self.colliders_hash,
            next_body: self.next_body,
            next_collider: self.next_collider,
            contacts: self.contacts.clone(),
            pairs: self.pairs.clone(),
            by_second: self.by_second.clone(),
            overlaps: self.overlaps.clone(),
            events: self.events.clone(),
            index: self.index.clone(),
            scratch: self.scratch.clone(),
        }
    }

    /// Reuses this world's buffers: restoring a snapshot allocates nothing
    /// once they have grown.
    fn clone_from(&mut self, source: &Self) {
        self.config.clone_from(&source.config);
        self.tick = source.tick;
        self.bodies.clone_from(&source.bodies);
        self.colliders.clone_from(&source.colliders);
        self.colliders_hash = source.colliders_hash;
        self.next_body = source.next_body;
        self.next_collider = source.next_collider;
        self.contacts.clone_from(&source.contacts);
        self.pairs.clone_from(&source.pairs);
        self.by_second.clone_from(&source.by_second);
        self.overlaps.clone_from(&source.overlaps);
        self.events.clone_from(&source.events);
        self.index.clone_from(&source.index);
        self.scratch.clone_from(&source.scratch);
    }
}

/// A saved world state, for rollback: see [`World::snapshot`].
///
/// With the `serde` feature it serialises as the world does.
///
/// # Examples
///
/// See [`World::snapshot`].
#[derive(Clone, Debug)]
pub struct Snapshot<S>(World<S>);

impl<S: Scalar> World<S> {
    /// An empty world at tick 0.
    ///
    /// # Errors
    ///
    /// [`WorldError::Velocity`] for a gravity outside the safe range,
    /// [`WorldError::Config`] for a bad bounce threshold or zero substeps.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{World, WorldConfig, WorldError};
    /// use geom_core::Vec2;
    ///
    /// let world = World::new(WorldConfig::new(Vec2::new(0.0_f32, -0.1)))?;
    /// assert_eq!(world.tick(), 0);
    /// let bad = World::new(WorldConfig::new(Vec2::new(f32::NAN, 0.0)));
    /// assert_eq!(bad.err(), Some(WorldError::Velocity));
    /// # Ok::<(), WorldError>(())
    /// ```
    pub fn new(config: WorldConfig<S>) -> Result<Self, WorldError> {
        config.validate()?;
        Ok(Self::assemble(config, 0, Vec::new(), Vec::new(), [0, 0], (Vec::new(), Vec::new())))
    }

    /// A world of these parts (the ids still to hand out, then the
    /// contacts and the sensor overlaps of the last tick), its caches and
    /// events empty.
    fn assemble(
        config: WorldConfig<S>,
        tick: u64,
        bodies: Vec<Body<S>>,
        colliders: Vec<Collider<S>>,
        [next_body, next_collider]: [u32; 2],
        (contacts, overlaps): (Vec<ContactState<S>>, Vec<(BodyId, Id)>),
    ) -> Self {
        let (mut pairs, mut by_second) = (Vec::new(), Vec::new());
        contact::list(&contacts, &mut pairs, &mut by_second, &mut Vec::new());
        Self {
            config,
            tick,
            bodies,
            colliders: Arc::new(colliders),
            colliders_hash: None,
            next_body,
            next_collider,
            contacts,
            pairs,
            by_second,
            overlaps,
            events: Vec::new(),
            index: Index::default(),
            scratch: Scratch::default(),
        }
    }

    /// The configuration.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{World, WorldConfig};
    /// use geom_core::Vec2;
    ///
    /// let world = World::new(WorldConfig::new(Vec2::new(0.0_f64, -1.0)))?;
    /// assert_eq!(world.config().gravity, Vec2::new(0.0, -1.0));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn config(&self) -> &WorldConfig<S> {
        &self.config
    }

    /// The number of ticks stepped so far.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{World, WorldConfig};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, -1.0)))?;
    /// world.step();
    /// assert_eq!(world.tick(), 1);
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// What happened during the last tick, in a stable order: by body id,
    /// then by the other's id (colliders before bodies), and for one pair
    /// the contact or sensor overlap that began, the impacts in the order
    /// they happened, then what ended. Empty before the first step; the
    /// buffer is reused, so stepping allocates nothing for events once it
    /// has grown.
    ///
    /// Events are output, not state: they are not saved by
    /// `World::to_bytes` (the `serde` feature), but a restored snapshot holds the
    /// events of the tick it was taken after, and re-simulating a tick
    /// gives its events again, the same.
    ///
    /// See the [module documentation](self) for an example.
    #[must_use]
    pub fn events(&self) -> &[Event<S>] {
        &self.events
    }

    /// The pairs in contact during the last tick (touching at some instant
    /// of it, or stopped by each other), each a body and a collider or a
    /// body with a higher id, ascending. Sensors are not among them (see
    /// [`sensor_overlaps`](World::sensor_overlaps)). Their normals, points,
    /// depths and impulses: [`contact_details`](World::contact_details),
    /// and one body's [`contacts_of`](World::contacts_of).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, Id, World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, -0.1)))?;
    /// let floor = world.add_collider(Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))?)?;
    /// let ball = world.add_body(BodyDef::new(Vec2::new(0.0, 0.5), 0.5))?;
    /// world.step();
    /// assert_eq!(world.contacts(), &[(ball, Id::Collider(floor))]);
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn contacts(&self) -> &[(BodyId, Id)] {
        &self.pairs
    }

    /// The sensor overlaps during the last tick: pairs of a body and a
    /// collider, or of two bodies (the lower id first), one of them a
    /// sensor, that touched at some instant of it; ascending.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, ColliderDef, Id, World, WorldConfig};
    /// use geom_core::{Circle, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let mut zone = ColliderDef::new(Circle::new(Vec2::new(5.0, 0.0), 1.0)?);
    /// zone.sensor = true;
    /// let zone = world.add_collider(zone)?;
    /// let mut ball = BodyDef::new(Vec2::new(0.0, 0.0), 0.5);
    /// ball.velocity = Vec2::new(10.0, 0.0); // straight through the zone in one tick
    /// let ball = world.add_body(ball)?;
    /// world.step();
    /// assert_eq!(world.sensor_overlaps(), &[(ball, Id::Collider(zone))]);
    /// assert_eq!(world.body(ball).unwrap().position(), Vec2::new(10.0, 0.0)); // not stopped
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn sensor_overlaps(&self) -> &[(BodyId, Id)] {
        &self.overlaps
    }

    fn hash_colliders(&self) -> u64 {
        let mut h = Digest::new();
        for collider in self.colliders.iter() {
            collider.hash(&mut h);
        }
        h.finish()
    }

    /// A 64-bit hash of every bit of the world's state: the tick, the ids
    /// still to hand out, the configuration, every body (with its sleep
    /// state) and every collider (with every property, tags included), and
    /// the contacts of the last tick with the solver's impulses (on which
    /// the next tick's solve and events depend) and its sensor overlaps,
    /// with scalars hashed
    /// by their bits (IEEE-754 patterns for floats, raw integers for fixed
    /// point) and integers little-endian, with `seahash`. Equal on every
    /// platform for equal states: compare it between peers every tick to
    /// detect a desync.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig};
    /// use geom_core::Vec2;
    ///
    /// let mut a = World::new(WorldConfig::new(Vec2::new(0.0_f64, -0.1)))?;
    /// a.add_body(BodyDef::new(Vec2::new(0.0, 10.0), 1.0))?;
    /// let mut b = a.clone();
    /// a.step();
    /// assert_ne!(a.checksum(), b.checksum());
    /// b.step();
    /// assert_eq!(a.checksum(), b.checksum());
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn checksum(&self) -> u64 {
        let mut h = Digest::new();
        h.write_u64(self.tick);
        h.write_u32(self.next_body);
        h.write_u32(self.next_collider);
        self.config.hash(&mut h);
        h.write_u64(self.bodies.len() as u64);
        for body in &self.bodies {
            body.hash(&mut h);
        }
        h.write_u64(self.colliders_hash.unwrap_or_else(|| self.hash_colliders()));
        h.write_u64(self.contacts.len() as u64);
        for contact in &self.contacts {
            contact.hash(&mut h);
        }
        h.write_u64(self.overlaps.len() as u64);
        for &(body, other) in &self.overlaps {
            h.write_u32(body.0);
            other.hash(&mut h);
        }
        h.finish()
    }

    /// The same world in another scalar type: every value converted by
    /// `convert`, the tick, every id, flag, filter, tag, contact and sleep
    /// state kept,
    /// and the result validated as [`World::add_body`] would. Use it to
    /// replay a state in another precision, or to move a game from floats
    /// to fixed point.
    ///
    /// # Errors
    ///
    /// What is wrong with the first value that does not fit the new type
    /// (a coordinate beyond its [`Scalar::MAX_COORD`], say); nothing is
    /// built.
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::I16F16;
    /// use geom_core::world::{BodyDef, World, WorldConfig, WorldError};
    /// use geom_core::{Scalar, ShapeError, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, -0.125)))?;
    /// let ball = world.add_body(BodyDef::new(Vec2::new(0.0, 10.0), 0.5))?;
    /// world.step();
    /// let fixed = world.convert(I16F16::from_f64)?;
    /// assert_eq!(fixed.tick(), 1);
    /// let y = world.body(ball).unwrap().position().y; // 9.921875, exact in I16F16
    /// assert_eq!(fixed.body(ball).unwrap().position().y, I16F16::from_f64(y));
    ///
    /// world.add_body(BodyDef::new(Vec2::new(1.0e6, 0.0), 0.5))?; // fine in f64…
    /// let err = world.convert(I16F16::from_f64).unwrap_err(); // (saturated)
    /// assert_eq!(err, WorldError::Shape(ShapeError::out_of_range(I16F16::MAX))); // …not in I16F16
    /// # Ok::<(), WorldError>(())
    /// ```
    pub fn convert<T: Scalar>(&self, mut convert: impl FnMut(S) -> T) -> Result<World<T>, WorldError> {
        let convert: &mut dyn FnMut(S) -> T = &mut convert;
        let vec = |convert: &mut dyn FnMut(S) -> T, v: Vec2<S>| Vec2::new(convert(v.x), convert(v.y));
        let c = &self.config;
        let config = WorldConfig {
            gravity: vec(convert, c.gravity),
            bounce_threshold: convert(c.bounce_threshold),
            substeps: c.substeps,
            contact_hertz: convert(c.contact_hertz),
            contact_damping: convert(c.contact_damping),
            push_speed: convert(c.push_speed),
            sleep_threshold: convert(c.sleep_threshold),
            sleep_ticks: c.sleep_ticks,
        };
        config.validate()?;
        let mut bodies = Vec::with_capacity(self.bodies.len());
        for body in &self.bodies {
            let mut converted = body.def().convert(convert).validate(body.id())?;
            converted.sleep = body.sleep;
            bodies.push(converted);
        }
        let mut colliders = Vec::with_capacity(self.colliders.len());
        for collider in self.colliders.iter() {
            colliders.push(collider.def().convert(convert)?.validate(collider.id())?);
        }
        let mut contacts = Vec::with_capacity(self.contacts.len());
        for contact in &self.contacts {
            contacts.push(contact.convert(convert)?);
        }
        let next = [self.next_body, self.next_collider];
        Ok(World::assemble(config, self.tick, bodies, colliders, next, (contacts, self.overlaps.clone())))
    }

    /// Saves the whole state, for rollback: a copy of the bodies and the
    /// contact lists, and a shared reference to the colliders.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, -0.1)))?;
    /// world.add_body(BodyDef::new(Vec2::new(0.0, 10.0), 1.0))?;
    /// let saved = world.snapshot();
    /// world.step();
    /// let after_one = world.checksum();
    /// world.restore(&saved);
    /// assert_eq!(world.tick(), 0);
    /// world.step();
    /// assert_eq!(world.checksum(), after_one);
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn snapshot(&self) -> Snapshot<S> {
        Snapshot(self.clone())
    }

    /// Returns the world to a saved state (reusing this world's buffers).
    ///
    /// See [`World::snapshot`] for an example.
    pub fn restore(&mut self, snapshot: &Snapshot<S>) {
        self.clone_from(&snapshot.0);
    }
}

impl<S: Scalar> Snapshot<S> {
    /// The tick the snapshot was taken at.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{World, WorldConfig};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, -0.1)))?;
    /// world.step();
    /// assert_eq!(world.snapshot().tick(), 1);
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn tick(&self) -> u64 {
        self.0.tick
    }

    /// The checksum of the saved state (as [`World::checksum`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{World, WorldConfig};
    /// use geom_core::Vec2;
    ///
    /// let world = World::new(WorldConfig::new(Vec2::new(0.0_f32, -0.1)))?;
    /// assert_eq!(world.snapshot().checksum(), world.checksum());
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn checksum(&self) -> u64 {
        self.0.checksum()
    }
}
