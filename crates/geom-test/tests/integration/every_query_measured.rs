//! Every query of the library is measured and published: the accuracy
//! harness's list of queries, the query benchmarks, and the tables that
//! `cargo xtask accuracy` and `cargo xtask bench` write into
//! `docs/ACCURACY.md` and `docs/BENCHMARKS.md` all have a row for each.
//!
//! "Every query" is read from the library itself: the functions
//! `crates/geom-core/src/query/mod.rs` re-exports, and the public functions
//! of the public modules it declares (the batch queries). Adding a query
//! there without a benchmark and an accuracy row fails here.

use std::path::{Path, PathBuf};

use geom_test::golden::stream::Query;

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// The library's queries: the single queries (functions re-exported by
/// `query/mod.rs`) and the batch queries (public functions of its public
/// modules), each sorted.
fn library_queries() -> (Vec<String>, Vec<String>) {
    const MOD: &str = "crates/geom-core/src/query/mod.rs";
    let source = read(MOD);
    let mut singles = Vec::new();
    for statement in source.split("pub use ").skip(1) {
        let items = statement.split(';').next().unwrap_or_default();
        let items = items.split_once('{').map_or(items, |(_, list)| list);
        for item in items.split([',', '}', '{']).map(str::trim) {
            let name = item.rsplit("::").next().unwrap_or_default();
            if name.starts_with(|c: char| c.is_ascii_lowercase()) {
                singles.push(name.to_owned());
            }
        }
    }
    let mut batches = Vec::new();
    for line in source.lines() {
        let Some(module) = line.trim().strip_prefix("pub mod ").and_then(|m| m.strip_suffix(';')) else { continue };
        let path = format!("crates/geom-core/src/query/{module}.rs");
        for line in read(&path).lines() {
            if let Some(rest) = line.strip_prefix("pub fn ") {
                batches.push(rest.split(['<', '(']).next().unwrap_or_default().to_owned());
            }
        }
    }
    singles.sort();
    batches.sort();
    assert!(singles.len() >= 19, "found only {singles:?} in {MOD}: has its layout changed?");
    assert!(!batches.is_empty(), "no batch query found in the public modules of {MOD}");
    (singles, batches)
}

/// The query benchmarks' names for the library's queries: each single
/// query's own name, and `batch_` before each batch query's.
fn benchmark_names() -> Vec<String> {
    let (singles, batches) = library_queries();
    singles.into_iter().chain(batches.iter().map(|b| format!("batch_{b}"))).collect()
}

/// The rows of the Markdown tables in `text`: each row's cells, trimmed.
fn rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| l.trim().trim_matches('|').split('|').map(str::trim).collect())
        .collect()
}

/// What lies between the markers of table `name` of `tool` in `page`.
fn between<'a>(page: &'a str, tool: &str, name: &str) -> &'a str {
    let (open, close) = (format!("<!-- {tool}: {name} -->"), format!("<!-- /{tool}: {name} -->"));
    let start = page.find(&open).unwrap_or_else(|| panic!("no `{open}` marker"));
    let end = page.find(&close).unwrap_or_else(|| panic!("no `{close}` marker"));
    &page[start..end]
}

#[test]
fn the_accuracy_harness_measures_every_single_query() {
    let (singles, _) = library_queries();
    let mut measured: Vec<&str> = Query::ALL.iter().map(|q| q.name()).collect();
    measured.sort_unstable();
    assert_eq!(
        measured, singles,
        "geom_test::golden::stream::Query::ALL (which the golden digests and the accuracy harness walk) must \
         list exactly the queries crates/geom-core/src/query/mod.rs re-exports"
    );
}

#[test]
fn the_query_benchmarks_run_every_query() {
    let bench = read("crates/geom-core/benches/queries.rs");
    let mut missing = benchmark_names();
    missing.retain(|row| !bench.contains(&format!("\"{row}\"")));
    assert!(missing.is_empty(), "crates/geom-core/benches/queries.rs has no benchmark named {missing:?}");
}

#[test]
fn docs_accuracy_has_a_row_for_every_single_query() {
    // The batch queries are left out: their answers are the single
    // queries' bit for bit (`tests/batch.rs`), so their accuracy is those
    // rows'.
    let (singles, _) = library_queries();
    let page = read("docs/ACCURACY.md");
    let rows = rows(&page);
    let missing: Vec<&String> = singles
        .iter()
        .filter(|q| !rows.iter().any(|r| r.first() == Some(&q.as_str()) || r.get(1) == Some(&q.as_str())))
        .collect();
    assert!(missing.is_empty(), "docs/ACCURACY.md has no row for {missing:?}: run `cargo xtask accuracy`");
}

#[test]
fn docs_benchmarks_has_a_row_for_every_query_in_each_workload() {
    let page = read("docs/BENCHMARKS.md");
    for workload in ["uniform", "near"] {
        let table = rows(between(&page, "xtask bench", &format!("queries-{workload}")));
        let mut missing = benchmark_names();
        missing.retain(|q| !table.iter().any(|r| r.first() == Some(&q.as_str())));
        assert!(
            missing.is_empty(),
            "docs/BENCHMARKS.md's `{workload}` query table has no row for {missing:?}: run `cargo xtask bench`"
        );
    }
}
