//! A small deterministic stepping world, built only on geom's queries: the
//! reference for what "deterministic" means here, and a building block for
//! lockstep and rollback games.
//!
//! The world holds static colliders (segments, capsules and circles) and
//! dynamic circles (bodies). [`World::step`] advances one tick:
//!
//! 1. gravity is added to every body with a finite mass;
//! 2. each body moves by its velocity with continuous collision against the
//!    static colliders: it stops at its earliest time of impact (a swept
//!    query), bounces or slides, and continues with the rest of the tick, a
//!    bounded number of times; if those run out it stops at the next impact,
//!    so nothing tunnels through a wall;
//! 3. touching or overlapping bodies exchange mass-weighted impulses and are
//!    pushed apart (the push-out moves are themselves swept against the
//!    statics), then any residual overlap with a static collider is pushed
//!    out.
//!
//! Velocities are in units per tick and gravity in units per tick per tick:
//! there is no time step to convert, and no clock. Every operation is in the
//! world's scalar type `S`, in a fixed order (bodies by id, colliders by id,
//! pairs by ids), so the same inputs give the same bits on every peer: the
//! [`checksum`](World::checksum) of every tick is the desync detector.
//!
//! Bodies that reach the edge of the safe range ([`Scalar::MAX_COORD`])
//! stop there; velocities saturate at `MAX_COORD` per component.
//!
//! # Examples
//!
//! ```
//! use fixed::types::I32F32;
//! use geom_core::world::{BodyDef, Collider, World, WorldConfig};
//! use geom_core::{Segment, Vec2};
//!
//! let v = |x: f64, y: f64| Vec2::new(I32F32::from_num(x), I32F32::from_num(y));
//! let mut world = World::new(WorldConfig::new(v(0.0, -0.01)))?;
//! world.add_collider(Collider::Segment(Segment::new(v(-10.0, 0.0), v(10.0, 0.0))?));
//! let ball = world.add_body(BodyDef::new(v(0.0, 5.0), I32F32::from_num(0.5)))?;
//! for _ in 0..2000 {
//!     world.step();
//! }
//! // Landed and at rest on the floor: touching, or a rounding step above it.
//! let resting = world.body(ball).unwrap().position();
//! assert!(resting.y >= 0.5 && resting.y <= I32F32::from_num(0.5) + 4 * I32F32::DELTA);
//! world.step();
//! assert_eq!(world.body(ball).unwrap().position(), resting);
//! # Ok::<(), geom_core::world::WorldError>(())
//! ```

mod broad_phase;
mod step;
mod sync;

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;
use core::hash::Hasher;

use seahash::SeaHasher;

use crate::scalar::Scalar;
use crate::shape::{Capsule, Circle, Segment, ShapeError};
use crate::vec2::Vec2;

pub use sync::{SyncTest, sync_test};

/// The stable identifier of a body: bodies are kept, stepped and hashed in
/// the order of their ids, which are never reused.
///
/// # Examples
///
/// ```
/// use geom_core::world::{BodyDef, World, WorldConfig};
/// use geom_core::Vec2;
///
/// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
/// let a = world.add_body(BodyDef::new(Vec2::new(0.0, 0.0), 1.0))?;
/// let b = world.add_body(BodyDef::new(Vec2::new(5.0, 0.0), 1.0))?;
/// assert!(a < b);
/// assert_eq!(a.index(), 0);
/// # Ok::<(), geom_core::world::WorldError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyId(u32);

impl BodyId {
    /// The id as a number: ids are handed out from 0 upwards.
    ///
    /// See [`BodyId`] for an example.
    #[must_use]
    pub const fn index(self) -> u32 {
        self.0
    }
}

/// The stable identifier of a static collider (see [`BodyId`]).
///
/// # Examples
///
/// ```
/// use geom_core::world::{Collider, World, WorldConfig};
/// use geom_core::{Circle, Vec2};
///
/// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
/// let post = world.add_collider(Collider::Circle(Circle::new(Vec2::new(1.0, 1.0), 0.5)?));
/// assert_eq!(post.index(), 0);
/// # Ok::<(), geom_core::world::WorldError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ColliderId(u32);

impl ColliderId {
    /// The id as a number: ids are handed out from 0 upwards.
    ///
    /// See [`ColliderId`] for an example.
    #[must_use]
    pub const fn index(self) -> u32 {
        self.0
    }
}

