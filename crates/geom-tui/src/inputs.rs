//! Inputs for a headless run: impulses and velocities applied to bodies at
//! given ticks, read from a TOML file (`geom-tui run SCENE --ticks N
//! --inputs FILE`), so that a run that needs a push, such as a rollback
//! bug report, can be reproduced from two files.
//!
//! ```toml
#![doc = include_str!("../inputs/example.toml")]
//! ```
//!
//! - An `[[impulse]]` goes through geom's
//!   [`World::apply_impulse`](geom_core::world::World::apply_impulse): the
//!   body's velocity changes by the impulse times its inverse mass. A
//!   `[[velocity]]` goes through
//!   [`World::set_velocity`](geom_core::world::World::set_velocity). A
//!   `[[move]]` moves a character (a body of inverse mass 0) by its
//!   `motion` through
//!   [`World::move_character`](geom_core::world::World::move_character),
//!   with the sandbox's [`character_config`]: what a player's input does
//!   in a platformer, and what the sandbox's play mode records.
//! - Each input applies when the world is at its `tick`, after that tick's
//!   checksum line (and events) are printed and before the world steps to
//!   `tick + 1`: the first line an input can change is `tick + 1`'s.
//! - Inputs at the same tick apply in the order the file lists them,
//!   `[[impulse]]` and `[[velocity]]` tables alike; the file need not be
//!   in tick order.
//! - `body` is a body's id: its place in the scene's list of bodies,
//!   from 0.
//! - Every number is converted from `f64` to the run's scalar type once,
//!   as the scene's numbers are (rounded to the nearest, ties to even).
//! - An input at or beyond `--ticks` is allowed, checked like any other,
//!   and never applied (the run ends first), so one file serves runs of
//!   any length.
//!
//! # Errors
//!
//! Every refusal is an [`InputsError`] naming the file and, where there is
//! one, the line: an unknown key or table, a missing key, a value of the
//! wrong kind, a negative tick, a number that is not finite; and, once the
//! scene and scalar type are known and before anything is printed, a body
//! the scene does not have, or a value outside the scalar type's safe
//! range. An impulse that would take a body's velocity outside the safe
//! range is found only when it is applied, so that error ends the run at
//! its tick, after the lines before it.
//!
//! # Limits
//!
//! The same as a scene file's: at most [`MAX_FILE_BYTES`] bytes of UTF-8
//! text and at most [`MAX_TOKENS`] TOML tokens, checked before the memory
//! they guard is spent.

use core::fmt;
use core::marker::PhantomData;
use core::ops::Range;
use std::path::{Path, PathBuf};

use geom_core::Vec2;
use geom_core::world::{BodyId, CharacterConfig, World, WorldError};
use serde::Deserialize;
use toml::Spanned;

use crate::num::{SandboxScalar, ScalarKind};
use crate::scene::{MAX_FILE_BYTES, MAX_TOKENS};
use crate::textfile::{self, Refusal};

/// The example inputs file shown in the module documentation and in
/// `geom-tui run --help`.
///
/// # Examples
///
/// ```
/// use geom_tui::inputs::{Inputs, EXAMPLE};
///
/// assert_eq!(Inputs::parse(EXAMPLE)?.items().len(), 3);
/// # Ok::<(), geom_tui::inputs::InputsError>(())
/// ```
pub const EXAMPLE: &str = include_str!("../inputs/example.toml");

/// What an input does to its body.
///
/// # Examples
///
/// ```
/// use geom_core::Vec2;
/// use geom_tui::inputs::Action;
///
/// let push = Action::Impulse(Vec2::new(0.5, 0.0));
/// assert_eq!((push.name(), push.value()), ("impulse", Vec2::new(0.5, 0.0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// Adds this impulse times the body's inverse mass to its velocity.
    Impulse(Vec2<f64>),
    /// Sets the body's velocity, in units per tick.
    Velocity(Vec2<f64>),
    /// Moves a character by this motion, in units this tick.
    Move(Vec2<f64>),
}

