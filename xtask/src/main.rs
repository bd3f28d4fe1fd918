//! The project's chores, run as `cargo xtask <task>` (the alias lives in
//! `.cargo/config.toml`).
//!
//! This crate has no dependencies on purpose: it must build fast and first.

use std::env;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

mod cross;

const USAGE: &str = "\
usage: cargo xtask <task>

tasks:
  ci        everything CI checks, in order, printing each command first:
            fmt, clippy, tests, docs (public and private), the no_std
            build, cargo-deny
  deny      cargo deny check bans licenses sources (installs cargo-deny if missing)
  golden    check the pinned determinism digests; `golden --bless` rewrites
            them and the test vectors (do that only for a deliberate change,
            and say why); `golden --explain` names the first case of each
            moved query stream whose answer changed since the last bless
  vectors   write the test vectors for ports (crates/geom-test/golden/vectors.json)
  accuracy  measured accuracy of every scalar type against the exact oracle
            (an optional number of scenes per query, default 20000)
  bench     the criterion benchmarks, then tables of medians: per query and
            scalar type, per world tick (and by number of bodies), per
            sandbox frame (arguments after `--` go to criterion, e.g.
            `--quick` or a filter); `bench --peers` runs the comparisons
            instead (`peers/`, its own workspace): per workload, ns per query
            for geom and parry2d and their ratios, then ms per world tick for
            geom and rapier2d on the same scenes
  fuzz      every fuzz target (fuzz/, libFuzzer via cargo-fuzz, installed if
            missing) for `--seconds N` each (default 60), or only the targets
            named; then a table of executions and coverage per target. New
            inputs go to fuzz/corpus/<target>/ (minimised afterwards), crashes
            to fuzz/artifacts/<target>/, and any crash fails the task
  cross     the determinism checks (golden digests, test vectors, the
            golden world checksums) on other architectures under qemu-user:
            the targets named, or aarch64, s390x and i686 (Linux, GNU);
            i586 (x87) on request. Installs what is missing with
            scripts/install-cross.sh; prints build and run times per target
  help      this text
";

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("deny") => deny(),
        Some("bench") => bench(&args[1..]),
        Some("accuracy") => accuracy(&args[1..]),
        Some("golden") => golden(&args[1..]),
        Some("vectors") => vectors(),
        Some("fuzz") => fuzz(&args[1..]),
        Some("cross") => cross::cross(&args[1..]),
        Some("help" | "--help" | "-h") | None => {
            print!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown task `{other}`\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root: the parent of this crate's directory.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

/// A command to run from the workspace root, printed before it runs.
struct Step {
    program: String,
    args: Vec<String>,
    envs: Vec<(String, String)>,
    dir: Option<PathBuf>,
}

impl Step {
    fn cargo(args: &[&str]) -> Self {
        let program = env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        Self::new(&program, args)
    }

    fn new(program: &str, args: &[&str]) -> Self {
        Self {
            program: program.to_owned(),
            args: args.iter().map(|&a| a.to_owned()).collect(),
            envs: Vec::new(),
            dir: None,
        }
    }

    /// Runs in `dir` instead of the workspace root.
    fn in_dir(mut self, dir: &Path) -> Self {
        self.dir = Some(dir.to_path_buf());
        self
    }

    fn env(mut self, key: &str, value: &str) -> Self {
        self.envs.push((key.to_owned(), value.to_owned()));
        self
    }

    fn display(&self) -> String {
        let envs: Vec<String> = self.envs.iter().map(|(k, v)| format!("{k}={v:?} ")).collect();
        let envs = envs.concat();
        let program = Path::new(&self.program).file_name().map_or(self.program.clone(), |n| n.to_string_lossy().into());
        format!("{envs}{program} {}", self.args.join(" "))
    }

    fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command.args(&self.args).current_dir(self.dir.clone().unwrap_or_else(root));
        for (k, v) in &self.envs {
            command.env(k, v);
        }
        command
    }

    /// Runs the step, failing with the command line if it fails.
    fn run(&self) -> Result<(), String> {
        println!("\n$ {}", self.display());
        let status = self.command().status().map_err(|e| format!("could not start `{}`: {e}", self.display()))?;
        if status.success() { Ok(()) } else { Err(format!("`{}` failed ({status})", self.display())) }
    }

    /// Runs the step and returns its standard output.
    fn output(&self) -> Result<String, String> {
        println!("\n$ {}", self.display());
        let output = self.command().output().map_err(|e| format!("could not start `{}`: {e}", self.display()))?;
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        } else {
            Err(format!(
                "`{}` failed ({}):\n{}",
                self.display(),
                output.status,
                String::from_utf8_lossy(&output.stderr)
            ))
        }
    }
}

