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
//! [`World::step`] advances one tick:
//!
//! 1. gravity (times each body's gravity scale) is added to every body with
//!    a finite mass;
//! 2. each body moves by its velocity with continuous collision against the
//!    colliders (moving ones on the relative motion): it stops at its
//!    earliest time of impact (a swept query), bounces, slides with
//!    friction, and continues with the rest of the tick, a bounded number of
//!    times; if those run out it stops at the next impact, so nothing
//!    tunnels through a collider, whatever its speed or radius (radius 0
//!    included); a body wedged between two surfaces, or held up by two
//!    at once (the bottom of a V) and slower than a bounce, stops there;
//! 3. platforms move by their velocity;
//! 4. touching or overlapping bodies exchange mass-weighted impulses, with
//!    friction, and are pushed apart (the push-out moves are themselves
//!    swept against the colliders), then any residual overlap with a
//!    collider is pushed out the same way;
//! 5. the tick's [events](World::events) are collected: impacts, contacts
//!    that began and ended, sensor overlaps that began and ended.
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
//! - **Bounces that come to rest.** Restitution is applied to the approach
//!   speed the body had at the instant of impact (its velocity is the
//!   tick's mean, so half a tick of gravity is taken off or put back), which
//!   adds no energy; impacts slower than
//!   [`bounce_threshold`](WorldConfig::bounce_threshold) lose all their
//!   normal speed. A ball with restitution below 1 comes to rest after a
//!   bounded number of bounces, without jitter.
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
//! or as flat as it was made), no joints, no polygons, and no
//! sleeping. Bodies are swept against colliders but resolved against each
//! other where they end the tick: two small, fast bodies can pass through
//! each other. A body caught between a platform and a static collider is
//! never pushed through the static one; the platform passes over it.
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

mod body;
mod collider;
mod digest;
mod events;
mod index;
mod query;
#[cfg(feature = "serde")]
mod state;
mod step;
mod strips;
mod sync;

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use crate::query::kernel::scale;
use crate::scalar::Scalar;
use crate::shape::ShapeError;
use crate::vec2::Vec2;

pub use body::{Body, BodyDef};
pub use collider::{Collider, ColliderDef, Shape};
pub use events::{Event, EventKind};
pub use query::{Nearest, RayHit};
pub use sync::{SyncTest, sync_test};

use digest::Digest;
use index::Index;
use step::Scratch;

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

/// The stable identifier of a collider (see [`BodyId`]).
///
/// # Examples
///
/// ```
/// use geom_core::world::{World, WorldConfig};
/// use geom_core::{Circle, Vec2};
///
/// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
/// let post = world.add_collider(Circle::new(Vec2::new(1.0, 1.0), 0.5)?)?;
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

/// A body or a collider: the other side of a contact or an event, or what
/// a world query found. Colliders order before bodies.
///
/// # Examples
///
/// ```
/// use geom_core::world::{Filter, Id, World, WorldConfig};
/// use geom_core::{Circle, Vec2};
///
/// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
/// let post = world.add_collider(Circle::new(Vec2::new(0.0, 0.0), 1.0)?)?;
/// let found = world.nearest(Vec2::new(3.0, 0.0), Filter::ALL).unwrap();
/// assert_eq!(found.id, Id::Collider(post));
/// assert_eq!(found.id.collider(), Some(post));
/// assert_eq!(found.id.body(), None);
/// # Ok::<(), geom_core::world::WorldError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Id {
    /// A collider.
    Collider(ColliderId),
    /// A body.
    Body(BodyId),
}

impl Id {
    /// The body's id, if this is a body.
    ///
    /// See [`Id`] for an example.
    #[must_use]
    pub fn body(self) -> Option<BodyId> {
        match self {
            Self::Body(id) => Some(id),
            Self::Collider(_) => None,
        }
    }

    /// The collider's id, if this is a collider.
    ///
    /// See [`Id`] for an example.
    #[must_use]
    pub fn collider(self) -> Option<ColliderId> {
        match self {
            Self::Collider(id) => Some(id),
            Self::Body(_) => None,
        }
    }

    fn hash(self, h: &mut Digest) {
        match self {
            Self::Collider(id) => {
                h.write_u8(0);
                h.write_u32(id.0);
            }
            Self::Body(id) => {
                h.write_u8(1);
                h.write_u32(id.0);
            }
        }
    }
}