impl Action {
    /// The name of its table and key in the file: `impulse` or `velocity`.
    ///
    /// See [`Action`] for an example.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Impulse(_) => "impulse",
            Self::Velocity(_) => "velocity",
            Self::Move(_) => "move",
        }
    }

    /// The impulse or velocity, as the file gives it.
    ///
    /// See [`Action`] for an example.
    #[must_use]
    pub const fn value(&self) -> Vec2<f64> {
        match *self {
            Self::Impulse(v) | Self::Velocity(v) | Self::Move(v) => v,
        }
    }
}

/// One input: what happens to which body at which tick.
///
/// # Examples
///
/// ```
/// use geom_tui::inputs::Inputs;
///
/// let inputs = Inputs::parse("[[impulse]]\ntick = 3\nbody = 1\nimpulse = [0.0, 2.0]\n")?;
/// let input = &inputs.items()[0];
/// assert_eq!((input.tick, input.body, input.action.name(), input.line), (3, 1, "impulse", 1));
/// # Ok::<(), geom_tui::inputs::InputsError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    /// The tick the world is at when it applies.
    pub tick: u64,
    /// The body's id.
    pub body: u32,
    /// What it does.
    pub action: Action,
    /// The 1-based line of its table (`[[impulse]]` or `[[velocity]]`).
    pub line: usize,
    /// The line of its `body` key.
    body_line: usize,
    /// The line of its `impulse` or `velocity` key.
    value_line: usize,
}

/// The inputs of a run, in the order they apply: by tick, then in file
/// order.
///
/// # Examples
///
/// ```
/// use geom_tui::inputs::Inputs;
///
/// let text = "[[velocity]]\ntick = 5\nbody = 0\nvelocity = [1, 0]\n\n\
///             [[impulse]]\ntick = 2\nbody = 0\nimpulse = [0, 1]\n\n\
///             [[impulse]]\ntick = 5\nbody = 1\nimpulse = [0, 1]\n";
/// let inputs = Inputs::parse(text)?;
/// let order: Vec<_> = inputs.items().iter().map(|i| (i.tick, i.action.name(), i.line)).collect();
/// assert_eq!(order, [(2, "impulse", 6), (5, "velocity", 1), (5, "impulse", 11)]);
/// assert!(Inputs::default().items().is_empty());
/// # Ok::<(), geom_tui::inputs::InputsError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inputs {
    /// The file they came from, if any.
    path: Option<PathBuf>,
    /// Sorted by tick, then by line.
    items: Vec<Input>,
}

/// Why an inputs file was refused, or an input could not be applied.
///
/// # Examples
///
/// ```
/// use geom_tui::inputs::{Inputs, InputsErrorKind};
///
/// let err = Inputs::parse("[[impulse]]\ntick = 1\nbody = 0\nimpulse = [nan, 0.0]\n").unwrap_err();
/// assert_eq!((err.kind, err.line), (InputsErrorKind::Invalid, Some(4)));
/// assert!(err.to_string().starts_with("line 4: "), "{err}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputsError {
    /// The file, when the inputs came from one.
    pub path: Option<PathBuf>,
    /// The 1-based line the problem is on, when it has one.
    pub line: Option<usize>,
    /// What kind of problem it is.
    pub kind: InputsErrorKind,
    /// What is wrong.
    pub message: String,
}

/// What kind of problem an [`InputsError`] reports.
///
/// # Examples
///
/// See [`InputsError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputsErrorKind {
    /// The file could not be opened or read: it is missing, unreadable, or
    /// a directory.
    Io(std::io::ErrorKind),
    /// The file or text is longer than [`MAX_FILE_BYTES`].
    TooLarge {
        /// Its length, when it has one: `None` for a file that grew while
        /// it was read or that never ends.
        size: Option<u64>,
    },
    /// The bytes are not UTF-8 text, or hold a NUL.
    NotText {
        /// The offset of the first byte that is not text.
        byte: usize,
    },
    /// The text has more than [`MAX_TOKENS`] TOML tokens.
    TooComplex,
    /// The text is not an inputs file: a TOML syntax error, an unknown or
    /// missing key, a value of the wrong kind or one the format refuses.
    Invalid,
    /// An input names a body the scene does not have.
    UnknownBody,
    /// A `[[move]]` names a body that is not a character (its inverse
    /// mass is not 0).
    NotCharacter,
    /// A value is outside the scalar type's safe range, or an impulse
    /// would take a velocity outside it.
    OutOfRange,
}

