//! Bounded reading of the text files a user names (the preCICE XML, participant, model, solver
//! and manifest YAML): only regular files, and never more than a limit, so that a path such as
//! `/dev/zero`, a FIFO or a multi-gigabyte file is refused with a message instead of being read
//! until memory runs out.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// The largest configuration text file read: 64 MiB. The largest shipped input (a participant
/// file listing a few thousand coupling points) is under 1 MiB; a YAML document of 64 MiB
/// already takes the parser seconds and about a gigabyte of memory for its value tree, so a
/// larger file is a wrong path rather than a case.
pub const MAX_TEXT_FILE: u64 = 64 << 20;

/// Why a file was not read. Its message says what the path is and what to do; it does not
/// repeat the path (the caller's location names it).
#[derive(Debug)]
pub enum ReadError {
    /// The operating system refused (missing file, permissions, …).
    Io(std::io::Error),
    /// The path is a directory.
    Directory,
    /// The path is a device, FIFO or socket: its size is unknown and it may never end.
    NotRegular,
    /// The file is larger than `limit` bytes.
    TooLarge {
        /// Its size (bytes).
        size: u64,
        /// The limit (bytes).
        limit: u64,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Directory => write!(f, "it is a directory, not a file"),
            ReadError::NotRegular => {
                write!(f, "not a regular file (a device, FIFO or socket); name the file itself")
            }
            ReadError::TooLarge { size, limit } => write!(
                f,
                "the file is {} large, above the limit of {} for this kind of file; is it the right file?",
                human_bytes(*size as f64),
                human_bytes(*limit as f64)
            ),
        }
    }
}

impl std::error::Error for ReadError {}

/// The bytes of `path`, a regular file of at most `limit` bytes (a file that grows while it is
/// read is cut at `limit + 1` bytes and refused).
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    if meta.is_dir() {
        return Err(ReadError::Directory);
    }
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge { size: meta.len(), limit });
    }
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { size: bytes.len() as u64, limit });
    }
    Ok(bytes)
}

/// [`read_bounded`] with [`MAX_TEXT_FILE`], as UTF-8 text.
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    let bytes = read_bounded(path, MAX_TEXT_FILE)?;
    String::from_utf8(bytes).map_err(|_| {
        ReadError::Io(std::io::Error::new(std::io::ErrorKind::InvalidData, "stream did not contain valid UTF-8"))
    })
}

/// `bytes` for people: `512 B`, `1.5 KB`, `38.4 GB` (powers of 1000, as memory sizes are usually
/// quoted in messages).
pub fn human_bytes(bytes: f64) -> String {
    const UNITS: [&str; 6] = ["B", "KB", "MB", "GB", "TB", "PB"];
    let mut v = bytes;
    let mut unit = 0;
    while v >= 1000.0 && unit + 1 < UNITS.len() {
        v /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{v:.0} B")
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dev_zero_is_refused_without_reading() {
        let e = read_bounded(Path::new("/dev/zero"), MAX_TEXT_FILE).unwrap_err();
        assert!(matches!(e, ReadError::NotRegular), "{e}");
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }

    #[test]
    fn a_file_above_the_limit_is_refused_and_one_at_it_read() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::write(&p, b"0123456789").unwrap();
        assert_eq!(read_bounded(&p, 10).unwrap().len(), 10);
        let e = read_bounded(&p, 9).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge { size: 10, limit: 9 }), "{e}");
        assert!(e.to_string().contains("10 B large, above the limit of 9 B"), "{e}");
        assert!(matches!(read_bounded(dir.path(), 10), Err(ReadError::Directory)));
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human_bytes(512.0), "512 B");
        assert_eq!(human_bytes(3.84e10), "38.4 GB");
        assert_eq!(human_bytes(67108864.0), "67.1 MB");
    }
}
