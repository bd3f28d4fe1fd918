//! Reading a file anyone may hand over: at most so many bytes, UTF-8 text
//! without NULs, and never waiting on a named pipe nobody writes to. Scene
//! files and inputs files are both read through here; each puts a refusal
//! into its own typed error, in its own words.

use std::io::Read as _;
use std::path::Path;

/// Why a file was not read.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// Opening or reading it failed.
    Io(std::io::Error),
    /// It is a directory.
    Directory,
    /// It is longer than the limit: its length, when it has one (`None`
    /// for a file that grew while it was read or never ends).
    TooLarge(Option<u64>),
    /// It is a named pipe nobody wrote to.
    EmptyPipe,
}

/// Why bytes are not text: where, and what is there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NotText {
    /// The offset of the first byte that is not text.
    pub byte: usize,
    /// Its 1-based line.
    pub line: usize,
    /// What is wrong, in words.
    pub message: String,
}

/// The file's bytes, refused as soon as they pass `limit`: one longer is
/// refused from its length before it is read, and reading stops one byte
/// past the limit, so a file that never ends (`/dev/zero`) costs no more.
pub(crate) fn read_at_most(path: &Path, limit: u64) -> Result<Vec<u8>, Refusal> {
    let file = open_to_read(path).map_err(Refusal::Io)?;
    let metadata = file.metadata().map_err(Refusal::Io)?;
    if metadata.is_dir() {
        return Err(Refusal::Directory);
    }
    // Special files (devices, pipes) report no length: read them up to the
    // limit like any other.
    if metadata.len() > limit {
        return Err(Refusal::TooLarge(Some(metadata.len())));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0).saturating_add(1));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(Refusal::Io)?;
    if u64::try_from(bytes.len()).map_or(true, |n| n > limit) {
        return Err(Refusal::TooLarge(None));
    }
    #[cfg(unix)]
    if bytes.is_empty() && std::os::unix::fs::FileTypeExt::is_fifo(&metadata.file_type()) {
        return Err(Refusal::EmptyPipe);
    }
    Ok(bytes)
}

/// Opens `path` to read without waiting for anything: opening a named pipe
/// waits for a writer, which would freeze the sandbox for good when there
/// is none. Reads from the file wait as usual, so a pipe with a writer
/// (such as `<(…)` in a shell) is read to its end, and one without reads
/// as empty.
#[cfg(unix)]
fn open_to_read(path: &Path) -> std::io::Result<std::fs::File> {
    use rustix::fs::{Mode, OFlags};
    let fd = rustix::fs::open(path, OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC, Mode::empty())?;
    rustix::fs::fcntl_setfl(&fd, rustix::fs::fcntl_getfl(&fd)? - OFlags::NONBLOCK)?;
    Ok(fd.into())
}

/// Opens `path` to read.
#[cfg(not(unix))]
fn open_to_read(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// `bytes` as text: UTF-8 without NULs, or where it stops being text.
pub(crate) fn check_text(bytes: &[u8]) -> Result<&str, NotText> {
    let not_text = |byte: usize, message: String| {
        // The pieces between line breaks: one more than the breaks.
        let line = bytes[..byte].split(|&b| b == b'\n').count();
        NotText { byte, line, message }
    };
    let nul = |end: usize| bytes[..end].iter().position(|&b| b == 0);
    let is_nul = |byte: usize| not_text(byte, format!("not a text file: byte {byte} is NUL"));
    match std::str::from_utf8(bytes) {
        Ok(text) => nul(bytes.len()).map_or(Ok(text), |byte| Err(is_nul(byte))),
        Err(e) => {
            let byte = e.valid_up_to();
            if let Some(earlier) = nul(byte) {
                return Err(is_nul(earlier));
            }
            Err(match e.error_len() {
                Some(_) => not_text(byte, format!("not UTF-8 text: byte {byte} is 0x{:02x}", bytes[byte])),
                None => not_text(
                    byte,
                    format!("not UTF-8 text: the file ends inside a character at byte {byte} (cut short?)"),
                ),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_stops_at_the_first_nul_or_byte_that_is_not_utf8_naming_its_line() {
        assert_eq!(check_text(b"a\nb"), Ok("a\nb"));
        let nul = check_text(b"a\nb\0c").unwrap_err();
        assert_eq!((nul.byte, nul.line, nul.message.as_str()), (3, 2, "not a text file: byte 3 is NUL"));
        let bad = check_text(b"a\n\n\xffz").unwrap_err();
        assert_eq!((bad.byte, bad.line, bad.message.as_str()), (3, 3, "not UTF-8 text: byte 3 is 0xff"));
        let cut = check_text("é".as_bytes().get(..1).unwrap()).unwrap_err();
        assert!(cut.message.contains("cut short"), "{}", cut.message);
    }

    #[test]
    fn a_file_past_the_limit_is_refused_from_its_length_or_after_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("long");
        std::fs::write(&path, [b'x'; 10]).unwrap();
        assert!(matches!(read_at_most(&path, 9), Err(Refusal::TooLarge(Some(10)))));
        assert_eq!(read_at_most(&path, 10).unwrap().len(), 10);
        assert!(matches!(read_at_most(dir.path(), 10), Err(Refusal::Directory)));
        #[cfg(unix)]
        assert!(matches!(read_at_most(Path::new("/dev/zero"), 100), Err(Refusal::TooLarge(None))));
    }
}
