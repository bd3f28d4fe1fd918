//! The pinned determinism digests: every output bit of the golden scenes
//! must match `golden/digests.txt`, on every platform.
//!
//! `cargo xtask golden --bless` sets `GEOM_GOLDEN_BLESS=1`, and then this
//! test rewrites the file (atomically) instead of comparing; nothing else
//! does.

use std::path::PathBuf;

use geom_test::golden;

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(golden::FILE)
}

#[test]
fn every_digest_matches_the_pinned_file() {
    let actual = golden::digests();
    if std::env::var_os("GEOM_GOLDEN_BLESS").is_some_and(|v| v == "1") {
        let path = path();
        let temp = path.with_extension("txt.tmp");
        std::fs::write(&temp, golden::render(&actual)).expect("write the new digests");
        std::fs::rename(&temp, &path).expect("move the new digests into place");
        eprintln!("blessed {} digests into {}", actual.len(), path.display());
        return;
    }
    let text = std::fs::read_to_string(path())
        .unwrap_or_else(|e| panic!("cannot read {}: {e}; run `cargo xtask golden --bless` once", golden::FILE));
    let pinned = golden::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", golden::FILE));
    let mut differences = Vec::new();
    for (name, digest) in &actual {
        match pinned.get(name) {
            Some(p) if p == digest => {}
            Some(p) => differences.push(format!("{name}: pinned 0x{p:016x}, now 0x{digest:016x}")),
            None => differences.push(format!("{name}: not pinned (now 0x{digest:016x})")),
        }
    }
    for name in pinned.keys().filter(|n| !actual.contains_key(*n)) {
        differences.push(format!("{name}: pinned but no longer computed"));
    }
    assert!(
        differences.is_empty(),
        "results changed bits:\n  {}\nIf the change is deliberate, run `cargo xtask golden --bless` and say why in the commit.",
        differences.join("\n  ")
    );
}
