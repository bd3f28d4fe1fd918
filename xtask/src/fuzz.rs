//! `cargo xtask fuzz`: every fuzz target for a while, then a table of what
//! each did.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::run::{Step, root};

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
pub(crate) fn fuzz(extra: &[String]) -> Result<(), String> {
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
    if !Step::cargo(&["fuzz", "--version"]).succeeds() {
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
                 `cargo test {replay}` replays it)",
                target = r.target,
                replay = if matches!(r.target, "scene_parser" | "headless_args") {
                    "-p geom-tui --lib fuzz::"
                } else {
                    "-p geom-test --test integration fuzz_corpus::"
                },
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
