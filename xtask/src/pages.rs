//! The measured tables in `docs/`: each task that measures writes its
//! tables into its page between a pair of markers,
//!
//! ```text
//! <!-- xtask bench: sqrt -->
//! (written by the task: a line saying when, at which commit, on what machine, then the table)
//! <!-- /xtask bench: sqrt -->
//! ```
//!
//! leaving the rest of the page as it was. The page is replaced at once (a
//! temporary file beside it, renamed over it), and a missing or doubled
//! marker is an error that writes nothing.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::run::{Step, root};

/// One measured table.
pub(crate) struct Table {
    /// Its markers' name (`<!-- xtask bench: NAME -->`).
    pub(crate) name: String,
    /// What it shows, printed above it on the terminal (the page has its
    /// own prose around the markers).
    pub(crate) title: String,
    /// The Markdown table, without a final newline.
    pub(crate) markdown: String,
    /// Whether this run measured any of it: a table whose results all
    /// predate the run (a criterion filter left it out) is printed but not
    /// written.
    pub(crate) fresh: bool,
}

impl Table {
    /// Prints the table with its title.
    pub(crate) fn print(&self) {
        println!("\n{}\n\n{}", self.title, self.markdown);
    }
}

/// The opening and closing markers of table `name` of `tool`.
fn markers(tool: &str, name: &str) -> (String, String) {
    (format!("<!-- {tool}: {name} -->"), format!("<!-- /{tool}: {name} -->"))
}

/// `text` with what lies between the markers of table `name` of `tool`
/// replaced by `body`; an error when the pair is missing, doubled or out of
/// order.
pub(crate) fn splice(text: &str, tool: &str, name: &str, body: &str) -> Result<String, String> {
    let (open, close) = markers(tool, name);
    let once = |marker: &str| match text.match_indices(marker).count() {
        1 => text.find(marker).ok_or_else(String::new),
        0 => Err(format!("the marker `{marker}` is missing")),
        n => Err(format!("the marker `{marker}` appears {n} times")),
    };
    let (start, end) = (once(&open)? + open.len(), once(&close)?);
    if end < start {
        return Err(format!("`{close}` comes before `{open}`"));
    }
    Ok(format!("{}\n{}\n\n{}", &text[..start], body.trim_end(), &text[end..]))
}

/// What lies between the markers of table `name` of `tool` in `text`,
/// trimmed; an error as for [`splice`].
pub(crate) fn between<'a>(text: &'a str, tool: &str, name: &str) -> Result<&'a str, String> {
    let (open, close) = markers(tool, name);
    let start = text.find(&open).ok_or_else(|| format!("the marker `{open}` is missing"))? + open.len();
    let end = text[start..].find(&close).ok_or_else(|| format!("the marker `{close}` is missing after `{open}`"))?;
    Ok(text[start..start + end].trim())
}

/// Writes `tables` (the fresh ones) into the page at `page` (relative to
/// the workspace root), each with `stamp` above it, and says which it left
/// alone.
pub(crate) fn write(page: &str, tool: &str, stamp: &str, tables: &[Table]) -> Result<(), String> {
    let path = root().join(page);
    let mut text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {page}: {e}"))?;
    let mut written = Vec::new();
    for table in tables.iter().filter(|t| t.fresh) {
        let body = format!("{stamp}\n\n{}\n", table.markdown);
        text = splice(&text, tool, &table.name, &body).map_err(|e| {
            let (open, close) = markers(tool, &table.name);
            format!("cannot write the `{}` table into {page}: {e}; the page needs `{open}` … `{close}` where the table goes (nothing was written)", table.name)
        })?;
        written.push(table.name.as_str());
    }
    if written.is_empty() {
        println!("\n{page}: nothing measured in this run, nothing written");
        return Ok(());
    }
    write_atomically(&path, &text)?;
    println!("\n{page}: wrote the tables {}", written.join(", "));
    let stale: Vec<&str> = tables.iter().filter(|t| !t.fresh).map(|t| t.name.as_str()).collect();
    if !stale.is_empty() {
        println!("{page}: left as they were (not measured in this run): {}", stale.join(", "));
    }
    Ok(())
}

/// Replaces the file at `path` by `text` at once: a temporary file beside
/// it, renamed over it.
pub(crate) fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    use std::io::Write as _;
    let dir = path.parent().ok_or_else(|| format!("{} has no directory", path.display()))?;
    let mut file =
        tempfile::NamedTempFile::new_in(dir).map_err(|e| format!("cannot create a file in {}: {e}", dir.display()))?;
    file.write_all(text.as_bytes()).map_err(|e| format!("cannot write beside {}: {e}", path.display()))?;
    file.persist(path).map_err(|e| format!("cannot replace {}: {e}", path.display()))?;
    Ok(())
}

