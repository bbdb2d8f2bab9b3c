//! Parse step: `SKILL.md` bytes → checked UTF-8 → frontmatter slice → YAML
//! events → a located tree → the frontmatter as canonical JSON.
//!
//! YAML is read with serde-saphyr's parser, granit-parser,
//! event by event, because the checks hosts need live at the event level: a
//! resolved value no longer knows whether it was quoted, anchored or tagged,
//! nor where it was written. Every position reported here is a line and
//! column of `SKILL.md` itself, not of the frontmatter slice.

use granit_parser::{
    Event, Marker, Options as ParserOptions, Parser, ScalarStyle, ScanError, Span,
};
use rustc_hash::FxHashMap as HashMap;
use serde_json::{Map, Value};

use std::ops::Range;

use crate::MAX_FRONTMATTER_BYTES;
use crate::diagnostic::{Diagnostic, Diagnostics, Position, saturating_u32};
use crate::options::Options;
use crate::rules::Rule;
use crate::scalar::{self, Plain, quoted};
use crate::syntax;

/// A parsed `SKILL.md`.
#[derive(Debug)]
pub(crate) struct Frontmatter {
    /// Top-level entries, in the order written.
    pub fields: Vec<Entry>,
    /// Every field as JSON, keys sorted at every level.
    pub object: Map<String, Value>,
    /// Every field but `name` and `description`, as a JSON object with
    /// sorted keys (those two are kept as plain strings beside it).
    pub extra_json: String,
    /// Byte offset of the body: just after the closing `---` line.
    pub body_offset: usize,
    /// Byte offset of the YAML: just after the opening `---` line.
    pub yaml_offset: usize,
}

/// One `key: value` entry with where it was written.
#[derive(Debug)]
pub(crate) struct Entry {
    pub key: String,
    /// The key's path from the top (`metadata.beta`), for messages.
    pub path: String,
    pub key_at: Position,
    /// Byte range of the key in `SKILL.md`.
    pub key_range: Range<usize>,
    pub value: Node,
}

/// A YAML node, its JSON value, and where it starts.
#[derive(Debug)]
pub(crate) struct Node {
    pub at: Position,
    pub value: Value,
    pub shape: Shape,
    /// Byte range of the node in `SKILL.md` (the whole collection for one).
    pub range: Range<usize>,
    /// A plain scalar exactly as written (`1.10`), which its JSON value may
    /// not keep (`1.1`).
    pub raw: Option<String>,
}

/// What a node was written as, for messages that depend on it.
#[derive(Debug)]
pub(crate) enum Shape {
    /// A scalar; `plain` when it was written without quotes or block style.
    Scalar {
        plain: bool,
    },
    Sequence,
    Mapping(Vec<Entry>),
}

impl Frontmatter {
    /// The entry for `key`, if written.
    pub(crate) fn get(&self, key: &str) -> Option<&Entry> {
        self.fields.iter().find(|entry| entry.key == key)
    }
}

impl Node {
    /// The value as the author wrote it, for messages: the raw text of a
    /// plain scalar, the JSON of anything else.
    pub(crate) fn as_written(&self) -> String {
        match (&self.raw, &self.value) {
            (Some(raw), _) => raw.clone(),
            (None, Value::String(text)) => text.clone(),
            (None, value) => value.to_string(),
        }
    }
}

/// Checks that `bytes` is UTF-8 text: no BOM, not UTF-16, valid UTF-8, no NUL.
pub(crate) fn check_encoding<'a>(
    bytes: &'a [u8],
    file: &str,
    diagnostics: &mut Diagnostics,
) -> Option<&'a str> {
    let problem = |message: &str, hint: &str| {
        Diagnostic::new(Rule::Encoding, file, message)
            .at(1, 1)
            .hint(hint)
    };
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        // The mark is U+FEFF in the text, three bytes: removing them is
        // the fix the hint asks for (`skills check --fix` applies it).
        diagnostics.push(
            problem(
                "SKILL.md starts with a UTF-8 byte-order mark (BOM); the reference validator and many hosts reject it",
                "save the file as UTF-8 without BOM",
            )
            .fix(0..3, ""),
        );
        return None;
    }
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        diagnostics.push(problem(
            "SKILL.md is UTF-16 encoded; skills must be UTF-8",
            "re-save the file as UTF-8 (PowerShell: `Set-Content -Encoding utf8NoBOM`)",
        ));
        return None;
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => {
            let valid = std::str::from_utf8(&bytes[..error.valid_up_to()]).unwrap_or_default();
            let at = Position::of_offset(valid, valid.len());
            diagnostics.push(
                Diagnostic::new(
                    Rule::Encoding,
                    file,
                    format!(
                        "SKILL.md is not valid UTF-8: byte 0x{:02X} at offset {} starts no character",
                        bytes[error.valid_up_to()],
                        error.valid_up_to()
                    ),
                )
                .at(at.line, at.column)
                .hint("re-save the file as UTF-8 (it may be Latin-1 or Windows-1252)"),
            );
            return None;
        }
    };
    if let Some(nul) = text.find('\0') {
        let at = Position::of_offset(text, nul);
        diagnostics.push(
            Diagnostic::new(Rule::Encoding, file, "SKILL.md contains a NUL character")
                .at(at.line, at.column)
                .hint("remove it; SKILL.md must be plain UTF-8 text"),
        );
        return None;
    }
    Some(text)
}

/// Where the frontmatter sits in `SKILL.md`.
struct Split {
    /// Byte range of the YAML between the two `---` lines.
    yaml: std::ops::Range<usize>,
    /// Byte offset of the body.
    body: usize,
}

