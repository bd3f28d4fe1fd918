//! Colliders: the static and moving shapes bodies collide with.

use super::aabb::rounding_margin;
use super::arith::dot;
use super::digest::Digest;

use super::{Body, ColliderId, Filter, WorldError, hash_scalars, in_safe_range, in_unit_range};
use crate::query::kernel::clamp_to_range;
use crate::scalar::Scalar;
use crate::shape::{Capsule, Circle, Segment, ShapeError};
use crate::vec2::Vec2;

/// The shape of a collider.
///
/// Every shape converts into a [`ColliderDef`] with the defaults, so a
/// shape can be handed to [`World::add_collider`](super::World::add_collider)
/// as it is.
///
/// # Examples
///
/// ```
/// use geom_core::world::Shape;
/// use geom_core::{Segment, Vec2};
///
/// let floor: Shape<f32> = Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))?.into();
/// assert!(matches!(floor, Shape::Segment(_)));
/// # Ok::<(), geom_core::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned")
)]
pub enum Shape<S> {
    /// A line segment (a wall with no thickness).
    Segment(Segment<S>),
    /// A capsule.
    Capsule(Capsule<S>),
    /// A circle.
    Circle(Circle<S>),
}

impl<S: Scalar> Shape<S> {
    /// The corners of the shape's bounding box: the smallest and the
    /// largest coordinates of any of its points.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::Shape;
    /// use geom_core::{Capsule, Vec2};
    ///
    /// let pill = Shape::Capsule(Capsule::new(Vec2::new(0.0_f64, 0.0), Vec2::new(4.0, 1.0), 0.5)?);
    /// assert_eq!(pill.bounds(), (Vec2::new(-0.5, -0.5), Vec2::new(4.5, 1.5)));
    /// # Ok::<(), geom_core::ShapeError>(())
    /// ```
    #[must_use]
    pub fn bounds(&self) -> (Vec2<S>, Vec2<S>) {
        let r = self.radius();
        let (low, high) = self.core_bounds();
        (Vec2::new(low.x - r, low.y - r), Vec2::new(high.x + r, high.y + r))
    }

    /// The shape's radius (zero for a segment).
    pub(crate) fn radius(&self) -> S {
        match self {
            Self::Segment(_) => S::ZERO,
            Self::Capsule(c) => c.radius(),
            Self::Circle(c) => c.radius(),
        }
    }

    /// The shape as a capsule, the same points: a segment of radius zero,
    /// or a circle whose core is its centre (see the `From` conversions of
    /// [`Capsule`]). Every query that takes a capsule then takes any shape.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::Shape;
    /// use geom_core::{Capsule, Circle, Segment, Vec2};
    ///
    /// let ledge: Shape<f32> = Segment::new(Vec2::new(0.0, 1.0), Vec2::new(4.0, 1.0))?.into();
    /// assert_eq!(ledge.as_capsule(), Capsule::new(Vec2::new(0.0, 1.0), Vec2::new(4.0, 1.0), 0.0)?);
    /// let ball: Shape<f32> = Circle::new(Vec2::new(2.0, 3.0), 0.5)?.into();
    /// assert_eq!(ball.as_capsule(), Capsule::new(Vec2::new(2.0, 3.0), Vec2::new(2.0, 3.0), 0.5)?);
    /// # Ok::<(), geom_core::ShapeError>(())
    /// ```
    #[must_use]
    pub fn as_capsule(&self) -> Capsule<S> {
        match self {
            Self::Segment(s) => Capsule::from(*s),
            Self::Capsule(c) => *c,
            Self::Circle(c) => Capsule::from(*c),
        }
    }

    /// The corners of the box around the shape's core points (its ends or
    /// centre), without the radius.
    pub(super) fn core_bounds(&self) -> (Vec2<S>, Vec2<S>) {
        let (a, b) = match self {
            Self::Segment(s) => (s.start(), s.end()),
            Self::Capsule(c) => (c.segment().start(), c.segment().end()),
            Self::Circle(c) => (c.center(), c.center()),
        };
        let order = |u: S, v: S| if u < v { (u, v) } else { (v, u) };
        let ((x0, x1), (y0, y1)) = (order(a.x, b.x), order(a.y, b.y));
        (Vec2::new(x0, y0), Vec2::new(x1, y1))
    }

