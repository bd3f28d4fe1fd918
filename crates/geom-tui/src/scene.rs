//! Scenes: what the sandbox loads and saves, in a human-editable TOML
//! format, with every value in `f64` so one file serves every scalar type.
//!
//! ```toml
//! gravity = [0.0, -0.015625]   # units per tick per tick
//! # bounce_threshold = 0.0625  # optional: impacts slower than this stop
//! # max_substeps = 4           # optional
//! # scalar = "I32F32"          # optional: the precision to open in
//!
//! [[collider]]                 # static: segment, capsule or circle
//! shape = "segment"
//! start = [-10.0, 0.0]
//! end = [10.0, 0.0]
//!
//! [[collider]]
//! shape = "capsule"
//! start = [-4.0, 4.0]
//! end = [4.0, 5.0]
//! radius = 0.5
//!
//! [[collider]]                 # a platform: moves by its velocity every tick
//! shape = "segment"
//! start = [6.0, 0.0]
//! end = [9.0, 0.0]
//! velocity = [0.0, 0.03125]    # optional, units per tick (default 0: static)
//! friction = 1.0               # optional, 0 or more (default 0)
//!
//! [[collider]]                 # a sensor: reports overlaps, never pushes
//! shape = "circle"
//! center = [0.0, 12.0]
//! radius = 2.0
//! sensor = true                # optional (default false)
//!
//! [[body]]                     # a moving circle
//! position = [0.0, 8.0]
//! radius = 0.5
//! velocity = [0.25, 0.0]       # optional, units per tick (default 0)
//! restitution = 0.5            # optional, 0 to 1 (default 0)
//! inverse_mass = 1.0           # optional, 0 = immovable (default 1)
//! friction = 0.5               # optional, 0 or more (default 0)
//! gravity_scale = 1.0          # optional (default 1)
//! layer = 1                    # optional: the layers it is on (default 1)
//! mask = 0xffffffff            # optional: the layers it meets (default all)
//! tag = 7                      # optional: the game's own number (default 0)
//!
//! [[body]]                     # a moving capsule: an upright player
//! shape = "capsule"            # optional: "circle" (the default) or "capsule"
//! position = [4.0, 8.0]
//! start = [0.0, 0.0]           # the core's ends, RELATIVE to `position`:
//! end = [0.0, 1.5]             # here from (4, 8) up to (4, 9.5)
//! radius = 0.5
//! ```
//!
//! Colliders take `restitution`, `friction`, `sensor`, `layer`, `mask`
//! and `tag` too, and bodies `sensor`. Two things collide (or report a
//! sensor overlap) only when each is on a layer the other's mask has. A
//! tag is an integer from 0 to 2⁶³ − 1 (TOML's integers are signed).
//!
//! A body is a circle unless it says `shape = "capsule"`; a capsule body
//! needs `start` and `end`, its core's end points **relative to its
//! `position`** (a collider's are absolute), so the core moves with the
//! body, which never rotates. A circle body takes no `start` or `end`, and
//! a capsule whose `start` and `end` are both `[0, 0]` is a circle (and is
//! saved as one).
//!
//! Colliders and bodies get their ids in the order they are listed. A value
//! the file's own rules refuse (a negative radius, a restitution above 1, a
//! NaN) is an error naming its line; so is a value outside the chosen
//! scalar type's safe range when the scene is built.
//!
//! # Limits
//!
//! Any file may be handed to the sandbox, so reading one is bounded: a scene
//! file has at most [`MAX_FILE_BYTES`] bytes of UTF-8 text and at most
//! [`MAX_TOKENS`] TOML tokens, and a scene at most [`MAX_BODIES`] bodies
//! and [`MAX_COLLIDERS`] colliders. Each is checked before the memory it
//! guards is spent, and each refusal is a [`SceneError`] saying which limit
//! and where, never a panic.

use core::fmt;
use core::ops::Range;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

use geom_core::Vec2;
use geom_core::world::{self, BodyDef, Collider, ColliderDef, Filter, World, WorldConfig, WorldError};
use geom_core::{Capsule, Circle, Segment};
use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::num::{SandboxScalar, ScalarKind};

/// The scene the sandbox opens with no file given: a fast ball that would
/// tunnel through a thin wall without swept tests, balls resting on and
/// bouncing off segments and capsules, balls colliding, and a point (a body
/// of radius 0) landing on a segment.
pub const DEFAULT_SCENE: &str = include_str!("../scenes/default.toml");

/// The largest scene file [`Scene::load`] reads, and the longest text
/// [`Scene::parse`] reads: 16 MiB. A scene at the body and collider limits
/// saved with every number at full `f64` precision takes under 3 MiB.
///
/// # Examples
///
/// ```
/// use geom_tui::scene::{MAX_FILE_BYTES, Scene, SceneErrorKind};
///
/// let huge = " ".repeat(usize::try_from(MAX_FILE_BYTES).unwrap() + 1);
/// let err = Scene::parse(&huge).unwrap_err();
/// assert_eq!(err.kind, SceneErrorKind::TooLarge { size: Some(MAX_FILE_BYTES + 1) });
/// ```
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// The most TOML tokens (keys, values, punctuation, runs of whitespace,
/// comments and line breaks) a scene's text may hold: 2²⁰. Parsing TOML
/// takes up to about 80 bytes of memory per token, so this keeps reading
/// any file under about 100 MB; a scene at the body and collider limits
/// saved by the sandbox has about 520 000.
///
/// # Examples
///
/// ```
/// use geom_tui::scene::{MAX_TOKENS, Scene, SceneErrorKind};
///
/// let commas = format!("gravity = [0.0, -0.1]\nx = [{}]\n", "0,".repeat(MAX_TOKENS / 2));
/// assert_eq!(Scene::parse(&commas).unwrap_err().kind, SceneErrorKind::TooComplex);
/// ```
pub const MAX_TOKENS: usize = 1 << 20;

/// The most bodies a scene may have; the sandbox refuses to load or add
/// more.
///
/// At this many bodies and [`MAX_COLLIDERS`] colliders, spread out and
/// falling, a scene steps in about 5 ms a tick in every scalar type and
/// the sandbox draws it in about 10 ms (a release build on one core). The
/// worst case is bodies that all overlap one another, as every pair must
/// then be resolved: about a second a tick at this many in `f64`, several
/// in the 64-bit fixed-point types.
///
/// # Examples
///
/// ```
/// use geom_tui::scene::{MAX_BODIES, Scene, SceneErrorKind};
///
/// let text = format!("gravity = [0.0, -0.1]\n{}", "[[body]]\nposition = [0, 0]\nradius = 1\n".repeat(MAX_BODIES + 1));
/// let err = Scene::parse(&text).unwrap_err();
/// assert_eq!((err.kind, err.line), (SceneErrorKind::TooManyBodies, Some(2 + 3 * MAX_BODIES)));
/// ```
pub const MAX_BODIES: usize = 5000;

/// The most static colliders a scene may have. The sandbox refuses to
/// load or add more.
///
/// # Examples
///
/// ```
/// use geom_tui::scene::{MAX_COLLIDERS, Scene, SceneErrorKind};
///
/// let post = "[[collider]]\nshape = \"circle\"\ncenter = [0, 0]\nradius = 1\n";
/// let text = format!("gravity = [0.0, -0.1]\n{}", post.repeat(MAX_COLLIDERS + 1));
/// assert_eq!(Scene::parse(&text).unwrap_err().kind, SceneErrorKind::TooManyColliders);
/// ```
pub const MAX_COLLIDERS: usize = 5000;

/// A static shape, in `f64`.
///
/// # Examples
///
/// ```
/// use geom_core::Vec2;
/// use geom_tui::scene::Shape;
///
/// let post = Shape::Circle { center: Vec2::new(1.0, 2.0), radius: 0.5 };
/// assert_eq!(post.anchor(), Vec2::new(1.0, 2.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "shape", rename_all = "lowercase")]
pub enum Shape {
    /// A line segment.
    Segment {
        /// The first endpoint.
        #[serde(serialize_with = "point::serialize")]
        start: Vec2<f64>,
        /// The second endpoint.
        #[serde(serialize_with = "point::serialize")]
        end: Vec2<f64>,
    },
    /// A capsule: a segment with a radius.
    Capsule {
        /// The first endpoint of the core.
        #[serde(serialize_with = "point::serialize")]
        start: Vec2<f64>,
        /// The second endpoint of the core.
        #[serde(serialize_with = "point::serialize")]
        end: Vec2<f64>,
        /// The radius.
        radius: f64,
    },
    /// A circle.
    Circle {
        /// The centre.
        #[serde(serialize_with = "point::serialize")]
        center: Vec2<f64>,
        /// The radius.
        radius: f64,
    },
}

impl Shape {
    /// The point the shape is moved by: a segment's or capsule's midpoint,
    /// a circle's centre.
    ///
    /// See [`Shape`] for an example.
    #[must_use]
    pub fn anchor(&self) -> Vec2<f64> {
        let (start, end) = self.core();
        (start + end) * 0.5
    }

    /// The shape's core: its segment, or its centre twice for a circle.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::Vec2;
    /// use geom_tui::scene::Shape;
    ///
    /// let post = Shape::Circle { center: Vec2::new(1.0, 2.0), radius: 0.5 };
    /// assert_eq!(post.core(), (Vec2::new(1.0, 2.0), Vec2::new(1.0, 2.0)));
    /// ```
    #[must_use]
    pub fn core(&self) -> (Vec2<f64>, Vec2<f64>) {
        match *self {
            Self::Segment { start, end } | Self::Capsule { start, end, .. } => (start, end),
            Self::Circle { center, .. } => (center, center),
        }
    }

    /// The shape moved by `offset`.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::Vec2;
    /// use geom_tui::scene::Shape;
    ///
    /// let wall = Shape::Segment { start: Vec2::new(0.0, 0.0), end: Vec2::new(0.0, 2.0) };
    /// let moved = wall.translated(Vec2::new(1.0, 0.5));
    /// assert_eq!(moved, Shape::Segment { start: Vec2::new(1.0, 0.5), end: Vec2::new(1.0, 2.5) });
    /// ```
    #[must_use]
    pub fn translated(&self, offset: Vec2<f64>) -> Self {
        match *self {
            Self::Segment { start, end } => Self::Segment { start: start + offset, end: end + offset },
            Self::Capsule { start, end, radius } => Self::Capsule { start: start + offset, end: end + offset, radius },
            Self::Circle { center, radius } => Self::Circle { center: center + offset, radius },
        }
    }

    /// The radius (zero for a segment).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::Vec2;
    /// use geom_tui::scene::Shape;
    ///
    /// let wall = Shape::Segment { start: Vec2::new(0.0, 0.0), end: Vec2::new(0.0, 2.0) };
    /// assert_eq!(wall.radius(), 0.0);
    /// ```
    #[must_use]
    pub fn radius(&self) -> f64 {
        match *self {
            Self::Segment { .. } => 0.0,
            Self::Capsule { radius, .. } | Self::Circle { radius, .. } => radius,
        }
    }

    /// The kind of shape, in words.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::Vec2;
    /// use geom_tui::scene::Shape;
    ///
    /// assert_eq!(Shape::Circle { center: Vec2::new(0.0, 0.0), radius: 1.0 }.kind(), "circle");
    /// ```
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Segment { .. } => "segment",
            Self::Capsule { .. } => "capsule",
            Self::Circle { .. } => "circle",
        }
    }

    /// The smallest box holding the shape: lower-left and upper-right
    /// corners.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::Vec2;
    /// use geom_tui::scene::Shape;
    ///
    /// let pill = Shape::Capsule { start: Vec2::new(0.0, 0.0), end: Vec2::new(4.0, 1.0), radius: 0.5 };
    /// assert_eq!(pill.bounds(), (Vec2::new(-0.5, -0.5), Vec2::new(4.5, 1.5)));
    /// ```
    #[must_use]
    pub fn bounds(&self) -> (Vec2<f64>, Vec2<f64>) {
        let (a, b) = self.core();
        let r = self.radius();
        (Vec2::new(a.x.min(b.x) - r, a.y.min(b.y) - r), Vec2::new(a.x.max(b.x) + r, a.y.max(b.y) + r))
    }

    /// The shape in scalar type `S`.
    pub(crate) fn to_shape<S: SandboxScalar>(self) -> Result<world::Shape<S>, WorldError> {
        let p = to_vec::<S>;
        Ok(match self {
            Self::Segment { start, end } => world::Shape::Segment(Segment::new(p(start), p(end))?),
            Self::Capsule { start, end, radius } => {
                world::Shape::Capsule(Capsule::new(p(start), p(end), S::from_f64(radius))?)
            }
            Self::Circle { center, radius } => world::Shape::Circle(Circle::new(p(center), S::from_f64(radius))?),
        })
    }

    /// A shape in `f64`.
    pub(crate) fn of_shape<S: SandboxScalar>(shape: &world::Shape<S>) -> Self {
        let p = of_vec::<S>;
        match shape {
            world::Shape::Segment(s) => Self::Segment { start: p(s.start()), end: p(s.end()) },
            world::Shape::Capsule(c) => {
                let s = c.segment();
                Self::Capsule { start: p(s.start()), end: p(s.end()), radius: c.radius().to_f64() }
            }
            world::Shape::Circle(c) => Self::Circle { center: p(c.center()), radius: c.radius().to_f64() },
        }
    }
}

