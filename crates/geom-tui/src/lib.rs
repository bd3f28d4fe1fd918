//! geom's terminal sandbox: step, rewind, edit and inspect collisions tick
//! by tick, in every scalar type geom supports, and a headless runner that
//! prints a scene's checksums for scripts.
//!
//! The sandbox drives [`geom_core::world`] and adds no physics of its own:
//! [`App`] holds the state and the actions (`app`, `input`), [`ui`] draws
//! it, [`terminal`] runs it in a real terminal, and [`headless`] runs a
//! scene without one, applying [`inputs`] from a file if asked.

pub mod app;
pub mod cli;
pub mod fuzz;
pub mod headless;
mod input;
pub mod inputs;
mod inspect;
mod num;
pub mod scene;
#[cfg(test)]
mod scratch;
mod sim;
pub mod terminal;
pub mod ui;

pub use app::App;
pub use num::ScalarKind;
