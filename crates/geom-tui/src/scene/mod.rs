//! Scenes: what the sandbox loads and saves, in a human-editable TOML
//! format, with every value in `f64` so one file serves every scalar type.
//!
//! ```toml
//! gravity = [0.0, -0.015625]   # units per tick per tick
//! # bounce_threshold = 0.0625  # optional: impacts slower than this stop
//! # substeps = 8               # optional: the solver's substeps a tick
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
//! [[collider]]                 # a one-way ledge: jump up through, land on top
//! shape = "segment"
//! start = [-3.0, 3.0]
//! end = [-1.0, 3.0]
//! one_way = [0.0, 1.0]         # optional: the solid side (default: all round)
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
//! player = 1                   # optional: the player (1 or 2) whose inputs drive it
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
//! tag is an integer from 0 to 2⁶³ − 1 (TOML's integers are signed). A
//! body's `player` (1 or 2, each on one body at most) is for a two-player
//! game on the scene: the world never sees it, and the sandbox keeps it
//! through edits and saves.
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
//! Saving a scene read from a file keeps the file as it was written (its
//! comments, spacing, order of keys and numbers as typed) and changes only
//! the values that changed; see [`Scene::to_toml`]. A scene built in code
//! is written whole.
//!
//! # Limits
//!
//! Any file may be handed to the sandbox, so reading one is bounded: a scene
//! file has at most [`MAX_FILE_BYTES`] bytes of UTF-8 text and at most
//! [`MAX_TOKENS`] TOML tokens, and a scene at most [`MAX_BODIES`] bodies
//! and [`MAX_COLLIDERS`] colliders. Each is checked before the memory it
//! guards is spent, and each refusal is a [`SceneError`] saying which limit
//! and where, never a panic.

mod error;
mod file;
mod model;
mod toml;

pub use error::{MAX_BODIES, MAX_COLLIDERS, MAX_FILE_BYTES, MAX_TOKENS, SceneError, SceneErrorKind};
pub(crate) use file::save_text;
pub use model::{BodySpec, ColliderSpec, Scene, Settings, Shape};
pub(crate) use model::{check_values, explain, of_vec, to_vec};

/// The scene the sandbox opens with no file given: a fast ball that would
/// tunnel through a thin wall without swept tests, balls resting on and
/// bouncing off segments and capsules, balls colliding, and a point (a body
/// of radius 0) landing on a segment.
pub const DEFAULT_SCENE: &str = include_str!("../../scenes/default.toml");

/// What the scene modules' tests share.
#[cfg(test)]
mod testing {
    use super::{MAX_FILE_BYTES, Scene, SceneError};

    /// The error `text` is refused with.
    pub(super) fn error(text: &str) -> SceneError {
        Scene::parse(text).expect_err("the scene should be refused")
    }

    /// `n` bodies as `[[body]]` tables after a gravity line.
    pub(super) fn bodies(n: usize) -> String {
        format!("gravity = [0.0, -0.1]\n{}", "[[body]]\nposition = [0.0, 1.0]\nradius = 0.5\n".repeat(n))
    }

    /// The same scene built in code: with no text to keep, it is written
    /// anew.
    pub(super) fn built_in_code(scene: &Scene) -> Scene {
        let mut built = Scene::new(scene.settings);
        built.scalar = scene.scalar;
        built.colliders.clone_from(&scene.colliders);
        built.bodies.clone_from(&scene.bodies);
        built
    }

    /// [`MAX_FILE_BYTES`] as a length.
    pub(super) fn limit() -> usize {
        usize::try_from(MAX_FILE_BYTES).unwrap()
    }

    /// A floor, a standing capsule body, a lying one with everything set,
    /// and a circle.
    pub(super) const CAPSULES: &str = r#"gravity = [0.0, -0.125]

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
}
