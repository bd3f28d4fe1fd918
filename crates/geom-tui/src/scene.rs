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
//! [[body]]                     # a moving circle
//! position = [0.0, 8.0]
//! radius = 0.5
//! velocity = [0.25, 0.0]       # optional, units per tick (default 0)
//! restitution = 0.5            # optional, 0 to 1 (default 0)
//! inverse_mass = 1.0           # optional, 0 = immovable (default 1)
//! ```
//!
//! Colliders and bodies get their ids in the order they are listed. A value
//! the file's own rules refuse (a negative radius, a restitution above 1, a
//! NaN) is an error naming its line; so is a value outside the chosen
//! scalar type's safe range when the scene is built.

use core::fmt;
use core::ops::Range;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use geom_core::Vec2;
use geom_core::world::{BodyDef, Collider, World, WorldConfig, WorldError};
use geom_core::{Capsule, Circle, Segment};
use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::num::{SandboxScalar, ScalarKind};

/// The scene the sandbox opens with no file given: a fast ball that would
/// tunnel through a thin wall without swept tests, balls resting on and
/// bouncing off segments and capsules, balls colliding, and a point landing
/// exactly on a segment.
pub const DEFAULT_SCENE: &str = include_str!("../scenes/default.toml");

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

    /// The collider in scalar type `S`.
    pub(crate) fn to_collider<S: SandboxScalar>(self) -> Result<Collider<S>, WorldError> {
        let p = to_vec::<S>;
        Ok(match self {
            Self::Segment { start, end } => Collider::Segment(Segment::new(p(start), p(end))?),
            Self::Capsule { start, end, radius } => {
                Collider::Capsule(Capsule::new(p(start), p(end), S::from_f64(radius))?)
            }
            Self::Circle { center, radius } => Collider::Circle(Circle::new(p(center), S::from_f64(radius))?),
        })
    }

    /// The shape of a collider, in `f64`.
    pub(crate) fn of_collider<S: SandboxScalar>(collider: &Collider<S>) -> Self {
        let p = of_vec::<S>;
        match collider {
            Collider::Segment(s) => Self::Segment { start: p(s.start()), end: p(s.end()) },
            Collider::Capsule(c) => {
                let s = c.segment();
                Self::Capsule { start: p(s.start()), end: p(s.end()), radius: c.radius().to_f64() }
            }
            Collider::Circle(c) => Self::Circle { center: p(c.center()), radius: c.radius().to_f64() },
        }
    }
}

/// A moving body, in `f64`.
///
/// # Examples
///
/// ```
/// use geom_core::Vec2;
/// use geom_tui::scene::BodySpec;
///
/// let ball = BodySpec::new(Vec2::new(0.0, 4.0), 0.5);
/// assert_eq!((ball.velocity, ball.inverse_mass, ball.restitution), (Vec2::new(0.0, 0.0), 1.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodySpec {
    /// The centre.
    #[serde(with = "point")]
    pub position: Vec2<f64>,
    /// The radius, at least zero.
    #[serde(deserialize_with = "radius")]
    pub radius: f64,
    /// The velocity, in units per tick.
    #[serde(with = "point", default = "zero")]
    pub velocity: Vec2<f64>,
    /// How much of an impact's speed comes back, from 0 to 1.
    #[serde(deserialize_with = "restitution", default)]
    pub restitution: f64,
    /// One over the mass; zero makes the body immovable.
    #[serde(deserialize_with = "non_negative", default = "one")]
    pub inverse_mass: f64,
}

impl BodySpec {
    /// A body at rest with unit mass and no bounce.
    ///
    /// See [`BodySpec`] for an example.
    #[must_use]
    pub fn new(position: Vec2<f64>, radius: f64) -> Self {
        Self { position, radius, velocity: Vec2::new(0.0, 0.0), restitution: 0.0, inverse_mass: 1.0 }
    }

    /// The body in scalar type `S`.
    pub(crate) fn to_def<S: SandboxScalar>(self) -> BodyDef<S> {
        BodyDef {
            position: to_vec(self.position),
            velocity: to_vec(self.velocity),
            radius: S::from_f64(self.radius),
            inverse_mass: S::from_f64(self.inverse_mass),
            restitution: S::from_f64(self.restitution),
        }
    }