/// Why the world refused a change. The world is left exactly as it was.
///
/// # Examples
///
/// ```
/// use geom_core::world::{BodyDef, World, WorldConfig, WorldError};
/// use geom_core::Vec2;
///
/// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, -0.1)))?;
/// let mut def = BodyDef::new(Vec2::new(0.0, 0.0), 1.0);
/// def.restitution = 1.5;
/// assert_eq!(world.add_body(def), Err(WorldError::Restitution));
/// assert!(world.bodies().is_empty());
/// # Ok::<(), WorldError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WorldError {
    /// The body's position or radius is not a valid circle.
    Shape(ShapeError),
    /// A velocity or the gravity is NaN, infinite, or beyond
    /// [`Scalar::MAX_COORD`] in a component.
    Velocity,
    /// The inverse mass is negative, NaN, or beyond [`Scalar::MAX_COORD`].
    InverseMass,
    /// The restitution is outside `[0, 1]` (or NaN).
    Restitution,
    /// The bounce threshold is negative, NaN or beyond the safe range, or
    /// the number of substeps is zero.
    Config,
    /// No body has this id.
    UnknownBody(BodyId),
    /// No collider has this id.
    UnknownCollider(ColliderId),
    /// All 2^32 ids have been handed out.
    OutOfIds,
    /// A serialised world lists ids out of order, twice, or beyond the next
    /// id to hand out.
    Ids,
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Shape(e) => write!(f, "invalid body: {e}"),
            Self::Velocity => f.write_str("a velocity or the gravity is not finite or outside the safe range"),
            Self::InverseMass => f.write_str("the inverse mass is negative, not finite or outside the safe range"),
            Self::Restitution => f.write_str("the restitution is outside [0, 1]"),
            Self::Config => f.write_str("the bounce threshold is negative or out of range, or substeps is zero"),
            Self::UnknownBody(id) => write!(f, "no body has id {}", id.0),
            Self::UnknownCollider(id) => write!(f, "no collider has id {}", id.0),
            Self::OutOfIds => f.write_str("all ids have been handed out"),
            Self::Ids => f.write_str("ids are out of order, repeated, or beyond the next id"),
        }
    }
}

impl core::error::Error for WorldError {}

impl From<ShapeError> for WorldError {
    fn from(e: ShapeError) -> Self {
        Self::Shape(e)
    }
}

/// Whether `v` is a finite value within `[0, MAX_COORD]`.
fn in_unit_range<S: Scalar>(v: S, max: S) -> bool {
    v.is_finite() && v >= S::ZERO && v <= max
}

/// Whether both components are finite and within the safe range.
fn in_safe_range<S: Scalar>(v: Vec2<S>) -> bool {
    let ok = |c: S| c.is_finite() && c <= S::MAX_COORD && c >= -S::MAX_COORD;
    ok(v.x) && ok(v.y)
}

/// How the world steps: gravity, bounce and the bound on substeps.
///
/// # Examples
///
/// ```
/// use geom_core::world::WorldConfig;
/// use geom_core::Vec2;
///
/// let config = WorldConfig::new(Vec2::new(0.0_f64, -0.5));
/// assert_eq!(config.bounce_threshold, 1.0); // 2 × (|gx| + |gy|)
/// assert_eq!(config.max_substeps, 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WorldConfig<S> {
    /// Added to every movable body's velocity at the start of each tick
    /// (units per tick per tick).
    pub gravity: Vec2<S>,
    /// Impacts slower than this along the normal (units per tick) do not
    /// bounce: the body stops against the surface instead. A resting body
    /// hits its floor at the speed of one tick of gravity, so this must be
    /// above that for bodies to rest without jitter.
    pub bounce_threshold: S,
    /// How many times a body may hit something and continue within one tick
    /// before it stops at its next impact.
    pub max_substeps: u8,
}

