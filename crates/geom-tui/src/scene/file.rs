//! Scene files: reading one within the limits, whatever it is, and saving
//! one atomically.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::error::{MAX_FILE_BYTES, SceneError, SceneErrorKind};
use super::model::Scene;
use crate::textfile::{self, Refusal};

impl Scene {
    /// Reads a scene file.
    ///
    /// Any file can be given: one longer than [`MAX_FILE_BYTES`] is refused
    /// from its length before it is read, and reading stops one byte past
    /// the limit, so a file that grows while it is read or never ends
    /// (`/dev/zero`) is refused too, having used no more memory than that.
    ///
    /// # Errors
    ///
    /// The file cannot be read ([`SceneErrorKind::Io`]; a directory is
    /// refused as one, and so is a named pipe with nothing written to it,
    /// which is never waited on), is too large
    /// ([`SceneErrorKind::TooLarge`]), is not UTF-8 text
    /// ([`SceneErrorKind::NotText`], with the line and offset of the first
    /// byte that is not), or [`Scene::parse`] refuses it; the message starts
    /// with the path.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_tui::scene::Scene;
    ///
    /// let err = Scene::load("no/such/scene.toml".as_ref()).unwrap_err();
    /// assert!(err.to_string().starts_with("no/such/scene.toml: "));
    /// let err = Scene::load(std::env::temp_dir().as_path()).unwrap_err();
    /// assert!(err.to_string().ends_with(": a directory, not a scene file"), "{err}");
    /// ```
    pub fn load(path: &Path) -> Result<Self, SceneError> {
        let in_file = |e: SceneError| SceneError { path: Some(path.to_owned()), ..e };
        let text = read_text(path).map_err(in_file)?;
        let mut scene = Self::parse(&text).map_err(in_file)?;
        scene.origin.path = Some(path.to_owned());
        Ok(scene)
    }

    /// Writes the scene to `path` atomically: into a temporary file beside
    /// it, then renamed over it, so a crash never leaves half a file.
    ///
    /// The text is [`Scene::to_toml`]'s: a scene read from text is saved as
    /// that text with only what changed rewritten, comments and all.
    ///
    /// A file that exists but cannot be written (read-only, or not a
    /// regular file) is refused rather than replaced, as is a directory.
    /// A symbolic link is followed: the file it names is replaced, with
    /// the old file's permissions, and the link stays a link.
    ///
    /// # Errors
    ///
    /// The I/O error, with the path: the target is a directory, read-only
    /// or not a regular file; its directory does not exist; the text would
    /// be longer than [`MAX_FILE_BYTES`], so [`Scene::load`] would refuse
    /// it (only numbers near the ends of `f64`'s range, written out in
    /// full, make it that long); or creating, writing or renaming the
    /// temporary file failed. The old file, if any, is untouched and no
    /// temporary file is left behind.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_tui::scene::Scene;
    ///
    /// let dir = std::env::temp_dir().join(format!("geom-scene-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let path = dir.join("copy.toml");
    /// let scene = Scene::parse(geom_tui::scene::DEFAULT_SCENE)?;
    /// scene.save(&path).unwrap();
    /// assert_eq!(Scene::load(&path)?, scene);
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        save_text(path, &self.to_toml(), "a scene file")
    }
}

