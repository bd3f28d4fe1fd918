//! `cargo xtask cross`: the determinism checks (geom-test's golden digests
//! and test vectors, geom-tui's golden world checksums) built for other
//! architectures and run under `qemu-user`, or for WebAssembly under
//! Node.js's WASI, to show that every pinned bit comes out the same there
//! as on x86-64. Each target's outcome is written into its row of the
//! table in `docs/DETERMINISM.md`.
//!
//! The machine's own Rust toolchain cannot fetch other targets' standard
//! libraries, so the checks use Debian's second toolchain (`rustc-web`,
//! with its library source in `rust-web-src`) and build the standard
//! library from source with `-Zbuild-std`. That flag is unstable: the
//! commands that pass it, and only those, set `RUSTC_BOOTSTRAP=1`, which
//! lets a stable compiler accept it. Everything missing is installed by
//! `scripts/install-cross.sh`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::pages;
use crate::run::{Step, root};

/// How a target's executables run on this x86-64 host.
#[derive(Clone, Copy)]
enum Runner {
    /// Under `qemu-user`, with the directory of the target's C library.
    Qemu { qemu: &'static str, sysroot: &'static str },
    /// Under Node.js's WASI, through [`WASI_RUN`].
    Node,
}

/// A foreign target the checks know how to build and run.
struct Target {
    triple: &'static str,
    /// The Debian packages of its linker, C library and runner.
    packages: &'static [&'static str],
    linker: &'static str,
    /// A file of the target's C library: there when it is installed.
    library: &'static str,
    runner: Runner,
    /// Floats on x87 (no SSE2): there the golden tests check only the
    /// fixed-point digests and vectors, and list the rest.
    x87: bool,
    /// Whether the sandbox builds there, for its scene checksums: on
    /// WebAssembly it does not (its terminal library, crossterm, has no
    /// WASI backend).
    sandbox: bool,
}

const TARGETS: [Target; 5] = [
    Target {
        triple: "aarch64-unknown-linux-gnu",
        packages: &["gcc-aarch64-linux-gnu", "libc6-dev-arm64-cross"],
        linker: "aarch64-linux-gnu-gcc",
        library: "/usr/aarch64-linux-gnu/lib/libc.so.6",
        runner: Runner::Qemu { qemu: "qemu-aarch64", sysroot: "/usr/aarch64-linux-gnu" },
        x87: false,
        sandbox: true,
    },
    Target {
        triple: "s390x-unknown-linux-gnu",
        packages: &["gcc-s390x-linux-gnu", "libc6-dev-s390x-cross"],
        linker: "s390x-linux-gnu-gcc",
        library: "/usr/s390x-linux-gnu/lib/libc.so.6",
        runner: Runner::Qemu { qemu: "qemu-s390x", sysroot: "/usr/s390x-linux-gnu" },
        x87: false,
        sandbox: true,
    },
    Target {
        triple: "i686-unknown-linux-gnu",
        packages: &["gcc-i686-linux-gnu", "libc6-dev-i386-cross"],
        linker: "i686-linux-gnu-gcc",
        library: "/usr/i686-linux-gnu/lib/libc.so.6",
        runner: Runner::Qemu { qemu: "qemu-i386", sysroot: "/usr/i686-linux-gnu" },
        x87: false,
        sandbox: true,
    },
    // x87 floating point, no SSE2: floats are not bit-identical there (see
    // the README); the fixed-point digests must still match.
    Target {
        triple: "i586-unknown-linux-gnu",
        packages: &["gcc-i686-linux-gnu", "libc6-dev-i386-cross"],
        linker: "i686-linux-gnu-gcc",
        library: "/usr/i686-linux-gnu/lib/libc.so.6",
        runner: Runner::Qemu { qemu: "qemu-i386", sysroot: "/usr/i686-linux-gnu" },
        x87: true,
        sandbox: true,
    },
    // WebAssembly with WASI, as a browser game's build runs the same code:
    // linked by LLVM's wasm-ld against Debian's wasi-libc, run by Node.js.
    Target {
        triple: "wasm32-wasip1",
        packages: &["wasi-libc", "lld-16", "nodejs"],
        linker: "wasm-ld-16",
        library: "/usr/lib/wasm32-wasi/libc.a",
        runner: Runner::Node,
        x87: false,
        sandbox: false,
    },
];

