//! `cargo xtask ci`: everything CI checks, in order, each command printed
//! before it runs.

use std::path::{Path, PathBuf};

use crate::deny::deny;
use crate::run::{Step, root};

/// Runs every check CI runs.
pub(crate) fn ci() -> Result<(), String> {
    Step::cargo(&["fmt", "--all", "--check"]).run()?;
    Step::cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]).run()?;
    // The chores' programs, which need a feature.
    Step::cargo(&["clippy", "-p", "geom-test", "--bins", "--features", "tools", "--", "-D", "warnings"]).run()?;
    // The README's test command, with every heavy suite at its full size.
    Step::cargo(&["test", "--workspace"]).env("GEOM_TEST_FULL", "1").run()?;
    // geom-tui's fuzz checks as `fuzz/` builds them (the `fuzzing` feature;
    // the unit tests above compile them without it), with their doctests.
    Step::cargo(&["test", "-p", "geom-tui", "--features", "fuzzing", "--doc", "fuzz"]).run()?;
    Step::cargo(&["doc", "--workspace", "--no-deps"]).env("RUSTDOCFLAGS", "-D warnings").run()?;
    // The private items' docs too: a broken link there warns only here.
    Step::cargo(&["doc", "--workspace", "--no-deps", "--document-private-items"])
        .env("RUSTDOCFLAGS", "-D warnings")
        .run()?;
    // geom-core alone, with its default features: in the workspace another
    // crate turns `serde` on, and a link to what it gates would resolve.
    Step::cargo(&["doc", "-p", "geom-core", "--no-deps"]).env("RUSTDOCFLAGS", "-D warnings").run()?;
    no_std()?;
    package()?;
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

/// The workspace members that may be published: those whose manifest does
/// not say `publish = false` (in `cargo metadata`, `"publish": []`), in the
/// workspace's order.
fn publishable(metadata: &str) -> Result<Vec<String>, String> {
    let metadata: serde_json::Value =
        serde_json::from_str(metadata).map_err(|e| format!("cannot read `cargo metadata`: {e}"))?;
    let packages = metadata["packages"].as_array().ok_or("`cargo metadata` lists no packages")?;
    Ok(packages
        .iter()
        .filter(|p| p["publish"].as_array().is_none_or(|registries| !registries.is_empty()))
        .filter_map(|p| p["name"].as_str().map(str::to_owned))
        .collect())
}

/// Packages every publishable member and runs `cargo publish --dry-run` on
/// them together: the file lists, then the packaged sources built on their
/// own, against the crates.io index.
///
/// The members go in one command each (cargo's multi-package publish), so
/// that a member depending on another, unpublished one (geom-tui on
/// geom-core) is checked against the other's package rather than against
/// crates.io. `--allow-dirty`: like every other step, this checks the
/// working tree as it is.
fn package() -> Result<(), String> {
    let metadata = Step::cargo(&["metadata", "--format-version", "1", "--no-deps"]).quiet_output()?;
    let members = publishable(&metadata)?;
    if members.is_empty() {
        println!("\npackage: no workspace member is publishable");
        return Ok(());
    }
    forget_stale_extractions(&members)?;
    // The packages are verified in a target directory of their own, from
    // which the members' last builds are removed first: cargo takes a
    // registry's crate for unchanging, so it would reuse the geom-core
    // built from an earlier package.
    let target = root().join("target/package-verify");
    forget_stale_builds(&target, &members)?;
    let selected: Vec<&str> = members.iter().flat_map(|m| ["-p", m.as_str()]).collect();
    for command in [
        &["package", "--list", "--allow-dirty"][..],
        &["package", "--allow-dirty"],
        &["publish", "--dry-run", "--allow-dirty"],
    ] {
        let mut args = command.to_vec();
        args.extend(&selected);
        Step::cargo(&args).env("CARGO_TARGET_DIR", &target.to_string_lossy()).run()?;
    }
    Ok(())
}

