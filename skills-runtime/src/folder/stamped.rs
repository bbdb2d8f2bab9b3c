//! Skills installed by `skill-embed` 0.1, recognised rather than called
//! `foreign`.
//!
//! `skill-embed` keeps no record beside a skill: it stamps four keys into the
//! installed `SKILL.md`'s frontmatter (`x-embedded-by`, `-version`, `-at`,
//! `-digest`), the digest covering every regular file (path, size, bytes, in
//! directory-walk order) with those keys taken out of `SKILL.md` again. A
//! tool that moves from `skill-embed` to this crate under the same name finds
//! its old installs here: unedited ones are `outdated` (rewritten with a
//! record beside them, the stamp gone), edited ones `modified`.

use std::borrow::Cow;
use std::fs;
use std::io;
use std::path::Path;

use skills_core::{MAX_FILE_BYTES, MAX_SKILL_BYTES};

/// The keys `skill-embed` writes into the frontmatter.
const STAMP_KEYS: [&str; 4] = [
    "x-embedded-by",
    "x-embedded-version",
    "x-embedded-at",
    "x-embedded-digest",
];

/// Files an operating system leaves in a folder, which `skill-embed` ignores.
const JUNK: [&str; 4] = [".DS_Store", "Thumbs.db", "desktop.ini", ".localized"];

/// What a `skill-embed` stamp says about a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stamp {
    /// `x-embedded-by`.
    pub by: String,
    /// `x-embedded-version` (empty when missing).
    pub version: String,
    /// Whether the folder still hashes to `x-embedded-digest`.
    pub unedited: bool,
}

/// The stamp of the skill folder at `folder`, when its `SKILL.md` carries
/// one. Reads the folder without following links nor opening anything but
/// regular files, and at most one skill's bytes (a link, a FIFO or more
/// makes it unrecognisable: `None`).
pub(crate) fn read(folder: &Path) -> Option<Stamp> {
    // Opened as the loader opens a skill's files: a link, a FIFO (which
    // would block) or a device (`/dev/zero` reads forever) is no stamp.
    let skill_md =
        skills_core::open::read(&folder.join(skills_core::SKILL_MD), MAX_FILE_BYTES).ok()?;
    let fields = frontmatter_scalars(&skill_md);
    let field = |key: &str| {
        fields
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value.clone())
            .filter(|value| !value.is_empty())
    };
    let by = field("x-embedded-by")?;
    let recorded = field("x-embedded-digest")?;
    let version = field("x-embedded-version").unwrap_or_default();
    let mut files = Vec::new();
    let mut budget = MAX_SKILL_BYTES;
    collect(folder, "", &mut files, &mut budget).ok()?;
    Some(Stamp {
        by,
        version,
        unedited: digest(files) == recorded,
    })
}

/// Regular files below `dir`, skipping the writer's own record and the
/// junk `skill-embed` skips; any link or special file fails, and so do more
/// bytes than `budget` (what one skill may hold: a larger folder is no
/// skill `skill-embed` installed).
fn collect(
    dir: &Path,
    prefix: &str,
    out: &mut Vec<(String, Vec<u8>)>,
    budget: &mut u64,
) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry
            .file_name()
            .into_string()
            .map_err(|_| io::Error::other("a name that is not UTF-8"))?;
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        let kind = entry.file_type()?;
        if kind.is_dir() {
            collect(&entry.path(), &path, out, budget)?;
        } else if kind.is_file() {
            if !JUNK.contains(&name.as_str()) {
                let seen = skills_core::open::FileId::of(&entry.metadata()?);
                let bytes = skills_core::open::open(&entry.path(), seen)?.read(*budget)?;
                *budget -= bytes.len() as u64;
                out.push((path, bytes));
            }
        } else {
            return Err(io::Error::other("a link or special file"));
        }
    }
    Ok(())
}

/// `skill-embed`'s digest of a folder's files.
fn digest(mut files: Vec<(String, Vec<u8>)>) -> String {
    // Component by component: the order of a directory walk.
    files.sort_by(|a, b| a.0.split('/').cmp(b.0.split('/')));
    let mut input = Vec::new();
    for (path, bytes) in &files {
        let bytes = if path == skills_core::SKILL_MD {
            normalize(bytes)
        } else {
            Cow::Borrowed(bytes.as_slice())
        };
        input.extend_from_slice(path.as_bytes());
        input.push(0);
        input.extend_from_slice(bytes.len().to_string().as_bytes());
        input.push(0);
        input.extend_from_slice(&bytes);
    }
    skills_core::digest::of(&input).to_string()
}

/// The frontmatter block: (offset of the opening `---` line, start of the
/// YAML, end of the YAML, offset past the closing `---` line).
fn locate(src: &[u8]) -> Option<(usize, usize, usize, usize)> {
    let bom = if src.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let mut lines = LineIter { src, pos: bom };
    let (first, _, after_first) = lines.next()?;
    if !is_delimiter(first) {
        return None;
    }
    for (line, start, after) in lines {
        if is_delimiter(line) {
            return Some((bom, after_first, start, after));
        }
    }
    None
}

struct LineIter<'a> {
    src: &'a [u8],
    pos: usize,
}