    /// The shape moved by `offset`, or `None` if that takes it out of the
    /// safe range.
    pub(super) fn translated(&self, offset: Vec2<S>) -> Option<Self> {
        let moved = |p: Vec2<S>| {
            let q = p + offset;
            (clamp_to_range(q) == q).then_some(q)
        };
        Some(match self {
            Self::Segment(s) => Self::Segment(Segment::new(moved(s.start())?, moved(s.end())?).ok()?),
            Self::Capsule(c) => {
                let s = c.segment();
                Self::Capsule(Capsule::new(moved(s.start())?, moved(s.end())?, c.radius()).ok()?)
            }
            Self::Circle(c) => Self::Circle(Circle::new(moved(c.center())?, c.radius()).ok()?),
        })
    }

    /// Every scalar converted to another type, validated.
    fn convert<T: Scalar>(self, convert: &mut dyn FnMut(S) -> T) -> Result<Shape<T>, ShapeError> {
        let mut vec = |v: Vec2<S>| Vec2::new(convert(v.x), convert(v.y));
        Ok(match self {
            Self::Segment(s) => Shape::Segment(Segment::new(vec(s.start()), vec(s.end()))?),
            Self::Capsule(c) => {
                let s = c.segment();
                let (start, end) = (vec(s.start()), vec(s.end()));
                Shape::Capsule(Capsule::new(start, end, convert(c.radius()))?)
            }
            Self::Circle(c) => {
                let center = vec(c.center());
                Shape::Circle(Circle::new(center, convert(c.radius()))?)
            }
        })
    }

    fn hash(&self, h: &mut Digest) {
        match self {
            Self::Segment(s) => {
                h.write_u8(0);
                hash_scalars(h, &[s.start().x, s.start().y, s.end().x, s.end().y]);
            }
            Self::Capsule(c) => {
                let s = c.segment();
                h.write_u8(1);
                hash_scalars(h, &[s.start().x, s.start().y, s.end().x, s.end().y, c.radius()]);
            }
            Self::Circle(c) => {
                h.write_u8(2);
                hash_scalars(h, &[c.center().x, c.center().y, c.radius()]);
            }
        }
    }
}

impl<S> From<Segment<S>> for Shape<S> {
    fn from(s: Segment<S>) -> Self {
        Self::Segment(s)
    }
}

impl<S> From<Capsule<S>> for Shape<S> {
    fn from(c: Capsule<S>) -> Self {
        Self::Capsule(c)
    }
}

impl<S> From<Circle<S>> for Shape<S> {
    fn from(c: Circle<S>) -> Self {
        Self::Circle(c)
    }
}

/// A collider to add to the world: plain data, validated by
/// [`World::add_collider`](super::World::add_collider) and
/// [`World::set_collider`](super::World::set_collider).
///
/// # Examples
///
/// ```
/// use geom_core::world::{ColliderDef, Filter};
/// use geom_core::{Capsule, Vec2};
///
/// let mut paddle = ColliderDef::new(Capsule::new(Vec2::new(-1.0_f32, 0.0), Vec2::new(1.0, 0.0), 0.25)?);
/// paddle.velocity = Vec2::new(0.5, 0.0); // a moving platform
/// paddle.restitution = 1.0;
/// assert_eq!((paddle.friction, paddle.sensor, paddle.filter, paddle.tag), (0.0, false, Filter::default(), 0));
/// # Ok::<(), geom_core::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned")
)]
#[non_exhaustive]
pub struct ColliderDef<S> {
    /// The shape, where it is now.
    pub shape: Shape<S>,
    /// How far it moves every tick (a moving platform); zero, the default,
    /// for a static collider.
    pub velocity: Vec2<S>,
    /// The friction coefficient, 0 (the default) or more (see
    /// [`BodyDef::friction`](super::BodyDef::friction)).
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub friction: S,
    /// The restitution, from 0 (the default) to 1; a contact uses the
    /// larger of the body's and the collider's.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub restitution: S,
    /// A sensor reports overlaps (as events) but never pushes.
    pub sensor: bool,
    /// Which layers it is on and interacts with.
    pub filter: Filter,
    /// The game's own number for it, kept and saved with the collider (and
    /// part of the checksum), never read by the world.
    pub tag: u64,
    /// A one-way collider (a platform to jump up through and land on):
    /// the direction of its solid side, `up` for a platform; `None`, the
    /// default, for a collider solid from every side. Any non-zero length.
    ///
    /// It blocks a body only where they meet along a normal (from the
    /// collider towards the body) with a positive component along this
    /// direction, and only while the body is not already inside it (by
    /// more than a few rounding steps): a body moving up through it passes,
    /// one that comes down onto it lands, at any speed (the sweep is as
    /// exact as against any collider), and one that is part-way through
    /// when it turns back falls through. A body meeting its side or its
    /// underside passes. Sensors and the world's queries (ray casts,
    /// overlaps, nearest) see its whole shape; the character controller
    /// treats it as the step does.
    pub one_way: Option<Vec2<S>>,
}

