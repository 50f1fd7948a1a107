//! Writing a study folder so that it is always whole: either the set of files one command wrote, or what
//! was there before, never a mixture and never a half-written file (docs/scenarios.md "Outputs").
//!
//! A command writes every file into a fresh temporary folder beside the study folder, created under an
//! unpredictable name that must not exist yet (so nothing planted there, such as a symbolic link, is
//! followed), syncs it, and then puts it in place of the study folder in one atomic exchange of the two
//! names (Linux's `renameat2(RENAME_EXCHANGE)`; a plain rename when there is no study folder yet, or two
//! renames where the exchange is not supported). Two commands writing one study hold a lock on the output
//! folder while they exchange, so they never interleave; the later one wins whole (and `exact`, which adds
//! its files to the folder, copies the others under that lock, so it adds to the newest run). The same
//! lock is held while a temporary folder is created and while a folder is looked at before a run. Beside
//! each temporary folder, a `.live` file is created first and held locked while its command lives, and removed last, so
//! what a killed command left is recognised (an unlocked `.live`, or a folder without one) and removed by
//! the next command, while a folder still being written is left alone.
//!
//! A study folder is replaced only if subdual wrote everything in it ([`foreign`]): a designer's notes, a
//! hand-edited chart or a folder that merely shares the study's name are never deleted. Such a folder is
//! refused before anything runs, and again under the lock before the exchange.

use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::{Destination, ExportError, Make};

/// Something at a study folder's place that subdual did not write: the command that would replace it
/// refuses, and says what to move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Foreign {
    /// The study folder's name is taken by something else than a folder.
    #[error(
        "{} is {what}, not a study folder subdual wrote, and writing the study would replace it; move it elsewhere, or write the study to another folder with --out",
        .path.display()
    )]
    NotAFolder {
        /// The study folder's path.
        path: PathBuf,
        /// What is there ("a file", "a symbolic link", ...).
        what: &'static str,
    },
    /// The study folder holds a file or folder that no subdual command writes there.
    #[error(
        "{} holds {name}, which subdual did not write, and writing the study replaces the whole folder; move {name} out of it (or write the study to another folder with --out) and run again",
        .path.display()
    )]
    Unknown {
        /// The study folder's path.
        path: PathBuf,
        /// The first such entry, by name (`parts/...` inside the parts folder).
        name: String,
    },
    /// A file manifest.json lists whose bytes are no longer those it lists (edited by hand).
    #[error(
        "{}/{name} has changed since subdual wrote it (its SHA-256 differs from manifest.json's), and writing the study would replace it; move it out of the folder (or write the study to another folder with --out) and run again",
        .path.display()
    )]
    Edited {
        /// The study folder's path.
        path: PathBuf,
        /// The file's name.
        name: String,
    },
}

/// Why a study folder was not written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// Something subdual did not write is in the way.
    #[error(transparent)]
    Foreign(#[from] Foreign),
    /// The file system refused.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// A file could not be made.
    #[error(transparent)]
    Export(ExportError),
}

impl From<ExportError> for WriteError {
    /// A file the folder did not take is the file system's refusal; any other, the file's.
    fn from(e: ExportError) -> Self {
        match e {
            ExportError::Io(e) => WriteError::Io(e),
            e => WriteError::Export(e),
        }
    }
}