impl<'a> Iterator for LineIter<'a> {
    /// (line without its newline, its start, the start of the next line)
    type Item = (&'a [u8], usize, usize);
    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.src.len() {
            return None;
        }
        let start = self.pos;
        let rest = &self.src[start..];
        let (line, next) = match rest.iter().position(|&b| b == b'\n') {
            Some(at) => (&rest[..at], start + at + 1),
            None => (rest, self.src.len()),
        };
        self.pos = next;
        Some((line, start, next))
    }
}

fn trim_end(mut line: &[u8]) -> &[u8] {
    while let [head @ .., b' ' | b'\t' | b'\r'] = line {
        line = head;
    }
    line
}

fn is_delimiter(line: &[u8]) -> bool {
    trim_end(line) == b"---"
}

/// Top-level `key: value` scalars of the frontmatter, unquoted (what
/// `skill-embed` reads its stamp from; nested content is skipped).
fn frontmatter_scalars(src: &[u8]) -> Vec<(String, String)> {
    let Some((_, start, end, _)) = locate(src) else {
        return Vec::new();
    };
    let mut fields = Vec::new();
    for (line, _, _) in (LineIter {
        src: &src[..end],
        pos: start,
    }) {
        let Ok(text) = std::str::from_utf8(trim_end(line)) else {
            continue;
        };
        if text.is_empty() || text.starts_with(['#', ' ', '\t', '-']) {
            continue;
        }
        let Some((key, value)) = text.split_once(':') else {
            continue;
        };
        let value = value.trim();
        let value = ['"', '\'']
            .iter()
            .find_map(|q| value.strip_prefix(*q).and_then(|v| v.strip_suffix(*q)))
            .unwrap_or(value);
        fields.push((key.trim().to_owned(), value.to_owned()));
    }
    fields
}

fn is_stamp_line(line: &[u8]) -> bool {
    let line = trim_end(line);
    if line.first().is_none_or(|b| matches!(b, b' ' | b'\t')) {
        return false;
    }
    let Some(colon) = line.iter().position(|&b| b == b':') else {
        return false;
    };
    std::str::from_utf8(&line[..colon]).is_ok_and(|key| STAMP_KEYS.contains(&key.trim()))
}

/// `SKILL.md` as it was before the stamp: the stamp's lines removed, and a
/// frontmatter block left holding nothing else removed with them.
fn normalize(src: &[u8]) -> Cow<'_, [u8]> {
    let Some((_, start, end, _)) = locate(src) else {
        return Cow::Borrowed(src);
    };
    let mut stripped = Vec::with_capacity(src.len());
    stripped.extend_from_slice(&src[..start]);
    let mut dropped = false;
    for (line, from, to) in (LineIter {
        src: &src[..end],
        pos: start,
    }) {
        if is_stamp_line(line) {
            dropped = true;
        } else {
            stripped.extend_from_slice(&src[from..to]);
        }
    }
    stripped.extend_from_slice(&src[end..]);
    let stripped: Cow<'_, [u8]> = if dropped {
        Cow::Owned(stripped)
    } else {
        Cow::Borrowed(src)
    };
    let Some((open, start, end, after)) = locate(&stripped) else {
        return stripped;
    };
    let blank = std::str::from_utf8(&stripped[start..end])
        .is_ok_and(|yaml| yaml.chars().all(char::is_whitespace));
    if !blank {
        return stripped;
    }
    let mut out = Vec::with_capacity(stripped.len());
    out.extend_from_slice(&stripped[..open]);
    out.extend_from_slice(&stripped[after..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stamp_is_removed_byte_for_byte() {
        let plain = b"---\nname: demo\ndescription: \"A: b\"\n---\n\n# Body\n";
        let stamped = b"---\nname: demo\ndescription: \"A: b\"\nx-embedded-by: mytool\nx-embedded-version: 1.0.0\nx-embedded-at: 2026-03-22T16:09:53Z\nx-embedded-digest: sha256:abc\n---\n\n# Body\n";
        assert_eq!(normalize(stamped).as_ref(), plain.as_slice());
        assert_eq!(normalize(plain).as_ref(), plain.as_slice());
        // A block that held only the stamp goes with it.
        let added = b"---\nx-embedded-by: t\nx-embedded-digest: d\n---\n# Body\n";
        assert_eq!(normalize(added).as_ref(), b"# Body\n".as_slice());
        // An indented line in a block scalar is content, not a key.
        let nested = b"---\nname: d\nnote: |\n  x-embedded-by: t\n---\n";
        assert_eq!(normalize(nested).as_ref(), nested.as_slice());
        let fields = frontmatter_scalars(stamped);
        assert!(fields.contains(&("x-embedded-by".into(), "mytool".into())));
        assert!(fields.contains(&("description".into(), "A: b".into())));
    }

    #[test]
    fn the_digest_walks_folders_before_their_siblings() {
        // `b/c` comes before `b.md`, as a directory walk reaches them.
        let files = vec![
            ("b.md".to_owned(), b"x".to_vec()),
            ("b/c".to_owned(), b"y".to_vec()),
        ];
        let mut input = Vec::new();
        for (path, bytes) in [("b/c", b"y"), ("b.md", b"x")] {
            input.extend_from_slice(path.as_bytes());
            input.extend_from_slice(b"\x001\x00");
            input.extend_from_slice(bytes);
        }
        assert_eq!(digest(files), skills_core::digest::of(&input).to_string());
    }
}