impl<S: Scalar> ColliderDef<S> {
    /// A static, frictionless, bounceless collider with the default filter
    /// and tag 0.
    ///
    /// See [`ColliderDef`] for an example.
    #[must_use]
    pub fn new(shape: impl Into<Shape<S>>) -> Self {
        Self {
            shape: shape.into(),
            velocity: Vec2::ZERO,
            friction: S::ZERO,
            restitution: S::ZERO,
            sensor: false,
            filter: Filter::default(),
            tag: 0,
            one_way: None,
        }
    }

    pub(super) fn validate(self, id: ColliderId) -> Result<Collider<S>, WorldError> {
        if !in_safe_range(self.velocity) {
            return Err(WorldError::Velocity);
        }
        if !in_unit_range(self.friction, S::MAX_COORD) {
            return Err(WorldError::Friction);
        }
        if !in_unit_range(self.restitution, S::ONE) {
            return Err(WorldError::Restitution);
        }
        if self.one_way.is_some_and(|up| up == Vec2::ZERO || !in_safe_range(up)) {
            return Err(WorldError::OneWay);
        }
        Ok(Collider {
            id,
            shape: self.shape,
            velocity: self.velocity,
            friction: self.friction,
            restitution: self.restitution,
            sensor: self.sensor,
            filter: self.filter,
            tag: self.tag,
            one_way: self.one_way,
        })
    }

    /// Every scalar converted to another type (the shape validated, the
    /// rest not yet).
    pub(super) fn convert<T: Scalar>(self, convert: &mut dyn FnMut(S) -> T) -> Result<ColliderDef<T>, WorldError> {
        Ok(ColliderDef {
            shape: self.shape.convert(convert)?,
            velocity: Vec2::new(convert(self.velocity.x), convert(self.velocity.y)),
            friction: convert(self.friction),
            restitution: convert(self.restitution),
            sensor: self.sensor,
            filter: self.filter,
            tag: self.tag,
            one_way: self.one_way.map(|v| Vec2::new(convert(v.x), convert(v.y))),
        })
    }
}

impl<S: Scalar, T: Into<Shape<S>>> From<T> for ColliderDef<S> {
    fn from(shape: T) -> Self {
        Self::new(shape)
    }
}

/// A collider in the world.
///
/// # Examples
///
/// ```
/// use geom_core::world::{Filter, Shape, World, WorldConfig};
/// use geom_core::{Circle, Vec2};
///
/// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
/// let post = Circle::new(Vec2::new(1.0, 1.0), 0.5)?;
/// let id = world.add_collider(post)?;
/// let collider = world.collider(id).unwrap();
/// assert_eq!((collider.id(), collider.shape()), (id, Shape::Circle(post)));
/// assert_eq!((collider.velocity(), collider.friction(), collider.restitution()), (Vec2::new(0.0, 0.0), 0.0, 0.0));
/// assert_eq!((collider.is_sensor(), collider.filter(), collider.tag()), (false, Filter::default(), 0));
/// assert_eq!(collider.def().shape, Shape::Circle(post));
/// # Ok::<(), geom_core::world::WorldError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collider<S> {
    id: ColliderId,
    pub(super) shape: Shape<S>,
    pub(super) velocity: Vec2<S>,
    pub(super) friction: S,
    pub(super) restitution: S,
    pub(super) sensor: bool,
    pub(super) filter: Filter,
    tag: u64,
    pub(super) one_way: Option<Vec2<S>>,
}

