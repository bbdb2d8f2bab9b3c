//! Open step: the one way to read a file that a folder's owner controls
//! (a skill's files, an installed folder's record), so that the bytes read
//! are those of the regular file the walk saw, and nothing else.
//!
//! A walk classifies each entry without following links; a later `open` of
//! the same path would follow whatever is there by then. A folder written by
//! a stranger (a cloned repository, a folder another process writes) can
//! rename a link over a file between the two, or a FIFO (whose `open`
//! blocks until a writer comes) or a device (`/dev/zero` reads forever). So
//! [`open`]:
//!
//! - opens without following a link in the last component (`O_NOFOLLOW`;
//!   on Windows `FILE_FLAG_OPEN_REPARSE_POINT`, which opens a link or
//!   junction itself, then refused as not a regular file);
//! - opens without blocking (`O_NONBLOCK`, which makes `open` of a FIFO
//!   return at once; it changes nothing for a regular file's reads) and
//!   without taking a terminal as the controlling one (`O_NOCTTY`);
//! - checks the opened handle's own metadata: a regular file, and, when the
//!   walk gave one, the very file it saw ([`FileId`]: device and inode), so
//!   a file reached through a folder swapped for a link after the walk is
//!   refused too;
//! - reads at most the limit it is given, plus one byte to know it was
//!   exceeded ([`Opened::read`]), so a file that grew is never read whole.
//!
//! A refusal ([`Refusal`]) carries the walk's own words for what it found
//! ([`Refusal::diagnostic`]).

use std::fmt;
use std::fs::{File, Metadata};
use std::io::{self, Read as _};
use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::digest::Digest;
use crate::rules::Rule;

/// Which file on which device: what makes the file a walk saw the file a
/// read opens. On Unix the device and inode numbers; elsewhere nothing is
/// compared (`FileId::of` gives `None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileId {
    device: u64,
    inode: u64,
}

impl FileId {
    /// The identity of the file `meta` describes, where the platform gives one.
    pub fn of(meta: &Metadata) -> Option<Self> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            Some(Self {
                device: meta.dev(),
                inode: meta.ino(),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            None
        }
    }
}

/// Why a file was not read.
#[derive(Debug)]
#[non_exhaustive]
pub enum Refusal {
    /// A symbolic link (or, on Windows, any reparse point) is at the path.
    Link {
        /// Where it points, as far as it could be read.
        target: String,
    },
    /// A FIFO, socket or device is at the path.
    Special,
    /// The file holds more than the limit.
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// Another file than the one the walk saw is at the path now: it was
    /// replaced, or a folder above it was.
    Replaced,
    /// The file could not be opened or read.
    Io(io::Error),
}

