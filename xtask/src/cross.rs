//! `cargo xtask cross`: the determinism checks (geom-test's golden digests
//! and test vectors, geom-tui's golden world checksums) built for other
//! architectures and run under `qemu-user`, to show that every pinned bit
//! comes out the same there as on x86-64.
//!
//! The machine's own Rust toolchain cannot fetch other targets' standard
//! libraries, so the checks use Debian's second toolchain (`rustc-web`,
//! with its library source in `rust-web-src`) and build the standard
//! library from source with `-Zbuild-std`. That flag is unstable: the
//! commands that pass it, and only those, set `RUSTC_BOOTSTRAP=1`, which
//! lets a stable compiler accept it. Everything missing is installed by
//! `scripts/install-cross.sh`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::run::{Step, root};

/// A foreign target the checks know how to build and run.
struct Target {
    triple: &'static str,
    /// The Debian packages of its cross linker and C library.
    packages: [&'static str; 2],
    linker: &'static str,
    /// The emulator, and the directory of the target's C library for it.
    qemu: &'static str,
    sysroot: &'static str,
    /// Floats on x87 (no SSE2): there the golden tests check only the
    /// fixed-point answers and world digests, and list the rest.
    x87: bool,
}

const TARGETS: [Target; 4] = [
    Target {
        triple: "aarch64-unknown-linux-gnu",
        packages: ["gcc-aarch64-linux-gnu", "libc6-dev-arm64-cross"],
        linker: "aarch64-linux-gnu-gcc",
        qemu: "qemu-aarch64",
        sysroot: "/usr/aarch64-linux-gnu",
        x87: false,
    },
    Target {
        triple: "s390x-unknown-linux-gnu",
        packages: ["gcc-s390x-linux-gnu", "libc6-dev-s390x-cross"],
        linker: "s390x-linux-gnu-gcc",
        qemu: "qemu-s390x",
        sysroot: "/usr/s390x-linux-gnu",
        x87: false,
    },
    Target {
        triple: "i686-unknown-linux-gnu",
        packages: ["gcc-i686-linux-gnu", "libc6-dev-i386-cross"],
        linker: "i686-linux-gnu-gcc",
        qemu: "qemu-i386",
        sysroot: "/usr/i686-linux-gnu",
        x87: false,
    },
    // x87 floating point, no SSE2: floats are not bit-identical there (see
    // the README); the fixed-point digests must still match.
    Target {
        triple: "i586-unknown-linux-gnu",
        packages: ["gcc-i686-linux-gnu", "libc6-dev-i386-cross"],
        linker: "i686-linux-gnu-gcc",
        qemu: "qemu-i386",
        sysroot: "/usr/i686-linux-gnu",
        x87: true,
    },
];

/// What runs when no target is named.
const DEFAULT: [&str; 3] = ["aarch64-unknown-linux-gnu", "s390x-unknown-linux-gnu", "i686-unknown-linux-gnu"];

/// Debian's toolchain and its standard library's source.
const CARGO: &str = "/usr/bin/cargo";
const RUSTC: &str = "/usr/bin/rustc";
const RUSTDOC: &str = "/usr/bin/rustdoc";
const LIBRARY: &str = "/usr/lib/rustlib/src/rust/library/Cargo.lock";

/// The emulator bug check (see `scripts/qemu-mdebr.c`).
const MDEBR: &str = "scripts/qemu-mdebr.c";

/// One target's outcome.
struct Outcome {
    triple: &'static str,
    x87: bool,
    build_s: f64,
    run_s: f64,
    passed: bool,
}

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
    let mut table = String::from("\n| target | build (s) | run (s) | result |\n|---|---:|---:|---|\n");
    for o in &outcomes {
        let result = match (o.passed, o.x87) {
            (false, _) => "FAILED",
            (true, false) => "every digest and vector matches",
            (true, true) => "x87: every fixed-point world digest and vector matches (the rest listed above)",
        };
        let _ = writeln!(table, "| {} | {:.0} | {:.0} | {result} |", o.triple, o.build_s, o.run_s);
    }
    println!("{table}");
    let failed: Vec<&str> = outcomes.iter().filter(|o| !o.passed).map(|o| o.triple).collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("the determinism checks failed on {} (the output above says what moved)", failed.join(", ")))
    }
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
        for program in [t.linker, t.qemu] {
            if !runs(program, &["--version"]) {
                missing.push(format!("`{program}` (for {})", t.triple));
            }
        }
        if !Path::new(t.sysroot).join("lib").is_dir() {
            missing.push(format!("the C library for {} ({}/lib)", t.triple, t.sysroot));
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
    let mut packages: Vec<&str> = targets.iter().flat_map(|t| t.packages).collect();
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
/// (with the directory each runs in) and geom-tui's binary.
#[derive(Debug)]
struct Built {
    tests: Vec<(PathBuf, PathBuf)>,
    headless: PathBuf,
}

/// Builds and runs the checks for one target, timing both.
///
/// One build makes geom-test's golden and vectors tests and geom-tui's
/// binary, whose headless runner gives the sandbox's checksums: building
/// geom-tui's own golden test instead would build its dev-dependencies
/// (criterion, a pseudo-terminal) for every target. The executables then
/// run under the emulator directly, as `cargo test` would run them.
fn check(target: &Target) -> Result<Outcome, String> {
    let upper = target.triple.to_uppercase().replace('-', "_");
    let build = Step::new(
        CARGO,
        &[
            "build",
            "-Zbuild-std=std,panic_abort",
            "--target",
            target.triple,
            // The test profile optimised (`[profile.cross]`), for the
            // binary too: overflow checks and debug assertions on, as in
            // `cargo test`, and fast under the emulator.
            "--profile",
            "cross",
            "-p",
            "geom-test",
            "-p",
            "geom-tui",
            "--test",
            "golden",
            "--test",
            "vectors",
            "--bin",
            "geom-tui",
            "--message-format=json-render-diagnostics",
        ],
    )
    .env("RUSTC", RUSTC)
    .env("RUSTDOC", RUSTDOC)
    // -Zbuild-std is unstable; this lets Debian's stable toolchain accept
    // it, for this command only.
    .env("RUSTC_BOOTSTRAP", "1")
    .env("CARGO_TARGET_DIR", &cross_dir().to_string_lossy())
    // No debug info: these builds only say which bits moved, and linking
    // is most of their time.
    .env("CARGO_PROFILE_DEV_DEBUG", "false")
    .env("CARGO_PROFILE_TEST_DEBUG", "false")
    .env(&format!("CARGO_TARGET_{upper}_LINKER"), target.linker);
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
    let built = executables(&String::from_utf8_lossy(&output.stdout))?;
    let build_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let emulate = |program: &Path, args: &[&str]| {
        let mut all = vec!["-L", target.sysroot, path_str(program)];
        all.extend(args);
        Step::new(target.qemu, &all)
    };
    let mut passed = true;
    for (test, dir) in &built.tests {
        // The tests list what they do not check (on x87) on standard error.
        passed &= emulate(test, &["--nocapture"]).in_dir(dir).run().is_ok();
    }
    passed &= scene_digests_match(target, |kind| {
        emulate(&built.headless, &["run", "default", "--ticks", SCENE_TICKS, "--scalar", kind]).output()
    })?;
    let run_s = start.elapsed().as_secs_f64();
    Ok(Outcome { triple: target.triple, x87: target.x87, build_s, run_s, passed })
}

/// A path as a command-line argument (the workspace's paths are UTF-8).
fn path_str(path: &Path) -> &str {
    path.to_str().unwrap_or_default()
}

/// The executables of a build, from cargo's JSON messages: the test
/// binaries (each with its package's directory, where `cargo test` runs
/// it) and geom-tui's binary.
fn executables(messages: &str) -> Result<Built, String> {
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
    let headless = headless.ok_or("the cross build made no geom-tui binary")?;
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
    use super::{TARGETS, Target, executables, scene_digests_match};

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
        let built = executables(&messages).expect("both tests and the binary");
        let tests: Vec<(&str, &str)> =
            built.tests.iter().map(|(t, d)| (t.to_str().unwrap(), d.to_str().unwrap())).collect();
        assert_eq!(tests, [("/t/golden-1", "/w/crates/geom-test"), ("/t/vectors-2", "/w/crates/geom-test")]);
        assert_eq!(built.headless.to_str(), Some("/t/geom-tui"));
    }

    #[test]
    fn a_build_without_the_binary_or_a_test_is_an_error() {
        let test = r#"{"reason":"compiler-artifact","target":{"kind":["test"],"name":"golden"},"executable":"/t/g","manifest_path":"/w/Cargo.toml"}"#;
        assert!(executables(test).unwrap_err().contains("no geom-tui binary"));
        let bin = r#"{"reason":"compiler-artifact","target":{"kind":["bin"],"name":"geom-tui"},"executable":"/t/b","manifest_path":"/w/Cargo.toml"}"#;
        assert!(executables(&format!("{test}\n{bin}")).unwrap_err().contains("made 1 test binaries"));
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
