//! Test vectors for ports: the first cases of every golden stream, with
//! inputs and exact outputs as bit patterns, in JSON. A C#, C++ or Go port
//! of the same algorithms checks itself against this file; geom checks
//! itself against it too (`tests/vectors.rs`), and the golden test uses it
//! to name the first case whose answer moved.
//!
//! Every scalar is a string of hex digits, `0x` and the full width of the
//! type's bit pattern: IEEE-754 bits for floats, the raw two's-complement
//! integer for fixed point (so `I16F16` −0.5 is `0xffff8000`). Squared
//! distances are in the type's wide type (the `types` table gives both
//! widths and the fixed-point fraction bits). Points are `[x, y]`, yes/no
//! answers are JSON booleans, and outcomes are words (`"miss"`, `"hit"`).

use std::collections::BTreeMap;
use std::path::Path;

use fixed::types::{I16F16, I32F32, I48F16};
use geom_core::Vec2;
use serde_json::{Map, Value, json};

use super::stream::{Input, Inputs, Query, Sink, cases, evaluate};
use crate::Testable;

/// The file's name, relative to the crate.
pub const FILE: &str = "golden/vectors.json";

/// How many cases of each stream (per query and type) the file holds.
pub const CASES: usize = 24;

/// The format's name and version, the file's first field.
const FORMAT: &str = "geom-test-vectors/1";

/// A [`Sink`] that writes values as JSON, by name.
#[derive(Default)]
struct Json(Map<String, Value>);

fn hex(bits: u128, width: u32) -> Value {
    let digits = usize::try_from(width / 4).expect("a small width");
    Value::String(format!("0x{bits:0digits$x}"))
}

impl<S: Testable> Sink<S> for Json {
    fn num(&mut self, name: &'static str, v: S) {
        self.0.insert(name.to_owned(), hex(v.to_raw(), S::BITS.0));
    }

    fn wide(&mut self, name: &'static str, v: S::Wide) {
        self.0.insert(name.to_owned(), hex(S::wide_to_raw(v), S::BITS.1));
    }

    fn flag(&mut self, name: &'static str, v: bool) {
        self.0.insert(name.to_owned(), Value::Bool(v));
    }

    fn tag(&mut self, name: &'static str, v: &'static str) {
        self.0.insert(name.to_owned(), Value::String(v.to_owned()));
    }

    fn point(&mut self, name: &'static str, p: Vec2<S>) {
        let pair = [hex(p.x.to_raw(), S::BITS.0), hex(p.y.to_raw(), S::BITS.0)];
        self.0.insert(name.to_owned(), Value::Array(pair.into()));
    }
}

/// A case's inputs as JSON.
fn inputs_json<S: Testable>(inputs: &Inputs<S>) -> Value {
    let mut out = Json::default();
    for (name, value) in &inputs.values {
        match value {
            Input::Point(p) => Sink::<S>::point(&mut out, name, *p),
            Input::Num(v) => Sink::<S>::num(&mut out, name, *v),
        }
    }
    Value::Object(out.0)
}

/// A case's outputs as JSON.
fn outputs_json<S: Testable>(query: Query, inputs: &Inputs<S>) -> Value {
    let mut out = Json::default();
    evaluate(query, inputs, &mut out);
    Value::Object(out.0)
}

/// Reads a hex bit pattern.
fn parse_hex(value: &Value) -> Result<u128, String> {
    let text = value.as_str().ok_or_else(|| format!("expected a hex string, found {value}"))?;
    let digits = text.strip_prefix("0x").ok_or_else(|| format!("`{text}` does not start with 0x"))?;
    u128::from_str_radix(digits, 16).map_err(|e| format!("`{text}`: {e}"))
}

/// Reads a case's inputs back from JSON.
fn parse_inputs<S: Testable>(query: Query, input: &Value) -> Result<Inputs<S>, String> {
    let mut inputs = Inputs::default();
    for &name in Inputs::<S>::names(query) {
        let value = input.get(name).ok_or_else(|| format!("no input `{name}`"))?;
        let value = if Inputs::<S>::is_scalar(name) {
            Input::Num(S::from_raw(parse_hex(value)?))
        } else {
            let pair = value.as_array().filter(|a| a.len() == 2).ok_or_else(|| format!("`{name}` is not [x, y]"))?;
            Input::Point(Vec2::new(S::from_raw(parse_hex(&pair[0])?), S::from_raw(parse_hex(&pair[1])?)))
        };
        inputs.values.push((name, value));
    }
    Ok(inputs)
}