fn ci() -> Result<(), String> {
    Step::cargo(&["fmt", "--all", "--check"]).run()?;
    Step::cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]).run()?;
    Step::cargo(&["test", "--workspace"]).run()?;
    Step::cargo(&["doc", "--workspace", "--no-deps"]).env("RUSTDOCFLAGS", "-D warnings").run()?;
    // The private items' docs too: a broken link there warns only here.
    Step::cargo(&["doc", "--workspace", "--no-deps", "--document-private-items"])
        .env("RUSTDOCFLAGS", "-D warnings")
        .run()?;
    // geom-core alone, with its default features: in the workspace another
    // crate turns `serde` on, and a link to what it gates would resolve.
    Step::cargo(&["doc", "-p", "geom-core", "--no-deps"]).env("RUSTDOCFLAGS", "-D warnings").run()?;
    no_std()?;
    deny()?;
    println!("\nxtask ci: all checks passed");
    Ok(())
}

/// Builds geom-core without default features and checks that nothing in its
/// dependency tree turns on a `std` feature.
fn no_std() -> Result<(), String> {
    Step::cargo(&["build", "-p", "geom-core", "--no-default-features"]).run()?;
    let tree = Step::cargo(&[
        "tree",
        "-p",
        "geom-core",
        "--no-default-features",
        "--edges",
        "normal,features",
        "--prefix",
        "none",
    ])
    .output()?;
    let with_std: Vec<&str> = tree.lines().filter(|line| line.contains("feature \"std\"")).collect();
    if with_std.is_empty() {
        println!("no_std: no dependency of geom-core enables `std`");
        Ok(())
    } else {
        Err(format!("geom-core's dependency tree enables `std`:\n{}", with_std.join("\n")))
    }
}

/// Runs cargo-deny's offline checks, installing the tool if it is missing.
///
/// The `advisories` check needs to fetch the `RustSec` database; where the
/// network allows it, run `cargo deny check advisories` by hand.
fn deny() -> Result<(), String> {
    let installed = Step::cargo(&["deny", "--version"]).command().output().is_ok_and(|o| o.status.success());
    if !installed {
        println!("\ncargo-deny is not installed; installing it (once) with `cargo install --locked cargo-deny`");
        Step::cargo(&["install", "--locked", "cargo-deny"]).run().map_err(|e| {
            format!(
                "{e}\ncargo-deny could not be installed; install it by hand with `cargo install --locked cargo-deny`"
            )
        })?;
    }
    Step::cargo(&["deny", "check", "bans", "licenses", "sources"]).run()
}

/// Checks the pinned digests, or with `--bless` rewrites them and the test
/// vectors, or with `--explain` finds what moved.
fn golden(extra: &[String]) -> Result<(), String> {
    let step = Step::cargo(&[
        "test",
        "--release",
        "-p",
        "geom-test",
        "-p",
        "geom-tui",
        "--test",
        "golden",
        "--",
        "--nocapture",
    ]);
    match extra {
        [] => step.run(),
        [flag] if flag == "--bless" => {
            step.env("GEOM_GOLDEN_BLESS", "1").run()?;
            vectors()
        }
        [flag] if flag == "--explain" => explain(),
        _ => Err(format!("usage: cargo xtask golden [--bless | --explain]\n\n{USAGE}")),
    }
}

/// Writes the test vectors for ports.
fn vectors() -> Result<(), String> {
    Step::cargo(&["run", "--release", "-p", "geom-test", "--bin", "golden", "--", "vectors"]).run()
}

/// The pinned query digests (`name = 0x…` lines).
fn query_digests(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|line| line.split_once(" = "))
        .filter(|(name, _)| name.starts_with("query."))
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .collect()
}

