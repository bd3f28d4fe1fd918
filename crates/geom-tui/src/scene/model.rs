//! What a scene is: its settings, colliders and bodies in `f64`, and the
//! world they build in each scalar type.

use core::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use geom_core::Vec2;
use geom_core::world::{Filter, World, WorldConfig, WorldError};
use serde::Serialize;

use super::error::{MAX_BODIES, MAX_COLLIDERS, SceneError, SceneErrorKind};
use crate::num::{SandboxScalar, ScalarKind};

mod convert;
mod json;

pub(crate) use convert::{of_vec, to_vec};

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
        #[serde(serialize_with = "json::point")]
        start: Vec2<f64>,
        /// The second endpoint.
        #[serde(serialize_with = "json::point")]
        end: Vec2<f64>,
    },
    /// A capsule: a segment with a radius.
    Capsule {
        /// The first endpoint of the core.
        #[serde(serialize_with = "json::point")]
        start: Vec2<f64>,
        /// The second endpoint of the core.
        #[serde(serialize_with = "json::point")]
        end: Vec2<f64>,
        /// The radius.
        radius: f64,
    },
    /// A circle.
    Circle {
        /// The centre.
        #[serde(serialize_with = "json::point")]
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
    #[serde(serialize_with = "json::point", skip_serializing_if = "json::is_zero")]
    pub velocity: Vec2<f64>,
    /// The friction coefficient, 0 or more.
    #[serde(skip_serializing_if = "json::is_zero_f64")]
    pub friction: f64,
    /// How much of an impact's speed comes back, from 0 to 1.
    #[serde(skip_serializing_if = "json::is_zero_f64")]
    pub restitution: f64,
    /// A sensor reports overlaps but never pushes.
    #[serde(skip_serializing_if = "json::is_false")]
    pub sensor: bool,
    /// The layers it is on.
    #[serde(skip_serializing_if = "json::is_default_layer")]
    pub layer: u32,
    /// The layers it collides with.
    #[serde(skip_serializing_if = "json::is_default_mask")]
    pub mask: u32,
    /// The game's own number for it.
    #[serde(skip_serializing_if = "json::is_zero_u64")]
    pub tag: u64,
    /// A one-way collider's solid side (`up` for a platform to jump up
    /// through and land on); `None` for a collider solid all round.
    #[serde(serialize_with = "json::optional_point", skip_serializing_if = "Option::is_none")]
    pub one_way: Option<Vec2<f64>>,
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
            one_way: None,
        }
    }

    /// Whether it moves (a platform).
    ///
    /// See [`ColliderSpec`] for an example.
    #[must_use]
    pub fn is_moving(&self) -> bool {
        self.velocity != Vec2::new(0.0, 0.0)
    }
}

impl From<Shape> for ColliderSpec {
    fn from(shape: Shape) -> Self {
        Self::new(shape)
    }
}

/// A moving body, in `f64`: a circle, or a capsule whose core is given
/// relative to its position (see the [module documentation](crate::scene) for
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
    /// The player (1 or 2) whose inputs drive it in a two-player game on
    /// the scene; none by default. The world never sees it.
    pub player: Option<u8>,
}

impl BodySpec {
    /// A circle body at rest with unit mass, no bounce, no friction, full
    /// gravity, layer 1 meeting every layer, tag 0, and no player.
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
            player: None,
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
    /// How many substeps the solver takes a tick; `None` for the world's
    /// default.
    pub substeps: Option<u8>,
}

impl Settings {
    /// Gravity with the world's defaults for the rest.
    ///
    /// See [`Settings`] for an example.
    #[must_use]
    pub fn new(gravity: Vec2<f64>) -> Self {
        Self { gravity, bounce_threshold: None, substeps: None }
    }

    /// The bounce threshold in effect.
    ///
    /// See [`Settings`] for an example.
    #[must_use]
    pub fn bounce_threshold(&self) -> f64 {
        self.bounce_threshold.unwrap_or_else(|| WorldConfig::new(self.gravity).bounce_threshold)
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
    /// Where the scene was read from, for error messages and for saving.
    pub(super) origin: Origin,
}

/// Where a scene came from (nothing for scenes built in code): the file,
/// the 1-based line of its settings and of each collider and body, for
/// error messages, and the text it was read from, which saving keeps.
#[derive(Clone, Default)]
pub(super) struct Origin {
    pub(super) path: Option<PathBuf>,
    pub(super) gravity: Option<usize>,
    pub(super) bounce_threshold: Option<usize>,
    pub(super) colliders: Vec<usize>,
    pub(super) bodies: Vec<usize>,
    /// The text itself, which saving edits rather than replaces; shared,
    /// as it never changes once read. (Kept as text, not as the document
    /// saving makes of it, which takes tens of times the memory.)
    pub(super) source: Option<Arc<str>>,
}

impl fmt::Debug for Origin {
    /// The file and lines; the source only by its length.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Origin")
            .field("path", &self.path)
            .field("gravity", &self.gravity)
            .field("bounce_threshold", &self.bounce_threshold)
            .field("colliders", &self.colliders)
            .field("bodies", &self.bodies)
            .field("source_bytes", &self.source.as_ref().map(|source| source.len()))
            .finish()
    }
}

