//! The project's chores, run as `cargo xtask <task>` (the alias lives in
//! `.cargo/config.toml`): one module per task, and [`run`] for running
//! commands.
//!
//! Dependencies are kept few, so that this crate builds fast and first:
//! `serde_json` to read criterion's and `cargo metadata`'s JSON, and
//! `tempfile` to replace a docs page at once.

use std::env;
use std::process::ExitCode;

mod accuracy;
mod bench;
mod ci;
mod cross;
mod deny;
mod fuzz;
mod golden;
mod pages;
mod run;
mod vectors;

pub(crate) const USAGE: &str = "\
usage: cargo xtask <task>

tasks:
  ci        everything CI checks, in order, printing each command first:
            fmt, clippy, tests, docs (public and private), the no_std
            build, packaging the publishable crates (cargo package and
            cargo publish --dry-run), cargo-deny
  deny      cargo deny check bans licenses sources (installs cargo-deny if missing)
  golden    check the pinned determinism digests; `golden --bless` rewrites
            them and the test vectors (do that only for a deliberate change,
            and say why); `golden --explain` names the first case of each
            moved query stream whose answer changed since the last bless
  vectors   write the test vectors for ports (crates/geom-test/golden/vectors.json)
  accuracy  measured accuracy of every scalar type against the exact oracle
            (an optional number of scenes per query, default 20000); writes
            the tables into docs/ACCURACY.md
  bench     the criterion benchmarks, then tables of medians: per query and
            scalar type, per world tick (by number of bodies, asleep or
            not) and rollback frame, per sandbox frame (arguments after
            `--` go to criterion, e.g. `--quick` or a filter);
            `bench --peers` runs the comparisons
            instead (`peers/`, its own workspace): per workload, ns per query
            for geom and parry2d and their ratios, then ms per world tick for
            geom and rapier2d on the same scenes. Both write their tables
            into docs/BENCHMARKS.md; those a criterion filter left out stay
            as they were
  fuzz      every fuzz target (fuzz/, libFuzzer via cargo-fuzz, installed if
            missing) for `--seconds N` each (default 60), or only the targets
            named; then a table of executions and coverage per target. New
            inputs go to fuzz/corpus/<target>/ (minimised afterwards), crashes
            to fuzz/artifacts/<target>/, and any crash fails the task
  cross     the determinism checks (golden digests, test vectors, the
            golden world checksums) on other architectures under qemu-user,
            and on WebAssembly under Node.js: the targets named, or aarch64,
            s390x, i686 (Linux, GNU) and wasm32-wasip1; i586 (x87) on
            request. Installs what is missing with scripts/install-cross.sh;
            prints build and run times per target and writes each target's
            row of docs/DETERMINISM.md
  help      this text
";

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci::ci(),
        Some("deny") => deny::deny(),
        Some("bench") => bench::bench(&args[1..]),
        Some("accuracy") => accuracy::accuracy(&args[1..]),
        Some("golden") => golden::golden(&args[1..]),
        Some("vectors") => vectors::vectors(),
        Some("fuzz") => fuzz::fuzz(&args[1..]),
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