impl InputsError {
    fn new(kind: InputsErrorKind, line: Option<usize>, message: impl Into<String>) -> Self {
        Self { path: None, line, kind, message: message.into() }
    }

    fn too_large(size: Option<u64>) -> Self {
        let message = match size {
            Some(size) => {
                format!("too large: {size} bytes, more than the {MAX_FILE_BYTES} (16 MiB) an inputs file may have")
            }
            None => format!("too large: more than the {MAX_FILE_BYTES} bytes (16 MiB) an inputs file may have"),
        };
        Self::new(InputsErrorKind::TooLarge { size }, None, message)
    }

    fn in_file(self, path: Option<&Path>) -> Self {
        Self { path: path.map(Path::to_owned), ..self }
    }
}

impl fmt::Display for InputsError {
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

impl std::error::Error for InputsError {}

/// The file's layout.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InputsFile {
    #[serde(default, deserialize_with = "impulses")]
    impulse: Vec<Spanned<ImpulseTable>>,
    #[serde(default, deserialize_with = "velocities")]
    velocity: Vec<Spanned<VelocityTable>>,
    #[serde(default, rename = "move", deserialize_with = "moves")]
    moves: Vec<Spanned<MoveTable>>,
}

fn moves<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Spanned<MoveTable>>, D::Error> {
    d.deserialize_seq(Tables("move", PhantomData))
}

fn impulses<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Spanned<ImpulseTable>>, D::Error> {
    d.deserialize_seq(Tables("impulse", PhantomData))
}

fn velocities<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Spanned<VelocityTable>>, D::Error> {
    d.deserialize_seq(Tables("velocity", PhantomData))
}

/// Reads a list of tables, saying what to write instead when given one
/// table (`[impulse]` for `[[impulse]]`) or anything else.
struct Tables<T>(&'static str, PhantomData<T>);

impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Tables<T> {
    type Value = Vec<Spanned<T>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`[[{}]]` tables, with two brackets: one for each input", self.0)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut tables = Vec::new();
        while let Some(table) = seq.next_element()? {
            tables.push(table);
        }
        Ok(tables)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImpulseTable {
    tick: Tick,
    body: Spanned<Body>,
    impulse: Spanned<Vector>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VelocityTable {
    tick: Tick,
    body: Spanned<Body>,
    velocity: Spanned<Vector>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveTable {
    tick: Tick,
    body: Spanned<Body>,
    motion: Spanned<Vector>,
}

/// A tick: TOML's integers are signed, so 0 to 2⁶³ − 1.
struct Tick(u64);

impl<'de> Deserialize<'de> for Tick {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = i64::deserialize(d)
            .map_err(|e| serde::de::Error::custom(format!("a tick is a whole number from 0: {e}")))?;
        u64::try_from(v)
            .map(Self)
            .map_err(|_| serde::de::Error::custom(format!("a tick is a whole number from 0, not {v}")))
    }
}

/// A body's id: 0 to 2³² − 1.
struct Body(u32);

impl<'de> Deserialize<'de> for Body {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let what = "a body is named by its id, a whole number from 0";
        let v = i64::deserialize(d).map_err(|e| serde::de::Error::custom(format!("{what}: {e}")))?;
        u32::try_from(v).map(Self).map_err(|_| serde::de::Error::custom(format!("{what}, not {v}")))
    }
}

/// An impulse or velocity as `[x, y]`, both finite.
struct Vector(Vec2<f64>);

impl<'de> Deserialize<'de> for Vector {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let [x, y] = <[f64; 2]>::deserialize(d)?;
        if x.is_finite() && y.is_finite() {
            Ok(Self(Vec2::new(x, y)))
        } else {
            Err(serde::de::Error::custom(format!("a vector must have finite coordinates, not [{x}, {y}]")))
        }
    }
}

/// The offsets of a text's line breaks, to turn byte offsets into lines.
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Self {
        Self(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i).collect())
    }

    /// The 1-based line of byte `offset`.
    fn at(&self, offset: usize) -> usize {
        self.0.partition_point(|&n| n < offset) + 1
    }

    fn of(&self, span: &Range<usize>) -> usize {
        self.at(span.start)
    }
}

