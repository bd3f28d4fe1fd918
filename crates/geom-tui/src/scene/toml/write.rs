//! Writing a scene as TOML: into the text it was read from, changing only
//! what changed, or anew for a scene built in code.
//!
//! Both go through one description of what each key should hold (a
//! [`Rule`] per key), applied to a `toml_edit` document: the one parsed
//! from the scene's text, or an empty one.

use geom_core::Vec2;
use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, TableLike, Value};

use crate::num::ScalarKind;
use crate::scene::model::{BodySpec, ColliderSpec, Scene, Shape, default_layer, default_mask, zero};

/// The comment on top of a scene built in code.
const HEADER: &str = "# A geom sandbox scene (see `geom-tui --help`).\n";

impl Scene {
    /// The scene as TOML text that [`Scene::parse`] reads back to an equal
    /// scene.
    ///
    /// A scene read from text is written as that text, edited where the
    /// scene differs from it, so that what a person wrote stays as it was:
    ///
    /// - a value that still reads as the scene's (the same `f64` to the
    ///   bit, the same integer, flag or name) is left exactly as typed,
    ///   with its spacing and comment, and so are comments, blank lines
    ///   and the order of keys;
    /// - a value that changed is rewritten in place, keeping its comment
    ///   (a coordinate of a point alone, a whole number as a whole number,
    ///   a hexadecimal mask in hexadecimal);
    /// - a key the scene now needs is added at the end of its table, and
    ///   one it no longer has is removed: a setting now `None`, or a
    ///   capsule body's `shape`, `start` and `end` once its core is both
    ///   zero, which makes it a circle. A missing key whose default is the
    ///   scene's value stays missing, and a setting the scene does not have
    ///   (a bounce threshold the world would derive) is never written;
    /// - the `[[collider]]` and `[[body]]` tables (or inline tables) are
    ///   matched to colliders and bodies by index: surplus ones are removed
    ///   from the end, new ones appended.
    ///
    /// A scene saved unchanged is therefore the very text it was read from.
    ///
    /// A scene built in code is written whole under a comment line: its
    /// settings, then a table for each collider and body with the keys
    /// that differ from their defaults (and a body's `velocity`,
    /// `restitution` and `inverse_mass` always).
    ///
    /// Numbers are written in the shortest form that reads back as the
    /// same `f64` (`-0.1`, `2.0`). A tag above 2⁶³ − 1, which no TOML
    /// integer holds, is written as 2⁶³ − 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_tui::scene::Scene;
    ///
    /// let text = "gravity = [0.0, -0.1]  # slow\n\n[[body]]  # the ball\nposition = [0, 4]\nradius = 0.5\n";
    /// let mut scene = Scene::parse(text)?;
    /// assert_eq!(scene.to_toml(), text);
    /// scene.bodies[0].position.x = 2.5;
    /// assert_eq!(scene.to_toml(), text.replace("[0, 4]", "[2.5, 4]"));
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    #[must_use]
    pub fn to_toml(&self) -> String {
        // The text parsed once already; should toml_edit ever refuse what
        // `toml` read, the scene is written anew rather than not at all.
        if let Some(source) = &self.origin.source
            && let Ok(mut document) = source.parse::<DocumentMut>()
        {
            if !write(&mut document, self, false) {
                return source.to_string();
            }
            let text = document.to_string();
            // toml_edit writes `\n`: keep a file's Windows line breaks.
            let crlf = source.find('\n').is_some_and(|end| source[..end].ends_with('\r'));
            return if crlf { text.replace("\r\n", "\n").replace('\n', "\r\n") } else { text };
        }
        let mut document = DocumentMut::new();
        document.decor_mut().set_prefix(HEADER);
        write(&mut document, self, true);
        document.to_string()
    }
}

