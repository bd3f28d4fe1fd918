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
/// the median time per query of each implementation and their ratios, then
/// the world's time per tick against rapier2d's; writes those tables into
/// [`PAGE`].
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
            self.median(&Path::new(&group).join(query).join(implementation)).map(|ns| ns / QUERY_SCENES)
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
