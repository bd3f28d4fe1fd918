//! Running commands: every task's steps go through [`Step`], which prints
//! each command before it runs it.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root: the parent of this crate's directory.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

/// A command to run from the workspace root, printed before it runs.
pub(crate) struct Step {
    program: String,
    args: Vec<String>,
    envs: Vec<(String, String)>,
    dir: Option<PathBuf>,
}

impl Step {
    /// `cargo` (the one running xtask) with `args`.
    pub(crate) fn cargo(args: &[&str]) -> Self {
        let program = env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        Self::new(&program, args)
    }

    /// `program` with `args`.
    pub(crate) fn new(program: &str, args: &[&str]) -> Self {
        Self {
            program: program.to_owned(),
            args: args.iter().map(|&a| a.to_owned()).collect(),
            envs: Vec::new(),
            dir: None,
        }
    }

    /// Runs in `dir` instead of the workspace root.
    pub(crate) fn in_dir(mut self, dir: &Path) -> Self {
        self.dir = Some(dir.to_path_buf());
        self
    }

    /// Sets an environment variable for the command.
    pub(crate) fn env(mut self, key: &str, value: &str) -> Self {
        self.envs.push((key.to_owned(), value.to_owned()));
        self
    }

    /// The command line as printed.
    pub(crate) fn display(&self) -> String {
        let envs: Vec<String> = self.envs.iter().map(|(k, v)| format!("{k}={v:?} ")).collect();
        let envs = envs.concat();
        let program = Path::new(&self.program).file_name().map_or(self.program.clone(), |n| n.to_string_lossy().into());
        format!("{envs}{program} {}", self.args.join(" "))
    }

    /// The command, ready to run.
    pub(crate) fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command.args(&self.args).current_dir(self.dir.clone().unwrap_or_else(root));
        for (k, v) in &self.envs {
            command.env(k, v);
        }
        command
    }

    /// Runs the step, failing with the command line if it fails.
    pub(crate) fn run(&self) -> Result<(), String> {
        println!("\n$ {}", self.display());
        let status = self.command().status().map_err(|e| format!("could not start `{}`: {e}", self.display()))?;
        if status.success() { Ok(()) } else { Err(format!("`{}` failed ({status})", self.display())) }
    }

    /// Runs the step and returns its standard output.
    pub(crate) fn output(&self) -> Result<String, String> {
        println!("\n$ {}", self.display());
        self.quiet_output()
    }

    /// Runs the step without printing it, and returns its standard output.
    pub(crate) fn quiet_output(&self) -> Result<String, String> {
        let output = self.command().output().map_err(|e| format!("could not start `{}`: {e}", self.display()))?;
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        } else {
            Err(format!(
                "`{}` failed ({}):\n{}",
                self.display(),
                output.status,
                String::from_utf8_lossy(&output.stderr)
            ))
        }
    }

    /// Whether the step starts and succeeds (its output discarded): for
    /// "is this tool installed?".
    pub(crate) fn succeeds(&self) -> bool {
        self.command().output().is_ok_and(|o| o.status.success())
    }
}
