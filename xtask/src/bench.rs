//! `cargo xtask bench`: the criterion benchmarks, then tables of their
//! medians, printed and written into `docs/BENCHMARKS.md`; `--peers` runs
//! the comparison with parry2d and rapier2d instead ([`peers`]).

mod peers;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::pages::{self, Table};
use crate::run::{Step, root};

/// The page the tables go to.
pub(crate) const PAGE: &str = "docs/BENCHMARKS.md";

/// The scalar types the query benchmarks run for (criterion groups), and the
/// number of queries one iteration runs.
const QUERY_GROUPS: &[&str] = &["f32", "f64", "I16F16", "I32F32", "I48F16"];
const QUERY_SCENES: f64 = 4096.0;
/// The query benchmarks' workloads (`crates/geom-core/benches/common`).
const WORKLOADS: &[&str] = &["uniform", "near"];
/// The ticks one `world_rollback` iteration steps (`ROLLBACK_TICKS` in
/// `crates/geom-core/benches/world.rs`).
const ROLLBACK_TICKS: u32 = 8;
/// The calls of the character controller one `world_character` iteration
/// makes (`CHARACTER_CALLS` there).
const CHARACTER_CALLS: f64 = 64.0;

/// Runs the criterion benchmarks, prints the median time per query, the
/// square roots, the world's ticks (and rollback frames, and ticks with
/// sleeping) and the sandbox's frames, and writes those tables into
/// [`PAGE`].
pub(crate) fn bench(extra: &[String]) -> Result<(), String> {
    if extra.iter().any(|a| a == "--peers") {
        return peers::bench_peers(extra);
    }
    let criterion_args: Vec<&str> = extra.iter().map(String::as_str).filter(|a| *a != "--").collect();
    let stamp = pages::stamp("cargo xtask bench", &arguments_note(&criterion_args));
    let started = SystemTime::now();
    // `--bench '*'`: the bench targets alone, without the libraries' unit
    // tests, whose harness would refuse criterion's arguments (`--quick`).
    let mut args = vec!["bench", "-p", "geom-core", "-p", "geom-tui", "--bench", "*", "--"];
    args.extend(&criterion_args);
    Step::cargo(&args).run()?;
    let results = Results::new(root().join("target").join("criterion"), started);
    let mut tables = Vec::new();
    for workload in WORKLOADS {
        let groups: Vec<String> = QUERY_GROUPS.iter().map(|t| format!("{t}-{workload}")).collect();
        tables.push(results.medians(
            &format!("queries-{workload}"),
            format!("median time per query (ns), workload `{workload}`, {QUERY_SCENES} queries per iteration"),
            &groups,
            QUERY_GROUPS,
            QUERY_SCENES,
        ));
    }
    tables.push(results.sqrt());
    tables.push(results.world());
    tables.push(results.world_scaling());
    tables.push(results.world_rollback());
    tables.push(results.scene_rollback());
    tables.push(results.world_game());
    tables.push(results.world_sleep());
    tables.push(results.render("render", "sandbox, drawing one frame (median)", "frame"));
    tables.push(results.render(
        "rerun",
        "sandbox, switching precision: the set-up re-run to the tick (median)",
        "re-run",
    ));
    tables.iter().for_each(Table::print);
    pages::write(PAGE, "xtask bench", &stamp, &tables)
}

/// What the stamp says of criterion's arguments (`--quick`, a filter), when
/// there are any.
fn arguments_note(args: &[&str]) -> String {
    if args.is_empty() { String::new() } else { format!("; criterion arguments `{}`", args.join(" ")) }
}

/// Criterion's results in one directory, and when the run began.
struct Results {
    dir: PathBuf,
    since: SystemTime,
}

impl Results {
    fn new(dir: PathBuf, since: SystemTime) -> Self {
        Self { dir, since }
    }

    /// The median's point estimate (ns per iteration) of the benchmark in
    /// `path` (relative to the results), from its `new/estimates.json`.
    fn median(&self, path: &Path) -> Option<f64> {
        median_ns(&self.dir.join(path))
    }

    /// Whether this run wrote any result under one of `paths`.
    fn fresh(&self, paths: &[PathBuf]) -> bool {
        paths.iter().any(|p| measured_since(&self.dir.join(p), self.since))
    }