impl Inputs {
    /// Reads inputs from TOML text (see the [module documentation](self)).
    ///
    /// # Errors
    ///
    /// [`InputsErrorKind::Invalid`] for text that is not an inputs file, at
    /// the line of the problem: a TOML syntax error, an unknown table or
    /// key, a missing key, a value of the wrong kind, a negative tick, a
    /// number that is not finite; or text beyond the
    /// [limits](self#limits), refused before it is parsed.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_tui::inputs::{Inputs, InputsErrorKind};
    ///
    /// let err = Inputs::parse("[[impulse]]\ntick = 1\nbody = 0\nimpluse = [1, 0]\n").unwrap_err();
    /// assert_eq!((err.kind, err.line), (InputsErrorKind::Invalid, Some(4)));
    /// assert!(err.message.contains("impluse"), "{err}");
    /// let err = Inputs::parse("[[impulse]]\ntick = -1\nbody = 0\nimpulse = [1, 0]\n").unwrap_err();
    /// assert_eq!(err.to_string(), "line 2: a tick is a whole number from 0, not -1");
    /// ```
    pub fn parse(text: &str) -> Result<Self, InputsError> {
        let length = u64::try_from(text.len()).unwrap_or(u64::MAX);
        if length > MAX_FILE_BYTES {
            return Err(InputsError::too_large(Some(length)));
        }
        check_text(text.as_bytes())?;
        check_tokens(text)?;
        let lines = Lines::new(text);
        let file: InputsFile = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|span| lines.of(&span));
            // One line, for scripts.
            let message = e.message().lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>();
            InputsError::new(InputsErrorKind::Invalid, line, message.join("; "))
        })?;
        let input =
            |span: Range<usize>, tick: Tick, body: Spanned<Body>, value: Spanned<Vector>, action: fn(_) -> _| {
                let v = value.get_ref().0;
                let item = Input {
                    tick: tick.0,
                    body: body.get_ref().0,
                    action: action(v),
                    line: lines.of(&span),
                    body_line: lines.of(&body.span()),
                    value_line: lines.of(&value.span()),
                };
                (span.start, item)
            };
        let mut items: Vec<(usize, Input)> = file
            .impulse
            .into_iter()
            .map(|t| {
                let span = t.span();
                let t = t.into_inner();
                input(span, t.tick, t.body, t.impulse, Action::Impulse)
            })
            .chain(file.velocity.into_iter().map(|t| {
                let span = t.span();
                let t = t.into_inner();
                input(span, t.tick, t.body, t.velocity, Action::Velocity)
            }))
            .chain(file.moves.into_iter().map(|t| {
                let span = t.span();
                let t = t.into_inner();
                input(span, t.tick, t.body, t.motion, Action::Move)
            }))
            .collect();
        // File order, then tick order; the sort is stable, so inputs at one
        // tick keep their file order.
        items.sort_by_key(|&(offset, _)| offset);
        items.sort_by_key(|(_, input)| input.tick);
        Ok(Self { path: None, items: items.into_iter().map(|(_, input)| input).collect() })
    }

    /// Reads an inputs file.
    ///
    /// Any file can be given: one longer than [`MAX_FILE_BYTES`] is refused
    /// from its length before it is read, and reading stops one byte past
    /// the limit, so a file that never ends (`/dev/zero`) is refused too.
    ///
    /// # Errors
    ///
    /// The file cannot be read ([`InputsErrorKind::Io`]; a directory is
    /// refused as one), is too large ([`InputsErrorKind::TooLarge`]), is
    /// not UTF-8 text ([`InputsErrorKind::NotText`]), or [`Inputs::parse`]
    /// refuses it; the message starts with the path.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_tui::inputs::Inputs;
    ///
    /// let err = Inputs::load("no/such/inputs.toml".as_ref()).unwrap_err();
    /// assert!(err.to_string().starts_with("no/such/inputs.toml: "), "{err}");
    /// ```
    pub fn load(path: &Path) -> Result<Self, InputsError> {
        let in_file = |e: InputsError| e.in_file(Some(path));
        let text = read_text(path).map_err(in_file)?;
        let mut inputs = Self::parse(&text).map_err(in_file)?;
        inputs.path = Some(path.to_owned());
        Ok(inputs)
    }

    /// The inputs, in the order they apply: by tick, then in file order.
    ///
    /// See [`Inputs`] for an example.
    #[must_use]
    pub fn items(&self) -> &[Input] {
        &self.items
    }

    /// The file the inputs were read from, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_tui::inputs::{Inputs, EXAMPLE};
    ///
    /// assert_eq!(Inputs::parse(EXAMPLE)?.path(), None);
    /// # Ok::<(), geom_tui::inputs::InputsError>(())
    /// ```
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The inputs bound to `world`'s bodies, every value converted to `S`
    /// once, ready to apply as the world steps.
    ///
    /// # Errors
    ///
    /// [`InputsErrorKind::UnknownBody`] for an input naming a body the
    /// world does not have, [`InputsErrorKind::OutOfRange`] for a value
    /// outside `S`'s safe range; at the line of the key.
    pub(crate) fn bind<S: SandboxScalar>(&self, world: &World<S>) -> Result<Schedule<'_, S>, InputsError> {
        let error = |kind, line, message| InputsError::new(kind, Some(line), message).in_file(self.path());
        let bodies = world.bodies();
        let bound = self
            .items
            .iter()
            .map(|input| {
                let what = format!("{} at tick {}", input.action.name(), input.tick);
                let body = bodies
                    .binary_search_by_key(&input.body, |b| b.id().index())
                    .map(|i| bodies[i].id())
                    .map_err(|_| {
                        let has = match bodies.last() {
                            None => "it has no bodies".to_owned(),
                            Some(last) => format!("its bodies are 0 to {}", last.id().index()),
                        };
                        let message = format!("{what}: the scene has no body {} ({has})", input.body);
                        error(InputsErrorKind::UnknownBody, input.body_line, message)
                    })?;
                let v = input.action.value();
                let value = Vec2::new(S::from_f64(v.x), S::from_f64(v.y));
                if !(in_range(value.x) && in_range(value.y)) {
                    let message = format!("{what}: [{}, {}] is outside {}", v.x, v.y, range(S::KIND));
                    return Err(error(InputsErrorKind::OutOfRange, input.value_line, message));
                }
                Ok((body, value))
            })
            .collect::<Result<_, _>>()?;
        Ok(Schedule { inputs: self, bound, next: 0 })
    }
}

