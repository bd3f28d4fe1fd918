//! Bodies: the dynamic circles of the world.

use super::digest::Digest;

use super::step::abs;
use super::{BodyId, Filter, WorldError, hash_scalars, in_range, in_safe_range, in_unit_range};
use crate::scalar::Scalar;
use crate::shape::Circle;
use crate::vec2::Vec2;

/// A body to add to the world: plain data, validated by
/// [`World::add_body`](super::World::add_body) and
/// [`World::set_body`](super::World::set_body).
///
/// Build one with [`BodyDef::new`] and set the fields that differ from the
/// defaults.
///
/// # Examples
///
/// ```
/// use fixed::types::I16F16;
/// use geom_core::world::{BodyDef, Filter};
/// use geom_core::Vec2;
///
/// let mut def = BodyDef::new(Vec2::new(I16F16::ZERO, I16F16::from_num(3)), I16F16::from_num(0.5));
/// def.velocity = Vec2::new(I16F16::from_num(0.25), I16F16::ZERO);
/// def.restitution = I16F16::from_num(0.8);
/// def.friction = I16F16::from_num(0.5);
/// def.tag = 7;
/// assert_eq!(def.inverse_mass, I16F16::ONE);
/// assert_eq!((def.gravity_scale, def.sensor, def.filter), (I16F16::ONE, false, Filter::default()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct BodyDef<S> {
    /// The centre.
    pub position: Vec2<S>,
    /// The velocity, in units per tick.
    pub velocity: Vec2<S>,
    /// The radius, at least zero (zero: a point, such as a bullet).
    pub radius: S,
    /// One over the mass; zero makes the body immovable by collisions,
    /// impulses and gravity (it still moves by its own velocity, and still
    /// stops at colliders). Default 1.
    pub inverse_mass: S,
    /// How much of the approach speed an impact returns, from 0 (none,
    /// the default) to 1 (all). A contact uses the larger of the two.
    pub restitution: S,
    /// The friction coefficient, 0 (the default: frictionless, as suits a
    /// ball, which would roll) or more. A contact uses `√(μa·μb)`.
    pub friction: S,
    /// How much of the world's gravity this body feels: 1 by default, 0
    /// for none, negative to fall upwards.
    pub gravity_scale: S,
    /// A sensor reports overlaps (as events) but never pushes or is
    /// pushed: it moves by its velocity through everything.
    pub sensor: bool,
    /// Which layers it is on and interacts with.
    pub filter: Filter,
    /// The game's own number for it, kept and saved with the body (and
    /// part of the checksum), never read by the world.
    pub tag: u64,
}

impl<S: Scalar> BodyDef<S> {
    /// A body at rest with unit mass, no bounce, no friction, full
    /// gravity, the default filter and tag 0.
    ///
    /// See [`BodyDef`] for an example.
    #[must_use]
    pub fn new(position: Vec2<S>, radius: S) -> Self {
        Self {
            position,
            velocity: Vec2::ZERO,
            radius,
            inverse_mass: S::ONE,
            restitution: S::ZERO,
            friction: S::ZERO,
            gravity_scale: S::ONE,
            sensor: false,
            filter: Filter::default(),
            tag: 0,
        }
    }

    pub(super) fn validate(self, id: BodyId) -> Result<Body<S>, WorldError> {
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
        if !in_unit_range(self.friction, S::MAX_COORD) {
            return Err(WorldError::Friction);
        }
        if !in_range(self.gravity_scale) {
            return Err(WorldError::GravityScale);
        }
        Ok(Body {
            id,
            circle,
            velocity: self.velocity,
            inverse_mass: self.inverse_mass,
            restitution: self.restitution,
            friction: self.friction,
            gravity_scale: self.gravity_scale,
            sensor: self.sensor,
            filter: self.filter,
            tag: self.tag,
        })
    }

