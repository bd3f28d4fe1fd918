//! What the user is in the middle of: the selection, a prompt being typed,
//! a drag, a question; and the pieces of editing that need no timeline:
//! reading typed values, the world's settings as fields, file names, and
//! finding what is under the pointer.

use std::path::{Path, PathBuf};

use geom_core::Vec2;
use geom_core::world::{BodyId, WorldConfig};

use crate::keymap::LineEdit;
use crate::scene::{BodySpec, Settings, Shape};
use crate::sim::{Field, Selected, Sim, body_fields, collider_fields};

/// The most characters a prompt holds.
pub(crate) const PROMPT_CHARS: usize = 1024;

/// What a text prompt on the bottom line is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PromptKind {
    /// `name=value` edits of the selection.
    Edit(Selected),
    /// `name=value` edits of the world's settings.
    World,
    /// A scene file to open.
    Open,
    /// A file to save the current tick's state to.
    SaveState,
    /// A file to save the moves played to, as inputs.
    SaveInputs,
}

/// A line of text being typed, with a cursor that moves and edits as a
/// shell's line does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Prompt {
    /// What it is for.
    pub kind: PromptKind,
    /// What has been typed.
    pub text: String,
    /// The cursor: how many characters of `text` are before it.
    pub cursor: usize,
}

impl Prompt {
    /// A prompt for `kind` starting with `text`, the cursor at its end.
    pub(crate) fn new(kind: PromptKind, text: String) -> Self {
        let cursor = text.chars().count();
        Self { kind, text, cursor }
    }

    /// The byte offset of the `chars`-th character.
    fn offset(&self, chars: usize) -> usize {
        self.text.char_indices().nth(chars).map_or(self.text.len(), |(i, _)| i)
    }

    /// Adds `c` at the cursor unless it is a control character: `false`
    /// when full.
    pub(crate) fn type_char(&mut self, c: char) -> bool {
        if self.text.chars().count() >= PROMPT_CHARS {
            return false;
        }
        if !c.is_control() {
            let at = self.offset(self.cursor);
            self.text.insert(at, c);
            self.cursor += 1;
        }
        true
    }

    /// Replaces the whole text, the cursor at its end.
    pub(crate) fn set_text(&mut self, text: String) {
        *self = Self::new(self.kind.clone(), text);
    }

    /// Moves the cursor or deletes, as `edit` says.
    pub(crate) fn edit(&mut self, edit: LineEdit) {
        let chars: Vec<char> = self.text.chars().collect();
        let (len, at) = (chars.len(), self.cursor.min(chars.len()));
        // The start of the word before the cursor, and the end of the one
        // after it (words are separated by spaces, `/`, `,` and `=`).
        let gap = |c: char| c.is_whitespace() || matches!(c, '/' | ',' | '=');
        let word_start = {
            let mut i = at;
            while i > 0 && gap(chars[i - 1]) {
                i -= 1;
            }
            while i > 0 && !gap(chars[i - 1]) {
                i -= 1;
            }
            i
        };
        let word_end = {
            let mut i = at;
            while i < len && gap(chars[i]) {
                i += 1;
            }
            while i < len && !gap(chars[i]) {
                i += 1;
            }
            i
        };
        let (cut, cursor) = match edit {
            LineEdit::Left => (None, at.saturating_sub(1)),
            LineEdit::Right => (None, (at + 1).min(len)),
            LineEdit::Home => (None, 0),
            LineEdit::End => (None, len),
            LineEdit::WordLeft => (None, word_start),
            LineEdit::WordRight => (None, word_end),
            LineEdit::Backspace => (Some(at.saturating_sub(1)..at), at.saturating_sub(1)),
            LineEdit::Delete => (Some(at..(at + 1).min(len)), at),
            LineEdit::DeleteToStart => (Some(0..at), 0),
            LineEdit::DeleteToEnd => (Some(at..len), at),
            LineEdit::DeleteWord => (Some(word_start..at), word_start),
        };
        if let Some(range) = cut {
            let (start, end) = (self.offset(range.start), self.offset(range.end));
            self.text.replace_range(start..end, "");
        }
        self.cursor = cursor;
    }
}

/// What a question on the bottom line asks to be confirmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Question {
    /// Quit, losing the unsaved edits.
    Quit,
    /// Open this file, losing the unsaved edits.
    Open(PathBuf),
    /// Write over this file, which this session neither opened nor wrote.
    Overwrite(Save, PathBuf),
}

/// What a save writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Save {
    /// The set-up (`w`).
    SetUp,
    /// The current tick's state (`W`).
    State,
    /// The moves played, as inputs (`I`).
    Inputs,
}