impl Refusal {
    /// The problem in the walk's own words, about `rel` (the path relative
    /// to the skills root).
    pub fn diagnostic(&self, rel: &str) -> Diagnostic {
        match self {
            Self::Link { target } => link_diagnostic(rel, target),
            Self::Special => special_diagnostic(rel),
            Self::TooLarge { limit } => Diagnostic::new(
                Rule::FileTooLarge,
                rel,
                format!("this file holds more than {limit} bytes, the most one file may hold"),
            )
            .hint("split it, compress it, or serve it from somewhere else"),
            Self::Replaced => Diagnostic::new(
                Rule::Io,
                rel,
                "this file was replaced while the folder was read (it is not the file the walk saw); nothing of it is used",
            )
            .hint("nothing to fix if it was an ordinary save: the next load reads it again"),
            Self::Io(error) => Diagnostic::new(
                Rule::Io,
                rel,
                format!("cannot read this file: {error}"),
            ),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Link { target } => write!(
                f,
                "a symbolic link (to `{}`), which is never followed",
                crate::printable(target)
            ),
            Self::Special => f.write_str("a FIFO, socket or device, not a regular file"),
            Self::TooLarge { limit } => write!(f, "larger than {limit} bytes"),
            Self::Replaced => f.write_str("replaced while it was read"),
            Self::Io(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for Refusal {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io(error) => Some(error),
            _ => None,
        }
    }
}

impl From<Refusal> for io::Error {
    fn from(refusal: Refusal) -> Self {
        match refusal {
            Refusal::Io(error) => error,
            other => io::Error::other(other),
        }
    }
}

/// The walk's words for a symbolic link at `rel`.
pub(crate) fn link_diagnostic(rel: &str, target: &str) -> Diagnostic {
    Diagnostic::new(
        Rule::Symlink,
        rel,
        format!(
            "this is a symbolic link (to `{target}`); links are never followed, so its content would be missing"
        ),
    )
    .hint("replace the link with a copy of what it points to")
}

/// The walk's words for a FIFO, socket or device at `rel`.
pub(crate) fn special_diagnostic(rel: &str) -> Diagnostic {
    Diagnostic::new(
        Rule::SpecialFile,
        rel,
        "this is a FIFO, socket or device, not a regular file",
    )
    .hint("remove it from the skills tree")
}

/// A regular file opened by [`open`], and its metadata as the open handle
/// gave it.
#[derive(Debug)]
pub struct Opened {
    file: File,
    metadata: Metadata,
}

/// Opens the regular file at `path` without following a link there and
/// without blocking; `seen` is the identity the walk recorded, when there
/// was a walk. See the [module](self) for what is refused.
pub fn open(path: &Path, seen: Option<FileId>) -> Result<Opened, Refusal> {
    let file = match options().open(path) {
        Ok(file) => file,
        Err(error) => return Err(refusal_of(path, error)),
    };
    let metadata = file.metadata().map_err(Refusal::Io)?;
    let kind = metadata.file_type();
    if kind.is_symlink() {
        return Err(Refusal::Link {
            target: link_target(path),
        });
    }
    if !kind.is_file() {
        return Err(Refusal::Special);
    }
    if let Some(seen) = seen
        && FileId::of(&metadata).is_some_and(|opened| opened != seen)
    {
        return Err(Refusal::Replaced);
    }
    Ok(Opened { file, metadata })
}

/// The bytes of the regular file at `path`, at most `limit` of them: what
/// a caller without a walk reads (an installed folder's record, a
/// `SKILL.md` found by name).
pub fn read(path: &Path, limit: u64) -> Result<Vec<u8>, Refusal> {
    open(path, None)?.read(limit)
}

impl Opened {
    /// The metadata of the open handle (taken when it was opened).
    pub fn metadata(&self) -> &Metadata {
        &self.metadata
    }

    /// Every byte, refused when there are more than `limit`: at most
    /// `limit + 1` are ever read, whatever the file claims its size is.
    pub fn read(&mut self, limit: u64) -> Result<Vec<u8>, Refusal> {
        let expected = self.metadata.len().min(limit);
        let mut bytes = Vec::with_capacity(usize::try_from(expected).unwrap_or(0));
        (&mut self.file)
            .take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(Refusal::Io)?;
        if bytes.len() as u64 > limit {
            return Err(Refusal::TooLarge { limit });
        }
        Ok(bytes)
    }

    /// The metadata of the open handle now (after a read, to tell whether
    /// the file changed while it was read).
    pub fn metadata_now(&self) -> io::Result<Metadata> {
        self.file.metadata()
    }

    /// The digest of every byte, refused when there are more than `limit`;
    /// read in blocks, so a large file never sits in memory whole.
    pub fn digest(&mut self, limit: u64) -> Result<Digest, Refusal> {
        let mut hasher = crate::digest::Hasher::new();
        let mut block = vec![0; 64 * 1024];
        let mut total = 0u64;
        loop {
            let read = match self.file.read(&mut block) {
                Ok(0) => break,
                Ok(read) => read,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(Refusal::Io(error)),
            };
            total += read as u64;
            if total > limit {
                return Err(Refusal::TooLarge { limit });
            }
            hasher.update(&block[..read]);
        }
        Ok(hasher.finish())
    }
}

/// Replaces the file at `path` with `bytes` through a temporary file beside
/// it, created new (`O_EXCL`: never an existing file, never through a link
/// planted at its name), then renamed over `path`; a failure leaves the old
/// file or none. For files the caller owns and nobody else writes (the
/// read cache and the macro's memo in `OUT_DIR`): the temporary's name is
/// the process's, so a name taken by a stale file or a planted link is
/// removed (the link itself, never what it points to) and tried once more.
/// Files beside a user's are written by the front ends with `tempfile`,
/// whose names nobody can predict.
pub fn replace_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write as _;
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp{}", std::process::id()));
    let temporary = path.with_file_name(name);
    let create = || {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)
    };
    let mut file = match create() {
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
            std::fs::remove_file(&temporary)?;
            create()?
        }
        other => other?,
    };
    let written = file
        .write_all(bytes)
        .and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// The entries of the folder at `path`, which must be the folder `seen`
