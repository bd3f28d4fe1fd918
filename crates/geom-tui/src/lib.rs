//! geom's terminal sandbox: step, rewind, edit and inspect collisions tick
//! by tick, in every scalar type geom supports, and a headless runner that
//! prints a scene's checksums for scripts.
//!
//! The sandbox drives [`geom_core::world`] and adds no physics of its own.
//! [`App`] is a timeline (the set-up, the edits, the ticks, the split
//! view), an editor (selection, prompts) and a view (camera, help,
//! messages), changed only by [`Action`]s, which the keymap makes of key
//! presses; [`ui`] draws it, [`terminal`] runs it in a real terminal, and
//! [`headless`] runs a scene without one, applying [`inputs`] from a file
//! if asked.

pub mod app;
pub mod cli;
mod editor;
// The fuzz targets' checks: for `fuzz/` (the `fuzzing` feature) and for the
// unit tests that replay the committed corpus through them; not shipped.
#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzz;
pub mod headless;
mod input;
pub mod inputs;
mod inspect;
pub mod keymap;
mod layout;
pub mod net;
mod num;
pub mod scene;
#[cfg(test)]
mod scratch;
mod sim;
pub mod terminal;
mod textfile;
mod timeline;
pub mod ui;

pub use app::App;
pub use keymap::{Action, Addition, LineEdit};
pub use num::ScalarKind;
