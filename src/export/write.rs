//! Writing a study folder so that it is always whole: either the set of files one command wrote, or what
//! was there before, never a mixture and never a half-written file (docs/scenarios.md "Outputs").
//!
//! A command writes every file into a fresh temporary folder beside the study folder, created under an
//! unpredictable name that must not exist yet (so nothing planted there, such as a symbolic link, is
//! followed), syncs it, and then puts it in place of the study folder in one atomic exchange of the two
//! names (Linux's `renameat2(RENAME_EXCHANGE)`; a plain rename when there is no study folder yet, or two
//! renames where the exchange is not supported). Two commands writing one study hold a lock on the output
//! folder while they exchange, so they never interleave; the later one wins whole. Beside each temporary
//! folder, a `.live` file is created first and held locked while its command lives, and removed last, so
//! what a killed command left is recognised (an unlocked `.live`, or a folder without one) and removed by
//! the next command, while a folder still being written is left alone.

use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `files` as the whole content of the study folder `out/stem` and returns its path. With
/// `keep_others`, the regular files already there that `files` does not name are kept (the `exact`
/// command adds its files to a run's); otherwise only `files` remain.
pub fn write_study(
    out: &Path,
    stem: &str,
    files: &[(String, Vec<u8>)],
    keep_others: bool,
) -> io::Result<PathBuf> {
    fs::create_dir_all(out)?;
    let target = out.join(stem);
    let staged = Staged::create(out, stem)?;
    let written = (|| {
        if keep_others {
            staged.keep_from(&target, files)?;
        }
        for (name, bytes) in files {
            staged.write(name, bytes)?;
        }
        sync_dir(&staged.path)?;
        let _lock = lock_dir(out)?;
        // Under the lock, so that no shard's part lands in the old folder after this look.
        staged.keep_parts(&target)?;
        remove_stale(out, stem);
        staged.swap_into(&target)?;
        sync_dir(out)
    })();
    // After a swap the temporary name is gone or holds the previous folder; either way it goes.
    staged.discard();
    written.map(|()| target)
}

/// Writes a shard's part file into `parts` (a study folder's `parts/`) whole: into a fresh temporary file
/// first, synced, then renamed into place under the output folder's lock (which [`write_study`] takes
/// too, so a part never lands in a study folder being replaced).
pub fn write_part(parts: &Path, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
    fs::create_dir_all(parts)?;
    let target = parts.join(name);
    let mut attempts = 0;
    let temp = loop {
        let temp = parts.join(format!(".{name}.{:016x}.tmp", unpredictable()));
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(mut f) => {
                let written = f.write_all(bytes).and_then(|()| f.sync_all());
                if let Err(e) = written {
                    let _ = fs::remove_file(&temp);
                    return Err(e);
                }
                break temp;
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempts < 8 => attempts += 1,
            Err(e) => return Err(e),
        }
    };
    let out = parts.parent().and_then(Path::parent);
    let renamed = (|| {
        let _lock = match out {
            Some(out) => Some(lock_dir(out)?),
            None => None,
        };
        fs::rename(&temp, &target)?;
        sync_dir(parts)
    })();
    if renamed.is_err() {
        let _ = fs::remove_file(&temp);
    }
    renamed.map(|()| target)
}

/// Whether files can be written in `out`: checked before a long run, so that an unwritable folder is
/// found at once, not after the simulation.
pub fn check_writable(out: &Path, stem: &str) -> io::Result<()> {
    fs::create_dir_all(out)?;
    let staged = Staged::create(out, stem)?;
    let probe = staged.write("probe", b"");
    staged.discard();
    probe
}

/// A temporary folder being filled, and its `.live` file, locked while this command lives.
struct Staged {
    path: PathBuf,
    live_path: PathBuf,
    live: File,
}

