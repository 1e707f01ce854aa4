//! The files of the archive: each written whole or not at all (a temporary
//! file renamed over the old one), so a reader or a web server never sees
//! half a page.

use std::io::Write;
use std::path::{Path, PathBuf};

/// A file that could not be written or removed.
#[derive(Debug)]
pub struct FileError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.source)
    }
}

fn at(path: &Path) -> impl FnOnce(std::io::Error) -> FileError + '_ {
    move |source| FileError {
        path: path.to_path_buf(),
        source,
    }
}

/// Makes `dir` (and its parents) if missing.
pub fn ensure_dir(dir: &Path) -> Result<(), FileError> {
    std::fs::create_dir_all(dir).map_err(at(dir))
}

/// Writes `bytes` to `path` through a temporary file beside it (named
/// for this process, so that `judge run` and `judge archive` writing at
/// once do not mix their halves).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("page");
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = std::fs::File::create(&tmp).and_then(|mut f| f.write_all(bytes));
    if let Err(e) = written.and_then(|()| std::fs::rename(&tmp, path)) {
        let _ = std::fs::remove_file(&tmp);
        return Err(at(path)(e));
    }
    Ok(())
}

/// Removes the folder `dir` and everything in it; false if it was not
/// there.
pub fn remove_dir(dir: &Path) -> Result<bool, FileError> {
    match std::fs::remove_dir_all(dir) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(at(dir)(e)),
    }
}

/// Removes the phase pages and maps in `dir` (`S1901M.html`,
/// `S1901M.svg`) whose phase `keep` does not hold: left by phases rolled
/// back; and the temporary files a killed writer left.
pub fn remove_stale_phases(dir: &Path, keep: &dyn Fn(&str) -> bool) -> Result<(), FileError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(at(dir)(e)),
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.starts_with('.') && name.ends_with(".tmp") {
            remove_if_abandoned(&entry.path())?;
            continue;
        }
        let Some((stem, "html" | "svg")) = name.rsplit_once('.') else {
            continue;
        };
        let is_phase = stem.len() == 6
            && matches!(stem.as_bytes()[0], b'S' | b'F' | b'W')
            && stem[1..5].bytes().all(|b| b.is_ascii_digit())
            && matches!(stem.as_bytes()[5], b'M' | b'R' | b'A');
        if is_phase && !keep(stem) {
            std::fs::remove_file(entry.path()).map_err(at(&entry.path()))?;
        }
    }
    Ok(())
}

/// A temporary file of [`write_atomic`] older than an hour was left by a
/// process killed between writing and renaming it: removed. A younger one
/// may be another process's, still being written.
fn remove_if_abandoned(path: &Path) -> Result<(), FileError> {
    let age = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok());
    if age.is_some_and(|age| age.as_secs() > 3600) {
        match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(at(path)(e)),
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_files_left_by_a_killed_writer_go_after_an_hour() {
        let dir = std::env::temp_dir().join(format!("judge-web-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let old = dir.join(".S1901M.html.123.tmp");
        let young = dir.join(".S1902M.html.456.tmp");
        std::fs::write(&old, "half a page").unwrap();
        std::fs::write(&young, "being written").unwrap();
        let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
        std::fs::File::options()
            .write(true)
            .open(&old)
            .unwrap()
            .set_modified(two_hours_ago)
            .unwrap();
        remove_stale_phases(&dir, &|_| true).unwrap();
        assert!(!old.exists(), "an hour-old temporary file stays");
        assert!(young.exists(), "a temporary file being written was removed");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
