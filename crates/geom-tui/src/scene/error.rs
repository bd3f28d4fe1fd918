//! Why a scene could not be read or built, and the limits reading one
//! keeps to.

use core::fmt;
use std::path::PathBuf;

/// The largest scene file [`Scene::load`](crate::scene::Scene::load)
/// reads, and the longest text [`Scene::parse`](crate::scene::Scene::parse)
/// reads: 16 MiB. A scene at the body and collider limits saved with every
/// number at full `f64` precision takes under 3 MiB.
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
    pub(super) fn new(kind: SceneErrorKind, line: Option<usize>, message: impl Into<String>) -> Self {
        Self { path: None, line, kind, message: message.into() }
    }

    /// Bytes that are not text, at their line.
    pub(super) fn not_text(e: crate::textfile::NotText) -> Self {
        Self::new(SceneErrorKind::NotText { byte: e.byte }, Some(e.line), e.message)
    }

    pub(super) fn too_large(size: Option<u64>) -> Self {
        let message = match size {
            Some(size) => {
                format!("too large: {size} bytes, more than the {MAX_FILE_BYTES} (16 MiB) a scene file may have")
            }
            None => format!("too large: more than the {MAX_FILE_BYTES} bytes (16 MiB) a scene file may have"),
        };
        Self::new(SceneErrorKind::TooLarge { size }, None, message)
    }

    pub(super) fn too_many_bodies(line: Option<usize>) -> Self {
        Self::new(
            SceneErrorKind::TooManyBodies,
            line,
            format!("too many bodies: a scene may have at most {MAX_BODIES}"),
        )
    }

    pub(super) fn too_many_colliders(line: Option<usize>) -> Self {
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