/// What runs when no target is named.
const DEFAULT: [&str; 4] =
    ["aarch64-unknown-linux-gnu", "s390x-unknown-linux-gnu", "i686-unknown-linux-gnu", "wasm32-wasip1"];

/// Runs a wasm32-wasip1 executable under Node.js (see the script).
const WASI_RUN: &str = "scripts/wasi-run.mjs";

/// The pthread functions wasm-ld leaves as imports for [`WASI_RUN`].
const WASI_THREADS: &str = "scripts/wasi-threads.undefined";

/// Debian's toolchain and its standard library's source.
const CARGO: &str = "/usr/bin/cargo";
const RUSTC: &str = "/usr/bin/rustc";
const RUSTDOC: &str = "/usr/bin/rustdoc";
const LIBRARY: &str = "/usr/lib/rustlib/src/rust/library/Cargo.lock";

/// The emulator bug check (see `scripts/qemu-mdebr.c`).
const MDEBR: &str = "scripts/qemu-mdebr.c";

/// One target's outcome.
struct Outcome {
    target: &'static Target,
    build_s: f64,
    run_s: f64,
    passed: bool,
}

/// The page whose table of targets the checks write, and its markers'
/// names (`<!-- xtask cross: targets -->`).
const PAGE: &str = "docs/DETERMINISM.md";
const TOOL: &str = "xtask cross";
const TABLE: &str = "targets";

pub(crate) fn cross(extra: &[String]) -> Result<(), String> {
    let names: Vec<&str> = if extra.is_empty() { DEFAULT.to_vec() } else { extra.iter().map(String::as_str).collect() };
    let mut targets = Vec::new();
    for name in names {
        let target = TARGETS.iter().find(|t| t.triple == name).ok_or_else(|| {
            let known: Vec<&str> = TARGETS.iter().map(|t| t.triple).collect();
            format!("unknown target `{name}`; `cargo xtask cross` knows {}", known.join(", "))
        })?;
        targets.push(target);
    }
    install(&targets)?;
    let mut outcomes = Vec::new();
    for target in targets {
        outcomes.push(check(target)?);
    }
    let stamp = format!("{}, {}", pages::today(), pages::commit());
    let rows: Vec<(&str, String)> =
        outcomes.iter().map(|o| (o.target.triple, row(o, &runner_version(o.target), &stamp))).collect();
    let path = root().join(PAGE);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {PAGE}: {e}"))?;
    let table = merge(pages::between(&text, TOOL, TABLE)?, &rows);
    println!("\n{table}");
    pages::write_atomically(&path, &pages::splice(&text, TOOL, TABLE, &table)?)?;
    println!("\n{PAGE}: wrote the rows of {}", outcomes.iter().map(|o| o.target.triple).collect::<Vec<_>>().join(", "));
    let failed: Vec<&str> = outcomes.iter().filter(|o| !o.passed).map(|o| o.target.triple).collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("the determinism checks failed on {} (the output above says what moved)", failed.join(", ")))
    }
}

/// What ran a target's executables, with its version: `qemu-user 10.0.2`,
/// `Node.js v20.20.2`.
fn runner_version(target: &Target) -> String {
    let first_line = |program: &str| {
        Step::new(program, &["--version"]).quiet_output().ok().and_then(|o| o.lines().next().map(str::to_owned))
    };
    match target.runner {
        Runner::Qemu { qemu, .. } => {
            // "qemu-aarch64 version 10.0.2 (Debian 1:10.0.2+ds-2…)"
            let version = first_line(qemu).and_then(|l| l.split_whitespace().nth(2).map(str::to_owned));
            format!("qemu-user {}", version.as_deref().unwrap_or("(unknown version)"))
        }
        Runner::Node => {
            format!("Node.js {} (`node:wasi`)", first_line("node").as_deref().unwrap_or("(unknown version)"))
        }
    }
}

