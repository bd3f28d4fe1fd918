//! The pinned determinism digests: every output bit of the golden scenes
//! must match `golden/digests.txt`, on every platform.
//!
//! `cargo xtask golden --bless` sets `GEOM_GOLDEN_BLESS=1`, and then this
//! test rewrites the file (atomically) instead of comparing; nothing else
//! does.

use std::path::PathBuf;

use geom_test::golden;

#[test]
fn every_digest_matches_the_pinned_file() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(golden::FILE);
    if let Err(e) = golden::check(&path, &golden::digests()) {
        panic!("{e}");
    }
}
