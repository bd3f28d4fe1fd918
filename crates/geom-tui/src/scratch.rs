//! A scratch directory for the tests that read and write scene files.

use std::path::PathBuf;

/// What the watchdog of [`Scratch::fifo`] writes: text no scene parses.
#[cfg(unix)]
pub(crate) const NOT_A_SCENE: &str = "written by the watchdog: a test waited on a pipe\n";

/// A directory of its own under the system's temporary directory, removed
/// with everything in it when dropped.
pub(crate) struct Scratch(pub(crate) PathBuf);

impl Scratch {
    /// A fresh directory named after `name` and this process.
    pub(crate) fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("geom-tui-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    /// Writes `contents` to the file `name` in the directory.
    pub(crate) fn file(&self, name: &str, contents: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }

    /// Writes `contents` to the file `name` in the directory, and makes it
    /// read-only.
    pub(crate) fn read_only_file(&self, name: &str, contents: &[u8]) -> PathBuf {
        let path = self.file(name, contents);
        let mut permissions = std::fs::metadata(&path).unwrap().permissions();
        permissions.set_readonly(true);
        std::fs::set_permissions(&path, permissions).unwrap();
        path
    }

    /// Makes the named pipe `name` in the directory, with no writer.
    ///
    /// Should a test ever wait on it, a writer comes after 30 s and writes
    /// [`NOT_A_SCENE`], so that the test fails instead of hanging.
    #[cfg(unix)]
    pub(crate) fn fifo(&self, name: &str) -> PathBuf {
        use rustix::fs::{Mode, OFlags};
        let path = self.0.join(name);
        let made = std::process::Command::new("mkfifo").arg(&path).status().unwrap();
        assert!(made.success(), "mkfifo {}", path.display());
        let watched = path.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(30));
            // Opening to write without waiting succeeds only if a reader
            // is waiting; the pipe may be gone by now, which is fine.
            if let Ok(fd) = rustix::fs::open(&watched, OFlags::WRONLY | OFlags::NONBLOCK, Mode::empty()) {
                let _ = rustix::io::write(&fd, NOT_A_SCENE.as_bytes());
            }
        });
        path
    }

    /// The names in the directory, sorted.
    pub(crate) fn names(&self) -> Vec<std::ffi::OsString> {
        let mut names: Vec<_> = std::fs::read_dir(&self.0).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        names
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