/// A target's row of the page's table: the target, what ran it, what was
/// compared, and the outcome with `stamp` (the date and commit) and the
/// build and run times.
fn row(o: &Outcome, runner: &str, stamp: &str) -> String {
    let t = o.target;
    let compared = match (t.x87, t.sandbox) {
        (true, _) => {
            "in the three fixed-point types, everything: every query digest, world checksum and test vector, \
             and the sandbox's checksums; the floats' are listed, not compared (x87 rounds twice)"
        }
        (false, true) => {
            "everything: every query digest, world checksum and test vector, and the sandbox's default-scene \
             checksums, in all five types"
        }
        (false, false) => {
            "every query digest, world checksum and test vector, in all five types; not the sandbox's checksums \
             (its terminal library has no WASI backend)"
        }
    };
    let result = if o.passed { "all match" } else { "**FAILED**" };
    format!(
        "| `{}` | {runner} | {compared} | {result} ({stamp}; built in {:.0} s, ran in {:.0} s) |",
        t.triple, o.build_s, o.run_s
    )
}

/// The page's table with `rows` (by target) put in: a target's new row
/// replaces its old one, the other rows stay, and the rows are in the
/// order of [`TARGETS`] after the x86-64 reference row.
fn merge(table: &str, rows: &[(&str, String)]) -> String {
    let key = |line: &str| line.strip_prefix("| `").and_then(|l| l.split_once('`')).map(|(k, _)| k.to_owned());
    let mut kept: Vec<(String, String)> = table
        .lines()
        .filter_map(|line| key(line).map(|k| (k, line.to_owned())))
        .filter(|(k, _)| !rows.iter().any(|(t, _)| t == k))
        .collect();
    kept.extend(rows.iter().map(|(t, r)| ((*t).to_owned(), r.clone())));
    let rank = |k: &str| {
        if k.starts_with("x86_64") {
            0
        } else {
            TARGETS.iter().position(|t| t.triple == k).map_or(usize::MAX, |i| i + 1)
        }
    };
    kept.sort_by_key(|(k, _)| rank(k));
    let mut header = vec![
        "| target | runs under | compared with the values pinned on x86-64 | result |".to_owned(),
        "|---|---|---|---|".to_owned(),
    ];
    header.extend(kept.into_iter().map(|(_, r)| r));
    header.join("\n")
}

/// What is missing for `targets`, in words; empty when nothing is.
fn missing(targets: &[&Target]) -> Vec<String> {
    let mut missing = Vec::new();
    for (path, what) in [(CARGO, "Debian's cargo"), (RUSTC, "Debian's rustc"), (LIBRARY, "the Rust library source")] {
        if !Path::new(path).exists() {
            missing.push(format!("{what} ({path})"));
        }
    }
    for t in targets {
        let runner = match t.runner {
            Runner::Qemu { qemu, .. } => qemu,
            Runner::Node => "node",
        };
        for program in [t.linker, runner] {
            if !runs(program, &["--version"]) {
                missing.push(format!("`{program}` (for {})", t.triple));
            }
        }
        if !Path::new(t.library).is_file() {
            missing.push(format!("the C library for {} ({})", t.triple, t.library));
        }
    }
    if targets.iter().any(|t| t.triple.starts_with("s390x")) && missing.is_empty() && !qemu_multiplies_right() {
        missing.push(
            "a qemu-s390x without the MDEBR bug (QEMU 7.2 reads the first operand of a float-to-double \
             multiply as a double; fixed in 8.0): see scripts/qemu-mdebr.c"
                .to_owned(),
        );
    }
    missing
}