/// What stands at the study folder `out/stem` that subdual did not write, if anything: anything but a
/// folder; in a folder, an entry no subdual command writes, or a file manifest.json lists with other bytes
/// than it lists. Nothing there, an empty folder, or a folder of subdual's files is `None`.
///
/// Subdual's files are manifest.json (of subdual), the files it lists with their SHA-256, the files that
/// describe a run (`run.json`, `report.html`), the `exact` command's files, and `parts/` holding only
/// regular files (shards' parts, carried over whole by every write). Links are never followed: a link is
/// not subdual's.
///
/// It looks under the output folder's lock, so that a command replacing the folder meanwhile is not
/// mistaken for an edit (a manifest read from one run and files from the next).
pub fn foreign(out: &Path, stem: &str) -> io::Result<Option<Foreign>> {
    let _lock = match lock_dir(out) {
        Ok(lock) => lock,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    foreign_locked(out, stem)
}

/// [`foreign`], for a caller that holds the output folder's lock.
fn foreign_locked(out: &Path, stem: &str) -> io::Result<Option<Foreign>> {
    let path = out.join(stem);
    let meta = match fs::symlink_metadata(&path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let kind = meta.file_type();
    if !kind.is_dir() {
        let what = if kind.is_symlink() {
            "a symbolic link"
        } else if kind.is_file() {
            "a file"
        } else {
            "neither a file nor a folder"
        };
        return Ok(Some(Foreign::NotAFolder { path, what }));
    }
    let entries = listing(&path)?;
    let unknown = |name: String| {
        Ok(Some(Foreign::Unknown {
            path: path.clone(),
            name,
        }))
    };
    let listed = match entries.iter().find(|(name, _)| name == "manifest.json") {
        Some((_, kind)) if kind.is_file() => match listed_files(&path.join("manifest.json")) {
            Some(listed) => listed,
            None => return unknown("manifest.json".to_string()),
        },
        Some(_) => return unknown("manifest.json".to_string()),
        None => Vec::new(),
    };
    for (name, kind) in entries {
        if name == "parts" && kind.is_dir() {
            let inside = listing(&path.join("parts"))?;
            if let Some((name, _)) = inside.into_iter().find(|(_, kind)| !kind.is_file()) {
                return unknown(format!("parts/{name}"));
            }
            continue;
        }
        if !kind.is_file() {
            return unknown(name);
        }
        if name == "manifest.json"
            || super::manifest::RUN_FILES.contains(&name.as_str())
            || super::EXACT_FILES.contains(&name.as_str())
        {
            continue;
        }
        match listed.iter().find(|(n, _)| *n == name) {
            Some((_, sha256)) => {
                if crate::digest::sha256_hex(&fs::read(path.join(&name))?) != *sha256 {
                    return Ok(Some(Foreign::Edited { path, name }));
                }
            }
            None => return unknown(name),
        }
    }
    Ok(None)
}

/// A folder's entries by name, each with its type (a link as a link), sorted.
fn listing(dir: &Path) -> io::Result<Vec<(String, fs::FileType)>> {
    let mut entries = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        entries.push((
            entry.file_name().to_string_lossy().into_owned(),
            entry.file_type()?,
        ));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(entries)
}

/// The files a subdual manifest lists, by name with their SHA-256, or `None` for a file that is not a
/// manifest subdual wrote.
fn listed_files(manifest: &Path) -> Option<Vec<(String, String)>> {
    // A manifest is small; one grown beyond any study's is not subdual's.
    let file = File::open(manifest).ok()?;
    let mut text = String::new();
    io::Read::read_to_string(&mut io::Read::take(file, MAX_MANIFEST_BYTES), &mut text).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    if json.get("tool")?.as_str()? != "subdual" {
        return None;
    }
    json.get("files")?
        .as_array()?
        .iter()
        .map(|f| {
            Some((
                f.get("name")?.as_str()?.to_string(),
                f.get("sha256")?.as_str()?.to_string(),
            ))
        })
        .collect()
}

/// The most of a manifest.json read: 16 MiB, far beyond the manifest of any study within the output limits.
const MAX_MANIFEST_BYTES: u64 = 16 << 20;

/// Writes the files `make` makes (into the [`Destination`] it is given, each written to disk as it is
/// made) as the whole content of the study folder `out/stem` and returns its path. With `keep_others`,
/// the regular files already there that `make` did not make are kept (the `exact` command adds its files
/// to a run's); otherwise only those made remain. A study folder holding anything subdual did not write
/// ([`foreign`]) is left as it is and refused; a file that cannot be made leaves the study folder as it
/// was.
pub fn write_study(
    out: &Path,
    stem: &str,
    keep_others: bool,
    make: &mut dyn FnMut(&mut dyn Destination) -> Result<(), ExportError>,
) -> Result<PathBuf, WriteError> {
    fs::create_dir_all(out)?;
    let target = out.join(stem);
    let staged = Staged::create(out, stem)?;
    let written = (|| {
        let mut filling = Filling {
            staged: &staged,
            names: Vec::new(),
        };
        make(&mut filling)?;
        let files = filling.names;
        let _lock = lock_dir(out)?;
        // Looked at again under the lock: something may have been added while the study ran.
        if let Some(foreign) = foreign_locked(out, stem)? {
            return Err(WriteError::Foreign(foreign));
        }
        // The files kept are the folder's as it is now, under the lock: a run that finished while this
        // command was computing is the one kept, never the older one it replaced.
        if keep_others {
            staged.keep_from(&target, &files)?;
        }
        sync_dir(&staged.path)?;
        // Under the lock, so that no shard's part lands in the old folder after this look.
        staged.keep_parts(&target)?;
        remove_stale(out, stem);
        staged.swap_into(&target)?;
        sync_dir(out)?;
        Ok(())
    })();
    // After a swap the temporary name is gone or holds the previous folder; either way it goes.
    staged.discard();
    written.map(|()| target)
}

/// Writes a shard's part file into `parts` (a study folder's `parts/`) whole: into a fresh temporary file
/// first, synced, then renamed into place under the output folder's lock (which [`write_study`] takes
/// too, so a part never lands in a study folder being replaced).
pub fn write_part(parts: &Path, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
    // The study folder and its parts/ are made here if missing, and must be real folders: a link planted
    // at either would send the part outside the study folder.
    if let Some(study) = parts.parent() {
        if let Some(out) = study.parent() {
            fs::create_dir_all(out)?;
        }
        real_dir(study)?;
    }
    real_dir(parts)?;
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

/// Makes folder `dir` if it is missing, and refuses anything there but a real folder (a link is not
/// followed).
fn real_dir(dir: &Path) -> io::Result<()> {
    match fs::create_dir(dir) {
        Ok(()) => return Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    if fs::symlink_metadata(dir)?.is_dir() {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} is not a folder (a link is not followed)", dir.display()),
        ))
    }
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

/// A temporary folder as a [`Destination`]: each file written there whole and synced, and named.
struct Filling<'s> {
    staged: &'s Staged,
    names: Vec<String>,
}

impl Destination for Filling<'_> {
    fn make(&mut self, name: &str, make: &mut Make<'_>) -> Result<(), ExportError> {
        let mut f = BufWriter::with_capacity(1 << 16, self.staged.new_file(name)?);
        make(&mut f)?;
        f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        self.names.push(name.to_string());
        Ok(())
    }
}