    /// Every scalar converted to another type (not yet validated).
    pub(super) fn convert<T: Scalar>(self, convert: &mut dyn FnMut(S) -> T) -> BodyDef<T> {
        BodyDef {
            position: Vec2::new(convert(self.position.x), convert(self.position.y)),
            velocity: Vec2::new(convert(self.velocity.x), convert(self.velocity.y)),
            radius: convert(self.radius),
            inverse_mass: convert(self.inverse_mass),
            restitution: convert(self.restitution),
            friction: convert(self.friction),
            gravity_scale: convert(self.gravity_scale),
            sensor: self.sensor,
            filter: self.filter,
            tag: self.tag,
        }
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
/// assert_eq!((body.inverse_mass(), body.restitution(), body.friction()), (1.0, 0.0, 0.0));
/// assert_eq!((body.gravity_scale(), body.is_sensor(), body.tag()), (1.0, false, 0));
/// assert_eq!(body.filter(), def.filter);
/// # Ok::<(), geom_core::world::WorldError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body<S> {
    id: BodyId,
    pub(super) circle: Circle<S>,
    pub(super) velocity: Vec2<S>,
    pub(super) inverse_mass: S,
    pub(super) restitution: S,
    pub(super) friction: S,
    pub(super) gravity_scale: S,
    pub(super) sensor: bool,
    pub(super) filter: Filter,
    tag: u64,
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

    /// The friction coefficient (see [`Body`] for an example).
    #[must_use]
    pub fn friction(&self) -> S {
        self.friction
    }

    /// The gravity scale (see [`Body`] for an example).
    #[must_use]
    pub fn gravity_scale(&self) -> S {
        self.gravity_scale
    }

    /// Whether the body is a sensor (see [`Body`] for an example).
    #[must_use]
    pub fn is_sensor(&self) -> bool {
        self.sensor
    }

    /// The body's layers (see [`Body`] for an example).
    #[must_use]
    pub fn filter(&self) -> Filter {
        self.filter
    }

    /// The game's tag (see [`Body`] for an example).
    #[must_use]
    pub fn tag(&self) -> u64 {
        self.tag
    }

    /// The body as plain data, to edit and give back to
    /// [`World::set_body`](super::World::set_body) (see [`Body`] for an
    /// example).
    #[must_use]
    pub fn def(&self) -> BodyDef<S> {
        BodyDef {
            position: self.position(),
            velocity: self.velocity,
            radius: self.radius(),
            inverse_mass: self.inverse_mass,
            restitution: self.restitution,
            friction: self.friction,
            gravity_scale: self.gravity_scale,
            sensor: self.sensor,
            filter: self.filter,
            tag: self.tag,
        }
    }

    /// The circle the body collides with colliders as: itself, but with a
    /// radius of at least four rounding steps of its coordinates (four
    /// steps of a fixed-point type's resolution; for floats, 256 of their
    /// rounding steps at the body's distance from the origin, above the
    /// kernels' own rounding). A body's travel to an impact is rounded a
    /// step away from what it hits, which can bring it a step towards
    /// something else: a point sliding along a zero-thickness wall could be
    /// rounded through it, and a body this wide cannot.
    pub(super) fn solid(&self) -> Circle<S> {
        let step = S::TIME_STEP;
        let least = if S::FORMAT.float {
            // A float's rounding step grows with the distance from the origin.
            let p = self.position();
            (S::ONE + abs(p.x) + abs(p.y)) * step * S::from(64_i8) * S::from(4_i8)
        } else {
            step + step + step + step
        };
        if self.radius() >= least {
            return self.circle;
        }
        Circle::new(self.position(), least).unwrap_or(self.circle)
    }

    pub(super) fn hash(&self, h: &mut Digest) {
        h.write_u32(self.id.0);
        let (p, v) = (self.position(), self.velocity);
        hash_scalars(
            h,
            &[
                p.x,
                p.y,
                v.x,
                v.y,
                self.radius(),
                self.inverse_mass,
                self.restitution,
                self.friction,
                self.gravity_scale,
            ],
        );
        h.write_u8(u8::from(self.sensor));
        self.filter.hash(h);
        h.write_u64(self.tag);
    }
}