/// Finds, for every query stream whose digest moved since the last bless,
/// the first case whose answer changed: builds the revision that last
/// wrote the digest file in a scratch worktree, and compares the two
/// revisions' streams case by case.
fn explain() -> Result<(), String> {
    const DIGESTS: &str = "crates/geom-test/golden/digests.txt";
    let now =
        Step::cargo(&["run", "--release", "-q", "-p", "geom-test", "--bin", "golden", "--", "digests"]).output()?;
    let pinned = std::fs::read_to_string(root().join(DIGESTS)).map_err(|e| format!("cannot read {DIGESTS}: {e}"))?;
    let pinned = query_digests(&pinned);
    let moved: Vec<String> =
        query_digests(&now).into_iter().filter(|d| !pinned.contains(d)).map(|(name, _)| name).collect();
    if moved.is_empty() {
        println!("\nevery query digest matches {DIGESTS}: nothing moved");
        return Ok(());
    }
    let rev = Step::new("git", &["log", "-1", "--format=%H", "--", DIGESTS]).output()?.trim().to_owned();
    if rev.is_empty() {
        return Err(format!("{DIGESTS} has no history to compare with"));
    }
    let scratch = root().join("target").join("golden-explain");
    let tree = scratch.join("tree");
    let tree_arg = tree.to_string_lossy().into_owned();
    if tree.exists() {
        Step::new("git", &["worktree", "remove", "--force", &tree_arg]).run()?;
    }
    Step::new("git", &["worktree", "add", "--detach", &tree_arg, &rev]).run()?;
    let target = scratch.join("target").to_string_lossy().into_owned();
    let built = Step::cargo(&["build", "--release", "-q", "-p", "geom-test", "--bin", "golden"])
        .in_dir(&tree)
        .env("CARGO_TARGET_DIR", &target)
        .run();
    let compared = built.and_then(|()| {
        let old = scratch.join("target").join("release").join("golden");
        let new = root().join("target").join("release").join("golden");
        moved.iter().try_for_each(|name| first_difference(name, &old, &new, &rev))
    });
    let removed = Step::new("git", &["worktree", "remove", "--force", &tree_arg]).run();
    compared.and(removed)
}

/// Prints the first case of the stream `query.<query>.<type>` on which the
/// two `golden` binaries' dumps differ.
fn first_difference(name: &str, old: &Path, new: &Path, rev: &str) -> Result<(), String> {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;

    let mut parts = name.splitn(3, '.').skip(1);
    let (Some(query), Some(type_name)) = (parts.next(), parts.next()) else {
        return Err(format!("`{name}` is not a query digest"));
    };
    let spawn = |bin: &Path| {
        Command::new(bin)
            .args(["dump", query, type_name])
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", bin.display()))
    };
    let (mut a, mut b) = (spawn(old)?, spawn(new)?);
    let lines = |child: &mut std::process::Child| child.stdout.take().map(|out| BufReader::new(out).lines());
    let (Some(old_lines), Some(new_lines)) = (lines(&mut a), lines(&mut b)) else {
        return Err("no output to compare".to_owned());
    };
    let mut found = None;
    for (case, (x, y)) in old_lines.zip(new_lines).enumerate() {
        let (x, y) = (x.map_err(|e| e.to_string())?, y.map_err(|e| e.to_string())?);
        if x != y {
            found = Some((case, x, y));
            break;
        }
    }
    // Stop both early: the rest of the streams is not needed.
    let _ = a.kill();
    let _ = b.kill();
    let _ = (a.wait(), b.wait());
    match found {
        Some((case, x, y)) => println!("\n{name}: first differing case {case}\n  at {rev:.10}: {x}\n  now:        {y}"),
        None => println!("\n{name}: the streams' cases are identical; the digest itself changed (its hashing)"),
    }
    Ok(())
}

/// Prints the accuracy table (geom-test's `accuracy` binary, optimised).
fn accuracy(extra: &[String]) -> Result<(), String> {
    let mut args = vec!["run", "--release", "-p", "geom-test", "--bin", "accuracy", "--"];
    args.extend(extra.iter().map(String::as_str));
    Step::cargo(&args).run()
}

/// Runs the criterion benchmarks and prints the median time per query and
/// the world's ticks per second.
fn bench(extra: &[String]) -> Result<(), String> {
    if extra.iter().any(|a| a == "--peers") {
        return bench_peers(extra);
    }
    let mut args = vec!["bench", "-p", "geom-core", "-p", "geom-tui", "--"];
    args.extend(extra.iter().map(String::as_str).filter(|a| *a != "--"));
    Step::cargo(&args).run()?;
    let criterion = root().join("target").join("criterion");
    for workload in WORKLOADS {
        let groups: Vec<String> = QUERY_GROUPS.iter().map(|t| format!("{t}-{workload}")).collect();
        println!("\nmedian time per query (ns), workload `{workload}`, {QUERY_SCENES} queries per iteration");
        print_medians(&criterion, &groups, QUERY_GROUPS, QUERY_SCENES)?;
    }
    print_sqrt(&criterion.join("sqrt"));
    print_world(&criterion);
    print_world_scaling(&criterion);
    print_render(&criterion.join("render"), "sandbox, drawing one frame (median)", "frame");
    print_render(
        &criterion.join("rerun"),
        "sandbox, switching precision: the set-up re-run to the tick (median)",
        "re-run",
    );
    Ok(())
}