/// Collision layers: which bodies and colliders interact.
///
/// Each body and collider is on the layers set in `layer` and interacts
/// with the layers set in `mask`. Two of them collide (or report a sensor
/// overlap) only when each is on a layer the other interacts with:
/// `a.layer & b.mask != 0` and `b.layer & a.mask != 0`, a rule that is
/// symmetric. A world query takes a filter too, and finds what its filter
/// matches.
///
/// The default is layer 1, interacting with every layer.
///
/// # Examples
///
/// ```
/// use geom_core::world::Filter;
///
/// const PLAYERS: u32 = 1 << 1;
/// const BULLETS: u32 = 1 << 2;
/// let player = Filter { layer: PLAYERS, mask: !PLAYERS }; // players pass through each other
/// let bullet = Filter { layer: BULLETS, mask: PLAYERS };
/// assert!(player.matches(bullet) && bullet.matches(player));
/// assert!(!player.matches(player));
/// assert!(!bullet.matches(Filter::default())); // bullets only hit players
/// assert!(Filter::ALL.matches(player));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Filter {
    /// The layers this is on.
    pub layer: u32,
    /// The layers this interacts with.
    pub mask: u32,
}

impl Filter {
    /// On every layer, interacting with every layer: as a query's filter,
    /// it finds everything whose own filter is not empty.
    pub const ALL: Self = Self { layer: u32::MAX, mask: u32::MAX };

    /// Whether two filters let their owners interact (see [`Filter`]).
    ///
    /// See [`Filter`] for an example.
    #[must_use]
    pub const fn matches(self, other: Self) -> bool {
        self.layer & other.mask != 0 && other.layer & self.mask != 0
    }

    fn hash(self, h: &mut Digest) {
        h.write_u32(self.layer);
        h.write_u32(self.mask);
    }
}

impl Default for Filter {
    /// Layer 1, interacting with every layer.
    fn default() -> Self {
        Self { layer: 1, mask: u32::MAX }
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
    /// A position or radius does not make a valid shape.
    Shape(ShapeError),
    /// A velocity, an impulse or the gravity is NaN, infinite, or beyond
    /// [`Scalar::MAX_COORD`] in a component (or would make a velocity so).
    Velocity,
    /// The inverse mass is negative, NaN, or beyond [`Scalar::MAX_COORD`].
    InverseMass,
    /// The restitution is outside `[0, 1]` (or NaN).
    Restitution,
    /// The friction coefficient is negative, NaN or beyond
    /// [`Scalar::MAX_COORD`].
    Friction,
    /// The gravity scale is NaN or beyond [`Scalar::MAX_COORD`] in size.
    GravityScale,
    /// The bounce threshold is negative, NaN or beyond the safe range, or
    /// the number of substeps is zero.
    Config,
    /// No body has this id.
    UnknownBody(BodyId),
    /// No collider has this id.
    UnknownCollider(ColliderId),
    /// All 2^32 ids have been handed out.
    OutOfIds,
    /// A saved state lists ids out of order, twice, or beyond the next id
    /// to hand out, or a contact a step could not have recorded (with
    /// something that does not exist, or the wrong way round).
    Ids,
    /// A saved state is not one: its bytes do not decode as a world.
    Malformed,
    /// A saved state is in another scalar type (`I16F16` bytes read as
    /// `I32F32`, say): read it in its own type, then
    /// [`convert`](World::convert) it.
    Scalar,
    /// A saved state's checksum does not match its contents: it was
    /// altered or corrupted.
    Checksum,
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Shape(e) => write!(f, "invalid shape: {e}"),
            Self::Velocity => {
                f.write_str("a velocity, an impulse or the gravity is not finite or outside the safe range")
            }
            Self::InverseMass => f.write_str("the inverse mass is negative, not finite or outside the safe range"),
            Self::Restitution => f.write_str("the restitution is outside [0, 1]"),
            Self::Friction => f.write_str("the friction is negative, not finite or outside the safe range"),
            Self::GravityScale => f.write_str("the gravity scale is not finite or outside the safe range"),
            Self::Config => f.write_str("the bounce threshold is negative or out of range, or substeps is zero"),
            Self::UnknownBody(id) => write!(f, "no body has id {}", id.0),
            Self::UnknownCollider(id) => write!(f, "no collider has id {}", id.0),
            Self::OutOfIds => f.write_str("all ids have been handed out"),
            Self::Ids => f.write_str(
                "ids are out of order, repeated, beyond the next id, or unknown, or a contact is the wrong way round",
            ),
            Self::Malformed => f.write_str("the bytes are not a saved world"),
            Self::Scalar => f.write_str("the saved world is in another scalar type"),
            Self::Checksum => f.write_str("the saved world's checksum does not match: it was altered or corrupted"),
        }
    }
}

