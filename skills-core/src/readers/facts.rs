//! What the readers' rules look at, gathered once per skill from a loaded
//! set: where the skill sits, its frontmatter as our rules read it, how
//! skills-ref would cut it, and the hidden entries of its folder on disk,
//! which skills-runtime never serves but some readers do.

use std::fs;
use std::path::Path;

use rustc_hash::FxHashSet as HashSet;
use serde_json::{Map, Value};

use crate::diagnostic::Diagnostics;
use crate::frontmatter::{self, Node, Shape};
use crate::load::Loaded;
use crate::open::FileId;
use crate::options::Options;
use crate::walk::{HiddenEntry, Kind};
use crate::{Skill, relpath};

/// A hidden entry (its name or a folder above it starts with `.`) inside a
/// skill's folder, relative to that folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Hidden {
    pub path: String,
    pub kind: HiddenKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum HiddenKind {
    File {
        len: u64,
    },
    Dir,
    /// A symbolic link.
    Link,
    /// A FIFO, socket or device.
    Special,
}

impl Hidden {
    /// Whether it is inside (or is) a `.git` folder, which the `skills` CLI never copies.
    pub(super) fn in_git(&self) -> bool {
        self.path.split('/').any(|segment| segment == ".git")
    }
}

/// skills-ref's view of a frontmatter it cuts at a `---` inside it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Cut {
    /// The line of `SKILL.md` the `---` is on.
    pub line: usize,
    /// What its YAML reader gets: our reading of the text before the cut,
    /// `None` when that text is not a YAML mapping.
    pub fields: Option<Map<String, Value>>,
    /// Whether the text before the cut still holds a flow collection.
    pub flow: bool,
}

/// Everything the readers' rules need about one skill.
#[derive(Debug)]
pub(super) struct Facts<'a> {
    pub skill: &'a Skill,
    /// Which root of the load it came from.
    pub root: usize,
    /// The skill's folder relative to the root it was loaded from (`""`
    /// when the root is the skill).
    pub folder: String,
    /// Its main file, relative to the root.
    pub file: String,
    /// The main file's name on disk (`SKILL.md` unless configured).
    pub main_file: &'a str,
    /// The whole frontmatter, as our rules read it.
    pub frontmatter: Map<String, Value>,
    /// The line of the first flow collection (`{…}`, `[…]`), if any.
    pub flow_line: Option<usize>,
    /// The line of the first tab outside quoted and block scalars and
    /// comments (after a colon, inside or after an unquoted value), which
    /// PyYAML's pure-Python scanner and strictyaml's refuse.
    pub tab_line: Option<usize>,
    /// Where skills-ref ends the frontmatter, when not at its closing line.
    pub cut: Option<Cut>,
    /// The folder of the skill that holds this one, if any.
    pub enclosing: Option<String>,
    /// The hidden entries of its folder, sorted.
    pub hidden: Vec<Hidden>,
}

impl Facts<'_> {
    /// Segments of the folder below the root (0 when the root is the skill).
    pub(super) fn depth(&self) -> usize {
        if self.folder.is_empty() {
            0
        } else {
            self.folder.split('/').count()
        }
    }

    /// A top-level frontmatter field.
    pub(super) fn field(&self, key: &str) -> Option<&Value> {
        self.frontmatter.get(key)
    }
}

/// The facts of every skill of `loaded`, in its order.
pub(super) fn gather(loaded: &Loaded) -> Vec<Facts<'_>> {
    let skills = loaded.skills().skills();
    let folders: Vec<(usize, &str)> = (0..skills.len())
        .map(|index| (loaded.skill_root_index(index), loaded.skill_folder(index)))
        .collect();
    // Looked up by the folders above each skill, nearest first: a tree of
    // many skills costs no comparison of every skill with every other.
    let skill_folders: HashSet<(usize, &str)> = folders.iter().copied().collect();
    let hidden = loaded.hidden_by_skill();
    skills
        .iter()
        .enumerate()
        .map(|(index, skill)| {
            let (root, folder) = folders[index];
            let enclosing = relpath::ancestors(folder)
                .skip(1)
                .find(|above| skill_folders.contains(&(root, *above)))
                .map(str::to_owned);
            let text = std::str::from_utf8(skill.skill_md().bytes()).unwrap_or_default();
            let parsed = parse(text);
            let (frontmatter, flow_line, tab_line) = match parsed {
                Some(parsed) => (parsed.object, parsed.flow_line, parsed.tab_line),
                None => (Map::new(), None, None),
            };
            Facts {
                skill,
                root,
                folder: folder.to_owned(),
                file: relpath::join(folder, skill.main_file()),
                main_file: skill.main_file(),
                frontmatter,
                flow_line,
                tab_line,
                cut: cut(text, skill.body_offset()),
                enclosing,
                hidden: hidden_entries(loaded, index, &hidden[index]),
            }
        })
        .collect()
}

