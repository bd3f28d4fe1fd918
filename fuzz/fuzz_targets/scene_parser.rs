//! Fuzz target `scene_parser`: the checks are `geom_tui::fuzz::scene_parser`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| geom_tui::fuzz::scene_parser(data));