/// Installs what is missing with `scripts/install-cross.sh`, or says what
/// is missing and how to install it.
fn install(targets: &[&Target]) -> Result<(), String> {
    let before = missing(targets);
    if before.is_empty() {
        return Ok(());
    }
    println!("\ncross: missing {}; installing with scripts/install-cross.sh", before.join(", "));
    let mut packages: Vec<&str> = targets.iter().flat_map(|t| t.packages.iter().copied()).collect();
    packages.sort_unstable();
    packages.dedup();
    let mut args = vec!["scripts/install-cross.sh"];
    args.extend(packages);
    let installed = Step::new("bash", &args).run();
    let after = missing(targets);
    if after.is_empty() {
        return Ok(());
    }
    let failure = installed.err().map(|e| format!("; it failed: {e}")).unwrap_or_default();
    Err(format!(
        "cannot run the foreign-architecture checks: missing {}.\nscripts/install-cross.sh installs them from \
         Debian's packages (as root or with sudo){failure}",
        after.join(", ")
    ))
}

/// Where the foreign builds go: apart from the main toolchain's, since
/// another compiler builds them.
fn cross_dir() -> PathBuf {
    root().join("target/cross")
}

/// Whether `program args…` starts and succeeds.
fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program).args(args).output().is_ok_and(|o| o.status.success())
}

/// Compiles the MDEBR reproduction for s390x and runs it under
/// `qemu-s390x`: whether the emulator multiplies two floats into a double
/// as the hardware does.
fn qemu_multiplies_right() -> bool {
    let binary = cross_dir().join("qemu-mdebr");
    let _ = std::fs::create_dir_all(cross_dir());
    let source = root().join(MDEBR);
    let compiled = Command::new("s390x-linux-gnu-gcc")
        .args(["-O2", "-static", "-o"])
        .arg(&binary)
        .arg(&source)
        .output()
        .is_ok_and(|o| o.status.success());
    compiled && Command::new("qemu-s390x").arg(&binary).output().is_ok_and(|o| o.status.success())
}

/// How many ticks the sandbox's pinned checksums are taken after: the
/// `TICKS` of geom-tui's `tests/golden.rs`, which checks the same digests
/// natively through the same headless runner.
const SCENE_TICKS: &str = "1000";

/// The sandbox's pinned checksums of the default scene, by scalar type.
const SCENE_DIGESTS: &str = "crates/geom-tui/golden/digests.txt";

/// What a target's build makes: geom-test's `golden` and `vectors` tests
/// (with the directory each runs in) and geom-tui's binary, where the
/// sandbox builds.
#[derive(Debug)]
struct Built {
    tests: Vec<(PathBuf, PathBuf)>,
    headless: Option<PathBuf>,
}

/// The rustc flags a wasm32-wasip1 build links with: Debian's wasi-libc
/// (its start file too) instead of the one Rust's own distribution bundles,
/// which `-Zbuild-std` does not build, with the pthread functions it lacks
/// left as imports for [`WASI_RUN`].
fn wasi_rustflags() -> String {
    let threads = root().join(WASI_THREADS);
    format!(
        "-C link-self-contained=no -L /usr/lib/wasm32-wasi -C link-arg=/usr/lib/wasm32-wasi/crt1-command.o \
         -C link-arg=--allow-undefined-file={}",
        threads.display()
    )
}

