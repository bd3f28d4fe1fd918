//! Scene text: reading it, within the limits, with every problem at its
//! line, and writing it.

use core::ops::Range;
use std::sync::Arc;

use ::toml::Spanned;
use geom_core::Vec2;
use serde::Deserialize;

use super::error::{MAX_BODIES, MAX_COLLIDERS, MAX_FILE_BYTES, MAX_TOKENS, SceneError, SceneErrorKind};
use super::model::{BodySpec, ColliderSpec, Origin, Scene, Settings, Shape, default_layer, default_mask, zero};
use crate::num::ScalarKind;

mod write;

impl Scene {
    /// Reads a scene from TOML text (see the [module documentation](crate::scene)).
    ///
    /// # Errors
    ///
    /// A [`SceneError`] naming the line and what is wrong: a syntax error,
    /// an unknown or missing key, a value of the wrong kind, or a value the
    /// format refuses (NaN or infinite, a negative radius or inverse mass,
    /// a restitution outside `[0, 1]`); a shape that has no such key (a
    /// circle body's `start`) or lacks one it needs (a capsule body's
    /// `end`), at its table's line; an unknown shape, at its line; or text
    /// beyond the [limits](crate::scene#limits), refused before it is parsed:
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
        crate::textfile::check_text(text.as_bytes()).map_err(SceneError::not_text)?;
        check_size(text)?;
        let file: SceneFile = ::toml::from_str(text).map_err(|e| {
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
        if let Some(substeps) = file.substeps.as_ref().filter(|s| *s.get_ref() == 0) {
            return Err(refuse(substeps.span(), "substeps must be at least 1"));
        }
        let origin = Origin {
            path: None,
            gravity: file.gravity.as_ref().and_then(|g| at(g.span())),
            bounce_threshold: file.bounce_threshold.as_ref().and_then(|t| at(t.span())),
            colliders: lines_of(text, file.colliders.iter().map(Spanned::span)),
            bodies: lines_of(text, file.bodies.iter().map(Spanned::span)),
            source: Some(Arc::from(text)),
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
            .collect::<Result<Vec<BodySpec>, _>>()?;
        for (i, body) in bodies.iter().enumerate() {
            let Some(player) = body.player else { continue };
            if let Some(first) = bodies[..i].iter().position(|b| b.player == Some(player)) {
                return Err(SceneError::new(
                    SceneErrorKind::Invalid,
                    origin.bodies.get(i).copied(),
                    format!("body {i}: player {player} drives body {first} already (one body each)"),
                ));
            }
        }
        Ok(Self {
            settings: Settings {
                gravity: file.gravity.map_or(Vec2::new(0.0, 0.0), |g| g.into_inner().0),
                bounce_threshold: file.bounce_threshold.map(Spanned::into_inner),
                substeps: file.substeps.map(Spanned::into_inner),
            },
            scalar: file.scalar,
            colliders,
            bodies,
            origin,
        })
    }
}

/// The file's layout, with the spans of colliders and bodies kept for error
/// messages.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SceneFile {
    /// None without gravity.
    #[serde(default)]
    gravity: Option<Spanned<Point>>,
    #[serde(default)]
    bounce_threshold: Option<Spanned<f64>>,
    /// Read under its older name too (files saved before the solver).
    #[serde(default, alias = "max_substeps")]
    substeps: Option<Spanned<u8>>,
    #[serde(default)]
    scalar: Option<ScalarKind>,
    #[serde(default, rename = "collider")]
    colliders: Vec<Spanned<ColliderFile>>,
    #[serde(default, rename = "body")]
    bodies: Vec<Spanned<BodyFile>>,
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
    #[serde(default, deserialize_with = "player")]
    player: Option<u8>,
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
            player: self.player,
        })
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
    #[serde(default, deserialize_with = "optional_point")]
    one_way: Option<Vec2<f64>>,
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
        if self.one_way == Some(zero) {
            return Err("`one_way` is the direction of the solid side, and zero has none (a platform's is [0.0, 1.0])"
                .to_owned());
        }
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
            one_way: self.one_way,
        })
    }
}

impl<'de> Deserialize<'de> for BodySpec {
    /// From a `[[body]]` table, refusing the values and the combinations
    /// of keys a scene file refuses.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        BodyFile::deserialize(d)?.into_spec().map_err(serde::de::Error::custom)
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

/// Reads a player: 1 or 2.
fn player<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u8>, D::Error> {
    match i64::deserialize(d)? {
        v @ (1 | 2) => Ok(Some(v as u8)),
        v => Err(serde::de::Error::custom(format!("a player is 1 or 2, not {v}"))),
    }
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

fn restitution<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let v = finite(d, "the restitution")?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(serde::de::Error::custom(format!("the restitution must be from 0 to 1, not {v}")))
    }
}

/// A point as `[x, y]`, for a [`Spanned`] or an optional field.
struct Point(Vec2<f64>);

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        point::deserialize(d).map(Self)
    }
}

/// Points as `[x, y]` arrays of finite numbers.
mod point {
    use geom_core::Vec2;
    use serde::{Deserialize, Deserializer};

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
mod tests;