/// A frontmatter as our reader reads it, with what some readers refuse in it.
struct Parsed {
    object: Map<String, Value>,
    flow_line: Option<usize>,
    tab_line: Option<usize>,
}

/// The frontmatter of `text` as our reader reads it. `None` when it does
/// not parse to a mapping.
fn parse(text: &str) -> Option<Parsed> {
    let mut diagnostics = Diagnostics::new();
    let parsed = frontmatter::parse(text, "SKILL.md", &Options::default(), &mut diagnostics)?;
    let flow_line = parsed
        .fields
        .iter()
        .filter_map(|entry| flow_in(text, &entry.value))
        .min();
    let mut protected = Vec::new();
    for entry in &parsed.fields {
        quoted_and_block(&entry.value, &mut protected);
    }
    let yaml_end = parsed.body_offset.min(text.len());
    let tab_line = unquoted_tab(text, parsed.yaml_offset..yaml_end, &mut protected);
    Some(Parsed {
        object: parsed.object,
        flow_line,
        tab_line,
    })
}

/// The byte ranges of the quoted and block scalars of `node`, where a tab is text.
fn quoted_and_block(node: &Node, ranges: &mut Vec<std::ops::Range<usize>>) {
    match &node.shape {
        Shape::Scalar { plain: false } => ranges.push(node.range.clone()),
        Shape::Scalar { plain: true } | Shape::Sequence => {}
        Shape::Mapping(entries) => {
            for entry in entries {
                quoted_and_block(&entry.value, ranges);
            }
        }
    }
}

/// The line of the first tab in `yaml` (a range of `text`) outside the
/// `protected` ranges and comments. Linear in the text: the ranges are
/// sorted once and passed over as the scan moves on (a frontmatter of
/// 40,000 quoted values must not cost 40,000 comparisons per byte).
fn unquoted_tab(
    text: &str,
    yaml: std::ops::Range<usize>,
    protected: &mut [std::ops::Range<usize>],
) -> Option<usize> {
    protected.sort_unstable_by_key(|range| range.start);
    let mut ranges = protected.iter().peekable();
    let mut line_start = yaml.start;
    for line in text[yaml.clone()].split_inclusive('\n') {
        let bytes = line.as_bytes();
        for (index, byte) in bytes.iter().enumerate() {
            let offset = line_start + index;
            // Offsets only grow: a range that ended before this one never
            // holds a later one. The first range left starts earliest.
            while ranges.next_if(|range| range.end <= offset).is_some() {}
            if ranges.peek().is_some_and(|range| range.start <= offset) {
                continue;
            }
            // A comment: `#` at the start of a line or after a blank.
            if *byte == b'#' && (index == 0 || matches!(bytes[index - 1], b' ' | b'\t')) {
                break;
            }
            if *byte == b'\t' {
                return Some(text[..offset].matches('\n').count() + 1);
            }
        }
        line_start += line.len();
    }
    None
}

/// The line of the first flow collection in `node`.
fn flow_in(text: &str, node: &Node) -> Option<usize> {
    let opens_flow = matches!(text.as_bytes().get(node.range.start), Some(b'{' | b'['));
    match &node.shape {
        Shape::Mapping(entries) if !opens_flow => entries
            .iter()
            .filter_map(|entry| flow_in(text, &entry.value))
            .min(),
        Shape::Mapping(_) | Shape::Sequence if opens_flow => Some(node.at.line as usize),
        _ => None,
    }
}

/// Where skills-ref's `content.split("---", 2)` ends the frontmatter, when
/// that is before the closing line: the first `---` after the opening one,
/// anywhere in the text.
fn cut(text: &str, body_offset: usize) -> Option<Cut> {
    let found = text.get(3..)?.find("---")? + 3;
    // The closing line `---` starts `"---\n".len()` (or CRLF) before the body.
    let closing = text[..body_offset.min(text.len())]
        .trim_end_matches(['\n', '\r'])
        .len()
        .checked_sub(3)?;
    if found >= closing {
        return None;
    }
    let line = text[..found].matches('\n').count() + 1;
    let mut yaml = text[3..found].to_owned();
    if !yaml.ends_with('\n') {
        yaml.push('\n');
    }
    // Read the text before the cut as a SKILL.md of its own.
    let reread = format!("---{yaml}---\n");
    let (fields, flow) = match parse(&reread) {
        Some(parsed) => (Some(parsed.object), parsed.flow_line.is_some()),
        None => (None, false),
    };
    Some(Cut { line, fields, flow })
}