/// Prints the square-root benchmark: geom's exact fixed-point square root
/// against `fixed`'s own, and the floats' for reference.
fn print_sqrt(dir: &Path) {
    let ns = |path: PathBuf| {
        std::fs::read_to_string(path.join("new").join("estimates.json")).ok().and_then(|json| median_ns(&json))
    };
    let cell = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |ns| format!("{:.1}", ns / QUERY_SCENES));
    println!("\nsquare root, median ns per value ({QUERY_SCENES} values over the safe range per iteration)\n");
    println!("| type | geom `Scalar::sqrt` | `fixed`'s `sqrt` | fixed / geom |");
    println!("|---|---:|---:|---:|");
    for ty in ["I16F16", "I32F32", "I48F16"] {
        let (geom, fixed) = (ns(dir.join("geom").join(ty)), ns(dir.join("fixed").join(ty)));
        let ratio = geom.zip(fixed).map_or_else(|| "–".to_owned(), |(g, f)| format!("{:.1}", f / g));
        println!("| {ty} | {} | {} | {ratio} |", cell(geom), cell(fixed));
    }
    for ty in ["f32", "f64"] {
        println!("| {ty} | {} | – | – |", cell(ns(dir.join(ty))));
    }
}

/// Runs the comparison with parry2d and rapier2d (`peers/`, a workspace of
/// its own so that the root workspace never builds either) and prints, per
/// workload, the median time per query of each implementation and their
/// ratios, then the world's time per tick against rapier2d's.
///
/// The two benches build apart: the world bench needs rapier2d (the `rapier`
/// feature), whose `enhanced-determinism` would otherwise change the
/// parry2d the query bench measures.
fn bench_peers(extra: &[String]) -> Result<(), String> {
    let criterion_args: Vec<&str> =
        extra.iter().map(String::as_str).filter(|a| *a != "--" && *a != "--peers").collect();
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
    let criterion = target.join("criterion");
    // A criterion filter may have left a table without results: say so and
    // print the others.
    let mut printed = false;
    for workload in WORKLOADS {
        println!(
            "\ngeom and parry2d, median ns per query, workload `{workload}`, {QUERY_SCENES} queries per iteration\n"
        );
        match print_peers(&criterion.join(format!("peers-{workload}"))) {
            Ok(()) => printed = true,
            Err(message) => println!("{message}"),
        }
    }
    println!(
        "\ngeom's world and rapier2d, median ms per tick: one step from the same warmed-up state \
         (rapier2d f32 with enhanced-determinism at dt = 1/60, CCD on, friction 0; \
         ratio below 1: geom is faster)\n"
    );
    match print_peer_world(&criterion.join("peers-world")) {
        Ok(()) => printed = true,
        Err(message) => println!("{message}"),
    }
    if printed { Ok(()) } else { Err(format!("no peer results in {}", criterion.display())) }
}

/// The world comparison's scenes (rows, with their ball counts), as
/// `peers/benches/world.rs` and `common/world_scene.rs` name them.
const PEER_WORLD_SCENES: &[(&str, &str, f64)] = &[
    ("platforms_1000", "platforms, 1000 balls", 1000.0),
    ("platforms_4000", "platforms, 4000 balls", 4000.0),
    ("platforms_16000", "platforms, 16000 balls", 16000.0),
    ("pile_2000", "dense pile, 2000 balls", 2000.0),
    ("pile_5000", "dense pile, 5000 balls", 5000.0),
];

/// Prints the world comparison from its criterion group directory: one row
/// per scene, ms per tick for geom in three types and rapier2d with
/// sleeping off and on, geom I32F32 over rapier, and geom's µs per body.
fn print_peer_world(group: &Path) -> Result<(), String> {
    if !group.is_dir() {
        return Err(format!("no results in {}", group.display()));
    }
    let ms = |scene: &str, implementation: &str| {
        let path = group.join(scene).join(implementation).join("new").join("estimates.json");
        std::fs::read_to_string(&path).ok().and_then(|json| median_ns(&json)).map(|ns| ns / 1e6)
    };
    let show = |v: Option<f64>, digits: usize| v.map_or_else(|| "–".to_owned(), |v| format!("{v:.digits$}"));
    println!(
        "| scene | geom f32 | geom f64 | geom I32F32 | rapier f32, sleeping off | rapier f32, sleeping on | \
         geom I32F32 / rapier (off) | geom I32F32 / rapier (on) | geom f32 µs per body | geom I32F32 µs per body |"
    );
    println!("|---|{}", "---:|".repeat(9));
    for &(scene, label, bodies) in PEER_WORLD_SCENES {
        let [f32_, f64_, fixed, awake, sleeping] =
            ["geom_f32", "geom_f64", "geom_I32F32", "rapier_f32_awake", "rapier_f32_sleeping"].map(|i| ms(scene, i));
        let ratio = |rapier: Option<f64>| show(fixed.zip(rapier).map(|(g, r)| g / r), 2);
        let per_body = |ms: Option<f64>| show(ms.map(|ms| ms * 1e3 / bodies), 3);
        println!(
            "| {label} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            show(f32_, 2),
            show(f64_, 2),
            show(fixed, 2),
            show(awake, 2),
            show(sleeping, 2),
            ratio(awake),
            ratio(sleeping),
            per_body(f32_),
            per_body(fixed),
        );
    }
    Ok(())
}

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
];