    /// A body definition, in `f64`.
    pub(crate) fn of_def<S: SandboxScalar>(def: &BodyDef<S>) -> Self {
        Self {
            position: of_vec(def.position),
            radius: def.radius.to_f64(),
            velocity: of_vec(def.velocity),
            restitution: def.restitution.to_f64(),
            inverse_mass: def.inverse_mass.to_f64(),
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
    /// Static colliders, in id order.
    pub colliders: Vec<Shape>,
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
/// are), and what is wrong.
///
/// # Examples
///
/// ```
/// use geom_tui::scene::Scene;
///
/// let text = "gravity = [0.0, -0.1]\n\n[[body]]\nposition = [0.0, 1.0]\nradius = -2.0\n";
/// let err = Scene::parse(text).unwrap_err();
/// assert_eq!(err.line, Some(5));
/// assert_eq!(err.to_string(), "line 5: the radius must be zero or more, not -2");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneError {
    /// The file, when the scene came from one.
    pub path: Option<PathBuf>,
    /// The 1-based line the problem is on, when it has one.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
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
    bodies: Vec<Spanned<BodySpec>>,
}

/// A point as `[x, y]`, for a [`Spanned`] field.
struct Point(Vec2<f64>);

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        point::deserialize(d).map(Self)
    }
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
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ShapeKind {
    Segment,
    Capsule,
    Circle,
}

impl ColliderFile {
    fn into_shape(self) -> Result<Shape, String> {
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
        Ok(match self.shape {
            ShapeKind::Segment => Shape::Segment { start, end },
            ShapeKind::Capsule => Shape::Capsule { start, end, radius },
            ShapeKind::Circle => Shape::Circle { center, radius },
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
    colliders: &'a [Shape],
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
    /// a restitution outside `[0, 1]`).
    ///
    /// See [`Scene`] and [`SceneError`] for examples.
    pub fn parse(text: &str) -> Result<Self, SceneError> {
        let file: SceneFile = toml::from_str(text).map_err(|e| SceneError {
            path: None,
            line: e.span().map(|span| line_of(text, &span)),
            message: e.message().trim_end().to_owned(),
        })?;
        let at = |span: Range<usize>| Some(line_of(text, &span));
        let refuse =
            |span: Range<usize>, message: &str| SceneError { path: None, line: at(span), message: message.to_owned() };
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
            colliders: file.colliders.iter().map(|c| line_of(text, &c.span())).collect(),
            bodies: file.bodies.iter().map(|b| line_of(text, &b.span())).collect(),
        };
        let colliders = file
            .colliders
            .into_iter()
            .zip(&origin.colliders)
            .enumerate()
            .map(|(i, (collider, &line))| {
                collider.into_inner().into_shape().map_err(|message| SceneError {
                    path: None,
                    line: Some(line),
                    message: format!("collider {i}: {message}"),
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
            bodies: file.bodies.into_iter().map(Spanned::into_inner).collect(),
            origin,
        })
    }

    /// Reads a scene file.
    ///
    /// # Errors
    ///
    /// The file cannot be read, or [`Scene::parse`] refuses it; the message
    /// starts with the path.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_tui::scene::Scene;
    ///
    /// let err = Scene::load("no/such/scene.toml".as_ref()).unwrap_err();
    /// assert!(err.to_string().starts_with("no/such/scene.toml: "));
    /// ```
    pub fn load(path: &Path) -> Result<Self, SceneError> {
        let in_file = |e: SceneError| SceneError { path: Some(path.to_owned()), ..e };
        let text = std::fs::read_to_string(path)
            .map_err(|e| in_file(SceneError { path: None, line: None, message: e.to_string() }))?;
        let mut scene = Self::parse(&text).map_err(in_file)?;
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
    /// # Errors
    ///
    /// The I/O error, with the path; the old file, if any, is untouched.
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
        let with_path = |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let name = path.file_name().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{}: not a file name", path.display()))
        })?;
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".{}.tmp", std::process::id()));
        let temp = path.with_file_name(temp_name);
        let write = || -> std::io::Result<()> {
            let mut file = std::fs::File::create(&temp)?;
            file.write_all(self.to_toml().as_bytes())?;
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
        let kind = S::KIND;
        let error = |line: Option<usize>, message: String| SceneError { path: self.origin.path.clone(), line, message };
        let mut world = World::new(self.settings.to_config::<S>()).map_err(|e| {
            let line = if e == WorldError::Velocity { self.origin.gravity } else { self.origin.bounce_threshold };
            error(line, explain(e, kind))
        })?;
        for (i, shape) in self.colliders.iter().enumerate() {
            let collider = shape.to_collider::<S>().map_err(|e| {
                error(
                    self.origin.colliders.get(i).copied(),
                    format!("collider {i} ({}): {}", shape.kind(), explain(e, kind)),
                )
            })?;
            world.add_collider(collider);
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
        WorldError::Shape(e) => e.to_string(),
        other => other.to_string(),
    }
}

/// The 1-based line of a byte offset's span start.
fn line_of(text: &str, span: &Range<usize>) -> usize {
    let end = span.start.min(text.len());
    text.char_indices().take_while(|&(i, _)| i < end).filter(|&(_, c)| c == '\n').count() + 1
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
    }
}
