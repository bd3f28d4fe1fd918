//! Replaying the fuzz targets' committed inputs as ordinary tests: every
//! file in `fuzz/corpus/<target>/` (interesting inputs the fuzzer found)
//! and in `fuzz/regressions/<target>/` (inputs that once broke a guarantee,
//! kept after the fix), through the very functions the fuzz targets call,
//! and seeded pseudo-random inputs, so that the checks run where `cargo
//! fuzz` does not. Shared by geom-test's `tests/integration/fuzz_corpus.rs` (the
//! library's targets) and the unit tests of `geom_tui::fuzz` (the
//! sandbox's).

use std::path::{Path, PathBuf};

/// The repository's `fuzz/` directory.
///
/// # Examples
///
/// ```
/// assert!(geom_test::fuzz::replay::fuzz_dir().join("corpus").is_dir());
/// ```
#[must_use]
pub fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files of `dir`, sorted (none when it is missing).
///
/// # Examples
///
/// ```
/// use geom_test::fuzz::replay::{fuzz_dir, files_in};
///
/// assert!(!files_in(&fuzz_dir().join("corpus/world")).is_empty());
/// assert!(files_in(&fuzz_dir().join("no such directory")).is_empty());
/// ```
#[must_use]
pub fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// Runs `check` on the file at `path`; when it panics, first names the file
/// and how to reproduce it (`test`, the package and test to run).
///
/// # Panics
///
/// When the file cannot be read, or `check` panics on it.
///
/// # Examples
///
/// ```
/// use geom_test::fuzz::replay::{files_in, fuzz_dir, replay_file};
///
/// let first = &files_in(&fuzz_dir().join("corpus/world"))[0];
/// replay_file(first, geom_test::fuzz::world, "-p geom-test --test integration fuzz_corpus::");
/// ```
pub fn replay_file(path: &Path, check: fn(&[u8]), test: &str) {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    if let Err(panic) = std::panic::catch_unwind(|| check(&data)) {
        eprintln!("fuzz input {} broke a guarantee; reproduce with `cargo test {test}`", path.display());
        std::panic::resume_unwind(panic);
    }
}

/// Replays the corpus and the regressions of the fuzz target `target`
/// through `check` (see [`replay_file`]), and returns how many corpus files
/// there were.
///
/// # Panics
///
/// As [`replay_file`].
///
/// # Examples
///
/// ```
/// use geom_test::fuzz::replay::replay;
///
/// let corpus = replay("swept_queries", geom_test::fuzz::swept_queries, "-p geom-test --test integration fuzz_corpus::");
/// assert!(corpus > 0);
/// ```
pub fn replay(target: &str, check: fn(&[u8]), test: &str) -> usize {
    let corpus = files_in(&fuzz_dir().join("corpus").join(target));
    for path in corpus.iter().chain(&files_in(&fuzz_dir().join("regressions").join(target))) {
        replay_file(path, check, test);
    }
    corpus.len()
}

/// `count` inputs of up to 512 bytes from a fixed-seed xorshift generator:
/// the same on every run and every target.
///
/// # Examples
///
/// ```
/// use geom_test::fuzz::replay::seeded_inputs;
///
/// let inputs: Vec<Vec<u8>> = seeded_inputs(7, 3).collect();
/// assert_eq!(inputs.len(), 3);
/// assert_eq!(inputs, seeded_inputs(7, 3).collect::<Vec<_>>());
/// ```
pub fn seeded_inputs(seed: u64, count: usize) -> impl Iterator<Item = Vec<u8>> {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count).map(move |_| {
        let len = (next() % 512) as usize;
        (0..len).map(|_| next() as u8).collect()
    })
}
