//! The pinned determinism digests: every output bit of the golden world and
//! of 100 000 answers of every query, in every scalar type, must match
//! `golden/digests.txt`, on every platform.
//!
//! `cargo xtask golden --bless` points `GEOM_GOLDEN_BLESS` at a token file
//! it writes for that run, and then this test rewrites the file
//! (atomically) instead of comparing; nothing else does, a
//! `GEOM_GOLDEN_BLESS=1` left in the environment included. When a query's digest moves, the message names the first case of
//! its stream whose answer changed, from the pinned test vectors.

use std::path::PathBuf;

use geom_test::golden::{self, vectors};

#[test]
fn every_digest_matches_the_pinned_file() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let first_mismatches = vectors::first_mismatches(&dir.join(vectors::FILE)).unwrap_or_default();
    let explain = |name: &str| {
        if !name.starts_with("query.") {
            return None;
        }
        Some(match first_mismatches.get(name) {
            Some(m) => format!("first differing case: {m}"),
            None => format!(
                "its first {} cases (pinned in {}) still match: the first differing case comes later; \
                 `cargo xtask golden --explain` finds it",
                vectors::CASES,
                vectors::FILE
            ),
        })
    };
    if let Err(e) = golden::check(&dir.join(golden::FILE), &golden::digests(), explain) {
        panic!("{e}");
    }
}
