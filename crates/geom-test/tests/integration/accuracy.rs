//! Every figure `docs/ACCURACY.md` publishes, held on the first 1000 scenes
//! of each stream that `cargo xtask accuracy` measures 20 000 of (with
//! `GEOM_TEST_FULL=1`, as `cargo xtask ci` runs it; a plain `cargo test`
//! holds them on the first 250).
//!
//! The tables' figures are read from the page itself, so a re-measured page
//! is held as written:
//!
//! - A largest error is held at its figure as printed: the largest value
//!   that prints so, its figure plus half a unit in its last digit. The
//!   scenes are the published run's first ones (every query's stream
//!   starts the same however many it draws), so their worst is at most
//!   the published worst.
//! - A share of scenes (answers that differ from the oracle, normals
//!   pointing the wrong way, a sweep's hits) is held within
//!   [`SHARE_DEVIATIONS`] standard deviations of a sample's
//!   share; a share of zero, exactly.
//! - The prose's own bounds are constants below, each quoting the sentence
//!   it holds.
//!
//! The page says which figures `cargo test` does not hold: they are listed
//! in [`NOT_HELD`], each with the bound that is held instead.

use std::collections::BTreeMap;
use std::f64::consts::FRAC_1_SQRT_2;
use std::path::Path;
use std::sync::OnceLock;

use geom_test::Testable;
use geom_test::accuracy::{QueryAccuracy, SWEEPS, SweepAccuracy, all};
use geom_test::golden::stream::Query;

/// Scenes per query and type: 1000 at full size, a quarter of them in a
/// plain `cargo test` (the exact oracle's arithmetic is most of the
/// integration tests' time).
fn cases() -> usize {
    if geom_test::full_tests() { 1000 } else { 250 }
}

/// The page whose figures are held.
const PAGE: &str = "docs/ACCURACY.md";

/// How many standard deviations of a [`cases`]-scene sample a share may be
/// from the page's: a sample cannot hold a share closer than its own noise
/// (for the page's 11.1% in 1000 scenes, one deviation is a percentage
/// point).
const SHARE_DEVIATIONS: f64 = 4.0;

/// The relative rounding of the measurement itself (an exact error
/// converted to `f64`), allowed on top of the prose's exact bounds.
const MEASUREMENT_ROUNDING: f64 = 1e-12;

/// "Fixed-point values are the exact value rounded once to nearest (a point
/// within half a step per coordinate, ≈ 0.71 in length …)": the largest
/// fixed-point error in a closest point, a distance or a depth, in rounding
/// steps.
const FIXED_ROUNDED_POINT: f64 = FRAC_1_SQRT_2;

/// "… a distance or a depth within half a step": the same, for a value that
/// is a single number rounded once.
const FIXED_ROUNDED_VALUE: f64 = 0.5;

/// "on direct hits within eight steps of `t` of the true first touch": in
/// steps of `t` (the type's resolution).
const FIXED_DIRECT_T_STEPS: f64 = 8.0;

/// "the shapes never overlap and stand within 2.5 resolutions of touching".
const FIXED_GAP_RESOLUTIONS: f64 = 2.5;

/// A figure of the page that `cargo test` does not hold (the page says so
/// and why), with the bound held instead.
struct NotHeld {
    /// The type's column or row.
    scalar: &'static str,
    /// The query's row.
    query: &'static str,
    /// The column's heading.
    column: &'static str,
    /// The bound held instead, on the scenes measured here.
    held: f64,
}

/// The figures the page says `cargo test` does not hold: none now. An
/// entry here goes with a sentence of the page that says why.
const NOT_HELD: [NotHeld; 0] = [];