/// A collider, in `f64`: a shape and how it behaves.
///
/// # Examples
///
/// ```
/// use geom_core::Vec2;
/// use geom_tui::scene::{ColliderSpec, Shape};
///
/// let mut lift = ColliderSpec::new(Shape::Segment { start: Vec2::new(0.0, 0.0), end: Vec2::new(2.0, 0.0) });
/// lift.velocity = Vec2::new(0.0, 0.125);
/// assert!(lift.is_moving() && !lift.sensor);
/// assert_eq!((lift.friction, lift.restitution, lift.layer, lift.mask, lift.tag), (0.0, 0.0, 1, u32::MAX, 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ColliderSpec {
    /// Its shape, where it is now.
    #[serde(flatten)]
    pub shape: Shape,
    /// How far it moves every tick: a platform (zero: static).
    #[serde(with = "point", skip_serializing_if = "is_zero")]
    pub velocity: Vec2<f64>,
    /// The friction coefficient, 0 or more.
    #[serde(skip_serializing_if = "is_zero_f64")]
    pub friction: f64,
    /// How much of an impact's speed comes back, from 0 to 1.
    #[serde(skip_serializing_if = "is_zero_f64")]
    pub restitution: f64,
    /// A sensor reports overlaps but never pushes.
    #[serde(skip_serializing_if = "is_false")]
    pub sensor: bool,
    /// The layers it is on.
    #[serde(skip_serializing_if = "is_default_layer")]
    pub layer: u32,
    /// The layers it collides with.
    #[serde(skip_serializing_if = "is_default_mask")]
    pub mask: u32,
    /// The game's own number for it.
    #[serde(skip_serializing_if = "is_zero_u64")]
    pub tag: u64,
}

impl ColliderSpec {
    /// A static collider of this shape with the defaults: no friction or
    /// bounce, not a sensor, layer 1, every layer in its mask, tag 0.
    ///
    /// See [`ColliderSpec`] for an example.
    #[must_use]
    pub fn new(shape: Shape) -> Self {
        let filter = Filter::default();
        Self {
            shape,
            velocity: Vec2::new(0.0, 0.0),
            friction: 0.0,
            restitution: 0.0,
            sensor: false,
            layer: filter.layer,
            mask: filter.mask,
            tag: 0,
        }
    }

    /// Whether it moves (a platform).
    ///
    /// See [`ColliderSpec`] for an example.
    #[must_use]
    pub fn is_moving(&self) -> bool {
        self.velocity != Vec2::new(0.0, 0.0)
    }

    /// The collider in scalar type `S`.
    pub(crate) fn to_def<S: SandboxScalar>(self) -> Result<ColliderDef<S>, WorldError> {
        let mut def = ColliderDef::new(self.shape.to_shape::<S>()?);
        def.velocity = to_vec(self.velocity);
        def.friction = S::from_f64(self.friction);
        def.restitution = S::from_f64(self.restitution);
        def.sensor = self.sensor;
        def.filter = Filter { layer: self.layer, mask: self.mask };
        def.tag = self.tag;
        Ok(def)
    }

    /// A collider, in `f64`.
    pub(crate) fn of_collider<S: SandboxScalar>(collider: &Collider<S>) -> Self {
        Self {
            shape: Shape::of_shape(&collider.shape()),
            velocity: of_vec(collider.velocity()),
            friction: collider.friction().to_f64(),
            restitution: collider.restitution().to_f64(),
            sensor: collider.is_sensor(),
            layer: collider.filter().layer,
            mask: collider.filter().mask,
            tag: collider.tag(),
        }
    }
}

impl From<Shape> for ColliderSpec {
    fn from(shape: Shape) -> Self {
        Self::new(shape)
    }
}

/// A moving body, in `f64`: a circle, or a capsule whose core is given
/// relative to its position (see the [module documentation](self) for
/// how a scene file spells each).
///
/// # Examples
///
/// ```
/// use geom_core::Vec2;
/// use geom_tui::scene::{BodySpec, Shape};
///
/// let ball = BodySpec::new(Vec2::new(0.0, 4.0), 0.5);
/// assert_eq!((ball.velocity, ball.inverse_mass, ball.restitution), (Vec2::new(0.0, 0.0), 1.0, 0.0));
/// assert!(!ball.is_capsule());
///
/// // An upright player: a core 1.5 tall from its feet's centre.
/// let player = BodySpec::capsule(Vec2::new(2.0, 1.0), Vec2::new(0.0, 0.0), Vec2::new(0.0, 1.5), 0.5);
/// assert!(player.is_capsule());
/// assert_eq!(player.shape(), Shape::Capsule { start: Vec2::new(2.0, 1.0), end: Vec2::new(2.0, 2.5), radius: 0.5 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodySpec {
    /// The centre of a circle; the point a capsule's core is relative to.
    pub position: Vec2<f64>,
    /// A capsule's core: its two end points relative to `position`. Both
    /// zero (the default) make the body a circle.
    pub core: [Vec2<f64>; 2],
    /// The radius, at least zero.
    pub radius: f64,
    /// The velocity, in units per tick.
    pub velocity: Vec2<f64>,
    /// How much of an impact's speed comes back, from 0 to 1.
    pub restitution: f64,
    /// One over the mass; zero makes the body immovable.
    pub inverse_mass: f64,
    /// The friction coefficient, 0 or more.
    pub friction: f64,
    /// How much of the world's gravity it feels.
    pub gravity_scale: f64,
    /// A sensor reports overlaps but never pushes or is pushed.
    pub sensor: bool,
    /// The layers it is on.
    pub layer: u32,
    /// The layers it collides with.
    pub mask: u32,
    /// The game's own number for it.
    pub tag: u64,
}

impl BodySpec {
    /// A circle body at rest with unit mass, no bounce, no friction, full
    /// gravity, layer 1 meeting every layer, and tag 0.
    ///
    /// See [`BodySpec`] for an example.
    #[must_use]
    pub fn new(position: Vec2<f64>, radius: f64) -> Self {
        Self {
            position,
            core: [zero(); 2],
            radius,
            velocity: zero(),
            restitution: 0.0,
            inverse_mass: 1.0,
            friction: 0.0,
            gravity_scale: 1.0,
            sensor: false,
            layer: default_layer(),
            mask: default_mask(),
            tag: 0,
        }
    }

    /// A capsule body with the defaults of [`BodySpec::new`]: its core runs
    /// from `position + start` to `position + end`.
    ///
    /// See [`BodySpec`] for an example.
    #[must_use]
    pub fn capsule(position: Vec2<f64>, start: Vec2<f64>, end: Vec2<f64>, radius: f64) -> Self {
        Self { core: [start, end], ..Self::new(position, radius) }
    }

    /// Whether the body is a capsule: whether its core is not both zero.
    ///
    /// See [`BodySpec`] for an example.
    #[must_use]
    pub fn is_capsule(&self) -> bool {
        self.core != [zero(); 2]
    }

    /// The body's shape where it is: a circle around its position, or a
    /// capsule whose core is placed at its position.
    ///
    /// See [`BodySpec`] for an example.
    #[must_use]
    pub fn shape(&self) -> Shape {
        let [start, end] = self.core;
        if self.is_capsule() {
            Shape::Capsule { start: self.position + start, end: self.position + end, radius: self.radius }
        } else {
            Shape::Circle { center: self.position, radius: self.radius }
        }
    }

    /// The body in scalar type `S`.
    pub(crate) fn to_def<S: SandboxScalar>(self) -> BodyDef<S> {
        let (position, radius) = (to_vec(self.position), S::from_f64(self.radius));
        let mut def = if self.is_capsule() {
            BodyDef::capsule(position, to_vec(self.core[0]), to_vec(self.core[1]), radius)
        } else {
            BodyDef::new(position, radius)
        };
        def.velocity = to_vec(self.velocity);
        def.inverse_mass = S::from_f64(self.inverse_mass);
        def.restitution = S::from_f64(self.restitution);
        def.friction = S::from_f64(self.friction);
        def.gravity_scale = S::from_f64(self.gravity_scale);
        def.sensor = self.sensor;
        def.filter = Filter { layer: self.layer, mask: self.mask };
        def.tag = self.tag;
        def
    }

    /// A body definition, in `f64`.
    pub(crate) fn of_def<S: SandboxScalar>(def: &BodyDef<S>) -> Self {
        Self {
            position: of_vec(def.position),
            core: [of_vec(def.core[0]), of_vec(def.core[1])],
            radius: def.radius.to_f64(),
            velocity: of_vec(def.velocity),
            restitution: def.restitution.to_f64(),
            inverse_mass: def.inverse_mass.to_f64(),
            friction: def.friction.to_f64(),
            gravity_scale: def.gravity_scale.to_f64(),
            sensor: def.sensor,
            layer: def.filter.layer,
            mask: def.filter.mask,
            tag: def.tag,
        }
    }
}

impl Serialize for BodySpec {
    /// As a `[[body]]` table: `shape`, `start` and `end` for a capsule
    /// only, and the optional keys only where they differ from the
    /// defaults.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let capsule = self.is_capsule();
        let core_end = |i: usize| capsule.then_some(Point(self.core[i]));
        let out = BodyOut {
            shape: capsule.then_some("capsule"),
            position: Point(self.position),
            start: core_end(0),
            end: core_end(1),
            radius: self.radius,
            velocity: Point(self.velocity),
            restitution: self.restitution,
            inverse_mass: self.inverse_mass,
            friction: self.friction,
            gravity_scale: self.gravity_scale,
            sensor: self.sensor,
            layer: self.layer,
            mask: self.mask,
            tag: self.tag,
        };
        out.serialize(s)
    }
}

impl<'de> Deserialize<'de> for BodySpec {
    /// From a `[[body]]` table, refusing the values and the combinations
    /// of keys a scene file refuses.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        BodyFile::deserialize(d)?.into_spec().map_err(serde::de::Error::custom)
    }
}

/// How the world steps, in `f64`.
///
/// # Examples
///
/// ```
/// use geom_core::Vec2;
/// use geom_tui::scene::Settings;
///
/// let settings = Settings::new(Vec2::new(0.0, -0.25));
/// assert_eq!(settings.bounce_threshold(), 0.5); // twice gravity, as WorldConfig::new
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Gravity, in units per tick per tick.
    pub gravity: Vec2<f64>,
    /// Impacts slower than this do not bounce; `None` for the world's
    /// default of twice gravity.
    pub bounce_threshold: Option<f64>,
    /// How many impacts a body may continue after within one tick; `None`
    /// for the world's default.
    pub max_substeps: Option<u8>,
}

impl Settings {
    /// Gravity with the world's defaults for the rest.
    ///
    /// See [`Settings`] for an example.
    #[must_use]
    pub fn new(gravity: Vec2<f64>) -> Self {
        Self { gravity, bounce_threshold: None, max_substeps: None }
    }

    /// The bounce threshold in effect.
    ///
    /// See [`Settings`] for an example.
    #[must_use]
    pub fn bounce_threshold(&self) -> f64 {
        self.bounce_threshold.unwrap_or_else(|| WorldConfig::new(self.gravity).bounce_threshold)
    }