/// Prints one workload's peer table from its criterion group directory: one
/// row per query, ns per query for each implementation, then the ratios.
fn print_peers(group: &Path) -> Result<(), String> {
    if !group.is_dir() {
        return Err(format!("no results in {}", group.display()));
    }
    let ns = |query: &str, implementation: &str| {
        let path = group.join(query).join(implementation).join("new").join("estimates.json");
        std::fs::read_to_string(&path).ok().and_then(|json| median_ns(&json)).map(|ns| ns / QUERY_SCENES)
    };
    let headers: Vec<&str> = PEER_IMPLEMENTATIONS.iter().copied().chain(PEER_RATIOS.iter().map(|r| r.0)).collect();
    println!("| query | {} |", headers.join(" | "));
    println!("|---|{}", "---:|".repeat(headers.len()));
    for query in PEER_QUERIES {
        let times =
            PEER_IMPLEMENTATIONS.iter().map(|i| ns(query, i).map_or_else(|| "–".to_owned(), |t| format!("{t:.1}")));
        let ratios = PEER_RATIOS.iter().map(|(_, a, b)| match (ns(query, a), ns(query, b)) {
            (Some(a), Some(b)) => format!("{:.2}", a / b),
            _ => "–".to_owned(),
        });
        let cells: Vec<String> = times.chain(ratios).collect();
        println!("| {query} | {} |", cells.join(" | "));
    }
    Ok(())
}

/// Prints one of the sandbox's benchmark groups, `title` above it: the
/// median time of each, in ms (drawing one frame, re-running a scene).
fn print_render(dir: &Path, title: &str, what: &str) {
    println!("\n{title}\n");
    println!("| {what} | ms |");
    println!("|---|---:|");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.retain(|n| n != "report");
    names.sort();
    for name in names {
        let path = dir.join(&name).join("new").join("estimates.json");
        let Some(ns) = std::fs::read_to_string(&path).ok().and_then(|json| median_ns(&json)) else { continue };
        println!("| {} | {:.2} |", name.replace('_', " "), ns / 1e6);
    }
}

/// Prints the world benchmark: median time per tick and ticks per second,
/// for the plain scene (`world`) and the one using every feature
/// (`world_features`).
fn print_world(criterion: &Path) {
    println!("\nworld step, 1000 circles and 200 segments (median)\n");
    println!("| type | ms per tick | ticks per second | with features: ms per tick | ticks per second |");
    println!("|---|---:|---:|---:|---:|");
    let median = |group: &str, ty: &str| {
        let path = criterion.join(group).join(ty).join("new").join("estimates.json");
        std::fs::read_to_string(path).ok().and_then(|json| median_ns(&json))
    };
    let cells =
        |ns: Option<f64>| ns.map_or_else(|| "– | –".to_owned(), |ns| format!("{:.2} | {:.0}", ns / 1e6, 1e9 / ns));
    for ty in QUERY_GROUPS {
        let (plain, features) = (median("world", ty), median("world_features", ty));
        if plain.is_some() || features.is_some() {
            println!("| {ty} | {} | {} |", cells(plain), cells(features));
        }
    }
}