/// The line written above each table: the command, the date, the commit
/// (`-dirty` when the working tree has changes) and the machine. Taken
/// before measuring, so that it names what was measured.
pub(crate) fn stamp(command: &str, extra: &str) -> String {
    format!("_Written by `{command}` on {} at {}, on {}{extra}._", today(), commit(), machine())
}

/// Today's UTC date, as `YYYY-MM-DD`.
pub(crate) fn today() -> String {
    date(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()))
}

/// `git rev-parse --short HEAD`, with `-dirty` when tracked files outside
/// `docs/` have changes (the pages this writes, and their prose, change
/// nothing that is measured, so one run after another stays clean);
/// `unknown commit` outside git.
pub(crate) fn commit() -> String {
    let git = |args: &[&str]| Step::new("git", args).quiet_output().ok();
    let Some(head) = git(&["rev-parse", "--short", "HEAD"]) else { return "an unknown commit".to_owned() };
    let dirty = git(&["status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)docs"])
        .is_some_and(|s| !s.trim().is_empty());
    format!("{}{}", head.trim(), if dirty { "-dirty" } else { "" })
}

/// The CPU's model (Linux's `/proc/cpuinfo`), how many CPUs the process
/// may use, and the OS and architecture.
fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|info| {
        info.lines().find_map(|l| {
            l.strip_prefix("model name").map(|v| v.trim_start_matches([' ', '\t', ':']).trim().to_owned())
        })
    });
    let cpus = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    format!(
        "{} ({cpus} CPUs, {} {})",
        model.as_deref().unwrap_or("an unknown CPU"),
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

/// The UTC date of `secs` seconds after the Unix epoch, as `YYYY-MM-DD`
/// (the proleptic Gregorian calendar: Howard Hinnant's `civil_from_days`).
fn date(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0) + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::{between, date, splice};

    const PAGE: &str = "# Title\n\nProse.\n\n<!-- xtask bench: sqrt -->\nold line\n\n| old | table |\n<!-- /xtask bench: sqrt -->\n\nMore prose.\n<!-- xtask bench: world -->\n<!-- /xtask bench: world -->\nEnd.\n";

    #[test]
    fn splicing_replaces_only_between_the_markers() {
        let new = splice(PAGE, "xtask bench", "sqrt", "stamp\n\n| new | table |\n").unwrap();
        assert_eq!(
            new,
            "# Title\n\nProse.\n\n<!-- xtask bench: sqrt -->\nstamp\n\n| new | table |\n\n<!-- /xtask bench: sqrt -->\n\nMore prose.\n<!-- xtask bench: world -->\n<!-- /xtask bench: world -->\nEnd.\n"
        );
        // Writing the same table again changes nothing more.
        assert_eq!(splice(&new, "xtask bench", "sqrt", "stamp\n\n| new | table |").unwrap(), new);
        // An empty pair is filled too, and the other table is untouched.
        let both = splice(&new, "xtask bench", "world", "| w |").unwrap();
        assert!(both.contains("<!-- xtask bench: world -->\n| w |\n\n<!-- /xtask bench: world -->\nEnd.\n"), "{both}");
        assert!(both.contains("| new | table |"));
    }

    #[test]
    fn between_gives_what_the_markers_hold() {
        assert_eq!(between(PAGE, "xtask bench", "sqrt"), Ok("old line\n\n| old | table |"));
        assert_eq!(between(PAGE, "xtask bench", "world"), Ok(""));
        assert!(between(PAGE, "xtask bench", "render").unwrap_err().contains("missing"));
    }

    #[test]
    fn a_missing_doubled_or_reversed_marker_is_an_error() {
        let missing = splice(PAGE, "xtask bench", "render", "x").unwrap_err();
        assert!(missing.contains("`<!-- xtask bench: render -->` is missing"), "{missing}");
        let other_tool = splice(PAGE, "xtask accuracy", "sqrt", "x").unwrap_err();
        assert!(other_tool.contains("missing"), "{other_tool}");
        let doubled = format!("{PAGE}<!-- /xtask bench: sqrt -->\n");
        assert!(splice(&doubled, "xtask bench", "sqrt", "x").unwrap_err().contains("appears 2 times"));
        let reversed = "<!-- /xtask bench: a -->\n<!-- xtask bench: a -->\n";
        assert!(splice(reversed, "xtask bench", "a", "x").unwrap_err().contains("comes before"));
    }

    #[test]
    fn dates_are_the_utc_calendar_day() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(951_782_400), "2000-02-29");
        assert_eq!(date(1_767_225_599), "2025-12-31");
        assert_eq!(date(1_798_761_600), "2027-01-01");
    }
}