impl<S: Scalar> Collider<S> {
    /// The collider's id (see [`Collider`] for an example).
    #[must_use]
    pub fn id(&self) -> ColliderId {
        self.id
    }

    /// Its shape, where it is now (see [`Collider`] for an example).
    #[must_use]
    pub fn shape(&self) -> Shape<S> {
        self.shape
    }

    /// How far it moves every tick (see [`Collider`] for an example).
    #[must_use]
    pub fn velocity(&self) -> Vec2<S> {
        self.velocity
    }

    /// The friction coefficient (see [`Collider`] for an example).
    #[must_use]
    pub fn friction(&self) -> S {
        self.friction
    }

    /// The restitution (see [`Collider`] for an example).
    #[must_use]
    pub fn restitution(&self) -> S {
        self.restitution
    }

    /// Whether it is a sensor (see [`Collider`] for an example).
    #[must_use]
    pub fn is_sensor(&self) -> bool {
        self.sensor
    }

    /// Its layers (see [`Collider`] for an example).
    #[must_use]
    pub fn filter(&self) -> Filter {
        self.filter
    }

    /// The game's tag (see [`Collider`] for an example).
    #[must_use]
    pub fn tag(&self) -> u64 {
        self.tag
    }

    /// The direction of its solid side if it is one-way (see
    /// [`ColliderDef::one_way`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{ColliderDef, World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, -0.1)))?;
    /// let mut ledge = ColliderDef::new(Segment::new(Vec2::new(-2.0, 3.0), Vec2::new(2.0, 3.0))?);
    /// ledge.one_way = Some(Vec2::new(0.0, 1.0));
    /// let id = world.add_collider(ledge)?;
    /// assert_eq!(world.collider(id).unwrap().one_way(), Some(Vec2::new(0.0, 1.0)));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn one_way(&self) -> Option<Vec2<S>> {
        self.one_way
    }

    /// Whether it blocks `body` meeting it along `normal` (from the
    /// collider towards the body) and overlapping it by `depth`, a body
    /// within two rounding margins of touching not being inside it (see
    /// [`ColliderDef::one_way`]). The margin is worked out for one-way
    /// colliders only: every other collider blocks.
    pub(super) fn blocks(&self, body: &Body<S>, normal: Vec2<S>, depth: S) -> bool {
        self.one_way.is_none_or(|up| {
            let margin = rounding_margin(body);
            depth <= margin + margin && dot(normal, up) > S::ZERO
        })
    }

    /// The collider as plain data, to edit and give back to
    /// [`World::set_collider`](super::World::set_collider) (see
    /// [`Collider`] for an example).
    #[must_use]
    pub fn def(&self) -> ColliderDef<S> {
        ColliderDef {
            shape: self.shape,
            velocity: self.velocity,
            friction: self.friction,
            restitution: self.restitution,
            sensor: self.sensor,
            filter: self.filter,
            tag: self.tag,
            one_way: self.one_way,
        }
    }

    pub(super) fn hash(&self, h: &mut Digest) {
        h.write_u32(self.id.0);
        self.shape.hash(h);
        hash_scalars(h, &[self.velocity.x, self.velocity.y, self.friction, self.restitution]);
        h.write_u8(u8::from(self.sensor));
        self.filter.hash(h);
        h.write_u64(self.tag);
        // Only when set, so that the checksums of worlds without one-way
        // colliders stay what they were.
        if let Some(up) = self.one_way {
            h.write_u8(0xff);
            hash_scalars(h, &[up.x, up.y]);
        }
    }
}