impl Staged {
    fn create(out: &Path, stem: &str) -> io::Result<Staged> {
        let mut attempts = 0;
        loop {
            let name = format!(".{stem}.{:016x}", unpredictable());
            let (path, live_path) = (
                out.join(format!("{name}.tmp")),
                out.join(format!("{name}.live")),
            );
            // The live file first: a folder without one is always an orphan.
            let live = match OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&live_path)
            {
                Ok(live) => live,
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempts < 8 => {
                    attempts += 1;
                    continue;
                }
                Err(e) => return Err(e),
            };
            live.lock()?;
            if let Err(e) = fs::create_dir(&path) {
                let _ = fs::remove_file(&live_path);
                return Err(e);
            }
            return Ok(Staged {
                path,
                live_path,
                live,
            });
        }
    }

    /// Writes one file, which must not exist yet (so a name cannot be redirected elsewhere), and syncs it.
    fn write(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(self.path.join(name))?;
        f.write_all(bytes)?;
        f.sync_all()
    }

    /// Copies the regular files of the current study folder that `files` does not name.
    fn keep_from(&self, target: &Path, files: &[(String, Vec<u8>)]) -> io::Result<()> {
        let Ok(entries) = fs::read_dir(target) else {
            return Ok(());
        };
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if files.iter().any(|(n, _)| *n == name) {
                continue;
            }
            // Not followed through a link: only what is really in the folder is kept.
            if entry.file_type()?.is_file() {
                self.write(&name, &fs::read(entry.path())?)?;
            }
        }
        Ok(())
    }

    /// Carries the study folder's `parts/` (shards' part files, the input of a merge, maybe days of work)
    /// into the new folder: hard links where the file system has them, copies elsewhere. Temporary files
    /// of shards that were killed (names starting with a dot) are left behind.
    fn keep_parts(&self, target: &Path) -> io::Result<()> {
        let parts = target.join("parts");
        match fs::symlink_metadata(&parts) {
            Ok(m) if m.is_dir() => {}
            _ => return Ok(()),
        }
        let kept = self.path.join("parts");
        fs::create_dir(&kept)?;
        for entry in fs::read_dir(&parts)? {
            let entry = entry?;
            let name = entry.file_name();
            if name.to_string_lossy().starts_with('.') || !entry.file_type()?.is_file() {
                continue;
            }
            if fs::hard_link(entry.path(), kept.join(&name)).is_err() {
                fs::copy(entry.path(), kept.join(&name))?;
            }
        }
        sync_dir(&kept)
    }

    /// Puts the folder in place of `target` (under the output folder's lock) and removes what was there.
    fn swap_into(&self, target: &Path) -> io::Result<()> {
        if fs::symlink_metadata(target).is_err() {
            return fs::rename(&self.path, target);
        }
        if exchange(&self.path, target).is_err() {
            // No atomic exchange here: move the old folder aside first, so a failure leaves it whole
            // under its temporary name (removed by the next command) rather than mixed.
            let aside = self.path.with_extension("old");
            fs::rename(target, &aside)?;
            fs::rename(&self.path, target)?;
            return fs::rename(&aside, &self.path);
        }
        // After the exchange, the temporary name holds the previous study folder ([`Staged::discard`]
        // removes it).
        Ok(())
    }

    /// Removes the folder (or, after a swap, the previous study folder under its name), then the live
    /// file: last, so that an interrupted removal is still recognised as a killed command's.
    fn discard(self) {
        let _ = remove_any(&self.path);
        let _ = fs::remove_file(&self.live_path);
        drop(self.live);
    }
}