/// One vector: the query, the type, the case's index in its stream, its
/// inputs and outputs.
fn vector<S: Testable>(query: Query, index: usize, inputs: &Inputs<S>) -> Value {
    json!({
        "query": query.name(),
        "type": S::NAME,
        "case": index,
        "input": inputs_json(inputs),
        "output": outputs_json(query, inputs),
    })
}

fn vectors_of<S: Testable>(out: &mut Vec<Value>) {
    for query in Query::ALL {
        for (index, inputs) in cases::<S>(query).take(CASES).enumerate() {
            out.push(vector(query, index, &inputs));
        }
    }
}

/// The scalar types and how to read their bits.
fn types() -> Value {
    let float = |bits: u32| json!({"kind": "float", "bits": bits, "wide": {"kind": "float", "bits": bits}});
    let fixed = |bits: u32, frac: u32| json!({"kind": "fixed", "bits": bits, "frac": frac, "wide": {"kind": "fixed", "bits": 2 * bits, "frac": 2 * frac}});
    json!({
        "f32": float(32),
        "f64": float(64),
        "I16F16": fixed(32, 16),
        "I32F32": fixed(64, 32),
        "I48F16": fixed(64, 16),
    })
}

/// The whole file's text: a header object, then one vector per line.
///
/// # Examples
///
/// ```
/// let text = geom_test::golden::vectors::render();
/// assert!(text.starts_with("{\"format\":\"geom-test-vectors/1\""));
/// assert!(geom_test::golden::vectors::check(&text).is_ok());
/// ```
#[must_use]
pub fn render() -> String {
    let mut vectors = Vec::new();
    vectors_of::<f32>(&mut vectors);
    vectors_of::<f64>(&mut vectors);
    vectors_of::<I16F16>(&mut vectors);
    vectors_of::<I32F32>(&mut vectors);
    vectors_of::<I48F16>(&mut vectors);
    let about = "geom query test vectors: the first cases of each golden stream, inputs and exact outputs. \
                 Scalars are hex bit patterns at the type's full width (IEEE-754 for floats, raw \
                 two's-complement integers for fixed point); squared distances use the wide type.";
    // The header's fields in reading order (a JSON map would sort them).
    let mut text = format!(
        "{{\"format\":{},\"about\":{},\"cases_per_stream\":{CASES},\"types\":{},\"vectors\":[\n",
        Value::from(FORMAT),
        Value::from(about),
        types()
    );
    let lines: Vec<String> = vectors.iter().map(Value::to_string).collect();
    text.push_str(&lines.join(",\n"));
    text.push_str("\n]}\n");
    text
}

/// Writes [`render`] to `path`, atomically (a temporary file, then a
/// rename).
///
/// # Errors
///
/// The I/O error, with the path.
///
/// # Examples
///
/// ```no_run
/// geom_test::golden::vectors::write("golden/vectors.json".as_ref()).unwrap();
/// ```
pub fn write(path: &Path) -> Result<(), String> {
    let temp = path.with_extension("json.tmp");
    std::fs::write(&temp, render()).map_err(|e| format!("cannot write {}: {e}", temp.display()))?;
    std::fs::rename(&temp, path).map_err(|e| format!("cannot replace {}: {e}", path.display()))
}

fn dump_of<S: Testable>(query: Query, cases: usize, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    for (index, inputs) in self::cases::<S>(query).take(cases).enumerate() {
        writeln!(out, "{}", vector(query, index, &inputs))?;
    }
    Ok(())
}