impl core::error::Error for WorldError {}

impl From<ShapeError> for WorldError {
    fn from(e: ShapeError) -> Self {
        Self::Shape(e)
    }
}

/// Whether `v` is a finite value within `[0, max]`.
fn in_unit_range<S: Scalar>(v: S, max: S) -> bool {
    v.is_finite() && v >= S::ZERO && v <= max
}

/// Whether `v` is NaN (`v != v`: the generic test, for every scalar type).
#[allow(clippy::eq_op)]
fn is_nan<S: Scalar>(v: S) -> bool {
    v != v
}

/// Whether `v` is finite and within `±MAX_COORD`.
fn in_range<S: Scalar>(v: S) -> bool {
    v.is_finite() && v <= S::MAX_COORD && v >= -S::MAX_COORD
}

/// Whether both components are finite and within the safe range.
fn in_safe_range<S: Scalar>(v: Vec2<S>) -> bool {
    in_range(v.x) && in_range(v.y)
}

/// Hashes scalars by their bits.
fn hash_scalars<S: Scalar>(h: &mut Digest, values: &[S]) {
    for v in values {
        h.write_u64(v.hash_bits());
    }
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
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned")
)]
pub struct WorldConfig<S> {
    /// Added to every movable body's velocity (times its gravity scale) at
    /// the start of each tick (units per tick per tick).
    pub gravity: Vec2<S>,
    /// Impacts slower than this along the normal (units per tick, measured
    /// at the instant of impact) do not bounce: the body loses its normal
    /// speed and stays against the surface. They are not reported as
    /// impact events either. A resting body meets its floor at half a tick
    /// of gravity, so this must be above that for bodies to rest without
    /// jitter; and every bounce of a ball with restitution below 1 is
    /// slower than the one before, so it comes to rest once its bounces
    /// fall below this.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub bounce_threshold: S,
    /// How many times a body may hit something and continue within one tick
    /// before it stops at its next impact.
    pub max_substeps: u8,
}

impl<S: Scalar> WorldConfig<S> {
    /// A configuration with the given gravity, a bounce threshold of twice
    /// gravity's size (`2·(|gx| + |gy|)`, four times what a resting body's
    /// impacts measure, held at [`Scalar::MAX_COORD`]) and 4 substeps.
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
        let threshold = size + size; // at most 4·MAX_COORD: no overflow
        let bounce_threshold = if threshold > S::MAX_COORD { S::MAX_COORD } else { threshold };
        Self { gravity, bounce_threshold, max_substeps: 4 }
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