    /// A table of median nanoseconds per element: one row per benchmark,
    /// one column per group (headed by `headers`). A group without results
    /// (left out by a criterion filter) leaves its column empty.
    fn medians(&self, name: &str, title: String, groups: &[String], headers: &[&str], elements: f64) -> Table {
        let mut rows: Vec<String> = Vec::new();
        for group in groups {
            let Ok(entries) = std::fs::read_dir(self.dir.join(group)) else { continue };
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name != "report" && !rows.contains(&name) && entry.path().join("new").is_dir() {
                    rows.push(name);
                }
            }
        }
        rows.sort();
        let mut markdown = format!("| query | {} |\n|---|{}", headers.join(" | "), "---:|".repeat(groups.len()));
        for row in &rows {
            let cells: Vec<String> = groups
                .iter()
                .map(|group| {
                    self.median(&Path::new(group).join(row))
                        .map_or_else(|| "–".to_owned(), |ns| format!("{:.1}", ns / elements))
                })
                .collect();
            let _ = write!(markdown, "\n| {row} | {} |", cells.join(" | "));
        }
        let groups: Vec<PathBuf> = groups.iter().map(PathBuf::from).collect();
        Table { name: name.to_owned(), title, markdown, fresh: self.fresh(&groups) }
    }

    /// The square-root benchmark: geom's exact fixed-point square root
    /// against `fixed`'s own, and the floats' for reference.
    fn sqrt(&self) -> Table {
        let cell = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |ns| format!("{:.1}", ns / QUERY_SCENES));
        let mut markdown =
            String::from("| type | geom `Scalar::sqrt` | `fixed`'s `sqrt` | fixed / geom |\n|---|---:|---:|---:|");
        for ty in ["I16F16", "I32F32", "I48F16"] {
            let (geom, fixed) =
                (self.median(&Path::new("sqrt/geom").join(ty)), self.median(&Path::new("sqrt/fixed").join(ty)));
            let ratio = geom.zip(fixed).map_or_else(|| "–".to_owned(), |(g, f)| format!("{:.1}", f / g));
            let _ = write!(markdown, "\n| {ty} | {} | {} | {ratio} |", cell(geom), cell(fixed));
        }
        for ty in ["f32", "f64"] {
            let _ = write!(markdown, "\n| {ty} | {} | – | – |", cell(self.median(&Path::new("sqrt").join(ty))));
        }
        Table {
            name: "sqrt".to_owned(),
            title: format!(
                "square root, median ns per value ({QUERY_SCENES} values over the safe range per iteration)"
            ),
            markdown,
            fresh: self.fresh(&["sqrt".into()]),
        }
    }

    /// The world benchmark: median time per tick and ticks per second, for
    /// the plain scene (`world`) and the one using every feature
    /// (`world_features`).
    fn world(&self) -> Table {
        let mut markdown = String::from(
            "| type | ms per tick | ticks per second | with features: ms per tick | ticks per second |\n\
             |---|---:|---:|---:|---:|",
        );
        let cells =
            |ns: Option<f64>| ns.map_or_else(|| "– | –".to_owned(), |ns| format!("{:.2} | {:.0}", ns / 1e6, 1e9 / ns));
        for ty in QUERY_GROUPS {
            let (plain, features) =
                (self.median(&Path::new("world").join(ty)), self.median(&Path::new("world_features").join(ty)));
            if plain.is_some() || features.is_some() {
                let _ = write!(markdown, "\n| {ty} | {} | {} |", cells(plain), cells(features));
            }
        }
        Table {
            name: "world".to_owned(),
            title: "world step, 1000 circles and 200 segments (median)".to_owned(),
            markdown,
            fresh: self.fresh(&["world".into(), "world_features".into()]),
        }
    }

    /// How the world's tick grows with the number of bodies
    /// (`world_scale/<type>/<n>`, `world_pile/<type>/<n>`): median ms per
    /// tick, and µs per body in brackets.
    fn world_scaling(&self) -> Table {
        let mut markdown =
            format!("| scene | {} |\n|---|{}", QUERY_GROUPS.join(" | "), "---:|".repeat(QUERY_GROUPS.len()));
        let scenes =
            [("world_scale", "platforms", [1000, 4000, 16000].as_slice()), ("world_pile", "dense pile", &[2000, 5000])];
        for (group, label, counts) in scenes {
            for &count in counts {
                let cells: Vec<String> = QUERY_GROUPS
                    .iter()
                    .map(|ty| {
                        self.median(&Path::new(group).join(ty).join(count.to_string())).map_or_else(
                            || "–".to_owned(),
                            |ns| format!("{:.2} ({:.3})", ns / 1e6, ns / 1e3 / f64::from(count)),
                        )
                    })
                    .collect();
                let _ = write!(markdown, "\n| {label}, {count} balls | {} |", cells.join(" | "));
            }
        }
        Table {
            name: "world-scaling".to_owned(),
            title: "world step by number of balls, median ms per tick (µs per body)".to_owned(),
            markdown,
            fresh: self.fresh(&["world_scale".into(), "world_pile".into()]),
        }
    }

    /// The rollback benchmark (`world_rollback/<type>`): median ms per frame
    /// of a rollback client (restoring a snapshot, then stepping and saving
    /// [`ROLLBACK_TICKS`] ticks).
    fn world_rollback(&self) -> Table {
        self.rollback(
            "world_rollback",
            "world rollback, a jar of 400 touching balls awake (sleeping off), median ms per frame",
            ("ms", 1e6),
        )
    }

    /// The sandbox's rollback benchmark (`scene_rollback/<type>`): median µs
    /// per rollback frame of the built-in scene as a two-player game.
    fn scene_rollback(&self) -> Table {
        self.rollback("scene_rollback", "the built-in scene's rollback frame, median µs per frame", ("µs", 1e3))
    }

    /// A rollback group's table: its median per type, in `unit` (its name
    /// and nanoseconds in it).
    fn rollback(&self, group: &str, title: &str, unit: (&str, f64)) -> Table {
        let mut markdown = format!(
            "| type | {} per rollback frame (restore, {ROLLBACK_TICKS} ticks, {ROLLBACK_TICKS} snapshots) |\n|---|---:|",
            unit.0
        );
        for ty in QUERY_GROUPS {
            if let Some(ns) = self.median(&Path::new(group).join(ty)) {
                let _ = write!(markdown, "\n| {ty} | {:.2} |", ns / unit.1);
            }
        }
        Table { name: group.replace('_', "-"), title: title.to_owned(), markdown, fresh: self.fresh(&[group.into()]) }
    }

    /// What a game asks of the world each tick: every body's contacts and
    /// ground in the jar of 400 (`world_contacts/<type>`, µs for all), and
    /// one call of the character controller (`world_character/<type>`, µs
    /// per call).
    fn world_game(&self) -> Table {
        let mut markdown =
            "| type | contacts and ground of 400 bodies (µs) | `move_character`, one call (µs) |\n|---|---:|---:|"
                .to_owned();
        for ty in QUERY_GROUPS {
            let contacts = self.median(&Path::new("world_contacts").join(ty)).map(|ns| ns / 1e3);
            let character = self.median(&Path::new("world_character").join(ty)).map(|ns| ns / 1e3 / CHARACTER_CALLS);
            if contacts.is_some() || character.is_some() {
                let _ = write!(markdown, "\n| {ty} | {} | {} |", figure(contacts), figure(character));
            }
        }
        Table {
            name: "world-game".to_owned(),
            title: "what a game asks each tick: contacts and ground, and the character controller, median µs"
                .to_owned(),
            markdown,
            fresh: self.fresh(&["world_contacts".into(), "world_character".into()]),
        }
    }

    /// What sleeping saves (`world_sleep/<scene>`, `I32F32`): median ms per
    /// tick of the jar of 1200 balls falling in and settled, and the ratio.
    fn world_sleep(&self) -> Table {
        let ms = |scene: &str| self.median(&Path::new("world_sleep").join(scene)).map(|ns| ns / 1e6);
        let (moving, settled) = (ms("jar_1200"), ms("jar_1200_settled"));
        let ratio = moving.zip(settled).map(|(m, s)| s / m);
        let markdown = format!(
            "| scene | moving (tick 120) | settled (tick 1800) | settled / moving |\n|---|---:|---:|---:|\n\
             | jar, 1200 balls | {} | {} | {} |",
            figure(moving),
            figure(settled),
            figure(ratio),
        );
        Table {
            name: "world-sleep".to_owned(),
            title: "world step with sleeping on, I32F32, median ms per tick".to_owned(),
            markdown,
            fresh: self.fresh(&["world_sleep".into()]),
        }
    }

    /// One of the sandbox's benchmark groups: the median time of each, in
    /// ms (drawing one frame, re-running a scene), named as the benchmark
    /// names itself (criterion's `benchmark.json`).
    fn render(&self, group: &str, title: &str, what: &str) -> Table {
        let dir = self.dir.join(group);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .map(|entries| entries.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        names.retain(|n| n != "report");
        names.sort();
        let mut markdown = format!("| {what} | ms |\n|---|---:|");
        for name in names {
            let Some(ns) = median_ns(&dir.join(&name)) else { continue };
            let label = function_id(&dir.join(&name)).unwrap_or_else(|| name.replace('_', " "));
            let _ = write!(markdown, "\n| {label} | {:.2} |", ns / 1e6);
        }
        Table { name: group.to_owned(), title: title.to_owned(), markdown, fresh: self.fresh(&[group.into()]) }
    }
}