/// Builds and runs the checks for one target, timing both.
///
/// One build makes geom-test's golden and vectors tests and geom-tui's
/// binary, whose headless runner gives the sandbox's checksums: building
/// geom-tui's own golden test instead would build its dev-dependencies
/// (criterion, a pseudo-terminal) for every target. The executables then
/// run under the emulator directly, as `cargo test` would run them.
fn check(target: &'static Target) -> Result<Outcome, String> {
    let upper = target.triple.to_uppercase().replace('-', "_");
    let mut args = vec![
        "build",
        "-Zbuild-std=std,panic_abort",
        "--target",
        target.triple,
        // The test profile optimised (`[profile.cross]`), for the binary
        // too: overflow checks and debug assertions on, as in `cargo test`,
        // and fast under the emulator.
        "--profile",
        "cross",
        "-p",
        "geom-test",
        "--test",
        "golden",
        "--test",
        "vectors",
        "--message-format=json-render-diagnostics",
    ];
    if target.sandbox {
        args.extend(["-p", "geom-tui", "--bin", "geom-tui"]);
    }
    let mut build = Step::new(CARGO, &args)
        .env("RUSTC", RUSTC)
        .env("RUSTDOC", RUSTDOC)
        // -Zbuild-std is unstable; this lets Debian's stable toolchain
        // accept it, for this command only.
        .env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_TARGET_DIR", &cross_dir().to_string_lossy())
        // No debug info: these builds only say which bits moved, and
        // linking is most of their time.
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env("CARGO_PROFILE_TEST_DEBUG", "false")
        .env(&format!("CARGO_TARGET_{upper}_LINKER"), target.linker);
    if matches!(target.runner, Runner::Node) {
        build = build.env(&format!("CARGO_TARGET_{upper}_RUSTFLAGS"), &wasi_rustflags());
    }
    let start = Instant::now();
    println!("\n$ {}", build.display());
    // Cargo's messages on standard output, its progress and errors shown.
    let output = build
        .command()
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("could not start `{}`: {e}", build.display()))?;
    if !output.status.success() {
        return Err(format!("`{}` failed ({})", build.display(), output.status));
    }
    let built = executables(&String::from_utf8_lossy(&output.stdout), target.sandbox)?;
    let build_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let workspace = root();
    let script = workspace.join(WASI_RUN);
    let emulate = |program: &Path, args: &[&str]| {
        let (runner, mut all) = match target.runner {
            Runner::Qemu { qemu, sysroot } => (qemu, vec!["-L", sysroot, path_str(program)]),
            // The tests read their pinned files by absolute path, under
            // the workspace: the one directory the program may open.
            Runner::Node => ("node", vec!["--no-warnings", path_str(&script), path_str(program), path_str(&workspace)]),
        };
        all.extend(args);
        Step::new(runner, &all)
    };
    let mut passed = true;
    for (test, dir) in &built.tests {
        // The tests list what they do not check (on x87) on standard error.
        passed &= emulate(test, &["--nocapture"]).in_dir(dir).run().is_ok();
    }
    if let Some(headless) = &built.headless {
        passed &= scene_digests_match(target, |kind| {
            emulate(headless, &["run", "default", "--ticks", SCENE_TICKS, "--scalar", kind]).output()
        })?;
    }
    let run_s = start.elapsed().as_secs_f64();
    Ok(Outcome { target, build_s, run_s, passed })
}

/// A path as a command-line argument (the workspace's paths are UTF-8).
fn path_str(path: &Path) -> &str {
    path.to_str().unwrap_or_default()
}

/// The executables of a build, from cargo's JSON messages: the test
/// binaries (each with its package's directory, where `cargo test` runs
/// it) and, when `sandbox`, geom-tui's binary.
fn executables(messages: &str, sandbox: bool) -> Result<Built, String> {
    let mut tests = Vec::new();
    let mut headless = None;
    for line in messages.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if message["reason"] != "compiler-artifact" {
            continue;
        }
        let Some(executable) = message["executable"].as_str() else {
            continue;
        };
        let kind = &message["target"]["kind"][0];
        if kind == "test" {
            let manifest = Path::new(message["manifest_path"].as_str().unwrap_or_default());
            let dir = manifest.parent().map_or_else(root, Path::to_path_buf);
            tests.push((PathBuf::from(executable), dir));
        } else if kind == "bin" && message["target"]["name"] == "geom-tui" {
            headless = Some(PathBuf::from(executable));
        }
    }
    if sandbox && headless.is_none() {
        return Err("the cross build made no geom-tui binary".to_owned());
    }
    if tests.len() != 2 {
        return Err(format!(
            "the cross build made {} test binaries where geom-test has 2 (golden, vectors)",
            tests.len()
        ));
    }
    Ok(Built { tests, headless })
}