/// A column of the page's sweep table: its heading, and the figure of a
/// sweep's details it prints.
type SweepColumn = (&'static str, fn(&SweepAccuracy) -> f64);

/// The sweep table's columns of largest errors.
const SWEEP_MAXIMA: [SweepColumn; 5] = [
    ("max early t", |s| s.max_early),
    ("max late t", |s| s.max_late),
    ("max t error, direct hits", |s| s.max_direct_error),
    ("max overlap", |s| s.max_overlap_steps),
    ("max gap", |s| s.max_gap_resolutions),
];

/// One type's measurement over [`cases`] scenes per query.
struct Measured {
    /// Every query's summary, in the order of [`Query::ALL`].
    summary: Vec<(Query, QueryAccuracy)>,
    /// The sweeps' details, in the order of the sweeps in [`Query::ALL`].
    sweeps: [SweepAccuracy; SWEEPS],
}

impl Measured {
    /// Measures `S` as `cargo xtask accuracy` does, over [`cases`] scenes.
    fn of<S: Testable>() -> Self {
        let (summary, sweeps) = all::<S>(cases());
        Self { summary, sweeps }
    }

    /// The summary of the query named `name`.
    fn query(&self, name: &str) -> &QueryAccuracy {
        let (_, a) =
            self.summary.iter().find(|(q, _)| q.name() == name).unwrap_or_else(|| {
                panic!("{PAGE} has a row for `{name}`, which the accuracy harness does not measure")
            });
        a
    }

    /// The details of the sweep named `name`.
    fn sweep(&self, name: &str) -> &SweepAccuracy {
        let sweeps = &Query::ALL[Query::ALL.len() - SWEEPS..];
        let i = sweeps
            .iter()
            .position(|q| q.name() == name)
            .unwrap_or_else(|| panic!("{PAGE}'s sweep table has a row for `{name}`, which is not a measured sweep"));
        &self.sweeps[i]
    }
}

/// One table of the page: the scenes it was measured on (from its stamp),
/// its heading cells and its rows' cells.
struct Table {
    name: &'static str,
    scenes: usize,
    heading: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// The table between the page's `xtask accuracy: name` markers.
    fn read(name: &'static str) -> Self {
        static TEXT: OnceLock<String> = OnceLock::new();
        let page = TEXT.get_or_init(|| {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(PAGE);
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        });
        let (open, close) = (format!("<!-- xtask accuracy: {name} -->"), format!("<!-- /xtask accuracy: {name} -->"));
        let start = page.find(&open).unwrap_or_else(|| panic!("{PAGE} has no `{open}` marker"));
        let end = page.find(&close).unwrap_or_else(|| panic!("{PAGE} has no `{close}` marker"));
        let text = &page[start..end];
        let scenes = text
            .split_once(" scenes per query and type")
            .and_then(|(before, _)| before.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{PAGE}'s `{name}` table has no stamp saying how many scenes it measured"));
        let mut rows = text
            .lines()
            .filter(|l| l.starts_with('|'))
            .map(|l| l.trim().trim_matches('|').split('|').map(|c| c.trim().to_owned()).collect::<Vec<_>>());
        let heading = rows.next().unwrap_or_else(|| panic!("{PAGE}'s `{name}` table is empty"));
        let rows: Vec<_> = rows.skip(1).collect();
        let held = cases();
        assert!(scenes >= held, "{PAGE}'s `{name}` table measured {scenes} scenes, fewer than the {held} held here");
        Self { name, scenes, heading, rows }
    }

    /// [`Table::read`], once per table for the whole test binary.
    fn read_static(name: &str) -> &'static Table {
        static TABLES: OnceLock<BTreeMap<&'static str, Table>> = OnceLock::new();
        TABLES
            .get_or_init(|| {
                ["yes-no", "lengths", "contact-points", "normals", "sweeps"]
                    .into_iter()
                    .map(|t| (t, Table::read(t)))
                    .collect()
            })
            .get(name)
            .unwrap_or_else(|| panic!("no table `{name}` is held"))
    }

    /// The index of the column headed `heading`.
    fn column(&self, heading: &str) -> usize {
        self.heading
            .iter()
            .position(|h| h == heading)
            .unwrap_or_else(|| panic!("{PAGE}'s `{}` table has no column `{heading}`", self.name))
    }

    /// For a table with a row per query and a column per type: each row's
    /// query and `S`'s cell.
    fn cells<S: Testable>(&self) -> impl Iterator<Item = (&str, &str)> {
        let column = self.column(S::NAME);
        self.rows.iter().map(move |r| (r[0].as_str(), r[column].as_str()))
    }
}

/// Half a unit in the last printed digit of `figure` ("0.71": 0.005,
/// "1.5e-5": 0.05e-5, "11.1": 0.05).
fn half_unit(figure: &str) -> f64 {
    let (mantissa, exponent) = figure.split_once('e').unwrap_or((figure, "0"));
    let decimals = mantissa.split_once('.').map_or(0, |(_, d)| d.len());
    let exponent: i32 = exponent.parse().unwrap_or_else(|_| panic!("`{figure}` in {PAGE} has a bad exponent"));
    0.5 * 10_f64.powi(exponent - decimals as i32)
}

/// The largest value that prints as `figure`: the figure plus half a unit
/// in its last digit.
fn largest_printed_as(figure: &str) -> f64 {
    let value: f64 = figure.parse().unwrap_or_else(|_| panic!("`{figure}` in {PAGE} is not a number"));
    value + half_unit(figure)
}

/// The range of shares that print as `cell` in a table of `scenes`
/// scenes: a count ("1640", "0"), or a percentage ("0.09%") give or take
/// half a unit in its last digit.
fn share_printed_as(cell: &str, scenes: usize) -> (f64, f64) {
    if let Some(percent) = cell.strip_suffix('%') {
        let share: f64 = percent.parse().unwrap_or_else(|_| panic!("`{cell}` in {PAGE} is not a share"));
        ((share - half_unit(percent)) / 100.0, (share + half_unit(percent)) / 100.0)
    } else {
        let count: usize = cell.parse().unwrap_or_else(|_| panic!("`{cell}` in {PAGE} is not a count"));
        let share = count as f64 / scenes as f64;
        (share, share)
    }
}

/// A cell of answers that differ from the oracle, "11.1% (0)": the share
/// of scenes, and the count beyond near-ties (none printed: "0").
fn share_and_beyond_near_ties(cell: &str) -> (&str, &str) {
    cell.split_once(" (").map_or((cell, "0"), |(share, count)| (share, count.trim_end_matches(')')))
}

/// Holds a count of [`cases`] scenes to the share the page prints as `cell`
/// (of `scenes`): within [`SHARE_DEVIATIONS`] standard deviations of a
/// sample's share at either end of the printed range.
fn hold_share(what: &str, count: usize, cell: &str, scenes: usize) {
    let (low, high) = share_printed_as(cell, scenes);
    let scenes_held = cases();
    let n = scenes_held as f64;
    let deviation = |p: f64| SHARE_DEVIATIONS * (n * p * (1.0 - p)).sqrt();
    let (least, most) = (n * low - deviation(low), n * high + deviation(high));
    let k = count as f64;
    assert!(
        least <= k && k <= most,
        "{what}: {count} of {scenes_held} scenes where {PAGE} says {cell} of {scenes} (a sample of {scenes_held} may hold \
         {least:.1} to {most:.1}): run `cargo xtask accuracy` and re-read the prose around the figure"
    );
}

/// Holds a largest error to the page's figure `cell` in the column
/// `column`, or to its [`NOT_HELD`] bound.
fn hold_max(scalar: &str, query: &str, column: &str, measured: f64, cell: &str) {
    let bound = largest_printed_as(cell);
    let what = format!("{scalar} {query}, {column}");
    if let Some(not_held) = NOT_HELD.iter().find(|n| (n.scalar, n.query, n.column) == (scalar, query, column)) {
        assert!(measured <= not_held.held, "{what}: {measured:e}, more than the {:e} held in its stead", not_held.held);
        assert!(
            measured > bound,
            "{what}: {measured:e} is within {PAGE}'s {cell} again: remove it from NOT_HELD here, and the page's \
             sentence saying `cargo test` does not hold it"
        );
        return;
    }
    assert!(
        measured <= bound,
        "{what}: {measured:e} where {PAGE} says {cell} (held at {bound:e}): run `cargo xtask accuracy` and re-read \
         the prose around the figure"
    );
}

/// Holds a per-query largest error to `S`'s column of a table: the page
/// prints `–` exactly where the harness measures nothing.
fn hold_column<S: Testable>(m: &Measured, table: &str, column: &str, figure: impl Fn(&QueryAccuracy) -> Option<f64>) {
    let table = Table::read_static(table);
    let mut published = Vec::new();
    for (name, cell) in table.cells::<S>() {
        // The normals' cells are `error; wrong-way count`.
        let cell = cell.split_once("; ").map_or(cell, |(error, _)| error);
        let a = m.query(name);
        published.push(name.to_owned());
        match (figure(a), cell) {
            (None, "–") => {}
            (Some(measured), cell) if cell != "–" => hold_max(S::NAME, name, column, measured, cell),
            (measured, cell) => panic!("{} {name}, {column}: measured {measured:?} where {PAGE} says {cell}", S::NAME),
        }
    }
    for (query, a) in &m.summary {
        let name = query.name();
        assert!(
            figure(a).is_none() || published.iter().any(|p| p == name),
            "{} {name}: its {column} is measured but {PAGE} has no row for it: run `cargo xtask accuracy`",
            S::NAME
        );
    }
}

/// Holds every figure of `S`'s column and rows in the page's tables:
///
/// - yes/no answers that differ from the oracle (share of scenes) and, in
///   brackets, those that are not near-ties;
/// - the largest error in a closest point, a distance or a depth;
/// - the largest error in a contact point;
/// - the largest error in a contact normal, and the normals pointing the
///   wrong way (a share of scenes);
/// - the sweeps in detail: outcomes that differ from the oracle and those
///   beyond near-ties, hits, the largest early and late `t`, the largest
///   `t` error on direct hits, the largest overlap and the largest gap.
fn tables_hold<S: Testable>(m: &Measured) {
    for (query, a) in &m.summary {
        assert_eq!(a.cases, cases(), "{} {}: scenes measured", S::NAME, query.name());
    }

    let yes_no = Table::read_static("yes-no");
    for (name, cell) in yes_no.cells::<S>() {
        let a = m.query(name);
        let (all, beyond_near_ties) = share_and_beyond_near_ties(cell);
        hold_share(&format!("{} {name}, yes/no answers ≠ oracle", S::NAME), a.disagreements, all, yes_no.scenes);
        let what = format!("{} {name}, yes/no answers ≠ oracle beyond near-ties", S::NAME);
        hold_share(&what, a.clear_disagreements, beyond_near_ties, yes_no.scenes);
    }

    hold_column::<S>(m, "lengths", "length error", |a| a.max_length_error);
    hold_column::<S>(m, "contact-points", "contact point error", |a| a.max_point_error);
    hold_column::<S>(m, "normals", "normal error", |a| a.max_normal_error);
    let normals = Table::read_static("normals");
    for (name, cell) in normals.cells::<S>() {
        let a = m.query(name);
        let (_, wrong_way) =
            cell.split_once("; ").unwrap_or_else(|| panic!("`{cell}` in {PAGE} is not `error; count`"));
        let what = format!("{} {name}, normals pointing the wrong way", S::NAME);
        hold_share(
            &what,
            a.wrong_way_normals.unwrap_or_else(|| panic!("{what}: not measured")),
            wrong_way,
            normals.scenes,
        );
    }

    let sweeps = Table::read_static("sweeps");
    let col = |heading| sweeps.column(heading);
    let (query_col, outcome, hits) = (col("query"), col("outcome ≠ oracle (beyond near-ties)"), col("hits"));
    let mut rows = 0;
    for row in sweeps.rows.iter().filter(|r| r[col("type")] == S::NAME) {
        rows += 1;
        let name = row[query_col].as_str();
        let s = m.sweep(name);
        let (all, beyond_near_ties) = share_and_beyond_near_ties(&row[outcome]);
        let what = format!("{} {name}, sweep outcomes ≠ oracle", S::NAME);
        hold_share(&what, s.outcome_disagreements, all, sweeps.scenes);
        hold_share(&format!("{what} beyond near-ties"), s.clear_disagreements, beyond_near_ties, sweeps.scenes);
        hold_share(&format!("{} {name}, hits", S::NAME), s.hits, &row[hits], sweeps.scenes);
        for (heading, figure) in SWEEP_MAXIMA {
            hold_max(S::NAME, name, heading, figure(s), &row[col(heading)]);
        }
    }
    assert_eq!(rows, SWEEPS, "{PAGE}'s sweep table has {rows} rows for {}, not one per sweep", S::NAME);
}

/// Holds the prose's claims for fixed point:
///
/// - "Fixed point is exact" (yes/no answers) and "Fixed-point outcomes are
///   exact" (sweeps): no answer differs from the oracle's.
/// - "Fixed-point values are the exact value rounded once to nearest (a
///   point within half a step per coordinate, ≈ 0.71 in length; a distance
///   or a depth within half a step …)": [`FIXED_ROUNDED_POINT`],
///   [`FIXED_ROUNDED_VALUE`].
/// - "fixed point decides the side exactly": no normal points the wrong way.
/// - Sweeps: "never late, and on direct hits within eight steps of `t` of
///   the true first touch" ([`FIXED_DIRECT_T_STEPS`]); "moved by the
///   impact's travels, the shapes never overlap and stand within 2.5
///   resolutions of touching" ([`FIXED_GAP_RESOLUTIONS`]).
fn fixed_point_prose_holds<S: Testable>(m: &Measured) {
    let at_most = |bound: f64| bound * (1.0 + MEASUREMENT_ROUNDING);
    for (query, a) in &m.summary {
        let name = format!("{} {}", S::NAME, query.name());
        assert_eq!(a.disagreements, 0, "{name}: a yes/no answer differs from the oracle's");
        assert_eq!(a.wrong_way_normals.unwrap_or(0), 0, "{name}: a normal points the wrong way");
        let single_value = matches!(query, Query::DistancePointSegment) || query.name().starts_with("contact_");
        let bound = if single_value { FIXED_ROUNDED_VALUE } else { FIXED_ROUNDED_POINT };
        assert!(
            a.max_length_error.is_none_or(|e| e <= at_most(bound)),
            "{name}: a length {:?} steps off, more than one rounding ({bound:.2})",
            a.max_length_error
        );
    }
    for (query, s) in Query::ALL[Query::ALL.len() - SWEEPS..].iter().zip(&m.sweeps) {
        let name = format!("{} {}", S::NAME, query.name());
        assert_eq!(s.max_late, 0.0, "{name}: a hit is late");
        assert_eq!(s.max_overlap_steps, 0.0, "{name}: shapes moved by an impact's travels overlap");
        let steps = s.max_direct_error / S::STEP;
        assert!(
            steps <= at_most(FIXED_DIRECT_T_STEPS),
            "{name}: a direct hit {steps:.2} steps of t from the first touch, more than {FIXED_DIRECT_T_STEPS}"
        );
        assert!(
            s.max_gap_resolutions <= at_most(FIXED_GAP_RESOLUTIONS),
            "{name}: shapes moved by an impact's travels stand {:.2} resolutions apart, more than \
             {FIXED_GAP_RESOLUTIONS}",
            s.max_gap_resolutions
        );
    }
}

/// Holds the prose's claim for floats, "floats go wrong only on near-ties"
/// (yes/no answers) and "Floats disagree only on near-ties" (sweeps): no
/// answer beyond a near-tie differs from the oracle's.
fn float_prose_holds<S: Testable>(m: &Measured) {
    for (query, a) in &m.summary {
        assert_eq!(a.clear_disagreements, 0, "{} {}: a disagreement beyond a near-tie", S::NAME, query.name());
    }
}

/// The tests for one type: its measurement, made once, held to the page's
/// tables and to the prose.
macro_rules! accuracy_of {
    ($module:ident, $type:ty, $prose:ident, $prose_holds:ident) => {
        mod $module {
            use super::*;

            fn measured() -> &'static Measured {
                static MEASURED: OnceLock<Measured> = OnceLock::new();
                MEASURED.get_or_init(Measured::of::<$type>)
            }

            /// This type's figures in every table of `docs/ACCURACY.md`:
            /// yes/no answers ≠ oracle (and beyond near-ties), length,
            /// contact-point and normal errors, wrong-way normals, and every
            /// column of the sweep table (outcomes, hits, early and late `t`,
            /// direct-hit `t` error, overlap, gap); see `tables_hold`.
            #[test]
            fn meets_every_figure_of_the_tables() {
                tables_hold::<$type>(measured());
            }

            /// The bounds `docs/ACCURACY.md`'s prose states for this kind of
            /// type: fixed point exact up to one rounding, sweeps never late,
            /// within eight steps of `t` and 2.5 resolutions (see
            /// `fixed_point_prose_holds`); floats wrong only on near-ties (see
            /// `float_prose_holds`).
            #[test]
            fn $prose() {
                $prose_holds::<$type>(measured());
            }
        }
    };
}

accuracy_of!(in_f32, f32, differs_only_on_near_ties, float_prose_holds);
accuracy_of!(in_f64, f64, differs_only_on_near_ties, float_prose_holds);
accuracy_of!(in_i16f16, fixed::types::I16F16, is_exact_up_to_one_rounding, fixed_point_prose_holds);
accuracy_of!(in_i32f32, fixed::types::I32F32, is_exact_up_to_one_rounding, fixed_point_prose_holds);
accuracy_of!(in_i48f16, fixed::types::I48F16, is_exact_up_to_one_rounding, fixed_point_prose_holds);