/// (its device and inode, as its parent's listing saw it) when that is
/// given: never what a link swapped in for it points to. `read_dir` opens
/// the folder by path, following a link at the last component, so a folder
/// swapped for a link between its parent's listing and its own would have
/// the link's target listed, and every file there would then pass
/// [`open`]'s identity check (the listing saw those very files).
///
/// On Linux the folder is opened once, without following a link
/// (`O_DIRECTORY | O_NOFOLLOW`), its handle checked, and listed through that
/// handle (`/proc/self/fd/N` names the very folder opened): sound. Where
/// `/proc` is missing, and on other Unix systems, the folder's identity is
/// checked before and after it is listed by path, which narrows the window
/// to the listing itself. Each entry's metadata comes from the listing's
/// own handle either way; [`Listing::path`] gives each entry's path under
/// `path` (never under `/proc`).
#[cfg_attr(not(feature = "load"), allow(dead_code))] // the loader's walk (feature `load`) lists folders
pub(crate) fn list(path: &Path, seen: Option<FileId>) -> io::Result<Listing> {
    let Some(seen) = seen else {
        return Ok(Listing {
            folder: path.to_path_buf(),
            entries: std::fs::read_dir(path)?,
        });
    };
    #[cfg(unix)]
    {
        let handle = open_folder(path, seen)?;
        #[cfg(test)]
        AFTER_CHECK.with(|hook| {
            if let Some(hook) = hook.borrow_mut().as_mut() {
                hook(path);
            }
        });
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd as _;
            let through = std::path::PathBuf::from(format!("/proc/self/fd/{}", handle.as_raw_fd()));
            if let Ok(entries) = std::fs::read_dir(&through) {
                return Ok(Listing {
                    folder: path.to_path_buf(),
                    entries,
                });
            }
        }
        drop(handle);
        let entries = std::fs::read_dir(path)?;
        // Listed by path: the folder must still be the one seen, so the
        // entries (read lazily from the stream opened above) are its own.
        drop(open_folder(path, seen)?);
        Ok(Listing {
            folder: path.to_path_buf(),
            entries,
        })
    }
    #[cfg(not(unix))]
    {
        let _ = seen;
        Ok(Listing {
            folder: path.to_path_buf(),
            entries: std::fs::read_dir(path)?,
        })
    }
}

/// What a test does to a folder after [`list`] checked it and before it
/// lists it.
#[cfg(test)]
type ListHook = Box<dyn FnMut(&Path)>;

#[cfg(test)]
thread_local! {
    pub(crate) static AFTER_CHECK: std::cell::RefCell<Option<ListHook>> =
        const { std::cell::RefCell::new(None) };
}

/// The folder at `path`, opened without following a link, refused unless it
/// is the folder `seen`.
#[cfg(unix)]
#[cfg_attr(not(feature = "load"), allow(dead_code))] // the loader's walk (feature `load`) lists folders
fn open_folder(path: &Path, seen: FileId) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    let replaced = || {
        io::Error::other(
            "this folder was replaced while the folder above it was read (a link or another folder was put in its place); nothing in it is used",
        )
    };
    let handle = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW)
        .open(path)
        .map_err(|error| match std::fs::symlink_metadata(path) {
            Ok(meta) if !meta.is_dir() => replaced(),
            _ => error,
        })?;
    let metadata = handle.metadata()?;
    if !metadata.is_dir() || FileId::of(&metadata) != Some(seen) {
        return Err(replaced());
    }
    Ok(handle)
}

/// A folder's entries ([`list`]).
#[cfg_attr(not(feature = "load"), allow(dead_code))] // the loader's walk (feature `load`) lists folders
pub(crate) struct Listing {
    folder: std::path::PathBuf,
    entries: std::fs::ReadDir,
}

#[cfg_attr(not(feature = "load"), allow(dead_code))]
impl Listing {
    /// The path of `entry` under the folder as it was named.
    pub(crate) fn path(&self, entry: &std::fs::DirEntry) -> std::path::PathBuf {
        self.folder.join(entry.file_name())
    }
}

impl Iterator for Listing {
    type Item = io::Result<std::fs::DirEntry>;

    fn next(&mut self) -> Option<Self::Item> {
        self.entries.next()
    }
}

/// How every file is opened: read-only, no link followed at the end, no
/// blocking, no controlling terminal.
fn options() -> std::fs::OpenOptions {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::OpenOptionsExt as _;
        // FILE_FLAG_OPEN_REPARSE_POINT (winbase.h): open a link or junction
        // itself instead of what it points to. Windows has no FIFOs or
        // devices in a folder's namespace (named pipes live under `\\.\pipe\`).
        const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;
        options.custom_flags(FILE_FLAG_OPEN_REPARSE_POINT);
    }
    options
}