/// A mouse drag in progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Drag {
    /// Moving the selection, grabbed this far from its anchor.
    Move { grab: Vec2<f64> },
    /// Panning the view, from this cell.
    Pan { column: u16, row: u16 },
}

/// The editor's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Editor {
    /// Where the scene came from, and where `w` saves it.
    pub path: Option<PathBuf>,
    /// The selection, which may no longer exist at this tick.
    pub selected: Option<Selected>,
    /// Which of the nearest shapes the inspector measures against.
    pub target_rank: usize,
    /// The prompt being typed.
    pub prompt: Option<Prompt>,
    /// The drag in progress.
    pub drag: Option<Drag>,
    /// The question asked.
    pub question: Option<Question>,
    /// The files this session opened or wrote (as `known` gives them):
    /// a save onto any other file that is there asks first.
    pub known: Vec<PathBuf>,
}

/// `path` as [`Editor::known`] holds it: the file it names, once there,
/// however it was typed.
pub(crate) fn known(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())
}

/// Reads `name=value` pairs: separated by spaces or commas, with or
/// without spaces around `=` (`x=1 vy = -0.5, r= 2`).
///
/// # Errors
///
/// A word that is not part of a pair, or a value that is not a finite
/// number, in words.
pub(crate) fn assignments(text: &str) -> Result<Vec<(String, f64)>, String> {
    // Spaces around `=` join its two sides.
    let mut joined = String::with_capacity(text.len());
    for (i, part) in text.split('=').enumerate() {
        if i > 0 {
            joined.truncate(joined.trim_end().len());
            joined.push('=');
            joined.push_str(part.trim_start());
        } else {
            joined.push_str(part);
        }
    }
    let mut pairs = Vec::new();
    for token in joined.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
        let Some((name, value)) = token.split_once('=') else {
            return Err(format!("expected name=value, not `{token}`"));
        };
        match value.parse::<f64>() {
            Ok(v) if v.is_finite() && !name.is_empty() => pairs.push((name.to_owned(), v)),
            _ if name.is_empty() => return Err(format!("expected name=value, not `{token}`")),
            _ => return Err(format!("{name} = `{value}` is not a finite number")),
        }
    }
    Ok(pairs)
}

/// Picks each named field out of `fields`.
///
/// # Errors
///
/// A name that is not one of them, with the names there are.
pub(crate) fn changes(fields: &[(Field, f64)], pairs: &[(String, f64)]) -> Result<Vec<(Field, f64)>, String> {
    pairs
        .iter()
        .map(|(name, value)| {
            let field = fields.iter().find(|(f, _)| f.name() == name).map(|&(f, _)| f);
            field.map(|f| (f, *value)).ok_or_else(|| {
                let names: Vec<_> = fields.iter().map(|(f, _)| f.name()).collect();
                format!("no field `{name}` (fields: {})", names.join(" "))
            })
        })
        .collect()
}

/// The world's settings as the prompt names them: gravity's `gx` and
/// `gy`, the `bounce` threshold and the `substeps`.
pub(crate) fn world_fields(settings: &Settings) -> Vec<(&'static str, f64)> {
    vec![
        ("gx", settings.gravity.x),
        ("gy", settings.gravity.y),
        ("bounce", settings.bounce_threshold()),
        ("substeps", f64::from(settings.substeps.unwrap_or_else(|| WorldConfig::new(settings.gravity).substeps))),
    ]
}

/// `settings` with the named values changed.
///
/// # Errors
///
/// An unknown name, a negative bounce threshold, or substeps that are not
/// a whole number from 1 to 255.
pub(crate) fn with_settings(settings: Settings, pairs: &[(String, f64)]) -> Result<Settings, String> {
    let mut next = settings;
    for (name, value) in pairs {
        match name.as_str() {
            "gx" => next.gravity.x = *value,
            "gy" => next.gravity.y = *value,
            "bounce" if *value >= 0.0 => next.bounce_threshold = Some(*value),
            "bounce" => return Err(format!("the bounce threshold must be zero or more, not {value}")),
            "substeps" => {
                let whole = (1.0..=255.0).contains(value) && value.fract() == 0.0;
                // A whole number from 1 to 255.
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let substeps = whole
                    .then_some(*value as u8)
                    .ok_or_else(|| format!("substeps must be a whole number from 1 to 255, not {value}"))?;
                next.substeps = Some(substeps);
            }
            _ => return Err(format!("no setting `{name}` (settings: gx gy bounce substeps)")),
        }
    }
    Ok(next)
}

/// A typed file name as a path: a leading `~` is the home directory.
pub(crate) fn expand(text: &str, home: Option<&Path>) -> PathBuf {
    let text = text.trim();
    match (text.strip_prefix('~'), home) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => home.join(rest.trim_start_matches('/')),
        _ => PathBuf::from(text),
    }
}

