//! The golden files' tool, behind `cargo xtask golden` and `cargo xtask
//! vectors`:
//!
//! - `golden digests` prints every digest as the pinned file lists them;
//! - `golden vectors [PATH]` writes the test vectors for ports;
//! - `golden dump QUERY TYPE` prints every case of one stream, one JSON
//!   vector per line (for comparing two revisions).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use geom_test::golden::{self, vectors};

fn run(args: &[String]) -> Result<(), String> {
    match args {
        [command] if command == "digests" => {
            print!("{}", golden::render(&golden::digests()));
            Ok(())
        }
        [command, rest @ ..] if command == "vectors" && rest.len() <= 1 => {
            let path = rest
                .first()
                .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(vectors::FILE), PathBuf::from);
            vectors::write(&path)?;
            println!("wrote {}", path.display());
            Ok(())
        }
        [command, query, type_name] if command == "dump" => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            vectors::dump(query, type_name, golden::QUERY_CASES, &mut out)?;
            out.flush().map_err(|e| format!("cannot write: {e}"))
        }
        _ => Err("usage: golden digests | golden vectors [PATH] | golden dump QUERY TYPE".to_owned()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("golden: {e}");
            ExitCode::FAILURE
        }
    }
}
