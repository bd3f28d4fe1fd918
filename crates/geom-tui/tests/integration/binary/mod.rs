//! Running the real `geom-tui` binary, for the tests that drive it as a
//! script would.

#![allow(dead_code)]

use std::process::{Command, Output};

/// The binary run with `args`, to its end.
pub(crate) fn geom_tui(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_geom-tui")).args(args).output().expect("the binary runs")
}

/// What it printed.
pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("the output is text")
}

/// What it said on standard error.
pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("errors are text")
}
