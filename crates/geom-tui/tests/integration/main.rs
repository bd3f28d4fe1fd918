//! The sandbox's integration tests, one binary: the app driven by keys and
//! the mouse, its files, play mode, the headless runner, the two-player
//! rollback game over a simulated network, the binary in a pseudo-terminal, and every defect a new user met, a file each.
//! `tests/app_random_events.rs` stays a binary of its own: it changes the
//! working directory; and `tests/golden.rs` (the target `scene_golden`),
//! which `cargo xtask golden --bless` runs alone.

mod app_editing;
mod app_files;
mod app_play;
mod app_timeline;
mod binary;
mod common;
mod headless;
mod inputs;
mod net;
mod new_user;
mod pty;
