//! `cargo xtask bench --peers`: geom beside parry2d's queries and rapier2d's
//! world (`peers/`, a workspace of its own so that the root workspace never
//! builds either), printed and written into `docs/BENCHMARKS.md`.

use std::env;
use std::fmt::Write as _;
use std::path::Path;
use std::time::SystemTime;

use super::{PAGE, QUERY_SCENES, Results, WORKLOADS, arguments_note, figure};
use crate::pages::{self, Table};
use crate::run::{Step, root};

/// The peer comparison's queries (rows) and implementations (columns), as
/// `peers/benches/peers.rs` names them (`<query>/<implementation>`).
const PEER_QUERIES: &[&str] = &[
    "intersects_circle_segment",
    "distance_point_segment",
    "contact_circle_segment",
    "contact_circle_capsule",
    "contact_circle_circle",
    "contact_capsule_capsule",
    "sweep_circle_segment",
    "sweep_capsule_segment",
    "sweep_capsule_capsule",
];
const PEER_IMPLEMENTATIONS: &[&str] = &[
    "geom_f32",
    "geom_f64",
    "geom_I32F32",
    "geom_I16F16",
    "parry_query_f32",
    "parry_kernel_f32",
    "parry_query_f64",
    "parry_kernel_f64",
];
/// The ratio columns: header, numerator, denominator.
const PEER_RATIOS: &[(&str, &str, &str)] = &[
    ("parry kernel f32 / geom f32", "parry_kernel_f32", "geom_f32"),
    ("parry query f32 / geom f32", "parry_query_f32", "geom_f32"),
    ("parry kernel f64 / geom f64", "parry_kernel_f64", "geom_f64"),
    ("geom I32F32 / geom f32", "geom_I32F32", "geom_f32"),
    ("geom I16F16 / geom f32", "geom_I16F16", "geom_f32"),
];

/// The world comparison's scenes (rows, with their ball counts), as
/// `peers/benches/world.rs` and `common/world_scene.rs` name them.
const PEER_WORLD_SCENES: &[(&str, &str, f64)] = &[
    ("platforms_1000", "platforms, 1000 balls", 1000.0),
    ("platforms_4000", "platforms, 4000 balls", 4000.0),
    ("platforms_16000", "platforms, 16000 balls", 16000.0),
    ("pile_2000", "dense pile, 2000 balls", 2000.0),
    ("pile_5000", "dense pile, 5000 balls", 5000.0),
    ("jar_1200", "jar, 1200 balls, tick 120", 1200.0),
    ("jar_1200_settled", "jar, 1200 balls, settled (tick 1800)", 1200.0),
    ("square_pile_5000", "square pile, 5000 balls, tick 120", 5000.0),
    ("square_pile_5000_settled", "square pile, 5000 balls, settled (tick 1800)", 5000.0),
];

/// Runs the comparison with parry2d and rapier2d and prints, per workload,
/// the median time per query of each implementation (over its rounds) and
/// their ratios, then the world's time per tick against rapier2d's; writes
/// those tables into [`PAGE`].
///
/// The two benches build apart: the world bench needs rapier2d (the `rapier`
/// feature), whose `enhanced-determinism` would otherwise change the
/// parry2d the query bench measures.
pub(super) fn bench_peers(extra: &[String]) -> Result<(), String> {
    let criterion_args: Vec<&str> =
        extra.iter().map(String::as_str).filter(|a| *a != "--" && *a != "--peers").collect();
    let stamp = pages::stamp("cargo xtask bench --peers", &arguments_note(&criterion_args));
    let started = SystemTime::now();
    for bench in [["--bench", "peers"].as_slice(), &["--features", "rapier", "--bench", "world"]] {
        let mut args = vec!["bench", "--manifest-path", "peers/Cargo.toml"];
        args.extend(bench);
        args.push("--");
        args.extend(&criterion_args);
        Step::cargo(&args).run()?;
    }
    // The peers workspace builds in `peers/target` unless told otherwise.
    let target =
        env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("peers").join("target"), |t| root().join(t));
    let results = Results::new(target.join("criterion"), started);
    // A criterion filter may have left a table without results: say so and
    // print the others.
    let mut tables = Vec::new();
    for workload in WORKLOADS {
        let title = format!(
            "geom and parry2d, median ns per query, workload `{workload}`, {QUERY_SCENES} queries per iteration"
        );
        match results.peers(workload, title) {
            Ok(table) => tables.push(table),
            Err(message) => println!("\n{message}"),
        }
    }
    match results.peer_world() {
        Ok(table) => tables.push(table),
        Err(message) => println!("\n{message}"),
    }
    if tables.is_empty() {
        return Err(format!("no peer results in {}", results.dir.display()));
    }
    tables.iter().for_each(Table::print);
    pages::write(PAGE, "xtask bench peers", &stamp, &tables)
}

impl Results {
    /// One workload's peer table: one row per query, ns per query for each
    /// implementation, then the ratios.
    fn peers(&self, workload: &str, title: String) -> Result<Table, String> {
        let group = format!("peers-{workload}");
        if !self.dir.join(&group).is_dir() {
            return Err(format!("no results in {}", self.dir.join(&group).display()));
        }
        let ns = |query: &str, implementation: &str| {
            self.median_of_rounds(&Path::new(&group).join(query), implementation).map(|ns| ns / QUERY_SCENES)
        };
        let headers: Vec<&str> = PEER_IMPLEMENTATIONS.iter().copied().chain(PEER_RATIOS.iter().map(|r| r.0)).collect();
        let mut markdown = format!("| query | {} |\n|---|{}", headers.join(" | "), "---:|".repeat(headers.len()));
        for query in PEER_QUERIES {
            let times =
                PEER_IMPLEMENTATIONS.iter().map(|i| ns(query, i).map_or_else(|| "–".to_owned(), |t| format!("{t:.1}")));
            let ratios = PEER_RATIOS.iter().map(|(_, a, b)| match (ns(query, a), ns(query, b)) {
                (Some(a), Some(b)) => format!("{:.2}", a / b),
                _ => "–".to_owned(),
            });
            let cells: Vec<String> = times.chain(ratios).collect();
            let _ = write!(markdown, "\n| {query} | {} |", cells.join(" | "));
        }
        let fresh = self.fresh(&[group.clone().into()]);
        Ok(Table { name: workload.to_owned(), title, markdown, fresh })
    }

