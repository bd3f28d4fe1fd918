//! `cargo xtask golden`: the pinned determinism digests, checked, blessed
//! or explained.

use std::path::Path;
use std::process::Command;

use crate::run::{Step, root};
use crate::vectors::vectors;

/// Checks the pinned digests, or with `--bless` rewrites them and the test
/// vectors, or with `--explain` finds what moved.
pub(crate) fn golden(extra: &[String]) -> Result<(), String> {
    let step = Step::cargo(&[
        "test",
        "--release",
        "-p",
        "geom-test",
        "-p",
        "geom-tui",
        "--test",
        "golden",
        "--test",
        "scene_golden",
        "--",
        "--nocapture",
    ]);
    match extra {
        [] => step.run(),
        [flag] if flag == "--bless" => {
            // The tests bless only for a token file written for this run
            // (`geom_test::golden::blessing`): a variable left behind in a
            // shell never does.
            let token = root().join("target").join(format!("golden-bless-{}", std::process::id()));
            std::fs::create_dir_all(root().join("target")).map_err(|e| e.to_string())?;
            std::fs::write(&token, "written by cargo xtask golden --bless, for this run only\n")
                .map_err(|e| format!("cannot write {}: {e}", token.display()))?;
            let blessed = step.env("GEOM_GOLDEN_BLESS", &token.to_string_lossy()).run();
            let _ = std::fs::remove_file(&token);
            blessed?;
            vectors()
        }
        [flag] if flag == "--explain" => explain(),
        _ => Err(format!("usage: cargo xtask golden [--bless | --explain]\n\n{}", crate::USAGE)),
    }
}

/// The digests a pinned file lists: its `name = 0x…` lines.
pub(crate) fn pinned(text: &str) -> impl Iterator<Item = (&str, &str)> {
    text.lines().filter_map(|line| line.split_once(" = "))
}

/// The pinned query digests (`name = 0x…` lines).
fn query_digests(text: &str) -> Vec<(String, String)> {
    pinned(text)
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
    let now = Step::cargo(&[
        "run",
        "--release",
        "-q",
        "-p",
        "geom-test",
        "--features",
        "tools",
        "--bin",
        "golden",
        "--",
        "digests",
    ])
    .output()?;
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
    // Older trees build the program without the `tools` feature it needs now.
    let manifest = std::fs::read_to_string(tree.join("crates/geom-test/Cargo.toml")).unwrap_or_default();
    let features: &[&str] = if manifest.contains("tools = []") { &["--features", "tools"] } else { &[] };
    let built =
        Step::cargo(&[&["build", "--release", "-q", "-p", "geom-test"], features, &["--bin", "golden"]].concat())
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