    /// The world configuration in scalar type `S`.
    pub(crate) fn to_config<S: SandboxScalar>(self) -> WorldConfig<S> {
        let mut config = WorldConfig::new(to_vec(self.gravity));
        if let Some(threshold) = self.bounce_threshold {
            config.bounce_threshold = S::from_f64(threshold);
        }
        if let Some(substeps) = self.max_substeps {
            config.max_substeps = substeps;
        }
        config
    }
}

/// A whole scene: settings, static colliders and bodies, in `f64`.
///
/// # Examples
///
/// ```
/// use geom_tui::scene::Scene;
///
/// let scene = Scene::parse(geom_tui::scene::DEFAULT_SCENE)?;
/// assert!(scene.bodies.len() > 5);
/// let text = scene.to_toml();
/// assert_eq!(Scene::parse(&text)?, scene);
/// # Ok::<(), geom_tui::scene::SceneError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// How the world steps.
    pub settings: Settings,
    /// The precision the scene asks to be opened in, if any.
    pub scalar: Option<ScalarKind>,
    /// Colliders, in id order.
    pub colliders: Vec<ColliderSpec>,
    /// Bodies, in id order.
    pub bodies: Vec<BodySpec>,
    /// Where the scene was read from, for error messages.
    origin: Origin,
}

/// The file a scene was read from and the 1-based line of each collider
/// and body in it (nothing for scenes built in code).
#[derive(Clone, Debug, Default)]
struct Origin {
    path: Option<PathBuf>,
    gravity: Option<usize>,
    bounce_threshold: Option<usize>,
    colliders: Vec<usize>,
    bodies: Vec<usize>,
}

impl PartialEq for Origin {
    /// Where a scene came from is not part of what it is.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Why a scene could not be read or built: the file and line (when there
/// are), what kind of problem it is, and what is wrong in words.
///
/// # Examples
///
/// ```
/// use geom_tui::scene::{Scene, SceneErrorKind};
///
/// let text = "gravity = [0.0, -0.1]\n\n[[body]]\nposition = [0.0, 1.0]\nradius = -2.0\n";
/// let err = Scene::parse(text).unwrap_err();
/// assert_eq!((err.kind, err.line), (SceneErrorKind::Invalid, Some(5)));
/// assert_eq!(err.to_string(), "line 5: the radius must be zero or more, not -2");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneError {
    /// The file, when the scene came from one.
    pub path: Option<PathBuf>,
    /// The 1-based line the problem is on, when it has one.
    pub line: Option<usize>,
    /// What kind of problem it is.
    pub kind: SceneErrorKind,
    /// What is wrong.
    pub message: String,
}

/// What kind of problem a [`SceneError`] reports.
///
/// # Examples
///
/// ```
/// use geom_tui::scene::{Scene, SceneErrorKind};
///
/// let err = Scene::parse("gravity = [0.0, -0.1]\n\0").unwrap_err();
/// assert_eq!(err.kind, SceneErrorKind::NotText { byte: 22 });
/// assert_eq!(err.to_string(), "line 2: not a text file: byte 22 is NUL");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SceneErrorKind {
    /// The file could not be opened or read: it is missing, unreadable, or
    /// a directory.
    Io(std::io::ErrorKind),
    /// The file or text is longer than [`MAX_FILE_BYTES`].
    TooLarge {
        /// Its length, when it has one: `None` for a file that grew while
        /// it was read or that never ends (`/dev/zero`).
        size: Option<u64>,
    },
    /// The bytes are not UTF-8 text, or hold a NUL.
    NotText {
        /// The offset of the first byte that is not text.
        byte: usize,
    },
    /// The text has more than [`MAX_TOKENS`] TOML tokens, or more tables
    /// than a scene may have bodies and colliders together.
    TooComplex,
    /// The scene has more than [`MAX_BODIES`] bodies.
    TooManyBodies,
    /// The scene has more than [`MAX_COLLIDERS`] colliders.
    TooManyColliders,
    /// The text is not a scene: a TOML syntax error, an unknown or missing
    /// key, a value of the wrong kind or one the format refuses.
    Invalid,
    /// A value is outside the chosen scalar type's safe range.
    OutOfRange,
}

impl SceneError {
    fn new(kind: SceneErrorKind, line: Option<usize>, message: impl Into<String>) -> Self {
        Self { path: None, line, kind, message: message.into() }
    }

    fn too_large(size: Option<u64>) -> Self {
        let message = match size {
            Some(size) => {
                format!("too large: {size} bytes, more than the {MAX_FILE_BYTES} (16 MiB) a scene file may have")
            }
            None => format!("too large: more than the {MAX_FILE_BYTES} bytes (16 MiB) a scene file may have"),
        };
        Self::new(SceneErrorKind::TooLarge { size }, None, message)
    }

    fn too_many_bodies(line: Option<usize>) -> Self {
        Self::new(
            SceneErrorKind::TooManyBodies,
            line,
            format!("too many bodies: a scene may have at most {MAX_BODIES}"),
        )
    }

    fn too_many_colliders(line: Option<usize>) -> Self {
        let message = format!("too many colliders: a scene may have at most {MAX_COLLIDERS}");
        Self::new(SceneErrorKind::TooManyColliders, line, message)
    }
}

impl fmt::Display for SceneError {
    /// `path:line: message`, leaving out what is not known (`line 5:
    /// message` without a file).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.path, self.line) {
            (Some(path), Some(line)) => write!(f, "{}:{line}: {}", path.display(), self.message),
            (Some(path), None) => write!(f, "{}: {}", path.display(), self.message),
            (None, Some(line)) => write!(f, "line {line}: {}", self.message),
            (None, None) => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for SceneError {}

/// The file's layout, with the spans of colliders and bodies kept for error
/// messages.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SceneFile {
    gravity: Spanned<Point>,
    #[serde(default)]
    bounce_threshold: Option<Spanned<f64>>,
    #[serde(default)]
    max_substeps: Option<Spanned<u8>>,
    #[serde(default)]
    scalar: Option<ScalarKind>,
    #[serde(default, rename = "collider")]
    colliders: Vec<Spanned<ColliderFile>>,
    #[serde(default, rename = "body")]
    bodies: Vec<Spanned<BodyFile>>,
}

/// A point as `[x, y]`, for a [`Spanned`] or an optional field.
struct Point(Vec2<f64>);

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        point::deserialize(d).map(Self)
    }
}

impl Serialize for Point {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        point::serialize(&self.0, s)
    }
}

/// A `[[body]]` table as written: whether it takes `start` and `end`
/// depends on its shape, so that is checked after reading, against the
/// table's line.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BodyFile {
    #[serde(default)]
    shape: BodyShape,
    #[serde(with = "point")]
    position: Vec2<f64>,
    #[serde(default, deserialize_with = "optional_point")]
    start: Option<Vec2<f64>>,
    #[serde(default, deserialize_with = "optional_point")]
    end: Option<Vec2<f64>>,
    #[serde(deserialize_with = "radius")]
    radius: f64,
    #[serde(with = "point", default = "zero")]
    velocity: Vec2<f64>,
    #[serde(deserialize_with = "restitution", default)]
    restitution: f64,
    #[serde(deserialize_with = "non_negative", default = "one")]
    inverse_mass: f64,
    #[serde(deserialize_with = "non_negative", default)]
    friction: f64,
    #[serde(deserialize_with = "gravity_scale", default = "one")]
    gravity_scale: f64,
    #[serde(default)]
    sensor: bool,
    #[serde(default = "default_layer", deserialize_with = "bits")]
    layer: u32,
    #[serde(default = "default_mask", deserialize_with = "bits")]
    mask: u32,
    #[serde(default, deserialize_with = "tag")]
    tag: u64,
}

/// The shapes a body can have.
#[derive(Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
enum BodyShape {
    #[default]
    Circle,
    Capsule,
}

impl BodyFile {
    fn into_spec(self) -> Result<BodySpec, String> {
        let core = match (self.shape, self.start, self.end) {
            (BodyShape::Circle, None, None) => [zero(); 2],
            (BodyShape::Capsule, Some(start), Some(end)) => [start, end],
            (BodyShape::Capsule, start, _) => {
                let missing = if start.is_none() { "start" } else { "end" };
                return Err(format!(
                    "a capsule needs `{missing}` (it takes position, start, end, radius; start and end relative \
                     to the position)"
                ));
            }
            (BodyShape::Circle, start, _) => {
                let given = if start.is_some() { "start" } else { "end" };
                return Err(format!(
                    "a circle has no `{given}` (it takes position, radius; a capsule body needs \
                     shape = \"capsule\")"
                ));
            }
        };
        Ok(BodySpec {
            position: self.position,
            core,
            radius: self.radius,
            velocity: self.velocity,
            restitution: self.restitution,
            inverse_mass: self.inverse_mass,
            friction: self.friction,
            gravity_scale: self.gravity_scale,
            sensor: self.sensor,
            layer: self.layer,
            mask: self.mask,
            tag: self.tag,
        })
    }
}

/// What a saved `[[body]]` table looks like: a circle's keys are those it
/// always had.
#[derive(Serialize)]
struct BodyOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    shape: Option<&'static str>,
    position: Point,
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<Point>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end: Option<Point>,
    radius: f64,
    velocity: Point,
    restitution: f64,
    inverse_mass: f64,
    #[serde(skip_serializing_if = "is_zero_f64")]
    friction: f64,
    #[serde(skip_serializing_if = "is_one")]
    gravity_scale: f64,
    #[serde(skip_serializing_if = "is_false")]
    sensor: bool,
    #[serde(skip_serializing_if = "is_default_layer")]
    layer: u32,
    #[serde(skip_serializing_if = "is_default_mask")]
    mask: u32,
    #[serde(skip_serializing_if = "is_zero_u64")]
    tag: u64,
}

/// A `[[collider]]` table as written: which fields it needs depends on its
/// shape, so they are checked after reading, against the table's line.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ColliderFile {
    shape: ShapeKind,
    #[serde(default, deserialize_with = "optional_point")]
    start: Option<Vec2<f64>>,
    #[serde(default, deserialize_with = "optional_point")]
    end: Option<Vec2<f64>>,
    #[serde(default, deserialize_with = "optional_point")]
    center: Option<Vec2<f64>>,
    #[serde(default, deserialize_with = "optional_radius")]
    radius: Option<f64>,
    #[serde(with = "point", default = "zero")]
    velocity: Vec2<f64>,
    #[serde(deserialize_with = "non_negative", default)]
    friction: f64,
    #[serde(deserialize_with = "restitution", default)]
    restitution: f64,
    #[serde(default)]
    sensor: bool,
    #[serde(default = "default_layer", deserialize_with = "bits")]
    layer: u32,
    #[serde(default = "default_mask", deserialize_with = "bits")]
    mask: u32,
    #[serde(default, deserialize_with = "tag")]
    tag: u64,
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ShapeKind {
    Segment,
    Capsule,
    Circle,
}

impl ColliderFile {
    fn into_spec(self) -> Result<ColliderSpec, String> {
        let (name, needs): (&str, &[&str]) = match self.shape {
            ShapeKind::Segment => ("segment", &["start", "end"]),
            ShapeKind::Capsule => ("capsule", &["start", "end", "radius"]),
            ShapeKind::Circle => ("circle", &["center", "radius"]),
        };
        let given = [
            ("start", self.start.is_some()),
            ("end", self.end.is_some()),
            ("center", self.center.is_some()),
            ("radius", self.radius.is_some()),
        ];
        for (field, present) in given {
            match (present, needs.contains(&field)) {
                (false, true) => return Err(format!("a {name} needs `{field}`")),
                (true, false) => return Err(format!("a {name} has no `{field}` (it takes {})", needs.join(", "))),
                _ => {}
            }
        }
        let zero = Vec2::new(0.0, 0.0);
        let (start, end, center) = (self.start.unwrap_or(zero), self.end.unwrap_or(zero), self.center.unwrap_or(zero));
        let radius = self.radius.unwrap_or(0.0);
        let shape = match self.shape {
            ShapeKind::Segment => Shape::Segment { start, end },
            ShapeKind::Capsule => Shape::Capsule { start, end, radius },
            ShapeKind::Circle => Shape::Circle { center, radius },
        };
        Ok(ColliderSpec {
            shape,
            velocity: self.velocity,
            friction: self.friction,
            restitution: self.restitution,
            sensor: self.sensor,
            layer: self.layer,
            mask: self.mask,
            tag: self.tag,
        })
    }
}