/// Writes `text` to `path` atomically (a temporary file beside it, then a
/// rename), keeping an existing file's permissions and writing where a
/// link points; refuses a directory, a read-only or irregular file, a
/// missing directory, and text longer than [`MAX_FILE_BYTES`] (`what`
/// names the kind of file in that message). On failure the old file, if
/// any, is untouched and no temporary file is left.
pub(crate) fn save_text(path: &Path, text: &str, what: &str) -> std::io::Result<()> {
    use std::io::ErrorKind;
    let with_path = |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let refuse = |kind: ErrorKind, why: &str| std::io::Error::new(kind, format!("{}: {why}", path.display()));
    // Renaming over a link would replace the link: write where it points.
    let path = &link_target(path).map_err(with_path)?;
    let name = path.file_name().ok_or_else(|| refuse(ErrorKind::InvalidInput, "not a file name"))?;
    let permissions = match std::fs::metadata(path) {
        Ok(target) if target.is_dir() => return Err(refuse(ErrorKind::IsADirectory, "a directory, not a file")),
        Ok(target) if !target.is_file() => {
            return Err(refuse(ErrorKind::InvalidInput, "not a regular file; left as it is"));
        }
        Ok(target) => {
            // Renaming over a read-only file would succeed: ask whether
            // it may be written instead (as root too, by its mode).
            let writable =
                !target.permissions().readonly() && std::fs::OpenOptions::new().write(true).open(path).is_ok();
            if !writable {
                return Err(refuse(ErrorKind::PermissionDenied, "the file is read-only; left as it is"));
            }
            Some(target.permissions())
        }
        Err(_) => None,
    };
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(refuse(ErrorKind::NotFound, &format!("no directory {}", parent.display())));
    }
    // What is saved must load again: numbers far from 1 are written
    // out in full and can take hundreds of digits each.
    if u64::try_from(text.len()).map_or(true, |n| n > MAX_FILE_BYTES) {
        let why = format!(
            "not written: its text would be {} bytes, more than the {MAX_FILE_BYTES} (16 MiB) {what} may have",
            text.len()
        );
        return Err(refuse(ErrorKind::FileTooLarge, &why));
    }
    let write = || -> std::io::Result<()> {
        let mut file = temp_file_beside(parent, name)?;
        if let Some(permissions) = permissions {
            file.as_file().set_permissions(permissions)?;
        }
        file.write_all(text.as_bytes())?;
        file.as_file().sync_all()?;
        // On failure the temporary file is dropped, which removes it.
        file.persist(path).map(drop).map_err(|e| e.error)
    };
    write().map_err(with_path)
}

/// A new, empty temporary file in `dir`, hidden and named after the file
/// `name` it will replace (`.scene.toml.a1B2c3.tmp`), so that one left by a
/// crash says what it was; removed when dropped unless persisted.
///
/// It is made as [`std::fs::File::create`] makes a file, readable and
/// writable by everyone the umask allows, not only by its owner as
/// temporary files usually are: a scene saved anew is an ordinary file.
fn temp_file_beside(dir: &Path, name: &std::ffi::OsStr) -> std::io::Result<tempfile::NamedTempFile> {
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(name);
    prefix.push(".");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    builder.tempfile_in(dir)
}

/// The file `path` names once every symbolic link on the way is followed
/// (`path` itself when it is not a link): a link to nothing gives the path
/// where its file would be.
///
/// # Errors
///
/// A link cannot be read, or there are more than 40 links in a row (as
/// Linux refuses), which a loop of links always gives.
fn link_target(path: &Path) -> std::io::Result<PathBuf> {
    const MAX_LINKS: usize = 40;
    let mut path = path.to_owned();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)?;
                // A relative target is relative to the link's directory; an
                // absolute one replaces the whole path when joined.
                path = path.parent().map_or_else(|| target.clone(), |dir| dir.join(&target));
            }
            _ => return Ok(path),
        }
    }
    Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "more than 40 symbolic links in a row"))
}

/// `path`'s text, within the limits, or why not, as a scene error.
fn read_text(path: &Path) -> Result<String, SceneError> {
    let refused = |kind: SceneErrorKind, message: &str| SceneError::new(kind, None, message);
    let bytes = textfile::read_at_most(path, MAX_FILE_BYTES).map_err(|refusal| match refusal {
        Refusal::Io(e) => refused(SceneErrorKind::Io(e.kind()), &e.to_string()),
        Refusal::Directory => {
            refused(SceneErrorKind::Io(std::io::ErrorKind::IsADirectory), "a directory, not a scene file")
        }
        Refusal::TooLarge(size) => SceneError::too_large(size),
        Refusal::EmptyPipe => {
            refused(SceneErrorKind::Io(std::io::ErrorKind::UnexpectedEof), "a pipe with nothing written to it")
        }
    })?;
    let text = textfile::check_text(&bytes).map_err(SceneError::not_text)?;
    Ok(text.to_owned())
}

#[cfg(test)]
mod tests;
