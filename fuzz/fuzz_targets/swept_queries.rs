//! Fuzz target `swept_queries`: the checks are `geom_test::fuzz::swept_queries`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| geom_test::fuzz::swept_queries(data));