/// What an `open` that failed ran into: a link (`O_NOFOLLOW` fails with
/// `ELOOP` on Linux and macOS, `EMLINK` on FreeBSD, `EFTYPE` on NetBSD:
/// asked of the path itself instead), or the error as it is.
fn refusal_of(path: &Path, error: io::Error) -> Refusal {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Refusal::Link {
            target: link_target(path),
        },
        _ => Refusal::Io(error),
    }
}

fn link_target(path: &Path) -> String {
    std::fs::read_link(path)
        .map(|target| target.display().to_string())
        .unwrap_or_else(|_| "?".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn new(name: &str) -> Self {
            let dir = std::env::temp_dir()
                .join(format!("skills-core-open-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Self(dir)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_regular_file_is_read_up_to_its_limit() {
        let dir = Scratch::new("regular");
        let path = dir.0.join("a.md");
        std::fs::write(&path, "twelve bytes").unwrap();
        assert_eq!(read(&path, 12).unwrap(), b"twelve bytes");
        assert!(matches!(
            read(&path, 11),
            Err(Refusal::TooLarge { limit: 11 })
        ));
        let digest = open(&path, None).unwrap().digest(12).unwrap();
        assert_eq!(digest, crate::digest::of(b"twelve bytes"));
        assert!(matches!(
            open(&path, None).unwrap().digest(11),
            Err(Refusal::TooLarge { .. })
        ));
    }

    #[test]
    fn a_sparse_file_larger_than_the_limit_is_not_read_whole() {
        let dir = Scratch::new("sparse");
        let path = dir.0.join("big.bin");
        let file = File::create(&path).unwrap();
        file.set_len(1 << 40).unwrap(); // 1 TiB of holes: reading it whole would never end.
        drop(file);
        assert!(matches!(
            read(&path, 1024),
            Err(Refusal::TooLarge { limit: 1024 })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn links_fifos_and_devices_are_refused_without_blocking() {
        let dir = Scratch::new("special");
        let secret = dir.0.join("secret");
        std::fs::write(&secret, "outside").unwrap();
        let link = dir.0.join("link.md");
        std::os::unix::fs::symlink(&secret, &link).unwrap();
        let refusal = read(&link, 100).unwrap_err();
        assert!(matches!(&refusal, Refusal::Link { target } if target.ends_with("secret")));
        assert_eq!(refusal.diagnostic("a/link.md").rule, Rule::Symlink);
        let zero = dir.0.join("zero.md");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert!(matches!(read(&zero, 100), Err(Refusal::Link { .. })));
        // A FIFO with no writer: a plain open would wait forever.
        let fifo = dir.0.join("fifo.md");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let refusal = read(&fifo, 100).unwrap_err();
        assert!(matches!(refusal, Refusal::Special), "{refusal:?}");
        assert_eq!(refusal.diagnostic("a/fifo.md").rule, Rule::SpecialFile);
        // A device reached through a folder that became a link.
        let folder = dir.0.join("folder");
        std::os::unix::fs::symlink("/dev", &folder).unwrap();
        assert!(matches!(
            read(&folder.join("zero"), 100),
            Err(Refusal::Special)
        ));
    }

    #[cfg(unix)]
    #[test]
    fn a_replacement_never_writes_through_a_link_at_the_temporary_name() {
        let dir = Scratch::new("replace");
        let path = dir.0.join("cache");
        let victim = dir.0.join("victim");
        std::fs::write(&victim, "the user's own file").unwrap();
        let planted = dir.0.join(format!("cache.tmp{}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        replace_file(&path, b"entries").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"entries");
        assert_eq!(std::fs::read(&victim).unwrap(), b"the user's own file");
        assert!(
            std::fs::symlink_metadata(&planted).is_err(),
            "the link is gone"
        );
        replace_file(&path, b"again").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"again");
    }

    #[cfg(unix)]
    #[test]
    fn a_file_that_is_not_the_one_the_walk_saw_is_refused() {
        let dir = Scratch::new("replaced");
        let path = dir.0.join("a.md");
        std::fs::write(&path, "first").unwrap();
        let seen = FileId::of(&std::fs::symlink_metadata(&path).unwrap());
        assert_eq!(open(&path, seen).unwrap().read(100).unwrap(), b"first");
        // Another file renamed over it: same path, another inode.
        let other = dir.0.join("other");
        std::fs::write(&other, "second").unwrap();
        std::fs::rename(&other, &path).unwrap();
        let refusal = open(&path, seen).unwrap_err();
        assert!(matches!(refusal, Refusal::Replaced), "{refusal:?}");
        assert_eq!(refusal.diagnostic("a.md").rule, Rule::Io);
    }
}