impl<S: Scalar> WorldConfig<S> {
    /// A configuration with the given gravity, a bounce threshold of twice
    /// gravity's size (`2·(|gx| + |gy|)`, so resting bodies do not bounce)
    /// and 4 substeps.
    ///
    /// A gravity outside the safe range (which [`World::new`] refuses) is
    /// measured at the range's edge here, so building the configuration
    /// never overflows.
    ///
    /// See [`WorldConfig`] for an example.
    #[must_use]
    pub fn new(gravity: Vec2<S>) -> Self {
        // Clamped first: |MIN| and the sum of two huge components overflow
        // a fixed-point type.
        let abs = |v: S| {
            if v < -S::MAX_COORD || v > S::MAX_COORD {
                S::MAX_COORD
            } else if v < S::ZERO {
                -v
            } else {
                v
            }
        };
        let size = abs(gravity.x) + abs(gravity.y);
        Self { gravity, bounce_threshold: size + size, max_substeps: 4 }
    }

    fn validate(&self) -> Result<(), WorldError> {
        if !in_safe_range(self.gravity) {
            return Err(WorldError::Velocity);
        }
        if !in_unit_range(self.bounce_threshold, S::MAX_COORD) || self.max_substeps == 0 {
            return Err(WorldError::Config);
        }
        Ok(())
    }
}

/// A body to add to the world: plain data, validated by
/// [`World::add_body`] and [`World::set_body`].
///
/// # Examples
///
/// ```
/// use fixed::types::I16F16;
/// use geom_core::world::BodyDef;
/// use geom_core::Vec2;
///
/// let mut def = BodyDef::new(Vec2::new(I16F16::ZERO, I16F16::from_num(3)), I16F16::from_num(0.5));
/// def.velocity = Vec2::new(I16F16::from_num(0.25), I16F16::ZERO);
/// def.restitution = I16F16::from_num(0.8);
/// assert_eq!(def.inverse_mass, I16F16::ONE);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyDef<S> {
    /// The centre.
    pub position: Vec2<S>,
    /// The velocity, in units per tick.
    pub velocity: Vec2<S>,
    /// The radius, at least zero.
    pub radius: S,
    /// One over the mass; zero makes the body immovable by collisions and
    /// gravity (it still moves by its own velocity).
    pub inverse_mass: S,
    /// How much of the approach speed an impact returns, from 0 (none) to 1
    /// (all).
    pub restitution: S,
}

impl<S: Scalar> BodyDef<S> {
    /// A body at rest with unit mass and no bounce.
    ///
    /// See [`BodyDef`] for an example.
    #[must_use]
    pub fn new(position: Vec2<S>, radius: S) -> Self {
        Self { position, velocity: Vec2::ZERO, radius, inverse_mass: S::ONE, restitution: S::ZERO }
    }

    fn validate(self, id: BodyId) -> Result<Body<S>, WorldError> {
        let circle = Circle::new(self.position, self.radius)?;
        if !in_safe_range(self.velocity) {
            return Err(WorldError::Velocity);
        }
        if !in_unit_range(self.inverse_mass, S::MAX_COORD) {
            return Err(WorldError::InverseMass);
        }
        if !in_unit_range(self.restitution, S::ONE) {
            return Err(WorldError::Restitution);
        }
        Ok(Body { id, circle, velocity: self.velocity, inverse_mass: self.inverse_mass, restitution: self.restitution })
    }
}

/// A dynamic circle in the world.
///
/// # Examples
///
/// ```
/// use geom_core::world::{BodyDef, World, WorldConfig};
/// use geom_core::Vec2;
///
/// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
/// let mut def = BodyDef::new(Vec2::new(1.0, 2.0), 0.5);
/// def.velocity = Vec2::new(0.25, 0.0);
/// let id = world.add_body(def)?;
/// world.step();
/// let body = world.body(id).unwrap();
/// assert_eq!((body.id(), body.position(), body.radius()), (id, Vec2::new(1.25, 2.0), 0.5));
/// assert_eq!(body.def().velocity, Vec2::new(0.25, 0.0));
/// # Ok::<(), geom_core::world::WorldError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "serde_data::BodyData<S>",
        into = "serde_data::BodyData<S>",
        bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned"
    )
)]
pub struct Body<S> {
    id: BodyId,
    circle: Circle<S>,
    velocity: Vec2<S>,
    inverse_mass: S,
    restitution: S,
}

impl<S: Scalar> Body<S> {
    /// The body's id (see [`Body`] for an example).
    #[must_use]
    pub fn id(&self) -> BodyId {
        self.id
    }