/// Finds the line-anchored `---` delimiters. The frontmatter ends at the first
/// line that is exactly `---` (CRLF accepted).
fn split(text: &str, file: &str, diagnostics: &mut Diagnostics) -> Option<Split> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or_default();
    let first_content = first.trim_end_matches(['\n', '\r']);
    if first_content != "---" {
        let (message, hint) = if first_content.trim_end() == "---" {
            (
                "the opening `---` line has trailing whitespace; some hosts (`npx skills`) then skip the skill".to_owned(),
                "make the first line exactly `---`",
            )
        } else if first_content.contains('\r') {
            (
                "SKILL.md uses bare CR (old Mac) line endings".to_owned(),
                "convert the file to LF (or CRLF) line endings",
            )
        } else if first_content.trim().is_empty() && text.trim_start().starts_with("---") {
            (
                "SKILL.md starts with blank lines before the opening `---`".to_owned(),
                "delete the blank lines so that `---` is the very first line",
            )
        } else {
            (
                "SKILL.md must start with a `---` line that opens the YAML frontmatter".to_owned(),
                "start the file with `---`, then `name:` and `description:`, then a closing `---` line",
            )
        };
        diagnostics.push(
            Diagnostic::new(Rule::FrontmatterStart, file, message)
                .at(1, 1)
                .hint(hint),
        );
        return None;
    }
    let yaml_start = first.len();
    let mut offset = yaml_start;
    for (index, line) in lines.enumerate() {
        let content = line.trim_end_matches(['\n', '\r']);
        if content == "---" {
            return Some(Split {
                yaml: yaml_start..offset,
                body: offset + line.len(),
            });
        }
        if content.trim_end() == "---" {
            diagnostics.push(
                Diagnostic::new(
                    Rule::FrontmatterEnd,
                    file,
                    "the closing `---` line has trailing whitespace; hosts disagree on whether it closes the frontmatter",
                )
                .at(saturating_u32(index + 2), 1)
                .hint("make the closing line exactly `---`"),
            );
            return None;
        }
        offset += line.len();
    }
    diagnostics.push(
        Diagnostic::new(
            Rule::FrontmatterEnd,
            file,
            "the frontmatter opened on line 1 is never closed by a `---` line",
        )
        .at(1, 1)
        .hint("add a line that is exactly `---` after the last frontmatter field"),
    );
    None
}

/// Parses the frontmatter of `SKILL.md` (`text` is its whole content).
/// Reports every problem it finds; returns `None` when there is no usable
/// mapping (lint problems still give one, with harmless fallback values).
pub(crate) fn parse(
    text: &str,
    file: &str,
    options: &Options,
    diagnostics: &mut Diagnostics,
) -> Option<Frontmatter> {
    let split = split(text, file, diagnostics)?;
    let size = split.yaml.len();
    if size > MAX_FRONTMATTER_BYTES {
        diagnostics.push(
            Diagnostic::new(
                Rule::FrontmatterTooLarge,
                file,
                format!(
                    "the frontmatter is {size} bytes, {} over the {MAX_FRONTMATTER_BYTES} bytes (1 MiB) it may hold; every host reads it for every skill at start-up",
                    size - MAX_FRONTMATTER_BYTES
                ),
            )
            .at(2, 1)
            .hint("keep `name`, `description` and a few short fields in the frontmatter; put long text in the body or in a file of the skill"),
        );
        return None;
    }
    let yaml = &text[split.yaml.clone()];
    let first_line = saturating_u32(text[..split.yaml.start].matches('\n').count());
    let mut reader = Reader {
        parser: Parser::new_from_str_with_options(yaml, parser_options()),
        yaml,
        lines: Lines::new(yaml),
        offset: split.yaml.start,
        file,
        first_line,
        options,
        path: Vec::new(),
        problems: Vec::new(),
    };
    let root = match reader.document() {
        Ok(root) => root,
        Err(error) => {
            let at = reader.position(error.marker());
            diagnostics.push(syntax::diagnose(
                text,
                split.yaml.clone(),
                at,
                &error.info(),
                file,
            ));
            return None;
        }
    };
    let problems = std::mem::take(&mut reader.problems);
    let root = root.or_else(|| {
        diagnostics.push(
            Diagnostic::new(Rule::NotAMapping, file, "the frontmatter is empty")
                .at(2, 1)
                .hint("add at least `name:` and `description:` between the `---` lines"),
        );
        None
    });
    for problem in problems {
        diagnostics.push(problem);
    }
    let root = root?;
    let Shape::Mapping(fields) = root.shape else {
        diagnostics.push(
            Diagnostic::new(
                Rule::NotAMapping,
                file,
                "the frontmatter must be a YAML mapping of `key: value` lines",
            )
            .at(root.at.line, root.at.column)
            .hint("write one `key: value` per line, starting with `name:` and `description:`"),
        );
        return None;
    };
    // Lint problems (anchors, ambiguous scalars, …) leave a usable tree with
    // harmless fallback values, so the field rules still run and report too.
    // A BTreeMap keeps the keys sorted whatever serde_json's features are
    // (with `preserve_order`, `Map::remove` would move the last key).
    let object = match root.value {
        Value::Object(object) => object,
        _ => Map::new(),
    };
    let extra: std::collections::BTreeMap<&str, &Value> = object
        .iter()
        .filter(|(key, _)| !matches!(key.as_str(), "name" | "description"))
        .map(|(key, value)| (key.as_str(), value))
        .collect();
    let extra_json = serde_json::to_string(&extra).expect("a JSON value always serializes");
    Some(Frontmatter {
        fields,
        object,
        extra_json,
        body_offset: split.body,
        yaml_offset: split.yaml.start,
    })
}

fn parser_options() -> ParserOptions {
    let mut options = ParserOptions::default();
    // A directive (%YAML, %TAG) changes how the rest is read; no host expects one.
    options.disallow_directives = true;
    // As PyYAML does; our slice always ends with a line break anyway.
    options.block_scalar_eof_without_line_feed = true;
    options
}