/// Whether the default scene's checksum after [`SCENE_TICKS`] ticks, as
/// `headless(kind)` prints it on its last line, is the pinned one in every
/// type checked on `target` (fixed point only on x87, the rest listed).
fn scene_digests_match(target: &Target, headless: impl Fn(&str) -> Result<String, String>) -> Result<bool, String> {
    let path = root().join(SCENE_DIGESTS);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut passed = true;
    let mut checked = 0;
    for (name, pinned) in crate::golden::pinned(&text) {
        let Some(kind) = name.strip_prefix("scene.default.") else {
            continue;
        };
        if target.x87 && matches!(kind, "f32" | "f64") {
            eprintln!("not checked on x87: {name} (floats)");
            continue;
        }
        let output = headless(kind)?;
        let now = output.lines().last().and_then(|l| l.split_once(' ')).map(|(_, hex)| format!("0x{hex}"));
        checked += 1;
        if now.as_deref() == Some(pinned) {
            println!("{name}: matches {pinned}");
        } else {
            passed = false;
            println!("{name}: pinned {pinned}, now {}", now.as_deref().unwrap_or("(no checksum printed)"));
        }
    }
    if checked == 0 {
        return Err(format!("{} pins no default-scene checksum", path.display()));
    }
    Ok(passed)
}

#[cfg(test)]
mod tests {
    use super::{TARGETS, Target, executables, merge, scene_digests_match};