/// The home directory, from `HOME`.
pub(crate) fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from)
}

/// Completes a typed file name as far as the names in its directory
/// agree: the new text, and the names that still fit (sorted, with `/`
/// after a directory's).
pub(crate) fn complete(text: &str, home: Option<&Path>) -> (String, Vec<String>) {
    let (dir_text, prefix) = match text.rfind('/') {
        Some(i) => (&text[..=i], &text[i + 1..]),
        None => ("", text),
    };
    let dir = if dir_text.is_empty() { PathBuf::from(".") } else { expand(dir_text, home) };
    let Ok(entries) = std::fs::read_dir(&dir) else { return (text.to_owned(), Vec::new()) };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let hidden = name.starts_with('.') && !prefix.starts_with('.');
            (name.starts_with(prefix) && !hidden).then(|| if entry.path().is_dir() { format!("{name}/") } else { name })
        })
        .collect();
    names.sort();
    let Some(first) = names.first() else { return (text.to_owned(), names) };
    let common = names.iter().fold(first.clone(), |common, name| {
        common.chars().zip(name.chars()).take_while(|(a, b)| a == b).map(|(a, _)| a).collect()
    });
    (format!("{dir_text}{common}"), names)
}

/// A body in words: `body 3`, or `body 3 (capsule)`.
pub(crate) fn body_name(id: BodyId, body: &BodySpec) -> String {
    if body.is_capsule() { format!("body {} (capsule)", id.index()) } else { format!("body {}", id.index()) }
}

/// A selection in words.
pub(crate) fn describe(selected: Selected, sim: &dyn Sim) -> String {
    match selected {
        Selected::Body(id) => match sim.body(id) {
            Some(body) => body_name(id, &body),
            None => format!("body {}", id.index()),
        },
        Selected::Collider(id) => {
            let kind = sim.collider(id).map_or("collider", |c| c.shape.kind());
            format!("collider {} ({kind})", id.index())
        }
    }
}

/// The values a selection can be edited by, as they are in `sim`.
pub(crate) fn fields(sim: &dyn Sim, selected: Selected) -> Vec<(Field, f64)> {
    match selected {
        Selected::Body(id) => sim.body(id).map_or_else(Vec::new, |b| body_fields(&b)),
        Selected::Collider(id) => sim.collider(id).map_or_else(Vec::new, |c| collider_fields(&c)),
    }
}

/// The point a selection is moved by, if it exists in `sim`.
pub(crate) fn anchor(sim: &dyn Sim, selected: Selected) -> Option<Vec2<f64>> {
    match selected {
        Selected::Body(id) => sim.body(id).map(|b| b.position),
        Selected::Collider(id) => sim.collider(id).map(|c| c.shape.anchor()),
    }
}

/// Every selectable thing, bodies first, each in id order.
pub(crate) fn selectables(sim: &dyn Sim) -> Vec<Selected> {
    let bodies = sim.bodies().into_iter().map(|(id, _)| Selected::Body(id));
    bodies.chain(sim.colliders().into_iter().map(|(id, _)| Selected::Collider(id))).collect()
}

/// The body or collider nearest `point` within `reach` of its outline
/// (or inside it), bodies first.
pub(crate) fn pick(sim: &dyn Sim, point: Vec2<f64>, reach: f64) -> Option<Selected> {
    // The first of equally near candidates: the lowest id.
    let nearest = |candidates: Vec<(f64, Selected)>| {
        candidates.into_iter().filter(|(gap, _)| *gap <= reach).min_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, s)| s)
    };
    let bodies = sim.bodies().into_iter();
    let body = nearest(bodies.map(|(id, b)| (body_distance(&b, point), Selected::Body(id))).collect());
    body.or_else(|| {
        let colliders = sim.colliders().into_iter();
        nearest(colliders.map(|(id, c)| (outline_distance(&c.shape, point), Selected::Collider(id))).collect())
    })
}

/// The distance from `point` to a shape's outline (negative inside it).
pub(crate) fn outline_distance(shape: &Shape, point: Vec2<f64>) -> f64 {
    let (start, end) = shape.core();
    // The endpoints come from a valid world, so they make a valid segment.
    let core = geom_core::Segment::new(start, end)
        .map_or_else(|_| (point - start).length(), |segment| geom_core::distance_point_segment(point, &segment));
    core - shape.radius()
}

