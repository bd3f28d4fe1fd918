//! Replays the sandbox's fuzz targets' committed inputs as ordinary tests,
//! through the very functions the fuzz targets call (see
//! [`geom_test::fuzz::replay`]): the corpus and regressions of
//! `scene_parser` and `headless_args`, the built-in and example scenes, and
//! seeded pseudo-random command lines.

use std::path::Path;

use geom_test::fuzz::replay::{files_in, fuzz_dir, replay, replay_file, seeded_inputs};

/// How to run these tests again, for the message naming a failing input.
const TEST: &str = "-p geom-tui --test fuzz_corpus";

#[test]
fn scene_parser_corpus_and_regressions_keep_every_guarantee() {
    let files = replay("scene_parser", geom_tui::fuzz::scene_parser, TEST);
    assert!(files > 0, "the scene_parser corpus is missing from {}", fuzz_dir().display());
}

#[test]
fn headless_args_corpus_and_regressions_keep_every_guarantee() {
    let files = replay("headless_args", geom_tui::fuzz::headless_args, TEST);
    assert!(files > 0, "the headless_args corpus is missing from {}", fuzz_dir().display());
}

#[test]
fn the_built_in_and_example_scenes_keep_every_scene_parser_guarantee() {
    let scenes = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let files = files_in(&scenes);
    assert!(!files.is_empty(), "no scenes in {}", scenes.display());
    for path in files {
        replay_file(&path, geom_tui::fuzz::scene_parser, TEST);
    }
}

#[test]
fn seeded_random_inputs_keep_every_command_line_guarantee() {
    for data in seeded_inputs(0x5eed_0004, 300) {
        geom_tui::fuzz::headless_args(&data);
    }
}
