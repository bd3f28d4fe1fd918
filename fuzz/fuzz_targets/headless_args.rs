//! Fuzz target `headless_args`: the checks are `geom_tui::fuzz::headless_args`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| geom_tui::fuzz::headless_args(data));