struct Reader<'a> {
    parser: Parser<'a, granit_parser::StrInput<'a>>,
    yaml: &'a str,
    /// Line and column of a byte of `yaml`, in time linear in the YAML.
    lines: Lines<'a>,
    /// Byte offset of `yaml` in `SKILL.md`.
    offset: usize,
    file: &'a str,
    options: &'a Options,
    /// The keys (and `[n]` list positions) leading to the node being read.
    path: Vec<String>,
    /// Line of `SKILL.md` just before the YAML slice (the opening `---`).
    first_line: u32,
    /// Problems found in well-formed YAML; reported after parsing succeeds.
    problems: Vec<Diagnostic>,
}

impl<'a> Reader<'a> {
    /// Where `marker` lies in `SKILL.md`, with lines counted at `\n` as
    /// everywhere else: the parser also breaks lines at a bare `\r` (YAML
    /// does), so its own line and column would point past the file.
    fn position(&self, marker: &Marker) -> Position {
        let byte = match marker.byte_offset() {
            Some(byte) => byte,
            None => self.lines.byte_of_char(marker.index()),
        };
        self.position_of(byte)
    }

    /// Where byte `byte` of the YAML lies in `SKILL.md`.
    fn position_of(&self, byte: usize) -> Position {
        // The slice starts a line (right after the opening `---` line).
        let inside = self.lines.position(byte);
        Position {
            line: self.first_line.saturating_add(inside.line),
            column: inside.column,
        }
    }

    /// The byte range of `span` in `SKILL.md`.
    fn range(&self, span: &Span) -> Range<usize> {
        let start = span.start.byte_offset().unwrap_or(0) + self.offset;
        let end = span.end.byte_offset().unwrap_or(0) + self.offset;
        start..end.max(start)
    }

    /// The path of the node being read (`metadata.beta`, `x-list[0]`).
    fn path(&self) -> String {
        let mut out = String::new();
        for segment in &self.path {
            if !out.is_empty() && !segment.starts_with('[') {
                out.push('.');
            }
            out.push_str(segment);
        }
        out
    }

    /// ` in `path`` for messages about a node, or nothing at the top.
    fn within(&self) -> String {
        let path = self.path();
        if path.is_empty() {
            String::new()
        } else {
            format!(" (in `{path}`)")
        }
    }

    fn next(&mut self) -> Result<Option<(Event<'a>, Span)>, ScanError> {
        self.parser.next_event().transpose()
    }

    fn problem(&mut self, rule: Rule, at: Position, message: String, hint: &str) {
        self.problems.push(
            Diagnostic::new(rule, self.file, message)
                .at(at.line, at.column)
                .hint(hint),
        );
    }

    /// The single document of the frontmatter, or `None` if it is empty.
    fn document(&mut self) -> Result<Option<Node>, ScanError> {
        let mut root = None;
        let mut documents = 0;
        while let Some((event, span)) = self.next()? {
            match event {
                Event::DocumentStart(..) => {
                    documents += 1;
                    if documents > 1 {
                        let at = self.position(&span.start);
                        self.problem(
                            Rule::YamlSyntax,
                            at,
                            "the frontmatter holds more than one YAML document".to_owned(),
                            "remove the `...` line and whatever follows it inside the frontmatter",
                        );
                    }
                }
                Event::StreamEnd => break,
                Event::Scalar(..)
                | Event::SequenceStart(..)
                | Event::MappingStart(..)
                | Event::Alias(..) => {
                    let node = self.node(event, span)?;
                    let empty = matches!(node.value, Value::Null)
                        && matches!(node.shape, Shape::Scalar { plain: true });
                    if root.is_none() && !empty {
                        root = Some(node);
                    }
                }
                _ => {}
            }
        }
        Ok(root)
    }

    /// The next node event that is not presentation (comments).
    fn next_node(&mut self) -> Result<(Event<'a>, Span), ScanError> {
        loop {
            match self.next()? {
                Some((
                    event @ (Event::Scalar(..)
                    | Event::SequenceStart(..)
                    | Event::MappingStart(..)
                    | Event::SequenceEnd
                    | Event::MappingEnd
                    | Event::Alias(..)),
                    span,
                )) => return Ok((event, span)),
                Some(_) => continue,
                None => {
                    return Err(ScanError::new(
                        span_end(self.yaml),
                        "unexpected end of the frontmatter",
                    ));
                }
            }
        }
    }

    fn properties(&mut self, at: Position, anchor: usize, tag: Option<String>) {
        if anchor != 0 {
            self.problem(
                Rule::YamlAnchor,
                at,
                format!("YAML anchors (`&name`) are not allowed in frontmatter{}", self.within()),
                "write the value out in full; hosts compare frontmatter field by field and some reject anchors",
            );
        }
        if let Some(tag) = tag {
            self.problem(
                Rule::YamlTag,
                at,
                format!(
                    "the YAML tag `{tag}` is not allowed in frontmatter{}",
                    self.within()
                ),
                "remove the tag; quote the value if it must stay text",
            );
        }
    }