/// A time or ratio for a table: two decimals, or three significant digits
/// below 0.1 (a sleeping world's tick takes microseconds); `–` when
/// missing.
fn figure(v: Option<f64>) -> String {
    match v {
        None => "–".to_owned(),
        Some(v) if v > 0.0 && v < 0.1 => {
            let digits = (2.0 - v.log10().floor()) as usize;
            format!("{v:.digits$}")
        }
        Some(v) => format!("{v:.2}"),
    }
}

/// Reads a criterion JSON file of the benchmark in `dir` (`new/<file>`).
fn criterion_json(dir: &Path, file: &str) -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("new").join(file)).ok()?;
    serde_json::from_str(&text).ok()
}

/// The median's point estimate (ns per iteration) of the benchmark in
/// `dir`, from criterion's `estimates.json`
/// (`{"median": {"point_estimate": X, …}, …}`).
fn median_ns(dir: &Path) -> Option<f64> {
    criterion_json(dir, "estimates.json")?["median"]["point_estimate"].as_f64()
}

/// The benchmark's own name within its group, from criterion's
/// `benchmark.json` (the directory's name has some characters replaced).
fn function_id(dir: &Path) -> Option<String> {
    let id = criterion_json(dir, "benchmark.json")?;
    let function = id["function_id"].as_str()?;
    Some(match id["value_str"].as_str() {
        Some(value) => format!("{function} {value}"),
        None => function.to_owned(),
    })
}