/// Prints how the world's tick grows with the number of bodies
/// (`world_scale/<type>/<n>`, `world_pile/<type>/<n>`): median ms per tick,
/// and µs per body in brackets.
fn print_world_scaling(criterion: &Path) {
    println!("\nworld step by number of balls, median ms per tick (µs per body)\n");
    println!("| scene | {} |", QUERY_GROUPS.join(" | "));
    println!("|---|{}", "---:|".repeat(QUERY_GROUPS.len()));
    let scenes =
        [("world_scale", "platforms", [1000, 4000, 16000].as_slice()), ("world_pile", "dense pile", &[2000, 5000])];
    for (group, label, counts) in scenes {
        for &count in counts {
            let cells: Vec<String> = QUERY_GROUPS
                .iter()
                .map(|ty| {
                    let path =
                        criterion.join(group).join(ty).join(count.to_string()).join("new").join("estimates.json");
                    std::fs::read_to_string(path).ok().and_then(|json| median_ns(&json)).map_or_else(
                        || "–".to_owned(),
                        |ns| format!("{:.2} ({:.3})", ns / 1e6, ns / 1e3 / f64::from(count)),
                    )
                })
                .collect();
            println!("| {label}, {count} balls | {} |", cells.join(" | "));
        }
    }
}

/// The scalar types the query benchmarks run for (criterion groups), and the
/// number of queries one iteration runs.
const QUERY_GROUPS: &[&str] = &["f32", "f64", "I16F16", "I32F32", "I48F16"];
const QUERY_SCENES: f64 = 4096.0;
/// The query benchmarks' workloads (`crates/geom-core/benches/common`).
const WORKLOADS: &[&str] = &["uniform", "near"];

/// Prints a table of median nanoseconds per element: one row per benchmark,
/// one column per group (headed by `headers`), read from criterion's
/// `estimates.json` files.
fn print_medians(criterion: &Path, groups: &[String], headers: &[&str], elements: f64) -> Result<(), String> {
    let mut rows: Vec<String> = Vec::new();
    for group in groups {
        let dir = criterion.join(group);
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("no results in {}: {e}", dir.display()))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name != "report" && !rows.contains(&name) && entry.path().join("new").is_dir() {
                rows.push(name);
            }
        }
    }
    rows.sort();
    println!();
    println!("| query | {} |", headers.join(" | "));
    println!("|---|{}", "---:|".repeat(groups.len()));
    for row in &rows {
        let cells: Vec<String> = groups
            .iter()
            .map(|group| {
                let path = criterion.join(group).join(row).join("new").join("estimates.json");
                std::fs::read_to_string(&path)
                    .ok()
                    .and_then(|json| median_ns(&json))
                    .map_or_else(|| "–".to_owned(), |ns| format!("{:.1}", ns / elements))
            })
            .collect();
        println!("| {row} | {} |", cells.join(" | "));
    }
    Ok(())
}

/// The median's point estimate (ns per iteration) from criterion's
/// `estimates.json`: `"median":{"confidence_interval":{…},"point_estimate":X,…}`.
fn median_ns(json: &str) -> Option<f64> {
    let median = &json[json.find("\"median\"")?..];
    let value = &median[median.find("\"point_estimate\":")? + "\"point_estimate\":".len()..];
    let end = value.find([',', '}'])?;
    value[..end].trim().parse().ok()
}

/// The fuzz targets (`fuzz/fuzz_targets/`), with the longest input each is
/// given and the extra corpus directories and dictionary it starts from.
const FUZZ_TARGETS: &[(&str, usize, &[&str], Option<&str>)] = &[
    ("static_queries", 512, &[], None),
    ("swept_queries", 256, &[], None),
    ("world", 1024, &[], None),
    ("scene_parser", 4096, &["crates/geom-tui/scenes"], Some("fuzz/dicts/scene_parser.dict")),
    ("headless_args", 256, &[], None),
];

/// What one fuzz run reported.
struct FuzzReport {
    target: &'static str,
    executions: Option<u64>,
    per_second: Option<u64>,
    coverage: Option<u64>,
    features: Option<u64>,
    corpus: usize,
    crashes: Vec<PathBuf>,
    failed: bool,
}