/// The hidden entries of the folder of the skill at `index`: those the
/// load's walk passed over (names starting with `.`, in every folder it
/// walked), and everything below a hidden folder, listed here as the walk
/// lists (each folder only if it is the one its parent's listing saw, no
/// link followed, no file read). Paths are relative to the skill's folder.
fn hidden_entries(loaded: &Loaded, index: usize, walked: &[&HiddenEntry]) -> Vec<Hidden> {
    let folder = loaded.skill_folder(index);
    let dir = loaded.skill_dir(index);
    let mut found = Vec::new();
    for (entry, id) in walked.iter().copied() {
        let path = relpath::strip_folder(&entry.rel, folder)
            .unwrap_or(&entry.rel)
            .to_owned();
        let kind = match &entry.kind {
            Kind::File { len, .. } => HiddenKind::File { len: *len },
            Kind::Dir => HiddenKind::Dir,
            Kind::Symlink { .. } => HiddenKind::Link,
            Kind::Special | Kind::NonUtf8 => HiddenKind::Special,
            Kind::Unreadable(_) => continue,
        };
        if kind == HiddenKind::Dir {
            visit(&relpath::on_disk(&dir, &path), *id, &path, &mut found);
        }
        found.push(Hidden { path, kind });
    }
    found.sort_by(|a, b| a.path.cmp(&b.path));
    found
}