    fn node(&mut self, event: Event<'a>, span: Span) -> Result<Node, ScanError> {
        let at = self.position(&span.start);
        let range = self.range(&span);
        match event {
            Event::Scalar(text, style, anchor, tag) => {
                self.properties(at, anchor, tag.map(|tag| tag.original()));
                let plain = style == ScalarStyle::Plain;
                let raw = plain.then(|| {
                    span.slice(self.yaml)
                        .map_or_else(|| text.to_string(), str::to_owned)
                });
                if plain && !text.is_empty() {
                    self.comment_after(&text, range.clone());
                }
                let value = if plain {
                    self.plain_value(&text, at, range.clone())
                } else {
                    Value::String(text.into_owned())
                };
                Ok(Node {
                    at,
                    value,
                    shape: Shape::Scalar { plain },
                    range,
                    raw,
                })
            }
            Event::SequenceStart(_, anchor, tag) => {
                self.properties(at, anchor, tag.map(|tag| tag.original()));
                let mut items = Vec::new();
                let mut end = range.end;
                let flow = self.yaml.as_bytes().get(range.start - self.offset) == Some(&b'[');
                loop {
                    let (event, span) = self.next_node()?;
                    if matches!(event, Event::SequenceEnd) {
                        // A flow list ends at its `]`; a block list at its
                        // last item (its end event sits at the next token).
                        if flow {
                            end = end.max(self.range(&span).end);
                        }
                        break;
                    }
                    self.path.push(format!("[{}]", items.len()));
                    let item = self.node(event, span);
                    self.path.pop();
                    let item = item?;
                    end = end.max(item.range.end);
                    items.push(item);
                }
                Ok(Node {
                    at,
                    value: Value::Array(items.iter().map(|item| item.value.clone()).collect()),
                    shape: Shape::Sequence,
                    range: range.start..end,
                    raw: None,
                })
            }
            Event::MappingStart(_, anchor, tag) => {
                self.properties(at, anchor, tag.map(|tag| tag.original()));
                self.mapping(at, range.start)
            }
            Event::Alias(_) => {
                let name = span.slice(self.yaml).unwrap_or("*").to_owned();
                self.problem(
                    Rule::YamlAnchor,
                    at,
                    format!(
                        "YAML aliases (`{name}`) are not allowed in frontmatter{}",
                        self.within()
                    ),
                    "write the value out in full instead of referring to an anchor",
                );
                Ok(Node {
                    at,
                    value: Value::Null,
                    shape: Shape::Scalar { plain: true },
                    range,
                    raw: None,
                })
            }
            _ => Err(ScanError::new(span.start, "unexpected YAML event")),
        }
    }

    fn mapping(&mut self, at: Position, start: usize) -> Result<Node, ScanError> {
        let mut entries: Vec<Entry> = Vec::new();
        // Each key's entry, so that a duplicate is found without a scan
        // of the keys before it (a mapping of 40,000 keys is valid YAML).
        let mut seen: HashMap<String, usize> = HashMap::default();
        let mut end = start;
        loop {
            let (event, span) = self.next_node()?;
            if matches!(event, Event::MappingEnd) {
                break;
            }
            let key_at = self.position(&span.start);
            let key_range = self.range(&span);
            let key = match &event {
                Event::Scalar(text, style, _, _) => {
                    let plain = *style == ScalarStyle::Plain;
                    if plain && text == "<<" {
                        self.problem(
                            Rule::MergeKey,
                            key_at,
                            "YAML merge keys (`<<`) are not allowed in frontmatter".to_owned(),
                            "write every key out in full",
                        );
                        None
                    } else if plain && !matches!(scalar::resolve(text), Ok(Plain::Str)) {
                        let mut path = self.path();
                        if !path.is_empty() {
                            path.push('.');
                        }
                        self.problems.push(
                            Diagnostic::new(
                                Rule::ComplexKey,
                                self.file,
                                format!("the key `{path}{text}` is not read as text by every YAML reader"),
                            )
                            .at(key_at.line, key_at.column)
                            .length(text.chars().count())
                            .hint(format!("quote the key: `{}:`", quoted(text)))
                            .fix(key_range.clone(), quoted(text)),
                        );
                        None
                    } else {
                        Some(text.to_string())
                    }
                }
                _ => {
                    self.problem(
                        Rule::ComplexKey,
                        key_at,
                        "frontmatter keys must be plain text, not lists, mappings or aliases"
                            .to_owned(),
                        "use a simple `key: value` entry",
                    );
                    None
                }
            };
            // A scalar key still needs its anchor and tag checked; any other
            // key is walked so that its events are consumed.
            match event {
                Event::Scalar(_, _, anchor, tag) => {
                    self.properties(key_at, anchor, tag.map(|tag| tag.original()));
                }
                event => {
                    self.node(event, span)?;
                }
            }
            let (value_event, value_span) = self.next_node()?;
            self.path
                .push(key.clone().unwrap_or_else(|| "?".to_owned()));
            let path = self.path();
            let value = self.node(value_event, value_span);
            self.path.pop();
            let value = value?;
            end = end.max(value.range.end).max(key_range.end);
            let Some(key) = key else { continue };
            if let Some(&first) = seen.get(&key) {
                let first_line = entries[first].key_at.line;
                self.problems.push(
                    Diagnostic::new(
                        Rule::DuplicateKey,
                        self.file,
                        format!("`{path}` is set twice (first on line {first_line})"),
                    )
                    .at(key_at.line, key_at.column)
                    .length(key.chars().count())
                    .hint("keep one of the two entries; hosts disagree on which one wins"),
                );
                continue;
            }
            seen.insert(key.clone(), entries.len());
            entries.push(Entry {
                key,
                path,
                key_at,
                key_range,
                value,
            });
        }
        let mut sorted: Vec<&Entry> = entries.iter().collect();
        sorted.sort_by(|a, b| a.key.cmp(&b.key));
        let mut object = Map::new();
        for entry in sorted {
            object.insert(entry.key.clone(), entry.value.value.clone());
        }
        Ok(Node {
            at,
            value: Value::Object(object),
            shape: Shape::Mapping(entries),
            range: start..end,
            raw: None,
        })
    }

