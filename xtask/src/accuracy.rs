//! `cargo xtask accuracy`: geom's answers measured against the exact
//! oracle, printed and written into `docs/ACCURACY.md`.

use crate::pages::{self, Table};
use crate::run::Step;

/// The page the tables go to.
pub(crate) const PAGE: &str = "docs/ACCURACY.md";
/// Its markers' tool name (`<!-- xtask accuracy: NAME -->`).
const TOOL: &str = "xtask accuracy";
/// The accuracy binary's tables, in the order it prints them.
const TABLES: [&str; 5] = ["yes-no", "lengths", "contact-points", "normals", "sweeps"];
/// Scenes per query and type when none is given.
const CASES: u64 = 20_000;

/// Runs geom-test's `accuracy` binary (optimised), prints what it says and
/// writes its tables into [`PAGE`].
pub(crate) fn accuracy(extra: &[String]) -> Result<(), String> {
    let cases = match extra {
        [] => CASES,
        [n] => n.parse().map_err(|_| format!("accuracy: `{n}` is not a number of scenes"))?,
        _ => return Err(format!("usage: cargo xtask accuracy [CASES]\n\n{}", crate::USAGE)),
    };
    let stamp = pages::stamp("cargo xtask accuracy", &format!("; {cases} scenes per query and type"));
    let cases = cases.to_string();
    let output = Step::cargo(&[
        "run",
        "--release",
        "-p",
        "geom-test",
        "--features",
        "tools",
        "--bin",
        "accuracy",
        "--",
        cases.as_str(),
    ])
    .output()?;
    print!("{output}");
    let tables = tables(&output);
    if tables.len() != TABLES.len() {
        return Err(format!(
            "the accuracy binary printed {} tables where {PAGE} has {} ({}); update `TABLES` in xtask/src/accuracy.rs \
             and the page's markers together",
            tables.len(),
            TABLES.len(),
            TABLES.join(", ")
        ));
    }
    let tables: Vec<Table> = TABLES
        .iter()
        .zip(tables)
        .map(|(name, markdown)| Table { name: (*name).to_owned(), title: String::new(), markdown, fresh: true })
        .collect();
    pages::write(PAGE, TOOL, &stamp, &tables)
}

/// The Markdown tables in `text`: runs of lines starting with `|`.
fn tables(text: &str) -> Vec<String> {
    let mut tables: Vec<Vec<&str>> = Vec::new();
    let mut in_table = false;
    for line in text.lines() {
        let row = line.starts_with('|');
        match (row, in_table) {
            (true, false) => tables.push(vec![line]),
            (true, true) => tables.last_mut().into_iter().for_each(|t| t.push(line)),
            _ => {}
        }
        in_table = row;
    }
    tables.into_iter().map(|t| t.join("\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::tables;

    #[test]
    fn tables_are_the_runs_of_rows() {
        let text = "Title\n\n| a | b |\n|---|---:|\n| x | 1 |\n\nMore\n| c |\n|---|\n";
        assert_eq!(tables(text), ["| a | b |\n|---|---:|\n| x | 1 |", "| c |\n|---|"]);
    }
}