/// What a saved scene looks like (the same layout, without spans).
#[derive(Serialize)]
struct SceneOut<'a> {
    #[serde(with = "point")]
    gravity: Vec2<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bounce_threshold: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_substeps: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    scalar: Option<ScalarKind>,
    #[serde(rename = "collider")]
    colliders: &'a [ColliderSpec],
    #[serde(rename = "body")]
    bodies: &'a [BodySpec],
}

impl Scene {
    /// An empty scene with these settings.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::Vec2;
    /// use geom_tui::scene::{Scene, Settings};
    ///
    /// let scene = Scene::new(Settings::new(Vec2::new(0.0, -0.1)));
    /// assert!(scene.colliders.is_empty() && scene.bodies.is_empty());
    /// ```
    #[must_use]
    pub fn new(settings: Settings) -> Self {
        Self { settings, scalar: None, colliders: Vec::new(), bodies: Vec::new(), origin: Origin::default() }
    }

    /// Reads a scene from TOML text (see the [module documentation](self)).
    ///
    /// # Errors
    ///
    /// A [`SceneError`] naming the line and what is wrong: a syntax error,
    /// an unknown or missing key, a value of the wrong kind, or a value the
    /// format refuses (NaN or infinite, a negative radius or inverse mass,
    /// a restitution outside `[0, 1]`); a shape that has no such key (a
    /// circle body's `start`) or lacks one it needs (a capsule body's
    /// `end`), at its table's line; an unknown shape, at its line; or text
    /// beyond the [limits](self#limits), refused before it is parsed:
    /// longer than [`MAX_FILE_BYTES`], holding a NUL, with more than
    /// [`MAX_TOKENS`] tokens, or more than [`MAX_BODIES`] bodies or
    /// [`MAX_COLLIDERS`] colliders.
    ///
    /// See [`Scene`] and [`SceneError`] for examples.
    pub fn parse(text: &str) -> Result<Self, SceneError> {
        let length = u64::try_from(text.len()).unwrap_or(u64::MAX);
        if length > MAX_FILE_BYTES {
            return Err(SceneError::too_large(Some(length)));
        }
        check_text(text.as_bytes())?;
        check_size(text)?;
        let file: SceneFile = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|span| line_of(text, &span));
            // One line, for the sandbox's bottom line and for scripts.
            let message = e.message().lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>();
            SceneError::new(SceneErrorKind::Invalid, line, message.join("; "))
        })?;
        if let Some(extra) = file.colliders.get(MAX_COLLIDERS) {
            return Err(SceneError::too_many_colliders(Some(line_of(text, &extra.span()))));
        }
        if let Some(extra) = file.bodies.get(MAX_BODIES) {
            return Err(SceneError::too_many_bodies(Some(line_of(text, &extra.span()))));
        }
        let at = |span: Range<usize>| Some(line_of(text, &span));
        let refuse = |span: Range<usize>, message: &str| SceneError::new(SceneErrorKind::Invalid, at(span), message);
        if let Some(threshold) = &file.bounce_threshold {
            let value = *threshold.get_ref();
            if !(value.is_finite() && value >= 0.0) {
                return Err(refuse(
                    threshold.span(),
                    &format!("the bounce threshold must be zero or more, not {value}"),
                ));
            }
        }
        if let Some(substeps) = file.max_substeps.as_ref().filter(|s| *s.get_ref() == 0) {
            return Err(refuse(substeps.span(), "max_substeps must be at least 1"));
        }
        let origin = Origin {
            path: None,
            gravity: at(file.gravity.span()),
            bounce_threshold: file.bounce_threshold.as_ref().and_then(|t| at(t.span())),
            colliders: lines_of(text, file.colliders.iter().map(Spanned::span)),
            bodies: lines_of(text, file.bodies.iter().map(Spanned::span)),
        };
        let colliders = file
            .colliders
            .into_iter()
            .zip(&origin.colliders)
            .enumerate()
            .map(|(i, (collider, &line))| {
                collider.into_inner().into_spec().map_err(|message| {
                    SceneError::new(SceneErrorKind::Invalid, Some(line), format!("collider {i}: {message}"))
                })
            })
            .collect::<Result<_, _>>()?;
        let bodies = file
            .bodies
            .into_iter()
            .zip(&origin.bodies)
            .enumerate()
            .map(|(i, (body, &line))| {
                body.into_inner().into_spec().map_err(|message| {
                    SceneError::new(SceneErrorKind::Invalid, Some(line), format!("body {i}: {message}"))
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(Self {
            settings: Settings {
                gravity: file.gravity.into_inner().0,
                bounce_threshold: file.bounce_threshold.map(Spanned::into_inner),
                max_substeps: file.max_substeps.map(Spanned::into_inner),
            },
            scalar: file.scalar,
            colliders,
            bodies,
            origin,
        })
    }

    /// Reads a scene file.
    ///
    /// Any file can be given: one longer than [`MAX_FILE_BYTES`] is refused
    /// from its length before it is read, and reading stops one byte past
    /// the limit, so a file that grows while it is read or never ends
    /// (`/dev/zero`) is refused too, having used no more memory than that.
    ///
    /// # Errors
    ///
    /// The file cannot be read ([`SceneErrorKind::Io`]; a directory is
    /// refused as one, and so is a named pipe with nothing written to it,
    /// which is never waited on), is too large
    /// ([`SceneErrorKind::TooLarge`]), is not UTF-8 text
    /// ([`SceneErrorKind::NotText`], with the line and offset of the first
    /// byte that is not), or [`Scene::parse`] refuses it; the message starts
    /// with the path.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_tui::scene::Scene;
    ///
    /// let err = Scene::load("no/such/scene.toml".as_ref()).unwrap_err();
    /// assert!(err.to_string().starts_with("no/such/scene.toml: "));
    /// let err = Scene::load(std::env::temp_dir().as_path()).unwrap_err();
    /// assert!(err.to_string().ends_with(": a directory, not a scene file"), "{err}");
    /// ```
    pub fn load(path: &Path) -> Result<Self, SceneError> {
        let in_file = |e: SceneError| SceneError { path: Some(path.to_owned()), ..e };
        let bytes = read_at_most(path, MAX_FILE_BYTES).map_err(in_file)?;
        let text = check_text(&bytes).map_err(in_file)?;
        let mut scene = Self::parse(text).map_err(in_file)?;
        scene.origin.path = Some(path.to_owned());
        Ok(scene)
    }

    /// The scene as TOML text that [`Scene::parse`] reads back to an equal
    /// scene.
    ///
    /// See [`Scene`] for an example.
    #[must_use]
    pub fn to_toml(&self) -> String {
        let out = SceneOut {
            gravity: self.settings.gravity,
            bounce_threshold: self.settings.bounce_threshold,
            max_substeps: self.settings.max_substeps,
            scalar: self.scalar,
            colliders: &self.colliders,
            bodies: &self.bodies,
        };
        // Every value is a finite f64, a small integer or a string: the
        // serialiser cannot refuse any of them.
        let body = toml::to_string(&out).unwrap_or_else(|e| format!("# could not write the scene: {e}\n"));
        format!("# A geom sandbox scene (see `geom-tui --help`).\n{body}")
    }

    /// Writes the scene to `path` atomically: into a temporary file beside
    /// it, then renamed over it, so a crash never leaves half a file.
    ///
    /// A file that exists but cannot be written (read-only, or not a
    /// regular file) is refused rather than replaced, as is a directory.
    /// A symbolic link is followed: the file it names is replaced, with
    /// the old file's permissions, and the link stays a link.
    ///
    /// # Errors
    ///
    /// The I/O error, with the path: the target is a directory, read-only
    /// or not a regular file; its directory does not exist; the text would
    /// be longer than [`MAX_FILE_BYTES`], so [`Scene::load`] would refuse
    /// it (only numbers near the ends of `f64`'s range, written out in
    /// full, make it that long); or creating, writing or renaming the
    /// temporary file failed. The old file, if any, is untouched and no
    /// temporary file is left behind.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_tui::scene::Scene;
    ///
    /// let dir = std::env::temp_dir().join(format!("geom-scene-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let path = dir.join("copy.toml");
    /// let scene = Scene::parse(geom_tui::scene::DEFAULT_SCENE)?;
    /// scene.save(&path).unwrap();
    /// assert_eq!(Scene::load(&path)?, scene);
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        use std::io::ErrorKind;
        let with_path = |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let refuse = |kind: ErrorKind, why: &str| std::io::Error::new(kind, format!("{}: {why}", path.display()));
        // Renaming over a link would replace the link: write where it points.
        let path = &link_target(path).map_err(with_path)?;
        let name = path.file_name().ok_or_else(|| refuse(ErrorKind::InvalidInput, "not a file name"))?;
        let permissions = match std::fs::metadata(path) {
            Ok(target) if target.is_dir() => return Err(refuse(ErrorKind::IsADirectory, "a directory, not a file")),
            Ok(target) if !target.is_file() => {
                return Err(refuse(ErrorKind::InvalidInput, "not a regular file; left as it is"));
            }
            Ok(target) => {
                // Renaming over a read-only file would succeed: ask whether
                // it may be written instead (as root too, by its mode).
                let writable =
                    !target.permissions().readonly() && std::fs::OpenOptions::new().write(true).open(path).is_ok();
                if !writable {
                    return Err(refuse(ErrorKind::PermissionDenied, "the file is read-only; left as it is"));
                }
                Some(target.permissions())
            }
            Err(_) => None,
        };
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        if !parent.is_dir() {
            return Err(refuse(ErrorKind::NotFound, &format!("no directory {}", parent.display())));
        }
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".{}.tmp", std::process::id()));
        let temp = path.with_file_name(temp_name);
        // What is saved must load again: numbers far from 1 are written
        // out in full and can take hundreds of digits each.
        let text = self.to_toml();
        if u64::try_from(text.len()).map_or(true, |n| n > MAX_FILE_BYTES) {
            let why = format!(
                "not written: the scene's text would be {} bytes, more than the {MAX_FILE_BYTES} (16 MiB) \
                 a scene file may have",
                text.len()
            );
            return Err(refuse(ErrorKind::FileTooLarge, &why));
        }
        let write = || -> std::io::Result<()> {
            let mut file = std::fs::File::create(&temp)?;
            if let Some(permissions) = permissions {
                file.set_permissions(permissions)?;
            }
            file.write_all(text.as_bytes())?;
            file.sync_all()?;
            std::fs::rename(&temp, path)
        };
        write().map_err(|e| {
            // Best effort: the temporary file is ours, and useless now.
            let _ = std::fs::remove_file(&temp);
            with_path(e)
        })
    }

    /// The world this scene describes, in scalar type `S`: colliders, then
    /// bodies, in the order listed.
    pub(crate) fn build<S: SandboxScalar>(&self) -> Result<World<S>, SceneError> {
        let in_file = |e: SceneError| SceneError { path: self.origin.path.clone(), ..e };
        if self.colliders.len() > MAX_COLLIDERS {
            return Err(in_file(SceneError::too_many_colliders(self.origin.colliders.get(MAX_COLLIDERS).copied())));
        }
        if self.bodies.len() > MAX_BODIES {
            return Err(in_file(SceneError::too_many_bodies(self.origin.bodies.get(MAX_BODIES).copied())));
        }
        let kind = S::KIND;
        let error =
            |line: Option<usize>, message: String| in_file(SceneError::new(SceneErrorKind::OutOfRange, line, message));
        let mut world = World::new(self.settings.to_config::<S>()).map_err(|e| {
            let line = if e == WorldError::Velocity { self.origin.gravity } else { self.origin.bounce_threshold };
            error(line, explain(e, kind))
        })?;
        for (i, collider) in self.colliders.iter().enumerate() {
            collider.to_def::<S>().and_then(|def| world.add_collider(def)).map_err(|e| {
                error(
                    self.origin.colliders.get(i).copied(),
                    format!("collider {i} ({}): {}", collider.shape.kind(), explain(e, kind)),
                )
            })?;
        }
        for (i, body) in self.bodies.iter().enumerate() {
            world
                .add_body(body.to_def::<S>())
                .map_err(|e| error(self.origin.bodies.get(i).copied(), format!("body {i}: {}", explain(e, kind))))?;
        }
        Ok(world)
    }
}