/// Removes what the verification builds in `target` made of the members
/// (their fingerprints, libraries and build scripts' output).
fn forget_stale_builds(target: &Path, members: &[String]) -> Result<(), String> {
    for dir in [".fingerprint", "deps", "build"] {
        let dir = target.join("debug").join(dir);
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let of_member = members.iter().any(|m| {
                let crate_name = m.replace('-', "_");
                [format!("{m}-"), format!("{crate_name}-"), format!("lib{crate_name}-")]
                    .iter()
                    .any(|p| name.starts_with(p))
            });
            if of_member {
                let path = entry.path();
                let removed = if path.is_dir() { std::fs::remove_dir_all(&path) } else { std::fs::remove_file(&path) };
                removed.map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
            }
        }
    }
    Ok(())
}

/// Removes the members' sources that an earlier `cargo package` unpacked
/// from its temporary local registry into `$CARGO_HOME/registry/src`.
/// Cargo unpacks a crate there once and reuses the directory while its
/// `.cargo-ok` file is there, even when the package has changed since: a
/// later run then verified geom-tui against an old geom-core and failed on
/// an API the workspace has. crates.io's own directories are left alone.
fn forget_stale_extractions(members: &[String]) -> Result<(), String> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    let Some(home) = home else { return Ok(()) };
    for stale in stale_extractions(&home.join("registry/src"), members) {
        std::fs::remove_dir_all(&stale).map_err(|e| format!("cannot remove {}: {e}", stale.display()))?;
        println!("package: removed {}, unpacked by an earlier package run", stale.display());
    }
    Ok(())
}

/// The directories under `registry_src` holding a member's unpacked
/// package, in local registries only (whose directories' names start with
/// `-`, crates.io's with `index.`).
fn stale_extractions(registry_src: &Path, members: &[String]) -> Vec<PathBuf> {
    let entries = |dir: &Path| -> Vec<PathBuf> {
        let mut paths: Vec<PathBuf> =
            std::fs::read_dir(dir).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
        paths.sort();
        paths
    };
    let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    entries(registry_src)
        .into_iter()
        .filter(|registry| name(registry).starts_with('-'))
        .flat_map(|registry| entries(&registry))
        .filter(|unpacked| {
            let unpacked = name(unpacked);
            members.iter().any(|m| {
                unpacked
                    .strip_prefix(m.as_str())
                    .and_then(|rest| rest.strip_prefix('-'))
                    .is_some_and(|version| version.starts_with(|c: char| c.is_ascii_digit()))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{publishable, stale_extractions};

    #[test]
    fn only_the_members_unpacked_from_local_registries_are_stale() {
        let dir = std::env::temp_dir().join(format!("xtask-stale-{}", std::process::id()));
        for path in [
            "index.crates.io-1949cf8c6b5b557f/geom-core-0.1.0",
            "index.crates.io-1949cf8c6b5b557f/serde-1.0.0",
            "-14cd1cce6819ff87/geom-core-0.1.0",
            "-14cd1cce6819ff87/geom-core-extra-0.1.0",
            "-22c3805da5a543b4/geom-tui-0.2.0",
        ] {
            std::fs::create_dir_all(dir.join(path)).unwrap();
        }
        let members = ["geom-core".to_owned(), "geom-tui".to_owned()];
        let stale = stale_extractions(&dir, &members);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            stale,
            [dir.join("-14cd1cce6819ff87/geom-core-0.1.0"), dir.join("-22c3805da5a543b4/geom-tui-0.2.0")]
        );
    }

    #[test]
    fn only_members_without_publish_false_are_packaged() {
        let metadata = r#"{"packages": [
            {"name": "geom-core", "publish": null},
            {"name": "geom-test", "publish": []},
            {"name": "geom-tui", "publish": ["crates-io"]},
            {"name": "xtask", "publish": []}
        ]}"#;
        assert_eq!(publishable(metadata), Ok(vec!["geom-core".to_owned(), "geom-tui".to_owned()]));
        assert!(publishable("not json").is_err());
    }
}
