//! `cargo xtask ci`: everything CI checks, in order, each command printed
//! before it runs.

use crate::deny::deny;
use crate::run::Step;

/// Runs every check CI runs.
pub(crate) fn ci() -> Result<(), String> {
    Step::cargo(&["fmt", "--all", "--check"]).run()?;
    Step::cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]).run()?;
    Step::cargo(&["test", "--workspace"]).run()?;
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
    let selected: Vec<&str> = members.iter().flat_map(|m| ["-p", m.as_str()]).collect();
    for command in [
        &["package", "--list", "--allow-dirty"][..],
        &["package", "--allow-dirty"],
        &["publish", "--dry-run", "--allow-dirty"],
    ] {
        let mut args = command.to_vec();
        args.extend(&selected);
        Step::cargo(&args).run()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::publishable;

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