    /// The body as a circle (see [`Body`] for an example).
    #[must_use]
    pub fn circle(&self) -> Circle<S> {
        self.circle
    }

    /// The centre (see [`Body`] for an example).
    #[must_use]
    pub fn position(&self) -> Vec2<S> {
        self.circle.center()
    }

    /// The radius (see [`Body`] for an example).
    #[must_use]
    pub fn radius(&self) -> S {
        self.circle.radius()
    }

    /// The velocity, in units per tick (see [`Body`] for an example).
    #[must_use]
    pub fn velocity(&self) -> Vec2<S> {
        self.velocity
    }

    /// One over the mass (see [`Body`] for an example).
    #[must_use]
    pub fn inverse_mass(&self) -> S {
        self.inverse_mass
    }

    /// The restitution (see [`Body`] for an example).
    #[must_use]
    pub fn restitution(&self) -> S {
        self.restitution
    }

    /// The body as plain data, to edit and give back to
    /// [`World::set_body`] (see [`Body`] for an example).
    #[must_use]
    pub fn def(&self) -> BodyDef<S> {
        BodyDef {
            position: self.position(),
            velocity: self.velocity,
            radius: self.radius(),
            inverse_mass: self.inverse_mass,
            restitution: self.restitution,
        }
    }

    fn hash(&self, h: &mut SeaHasher) {
        h.write_u32(self.id.0);
        for v in [self.position().x, self.position().y, self.velocity.x, self.velocity.y] {
            h.write_u64(v.hash_bits());
        }
        for v in [self.radius(), self.inverse_mass, self.restitution] {
            h.write_u64(v.hash_bits());
        }
    }
}

/// A static collider: it never moves, and bodies collide with it.
///
/// # Examples
///
/// ```
/// use geom_core::world::Collider;
/// use geom_core::{Segment, Vec2};
///
/// let floor = Collider::Segment(Segment::new(Vec2::new(-5.0_f32, 0.0), Vec2::new(5.0, 0.0))?);
/// assert!(matches!(floor, Collider::Segment(_)));
/// # Ok::<(), geom_core::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned")
)]
pub enum Collider<S> {
    /// A line segment (a wall with no thickness).
    Segment(Segment<S>),
    /// A capsule.
    Capsule(Capsule<S>),
    /// A circle.
    Circle(Circle<S>),
}

impl<S: Scalar> Collider<S> {
    fn hash(&self, h: &mut SeaHasher) {
        let mut write = |kind: u8, values: &[S]| {
            h.write_u8(kind);
            for v in values {
                h.write_u64(v.hash_bits());
            }
        };
        match self {
            Self::Segment(s) => write(0, &[s.start().x, s.start().y, s.end().x, s.end().y]),
            Self::Capsule(c) => {
                let s = c.segment();
                write(1, &[s.start().x, s.start().y, s.end().x, s.end().y, c.radius()]);
            }
            Self::Circle(c) => write(2, &[c.center().x, c.center().y, c.radius()]),
        }
    }
}

/// The deterministic world: static colliders, dynamic circles, and the
/// step that moves them. See the [module documentation](self).
///
/// A `World` is `Clone`; cloning shares the colliders (they are
/// reference-counted and copied only when changed), so it costs one copy
/// of the bodies: [`snapshot`](World::snapshot) and
/// [`restore`](World::restore) are built on it.
///
/// With the `serde` feature a world serialises completely (tick, bodies,
/// colliders, ids still to hand out) and is validated when read back: a
/// malformed file gives an error, never an invalid world.
#[derive(Clone, Debug)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "serde_data::WorldData<S>",
        into = "serde_data::WorldData<S>",
        bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned"
    )
)]
pub struct World<S> {
    config: WorldConfig<S>,
    tick: u64,
    bodies: Vec<Body<S>>,
    colliders: Arc<Vec<(ColliderId, Collider<S>)>>,
    colliders_hash: u64,
    next_body: u32,
    next_collider: u32,
}