    /// Refuses a comment that follows the plain scalar `text` (written at
    /// `range` of `SKILL.md`) on its last line: `description: Counts stock
    /// #inventory and explains variances.` is read as `Counts stock`, and
    /// nothing says so. A comment on a line of its own, or after a quoted
    /// value, cuts nothing and passes.
    fn comment_after(&mut self, text: &str, range: Range<usize>) {
        let Some(end) = range.end.checked_sub(self.offset) else {
            return;
        };
        let Some(rest) = self.yaml.get(end..) else {
            return;
        };
        let line = rest.split('\n').next().unwrap_or_default();
        let line = line.strip_suffix('\r').unwrap_or(line);
        let comment = line.trim_start_matches([' ', '\t']);
        if !comment.starts_with('#') || comment.len() == line.len() {
            return;
        }
        let gap = &line[..line.len() - comment.len()];
        let comment_start = end + gap.len();
        let comment_end = end + line.len();
        let Some(start) = range.start.checked_sub(self.offset) else {
            return;
        };
        let Some(written) = self.yaml.get(start..end) else {
            return;
        };
        let at = self.position_of(comment_start);
        let path = self.path();
        let subject = if path.is_empty() {
            String::new()
        } else {
            format!("`{path}`: ")
        };
        let whole = quoted(&format!("{written}{gap}{comment}"));
        let key = self.path.last().filter(|key| !key.starts_with('['));
        let with_key = |value: &str| match key {
            Some(key) => format!("`{key}: {value}`"),
            None => format!("`{value}`"),
        };
        let shown = one_line_text(text);
        let mut diagnostic = Diagnostic::new(
            Rule::InlineComment,
            self.file,
            format!(
                "{subject}` {comment}` starts a YAML comment, so the value is cut short: readers see `{shown}`"
            ),
        )
        .at(at.line, at.column)
        .length(comment.chars().count());
        // A `name` can never hold ` #`: the comment goes on a line of its
        // own above the key. Any other value keeps the text, quoted.
        let (hint, fix) = if self.path.len() == 1 && key.is_some_and(|key| key == "name") {
            let line_start = self.yaml[..end]
                .rfind('\n')
                .map_or(0, |newline| newline + 1);
            let line_text = &self.yaml[line_start..end];
            let indent =
                &line_text[..line_text.len() - line_text.trim_start_matches([' ', '\t']).len()];
            (
                format!(
                    "put the comment on a line of its own: `{indent}{comment}` above `{}`",
                    line_text.trim_start()
                ),
                (
                    self.offset + line_start..self.offset + comment_end,
                    format!("{indent}{comment}\n{line_text}"),
                ),
            )
        } else {
            (
                format!(
                    "quote the value to keep all of it: {}; if the `#` starts a note for readers, put that comment on a line of its own",
                    with_key(&whole)
                ),
                (self.offset + start..self.offset + comment_end, whole),
            )
        };
        // A value continued over lines, or a tab, would break the hint's
        // one line: then it says what to do without quoting the text.
        let hint = if hint.contains(char::is_control) {
            "quote the value, from its first word to the end of the comment, to keep all of it; if the `#` starts a note for readers, put that comment on a line of its own".to_owned()
        } else {
            hint
        };
        diagnostic = diagnostic.hint(hint).fix(fix.0, fix.1);
        self.problems.push(diagnostic);
    }

    fn plain_value(&mut self, text: &str, at: Position, range: Range<usize>) -> Value {
        match scalar::resolve(text) {
            Ok(Plain::Str) => Value::String(text.to_owned()),
            Ok(Plain::Null) => Value::Null,
            Ok(Plain::Bool(value)) => Value::Bool(value),
            Ok(Plain::Int(value)) => Value::from(value),
            Ok(Plain::Float(value)) => Value::from(value),
            Err(ambiguity) => {
                let path = self.path();
                let subject = if path.is_empty() {
                    format!("`{text}`")
                } else {
                    format!("`{path}`: `{text}`")
                };
                let message = if ambiguity.yaml11 == ambiguity.yaml12 {
                    format!(
                        "{subject} is a {} in a form that JSON and other YAML readers do not share",
                        ambiguity.yaml11
                    )
                } else {
                    format!(
                        "{subject} is read as a {} by YAML 1.1 readers (PyYAML, used by fast-agent) and as a {} by YAML 1.2 readers",
                        ambiguity.yaml11, ambiguity.yaml12
                    )
                };
                // Quoting keeps the author's text and is always accepted; a
                // typed value is offered only where the rules take one.
                let key = self
                    .path
                    .last()
                    .map_or_else(|| text.to_owned(), |key| key.clone());
                let quoted = quoted(text);
                let takes_any_type = !self.options.must_be_string(&self.path);
                let hint = match ambiguity.yaml11 {
                    "boolean" if takes_any_type => format!(
                        "quote it (`{key}: {quoted}`) to keep the text, or write `true`/`false`"
                    ),
                    "integer" | "float" if takes_any_type && ambiguity.yaml12 != "string" => {
                        format!(
                            "quote it (`{key}: {quoted}`) to keep the text, or write a plain decimal number"
                        )
                    }
                    _ => format!("quote it: `{key}: {quoted}`"),
                };
                self.problems.push(
                    Diagnostic::new(Rule::AmbiguousScalar, self.file, message)
                        .at(at.line, at.column)
                        .length(text.chars().count())
                        .hint(hint)
                        .fix(range, quoted),
                );
                Value::String(text.to_owned())
            }
        }
    }
}

/// `text` on one line, for a message (a folded scalar keeps no line break,
/// but a value cut short may be long): at most 60 characters.
fn one_line_text(text: &str) -> String {
    let mut shown: String = text.chars().take(60).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    shown
}

fn span_end(yaml: &str) -> Marker {
    let lines = yaml.matches('\n').count();
    Marker::new(yaml.chars().count(), lines.max(1), 0)
}