    fn hash(&self, h: &mut Digest) {
        hash_scalars(h, &[self.gravity.x, self.gravity.y, self.bounce_threshold]);
        h.write_u8(self.max_substeps);
    }
}

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
    /// The pairs in contact during the last tick, ascending.
    contacts: Vec<(BodyId, Id)>,
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
        Ok(Self::assemble(config, 0, Vec::new(), Vec::new(), [0, 0], [Vec::new(), Vec::new()]))
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
        [contacts, overlaps]: [Vec<(BodyId, Id)>; 2],
    ) -> Self {
        Self {
            config,
            tick,
            bodies,
            colliders: Arc::new(colliders),
            colliders_hash: None,
            next_body,
            next_collider,
            contacts,
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
    /// assert_eq!(err, Err(WorldError::Shape(ShapeError::out_of_range(far.x))));
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
        self.index.invalidate();
        Ok(id)
    }

    /// Replaces everything about a body but its id: its shape, velocity,
    /// mass, restitution, friction, gravity scale, sensor flag, filter and
    /// tag.
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
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, -0.1)))?;
    /// let id = world.add_body(BodyDef::new(Vec2::new(0.0, 0.0), 1.0))?;
    /// let mut def = world.body(id).unwrap().def();
    /// def.gravity_scale = 0.0; // a balloon
    /// def.tag = 42; // the game's own id for it
    /// world.set_body(id, def)?;
    /// world.step();
    /// assert_eq!(world.body(id).unwrap().velocity(), Vec2::new(0.0, 0.0));
    /// assert_eq!(world.body(id).unwrap().tag(), 42);
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn set_body(&mut self, id: BodyId, def: BodyDef<S>) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        self.bodies[index] = def.validate(id)?;
        self.index.invalidate();
        Ok(())
    }

    /// Sets a body's velocity (units per tick): a game's input between
    /// ticks.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownBody`], or [`WorldError::Velocity`] for a
    /// velocity outside the safe range; the world is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig, WorldError};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let id = world.add_body(BodyDef::new(Vec2::new(0.0, 0.0), 1.0))?;
    /// world.set_velocity(id, Vec2::new(0.0, 2.0))?; // jump
    /// assert_eq!(world.body(id).unwrap().velocity(), Vec2::new(0.0, 2.0));
    /// assert_eq!(world.set_velocity(id, Vec2::new(f32::NAN, 0.0)), Err(WorldError::Velocity));
    /// assert_eq!(world.body(id).unwrap().velocity(), Vec2::new(0.0, 2.0));
    /// # Ok::<(), WorldError>(())
    /// ```
    pub fn set_velocity(&mut self, id: BodyId, velocity: Vec2<S>) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        if !in_safe_range(velocity) {
            return Err(WorldError::Velocity);
        }
        self.bodies[index].velocity = velocity;
        Ok(())
    }

    /// Applies an impulse to a body: its velocity changes by
    /// `impulse × inverse_mass` (each component rounded once), so the same
    /// impulse moves a heavy body less, and equal and opposite impulses on
    /// two bodies leave their momentum unchanged. An immovable body
    /// (inverse mass 0) does not change.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownBody`], or [`WorldError::Velocity`] when the
    /// impulse or the resulting velocity is outside the safe range; the
    /// world is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
    /// let mut heavy = BodyDef::new(Vec2::new(0.0, 0.0), 1.0);
    /// heavy.inverse_mass = 0.25; // a mass of 4
    /// let id = world.add_body(heavy)?;
    /// world.apply_impulse(id, Vec2::new(2.0, 0.0))?;
    /// assert_eq!(world.body(id).unwrap().velocity(), Vec2::new(0.5, 0.0));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn apply_impulse(&mut self, id: BodyId, impulse: Vec2<S>) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        if !in_safe_range(impulse) {
            return Err(WorldError::Velocity);
        }
        let body = &self.bodies[index];
        // Exact, then rounded once (saturating at the type's edge, beyond
        // the safe range, in fixed point): a change too large is refused,
        // never clamped.
        let change = scale(impulse, body.inverse_mass);
        if !in_safe_range(change) {
            return Err(WorldError::Velocity);
        }
        // Both within the safe range: the sum fits (three bits of
        // headroom), and is checked before it is kept.
        let velocity = body.velocity + change;
        if !in_safe_range(velocity) {
            return Err(WorldError::Velocity);
        }
        self.bodies[index].velocity = velocity;
        Ok(())
    }

    /// Moves a body to a new position, as a teleport: it is not swept, so
    /// it can pass through walls (and end inside one, to be pushed out by
    /// the next tick).
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownBody`], or [`WorldError::Shape`] for a
    /// position outside the safe range (or one that would put an end of a
    /// capsule body's core outside it); the world is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let id = world.add_body(BodyDef::new(Vec2::new(0.0, 0.0), 1.0))?;
    /// world.set_position(id, Vec2::new(10.0, 3.0))?; // respawn
    /// assert_eq!(world.body(id).unwrap().position(), Vec2::new(10.0, 3.0));
    /// assert!(world.set_position(id, Vec2::new(f32::INFINITY, 0.0)).is_err());
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn set_position(&mut self, id: BodyId, position: Vec2<S>) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        let body = &mut self.bodies[index];
        crate::shape::Circle::new(position, body.radius())?;
        if body.is_capsule() {
            // The core's ends in range too (each sum within twice it).
            let [start, end] = body.core();
            crate::shape::Capsule::new(position + start, position + end, body.radius())?;
        }
        body.place(position);
        self.index.invalidate();
        Ok(())
    }

    /// Removes a body, returning what it was. Its contacts go with it,
    /// without an event.
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
        let gone = |&(body, other): &(BodyId, Id)| body == id || other == Id::Body(id);
        self.contacts.retain(|pair| !gone(pair));
        self.overlaps.retain(|pair| !gone(pair));
        self.index.invalidate();
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
        self.bodies.binary_search_by_key(&id, Body::id).map_err(|_| WorldError::UnknownBody(id))
    }

    /// Adds a collider: a shape (a [`Segment`](crate::Segment),
    /// [`Capsule`](crate::Capsule), [`Circle`](crate::Circle) or [`Shape`])
    /// with the defaults, or a [`ColliderDef`].
    ///
    /// # Errors
    ///
    /// What is wrong with the definition (a velocity outside the safe
    /// range, a friction or restitution out of bounds), or
    /// [`WorldError::OutOfIds`]; the world is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{ColliderDef, World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, -0.1)))?;
    /// let floor = world.add_collider(Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))?)?;
    /// let mut lift = ColliderDef::new(Segment::new(Vec2::new(6.0, 0.0), Vec2::new(8.0, 0.0))?);
    /// lift.velocity = Vec2::new(0.0, 0.125); // a platform going up
    /// let lift = world.add_collider(lift)?;
    /// world.step();
    /// assert_eq!(world.collider(floor).unwrap().velocity(), Vec2::new(0.0, 0.0));
    /// let moved = world.collider(lift).unwrap().shape();
    /// assert_eq!(moved.bounds().0, Vec2::new(6.0, 0.125));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn add_collider(&mut self, def: impl Into<ColliderDef<S>>) -> Result<ColliderId, WorldError> {
        let id = ColliderId(self.next_collider);
        let collider = def.into().validate(id)?;
        self.next_collider = self.next_collider.checked_add(1).ok_or(WorldError::OutOfIds)?;
        Arc::make_mut(&mut self.colliders).push(collider);
        self.colliders_hash = None;
        self.index.invalidate();
        Ok(id)
    }

    /// Removes a collider, returning it. Its contacts go with it, without
    /// an event.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownCollider`].
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{World, WorldConfig};
    /// use geom_core::{Circle, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let id = world.add_collider(Circle::new(Vec2::new(0.0, 0.0), 1.0)?)?;
    /// assert!(world.remove_collider(id).is_ok());
    /// assert!(world.colliders().is_empty());
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn remove_collider(&mut self, id: ColliderId) -> Result<ColliderDef<S>, WorldError> {
        let index = self.collider_index(id)?;
        let removed = Arc::make_mut(&mut self.colliders).remove(index);
        self.contacts.retain(|&(_, other)| other != Id::Collider(id));
        self.overlaps.retain(|&(_, other)| other != Id::Collider(id));
        self.colliders_hash = None;
        self.index.invalidate();
        Ok(removed.def())
    }

    /// Replaces everything about a collider but its id (and so its place
    /// in the stepping order): its shape, velocity, friction, restitution,
    /// sensor flag, filter and tag.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownCollider`], or what is wrong with the
    /// definition; the world is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{Shape, World, WorldConfig};
    /// use geom_core::{Circle, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let post = world.add_collider(Circle::new(Vec2::new(0.0, 0.0), 1.0)?)?;
    /// let moved = Circle::new(Vec2::new(3.0, 0.0), 1.0)?;
    /// world.set_collider(post, moved)?;
    /// assert_eq!(world.collider(post).unwrap().shape(), Shape::Circle(moved));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn set_collider(&mut self, id: ColliderId, def: impl Into<ColliderDef<S>>) -> Result<(), WorldError> {
        let index = self.collider_index(id)?;
        let collider = def.into().validate(id)?;
        Arc::make_mut(&mut self.colliders)[index] = collider;
        self.colliders_hash = None;
        self.index.invalidate();
        Ok(())
    }

    /// Sets a collider's velocity (units per tick): a platform moves by it
    /// every tick until it is changed; zero makes the collider static.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownCollider`], or [`WorldError::Velocity`] for a
    /// velocity outside the safe range; the world is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
    /// let door = world.add_collider(Segment::new(Vec2::new(0.0, 0.0), Vec2::new(0.0, 2.0))?)?;
    /// world.set_collider_velocity(door, Vec2::new(0.0, 0.5))?; // open
    /// world.step();
    /// world.step();
    /// world.set_collider_velocity(door, Vec2::new(0.0, 0.0))?; // stop
    /// world.step();
    /// assert_eq!(world.collider(door).unwrap().shape().bounds().0, Vec2::new(0.0, 1.0));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn set_collider_velocity(&mut self, id: ColliderId, velocity: Vec2<S>) -> Result<(), WorldError> {
        let index = self.collider_index(id)?;
        if !in_safe_range(velocity) {
            return Err(WorldError::Velocity);
        }
        Arc::make_mut(&mut self.colliders)[index].velocity = velocity;
        self.colliders_hash = None;
        Ok(())
    }

    fn collider_index(&self, id: ColliderId) -> Result<usize, WorldError> {
        self.colliders.binary_search_by_key(&id, Collider::id).map_err(|_| WorldError::UnknownCollider(id))
    }

    /// The collider with this id, if any.
    ///
    /// See [`World::add_collider`] for an example.
    #[must_use]
    pub fn collider(&self, id: ColliderId) -> Option<&Collider<S>> {
        self.collider_index(id).ok().map(|i| &self.colliders[i])
    }

    /// All colliders, in id order.
    ///
    /// See [`World::remove_collider`] for an example.
    #[must_use]
    pub fn colliders(&self) -> &[Collider<S>] {
        &self.colliders
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
    /// [`sensor_overlaps`](World::sensor_overlaps)).
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
        &self.contacts
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
    /// still to hand out, the configuration, every body and every collider
    /// (with every property, tags included), and the contacts and sensor
    /// overlaps of the last
    /// tick (on which the next tick's events depend), with scalars hashed
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
        for pairs in [&self.contacts, &self.overlaps] {
            h.write_u64(pairs.len() as u64);
            for &(body, other) in pairs {
                h.write_u32(body.0);
                other.hash(&mut h);
            }
        }
        h.finish()
    }

    /// The same world in another scalar type: every value converted by
    /// `convert`, the tick, every id, flag, filter, tag and contact kept,
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
    /// assert_eq!(fixed.body(ball).unwrap().position().y, I16F16::from_num(9.875));
    ///
    /// world.add_body(BodyDef::new(Vec2::new(1.0e6, 0.0), 0.5))?; // fine in f64…
    /// let err = world.convert(I16F16::from_f64).unwrap_err(); // (saturated)
    /// assert_eq!(err, WorldError::Shape(ShapeError::out_of_range(I16F16::MAX))); // …not in I16F16
    /// # Ok::<(), WorldError>(())
    /// ```
    pub fn convert<T: Scalar>(&self, mut convert: impl FnMut(S) -> T) -> Result<World<T>, WorldError> {
        let convert: &mut dyn FnMut(S) -> T = &mut convert;
        let vec = |convert: &mut dyn FnMut(S) -> T, v: Vec2<S>| Vec2::new(convert(v.x), convert(v.y));
        let config = WorldConfig {
            gravity: vec(convert, self.config.gravity),
            bounce_threshold: convert(self.config.bounce_threshold),
            max_substeps: self.config.max_substeps,
        };
        config.validate()?;
        let mut bodies = Vec::with_capacity(self.bodies.len());
        for body in &self.bodies {
            bodies.push(body.def().convert(convert).validate(body.id())?);
        }
        let mut colliders = Vec::with_capacity(self.colliders.len());
        for collider in self.colliders.iter() {
            colliders.push(collider.def().convert(convert)?.validate(collider.id())?);
        }
        let next = [self.next_body, self.next_collider];
        Ok(World::assemble(config, self.tick, bodies, colliders, next, [self.contacts.clone(), self.overlaps.clone()]))
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
