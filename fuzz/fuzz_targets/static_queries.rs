//! Fuzz target `static_queries`: the checks are `geom_test::fuzz::static_queries`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| geom_test::fuzz::static_queries(data));
