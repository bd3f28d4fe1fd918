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
use std::process::Command;
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

/// Builds and runs the checks for one target, timing both.
fn check(target: &Target) -> Result<Outcome, String> {
    let upper = target.triple.to_uppercase().replace('-', "_");
    let runner = format!("{} -L {}", target.qemu, target.sysroot);
    let cargo = |no_run: bool| {
        let mut args = vec![
            "test",
            "-Zbuild-std=std,panic_abort",
            "--target",
            target.triple,
            "-p",
            "geom-test",
            "-p",
            "geom-tui",
            "--test",
            "golden",
            "--test",
            "vectors",
        ];
        // The tests list what they do not check (on x87) on standard error.
        args.extend(if no_run { &["--no-run"][..] } else { &["--no-fail-fast", "--", "--nocapture"][..] });
        Step::new(CARGO, &args)
            .env("RUSTC", RUSTC)
            .env("RUSTDOC", RUSTDOC)
            // -Zbuild-std is unstable; this lets Debian's stable toolchain
            // accept it, for these commands only.
            .env("RUSTC_BOOTSTRAP", "1")
            .env("CARGO_TARGET_DIR", &cross_dir().to_string_lossy())
            // No debug info: these builds only say which bits moved, and
            // linking is most of their time.
            .env("CARGO_PROFILE_DEV_DEBUG", "false")
            .env("CARGO_PROFILE_TEST_DEBUG", "false")
            .env(&format!("CARGO_TARGET_{upper}_LINKER"), target.linker)
            .env(&format!("CARGO_TARGET_{upper}_RUNNER"), &runner)
    };
    let start = Instant::now();
    cargo(true).run()?;
    let build_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let passed = cargo(false).run().is_ok();
    let run_s = start.elapsed().as_secs_f64();
    Ok(Outcome { triple: target.triple, x87: target.x87, build_s, run_s, passed })
}
