//! Reading the files a job file names (TLS material) and job files themselves: regular files of
//! bounded size only, so that `ca = "/dev/zero"` or a path to a directory is an error naming the
//! file, not gigabytes read or a hang on a pipe.

use std::io::Read;
use std::path::Path;

/// The largest TLS file read (a CA bundle of a few hundred certificates is well under it).
pub const TLS_FILE_LIMIT: u64 = 1024 * 1024;

/// The largest job file read (10,000 jobs of a few hundred bytes each).
pub const JOB_FILE_LIMIT: u64 = 16 * 1024 * 1024;

/// The text of `path`, a regular file (symbolic links followed) of at most `limit` bytes.
///
/// # Errors
/// A file that cannot be opened or read, is not a regular file, is larger than `limit`, or is
/// not UTF-8: the reason, without the path (callers name it).
pub fn read_regular(path: &Path, limit: u64) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > limit {
        return Err(format!("larger than {limit} bytes"));
    }
    let mut text = String::new();
    // A file growing while it is read stops at the limit too.
    file.take(limit + 1).read_to_string(&mut text).map_err(|e| e.to_string())?;
    if text.len() as u64 > limit {
        return Err(format!("larger than {limit} bytes"));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_small_regular_files() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("ca.pem");
        std::fs::write(&file, "pem").unwrap();
        assert_eq!(read_regular(&file, 3).as_deref(), Ok("pem"));
        assert_eq!(read_regular(&file, 2), Err("larger than 2 bytes".into()));
        assert_eq!(read_regular(dir.path(), 10), Err("not a regular file".into()));
        assert_eq!(read_regular(Path::new("/dev/zero"), 10), Err("not a regular file".into()));
        assert!(read_regular(&dir.path().join("missing"), 10).is_err());
    }
}