/// The distance from `point` to a body's outline (negative inside it):
/// what a click is measured by.
fn body_distance(body: &BodySpec, point: Vec2<f64>) -> f64 {
    if body.is_capsule() {
        outline_distance(&body.shape(), point)
    } else {
        (point - body.position).length() - body.radius
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(text: &str) -> Result<Vec<(String, f64)>, String> {
        assignments(text)
    }

    /// Every line edit keeps the cursor within the text and counts it in
    /// characters, not bytes: a name with accents edits as it reads.
    #[test]
    fn line_edits_move_and_delete_by_characters_not_bytes() {
        let mut prompt = Prompt::new(PromptKind::Open, "~/scènes/été.toml".to_owned());
        prompt.edit(LineEdit::DeleteWord);
        assert_eq!((prompt.text.as_str(), prompt.cursor), ("~/scènes/", 9));
        prompt.edit(LineEdit::WordLeft);
        assert_eq!(prompt.cursor, 2);
        prompt.edit(LineEdit::Delete);
        prompt.type_char('S');
        assert_eq!((prompt.text.as_str(), prompt.cursor), ("~/Scènes/", 3));
        prompt.edit(LineEdit::Right);
        prompt.edit(LineEdit::Backspace);
        assert_eq!((prompt.text.as_str(), prompt.cursor), ("~/Sènes/", 3));
        for edit in [LineEdit::End, LineEdit::Right, LineEdit::Delete, LineEdit::WordRight] {
            prompt.edit(edit);
            assert_eq!(prompt.cursor, 8, "{edit:?} stays at the end");
        }
        prompt.edit(LineEdit::Home);
        for edit in [LineEdit::Left, LineEdit::Backspace, LineEdit::DeleteWord, LineEdit::DeleteToStart] {
            prompt.edit(edit);
            assert_eq!((prompt.text.as_str(), prompt.cursor), ("~/Sènes/", 0), "{edit:?} at the start");
        }
        prompt.edit(LineEdit::WordRight);
        prompt.edit(LineEdit::DeleteToEnd);
        assert_eq!((prompt.text.as_str(), prompt.cursor), ("~", 1));
    }

    #[test]
    fn typed_values_may_have_spaces_around_the_equals_sign() {
        let expected = vec![("x".to_owned(), 5.0), ("vy".to_owned(), -0.5), ("r".to_owned(), 2.0)];
        assert_eq!(pairs("x = 5 vy=-0.5, r= 2"), Ok(expected));
        assert_eq!(pairs("  "), Ok(vec![]));
        assert_eq!(pairs("x 5"), Err("expected name=value, not `x`".to_owned()));
        assert_eq!(pairs("= 5"), Err("expected name=value, not `=5`".to_owned()));
        assert_eq!(pairs("x = nan"), Err("x = `nan` is not a finite number".to_owned()));
    }

    #[test]
    fn a_tilde_is_the_home_directory_only_at_the_start_of_a_name() {
        let home = Path::new("/home/ada");
        assert_eq!(expand("~/scenes/a.toml", Some(home)), PathBuf::from("/home/ada/scenes/a.toml"));
        assert_eq!(expand(" ~ ", Some(home)), PathBuf::from("/home/ada"));
        assert_eq!(expand("~bob/a.toml", Some(home)), PathBuf::from("~bob/a.toml"));
        assert_eq!(expand("a~/b", Some(home)), PathBuf::from("a~/b"));
        assert_eq!(expand("~/a", None), PathBuf::from("~/a"));
    }

    #[test]
    fn tab_completes_as_far_as_the_names_agree_and_lists_what_still_fits() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["scene-one.toml", "scene-two.toml", ".hidden.toml"] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        std::fs::create_dir(dir.path().join("scenes")).unwrap();
        let base = format!("{}/", dir.path().display());
        let (text, names) = complete(&format!("{base}sc"), None);
        assert_eq!(text, format!("{base}scene"));
        assert_eq!(names, ["scene-one.toml", "scene-two.toml", "scenes/"]);
        let (text, names) = complete(&format!("{base}scene-t"), None);
        assert_eq!((text, names.len()), (format!("{base}scene-two.toml"), 1));
        let home = dir.path().to_owned();
        assert_eq!(complete("~/scene-o", Some(&home)).0, "~/scene-one.toml");
        assert_eq!(complete(&format!("{base}none"), None), (format!("{base}none"), vec![]));
    }

    #[test]
    fn world_settings_are_read_back_as_typed_and_bad_ones_refused() {
        let settings = Settings::new(Vec2::new(0.0, -0.1));
        let typed = pairs("gx=0.5 bounce=0.25 substeps=2").unwrap();
        let next = with_settings(settings, &typed).unwrap();
        assert_eq!((next.gravity, next.bounce_threshold, next.substeps), (Vec2::new(0.5, -0.1), Some(0.25), Some(2)));
        assert!(with_settings(settings, &pairs("substeps=1.5").unwrap()).is_err());
        assert!(with_settings(settings, &pairs("bounce=-1").unwrap()).is_err());
        assert!(with_settings(settings, &pairs("g=1").unwrap()).unwrap_err().contains("gx gy bounce substeps"));
    }
}
