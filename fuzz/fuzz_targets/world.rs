//! Fuzz target `world`: the checks are `geom_test::fuzz::world`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| geom_test::fuzz::world(data));