/// Writes the first `cases` vectors of one stream, one JSON object per
/// line (the file's format): what `cargo xtask golden --explain` compares
/// between two revisions to find the first case whose answer moved.
///
/// # Errors
///
/// An unknown query or type name, or the I/O error.
///
/// # Examples
///
/// ```
/// let mut out = Vec::new();
/// geom_test::golden::vectors::dump("intersects_circle_circle", "I16F16", 3, &mut out).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap().lines().count(), 3);
/// ```
pub fn dump(query: &str, type_name: &str, cases: usize, out: &mut dyn std::io::Write) -> Result<(), String> {
    let query = Query::from_name(query).ok_or_else(|| format!("unknown query `{query}`"))?;
    match type_name {
        "f32" => dump_of::<f32>(query, cases, out),
        "f64" => dump_of::<f64>(query, cases, out),
        "I16F16" => dump_of::<I16F16>(query, cases, out),
        "I32F32" => dump_of::<I32F32>(query, cases, out),
        "I48F16" => dump_of::<I48F16>(query, cases, out),
        other => return Err(format!("unknown type `{other}`")),
    }
    .map_err(|e| format!("cannot write: {e}"))
}

/// A vector whose outputs differ from what geom answers now.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// The query.
    pub query: String,
    /// The scalar type.
    pub type_name: String,
    /// The case's index in its stream.
    pub case: usize,
    /// The inputs.
    pub input: Value,
    /// The outputs in the file.
    pub expected: Value,
    /// The outputs now.
    pub actual: Value,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} in {}, case {}: inputs {}\n    pinned {}\n    now    {}",
            self.query, self.type_name, self.case, self.input, self.expected, self.actual
        )
    }
}

fn recompute<S: Testable>(query: Query, input: &Value) -> Result<Value, String> {
    Ok(outputs_json(query, &parse_inputs::<S>(query, input)?))
}

/// Checks every vector in a vectors file's text against geom, returning
/// the vectors whose outputs differ, in file order.
///
/// # Errors
///
/// The text is not a vectors file this version reads (wrong format,
/// unknown query or type, malformed value).
///
/// See [`render`] for an example.
pub fn check(text: &str) -> Result<Vec<Mismatch>, String> {
    let file: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if file.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(format!("not a `{FORMAT}` file"));
    }
    let vectors = file.get("vectors").and_then(Value::as_array).ok_or("no `vectors` array")?;
    let mut mismatches = Vec::new();
    for (i, v) in vectors.iter().enumerate() {
        let field = |name: &str| v.get(name).ok_or_else(|| format!("vector {i} has no `{name}`"));
        let query_name = field("query")?.as_str().ok_or_else(|| format!("vector {i}: `query` is not a string"))?;
        let query = Query::from_name(query_name).ok_or_else(|| format!("vector {i}: unknown query `{query_name}`"))?;
        let type_name = field("type")?.as_str().ok_or_else(|| format!("vector {i}: `type` is not a string"))?;
        let input = field("input")?;
        let actual = match type_name {
            "f32" => recompute::<f32>(query, input),
            "f64" => recompute::<f64>(query, input),
            "I16F16" => recompute::<I16F16>(query, input),
            "I32F32" => recompute::<I32F32>(query, input),
            "I48F16" => recompute::<I48F16>(query, input),
            other => Err(format!("unknown type `{other}`")),
        }
        .map_err(|e| format!("vector {i}: {e}"))?;
        let expected = field("output")?;
        if *expected != actual {
            mismatches.push(Mismatch {
                query: query_name.to_owned(),
                type_name: type_name.to_owned(),
                case: usize::try_from(field("case")?.as_u64().unwrap_or(u64::MAX)).unwrap_or(usize::MAX),
                input: input.clone(),
                expected: expected.clone(),
                actual,
            });
        }
    }
    Ok(mismatches)
}

/// The first mismatching vector of each stream, by digest name
/// (`query.<query>.<type>`), from the vectors file at `path`.
///
/// # Errors
///
/// The file cannot be read or is not a vectors file.
///
/// # Examples
///
/// ```
/// let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(geom_test::golden::vectors::FILE);
/// assert!(geom_test::golden::vectors::first_mismatches(&path).unwrap().is_empty());
/// ```
pub fn first_mismatches(path: &Path) -> Result<BTreeMap<String, Mismatch>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut first = BTreeMap::new();
    for m in check(&text)? {
        first.entry(format!("query.{}.{}", m.query, m.type_name)).or_insert(m);
    }
    Ok(first)
}