/// A saved world state, for rollback: see [`World::snapshot`].
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
        let mut world = Self {
            config,
            tick: 0,
            bodies: Vec::new(),
            colliders: Arc::new(Vec::new()),
            colliders_hash: 0,
            next_body: 0,
            next_collider: 0,
        };
        world.rehash_colliders();
        Ok(world)
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

    /// Adds a body, returning its id.
    ///
    /// # Errors
    ///
    /// A [`WorldError`] naming what is wrong with `def`; the world is left
    /// unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::I16F16;
    /// use geom_core::world::{BodyDef, World, WorldConfig, WorldError};
    /// use geom_core::{ShapeError, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(I16F16::ZERO, I16F16::ZERO)))?;
    /// let far = Vec2::new(I16F16::from_num(5000), I16F16::ZERO);
    /// let err = world.add_body(BodyDef::new(far, I16F16::ONE));
    /// assert_eq!(err, Err(WorldError::Shape(ShapeError::OutOfRange)));
    /// let id = world.add_body(BodyDef::new(Vec2::new(I16F16::ZERO, I16F16::ZERO), I16F16::ONE))?;
    /// assert_eq!(world.bodies().len(), 1);
    /// # let _ = id;
    /// # Ok::<(), WorldError>(())
    /// ```
    pub fn add_body(&mut self, def: BodyDef<S>) -> Result<BodyId, WorldError> {
        let id = BodyId(self.next_body);
        let body = def.validate(id)?;
        self.next_body = self.next_body.checked_add(1).ok_or(WorldError::OutOfIds)?;
        self.bodies.push(body);
        Ok(id)
    }

    /// Replaces a body's state (position, velocity, radius, mass,
    /// restitution): the way to apply a game's inputs between ticks.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownBody`], or what is wrong with `def`; the world
    /// is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let id = world.add_body(BodyDef::new(Vec2::new(0.0, 0.0), 1.0))?;
    /// let mut def = world.body(id).unwrap().def();
    /// def.velocity = Vec2::new(0.0, 2.0); // jump
    /// world.set_body(id, def)?;
    /// assert_eq!(world.body(id).unwrap().velocity(), Vec2::new(0.0, 2.0));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn set_body(&mut self, id: BodyId, def: BodyDef<S>) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        self.bodies[index] = def.validate(id)?;
        Ok(())
    }

    /// Removes a body, returning what it was.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownBody`].
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig, WorldError};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let id = world.add_body(BodyDef::new(Vec2::new(0.0, 0.0), 1.0))?;
    /// assert_eq!(world.remove_body(id)?.radius, 1.0);
    /// assert_eq!(world.remove_body(id), Err(WorldError::UnknownBody(id)));
    /// # Ok::<(), WorldError>(())
    /// ```
    pub fn remove_body(&mut self, id: BodyId) -> Result<BodyDef<S>, WorldError> {
        let index = self.body_index(id)?;
        Ok(self.bodies.remove(index).def())
    }

    /// The body with this id, if any.
    ///
    /// See [`World::add_body`] for an example.
    #[must_use]
    pub fn body(&self, id: BodyId) -> Option<&Body<S>> {
        self.body_index(id).ok().map(|i| &self.bodies[i])
    }

    /// All bodies, in id order.
    ///
    /// See [`World::add_body`] for an example.
    #[must_use]
    pub fn bodies(&self) -> &[Body<S>] {
        &self.bodies
    }

    fn body_index(&self, id: BodyId) -> Result<usize, WorldError> {
        self.bodies.binary_search_by_key(&id, |b| b.id).map_err(|_| WorldError::UnknownBody(id))
    }

    /// Adds a static collider, returning its id. Colliders are validated
    /// shapes already, so this cannot fail (but for running out of ids,
    /// which takes 2^32 additions and saturates at the last id).
    ///
    /// See [`ColliderId`] for an example.
    pub fn add_collider(&mut self, collider: Collider<S>) -> ColliderId {
        let id = ColliderId(self.next_collider);
        self.next_collider = self.next_collider.saturating_add(1);
        Arc::make_mut(&mut self.colliders).push((id, collider));
        self.rehash_colliders();
        id
    }

    /// Removes a static collider, returning it.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownCollider`].
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{Collider, World, WorldConfig};
    /// use geom_core::{Circle, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let id = world.add_collider(Collider::Circle(Circle::new(Vec2::new(0.0, 0.0), 1.0)?));
    /// assert!(world.remove_collider(id).is_ok());
    /// assert!(world.colliders().is_empty());
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn remove_collider(&mut self, id: ColliderId) -> Result<Collider<S>, WorldError> {
        let index = self.collider_index(id)?;
        let (_, collider) = Arc::make_mut(&mut self.colliders).remove(index);
        self.rehash_colliders();
        Ok(collider)
    }

    /// Replaces a static collider's shape, keeping its id (and so its place
    /// in the stepping order): the way to move a platform between ticks.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownCollider`]; the world is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{Collider, World, WorldConfig};
    /// use geom_core::{Circle, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let post = world.add_collider(Collider::Circle(Circle::new(Vec2::new(0.0, 0.0), 1.0)?));
    /// let moved = Collider::Circle(Circle::new(Vec2::new(3.0, 0.0), 1.0)?);
    /// world.set_collider(post, moved)?;
    /// assert_eq!(world.colliders(), &[(post, moved)]);
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn set_collider(&mut self, id: ColliderId, collider: Collider<S>) -> Result<(), WorldError> {
        let index = self.collider_index(id)?;
        Arc::make_mut(&mut self.colliders)[index].1 = collider;
        self.rehash_colliders();
        Ok(())
    }

    fn collider_index(&self, id: ColliderId) -> Result<usize, WorldError> {
        self.colliders.binary_search_by_key(&id, |(i, _)| *i).map_err(|_| WorldError::UnknownCollider(id))
    }

    /// All static colliders with their ids, in id order.
    ///
    /// See [`World::remove_collider`] for an example.
    #[must_use]
    pub fn colliders(&self) -> &[(ColliderId, Collider<S>)] {
        &self.colliders
    }

    fn rehash_colliders(&mut self) {
        let mut h = SeaHasher::new();
        for (id, collider) in self.colliders.iter() {
            h.write_u32(id.0);
            collider.hash(&mut h);
        }
        self.colliders_hash = h.finish();
    }

    /// A 64-bit hash of every bit of the world's state: the tick, the
    /// configuration, every body and every collider, with scalars hashed by
    /// their bits (IEEE-754 patterns for floats, raw integers for fixed
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
        let mut h = SeaHasher::new();
        h.write_u64(self.tick);
        for v in [self.config.gravity.x, self.config.gravity.y, self.config.bounce_threshold] {
            h.write_u64(v.hash_bits());
        }
        h.write_u8(self.config.max_substeps);
        h.write_u64(self.bodies.len() as u64);
        for body in &self.bodies {
            body.hash(&mut h);
        }
        h.write_u64(self.colliders_hash);
        h.finish()
    }

    /// The same world in another scalar type: every value converted by
    /// `convert`, the tick and every id kept, and the result validated as
    /// [`World::add_body`] would. Use it to replay a state in another
    /// precision, or to move a game from floats to fixed point.
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
    /// use geom_core::{ShapeError, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, -0.125)))?;
    /// let ball = world.add_body(BodyDef::new(Vec2::new(0.0, 10.0), 0.5))?;
    /// world.step();
    /// let fixed = world.convert(I16F16::saturating_from_num)?;
    /// assert_eq!(fixed.tick(), 1);
    /// assert_eq!(fixed.body(ball).unwrap().position().y, I16F16::from_num(9.875));
    ///
    /// world.add_body(BodyDef::new(Vec2::new(1.0e6, 0.0), 0.5))?; // fine in f64…
    /// let err = world.convert(I16F16::saturating_from_num).unwrap_err();
    /// assert_eq!(err, WorldError::Shape(ShapeError::OutOfRange)); // …not in I16F16
    /// # Ok::<(), WorldError>(())
    /// ```
    pub fn convert<T: Scalar>(&self, mut convert: impl FnMut(S) -> T) -> Result<World<T>, WorldError> {
        let vec = |convert: &mut dyn FnMut(S) -> T, v: Vec2<S>| Vec2::new(convert(v.x), convert(v.y));
        let config = WorldConfig {
            gravity: vec(&mut convert, self.config.gravity),
            bounce_threshold: convert(self.config.bounce_threshold),
            max_substeps: self.config.max_substeps,
        };
        config.validate()?;
        let mut bodies = Vec::with_capacity(self.bodies.len());
        for body in &self.bodies {
            let def = BodyDef {
                position: vec(&mut convert, body.position()),
                velocity: vec(&mut convert, body.velocity),
                radius: convert(body.radius()),
                inverse_mass: convert(body.inverse_mass),
                restitution: convert(body.restitution),
            };
            bodies.push(def.validate(body.id)?);
        }
        let mut colliders = Vec::with_capacity(self.colliders.len());
        for &(id, collider) in self.colliders.iter() {
            let converted = match collider {
                Collider::Segment(s) => {
                    Collider::Segment(Segment::new(vec(&mut convert, s.start()), vec(&mut convert, s.end()))?)
                }
                Collider::Capsule(c) => {
                    let s = c.segment();
                    Collider::Capsule(Capsule::new(
                        vec(&mut convert, s.start()),
                        vec(&mut convert, s.end()),
                        convert(c.radius()),
                    )?)
                }
                Collider::Circle(c) => {
                    Collider::Circle(Circle::new(vec(&mut convert, c.center()), convert(c.radius()))?)
                }
            };
            colliders.push((id, converted));
        }
        let mut world = World {
            config,
            tick: self.tick,
            bodies,
            colliders: Arc::new(colliders),
            colliders_hash: 0,
            next_body: self.next_body,
            next_collider: self.next_collider,
        };
        world.rehash_colliders();
        Ok(world)
    }

    /// Saves the whole state, for rollback: a copy of the bodies and a
    /// shared reference to the colliders.
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

    /// Returns the world to a saved state.
    ///
    /// See [`World::snapshot`] for an example.
    pub fn restore(&mut self, snapshot: &Snapshot<S>) {
        self.clone_from(&snapshot.0);
    }
}