/// Removes a folder, or a file or link, by name.
fn remove_any(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Removes what killed commands left of `stem`: temporary folders whose `.live` file can be locked or is
/// gone, and unlocked `.live` files. Called under the output folder's lock.
fn remove_stale(out: &Path, stem: &str) {
    let Ok(entries) = fs::read_dir(out) else {
        return;
    };
    let prefix = format!(".{stem}.");
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(&prefix) else {
            continue;
        };
        let Some((id, kind)) = rest.split_once('.') else {
            continue;
        };
        if id.len() != 16 || !id.chars().all(|c| c.is_ascii_hexdigit()) {
            continue;
        }
        let live_path = out.join(format!(".{stem}.{id}.live"));
        let dead = match File::open(&live_path) {
            Ok(live) => live.try_lock().is_ok(),
            Err(_) => true,
        };
        if dead && matches!(kind, "tmp" | "old" | "live") {
            let _ = remove_any(&entry.path());
            if kind != "live" {
                let _ = fs::remove_file(&live_path);
            }
        }
    }
}

/// Locks the output folder itself (a lock on the directory, so no lock file can be planted).
fn lock_dir(out: &Path) -> io::Result<File> {
    let dir = File::open(out)?;
    dir.lock()?;
    Ok(dir)
}

/// Makes a folder's entries durable.
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// 64 bits no other process can predict: the standard library's per-process random hash keys, mixed
/// with the time and the process.
fn unpredictable() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    h.finish()
}

/// Exchanges two names atomically.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| {
        CString::new(p.as_os_str().as_bytes())
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))
    };
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: both are valid NUL-terminated paths that outlive the call; renameat2 reads nothing else.
    let r = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Elsewhere there is no exchange: the caller falls back to two renames.
#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "no atomic exchange",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("subdual-write-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn files(list: &[(&str, &str)]) -> Vec<(String, Vec<u8>)> {
        list.iter()
            .map(|(n, b)| (n.to_string(), b.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn a_second_write_replaces_the_folder_whole() {
        let out = scratch("replace");
        write_study(
            &out,
            "s",
            &files(&[("a.csv", "1"), ("old.png", "x")]),
            false,
        )
        .unwrap();
        let dir = write_study(
            &out,
            "s",
            &files(&[("a.csv", "2"), ("b.json", "{}")]),
            false,
        )
        .unwrap();
        assert_eq!(names(&dir), ["a.csv", "b.json"]);
        assert_eq!(fs::read_to_string(dir.join("a.csv")).unwrap(), "2");
        assert_eq!(names(&out), ["s"], "no temporary remains");
        // Adding keeps the rest.
        write_study(&out, "s", &files(&[("exact.csv", "e")]), true).unwrap();
        assert_eq!(names(&dir), ["a.csv", "b.json", "exact.csv"]);
        fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn stale_temporaries_are_removed_and_live_ones_kept() {
        let out = scratch("stale");
        fs::create_dir_all(&out).unwrap();
        // One a killed command left (its live file unlocked), one still being written (locked).
        let dead = out.join(".s.0123456789abcdef.tmp");
        fs::create_dir(&dead).unwrap();
        File::create(out.join(".s.0123456789abcdef.live")).unwrap();
        let orphan = out.join(".s.fedcba9876543210.tmp");
        fs::create_dir(&orphan).unwrap();
        let live = Staged::create(&out, "s").unwrap();
        write_study(&out, "s", &files(&[("a.csv", "1")]), false).unwrap();
        assert!(!dead.exists() && !orphan.exists());
        assert!(live.path.exists() && live.live_path.exists());
        live.discard();
        assert_eq!(names(&out), ["s"]);
        fs::remove_dir_all(&out).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_link_is_replaced_not_followed() {
        let out = scratch("link");
        fs::create_dir_all(&out).unwrap();
        let victim = out.join("victim.txt");
        fs::write(&victim, "keep").unwrap();
        // The study folder's name points at another folder: the run replaces the link itself.
        let elsewhere = out.join("elsewhere");
        fs::create_dir(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, out.join("s")).unwrap();
        write_study(&out, "s", &files(&[("a.csv", "1")]), false).unwrap();
        assert!(fs::symlink_metadata(out.join("s")).unwrap().is_dir());
        assert!(names(&elsewhere).is_empty());
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
        fs::remove_dir_all(&out).unwrap();
    }
}
