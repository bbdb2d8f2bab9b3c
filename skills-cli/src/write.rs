//! Writing beside a user's files (`skills check --fix` in a folder someone
//! else wrote, `skills init` and `skills new` in a crate), so that what is
//! written can never be redirected: the text goes to a fresh file created
//! beside the target with a name nobody can predict (`tempfile`: created
//! with `O_EXCL`, so never an existing file nor through a planted link), is
//! flushed to disk, and only then renamed over the target, which a crash
//! therefore leaves whole, old or new. A rename replaces whatever is at the
//! target's name; it never writes through a link there.
//!
//! Reading goes through [`skills_core::open`] (no link followed, no FIFO
//! opened, at most [`MAX_FILE_BYTES`]), and a replacement is renamed into
//! place only if the target is still the regular file that was read.

use std::fs::Metadata;
use std::io::{self, Write as _};
use std::path::Path;

use skills_core::MAX_FILE_BYTES;
use skills_core::open::{self, FileId};

/// A user's file as it was read: its text and what it was.
#[derive(Debug)]
pub(crate) struct Read {
    /// The file's text.
    pub text: String,
    metadata: Metadata,
}

/// Reads the UTF-8 text of the regular file at `path` ([`skills_core::open`]).
pub(crate) fn read(path: &Path) -> io::Result<Read> {
    let mut opened = open::open(path, None)?;
    let metadata = opened.metadata().clone();
    let bytes = opened.read(MAX_FILE_BYTES)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "it is not UTF-8 text"))?;
    Ok(Read { text, metadata })
}

/// Replaces the file at `path`, read as `read`, with `text`, keeping its
/// permissions; refused when `path` is no longer that regular file (it was
/// replaced, or a link was put there, since it was read).
pub(crate) fn replace(path: &Path, read: &Read, text: &str) -> io::Result<()> {
    let staged = stage(path, text)?;
    staged
        .as_file()
        .set_permissions(read.metadata.permissions())?;
    let now = std::fs::symlink_metadata(path)?;
    if !now.file_type().is_file() || FileId::of(&now) != FileId::of(&read.metadata) {
        return Err(io::Error::other(
            "it changed while it was being rewritten (replaced, or a link put in its place); left as it is",
        ));
    }
    staged.persist(path).map_err(|error| error.error)?;
    Ok(())
}

/// Creates the file `path` holding `text`, and the folders above it; fails
/// when anything is already there (a file, a link, a FIFO), which it never
/// touches.
pub(crate) fn create(path: &Path, text: &str) -> io::Result<()> {
    if let Some(folder) = path
        .parent()
        .filter(|folder| !folder.as_os_str().is_empty())
    {
        std::fs::create_dir_all(folder)?;
    }
    let staged = stage(path, text)?;
    staged
        .persist_noclobber(path)
        .map_err(|error| error.error)?;
    Ok(())
}

/// `text` in a fresh hidden file beside `path` (a check running meanwhile
/// never reads a hidden name as part of a skill), flushed to disk.
fn stage(path: &Path, text: &str) -> io::Result<tempfile::NamedTempFile> {
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let mut staged = tempfile::Builder::new()
        .prefix(&format!(".{name}.skills-"))
        .tempfile_in(folder)?;
    staged.write_all(text.as_bytes())?;
    staged.as_file().sync_all()?;
    Ok(staged)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn new(name: &str) -> Self {
            let dir = std::env::temp_dir()
                .join(format!("skills-cli-write-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Self(dir)
        }

        fn names(&self) -> Vec<String> {
            let mut names: Vec<String> = std::fs::read_dir(&self.0)
                .unwrap()
                .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_replacement_keeps_permissions_and_leaves_nothing_beside() {
        let dir = Scratch::new("replace");
        let path = dir.0.join("SKILL.md");
        std::fs::write(&path, "old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        }
        let read = read(&path).unwrap();
        assert_eq!(read.text, "old");
        replace(&path, &read, "new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(dir.names(), ["SKILL.md"]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_file_swapped_for_a_link_after_the_read_is_left_alone() {
        let dir = Scratch::new("swapped");
        let path = dir.0.join("SKILL.md");
        let victim = dir.0.join("victim");
        std::fs::write(&path, "old").unwrap();
        std::fs::write(&victim, "the user's file").unwrap();
        let read = read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink(&victim, &path).unwrap();
        let error = replace(&path, &read, "planted").unwrap_err();
        assert!(error.to_string().contains("changed while"), "{error}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "the user's file");
        assert!(
            std::fs::symlink_metadata(&path)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(dir.names(), ["SKILL.md", "victim"], "no staging file left");
    }

    #[cfg(unix)]
    #[test]
    fn links_and_fifos_are_not_read() {
        let dir = Scratch::new("read");
        let victim = dir.0.join("victim");
        std::fs::write(&victim, "secret").unwrap();
        let link = dir.0.join("link.md");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        assert!(read(&link).is_err());
        let fifo = dir.0.join("fifo.md");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        assert!(read(&fifo).is_err(), "and without blocking");
    }

    #[test]
    fn creating_never_touches_what_is_there() {
        let dir = Scratch::new("create");
        let path = dir.0.join("new/SKILL.md");
        create(&path, "first").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first");
        assert!(create(&path, "second").is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first");
        #[cfg(unix)]
        {
            let victim = dir.0.join("victim");
            std::fs::write(&victim, "the user's file").unwrap();
            let link = dir.0.join("planted.md");
            std::os::unix::fs::symlink(&victim, &link).unwrap();
            assert!(create(&link, "text").is_err());
            assert_eq!(std::fs::read_to_string(&victim).unwrap(), "the user's file");
        }
    }
}