/// A temporary folder being filled, and its `.live` file, locked while this command lives.
struct Staged {
    path: PathBuf,
    live_path: PathBuf,
    /// Held for its lock, which goes with it.
    _live: File,
}

impl Staged {
    fn create(out: &Path, stem: &str) -> io::Result<Staged> {
        // Under the output folder's lock, as [`remove_stale`] runs: between creating the live file and
        // locking it, another command would take this folder for a killed command's and remove it.
        let _lock = lock_dir(out)?;
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
                _live: live,
            });
        }
    }

    /// Creates one file, which must not exist yet (so a name cannot be redirected elsewhere).
    fn new_file(&self, name: &str) -> io::Result<File> {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(self.path.join(name))
    }

    /// Writes one file whole (as [`Staged::new_file`] makes it) and syncs it.
    fn write(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        let mut f = self.new_file(name)?;
        f.write_all(bytes)?;
        f.sync_all()
    }

    /// Copies the regular files of the current study folder that `files` does not name.
    fn keep_from(&self, target: &Path, files: &[String]) -> io::Result<()> {
        let Ok(entries) = fs::read_dir(target) else {
            return Ok(());
        };
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if files.contains(&name) {
                continue;
            }
            // Not followed through a link: only what is really in the folder is kept, with its mode.
            if entry.file_type()?.is_file() {
                self.write(&name, &fs::read(entry.path())?)?;
                fs::set_permissions(self.path.join(&name), entry.metadata()?.permissions())?;
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
    /// file ([`Drop`]).
    fn discard(self) {
        drop(self);
    }
}

impl Drop for Staged {
    /// The folder goes however the command leaves it, an exporter's panic included; then the live file,
    /// last, so that an interrupted removal is still recognised as a killed command's (the live file's
    /// lock goes with the handle, after this).
    fn drop(&mut self) {
        let _ = remove_any(&self.path);
        let _ = fs::remove_file(&self.live_path);
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

    /// [`write_study`] of files already made.
    fn write_files(
        out: &Path,
        stem: &str,
        files: &[(String, Vec<u8>)],
        keep_others: bool,
    ) -> Result<PathBuf, WriteError> {
        write_study(out, stem, keep_others, &mut |destination| {
            for (name, bytes) in files {
                destination.make(name, &mut |w| Ok(w.write_all(bytes)?))?;
            }
            Ok(())
        })
    }

    fn files(list: &[(&str, &str)]) -> Vec<(String, Vec<u8>)> {
        list.iter()
            .map(|(n, b)| (n.to_string(), b.as_bytes().to_vec()))
            .collect()
    }

    /// `list` as a study's files, with a manifest.json of subdual listing them.
    fn study(list: &[(&str, &str)]) -> Vec<(String, Vec<u8>)> {
        let mut all = files(list);
        let listed: Vec<String> = list
            .iter()
            .map(|(n, b)| {
                format!(
                    "{{\"name\": \"{n}\", \"sha256\": \"{}\"}}",
                    crate::digest::sha256_hex(b.as_bytes())
                )
            })
            .collect();
        let manifest = format!(
            "{{\"tool\": \"subdual\", \"files\": [{}]}}",
            listed.join(", ")
        );
        all.push(("manifest.json".to_string(), manifest.into_bytes()));
        all
    }

    #[test]
    fn a_second_write_replaces_the_folder_whole() {
        let out = scratch("replace");
        write_files(
            &out,
            "s",
            &study(&[("a.csv", "1"), ("old.png", "x")]),
            false,
        )
        .unwrap();
        let dir = write_files(
            &out,
            "s",
            &study(&[("a.csv", "2"), ("b.json", "{}")]),
            false,
        )
        .unwrap();
        assert_eq!(names(&dir), ["a.csv", "b.json", "manifest.json"]);
        assert_eq!(fs::read_to_string(dir.join("a.csv")).unwrap(), "2");
        assert_eq!(names(&out), ["s"], "no temporary remains");
        // Adding keeps the rest.
        write_files(&out, "s", &files(&[("exact.csv", "e")]), true).unwrap();
        assert_eq!(
            names(&dir),
            ["a.csv", "b.json", "exact.csv", "manifest.json"]
        );
        fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn a_file_that_fails_while_it_is_made_leaves_the_study_folder_as_it_was() {
        let out = scratch("failed");
        let dir = write_files(&out, "s", &study(&[("a.csv", "1")]), false).unwrap();
        let failed = write_study(&out, "s", false, &mut |destination| {
            destination.make("a.csv", &mut |w| Ok(w.write_all(b"2")?))?;
            destination.make("b.csv", &mut |w| {
                w.write_all(b"half a row,")?;
                Err(io::Error::other("disk full").into())
            })
        });
        assert!(matches!(failed, Err(WriteError::Io(_))), "{failed:?}");
        assert_eq!(names(&dir), ["a.csv", "manifest.json"]);
        assert_eq!(fs::read_to_string(dir.join("a.csv")).unwrap(), "1");
        assert_eq!(names(&out), ["s"], "no temporary remains");
        fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn only_a_folder_of_subduals_files_is_its_own() {
        let out = scratch("foreign");
        let dir = out.join("s");
        let unknown = |name: &str| {
            Some(Foreign::Unknown {
                path: dir.clone(),
                name: name.to_string(),
            })
        };
        // Nothing there, an empty folder, a run's folder, an `exact` folder, a folder of parts.
        assert_eq!(foreign(&out, "s").unwrap(), None);
        fs::create_dir_all(&dir).unwrap();
        assert_eq!(foreign(&out, "s").unwrap(), None);
        write_files(&out, "s", &study(&[("a.csv", "1")]), false).unwrap();
        fs::write(dir.join("run.json"), "{}").unwrap();
        fs::write(dir.join("exact.csv"), "e").unwrap();
        fs::create_dir(dir.join("parts")).unwrap();
        fs::write(dir.join("parts").join("part-0-of-2.json"), "p").unwrap();
        assert_eq!(foreign(&out, "s").unwrap(), None);
        // The first stranger by name, a folder, a folder in parts.
        fs::write(dir.join("z.txt"), "mine").unwrap();
        fs::write(dir.join("notes.txt"), "mine").unwrap();
        assert_eq!(foreign(&out, "s").unwrap(), unknown("notes.txt"));
        fs::remove_file(dir.join("notes.txt")).unwrap();
        fs::remove_file(dir.join("z.txt")).unwrap();
        fs::create_dir(dir.join("old")).unwrap();
        assert_eq!(foreign(&out, "s").unwrap(), unknown("old"));
        fs::remove_dir(dir.join("old")).unwrap();
        fs::create_dir(dir.join("parts").join("mine")).unwrap();
        assert_eq!(foreign(&out, "s").unwrap(), unknown("parts/mine"));
        fs::remove_dir(dir.join("parts").join("mine")).unwrap();
        // A listed file edited, and a manifest that is not subdual's.
        fs::write(dir.join("a.csv"), "2").unwrap();
        assert_eq!(
            foreign(&out, "s").unwrap(),
            Some(Foreign::Edited {
                path: dir.clone(),
                name: "a.csv".to_string()
            })
        );
        fs::write(dir.join("manifest.json"), "{\"tool\": \"other\"}").unwrap();
        assert_eq!(foreign(&out, "s").unwrap(), unknown("manifest.json"));
        fs::remove_dir_all(&dir).unwrap();
        // A file in the study folder's place; the writer refuses it and leaves it.
        fs::write(&dir, "mine").unwrap();
        assert!(matches!(
            foreign(&out, "s").unwrap(),
            Some(Foreign::NotAFolder { what: "a file", .. })
        ));
        assert!(matches!(
            write_files(&out, "s", &study(&[("a.csv", "1")]), false),
            Err(WriteError::Foreign(Foreign::NotAFolder { .. }))
        ));
        assert_eq!(fs::read_to_string(&dir).unwrap(), "mine");
        assert_eq!(names(&out), ["s"], "no temporary remains");
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
        write_files(&out, "s", &files(&[("a.csv", "1")]), false).unwrap();
        assert!(!dead.exists() && !orphan.exists());
        assert!(live.path.exists() && live.live_path.exists());
        live.discard();
        assert_eq!(names(&out), ["s"]);
        fs::remove_dir_all(&out).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_link_is_refused_not_followed() {
        let out = scratch("link");
        fs::create_dir_all(&out).unwrap();
        // The study folder's name points at another folder: the writer refuses, and writes nothing there.
        let elsewhere = out.join("elsewhere");
        fs::create_dir(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, out.join("s")).unwrap();
        assert!(matches!(
            write_files(&out, "s", &study(&[("a.csv", "1")]), false),
            Err(WriteError::Foreign(Foreign::NotAFolder {
                what: "a symbolic link",
                ..
            }))
        ));
        assert!(fs::symlink_metadata(out.join("s")).unwrap().is_symlink());
        assert!(names(&elsewhere).is_empty());
        assert_eq!(names(&out), ["elsewhere", "s"], "no temporary remains");
        fs::remove_dir_all(&out).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_part_is_never_written_through_a_link() {
        let out = scratch("part-link");
        let elsewhere = out.join("elsewhere");
        fs::create_dir_all(&elsewhere).unwrap();
        // parts/ a link, then the study folder a link: refused, nothing written elsewhere.
        fs::create_dir(out.join("s")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, out.join("s").join("parts")).unwrap();
        assert!(write_part(&out.join("s").join("parts"), "p.json", b"p").is_err());
        std::os::unix::fs::symlink(&elsewhere, out.join("t")).unwrap();
        assert!(write_part(&out.join("t").join("parts"), "p.json", b"p").is_err());
        assert!(names(&elsewhere).is_empty());
        // Real folders, made as needed.
        let path = write_part(&out.join("u").join("parts"), "p.json", b"p").unwrap();
        assert_eq!(fs::read(path).unwrap(), b"p");
        fs::remove_dir_all(&out).unwrap();
    }
}
