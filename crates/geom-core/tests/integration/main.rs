//! geom-core's integration tests, one binary: every file here tests one
//! part of the public API (its name says which). One binary builds and
//! links the world's generic code once, not once per file.
//! `tests/allocation.rs` stays a binary of its own: it installs a counting
//! global allocator.

mod character;
mod common;
mod contacts;
mod conversions;
mod one_way;
mod queries;
mod serde;
mod solver;
mod sweep;
mod world;
