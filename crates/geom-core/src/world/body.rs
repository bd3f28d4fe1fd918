//! Bodies: the dynamic circles and capsules of the world.

use super::digest::Digest;

use super::arith::abs;
use super::sleep::Sleep;
use super::{BodyId, Filter, Shape, WorldError, hash_scalars, in_range, in_safe_range, in_unit_range};
use crate::query::kernel::clamp_to_range;
use crate::scalar::Scalar;
use crate::shape::{Capsule, Circle, Segment, check_point};
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
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned")
)]
#[non_exhaustive]
pub struct BodyDef<S> {
    /// The centre of a circle; the point a capsule's core is given
    /// relative to.
    pub position: Vec2<S>,
    /// A capsule's core: its two end points relative to `position` (the
    /// core runs from `position + core[0]` to `position + core[1]`). Both
    /// zero, the default, make the body a circle. A capsule body never
    /// rotates: an upright player, a paddle.
    pub core: [Vec2<S>; 2],
    /// The velocity, in units per tick.
    pub velocity: Vec2<S>,
    /// The radius, at least zero (zero: a point, such as a bullet, or for
    /// a capsule a segment).
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub radius: S,
    /// One over the mass; zero makes the body immovable by collisions,
    /// impulses and gravity (it still moves by its own velocity, and still
    /// stops at colliders). Default 1.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub inverse_mass: S,
    /// How much of the approach speed an impact returns, from 0 (none,
    /// the default) to 1 (all). A contact uses the larger of the two.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub restitution: S,
    /// The friction coefficient, 0 (the default: frictionless, as suits a
    /// ball, which would roll) or more. A contact uses `√(μa·μb)`.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub friction: S,
    /// How much of the world's gravity this body feels: 1 by default, 0
    /// for none, negative to fall upwards.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
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
            core: [Vec2::ZERO; 2],
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