/// How the sandbox moves a character, in a `[[move]]` and in play mode:
/// [`CharacterConfig`]'s defaults, with steps up to 0.375 high.
///
/// # Examples
///
/// ```
/// let config = geom_tui::inputs::character_config::<f64>();
/// assert_eq!((config.step_height, config.snap_distance), (0.375, 0.25));
/// ```
#[must_use]
pub fn character_config<S: geom_core::Scalar>() -> CharacterConfig<S> {
    let mut config = CharacterConfig::new();
    config.step_height = S::from_dyadic::<3>(3);
    config
}

/// Whether `v` is within the safe range, as the world checks it.
fn in_range<S: SandboxScalar>(v: S) -> bool {
    v >= -S::MAX_COORD && v <= S::MAX_COORD
}

/// A scalar type's safe range, in words.
fn range(kind: ScalarKind) -> String {
    format!("{kind}'s safe range ±{}", kind.max_coord())
}

/// Inputs bound to a world in scalar type `S`, applied tick by tick.
pub(crate) struct Schedule<'a, S> {
    inputs: &'a Inputs,
    /// Each input's body and value, in the order of `inputs.items`.
    bound: Vec<(BodyId, Vec2<S>)>,
    /// The first input not yet applied.
    next: usize,
}

impl<S: SandboxScalar> Schedule<'_, S> {
    /// Applies, in order, every input whose tick has come (the world is at
    /// it or past it) and which is not applied yet.
    ///
    /// # Errors
    ///
    /// [`InputsErrorKind::OutOfRange`] for an impulse that would take its
    /// body's velocity outside the safe range (the world is left as the
    /// inputs before it made it), at the line of the impulse.
    pub(crate) fn apply_due(&mut self, world: &mut World<S>) -> Result<(), InputsError> {
        while let Some(input) = self.inputs.items.get(self.next).filter(|i| i.tick <= world.tick()) {
            let (body, value) = self.bound[self.next];
            let applied = match input.action {
                Action::Impulse(_) => world.apply_impulse(body, value),
                Action::Velocity(_) => world.set_velocity(body, value),
                Action::Move(_) => world.move_character(body, value, &character_config()).map(|_| ()),
            };
            applied.map_err(|e| {
                let (kind, line, why) = match e {
                    WorldError::Velocity => (
                        InputsErrorKind::OutOfRange,
                        input.value_line,
                        format!("the body's velocity would be outside {}", range(S::KIND)),
                    ),
                    WorldError::Character => (
                        InputsErrorKind::NotCharacter,
                        input.body_line,
                        "only a character moves (a body of inverse_mass = 0)".to_owned(),
                    ),
                    other => (InputsErrorKind::OutOfRange, input.value_line, other.to_string()),
                };
                let message = format!("{} at tick {} on body {}: {why}", input.action.name(), input.tick, input.body);
                InputsError::new(kind, Some(line), message).in_file(self.inputs.path())
            })?;
            self.next += 1;
        }
        Ok(())
    }

    /// The inputs applied so far, each with its value as applied (in `S`,
    /// as `f64`).
    pub(crate) fn applied(&self) -> impl Iterator<Item = (&Input, Vec2<f64>)> {
        self.inputs.items[..self.next]
            .iter()
            .zip(&self.bound)
            .map(|(input, &(_, v))| (input, Vec2::new(v.x.to_f64(), v.y.to_f64())))
    }
}

