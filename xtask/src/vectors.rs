//! `cargo xtask vectors`: the test vectors for ports.

use crate::run::Step;

/// Writes the test vectors for ports
/// (`crates/geom-test/golden/vectors.json`).
pub(crate) fn vectors() -> Result<(), String> {
    Step::cargo(&["run", "--release", "-p", "geom-test", "--features", "tools", "--bin", "golden", "--", "vectors"])
        .run()
}