/// A world error in words a scene author can act on.
pub(crate) fn explain(error: WorldError, kind: ScalarKind) -> String {
    let range = || format!("{kind}'s safe range ±{}", kind.max_coord());
    match error {
        WorldError::Shape(geom_core::ShapeError::OutOfRange) => {
            format!("a coordinate or the radius is outside {}", range())
        }
        WorldError::Velocity => format!("a velocity or the gravity is not finite or outside {}", range()),
        WorldError::Friction => format!("the friction is negative or beyond {}", range()),
        WorldError::GravityScale => format!("the gravity scale is outside {}", range()),
        WorldError::Shape(e) => e.to_string(),
        other => other.to_string(),
    }
}

/// The 1-based line of a byte offset's span start.
fn line_of(text: &str, span: &Range<usize>) -> usize {
    line_at(text.as_bytes(), span.start)
}

/// How many line breaks `bytes` holds.
// Scene files are small: counting a byte at a time is fast enough, and
// needs no crate.
#[allow(clippy::naive_bytecount)]
fn newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// The 1-based line of byte `offset`.
fn line_at(bytes: &[u8], offset: usize) -> usize {
    newlines(bytes.get(..offset).unwrap_or(bytes)) + 1
}

/// The 1-based lines of the starts of `spans`, in one pass over the text
/// when they are in order (as the items of one list in a file are).
fn lines_of(text: &str, spans: impl Iterator<Item = Range<usize>>) -> Vec<usize> {
    let bytes = text.as_bytes();
    let (mut offset, mut line) = (0, 1);
    spans
        .map(|span| {
            let start = span.start.min(bytes.len());
            if start < offset {
                (offset, line) = (0, 1);
            }
            line += newlines(&bytes[offset..start]);
            offset = start;
            line
        })
        .collect()
}

/// The file `path` names once every symbolic link on the way is followed
/// (`path` itself when it is not a link): a link to nothing gives the path
/// where its file would be.
///
/// # Errors
///
/// A link cannot be read, or there are more than 40 links in a row (as
/// Linux refuses), which a loop of links always gives.
fn link_target(path: &Path) -> std::io::Result<PathBuf> {
    const MAX_LINKS: usize = 40;
    let mut path = path.to_owned();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)?;
                // A relative target is relative to the link's directory; an
                // absolute one replaces the whole path when joined.
                path = path.parent().map_or_else(|| target.clone(), |dir| dir.join(&target));
            }
            _ => return Ok(path),
        }
    }
    Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "more than 40 symbolic links in a row"))
}

/// The file's first `limit + 1` bytes at most: one more than allowed is
/// enough to know it is too large.
fn read_at_most(path: &Path, limit: u64) -> Result<Vec<u8>, SceneError> {
    let io = |e: std::io::Error| SceneError::new(SceneErrorKind::Io(e.kind()), None, e.to_string());
    let file = open_to_read(path).map_err(io)?;
    let metadata = file.metadata().map_err(io)?;
    if metadata.is_dir() {
        let kind = SceneErrorKind::Io(std::io::ErrorKind::IsADirectory);
        return Err(SceneError::new(kind, None, "a directory, not a scene file"));
    }
    // Special files (devices, pipes) report no length: read them up to the
    // limit like any other.
    if metadata.len() > limit {
        return Err(SceneError::too_large(Some(metadata.len())));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0).saturating_add(1));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(io)?;
    if u64::try_from(bytes.len()).map_or(true, |n| n > limit) {
        return Err(SceneError::too_large(None));
    }
    #[cfg(unix)]
    if bytes.is_empty() && std::os::unix::fs::FileTypeExt::is_fifo(&metadata.file_type()) {
        let kind = SceneErrorKind::Io(std::io::ErrorKind::UnexpectedEof);
        return Err(SceneError::new(kind, None, "a pipe with nothing written to it"));
    }
    Ok(bytes)
}

/// Opens `path` to read without waiting for anything: opening a named pipe
/// waits for a writer, which would freeze the sandbox for good when there
/// is none. Reads from the file wait as usual, so a pipe with a writer
/// (such as `<(…)` in a shell) is read to its end, and one without reads
/// as empty.
#[cfg(unix)]
fn open_to_read(path: &Path) -> std::io::Result<std::fs::File> {
    use rustix::fs::{Mode, OFlags};
    let fd = rustix::fs::open(path, OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC, Mode::empty())?;
    rustix::fs::fcntl_setfl(&fd, rustix::fs::fcntl_getfl(&fd)? - OFlags::NONBLOCK)?;
    Ok(fd.into())
}

/// Opens `path` to read.
#[cfg(not(unix))]
fn open_to_read(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// `bytes` as text: UTF-8 without NULs (which no TOML file has, and nearly
/// every binary file does).
fn check_text(bytes: &[u8]) -> Result<&str, SceneError> {
    let nul = |end: usize| bytes[..end].iter().position(|&b| b == 0);
    let not_text = |byte: usize, message: String| {
        SceneError::new(SceneErrorKind::NotText { byte }, Some(line_at(bytes, byte)), message)
    };
    let is_nul = |byte: usize| not_text(byte, format!("not a text file: byte {byte} is NUL"));
    match std::str::from_utf8(bytes) {
        Ok(text) => match nul(bytes.len()) {
            Some(byte) => Err(is_nul(byte)),
            None => Ok(text),
        },
        Err(e) => {
            let byte = e.valid_up_to();
            if let Some(earlier) = nul(byte) {
                return Err(is_nul(earlier));
            }
            Err(match e.error_len() {
                Some(_) => not_text(byte, format!("not UTF-8 text: byte {byte} is 0x{:02x}", bytes[byte])),
                None => not_text(
                    byte,
                    format!("not UTF-8 text: the file ends inside a character at byte {byte} (cut short?)"),
                ),
            })
        }
    }
}

/// Where a line is in spelling out a `[[body]]` or `[[collider]]` header.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Header {
    /// At the start of a line (or after whitespace there).
    LineStart,
    /// After `[`.
    Open,
    /// After `[[`.
    OpenTwice,
    /// After `[[body` (`true`) or `[[collider` (`false`).
    Name(bool),
    /// After `[[body]` or `[[collider]`.
    Close(bool),
    /// Anywhere else.
    Elsewhere,
}

/// Reads through the text's TOML tokens without keeping them, refusing
/// text that would take too much memory or time to parse: more than
/// [`MAX_TOKENS`] tokens, more `[[body]]` or `[[collider]]` tables than a
/// scene may have, or more tables of any kind than both together. (Which
/// list inline tables belong to is known only after parsing.)
fn check_size(text: &str) -> Result<(), SceneError> {
    use toml_parser::lexer::TokenKind;
    let (mut line, mut bodies, mut colliders, mut tables) = (1, 0, 0, 0);
    let mut header = Header::LineStart;
    let mut table = |line: usize| {
        // A scene has one table for each body and collider and no other.
        tables += 1;
        if tables > MAX_BODIES + MAX_COLLIDERS {
            let message = format!(
                "too many tables: a scene has one for each body and collider, at most {}",
                MAX_BODIES + MAX_COLLIDERS
            );
            return Err(SceneError::new(SceneErrorKind::TooComplex, Some(line), message));
        }
        Ok(())
    };
    for (count, token) in toml_parser::Source::new(text).lex().enumerate() {
        if count >= MAX_TOKENS {
            let message = format!(
                "too much to read: a scene file may have at most {MAX_TOKENS} TOML tokens \
                 (keys, values, punctuation, line breaks), and this one has more by here"
            );
            return Err(SceneError::new(SceneErrorKind::TooComplex, Some(line), message));
        }
        let raw = text.get(token.span().start()..token.span().end()).unwrap_or_default();
        let kind = token.kind();
        header = match (header, kind) {
            (_, TokenKind::Newline) | (Header::LineStart, TokenKind::Whitespace) => Header::LineStart,
            (Header::LineStart, TokenKind::LeftSquareBracket) => {
                table(line)?;
                Header::Open
            }
            (_, TokenKind::LeftCurlyBracket) => {
                table(line)?;
                Header::Elsewhere
            }
            (Header::Open, TokenKind::LeftSquareBracket) | (Header::OpenTwice, TokenKind::Whitespace) => {
                Header::OpenTwice
            }
            (Header::OpenTwice, TokenKind::Atom | TokenKind::BasicString | TokenKind::LiteralString) => {
                match raw.trim_matches(['"', '\'']) {
                    "body" => Header::Name(true),
                    "collider" => Header::Name(false),
                    _ => Header::Elsewhere,
                }
            }
            (Header::Name(body), TokenKind::Whitespace) => Header::Name(body),
            (Header::Name(body), TokenKind::RightSquareBracket) => Header::Close(body),
            (Header::Close(true), TokenKind::RightSquareBracket) => {
                bodies += 1;
                if bodies > MAX_BODIES {
                    return Err(SceneError::too_many_bodies(Some(line)));
                }
                Header::Elsewhere
            }
            (Header::Close(false), TokenKind::RightSquareBracket) => {
                colliders += 1;
                if colliders > MAX_COLLIDERS {
                    return Err(SceneError::too_many_colliders(Some(line)));
                }
                Header::Elsewhere
            }
            _ => Header::Elsewhere,
        };
        if matches!(kind, TokenKind::Newline | TokenKind::MlBasicString | TokenKind::MlLiteralString) {
            line += newlines(raw.as_bytes());
        }
    }
    Ok(())
}

pub(crate) fn to_vec<S: SandboxScalar>(v: Vec2<f64>) -> Vec2<S> {
    Vec2::new(S::from_f64(v.x), S::from_f64(v.y))
}

pub(crate) fn of_vec<S: SandboxScalar>(v: Vec2<S>) -> Vec2<f64> {
    Vec2::new(v.x.to_f64(), v.y.to_f64())
}

fn zero() -> Vec2<f64> {
    Vec2::new(0.0, 0.0)
}

fn one() -> f64 {
    1.0
}

/// Reads a finite number.
fn finite<'de, D: serde::Deserializer<'de>>(d: D, what: &str) -> Result<f64, D::Error> {
    let v = f64::deserialize(d)?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(serde::de::Error::custom(format!("{what} must be a finite number, not {v}")))
    }
}

fn radius<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let v = finite(d, "the radius")?;
    if v >= 0.0 { Ok(v) } else { Err(serde::de::Error::custom(format!("the radius must be zero or more, not {v}"))) }
}

fn non_negative<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let v = finite(d, "the value")?;
    if v >= 0.0 { Ok(v) } else { Err(serde::de::Error::custom(format!("the value must be zero or more, not {v}"))) }
}

fn optional_point<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec2<f64>>, D::Error> {
    point::deserialize(d).map(Some)
}

fn optional_radius<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    radius(d).map(Some)
}

fn gravity_scale<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    finite(d, "the gravity scale")
}

/// Reads a tag: TOML's integers are signed, so 0 to 2^63 − 1.
fn tag<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let v = i64::deserialize(d)?;
    u64::try_from(v).map_err(|_| serde::de::Error::custom(format!("a tag must be zero or more, not {v}")))
}

/// Reads layer bits: a whole number from 0 to 2^32 − 1.
fn bits<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let v = i64::deserialize(d).map_err(|e| {
        serde::de::Error::custom(format!("layers and masks are whole numbers from 0 to 0xffffffff: {e}"))
    })?;
    u32::try_from(v).map_err(|_| {
        serde::de::Error::custom(format!("layers and masks are whole numbers from 0 to 0xffffffff, not {v}"))
    })
}

fn default_layer() -> u32 {
    Filter::default().layer
}

fn default_mask() -> u32 {
    Filter::default().mask
}