/// Everything below the hidden folder `dir` (at `rel`, the folder `seen`
/// when the platform gives identities), which the load's walk does not
/// descend into. A folder that cannot be listed, or was replaced, is
/// passed over.
fn visit(dir: &Path, seen: Option<FileId>, rel: &str, found: &mut Vec<Hidden>) {
    let Ok(mut listing) = crate::open::list(dir, seen) else {
        return;
    };
    let items: Vec<fs::DirEntry> = listing.by_ref().flatten().collect();
    for item in items {
        // The entry itself, relative to the folder just opened: no link followed.
        let Ok(metadata) = item.metadata() else {
            continue;
        };
        let file_type = metadata.file_type();
        let path = relpath::join(rel, &item.file_name().to_string_lossy());
        let kind = if file_type.is_symlink() {
            HiddenKind::Link
        } else if file_type.is_dir() {
            HiddenKind::Dir
        } else if file_type.is_file() {
            HiddenKind::File {
                len: metadata.len(),
            }
        } else {
            HiddenKind::Special
        };
        if kind == HiddenKind::Dir {
            visit(&listing.path(&item), FileId::of(&metadata), &path, found);
        }
        found.push(Hidden { path, kind });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hidden entries come from the load's own walk; the inside of a
    /// hidden folder is listed only while it is the folder that walk saw.
    #[cfg(unix)]
    #[test]
    fn hidden_entries_are_those_the_walk_saw() {
        let base = std::env::temp_dir().join(format!("skills-core-hidden-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        let skill = base.join("root/pdf");
        fs::create_dir_all(skill.join(".cache/deep")).unwrap();
        fs::create_dir_all(skill.join("references")).unwrap();
        fs::create_dir_all(base.join("elsewhere")).unwrap();
        fs::write(
            skill.join("SKILL.md"),
            "---\nname: pdf\ndescription: Reads PDF files.\n---\n# PDF\n",
        )
        .unwrap();
        fs::write(skill.join(".env"), "KEY=1").unwrap();
        fs::write(skill.join("references/.notes.md"), "n").unwrap();
        fs::write(skill.join(".cache/deep/blob"), "abc").unwrap();
        fs::write(base.join("elsewhere/secret-name"), "s").unwrap();
        let loaded = crate::load(&base.join("root"), &Options::default()).unwrap();
        let paths = |loaded: &Loaded| -> Vec<(String, HiddenKind)> {
            hidden_entries(loaded, 0, &loaded.hidden_by_skill()[0])
                .into_iter()
                .map(|hidden| (hidden.path, hidden.kind))
                .collect()
        };
        assert_eq!(
            paths(&loaded),
            [
                (".cache".to_owned(), HiddenKind::Dir),
                (".cache/deep".to_owned(), HiddenKind::Dir),
                (".cache/deep/blob".to_owned(), HiddenKind::File { len: 3 }),
                (".env".to_owned(), HiddenKind::File { len: 5 }),
                (
                    "references/.notes.md".to_owned(),
                    HiddenKind::File { len: 1 }
                ),
            ]
        );
        // Swapped for a link after the walk: nothing of the link's target
        // is listed (the folder is not the one the walk saw).
        fs::remove_dir_all(skill.join(".cache")).unwrap();
        std::os::unix::fs::symlink(base.join("elsewhere"), skill.join(".cache")).unwrap();
        assert_eq!(
            paths(&loaded),
            [
                (".cache".to_owned(), HiddenKind::Dir),
                (".env".to_owned(), HiddenKind::File { len: 5 }),
                (
                    "references/.notes.md".to_owned(),
                    HiddenKind::File { len: 1 }
                ),
            ]
        );
        fs::remove_dir_all(&base).unwrap();
    }

    /// A tab counts outside quoted and block scalars and comments only,
    /// however many values the frontmatter holds and in whatever order its
    /// nodes are visited (the scan passes over sorted ranges once).
    #[test]
    fn a_tab_counts_only_outside_quoted_and_block_values() {
        let head = "---\nname: a\ndescription: \"quoted\ttab\"\nmetadata:\n";
        let quiet = format!(
            "{head}  k: 'single\ttab'\n  j: |\n    block\ttab\n  # a\tcomment\n  l: \"x\"\n---\n"
        );
        assert_eq!(parse(&quiet).unwrap().tab_line, None);
        let loud = quiet.replace("  l: \"x\"", "  l: \"x\"\n  m:\tplain");
        assert_eq!(parse(&loud).unwrap().tab_line, Some(10));
        // Many quoted values, each a range the scan passes: the tab after
        // them is still found, on its own line, and none before it.
        let keys = 40_000;
        let mut many = head.to_owned();
        for key in 0..keys {
            many.push_str(&format!("  k{key}: \"v\t{key}\"\n"));
        }
        assert_eq!(parse(&format!("{many}---\n")).unwrap().tab_line, None);
        many.push_str("  last:\tplain\n---\n");
        assert_eq!(parse(&many).unwrap().tab_line, Some(5 + keys));
        // Ranges out of order and nested are passed over the same way.
        let text = "ab\tcd\tef\tgh\n";
        let mut ranges = [6..9, 0..5, 1..3];
        assert_eq!(unquoted_tab(text, 0..text.len(), &mut ranges), Some(1));
        let mut ranges = [6..9, 0..6, 1..3, 9..11];
        assert_eq!(unquoted_tab(text, 0..text.len(), &mut ranges), None);
    }

    /// A nested skill's enclosing skill is the nearest one above it, and a
    /// hidden entry counts for every skill whose folder holds it.
    #[test]
    fn nesting_and_hidden_entries_are_found_by_the_folders_above() {
        let base = std::env::temp_dir().join(format!("skills-core-nesting-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        let root = base.join("root");
        for folder in ["outer", "outer-x", "outer/inner", "outer/mid/deep", "other"] {
            let name = folder.rsplit('/').next().unwrap();
            fs::create_dir_all(root.join(folder)).unwrap();
            fs::write(
                root.join(folder).join("SKILL.md"),
                format!(
                    "---\nname: {name}\ndescription: Does {name}. Use when asked.\n---\nBody\n"
                ),
            )
            .unwrap();
        }
        fs::write(root.join("outer/.y"), "y").unwrap();
        fs::write(root.join("outer/inner/.x"), "x").unwrap();
        fs::write(root.join("outer/mid/deep/.z"), "z").unwrap();
        fs::write(root.join(".top"), "t").unwrap();
        // `outer-x` sorts between `outer` and `outer/inner` ('-' < '/'):
        // neither its skill nor its hidden file is outer's.
        fs::write(root.join("outer-x/.w"), "w").unwrap();
        let lenient = crate::load_lenient(&root, &Options::default());
        assert!(lenient.refused().is_empty(), "{:?}", lenient.refused());
        let loaded = lenient.into_loaded();
        let facts = gather(&loaded);
        assert_eq!(facts.len(), 5);
        let of = |path: &str| facts.iter().find(|f| f.folder == path).unwrap();
        let hidden =
            |path: &str| -> Vec<&str> { of(path).hidden.iter().map(|h| h.path.as_str()).collect() };
        assert_eq!(of("outer").enclosing, None);
        assert_eq!(of("outer/inner").enclosing.as_deref(), Some("outer"));
        assert_eq!(of("outer/mid/deep").enclosing.as_deref(), Some("outer"));
        assert_eq!(of("other").enclosing, None);
        assert_eq!(of("outer-x").enclosing, None);
        assert_eq!(hidden("outer-x"), [".w"]);
        assert_eq!(hidden("outer"), [".y", "inner/.x", "mid/deep/.z"]);
        assert_eq!(hidden("outer/inner"), [".x"]);
        assert_eq!(hidden("outer/mid/deep"), [".z"]);
        assert!(hidden("other").is_empty());
        fs::remove_dir_all(&base).unwrap();
    }
}