/// Line and column (1-based, columns in characters, lines broken at `\n`
/// only) of bytes of one text, each in time independent of where it lies:
/// the start of every line is found once, and the columns of positions asked
/// in order along one long line (a flow mapping of thousands of keys) are
/// counted on from the last one, so reading a frontmatter costs time linear
/// in its size, not quadratic.
struct Lines<'a> {
    text: &'a str,
    /// Byte offset of the start of each line.
    starts: Vec<usize>,
    /// The last position given: its byte and column, on the line it
    /// names (an index into `starts`).
    last: std::cell::Cell<(usize, usize, usize)>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(newline, _)| newline + 1));
        Self {
            text,
            starts,
            last: std::cell::Cell::new((0, 0, 1)),
        }
    }

    /// The position of byte `byte` (clamped to the text, and back to the
    /// start of its character), as [`Position::of_offset`] gives it.
    fn position(&self, byte: usize) -> Position {
        let mut byte = byte.min(self.text.len());
        while !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        let line = self.starts.partition_point(|&start| start <= byte) - 1;
        let (last_line, last_byte, last_column) = self.last.get();
        let (from, column) = if last_line == line && last_byte <= byte {
            (last_byte, last_column)
        } else {
            (self.starts[line], 1)
        };
        let column = column + self.text[from..byte].chars().count();
        #[cfg(test)]
        SCANNED.with(|scanned| scanned.set(scanned.get() + (byte - from)));
        self.last.set((line, byte, column));
        Position {
            line: saturating_u32(line + 1),
            column: saturating_u32(column),
        }
    }

    /// The byte offset of character `index` (the text's length past its end).
    fn byte_of_char(&self, index: usize) -> usize {
        self.text
            .char_indices()
            .nth(index)
            .map_or(self.text.len(), |(byte, _)| byte)
    }
}