/// Runs every fuzz target (or those named) for `--seconds N` each.
///
/// `cargo fuzz` needs a nightly compiler for its sanitizer and coverage
/// flags; this machine has stable Rust only, so `RUSTC_BOOTSTRAP=1` is set
/// on the `cargo fuzz` commands alone (it lets a stable rustc accept `-Z`
/// flags; nothing else in the project uses it). The fuzz builds keep
/// overflow checks and debug assertions on (`--debug-assertions`, and the
/// fuzz crate's release profile), under `AddressSanitizer` (cargo-fuzz's
/// default, which works with the stable toolchain's sanitizer runtime).
fn fuzz(extra: &[String]) -> Result<(), String> {
    let mut seconds: u64 = 60;
    let mut only: Vec<&str> = Vec::new();
    let mut args = extra.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => {
                let value = args.next().ok_or("--seconds needs a number")?;
                seconds = value.parse().map_err(|_| format!("--seconds: `{value}` is not a whole number"))?;
            }
            name => {
                let Some(t) = FUZZ_TARGETS.iter().find(|t| t.0 == name) else {
                    let names: Vec<&str> = FUZZ_TARGETS.iter().map(|t| t.0).collect();
                    return Err(format!("unknown fuzz target `{name}` (targets: {})", names.join(", ")));
                };
                only.push(t.0);
            }
        }
    }
    let installed = Step::cargo(&["fuzz", "--version"]).command().output().is_ok_and(|o| o.status.success());
    if !installed {
        println!(
            "\ncargo-fuzz is not installed. It is the cargo subcommand that builds the fuzz targets with \
             libFuzzer and the sanitizer and runs them; installing it (once, from crates.io) with \
             `cargo install cargo-fuzz --locked`"
        );
        Step::cargo(&["install", "cargo-fuzz", "--locked"]).run().map_err(|e| {
            format!(
                "{e}\ncargo-fuzz could not be installed; install it by hand with `cargo install cargo-fuzz --locked`"
            )
        })?;
    }
    println!(
        "\ncargo fuzz builds with nightly-only compiler flags (libFuzzer's coverage and AddressSanitizer); \
         on a stable toolchain they are allowed by RUSTC_BOOTSTRAP=1, set on the cargo-fuzz commands only"
    );
    let fuzz_dir = root().join("fuzz");
    let logs = fuzz_dir.join("target").join("fuzz-logs");
    std::fs::create_dir_all(&logs).map_err(|e| format!("cannot create {}: {e}", logs.display()))?;
    let mut reports = Vec::new();
    for &(target, max_len, seeds, dict) in FUZZ_TARGETS {
        if !only.is_empty() && !only.contains(&target) {
            continue;
        }
        reports.push(fuzz_target(&fuzz_dir, &logs, target, seconds, max_len, seeds, dict)?);
    }
    println!("\nfuzzing, {seconds} s per target (AddressSanitizer, overflow checks and debug assertions on):\n");
    println!("| target | executions | exec/s | coverage (cov) | features (ft) | corpus files | crashes |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let show = |v: Option<u64>| v.map_or_else(|| "?".to_owned(), |v| v.to_string());
    for r in &reports {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.target,
            show(r.executions),
            show(r.per_second),
            show(r.coverage),
            show(r.features),
            r.corpus,
            r.crashes.len()
        );
    }
    let broken: Vec<&FuzzReport> = reports.iter().filter(|r| r.failed || !r.crashes.is_empty()).collect();
    if broken.is_empty() {
        println!("\nxtask fuzz: no crash");
        return Ok(());
    }
    let mut message = String::from("fuzzing found crashes:\n");
    for r in broken {
        if r.crashes.is_empty() {
            let log = logs.join(format!("{}.log", r.target));
            let _ =
                writeln!(message, "  {}: the fuzzer failed without leaving an input; see {}", r.target, log.display());
        }
        for crash in &r.crashes {
            let name = crash.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let _ = writeln!(
                message,
                "  {target}: {path}\n    reproduce: cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run -a {target} {path}\n    \
                 once fixed, keep it as fuzz/regressions/{target}/{name} (renamed to say what it was; \
                 `cargo test -p {package} --test fuzz_corpus` replays it)",
                target = r.target,
                package = if matches!(r.target, "scene_parser" | "headless_args") { "geom-tui" } else { "geom-test" },
                path = crash.display(),
            );
        }
    }
    Err(message)
}