/// Whether any `estimates.json` under `dir` was written at or after `since`.
fn measured_since(dir: &Path, since: SystemTime) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    entries.flatten().any(|entry| {
        let path = entry.path();
        if path.is_dir() {
            measured_since(&path, since)
        } else {
            path.file_name().is_some_and(|n| n == "estimates.json")
                && entry.metadata().and_then(|m| m.modified()).is_ok_and(|t| t >= since)
        }
    })
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use super::{figure, function_id, measured_since, median_ns};

    #[test]
    fn medians_and_names_are_read_from_criterion_json() {
        let dir = tempfile::tempdir().unwrap();
        let bench = dir.path().join("render").join("500 bodies 80x24");
        std::fs::create_dir_all(bench.join("new")).unwrap();
        std::fs::write(
            bench.join("new").join("estimates.json"),
            r#"{"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":3.0},"point_estimate":2.0,"standard_error":0.1},
               "median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":790000.0,"upper_bound":800000.0},"point_estimate":795000.5,"standard_error":12.0}}"#,
        )
        .unwrap();
        std::fs::write(
            bench.join("new").join("benchmark.json"),
            r#"{"group_id":"render","function_id":"500 bodies 80x24","value_str":null,"throughput":null,"full_id":"render/500 bodies 80x24","directory_name":"render/500 bodies 80x24","title":"render/500 bodies 80x24"}"#,
        )
        .unwrap();
        assert_eq!(median_ns(&bench), Some(795_000.5));
        assert_eq!(function_id(&bench).as_deref(), Some("500 bodies 80x24"));
        assert_eq!(median_ns(&dir.path().join("missing")), None);
        let before = SystemTime::now() - Duration::from_mins(1);
        assert!(measured_since(dir.path(), before));
        assert!(!measured_since(dir.path(), SystemTime::now() + Duration::from_mins(1)));
    }

    #[test]
    fn small_figures_keep_three_significant_digits() {
        assert_eq!(figure(Some(1.234)), "1.23");
        assert_eq!(figure(Some(0.1)), "0.10");
        assert_eq!(figure(Some(0.003_256)), "0.00326");
        assert_eq!(figure(Some(0.000_735)), "0.000735");
        assert_eq!(figure(Some(0.0)), "0.00");
        assert_eq!(figure(None), "–");
    }
}