#[cfg(test)]
thread_local! {
    /// Bytes [`Lines::position`] counted characters over, in this thread
    /// (the test that positions are found in linear time reads it).
    static SCANNED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Fix, Report};

    #[test]
    fn a_frontmatter_over_its_limit_is_refused_before_it_is_parsed() {
        let within: String = (0..MAX_FRONTMATTER_BYTES / 17 - 10)
            .map(|i| format!("x-{i:09}: v\n"))
            .collect();
        let text = format!(
            "---\nname: a\ndescription: d\nmetadata:\n{}---\n",
            within.replace("x-", "  x-")
        );
        assert!(text.len() < MAX_FRONTMATTER_BYTES + 100);
        let metadata = parse_ok(&text);
        assert!(metadata.get("metadata").is_some());
        let over = format!(
            "---\nname: a\ndescription: d\n{}\n---\n",
            "x: [".repeat(300_000)
        );
        let found = problems(&over);
        assert_eq!(found.len(), 1, "{:?}", found.first());
        assert_eq!(
            (found[0].0, found[0].1, found[0].2),
            (Rule::FrontmatterTooLarge, Some(2), Some(1))
        );
        assert!(
            found[0].3.contains("over the 1048576 bytes (1 MiB)"),
            "{}",
            found[0].3
        );
    }

    #[test]
    fn positions_are_those_of_the_offsets() {
        let text = "a: 1\né: [x, y, ü]\n\n  b: \"q\"\r\nlast";
        let lines = Lines::new(text);
        // In order, backwards, and at random: the same answers.
        let bytes: Vec<usize> = (0..=text.len() + 2)
            .chain((0..=text.len()).rev())
            .chain([7, 3, 19, 2, 30, 0])
            .collect();
        for byte in bytes {
            assert_eq!(
                lines.position(byte),
                Position::of_offset(text, byte),
                "byte {byte}"
            );
        }
    }

    /// The work of placing every node grows with the frontmatter, not with
    /// its square: each byte is counted over a bounded number of times,
    /// whether the keys are on lines of their own or on one line.
    #[test]
    fn placing_nodes_is_linear_in_the_frontmatter() {
        let many = 20_000;
        let block: String = (0..many)
            .map(|i| format!("  key-{i}: value {i}\n"))
            .collect();
        let flow: String = (0..many).map(|i| format!("key-{i}: value {i}, ")).collect();
        for (shape, metadata) in [
            ("block", format!("metadata:\n{block}")),
            ("flow", format!("metadata: {{{flow}}}\n")),
        ] {
            let text = format!("---\nname: a\ndescription: d\n{metadata}---\n");
            SCANNED.with(|scanned| scanned.set(0));
            let fields = parse_ok(&text);
            let metadata = fields.get("metadata").expect("metadata");
            let Shape::Mapping(entries) = &metadata.value.shape else {
                panic!("a mapping");
            };
            assert_eq!(entries.len(), many);
            let scanned = SCANNED.with(std::cell::Cell::get);
            assert!(
                scanned <= 2 * text.len(),
                "{shape}: {scanned} bytes scanned to place the nodes of {} bytes",
                text.len()
            );
        }
    }

    fn parse_ok(text: &str) -> Frontmatter {
        let mut diagnostics = Diagnostics::new();
        let parsed = parse(text, "s/SKILL.md", &Options::default(), &mut diagnostics);
        diagnostics.finish("skills", ()).unwrap();
        parsed.expect("parsed")
    }

    fn problems(text: &str) -> Vec<(Rule, Option<u32>, Option<u32>, String)> {
        let mut diagnostics = Diagnostics::new();
        let _ = parse(text, "s/SKILL.md", &Options::default(), &mut diagnostics);
        let report = diagnostics.finish("skills", ()).unwrap_err();
        report
            .diagnostics()
            .iter()
            .map(|d| (d.rule, d.line, d.column, d.render("skills")))
            .collect()
    }

    fn encoding_problem(bytes: &[u8]) -> String {
        let mut diagnostics = Diagnostics::new();
        assert!(check_encoding(bytes, "s/SKILL.md", &mut diagnostics).is_none());
        let report = diagnostics.finish("skills", ()).unwrap_err();
        report.rendered().next().unwrap()
    }

    #[test]
    fn reads_fields_in_every_scalar_style() {
        let text = "---\nname: pdf\ndescription: >\n  Folded\n  text.\nlicense: 'MIT'\nmetadata:\n  version: \"1.0\"\n  author: me\nx-count: 3\nx-ratio: 1.5\nx-flag: true\nx-none:\nx-list:\n  - a\n  - 'b'\nliteral: |-\n  keep\n  lines\n---\n# Body\n";
        let parsed = parse_ok(text);
        let json: Value = serde_json::from_str(&parsed.extra_json).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "license": "MIT",
                "metadata": {"version": "1.0", "author": "me"}, "x-count": 3, "x-ratio": 1.5,
                "x-flag": true, "x-none": null, "x-list": ["a", "b"], "literal": "keep\nlines"
            })
        );
        assert!(
            parsed.extra_json.starts_with("{\"license\""),
            "sorted keys: {}",
            parsed.extra_json
        );
        assert_eq!(&text[parsed.body_offset..], "# Body\n");
        let metadata = parsed.get("metadata").unwrap();
        assert_eq!(metadata.key_at, Position { line: 7, column: 1 });
        let Shape::Mapping(entries) = &metadata.value.shape else {
            panic!()
        };
        assert_eq!(
            entries[0].value.at,
            Position {
                line: 8,
                column: 12
            }
        );
    }

    #[test]
    fn accepts_crlf_and_keeps_the_body_offset() {
        let text = "---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n";
        let parsed = parse_ok(text);
        assert_eq!(parsed.extra_json, "{}");
        assert_eq!(&text[parsed.body_offset..], "body\r\n");
    }

    #[test]
    fn a_body_rule_does_not_close_early_and_values_may_hold_dashes() {
        let text = "---\nname: a\ndescription: before --- after\n---\nbody\n---\nmore\n";
        let parsed = parse_ok(text);
        let description = &parsed.get("description").unwrap().value.value;
        assert_eq!(description, "before --- after");
        assert_eq!(&text[parsed.body_offset..], "body\n---\nmore\n");
    }

    #[test]
    fn names_each_encoding_problem() {
        assert!(encoding_problem(b"\xEF\xBB\xBF---\n").contains("byte-order mark"));
        assert!(encoding_problem(b"\xFF\xFE-\0-\0").contains("UTF-16"));
        let latin1 = encoding_problem(b"---\nname: caf\xE9\n");
        assert!(
            latin1.starts_with("skills/s/SKILL.md:2:10: encoding:"),
            "{latin1}"
        );
        let nul = encoding_problem(b"---\nname: a\0\n");
        assert!(nul.starts_with("skills/s/SKILL.md:2:8: encoding:"), "{nul}");
    }

    #[test]
    fn delimiters_are_line_anchored() {
        let cases = [
            (
                "name: a\n",
                Rule::FrontmatterStart,
                1,
                "must start with a `---` line",
            ),
            (
                "\n---\nname: a\n---\n",
                Rule::FrontmatterStart,
                1,
                "blank lines",
            ),
            (
                "--- \nname: a\n---\n",
                Rule::FrontmatterStart,
                1,
                "trailing whitespace",
            ),
            ("---\rname: a\r---\r", Rule::FrontmatterStart, 1, "bare CR"),
            ("---\nname: a\n", Rule::FrontmatterEnd, 1, "never closed"),
            (
                "---\nname: a\n---  \n",
                Rule::FrontmatterEnd,
                3,
                "trailing whitespace",
            ),
        ];
        for (text, rule, line, words) in cases {
            let found = problems(text);
            assert_eq!(found.len(), 1, "{text:?}: {found:?}");
            assert_eq!((found[0].0, found[0].1), (rule, Some(line)), "{text:?}");
            assert!(found[0].3.contains(words), "{text:?}: {}", found[0].3);
        }
    }

    #[test]
    fn syntax_errors_point_into_the_file_with_a_hint_for_colons() {
        let found =
            problems("---\nname: a\ndescription: Use this skill when: the user asks\n---\n");
        assert_eq!(found.len(), 1);
        let (rule, line, _, rendered) = &found[0];
        assert_eq!((*rule, *line), (Rule::YamlSyntax, Some(3)));
        assert!(
            rendered.contains("help: the value of `description` contains `: `"),
            "{rendered}"
        );

        let tab = problems("---\nname: a\n\tdescription: b\n---\n");
        assert_eq!((tab[0].0, tab[0].1), (Rule::YamlSyntax, Some(3)));
    }

    #[test]
    fn a_bare_cr_inside_the_frontmatter_does_not_shift_lines() {
        // YAML breaks lines at a lone `\r`; editors and this report count
        // `\n`. Found by the skill_md fuzz target (line 4 of a 3-line file).
        let found = problems("---\n\r\ro\n---");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].0, found[0].1, found[0].2),
            (Rule::NotAMapping, Some(2), Some(3))
        );

        let found = problems("---\nname: a\r\rdescription: b: c\n---\n");
        assert_eq!(found.len(), 1, "{found:?}");
        let (rule, line, column, _) = &found[0];
        assert_eq!((*rule, *line), (Rule::YamlSyntax, Some(2)), "{found:?}");
        assert!(column.is_some_and(|column| column <= 29), "{found:?}");
    }

    #[test]
    fn refuses_yaml_features_hosts_read_differently() {
        let found = problems(
            "---\nname: &n a\ndescription: *n\nlicense: !!str MIT\nname: b\n<<: {x: y}\nbeta: yes\nbuild: 0123\nwhen: 2024-01-01\n? [a]\n: b\n1: one\n---\n",
        );
        let rules: Vec<(Rule, Option<u32>)> = found.iter().map(|p| (p.0, p.1)).collect();
        assert_eq!(
            rules,
            [
                (Rule::YamlAnchor, Some(2)),
                (Rule::YamlAnchor, Some(3)),
                (Rule::YamlTag, Some(4)),
                (Rule::DuplicateKey, Some(5)),
                (Rule::MergeKey, Some(6)),
                (Rule::AmbiguousScalar, Some(7)),
                (Rule::AmbiguousScalar, Some(8)),
                (Rule::AmbiguousScalar, Some(9)),
                (Rule::ComplexKey, Some(10)),
                (Rule::ComplexKey, Some(12)),
            ]
        );
        assert!(
            found[3].3.contains("`name` is set twice (first on line 2)"),
            "{}",
            found[3].3
        );
        assert!(
            found[5]
                .3
                .contains("`yes` is read as a boolean by YAML 1.1"),
            "{}",
            found[5].3
        );
    }

    #[test]
    fn a_comment_after_a_plain_value_is_refused_where_it_starts() {
        let text =
            "---\nname: a\ndescription: Counts stock #inventory and explains variances.\n---\n";
        let found = problems(text);
        assert_eq!(found.len(), 1, "{found:?}");
        let (rule, line, column, rendered) = &found[0];
        assert_eq!(
            (*rule, *line, *column),
            (Rule::InlineComment, Some(3), Some(27))
        );
        assert!(
            rendered.contains("readers see `Counts stock`"),
            "{rendered}"
        );
        assert!(
            rendered.contains("`description: \"Counts stock #inventory and explains variances.\"`"),
            "{rendered}"
        );
        // In a list, in metadata, after a value continued on the next line.
        let found = problems(
            "---\nname: a\ndescription: d\nmetadata:\n  team: stock # owners\nx-list:\n  - Read # the reader\nlong: one\n  two # three\n---\n",
        );
        let places: Vec<(Rule, Option<u32>, Option<u32>)> =
            found.iter().map(|p| (p.0, p.1, p.2)).collect();
        assert_eq!(
            places,
            [
                (Rule::InlineComment, Some(5), Some(15)),
                (Rule::InlineComment, Some(7), Some(10)),
                (Rule::InlineComment, Some(9), Some(7)),
            ]
        );
        let multi_line = &found[2].3;
        assert!(
            multi_line.contains("help: quote the value, from its first word"),
            "{multi_line}"
        );
        assert!(
            found[0]
                .3
                .contains("`metadata.team`: ` # owners` starts a YAML comment"),
            "{}",
            found[0].3
        );
    }

    #[test]
    fn comments_that_cut_nothing_pass() {
        let text = "---\n# a comment on its own line\nname: a # NAME\n---\n";
        // (`name` with a comment is refused: see below; the rest pass.)
        assert_eq!(problems(text).len(), 1);
        for text in [
            "---\n# a comment on its own line\nname: a\ndescription: \"Counts stock #inventory\" # a note\n---\n",
            "---\nname: a\ndescription: 'Counts stock' # a note\n---\n",
            "---\nname: a\ndescription: Counts stock#inventory, C# and F#\n---\n",
            "---\nname: a\ndescription: d\nmetadata: # who owns it\n  team: stock\n---\n",
            "---\nname: a\ndescription: | # a literal block\n  Counts stock # all of it\nx-none: # nothing yet\nx-list: [Read, Write] # tools\n---\n",
            "---\nname: a\ndescription: d\n  # a comment inside the block\n---\n",
        ] {
            let mut diagnostics = Diagnostics::new();
            let _ = parse(text, "s/SKILL.md", &Options::default(), &mut diagnostics);
            let report = Report::new("", diagnostics.into_vec());
            assert!(
                report
                    .diagnostics()
                    .iter()
                    .all(|d| d.rule != Rule::InlineComment),
                "{text:?}: {report}"
            );
        }
    }

    #[test]
    fn the_fix_of_an_inline_comment_is_accepted() {
        for (text, expected) in [
            (
                "---\nname: a\ndescription: Counts stock #inventory and explains variances.\n---\n",
                "description: \"Counts stock #inventory and explains variances.\"\n",
            ),
            (
                "---\nname: a # the name\ndescription: d\n---\n",
                "---\n# the name\nname: a\ndescription: d\n",
            ),
            (
                "---\nname: a\ndescription: d\nmetadata:\n  note: say \"x\" # z\n---\n",
                "  note: 'say \"x\" # z'\n",
            ),
        ] {
            let mut diagnostics = Diagnostics::new();
            let _ = parse(text, "s/SKILL.md", &Options::default(), &mut diagnostics);
            let found = diagnostics.into_vec();
            assert_eq!(found.len(), 1, "{text:?}: {found:?}");
            assert_eq!(found[0].rule, Rule::InlineComment);
            let (fixed, applied) = Fix::apply_all(text, found[0].fix.as_ref());
            assert_eq!(applied, 1);
            assert!(fixed.contains(expected), "{fixed:?}");
            let parsed = parse_ok(&fixed);
            assert!(parsed.get("description").is_some());
        }
    }

    #[test]
    fn the_frontmatter_must_be_a_non_empty_mapping() {
        assert_eq!(problems("---\n---\nbody\n")[0].0, Rule::NotAMapping);
        assert_eq!(
            problems("---\n# only a comment\n---\n")[0].0,
            Rule::NotAMapping
        );
        assert_eq!(problems("---\n- a\n- b\n---\n")[0].0, Rule::NotAMapping);
        assert_eq!(problems("---\njust text\n---\n")[0].0, Rule::NotAMapping);
        assert_eq!(
            problems("---\nname: a\n...\nname: b\n---\n")[0].0,
            Rule::YamlSyntax
        );
        assert_eq!(
            problems("---\n%YAML 1.2\nname: a\n---\n")[0].0,
            Rule::YamlSyntax
        );
    }
}