/// The files in `dir` (none when it does not exist).
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// Runs one fuzz target, then merges what it found into the committed
/// corpus.
///
/// libFuzzer works in `fuzz/target/corpus/<target>/` (kept between runs,
/// not committed; it grows), reading the committed `fuzz/corpus/<target>/`
/// and any seed directories. Afterwards the committed corpus is replaced by
/// a set-cover merge of both on edge coverage alone (no hit counts), which
/// keeps every edge reached in a few hundred small files.
fn fuzz_target(
    fuzz_dir: &Path,
    logs: &Path,
    target: &'static str,
    seconds: u64,
    max_len: usize,
    seeds: &[&str],
    dict: Option<&str>,
) -> Result<FuzzReport, String> {
    let corpus = fuzz_dir.join("corpus").join(target);
    let work = fuzz_dir.join("target").join("corpus").join(target);
    let artifacts = fuzz_dir.join("artifacts").join(target);
    for dir in [&corpus, &work, &artifacts] {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let before = files_in(&artifacts);
    let (work_arg, corpus_arg) = (work.display().to_string(), corpus.display().to_string());
    let artifacts_arg = format!("-artifact_prefix={}/", artifacts.display());
    let seed_dirs: Vec<String> = seeds.iter().map(|s| root().join(s).display().to_string()).collect();
    let mut args = vec!["fuzz", "run", "--debug-assertions", target, &work_arg, &corpus_arg];
    args.extend(seed_dirs.iter().map(String::as_str));
    let (time, len, dict_arg) = (
        format!("-max_total_time={seconds}"),
        format!("-max_len={max_len}"),
        dict.map(|d| format!("-dict={}", root().join(d).display())),
    );
    // -rss_limit_mb and -malloc_limit_mb: an input that makes the target
    // allocate in proportion to a number in it is reported as a crash.
    args.extend([
        "--",
        &time,
        &len,
        "-print_final_stats=1",
        "-timeout=20",
        "-rss_limit_mb=2048",
        "-malloc_limit_mb=512",
    ]);
    args.push(&artifacts_arg);
    args.extend(dict_arg.as_deref());
    let step = Step::cargo(&args).in_dir(fuzz_dir).env("RUSTC_BOOTSTRAP", "1");
    println!("\n$ {}", step.display());
    let log = logs.join(format!("{target}.log"));
    let output = step.command().output().map_err(|e| format!("could not start `{}`: {e}", step.display()))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    std::fs::write(&log, stderr.as_bytes()).map_err(|e| format!("cannot write {}: {e}", log.display()))?;
    let stat = |name: &str| {
        stderr
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix(name).and_then(|v| v.trim().trim_start_matches(':').trim().parse().ok()))
    };
    // The last status line: `#N  ... cov: C ft: F corp: ... exec/s: E ...`.
    let field = |line: &str, key: &str| -> Option<u64> {
        let mut words = line.split_whitespace();
        words.by_ref().find(|w| *w == key)?;
        words.next()?.parse().ok()
    };
    let last_status = stderr.lines().rev().find(|l| l.contains(" cov: "));
    let coverage = last_status.and_then(|l| field(l, "cov:"));
    let features = last_status.and_then(|l| field(l, "ft:"));
    let executions = stat("stat::number_of_executed_units");
    let per_second = stat("stat::average_exec_per_sec");
    let tail: Vec<&str> = stderr.lines().rev().take(30).collect::<Vec<_>>().into_iter().rev().collect();
    println!("{}", tail.join("\n"));
    let crashes: Vec<PathBuf> = files_in(&artifacts).into_iter().filter(|f| !before.contains(f)).collect();
    let failed = !output.status.success();
    if !failed {
        merge_corpus(fuzz_dir, target, &corpus, &work, &len)?;
    }
    Ok(FuzzReport {
        target,
        executions,
        per_second,
        coverage,
        features,
        corpus: files_in(&corpus).len(),
        crashes,
        failed,
    })
}

/// Replaces the committed corpus of `target` by a set-cover merge of it and
/// the working corpus, on edge coverage alone.
fn merge_corpus(fuzz_dir: &Path, target: &str, corpus: &Path, work: &Path, len: &str) -> Result<(), String> {
    let merged = fuzz_dir.join("target").join("corpus-merge").join(target);
    let _ = std::fs::remove_dir_all(&merged);
    std::fs::create_dir_all(&merged).map_err(|e| format!("cannot create {}: {e}", merged.display()))?;
    let (merged_arg, work_arg, corpus_arg) =
        (merged.display().to_string(), work.display().to_string(), corpus.display().to_string());
    Step::cargo(&[
        "fuzz",
        "run",
        "--debug-assertions",
        target,
        &merged_arg,
        &corpus_arg,
        &work_arg,
        "--",
        "-merge=1",
        "-set_cover_merge=1",
        "-use_counters=0",
        "-use_value_profile=0",
        len,
    ])
    .in_dir(fuzz_dir)
    .env("RUSTC_BOOTSTRAP", "1")
    .output()?;
    let kept = files_in(&merged);
    if kept.is_empty() {
        return Err(format!("merging the {target} corpus kept nothing; the committed corpus is left as it was"));
    }
    for old in files_in(corpus) {
        std::fs::remove_file(&old).map_err(|e| format!("cannot remove {}: {e}", old.display()))?;
    }
    for file in &kept {
        let to = corpus.join(file.file_name().unwrap_or_default());
        std::fs::copy(file, &to).map_err(|e| format!("cannot copy to {}: {e}", to.display()))?;
    }
    println!("{target}: committed corpus merged to {} files (fuzz/corpus/{target}/)", kept.len());
    Ok(())
}
