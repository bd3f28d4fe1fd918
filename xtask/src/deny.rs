//! `cargo xtask deny`: cargo-deny's offline checks.

use crate::run::Step;

/// Runs cargo-deny's offline checks, installing the tool if it is missing.
///
/// The `advisories` check needs to fetch the `RustSec` database; where the
/// network allows it, run `cargo deny check advisories` by hand.
pub(crate) fn deny() -> Result<(), String> {
    if !Step::cargo(&["deny", "--version"]).succeeds() {
        println!("\ncargo-deny is not installed; installing it (once) with `cargo install --locked cargo-deny`");
        Step::cargo(&["install", "--locked", "cargo-deny"]).run().map_err(|e| {
            format!(
                "{e}\ncargo-deny could not be installed; install it by hand with `cargo install --locked cargo-deny`"
            )
        })?;
    }
    Step::cargo(&["deny", "check", "bans", "licenses", "sources"]).run()
}