// serde's `skip_serializing_if` passes references.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero_f64(v: &f64) -> bool {
    *v == 0.0
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_one(v: &f64) -> bool {
    *v == 1.0
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(v: &bool) -> bool {
    !*v
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero_u64(v: &u64) -> bool {
    *v == 0
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_default_layer(v: &u32) -> bool {
    *v == default_layer()
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_default_mask(v: &u32) -> bool {
    *v == default_mask()
}

fn is_zero(v: &Vec2<f64>) -> bool {
    *v == Vec2::new(0.0, 0.0)
}

fn restitution<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let v = finite(d, "the restitution")?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(serde::de::Error::custom(format!("the restitution must be from 0 to 1, not {v}")))
    }
}

/// Points as `[x, y]` arrays of finite numbers.
mod point {
    use geom_core::Vec2;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(v: &Vec2<f64>, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&[v.x, v.y], s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec2<f64>, D::Error> {
        let [x, y] = <[f64; 2]>::deserialize(d)?;
        if x.is_finite() && y.is_finite() {
            Ok(Vec2::new(x, y))
        } else {
            Err(serde::de::Error::custom(format!("a point must have finite coordinates, not [{x}, {y}]")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> SceneError {
        Scene::parse(text).expect_err("the scene should be refused")
    }

    #[test]
    fn the_default_scene_parses_and_builds_in_every_precision() {
        let scene = Scene::parse(DEFAULT_SCENE).unwrap();
        for kind in ScalarKind::ALL {
            crate::num::with_scalar!(kind, S => {
                let world = scene.build::<S>().unwrap_or_else(|e| panic!("{kind}: {e}"));
                assert_eq!(world.bodies().len(), scene.bodies.len());
                assert_eq!(world.colliders().len(), scene.colliders.len());
            });
        }
    }

    #[test]
    fn the_features_scene_parses_and_builds_in_every_precision() {
        let text = include_str!("../scenes/features.toml");
        let scene = Scene::parse(text).unwrap();
        assert!(scene.colliders.iter().any(|c| c.sensor) && scene.colliders.iter().any(ColliderSpec::is_moving));
        for kind in ScalarKind::ALL {
            crate::num::with_scalar!(kind, S => {
                let world = scene.build::<S>().unwrap_or_else(|e| panic!("{kind}: {e}"));
                assert_eq!(world.colliders().len(), scene.colliders.len());
            });
        }
    }

    /// Every key of the world's bodies and colliders is read, kept, and
    /// written back only where it differs from the default.
    #[test]
    fn the_worlds_keys_are_read_and_written_back() {
        let text = r#"gravity = [0.0, -0.1]

[[collider]]
shape = "segment"
start = [0, 0]
end = [4, 0]
velocity = [0.25, -0.5]
friction = 0.75
restitution = 0.5
sensor = true
layer = 6
mask = 0x0f
tag = 12

[[body]]
position = [1, 2]
radius = 0.5
friction = 2
gravity_scale = -0.5
sensor = true
layer = 2
mask = 3
tag = 9007199254740993
"#;
        let scene = Scene::parse(text).unwrap();
        let collider = scene.colliders[0];
        assert_eq!(
            (collider.velocity, collider.friction, collider.restitution, collider.sensor),
            (Vec2::new(0.25, -0.5), 0.75, 0.5, true)
        );
        assert_eq!((collider.layer, collider.mask, collider.tag), (6, 15, 12));
        let body = scene.bodies[0];
        assert_eq!((body.friction, body.gravity_scale, body.sensor), (2.0, -0.5, true));
        assert_eq!((body.layer, body.mask, body.tag), (2, 3, 9_007_199_254_740_993));
        assert_eq!(Scene::parse(&scene.to_toml()).unwrap(), scene);
        // The world gets every value.
        let world = scene.build::<fixed::types::I32F32>().unwrap();
        let (c, b) = (world.colliders()[0], world.bodies()[0]);
        assert_eq!((c.is_sensor(), c.filter(), c.tag()), (true, Filter { layer: 6, mask: 15 }, 12));
        assert_eq!((b.is_sensor(), b.filter(), b.tag()), (true, Filter { layer: 2, mask: 3 }, 9_007_199_254_740_993));
        assert_eq!(b.gravity_scale(), -0.5);
        // Defaults are not written.
        let plain = Scene::parse("gravity = [0.0, -0.1]\n[[body]]\nposition = [0, 0]\nradius = 1\n").unwrap();
        let written = plain.to_toml();
        for key in ["friction", "gravity_scale", "sensor", "layer", "mask", "tag"] {
            assert!(!written.contains(key), "{key} written as a default:\n{written}");
        }
    }

    #[test]
    fn a_syntax_error_names_its_line() {
        let e = error("gravity = [0.0, -0.1]\n[[body]]\nposition = [0.0, 1.0]\nradius = 1.0.0\n");
        assert_eq!(e.line, Some(4), "{e}");
    }

    #[test]
    fn an_unknown_key_names_its_line_and_the_key() {
        let e = error("gravity = [0.0, -0.1]\n[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\nmass = 3.0\n");
        assert_eq!(e.line, Some(5), "{e}");
        assert!(e.message.contains("mass"), "{e}");
    }

    #[test]
    fn a_missing_key_names_the_table_and_the_key() {
        let e = error("gravity = [0.0, -0.1]\n[[collider]]\nshape = \"circle\"\ncenter = [0.0, 1.0]\n");
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.message.contains("radius"), "{e}");
    }

    #[test]
    fn a_collider_with_the_wrong_fields_for_its_shape_names_its_line() {
        let e = error(
            "gravity = [0.0, -0.1]\n\n[[collider]]\nshape = \"segment\"\nstart = [0, 0]\nend = [1, 0]\nradius = 1\n",
        );
        assert_eq!(
            (e.line, e.message.as_str()),
            (Some(3), "collider 0: a segment has no `radius` (it takes start, end)")
        );
        let e = error(
            "gravity = [0.0, -0.1]\n[[collider]]\nshape = \"circle\"\ncenter = [0, 0]\nradius = 1\n\n[[collider]]\nshape = \"capsule\"\nstart = [0, 0]\nend = [1, 0]\n",
        );
        assert_eq!((e.line, e.message.as_str()), (Some(7), "collider 1: a capsule needs `radius`"));
    }

    #[test]
    fn an_unknown_shape_is_refused_with_its_line() {
        let e = error("gravity = [0.0, -0.1]\n\n[[collider]]\nshape = \"square\"\ncenter = [0.0, 1.0]\n");
        assert_eq!(e.line, Some(4), "{e}");
        assert!(e.message.contains("square"), "{e}");
    }

    #[test]
    fn values_the_format_refuses_name_their_line() {
        let cases = [
            ("[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\nrestitution = 1.5\n", 4, "restitution"),
            ("[[body]]\nposition = [nan, 1.0]\nradius = 1.0\n", 2, "finite"),
            ("[[body]]\nposition = [0.0, 1.0]\nradius = inf\n", 3, "finite"),
            ("[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\ninverse_mass = -1\n", 4, "zero or more"),
            ("[[collider]]\nshape = \"capsule\"\nstart = [0, 0]\nend = [1, 0]\nradius = -0.5\n", 5, "radius"),
            ("[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\nfriction = -1\n", 4, "zero or more"),
            ("[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\ngravity_scale = nan\n", 4, "finite"),
            ("[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\ntag = -3\n", 4, "tag"),
            ("[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\nlayer = -1\n", 4, "layers and masks"),
            ("[[collider]]\nshape = \"circle\"\ncenter = [0, 0]\nradius = 1\nrestitution = 2\n", 5, "restitution"),
            ("[[collider]]\nshape = \"circle\"\ncenter = [0, 0]\nradius = 1\nvelocity = [inf, 0]\n", 5, "finite"),
            ("[[collider]]\nshape = \"circle\"\ncenter = [0, 0]\nradius = 1\nmask = 1.5\n", 5, "layers and masks"),
        ];
        for (tail, line, what) in cases {
            let e = error(&format!("gravity = [0.0, -0.1]\n{tail}"));
            assert_eq!(e.line, Some(line + 1), "{tail}: {e}");
            assert!(e.message.contains(what), "{tail}: {e}");
        }
    }

    #[test]
    fn bad_settings_name_their_line() {
        let e = error("gravity = [0.0, -0.1]\nmax_substeps = 0\n");
        assert_eq!((e.line, e.message.as_str()), (Some(2), "max_substeps must be at least 1"));
        let e = error("\ngravity = [0.0, -0.1]\nbounce_threshold = -1.0\n");
        assert_eq!((e.line, e.message.as_str()), (Some(3), "the bounce threshold must be zero or more, not -1"));
        let e = error("gravity = [0.0, nan]\n");
        assert_eq!(e.line, Some(1), "{e}");
        let far = Scene::parse("# far\ngravity = [0.0, -5000.0]\n").unwrap();
        let e = far.build::<fixed::types::I16F16>().unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.message.contains("gravity") && e.message.contains("±4096"), "{e}");
        let far = Scene::parse("gravity = [0.0, -1.0]\nbounce_threshold = 5000.0\n").unwrap();
        assert_eq!(far.build::<fixed::types::I16F16>().unwrap_err().line, Some(2));
    }

    #[test]
    fn a_value_outside_the_types_range_names_its_item_line_and_the_range() {
        let text = "gravity = [0.0, -0.1]\n\n[[body]]\nposition = [0.0, 1.0]\nradius = 1.0\n\n\
                    [[body]]\nposition = [5000.0, 1.0]\nradius = 1.0\n";
        let scene = Scene::parse(text).unwrap();
        assert!(scene.build::<f32>().is_ok());
        let e = scene.build::<fixed::types::I16F16>().unwrap_err();
        assert_eq!(e.line, Some(7), "{e}");
        assert!(e.message.starts_with("body 1:") && e.message.contains("±4096"), "{e}");
    }

    /// A floor, a standing capsule body, a lying one with everything set,
    /// and a circle.
    const CAPSULES: &str = r#"gravity = [0.0, -0.125]

[[collider]]
shape = "segment"
start = [-8, 0]
end = [8, 0]

[[body]]
shape = "capsule"
position = [1.0, 2.0]
start = [0.0, -0.5]
end = [0.0, 1.5]
radius = 0.5

[[body]]
position = [4, 1]
radius = 0.25
end = [1, 0]
start = [-1, 0]
shape = "capsule"
velocity = [0.5, 0]
friction = 0.75
tag = 3

[[body]]
shape = "circle"
position = [-3, 1]
radius = 1
"#;

    #[test]
    fn a_capsule_body_is_read_with_its_core_relative_to_its_position() {
        let scene = Scene::parse(CAPSULES).unwrap();
        let [standing, lying, ball] = scene.bodies[..] else { panic!("three bodies: {:?}", scene.bodies) };
        assert!(standing.is_capsule() && lying.is_capsule() && !ball.is_capsule());
        assert_eq!(standing.core, [Vec2::new(0.0, -0.5), Vec2::new(0.0, 1.5)]);
        assert_eq!(
            standing.shape(),
            Shape::Capsule { start: Vec2::new(1.0, 1.5), end: Vec2::new(1.0, 3.5), radius: 0.5 },
            "the core is placed at the position"
        );
        assert_eq!(
            (lying.core, lying.velocity, lying.friction, lying.tag),
            ([Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)], Vec2::new(0.5, 0.0), 0.75, 3)
        );
        assert_eq!(ball, BodySpec::new(Vec2::new(-3.0, 1.0), 1.0), "`shape = \"circle\"` is the default");
        for kind in ScalarKind::ALL {
            crate::num::with_scalar!(kind, S => {
                let world = scene.build::<S>().unwrap_or_else(|e| panic!("{kind}: {e}"));
                let bodies = world.bodies();
                assert!(bodies[0].is_capsule() && bodies[1].is_capsule() && !bodies[2].is_capsule(), "{kind}");
                let core = bodies[0].capsule().segment();
                assert_eq!((of_vec(core.start()), of_vec(core.end())), (Vec2::new(1.0, 1.5), Vec2::new(1.0, 3.5)));
                assert_eq!(BodySpec::of_def(&bodies[1].def()), lying, "{kind}");
            });
        }
    }

    #[test]
    fn a_capsule_body_with_a_missing_or_misplaced_key_or_an_unknown_shape_names_its_line() {
        let head = "gravity = [0.0, -0.1]\n\n[[body]]\nposition = [0, 1]\nradius = 1\n\n[[body]]\n";
        let cases = [
            (
                "shape = \"capsule\"\nposition = [0, 1]\nstart = [0, 0]\nradius = 0.5\n",
                7,
                "body 1: a capsule needs `end` (it takes position, start, end, radius; start and end relative to the \
                 position)",
            ),
            (
                "shape = \"capsule\"\nposition = [0, 1]\nend = [0, 2]\nradius = 0.5\n",
                7,
                "body 1: a capsule needs `start` (it takes position, start, end, radius; start and end relative to \
                 the position)",
            ),
            (
                "position = [0, 1]\nstart = [0, 0]\nradius = 0.5\n",
                7,
                "body 1: a circle has no `start` (it takes position, radius; a capsule body needs shape = \"capsule\")",
            ),
            (
                "shape = \"circle\"\nposition = [0, 1]\nradius = 0.5\nend = [0, 2]\n",
                7,
                "body 1: a circle has no `end` (it takes position, radius; a capsule body needs shape = \"capsule\")",
            ),
        ];
        for (tail, line, message) in cases {
            let e = error(&format!("{head}{tail}"));
            assert_eq!((e.kind, e.line, e.message.as_str()), (SceneErrorKind::Invalid, Some(line), message), "{tail}");
        }
        // An unknown shape: at the `shape` line, naming it and the two there are.
        let e = error(&format!("{head}position = [0, 1]\nradius = 0.5\nshape = \"triangle\"\n"));
        assert_eq!((e.kind, e.line), (SceneErrorKind::Invalid, Some(10)), "{e}");
        for word in ["triangle", "circle", "capsule"] {
            assert!(e.message.contains(word), "{word}: {e}");
        }
        // Colliders' shapes are not bodies' shapes.
        let e = error(&format!("{head}shape = \"segment\"\nposition = [0, 1]\nstart = [0, 0]\nend = [1, 0]\n"));
        assert_eq!((e.line, e.message.contains("segment")), (Some(8), true), "{e}");
        // The core's values are checked as a collider's are.
        let e = error(&format!(
            "{head}shape = \"capsule\"\nposition = [0, 1]\nstart = [nan, 0]\nend = [0, 2]\nradius = 1\n"
        ));
        assert_eq!((e.line, e.message.contains("finite")), (Some(10), true), "{e}");
    }

    #[test]
    fn a_capsule_whose_ends_are_both_zero_is_a_circle() {
        let text = "gravity = [0.0, -0.1]\n[[body]]\nshape = \"capsule\"\nposition = [0, 1]\nstart = [0, 0]\nend = [0.0, 0]\nradius = 1\n";
        let scene = Scene::parse(text).unwrap();
        assert_eq!(scene.bodies, [BodySpec::new(Vec2::new(0.0, 1.0), 1.0)]);
        assert!(!scene.to_toml().contains("shape"), "saved as a circle:\n{}", scene.to_toml());
    }

    #[test]
    fn capsule_bodies_are_saved_and_loaded_back_equal() {
        let scratch = Scratch::new("scene-capsules");
        let path = scratch.file("capsules.toml", CAPSULES.as_bytes());
        let scene = Scene::load(&path).unwrap();
        scene.save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(Scene::load(&path).unwrap(), scene);
        // Written in the order a reader expects: the shape, then where.
        let standing = "[[body]]\nshape = \"capsule\"\nposition = [1.0, 2.0]\nstart = [0.0, -0.5]\nend = [0.0, 1.5]\nradius = 0.5\nvelocity = [0.0, 0.0]\n";
        assert!(text.contains(standing), "{text}");
        // In every precision, through the world and back.
        for kind in ScalarKind::ALL {
            let world = crate::sim::build(&scene, kind).unwrap();
            assert_eq!(world.to_scene().bodies, scene.bodies, "{kind}");
        }
    }

    #[test]
    fn circle_bodies_are_saved_exactly_as_they_always_were() {
        let text = "gravity = [0.0, -0.1]\n[[body]]\nposition = [0, 1]\nradius = 0.5\n\n[[body]]\nposition = [2, 1]\n\
                    radius = 0.25\nvelocity = [0.5, 0]\nrestitution = 0.5\ninverse_mass = 0\nfriction = 0.25\n\
                    gravity_scale = 0.5\nsensor = true\nlayer = 2\nmask = 3\ntag = 4\n";
        let saved = Scene::parse(text).unwrap().to_toml();
        let expected = "[[body]]\nposition = [0.0, 1.0]\nradius = 0.5\nvelocity = [0.0, 0.0]\nrestitution = 0.0\n\
                        inverse_mass = 1.0\n\n[[body]]\nposition = [2.0, 1.0]\nradius = 0.25\nvelocity = [0.5, 0.0]\n\
                        restitution = 0.5\ninverse_mass = 0.0\nfriction = 0.25\ngravity_scale = 0.5\nsensor = true\n\
                        layer = 2\nmask = 3\ntag = 4\n";
        assert!(saved.ends_with(expected), "{saved}");
    }

    #[test]
    fn the_player_scene_parses_and_builds_in_every_precision_with_capsule_bodies() {
        let scene = Scene::parse(include_str!("../scenes/player.toml")).unwrap();
        assert!(!scene.bodies.is_empty() && scene.bodies.iter().all(BodySpec::is_capsule));
        for kind in ScalarKind::ALL {
            crate::num::with_scalar!(kind, S => {
                let world = scene.build::<S>().unwrap_or_else(|e| panic!("{kind}: {e}"));
                assert!(world.bodies().iter().all(geom_core::world::Body::is_capsule), "{kind}");
            });
        }
    }

    #[test]
    fn a_saved_scene_reads_back_equal() {
        let mut scene = Scene::parse(DEFAULT_SCENE).unwrap();
        scene.settings.bounce_threshold = Some(0.125);
        scene.settings.max_substeps = Some(6);
        scene.scalar = Some(ScalarKind::I48F16);
        scene.bodies[0].velocity = Vec2::new(0.1, -1.0 / 3.0);
        assert_eq!(Scene::parse(&scene.to_toml()).unwrap(), scene);
    }

    #[test]
    fn saving_replaces_the_file_whole_and_leaves_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("geom-tui-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("scene.toml");
        std::fs::write(&path, "old contents").unwrap();
        let scene = Scene::parse(DEFAULT_SCENE).unwrap();
        scene.save(&path).unwrap();
        assert_eq!(Scene::load(&path).unwrap(), scene);
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["scene.toml"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn saving_into_a_missing_directory_fails_and_names_the_path() {
        let path = std::env::temp_dir().join("geom-tui-no-such-dir").join("scene.toml");
        let e = Scene::parse(DEFAULT_SCENE).unwrap().save(&path).unwrap_err();
        assert!(e.to_string().contains("geom-tui-no-such-dir"), "{e}");
        assert!(e.to_string().ends_with("geom-tui-no-such-dir"), "{e}");
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
    }

    use crate::scratch::Scratch;

    fn limit() -> usize {
        usize::try_from(MAX_FILE_BYTES).unwrap()
    }

    #[test]
    fn a_file_over_the_size_limit_is_refused_from_its_length_without_reading_it() {
        let scratch = Scratch::new("scene-large");
        let path = scratch.0.join("huge.toml");
        // Sparse: 16 MiB and one byte long, and no disk used.
        std::fs::File::create(&path).unwrap().set_len(MAX_FILE_BYTES + 1).unwrap();
        let e = Scene::load(&path).unwrap_err();
        assert_eq!((e.kind, e.line), (SceneErrorKind::TooLarge { size: Some(MAX_FILE_BYTES + 1) }, None));
        assert_eq!(
            e.to_string(),
            format!(
                "{}: too large: 16777217 bytes, more than the 16777216 (16 MiB) a scene file may have",
                path.display()
            )
        );
        // Exactly at the limit, it is read (and refused for what it holds).
        std::fs::File::create(&path).unwrap().set_len(MAX_FILE_BYTES).unwrap();
        assert_eq!(Scene::load(&path).unwrap_err().kind, SceneErrorKind::NotText { byte: 0 });
    }

    #[cfg(unix)]
    #[test]
    fn a_file_that_never_ends_is_refused_one_byte_past_the_limit() {
        let e = Scene::load(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(e.kind, SceneErrorKind::TooLarge { size: None });
        assert_eq!(e.to_string(), "/dev/zero: too large: more than the 16777216 bytes (16 MiB) a scene file may have");
    }

    #[test]
    fn text_over_the_size_limit_is_refused_before_it_is_parsed() {
        let text = format!("gravity = [0.0, -0.1]\n#{}\n", "x".repeat(limit()));
        let e = error(&text);
        assert_eq!(e.kind, SceneErrorKind::TooLarge { size: Some(u64::try_from(text.len()).unwrap()) }, "{e}");
        let just_fits = format!("gravity = [0.0, -0.1]\n#{}\n", "x".repeat(limit() - 24));
        assert_eq!(just_fits.len(), limit());
        assert!(Scene::parse(&just_fits).is_ok());
    }

    #[test]
    fn a_directory_is_refused_as_one() {
        let scratch = Scratch::new("scene-dir");
        let e = Scene::load(&scratch.0).unwrap_err();
        assert_eq!(e.kind, SceneErrorKind::Io(std::io::ErrorKind::IsADirectory));
        assert_eq!(e.to_string(), format!("{}: a directory, not a scene file", scratch.0.display()));
    }

    #[test]
    fn binary_garbage_is_refused_as_not_text_naming_the_first_byte_that_is_not() {
        let scratch = Scratch::new("scene-binary");
        let cases: [(&[u8], usize, usize, &str); 5] = [
            (b"gravity = [0.0, -0.1]\n\xff\xfe\x00garbage", 22, 2, "not UTF-8 text: byte 22 is 0xff"),
            (
                b"gravity = [0.0, -0.1]\n\n# caf\xc3",
                28,
                3,
                "not UTF-8 text: the file ends inside a character at byte 28 (cut short?)",
            ),
            (b"\x7fELF\x02\x01\x01\x00\x00", 7, 1, "not a text file: byte 7 is NUL"),
            (b"gravity = [0.0, -0.1]\x00\xff", 21, 1, "not a text file: byte 21 is NUL"),
            (b"# \xe2\x82\n", 2, 1, "not UTF-8 text: byte 2 is 0xe2"),
        ];
        for (bytes, byte, line, message) in cases {
            let path = scratch.file("garbage.bin", bytes);
            let e = Scene::load(&path).unwrap_err();
            assert_eq!((e.kind, e.line, e.message.as_str()), (SceneErrorKind::NotText { byte }, Some(line), message));
            assert_eq!(e.to_string(), format!("{}:{line}: {message}", path.display()));
        }
        // A NUL in text given directly is refused the same way.
        let e = error("gravity = [0.0, -0.1]\n[[body]]\nposition = [0.0, 1.0]\nradius = 1\0\n");
        assert_eq!((e.kind, e.line), (SceneErrorKind::NotText { byte: 63 }, Some(4)), "{e}");
    }

    #[test]
    fn every_truncation_of_a_scene_is_refused_with_a_line_or_reads_as_a_smaller_scene() {
        let whole = Scene::parse(DEFAULT_SCENE).unwrap();
        let lines = DEFAULT_SCENE.lines().count();
        for end in (0..DEFAULT_SCENE.len()).filter(|&end| DEFAULT_SCENE.is_char_boundary(end)) {
            let cut = &DEFAULT_SCENE[..end];
            match Scene::parse(cut) {
                Ok(scene) => {
                    assert!(scene.bodies.len() <= whole.bodies.len(), "cut at byte {end}");
                    assert!(scene.colliders.len() <= whole.colliders.len(), "cut at byte {end}");
                }
                Err(e) => {
                    assert!(e.kind == SceneErrorKind::Invalid, "cut at byte {end}: {e}");
                    assert!(e.line.is_none_or(|l| (1..=lines + 1).contains(&l)), "cut at byte {end}: {e}");
                    assert!(!e.message.is_empty() && !e.message.contains('\n'), "cut at byte {end}: {e:?}");
                }
            }
        }
        // Cut inside a multi-byte character, as a file on disk can be.
        let scratch = Scratch::new("scene-cut");
        let path = scratch.file("cut.toml", &"# ∞\n".as_bytes()[..3]);
        let e = Scene::load(&path).unwrap_err();
        assert_eq!((e.kind, e.line), (SceneErrorKind::NotText { byte: 2 }, Some(1)), "{e}");
        assert!(e.message.contains("cut short"), "{e}");
    }

    /// `n` bodies as `[[body]]` tables after a gravity line.
    fn bodies(n: usize) -> String {
        format!("gravity = [0.0, -0.1]\n{}", "[[body]]\nposition = [0.0, 1.0]\nradius = 0.5\n".repeat(n))
    }

    #[test]
    fn a_scene_may_have_max_bodies_and_max_colliders_and_no_more() {
        let post = "[[collider]]\nshape = \"circle\"\ncenter = [0.0, 0.0]\nradius = 1.0\n";
        let full = format!("{}{}", bodies(MAX_BODIES), post.repeat(MAX_COLLIDERS));
        let scene = Scene::parse(&full).unwrap();
        assert_eq!((scene.bodies.len(), scene.colliders.len()), (MAX_BODIES, MAX_COLLIDERS));
        assert_eq!(scene.build::<f32>().unwrap().bodies().len(), MAX_BODIES);

        // One more of either, as tables: refused while counting, at its line.
        let e = error(&bodies(MAX_BODIES + 1));
        assert_eq!((e.kind, e.line), (SceneErrorKind::TooManyBodies, Some(2 + 3 * MAX_BODIES)));
        assert_eq!(e.message, "too many bodies: a scene may have at most 5000");
        let e = error(&format!("gravity = [0.0, -0.1]\n{}", post.repeat(MAX_COLLIDERS + 1)));
        assert_eq!((e.kind, e.line), (SceneErrorKind::TooManyColliders, Some(2 + 4 * MAX_COLLIDERS)));
        assert_eq!(e.message, "too many colliders: a scene may have at most 5000");

        // As inline tables: refused once parsed, at the first one too many.
        let inline = format!(
            "gravity = [0.0, -0.1]\nbody = [\n{}]\n",
            "{ position = [0.0, 1.0], radius = 0.5 },\n".repeat(MAX_BODIES + 1)
        );
        let e = error(&inline);
        assert_eq!((e.kind, e.line), (SceneErrorKind::TooManyBodies, Some(3 + MAX_BODIES)), "{e}");

        // Built in code: refused when built.
        let mut scene = Scene::new(Settings::new(Vec2::new(0.0, 0.0)));
        scene.bodies = vec![BodySpec::new(Vec2::new(0.0, 0.0), 1.0); MAX_BODIES + 1];
        let e = scene.build::<f64>().unwrap_err();
        assert_eq!((e.kind, e.line), (SceneErrorKind::TooManyBodies, None));
        scene.bodies.clear();
        scene.colliders = vec![Shape::Circle { center: Vec2::new(0.0, 0.0), radius: 1.0 }.into(); MAX_COLLIDERS + 1];
        assert_eq!(scene.build::<f64>().unwrap_err().kind, SceneErrorKind::TooManyColliders);
    }

    #[test]
    fn a_million_bodies_are_refused_at_once_and_a_file_full_of_them_after_the_first_too_many() {
        let million = bodies(1_000_000);
        let started = std::time::Instant::now();
        assert!(matches!(error(&million).kind, SceneErrorKind::TooLarge { .. }));
        // As many as fit in the size limit: refused at the first too many,
        // without parsing the rest.
        let most = &million[..million[..limit()].rfind("[[body]]").unwrap()];
        let e = error(most);
        assert_eq!((e.kind, e.line), (SceneErrorKind::TooManyBodies, Some(2 + 3 * MAX_BODIES)));
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "took {:?}", started.elapsed());
    }

    #[test]
    fn text_with_too_many_tokens_or_tables_is_refused_before_it_is_parsed() {
        let zeros = format!("gravity = [0.0, -0.1]\nx = [\n{}]\n", "0,".repeat(MAX_TOKENS));
        let e = error(&zeros);
        assert_eq!((e.kind, e.line), (SceneErrorKind::TooComplex, Some(3)), "{e}");
        assert!(e.message.starts_with("too much to read: a scene file may have at most 1048576 TOML tokens"), "{e}");
        let blank = format!("gravity = [0.0, -0.1]\n{}", "\n".repeat(MAX_TOKENS));
        // The first line is 15 tokens: `gravity`, ` `, `=`, ` `, `[`, `0`, `.`, … `\n`.
        assert_eq!(error(&blank).line, Some(MAX_TOKENS - 13), "the line the limit is reached on");
        let tables = format!(
            "gravity = [0.0, -0.1]\n{}",
            (0..=MAX_BODIES + MAX_COLLIDERS).map(|i| ["[t", &i.to_string(), "]\n"].concat()).collect::<String>()
        );
        let e = error(&tables);
        assert_eq!((e.kind, e.line), (SceneErrorKind::TooComplex, Some(2 + MAX_BODIES + MAX_COLLIDERS)), "{e}");
        assert_eq!(e.message, "too many tables: a scene has one for each body and collider, at most 10000");
        let braces = format!("gravity = [0.0, -0.1]\nx = [{}]\n", "{},".repeat(MAX_BODIES + MAX_COLLIDERS + 1));
        assert_eq!(error(&braces).kind, SceneErrorKind::TooComplex);
        // Deep nesting is refused by the parser, not the stack.
        let deep = format!("gravity = [0.0, -0.1]\nx = {}\n", "[".repeat(100_000));
        assert_eq!(error(&deep).kind, SceneErrorKind::Invalid);
    }

    #[test]
    fn the_largest_scene_saves_to_text_well_within_every_limit() {
        // Every number with all 17 digits an f64 may need.
        let long = -1_234.567_890_123_456_7;
        let far = Vec2::new(long, 3.141_592_653_589_793e6);
        let mut scene = Scene::new(Settings { gravity: far, bounce_threshold: Some(-long), max_substeps: Some(255) });
        scene.scalar = Some(ScalarKind::I48F16);
        let mut body = BodySpec::new(far, -long);
        (body.velocity, body.restitution, body.inverse_mass) = (far, 0.123_456_789_012_345_68, 0.987_654_321_098_765_4);
        scene.bodies = vec![body; MAX_BODIES];
        scene.colliders = vec![Shape::Capsule { start: far, end: far, radius: -long }.into(); MAX_COLLIDERS];
        let text = scene.to_toml();
        assert!(text.len() * 4 < limit(), "{} bytes", text.len());
        let tokens = toml_parser::Source::new(&text).lex().count();
        assert!(tokens * 3 / 2 < MAX_TOKENS, "{tokens} tokens");
        assert_eq!(Scene::parse(&text).unwrap(), scene);
    }

    #[test]
    fn a_scene_whose_text_would_be_too_large_to_load_again_is_not_saved() {
        // f64 writes numbers near its ends with every digit: -2.2e-308 takes 330 characters.
        let tiny = Vec2::new(-2.225_073_858_507_201_4e-308, 5e-324);
        let mut scene = Scene::new(Settings::new(tiny));
        let mut body = BodySpec::new(tiny, 5e-324);
        body.velocity = tiny;
        scene.bodies = vec![body; MAX_BODIES];
        scene.colliders = vec![Shape::Capsule { start: tiny, end: tiny, radius: 5e-324 }.into(); MAX_COLLIDERS];
        let scratch = Scratch::new("scene-too-large");
        let path = scratch.file("kept.toml", b"old contents");
        let e = scene.save(&path).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::FileTooLarge);
        assert!(e.to_string().contains(": not written: the scene's text would be "), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), b"old contents");
        assert_eq!(scratch.names(), ["kept.toml"], "no temporary file is left behind");
    }

    #[test]
    fn saving_over_a_read_only_file_is_refused_and_leaves_it_as_it_was() {
        let scratch = Scratch::new("scene-read-only");
        let path = scratch.read_only_file("kept.toml", b"old contents");
        let e = Scene::parse(DEFAULT_SCENE).unwrap().save(&path).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied);
        assert_eq!(e.to_string(), format!("{}: the file is read-only; left as it is", path.display()));
        assert_eq!(std::fs::read(&path).unwrap(), b"old contents");
        assert_eq!(scratch.names(), ["kept.toml"], "no temporary file is left behind");
    }

    #[cfg(unix)]
    #[test]
    fn a_named_pipe_with_no_writer_is_refused_at_once() {
        let scratch = Scratch::new("scene-fifo");
        let pipe = scratch.fifo("scene.fifo");
        let e = Scene::load(&pipe).unwrap_err();
        assert_eq!(e.kind, SceneErrorKind::Io(std::io::ErrorKind::UnexpectedEof));
        assert_eq!(e.to_string(), format!("{}: a pipe with nothing written to it", pipe.display()));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_pipe_with_a_writer_is_read_to_its_end_as_a_shell_passes_one() {
        // `geom-tui <(make-scene)` hands over a path to a pipe whose writer
        // is already there, as here: /proc/self/fd/N names our read end.
        let (reader, mut writer) = std::io::pipe().unwrap();
        let path = PathBuf::from(format!("/proc/self/fd/{}", std::os::fd::AsRawFd::as_raw_fd(&reader)));
        // Longer than a pipe's buffer, so the reader must wait for the rest.
        let text = format!("{DEFAULT_SCENE}{}", "# padding\n".repeat(20_000));
        let writing = std::thread::spawn(move || writer.write_all(text.as_bytes()));
        let scene = Scene::load(&path).unwrap();
        writing.join().unwrap().unwrap();
        drop(reader);
        assert_eq!(scene.bodies, Scene::parse(DEFAULT_SCENE).unwrap().bodies);
    }

    #[cfg(unix)]
    #[test]
    fn saving_through_a_link_writes_the_file_it_names_and_keeps_the_link_and_the_mode() {
        use std::os::unix::fs::{PermissionsExt as _, symlink};
        let scratch = Scratch::new("scene-link");
        std::fs::create_dir(scratch.0.join("real")).unwrap();
        let target = scratch.file("real/scene.toml", b"old contents");
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
        // A relative link, through a second, absolute one.
        symlink("real/scene.toml", scratch.0.join("near")).unwrap();
        let link = scratch.0.join("far");
        symlink(scratch.0.join("near"), &link).unwrap();
        let scene = Scene::parse(DEFAULT_SCENE).unwrap();
        scene.save(&link).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(Scene::load(&target).unwrap(), scene);
        assert_eq!(std::fs::metadata(&target).unwrap().permissions().mode() & 0o777, 0o640);
        let names: Vec<_> =
            std::fs::read_dir(scratch.0.join("real")).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["scene.toml"], "no temporary file is left behind");
        // A link to nothing yet: the file is made where it points.
        symlink("real/new.toml", scratch.0.join("dangling")).unwrap();
        scene.save(&scratch.0.join("dangling")).unwrap();
        assert_eq!(Scene::load(&scratch.0.join("real/new.toml")).unwrap(), scene);
    }

    #[cfg(unix)]
    #[test]
    fn saving_through_a_loop_of_links_is_refused_and_names_the_path() {
        let scratch = Scratch::new("scene-link-loop");
        let (a, b) = (scratch.0.join("a"), scratch.0.join("b"));
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        let e = Scene::parse(DEFAULT_SCENE).unwrap().save(&a).unwrap_err();
        assert_eq!(e.to_string(), format!("{}: more than 40 symbolic links in a row", a.display()));
        assert_eq!(scratch.names(), ["a", "b"]);
    }

    #[test]
    fn saving_to_a_directory_or_a_special_file_is_refused() {
        let scratch = Scratch::new("scene-save-dir");
        std::fs::create_dir(scratch.0.join("sub")).unwrap();
        let scene = Scene::parse(DEFAULT_SCENE).unwrap();
        let e = scene.save(&scratch.0.join("sub")).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::IsADirectory);
        assert_eq!(e.to_string(), format!("{}: a directory, not a file", scratch.0.join("sub").display()));
        assert_eq!(scratch.names(), ["sub"], "no temporary file is left behind");
        let e = scene.save(Path::new("/")).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{e}");
        #[cfg(unix)]
        {
            let e = scene.save(Path::new("/dev/null")).unwrap_err();
            assert_eq!(e.to_string(), "/dev/null: not a regular file; left as it is");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn saving_where_nothing_can_be_written_fails_with_the_path() {
        // /proc takes no new files, even from root.
        let e = Scene::parse(DEFAULT_SCENE).unwrap().save(Path::new("/proc/geom-scene.toml")).unwrap_err();
        assert!(e.to_string().starts_with("/proc/geom-scene.toml: "), "{e}");
        assert!(!Path::new("/proc/geom-scene.toml").exists());
    }
}