    /// The median over its rounds (`<implementation>.r<k>` in `query`,
    /// `k` from 0: see `peers/benches/peers.rs`) of one implementation's
    /// medians; `None` without a round.
    fn median_of_rounds(&self, query: &Path, implementation: &str) -> Option<f64> {
        // Rounds are numbered from 0 without gaps; a run has a few.
        let rounds: Vec<f64> = (0..100)
            .map(|k| query.join(format!("{implementation}.r{k}")))
            .take_while(|round| self.dir.join(round).is_dir())
            .filter_map(|round| self.median(&round))
            .collect();
        median(rounds)
    }

    /// The world comparison: one row per scene, ms per tick for geom in
    /// three types and rapier2d with sleeping off, then geom `I32F32` and
    /// rapier2d with sleeping on, geom `I32F32` over rapier with sleeping
    /// off and with it on, and geom's µs per body (sleeping off).
    fn peer_world(&self) -> Result<Table, String> {
        let group = self.dir.join("peers-world");
        if !group.is_dir() {
            return Err(format!("no results in {}", group.display()));
        }
        let ms = |scene: &str, implementation: &str| {
            self.median(&Path::new("peers-world").join(scene).join(implementation)).map(|ns| ns / 1e6)
        };
        let mut markdown = format!(
            "| scene | geom f32 | geom f64 | geom I32F32 | rapier f32 | geom I32F32, sleeping on | \
             rapier f32, sleeping on | geom I32F32 / rapier (off) | geom I32F32 / rapier (on) | \
             geom f32 µs per body | geom I32F32 µs per body |\n\
             |---|{}",
            "---:|".repeat(10)
        );
        let implementations =
            ["geom_f32", "geom_f64", "geom_I32F32", "rapier_f32_awake", "geom_I32F32_sleeping", "rapier_f32_sleeping"];
        for &(scene, label, bodies) in PEER_WORLD_SCENES {
            let [f32_, f64_, fixed, awake, fixed_sleeping, sleeping] = implementations.map(|i| ms(scene, i));
            let ratio = |geom: Option<f64>, rapier: Option<f64>| figure(geom.zip(rapier).map(|(g, r)| g / r));
            let per_body =
                |ms: Option<f64>| ms.map_or_else(|| "–".to_owned(), |ms| format!("{:.3}", ms * 1e3 / bodies));
            let _ = write!(
                markdown,
                "\n| {label} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                figure(f32_),
                figure(f64_),
                figure(fixed),
                figure(awake),
                figure(fixed_sleeping),
                figure(sleeping),
                ratio(fixed, awake),
                ratio(fixed_sleeping, sleeping),
                per_body(f32_),
                per_body(fixed),
            );
        }
        Ok(Table {
            name: "world".to_owned(),
            title: "geom's world and rapier2d, median ms per tick: one step from the same warmed-up state, \
                    sleeping off unless stated (rapier2d f32 with enhanced-determinism at dt = 1/60, CCD on, \
                    friction 0; ratio below 1: geom is faster)"
                .to_owned(),
            markdown,
            fresh: self.fresh(&["peers-world".into()]),
        })
    }
}

/// The median of `values`: the middle one, or the mean of the middle two;
/// `None` for none.
fn median(mut values: Vec<f64>) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2]),
        _ => Some(f64::midpoint(values[n / 2 - 1], values[n / 2])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_median_is_the_middle_value_or_the_mean_of_the_middle_two() {
        assert_eq!(median(vec![]), None);
        assert_eq!(median(vec![7.0]), Some(7.0));
        assert_eq!(median(vec![9.0, 1.0, 4.0]), Some(4.0));
        assert_eq!(median(vec![9.0, 1.0, 4.0, 2.0]), Some(3.0));
    }

    #[test]
    fn an_implementation_is_timed_by_the_median_of_its_rounds() {
        let dir = tempfile::tempdir().unwrap();
        let query = Path::new("peers-near").join("contact_circle_circle");
        // Rounds 0 to 2 of one implementation; a round 4 after a missing
        // round 3 is not one of them, nor is another implementation's.
        for (round, ns) in [
            ("geom_f32.r0", 400.0),
            ("geom_f32.r1", 900.0),
            ("geom_f32.r2", 500.0),
            ("geom_f32.r4", 1.0),
            ("geom_f64.r0", 2.0),
        ] {
            let new = dir.path().join(&query).join(round).join("new");
            std::fs::create_dir_all(&new).unwrap();
            std::fs::write(new.join("estimates.json"), format!(r#"{{"median":{{"point_estimate":{ns}}}}}"#)).unwrap();
        }
        let results = Results::new(dir.path().to_owned(), SystemTime::UNIX_EPOCH);
        assert_eq!(results.median_of_rounds(&query, "geom_f32"), Some(500.0));
        assert_eq!(results.median_of_rounds(&query, "parry_kernel_f32"), None);
    }
}