    /// A capsule body at rest, as [`BodyDef::new`] makes a circle: its core
    /// runs from `position + start` to `position + end`.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, -0.5)))?;
    /// // An upright player: a core 2 tall from its feet's centre, radius 0.5.
    /// let def = BodyDef::capsule(Vec2::new(0.0, 3.0), Vec2::ZERO, Vec2::new(0.0, 2.0), 0.5);
    /// let player = world.add_body(def)?;
    /// let capsule = world.body(player).unwrap().capsule();
    /// assert_eq!(capsule.segment().end(), Vec2::new(0.0, 5.0));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn capsule(position: Vec2<S>, start: Vec2<S>, end: Vec2<S>, radius: S) -> Self {
        Self { core: [start, end], ..Self::new(position, radius) }
    }

    pub(super) fn validate(self, id: BodyId) -> Result<Body<S>, WorldError> {
        let circle = Circle::new(self.position, self.radius)?;
        if self.core != [Vec2::ZERO; 2] {
            for p in self.core {
                check_point(p)?;
            }
            // Each end within the safe range (the sums cannot overflow:
            // both terms are within it).
            Capsule::new(self.position + self.core[0], self.position + self.core[1], self.radius)?;
        }
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
            core: self.core,
            velocity: self.velocity,
            inverse_mass: self.inverse_mass,
            restitution: self.restitution,
            friction: self.friction,
            gravity_scale: self.gravity_scale,
            sensor: self.sensor,
            filter: self.filter,
            tag: self.tag,
            sleep: Sleep::default(),
        })
    }

    /// Every scalar converted to another type (not yet validated).
    pub(super) fn convert<T: Scalar>(self, convert: &mut dyn FnMut(S) -> T) -> BodyDef<T> {
        let mut vector = |v: Vec2<S>| Vec2::new(convert(v.x), convert(v.y));
        BodyDef {
            position: vector(self.position),
            core: [vector(self.core[0]), vector(self.core[1])],
            velocity: vector(self.velocity),
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

/// A dynamic circle or capsule in the world.
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
    /// A capsule's core relative to the centre (both zero for a circle).
    core: [Vec2<S>; 2],
    pub(super) velocity: Vec2<S>,
    pub(super) inverse_mass: S,
    pub(super) restitution: S,
    pub(super) friction: S,
    pub(super) gravity_scale: S,
    pub(super) sensor: bool,
    pub(super) filter: Filter,
    tag: u64,
    /// Whether it sleeps, and how long it has been still.
    pub(super) sleep: Sleep,
}

impl<S: Scalar> Body<S> {
    /// The body's id (see [`Body`] for an example).
    #[must_use]
    pub fn id(&self) -> BodyId {
        self.id
    }

    /// The body's position and radius as a circle: the body itself for a
    /// circle (see [`Body`] for an example); for a capsule, see
    /// [`capsule`](Body::capsule).
    #[must_use]
    pub fn circle(&self) -> Circle<S> {
        self.circle
    }

    /// Whether the body is a capsule (see [`BodyDef::capsule`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let ball = world.add_body(BodyDef::new(Vec2::ZERO, 1.0))?;
    /// let paddle = world.add_body(BodyDef::capsule(Vec2::new(5.0, 0.0), Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.25))?;
    /// assert!(!world.body(ball).unwrap().is_capsule());
    /// assert!(world.body(paddle).unwrap().is_capsule());
    /// assert_eq!(world.body(paddle).unwrap().core(), [Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)]);
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn is_capsule(&self) -> bool {
        self.core != [Vec2::ZERO; 2]
    }

    /// A capsule's core end points relative to its position (both zero for
    /// a circle; see [`is_capsule`](Body::is_capsule) for an example).
    #[must_use]
    pub fn core(&self) -> [Vec2<S>; 2] {
        self.core
    }

    /// The body as a capsule where it is (a circle is a capsule whose core
    /// is its centre; see [`BodyDef::capsule`] for an example).
    #[must_use]
    pub fn capsule(&self) -> Capsule<S> {
        self.capsule_at(self.position())
    }

    /// The body as the world's [`Shape`]: a circle or a capsule.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, Shape, World, WorldConfig};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
    /// let ball = world.add_body(BodyDef::new(Vec2::ZERO, 1.0))?;
    /// assert!(matches!(world.body(ball).unwrap().shape(), Shape::Circle(_)));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn shape(&self) -> Shape<S> {
        if self.is_capsule() { Shape::Capsule(self.capsule()) } else { Shape::Circle(self.circle) }
    }

    /// The body's capsule with its position at `position` (which keeps the
    /// core in the safe range: see [`Body::place`]).
    pub(super) fn capsule_at(&self, position: Vec2<S>) -> Capsule<S> {
        let [start, end] = self.core;
        Capsule::new_unchecked(Segment::new_unchecked(position + start, position + end), self.radius())
    }

    /// Moves the body to `position`, held where it and its whole core stay
    /// in the safe range (for a circle: the centre clamped into it). A
    /// position whose core's ends, rounded as [`Body::capsule`] rounds
    /// them, are in range is kept as it is.
    pub(super) fn place(&mut self, position: Vec2<S>) {
        let [start, end] = self.core;
        // Each sum within twice the range once `position` is in it.
        let fits = |p: Vec2<S>| in_safe_range(p) && in_safe_range(p + start) && in_safe_range(p + end);
        let position = if !self.is_capsule() {
            clamp_to_range(position)
        } else if fits(position) {
            position
        } else {
            let hold = |v: S, a: S, b: S| {
                // The offsets of the core's ends and of the position itself.
                let (low, high) = if a < b { (a, b) } else { (b, a) };
                let (low, high) =
                    (if low < S::ZERO { low } else { S::ZERO }, if high > S::ZERO { high } else { S::ZERO });
                // Both bounds within ±MAX_COORD (`low ≤ 0 ≤ high`): no
                // overflow; and `least ≤ most`, since the core fits in the
                // range.
                let (least, most) = (-S::MAX_COORD - low, S::MAX_COORD - high);
                if v < least {
                    least
                } else if v > most {
                    most
                } else {
                    v
                }
            };
            Vec2::new(hold(position.x, start.x, end.x), hold(position.y, start.y, end.y))
        };
        self.circle = Circle::new_unchecked(position, self.radius());
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

    /// Whether the body sleeps: it and everything it touches have been
    /// still for [`WorldConfig::sleep_ticks`](super::WorldConfig::sleep_ticks)
    /// ticks, so it is not stepped (and stays exactly where it is) until an
    /// awake body or a moving collider touches its island or an input
    /// reaches one of its bodies.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, -0.05)))?;
    /// world.add_collider(Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))?)?;
    /// let ball = world.add_body(BodyDef::new(Vec2::new(0.0, 0.5), 0.5))?;
    /// for _ in 0..40 {
    ///     world.step();
    /// }
    /// assert!(world.body(ball).unwrap().is_sleeping());
    /// world.set_velocity(ball, Vec2::new(0.0, 1.0))?; // a jump wakes it
    /// assert!(!world.body(ball).unwrap().is_sleeping());
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn is_sleeping(&self) -> bool {
        self.sleep.island.is_some()
    }

    /// The body as plain data, to edit and give back to
    /// [`World::set_body`](super::World::set_body) (see [`Body`] for an
    /// example).
    #[must_use]
    pub fn def(&self) -> BodyDef<S> {
        BodyDef {
            position: self.position(),
            core: self.core,
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

    /// The shape the body collides with colliders as: itself, but with a
    /// radius of at least four rounding steps of its coordinates (four
    /// steps of a fixed-point type's resolution; for floats, 256 of their
    /// rounding steps at the body's distance from the origin, above the
    /// kernels' own rounding). A body's travel to an impact is rounded a
    /// step away from what it hits, which can bring it a step towards
    /// something else: a point sliding along a zero-thickness wall could be
    /// rounded through it, and a body this wide cannot.
    pub(super) fn solid(&self) -> Shape<S> {
        let step = S::TIME_STEP;
        let least = if S::FORMAT.float {
            // A float's rounding step grows with the distance from the
            // origin: at a capsule's farther end, the larger.
            let size = |p: Vec2<S>| S::ONE + abs(p.x) + abs(p.y);
            let p = self.position();
            let [start, end] = self.core;
            let (a, b) = (size(p + start), size(p + end));
            let far = if self.is_capsule() { if a > b { a } else { b } } else { size(p) };
            far * step * S::from(64_i8) * S::from(4_i8)
        } else {
            step + step + step + step
        };
        let radius = if self.radius() >= least { self.radius() } else { least };
        if self.is_capsule() {
            let capsule = self.capsule();
            Shape::Capsule(Capsule::new_unchecked(capsule.segment(), radius))
        } else {
            Shape::Circle(Circle::new_unchecked(self.position(), radius))
        }
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
        if self.is_capsule() {
            let [start, end] = self.core;
            hash_scalars(h, &[start.x, start.y, end.x, end.y]);
        }
        h.write_u32(u32::from(self.sleep.still));
        match self.sleep.island {
            Some(island) => {
                h.write_u8(1);
                h.write_u32(island.0);
            }
            None => h.write_u8(0),
        }
    }
}
