//! geom-test's suites, one binary: the oracle's property tests, the
//! accuracy figures and the fuzz corpus, a file each. One binary builds and
//! links the generic code once, not once per file. The golden digests and
//! the test vectors (`tests/golden.rs`, `tests/vectors.rs`) are binaries of
//! their own: they are what `cargo xtask cross` builds for other targets.
//! `proptest` keeps the failing cases it found for a module here in
//! `tests/proptest-regressions/<module>.txt`, and replays them first.

mod accuracy;
mod batch;
mod docs;
mod every_query_measured;
mod float_normals;
mod fuzz_corpus;
mod properties;
mod sweep_properties;
mod world_properties;