/// A value a key should hold.
#[derive(Clone, Copy)]
enum Want {
    /// A number, read as an `f64` (an integer or a float).
    Number(f64),
    /// An integer.
    Integer(i64),
    /// A boolean.
    Flag(bool),
    /// A point, `[x, y]`.
    Point(Vec2<f64>),
    /// A string, exactly.
    Word(&'static str),
    /// A scalar type's name, in any case.
    Scalar(ScalarKind),
}

/// What a key should be, and when it is written.
#[derive(Clone, Copy)]
enum Rule {
    /// Holding this value: rewritten when it reads otherwise, added when
    /// missing.
    Set(Want),
    /// Holding this value where the key is given; where it is not, added
    /// only when the value is not the default a missing key reads as
    /// (`true`: it is the default).
    Optional(Want, bool),
    /// Missing: removed, unless it holds this value (a circle body's
    /// `shape = "circle"`).
    Remove(Option<Want>),
}

/// A key with no value in this scene.
const GONE: Rule = Rule::Remove(None);

/// The rules for a table's keys, in the order a new table lists them.
type Rules = Vec<(&'static str, Rule)>;

/// Makes `document` hold `scene` (a new document when `fresh`); whether
/// anything changed.
fn write(document: &mut DocumentMut, scene: &Scene, fresh: bool) -> bool {
    let root = document.as_table_mut();
    let settings = apply(root, &settings(scene));
    let colliders = write_list(root, "collider", &scene.colliders, collider, fresh);
    let bodies = write_list(root, "body", &scene.bodies, body, fresh);
    settings | colliders | bodies
}

/// Makes `table` follow `rules`, touching no other key; whether anything
/// changed.
fn apply(table: &mut dyn TableLike, rules: &[(&'static str, Rule)]) -> bool {
    let mut changed = false;
    for &(key, rule) in rules {
        changed |= match rule {
            Rule::Set(want) => set(table, key, want, true),
            Rule::Optional(want, default) => set(table, key, want, !default),
            Rule::Remove(keep) => {
                let kept = match table.get(key) {
                    None => true,
                    Some(Item::Value(value)) => keep.is_some_and(|want| want.reads_as(value)),
                    Some(_) => false,
                };
                !kept && table.remove(key).is_some()
            }
        };
    }
    changed
}

/// Makes `key` hold `want` if the table has it, and adds it if not when
/// `add`; whether anything changed.
fn set(table: &mut dyn TableLike, key: &str, want: Want, add: bool) -> bool {
    match table.get_mut(key) {
        Some(Item::Value(value)) => want.write_over(value),
        // Not a value (which no scene read has): a value replaces it.
        Some(item) => {
            *item = Item::Value(want.value());
            true
        }
        None if add => {
            table.insert(key, Item::Value(want.value()));
            true
        }
        None => false,
    }
}

/// Makes the document's list `key` (`[[key]]` tables, or an array of
/// inline tables) describe `items`, matched by index: each table follows
/// its item's rules, surplus ones are removed from the end and new ones
/// appended; whether anything changed. A new document lists none as
/// `key = []`.
fn write_list<T>(root: &mut Table, key: &str, items: &[T], rules: fn(&T, bool) -> Rules, fresh: bool) -> bool {
    let new_table = |item: &T| {
        let mut table = Table::new();
        apply(&mut table, &rules(item, true));
        table
    };
    // No list yet, `key = []` (as a scene built in code without any is
    // written) or not a list at all (which no scene read has): new
    // `[[key]]` tables, under a key of their own.
    let is_list = match root.get(key) {
        Some(Item::ArrayOfTables(_)) => true,
        Some(Item::Value(Value::Array(array))) => !array.is_empty() || items.is_empty(),
        _ => false,
    };
    if !is_list {
        if items.is_empty() && (!fresh || root.contains_key(key)) {
            return false;
        }
        root.remove(key);
        let list = if items.is_empty() {
            Item::Value(Value::Array(Array::new()))
        } else {
            Item::ArrayOfTables(items.iter().map(new_table).collect())
        };
        root.insert(key, list);
        return true;
    }
    let Some(list) = root.get_mut(key) else { return false };
    let mut changed = false;
    match list {
        Item::ArrayOfTables(tables) => {
            for (i, item) in items.iter().enumerate() {
                if let Some(table) = tables.get_mut(i) {
                    changed |= apply(table, &rules(item, false));
                } else {
                    tables.push(new_table(item));
                    changed = true;
                }
            }
            while tables.len() > items.len() {
                tables.remove(tables.len() - 1);
                changed = true;
            }
        }
        Item::Value(Value::Array(array)) => {
            for (i, item) in items.iter().enumerate() {
                if let Some(value) = array.get_mut(i) {
                    if let Value::InlineTable(table) = value {
                        changed |= apply(table, &rules(item, false));
                    } else {
                        // Not a table (which no scene read has): one replaces it.
                        let decor = value.decor().clone();
                        *value = new_inline_table(item, rules);
                        *value.decor_mut() = decor;
                        changed = true;
                    }
                } else {
                    array.push(new_inline_table(item, rules));
                    changed = true;
                }
            }
            while array.len() > items.len() {
                array.remove(array.len() - 1);
                changed = true;
            }
        }
        // Not a list: handled above.
        _ => {}
    }
    changed
}

/// A new inline table for `item`.
fn new_inline_table<T>(item: &T, rules: fn(&T, bool) -> Rules) -> Value {
    let mut table = InlineTable::new();
    apply(&mut table, &rules(item, true));
    Value::InlineTable(table)
}

/// The top-level keys: the settings and the precision the scene has, and
/// no others.
fn settings(scene: &Scene) -> Rules {
    let settings = scene.settings;
    vec![
        // None when left out: written when there is some, or was.
        ("gravity", Rule::Optional(Want::Point(settings.gravity), settings.gravity == zero())),
        ("bounce_threshold", settings.bounce_threshold.map_or(GONE, |t| Rule::Set(Want::Number(t)))),
        ("substeps", settings.substeps.map_or(GONE, |n| Rule::Set(Want::Integer(n.into())))),
        // Its older name, read as `substeps`: replaced by it.
        ("max_substeps", GONE),
        ("scalar", scene.scalar.map_or(GONE, |kind| Rule::Set(Want::Scalar(kind)))),
    ]
}

/// A `[[collider]]` table: its shape's keys and no other shape's, then
/// how it behaves.
fn collider(collider: &ColliderSpec, _new: bool) -> Rules {
    let point = |p| Rule::Set(Want::Point(p));
    let number = |x| Rule::Set(Want::Number(x));
    let [start, end, center, radius] = match collider.shape {
        Shape::Segment { start, end } => [point(start), point(end), GONE, GONE],
        Shape::Capsule { start, end, radius } => [point(start), point(end), GONE, number(radius)],
        Shape::Circle { center, radius } => [GONE, GONE, point(center), number(radius)],
    };
    let c = collider;
    let mut rules = vec![
        ("shape", Rule::Set(Want::Word(c.shape.kind()))),
        ("start", start),
        ("end", end),
        ("center", center),
        ("radius", radius),
        ("velocity", Rule::Optional(Want::Point(c.velocity), c.velocity == zero())),
        ("friction", Rule::Optional(Want::Number(c.friction), c.friction == 0.0)),
        ("restitution", Rule::Optional(Want::Number(c.restitution), c.restitution == 0.0)),
    ];
    rules.extend(filter_and_tag(c.sensor, c.layer, c.mask, c.tag));
    rules.push(("one_way", c.one_way.map_or(GONE, |up| Rule::Set(Want::Point(up)))));
    rules
}

/// A `[[body]]` table: `shape`, `start` and `end` for a capsule only
/// (a circle may keep `shape = "circle"`), then how it moves. A `new`
/// table lists `velocity`, `restitution` and `inverse_mass` even at their
/// defaults, as saved scenes always have.
fn body(body: &BodySpec, new: bool) -> Rules {
    let listed = |want, default| if new { Rule::Set(want) } else { Rule::Optional(want, default) };
    let capsule = body.is_capsule();
    let core = |p| if capsule { Rule::Set(Want::Point(p)) } else { GONE };
    let b = body;
    let mut rules = vec![
        ("shape", if capsule { Rule::Set(Want::Word("capsule")) } else { Rule::Remove(Some(Want::Word("circle"))) }),
        ("position", Rule::Set(Want::Point(b.position))),
        ("start", core(b.core[0])),
        ("end", core(b.core[1])),
        ("radius", Rule::Set(Want::Number(b.radius))),
        ("velocity", listed(Want::Point(b.velocity), b.velocity == zero())),
        ("restitution", listed(Want::Number(b.restitution), b.restitution == 0.0)),
        ("inverse_mass", listed(Want::Number(b.inverse_mass), b.inverse_mass == 1.0)),
        ("friction", Rule::Optional(Want::Number(b.friction), b.friction == 0.0)),
        ("gravity_scale", Rule::Optional(Want::Number(b.gravity_scale), b.gravity_scale == 1.0)),
    ];
    rules.extend(filter_and_tag(b.sensor, b.layer, b.mask, b.tag));
    rules.push(("player", b.player.map_or(GONE, |p| Rule::Set(Want::Integer(p.into())))));
    rules
}

/// The keys bodies and colliders share, each written only where it is
/// not the default.
fn filter_and_tag(sensor: bool, layer: u32, mask: u32, tag: u64) -> [(&'static str, Rule); 4] {
    [
        ("sensor", Rule::Optional(Want::Flag(sensor), !sensor)),
        ("layer", Rule::Optional(Want::Integer(layer.into()), layer == default_layer())),
        ("mask", Rule::Optional(Want::Integer(mask.into()), mask == default_mask())),
        ("tag", Rule::Optional(Want::Integer(i64::try_from(tag).unwrap_or(i64::MAX)), tag == 0)),
    ]
}

impl Want {
    /// Whether `value` reads as this: the same number to the bit (an
    /// integer read as an `f64`, as the scene reader does), integer, flag,
    /// string or scalar type.
    fn reads_as(self, value: &Value) -> bool {
        match (self, value) {
            (Self::Number(x), _) => number(value).is_some_and(|v| v.to_bits() == x.to_bits()),
            (Self::Integer(n), Value::Integer(v)) => *v.value() == n,
            (Self::Flag(b), Value::Boolean(v)) => *v.value() == b,
            // The reader takes a point's first two numbers (and ignores
            // any more), so this does too.
            (Self::Point(p), Value::Array(array)) => {
                array.len() >= 2 && array.iter().zip([p.x, p.y]).all(|(v, x)| Self::Number(x).reads_as(v))
            }
            (Self::Word(word), Value::String(s)) => s.value() == word,
            (Self::Scalar(kind), Value::String(s)) => s.value().parse() == Ok(kind),
            _ => false,
        }
    }

    /// Makes `value` read as this, keeping its comment and spacing, and
    /// leaving it exactly as it is if it already does; whether it changed.
    /// Of a point, only the coordinates that differ are rewritten.
    fn write_over(self, value: &mut Value) -> bool {
        if self.reads_as(value) {
            return false;
        }
        if let (Self::Point(p), Value::Array(array)) = (self, &mut *value)
            && array.len() >= 2
        {
            for (v, x) in array.iter_mut().zip([p.x, p.y]) {
                Self::Number(x).write_over(v);
            }
            return true;
        }
        let decor = value.decor().clone();
        *value = self.value_like(value);
        *value.decor_mut() = decor;
        true
    }

    /// This value, spelled as `old` was where that reads the same: a whole
    /// number where an integer was, hexadecimal (octal, binary) where it
    /// was.
    fn value_like(self, old: &Value) -> Value {
        /// Below this, every whole `f64` is an exact `i64` and back.
        const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
        match (self, old) {
            (Self::Number(x), Value::Integer(_))
                if x.fract() == 0.0 && x.abs() <= EXACT && !(x == 0.0 && x.is_sign_negative()) =>
            {
                Value::from(x as i64)
            }
            (Self::Integer(n), Value::Integer(was)) if n >= 0 => {
                let spelled = match was.display_repr().get(..2) {
                    Some("0x") => Some(format!("0x{n:x}")),
                    Some("0o") => Some(format!("0o{n:o}")),
                    Some("0b") => Some(format!("0b{n:b}")),
                    _ => None,
                };
                spelled.and_then(|s| s.parse().ok()).unwrap_or_else(|| self.value())
            }
            _ => self.value(),
        }
    }

    /// This value as TOML writes it by default; numbers in the shortest
    /// form that reads back as the same `f64`.
    fn value(self) -> Value {
        match self {
            Self::Number(x) => float(x),
            Self::Integer(n) => Value::from(n),
            Self::Flag(b) => Value::from(b),
            Self::Point(p) => Value::Array(Array::from_iter([float(p.x), float(p.y)])),
            Self::Word(word) => Value::from(word),
            Self::Scalar(kind) => Value::from(kind.name()),
        }
    }
}

/// `x` in the shortest text that reads back as the same `f64`, with an
/// exponent where that is shorter (`1e-300`, not 300 digits; `0.1`, `2.0`).
fn float(x: f64) -> Value {
    // `{:?}` is Rust's shortest round-trip form, which TOML reads as it is.
    format!("{x:?}").parse().unwrap_or_else(|_| Value::from(x))
}

/// A number as the scene reader reads it: a float, or an integer as the
/// nearest `f64`.
fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Float(f) => Some(*f.value()),
        Value::Integer(i) => Some(*i.value() as f64),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