/// `path`'s text, within the limits, or why not, as an inputs error.
fn read_text(path: &Path) -> Result<String, InputsError> {
    let refused = |kind: InputsErrorKind, message: &str| InputsError::new(kind, None, message);
    let bytes = textfile::read_at_most(path, MAX_FILE_BYTES).map_err(|refusal| match refusal {
        Refusal::Io(e) => refused(InputsErrorKind::Io(e.kind()), &e.to_string()),
        Refusal::Directory => {
            refused(InputsErrorKind::Io(std::io::ErrorKind::IsADirectory), "a directory, not an inputs file")
        }
        Refusal::TooLarge(size) => InputsError::too_large(size),
        Refusal::EmptyPipe => {
            refused(InputsErrorKind::Io(std::io::ErrorKind::UnexpectedEof), "a pipe with nothing written to it")
        }
    })?;
    Ok(check_text(&bytes)?.to_owned())
}

/// `bytes` as text, or where they stop being text.
fn check_text(bytes: &[u8]) -> Result<&str, InputsError> {
    textfile::check_text(bytes)
        .map_err(|e| InputsError::new(InputsErrorKind::NotText { byte: e.byte }, Some(e.line), e.message))
}

/// Refuses text with more than [`MAX_TOKENS`] TOML tokens before it is
/// parsed: parsing takes memory for every token.
fn check_tokens(text: &str) -> Result<(), InputsError> {
    if let Some(token) = toml_parser::Source::new(text).lex().nth(MAX_TOKENS) {
        let line = Lines::new(text).at(token.span().start());
        let message = format!(
            "too much to read: an inputs file may have at most {MAX_TOKENS} TOML tokens \
             (keys, values, punctuation, line breaks), and this one has more by here"
        );
        return Err(InputsError::new(InputsErrorKind::TooComplex, Some(line), message));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{DEFAULT_SCENE, Scene};

    fn error(text: &str) -> InputsError {
        Inputs::parse(text).expect_err("the inputs should be refused")
    }

    #[test]
    fn the_example_file_parses_and_binds_to_the_default_scene_in_every_type() {
        let inputs = Inputs::parse(EXAMPLE).unwrap();
        let actions: Vec<_> = inputs.items().iter().map(|i| (i.tick, i.body, i.action)).collect();
        assert_eq!(
            actions,
            [
                (10, 5, Action::Impulse(Vec2::new(2.0, 1.0))),
                (10, 2, Action::Velocity(Vec2::new(0.25, 0.5))),
                (12, 0, Action::Move(Vec2::new(-0.5, 0.25)))
            ]
        );
        let scene = Scene::parse(DEFAULT_SCENE).unwrap();
        for kind in ScalarKind::ALL {
            crate::num::with_scalar!(kind, S => {
                let world = scene.build::<S>().unwrap();
                inputs.bind(&world).unwrap_or_else(|e| panic!("{kind}: {e}"));
            });
        }
    }

    #[test]
    fn an_empty_file_has_no_inputs() {
        assert!(Inputs::parse("").unwrap().items().is_empty());
        assert!(Inputs::parse("# nothing yet\n").unwrap().items().is_empty());
    }

    #[test]
    fn each_malformed_input_is_refused_at_its_line() {
        for (text, line, expected) in [
            ("[[impulse]]\ntick = 1\nbody = 0\n", 1, "missing field `impulse`"),
            ("[[impulse]]\ntick = 1\nbody = 0\nimpulse = [1, 0]\nvelocity = [0, 1]\n", 5, "unknown field `velocity`"),
            ("[[push]]\ntick = 1\n", 1, "unknown field `push`"),
            ("[velocity]\ntick = 1\nbody = 0\nvelocity = [1, 0]\n", 1, "expected `[[velocity]]` tables, with two"),
            ("impulse = 3\n", 1, "expected `[[impulse]]` tables"),
            ("[[velocity]]\ntick = 1.5\nbody = 0\nvelocity = [1, 0]\n", 2, "a tick is a whole number from 0"),
            ("[[velocity]]\ntick = 1\nbody = -2\nvelocity = [1, 0]\n", 3, "not -2"),
            ("[[velocity]]\ntick = 1\nbody = 0\nvelocity = [1, inf]\n", 4, "finite coordinates, not [1, inf]"),
            ("[[velocity]]\ntick = 1\nbody = 0\nvelocity = [1]\n", 4, "expected an array of length 2"),
            ("[[velocity]]\ntick = 1\nbody = 0\nvelocity = [1, 0\n", 4, ""),
        ] {
            let e = error(text);
            assert_eq!((e.kind, e.line), (InputsErrorKind::Invalid, Some(line)), "{text:?}: {e}");
            assert!(e.message.contains(expected), "{text:?}: {e}");
            assert!(!e.message.contains('\n'), "one line: {e}");
        }
    }

    #[test]
    fn text_beyond_the_limits_is_refused_before_it_is_parsed() {
        let huge = " ".repeat(usize::try_from(MAX_FILE_BYTES).unwrap() + 1);
        assert_eq!(error(&huge).kind, InputsErrorKind::TooLarge { size: Some(MAX_FILE_BYTES + 1) });
        let commas = format!("x = [{}]\n", "0,".repeat(MAX_TOKENS / 2));
        assert_eq!((error(&commas).kind, error(&commas).line), (InputsErrorKind::TooComplex, Some(1)));
        assert_eq!(error("\n\0").kind, InputsErrorKind::NotText { byte: 1 });
        assert_eq!(error("\n\0").line, Some(2));
    }

    #[test]
    fn a_body_the_scene_lacks_is_refused_at_its_line_with_the_bodies_it_has() {
        let inputs = Inputs::parse("[[impulse]]\ntick = 1\nimpulse = [1, 0]\nbody = 99\n").unwrap();
        let world = Scene::parse(DEFAULT_SCENE).unwrap().build::<f64>().unwrap();
        let e = inputs.bind(&world).err().expect("body 99 is refused");
        assert_eq!((e.kind, e.line), (InputsErrorKind::UnknownBody, Some(4)));
        let last = world.bodies().len() - 1;
        assert_eq!(
            e.to_string(),
            format!("line 4: impulse at tick 1: the scene has no body 99 (its bodies are 0 to {last})")
        );
    }

    #[test]
    fn a_value_outside_the_types_range_is_refused_when_bound() {
        let inputs = Inputs::parse("[[velocity]]\ntick = 0\nbody = 0\nvelocity = [5000, 0]\n").unwrap();
        let scene = Scene::parse(DEFAULT_SCENE).unwrap();
        assert!(inputs.bind(&scene.build::<fixed::types::I32F32>().unwrap()).is_ok());
        let e = inputs.bind(&scene.build::<fixed::types::I16F16>().unwrap()).err().expect("refused in I16F16");
        assert_eq!((e.kind, e.line), (InputsErrorKind::OutOfRange, Some(4)));
        assert!(e.message.contains("±4096"), "{e}");
    }

    #[test]
    fn an_impulse_that_would_overflow_the_velocity_fails_when_applied_naming_its_line() {
        // Body 1 of the default scene has an inverse mass of 1.
        let text = "[[impulse]]\ntick = 0\nbody = 1\nimpulse = [4000, 0]\n\n\
                    [[impulse]]\ntick = 0\nbody = 1\nimpulse = [4000, 0]\n";
        let inputs = Inputs::parse(text).unwrap();
        let mut world = Scene::parse(DEFAULT_SCENE).unwrap().build::<fixed::types::I16F16>().unwrap();
        let mut schedule = inputs.bind(&world).unwrap();
        let e = schedule.apply_due(&mut world).unwrap_err();
        assert_eq!((e.kind, e.line), (InputsErrorKind::OutOfRange, Some(9)));
        assert_eq!(schedule.applied().count(), 1, "the first impulse was applied");
    }

    #[test]
    fn inputs_apply_only_once_their_tick_has_come() {
        let inputs = Inputs::parse(EXAMPLE).unwrap();
        let mut world = Scene::parse(DEFAULT_SCENE).unwrap().build::<f64>().unwrap();
        let mut schedule = inputs.bind(&world).unwrap();
        for _ in 0..10 {
            schedule.apply_due(&mut world).unwrap();
            assert_eq!(schedule.applied().count(), 0, "at tick {}", world.tick());
            world.step();
        }
        schedule.apply_due(&mut world).unwrap();
        assert_eq!(schedule.applied().count(), 2);
        world.step();
        world.step();
        schedule.apply_due(&mut world).unwrap();
        assert_eq!(schedule.applied().count(), 3, "the move at tick 12");
    }

    #[cfg(unix)]
    #[test]
    fn a_named_pipe_with_no_writer_is_refused_at_once_as_a_scene_file_is() {
        let scratch = crate::scratch::Scratch::new("inputs-fifo");
        let pipe = scratch.fifo("inputs.fifo");
        let e = Inputs::load(&pipe).unwrap_err();
        assert_eq!(e.kind, InputsErrorKind::Io(std::io::ErrorKind::UnexpectedEof));
        assert_eq!(e.to_string(), format!("{}: a pipe with nothing written to it", pipe.display()));
    }
}