/// Bodies and worlds as plain data for serde, validated when read back.
#[cfg(feature = "serde")]
mod serde_data {
    use alloc::sync::Arc;
    use alloc::vec::Vec;

    use super::{Body, BodyDef, BodyId, Collider, ColliderId, World, WorldConfig, WorldError};
    use crate::scalar::Scalar;

    #[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
    pub(super) struct BodyData<S> {
        id: BodyId,
        #[serde(flatten)]
        def: BodyDef<S>,
    }

    impl<S: Scalar> TryFrom<BodyData<S>> for Body<S> {
        type Error = WorldError;
        fn try_from(d: BodyData<S>) -> Result<Self, WorldError> {
            d.def.validate(d.id)
        }
    }

    impl<S: Scalar> From<Body<S>> for BodyData<S> {
        fn from(b: Body<S>) -> Self {
            Self { id: b.id, def: b.def() }
        }
    }

    #[derive(Clone, serde::Serialize, serde::Deserialize)]
    #[serde(bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned")]
    pub(super) struct WorldData<S> {
        config: WorldConfig<S>,
        tick: u64,
        bodies: Vec<Body<S>>,
        colliders: Vec<(ColliderId, Collider<S>)>,
        next_body: u32,
        next_collider: u32,
    }

    /// Whether ids are strictly increasing and below the next one to hand out.
    fn ids_in_order(ids: impl Iterator<Item = u32>, next: u32) -> bool {
        let mut previous: Option<u32> = None;
        for id in ids {
            if previous.is_some_and(|p| p >= id) || id >= next {
                return false;
            }
            previous = Some(id);
        }
        true
    }

    impl<S: Scalar> TryFrom<WorldData<S>> for World<S> {
        type Error = WorldError;
        fn try_from(d: WorldData<S>) -> Result<Self, WorldError> {
            d.config.validate()?;
            if !ids_in_order(d.bodies.iter().map(|b| b.id.0), d.next_body) {
                return Err(WorldError::Ids);
            }
            if !ids_in_order(d.colliders.iter().map(|(id, _)| id.0), d.next_collider) {
                return Err(WorldError::Ids);
            }
            let mut world = World {
                config: d.config,
                tick: d.tick,
                bodies: d.bodies,
                colliders: Arc::new(d.colliders),
                colliders_hash: 0,
                next_body: d.next_body,
                next_collider: d.next_collider,
            };
            world.rehash_colliders();
            Ok(world)
        }
    }

    impl<S: Scalar> From<World<S>> for WorldData<S> {
        fn from(w: World<S>) -> Self {
            Self {
                config: w.config,
                tick: w.tick,
                bodies: w.bodies,
                colliders: Arc::unwrap_or_clone(w.colliders),
                next_body: w.next_body,
                next_collider: w.next_collider,
            }
        }
    }
}