impl PartialEq for Origin {
    /// Where a scene came from is not part of what it is.
    fn eq(&self, _: &Self) -> bool {
        true
    }
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
        let settings = self.settings;
        check_values(kind, &[("gravity", settings.gravity.x), ("gravity", settings.gravity.y)])
            .map_err(|e| error(self.origin.gravity, e))?;
        let threshold = settings.bounce_threshold.map(|v| ("bounce threshold", v));
        check_values(kind, threshold.as_slice()).map_err(|e| error(self.origin.bounce_threshold, e))?;
        let mut world = World::new(self.settings.to_config::<S>()).map_err(|e| {
            let line = if e == WorldError::Velocity { self.origin.gravity } else { self.origin.bounce_threshold };
            error(line, explain(e, kind))
        })?;
        for (i, collider) in self.colliders.iter().enumerate() {
            let kind_name = collider.shape.kind();
            check_values(kind, &collider.values()).map_err(|e| {
                error(self.origin.colliders.get(i).copied(), format!("collider {i} ({kind_name}): {e}"))
            })?;
            collider.to_def::<S>().and_then(|def| world.add_collider(def)).map_err(|e| {
                error(
                    self.origin.colliders.get(i).copied(),
                    format!("collider {i} ({}): {}", collider.shape.kind(), explain(e, kind)),
                )
            })?;
        }
        for (i, body) in self.bodies.iter().enumerate() {
            check_values(kind, &body.values())
                .map_err(|e| error(self.origin.bodies.get(i).copied(), format!("body {i}: {e}")))?;
            world
                .add_body(body.to_def::<S>())
                .map_err(|e| error(self.origin.bodies.get(i).copied(), format!("body {i}: {}", explain(e, kind))))?;
        }
        Ok(world)
    }
}

/// A world error in words a scene author can act on.
pub(crate) fn explain(error: WorldError, kind: ScalarKind) -> String {
    match error {
        WorldError::Velocity => format!("a velocity or the gravity is not finite or outside {}", range(kind)),
        WorldError::Friction => format!("the friction is negative or beyond {}", range(kind)),
        WorldError::GravityScale => format!("the gravity scale is outside {}", range(kind)),
        WorldError::OneWay => format!("the one-way direction is zero or outside {}", range(kind)),
        WorldError::Shape(e) => e.to_string(),
        other => other.to_string(),
    }
}

/// `v` as a user would type it: the shortest text that reads back as the
/// same `f64`, a whole number without `.0` (`1e30`, `-1`, `0.1`).
pub(crate) fn typed(v: f64) -> String {
    let text = format!("{v:?}");
    text.strip_suffix(".0").map_or_else(|| text.clone(), str::to_owned)
}

/// `kind`'s safe range in words, with a bound one can read:
/// `I32F32's safe range ±268435456`, `f64's safe range ±1.8e72`.
pub(crate) fn range(kind: ScalarKind) -> String {
    let max = kind.max_coord();
    let bound = if max < 1e15 { typed(max) } else { format!("{max:.1e}") };
    format!("{kind}'s safe range ±{bound}")
}

/// Refuses a value (named as the user knows it) outside `kind`'s safe range
/// or, for a friction, below zero, before it is converted to `kind`: the
/// message gives the value as typed, where the world would see it rounded
/// or held at the type's limit.
///
/// # Errors
///
/// The first value refused, in words.
pub(crate) fn check_values(kind: ScalarKind, values: &[(&str, f64)]) -> Result<(), String> {
    let max = kind.max_coord();
    for &(what, v) in values {
        if what == "friction" && v < 0.0 {
            return Err(format!("friction {} is negative", typed(v)));
        }
        if v.abs() > max {
            let beyond = if what == "friction" { "beyond" } else { "outside" };
            return Err(format!("{what} {} is {beyond} {}", typed(v), range(kind)));
        }
    }
    Ok(())
}

/// The origin, the default of every velocity and of a circle body's core.
pub(super) fn zero() -> Vec2<f64> {
    Vec2::new(0.0, 0.0)
}

/// The layer a body or collider is on unless it says otherwise.
pub(super) fn default_layer() -> u32 {
    Filter::default().layer
}

/// The layers a body or collider meets unless it says otherwise.
pub(super) fn default_mask() -> u32 {
    Filter::default().mask
}

#[cfg(test)]
mod tests;
