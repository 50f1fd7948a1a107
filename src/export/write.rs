//! Writing output files so that a crash never leaves a half-written one: every file goes to a temporary
//! name in the same folder first, and only when all are complete are they renamed into place.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes every `(name, bytes)` into `dir` (created if needed), all or nothing as far as the file system
/// allows: temporaries are removed if any write fails.
pub fn write_all_atomic(dir: &Path, files: &[(String, Vec<u8>)]) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let result = (|| {
        for (name, bytes) in files {
            let target = dir.join(name);
            let temporary = dir.join(format!(".{name}.{}.tmp", std::process::id()));
            staged.push((temporary.clone(), target));
            let mut f = std::fs::File::create(&temporary)?;
            f.write_all(bytes)?;
            f.sync_all()?;
        }
        for (temporary, target) in &staged {
            std::fs::rename(temporary, target)?;
        }
        Ok(staged.iter().map(|(_, target)| target.clone()).collect())
    })();
    if result.is_err() {
        for (temporary, _) in &staged {
            let _ = std::fs::remove_file(temporary);
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_land_whole_and_no_temporary_remains() {
        let dir = std::env::temp_dir().join(format!("subdual-write-{}", std::process::id()));
        let files = vec![
            ("a.csv".to_string(), b"x,y\n".to_vec()),
            ("b.json".to_string(), b"{}\n".to_vec()),
        ];
        let written = write_all_atomic(&dir, &files).unwrap();
        assert_eq!(written.len(), 2);
        assert_eq!(std::fs::read(dir.join("a.csv")).unwrap(), b"x,y\n");
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