    fn target(triple: &str) -> &'static Target {
        TARGETS.iter().find(|t| t.triple == triple).expect("a known target")
    }

    #[test]
    fn a_builds_messages_give_the_two_tests_with_their_directories_and_the_binary() {
        let messages = [
            r#"{"reason":"compiler-artifact","target":{"kind":["lib"],"name":"geom_core"},"executable":null,"manifest_path":"/w/crates/geom-core/Cargo.toml"}"#,
            r#"{"reason":"compiler-artifact","target":{"kind":["test"],"name":"golden"},"executable":"/t/golden-1","manifest_path":"/w/crates/geom-test/Cargo.toml"}"#,
            "not json: a line cargo's own tools may print",
            r#"{"reason":"compiler-artifact","target":{"kind":["bin"],"name":"geom-tui"},"executable":"/t/geom-tui","manifest_path":"/w/crates/geom-tui/Cargo.toml"}"#,
            r#"{"reason":"compiler-artifact","target":{"kind":["test"],"name":"vectors"},"executable":"/t/vectors-2","manifest_path":"/w/crates/geom-test/Cargo.toml"}"#,
            r#"{"reason":"build-finished","success":true}"#,
        ]
        .join("\n");
        let built = executables(&messages, true).expect("both tests and the binary");
        let tests: Vec<(&str, &str)> =
            built.tests.iter().map(|(t, d)| (t.to_str().unwrap(), d.to_str().unwrap())).collect();
        assert_eq!(tests, [("/t/golden-1", "/w/crates/geom-test"), ("/t/vectors-2", "/w/crates/geom-test")]);
        assert_eq!(built.headless.as_deref().and_then(std::path::Path::to_str), Some("/t/geom-tui"));
    }

    #[test]
    fn a_build_without_the_binary_or_a_test_is_an_error() {
        let test = r#"{"reason":"compiler-artifact","target":{"kind":["test"],"name":"golden"},"executable":"/t/g","manifest_path":"/w/Cargo.toml"}"#;
        assert!(executables(test, true).unwrap_err().contains("no geom-tui binary"));
        let bin = r#"{"reason":"compiler-artifact","target":{"kind":["bin"],"name":"geom-tui"},"executable":"/t/b","manifest_path":"/w/Cargo.toml"}"#;
        assert!(executables(&format!("{test}\n{bin}"), true).unwrap_err().contains("made 1 test binaries"));
    }

    #[test]
    fn a_target_without_the_sandbox_needs_only_the_two_tests() {
        let test = |name: &str| {
            format!(
                r#"{{"reason":"compiler-artifact","target":{{"kind":["test"],"name":"{name}"}},"executable":"/t/{name}.wasm","manifest_path":"/w/crates/geom-test/Cargo.toml"}}"#
            )
        };
        let built = executables(&format!("{}\n{}", test("golden"), test("vectors")), false).expect("the two tests");
        assert_eq!(built.tests.len(), 2);
        assert!(built.headless.is_none());
    }

    #[test]
    fn a_run_replaces_the_rows_of_its_targets_keeps_the_others_and_orders_them_as_the_targets() {
        let table = "| target | runs under | compared with the values pinned on x86-64 | result |\n|---|---|---|---|\n\
                     | `x86_64-unknown-linux-gnu` | natively | the reference | pinned |\n\
                     | `s390x-unknown-linux-gnu` | qemu-user 10.0.2 | everything | all match (old) |\n\
                     | `aarch64-unknown-linux-gnu` | qemu-user 10.0.2 | everything | all match (old) |";
        let merged = merge(
            table,
            &[
                ("wasm32-wasip1", "| `wasm32-wasip1` | new |".to_owned()),
                ("s390x-unknown-linux-gnu", "| `s390x-unknown-linux-gnu` | new |".to_owned()),
            ],
        );
        let lines: Vec<&str> = merged.lines().collect();
        assert_eq!(
            lines[2..],
            [
                "| `x86_64-unknown-linux-gnu` | natively | the reference | pinned |",
                "| `aarch64-unknown-linux-gnu` | qemu-user 10.0.2 | everything | all match (old) |",
                "| `s390x-unknown-linux-gnu` | new |",
                "| `wasm32-wasip1` | new |",
            ]
        );
        assert_eq!(lines[..2], table.lines().take(2).collect::<Vec<_>>());
        // Writing the same rows again changes nothing.
        assert_eq!(merge(&merged, &[("wasm32-wasip1", "| `wasm32-wasip1` | new |".to_owned())]), merged);
    }

    /// `scripts/install-cross.sh`'s `source_uri SUITE`, given `policy` as
    /// `apt-cache policy` output.
    fn source_uri(policy: &str, suite: &str) -> String {
        let script = super::root().join("scripts/install-cross.sh");
        let output = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!(". '{}'; printf '%s' \"$1\" | source_uri {suite}", script.display()))
            .arg("bash")
            .arg(policy)
            .output()
            .expect("bash runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).expect("text").trim().to_owned()
    }

    #[test]
    fn the_backports_source_is_taken_from_the_systems_own_bookworm_source() {
        let mirror = "Package files:\n 100 /var/lib/dpkg/status\n     release a=now\n \
                      500 http://apt-cache.lan:3142/debian-security bookworm-security/main amd64 Packages\n \
                      500 http://apt-cache.lan:3142/debian bookworm/main amd64 Packages\n     release o=Debian\n";
        assert_eq!(source_uri(mirror, "bookworm"), "http://apt-cache.lan:3142/debian");
        // No backports source yet: the script adds one.
        assert_eq!(source_uri(mirror, "bookworm-backports"), "");
        let with = format!("{mirror} 100 https://mirror.example/debian bookworm-backports/main amd64 Packages\n");
        assert_eq!(source_uri(&with, "bookworm-backports"), "https://mirror.example/debian");
    }

    /// The pinned file's checksums, as the headless runner prints them on
    /// its last line.
    fn pinned_run(kind: &str) -> Result<String, String> {
        let text = std::fs::read_to_string(super::root().join(super::SCENE_DIGESTS)).map_err(|e| e.to_string())?;
        let pinned = text
            .lines()
            .find_map(|l| l.strip_prefix(&format!("scene.default.{kind} = 0x")))
            .ok_or(format!("no {kind}"))?;
        Ok(format!("999 0000000000000000\n1000 {pinned}\n"))
    }

    #[test]
    fn the_scene_checksums_match_when_the_last_line_is_the_pinned_one_and_not_otherwise() {
        assert_eq!(scene_digests_match(target("aarch64-unknown-linux-gnu"), pinned_run), Ok(true));
        let off_in_f64 =
            |kind: &str| if kind == "f64" { Ok("1000 0123456789abcdef\n".to_owned()) } else { pinned_run(kind) };
        assert_eq!(scene_digests_match(target("s390x-unknown-linux-gnu"), off_in_f64), Ok(false));
        // On x87 the floats are listed, not compared.
        assert_eq!(scene_digests_match(target("i586-unknown-linux-gnu"), off_in_f64), Ok(true));
    }
}
