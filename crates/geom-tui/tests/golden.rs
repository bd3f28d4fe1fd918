//! The default scene's pinned checksums: `golden/digests.txt` holds the
//! world's checksum after `TICKS` ticks in every scalar type, and the
//! headless runner's output must end on it. Its target is `scene_golden`;
//! `cargo xtask cross` checks the same digests on other architectures by
//! running the headless binary (its `SCENE_TICKS` is `TICKS` here).
//!
//! Rewritten only by `cargo xtask golden --bless`, in a commit that says why.

use std::collections::BTreeMap;
use std::path::PathBuf;

use geom_tui::ScalarKind;
use geom_tui::headless::{Options, run};
use geom_tui::scene::{DEFAULT_SCENE, Scene};

/// How many ticks the pinned checksums are taken after: long enough for
/// every part of the scene to have collided many times over.
const TICKS: u64 = 1000;

fn checksum_after(kind: ScalarKind, ticks: u64) -> u64 {
    let scene = Scene::parse(DEFAULT_SCENE).expect("the default scene parses");
    let mut out = Vec::new();
    run(&scene, &Options { ticks, kind, json: false, events: false }, &mut out)
        .expect("the default scene fits every type");
    let text = String::from_utf8(out).expect("the output is text");
    let last = text.lines().last().expect("one line per tick");
    u64::from_str_radix(last.split_once(' ').expect("`tick checksum`").1, 16).expect("hex")
}

#[test]
fn the_default_scenes_checksums_match_the_pinned_digests() {
    let digests: BTreeMap<String, u64> =
        ScalarKind::ALL.into_iter().map(|k| (format!("scene.default.{k}"), checksum_after(k, TICKS))).collect();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden/digests.txt");
    if let Err(e) = geom_test::golden::check(&path, &digests, |_| None) {
        panic!("{e}");
    }
}
