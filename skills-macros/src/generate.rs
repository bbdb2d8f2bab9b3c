//! Generate step: a loaded tree → one expression that builds `Skills` in a
//! `const` context.
//!
//! Every distinct file content is emitted once, as a `const` the file
//! entries share (about a fifth of real corpora is duplicated bytes). Text
//! goes out as a string literal of the very buffer that was validated and
//! hashed; binary files larger than [`INLINE_BINARY_MAX`] go out as
//! `include_bytes!`, which rustc reads far faster than an escaped literal,
//! guarded by a compile-time length check.
//!
//! The expansion is written as Rust source text ([`source`]) and handed to
//! the compiler's own lexer once ([`skills`]). Under Cargo's default dev
//! profile the macro runs unoptimised: building the tables token by token
//! with `quote!` crossed the proc-macro bridge for every token and cost
//! about as much as the rest of the macro. Escaping goes through the
//! standard library's `Debug` for `str` and `escape_ascii` for bytes, which
//! are compiled optimised whatever the caller's profile.
//!
//! Hygiene: the text names the runtime only through `__skills_private`, a
//! `use` of `$crate::__private` emitted with `quote!` (so a crate that
//! renames or shadows `skills_runtime` still works); every other name the
//! text declares lives inside the expansion's block, which holds no tokens
//! of the caller.

use std::fmt::Write as _;
use std::path::Path;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use rustc_hash::FxHashMap as HashMap;
use skills_core::{Digest, Loaded, SkillFile};

/// Binary files up to this size are inlined as byte strings.
pub(crate) const INLINE_BINARY_MAX: usize = 1024;

/// The name under which the text reaches `$crate::__private`.
const PRIVATE: &str = "__skills_private";

/// How the bytes of one distinct content are emitted.
enum Bytes<'a> {
    /// A `"…"` literal of UTF-8 text.
    Text(&'a str),
    /// A `b"…"` literal.
    Inline(&'a [u8]),
    /// `include_bytes!` of this absolute path, expected to hold `len` bytes.
    Include { path: String, len: usize },
}

fn choose<'a>(file: &'a SkillFile, source: &Path) -> Bytes<'a> {
    if let Some(text) = file.text() {
        return Bytes::Text(text);
    }
    match source.to_str() {
        Some(path) if file.bytes().len() > INLINE_BINARY_MAX => Bytes::Include {
            path: path.to_owned(),
            len: file.bytes().len(),
        },
        _ => Bytes::Inline(file.bytes()),
    }
}

/// The expression that builds the embedded `Skills` from [`source`] lexed
/// into `body`: a block that reaches the runtime through `krate`.
///
/// The caller lexes the text with `proc_macro::TokenStream::from_str`, the
/// compiler's own lexer: `proc_macro2`'s `FromStr` first re-lexes the text
/// with its own (unoptimised, in a dev build) parser to validate it, which
/// cost more than the whole of the rest of the macro on text-heavy trees.
pub(crate) fn skills(krate: &TokenStream, body: TokenStream) -> TokenStream {
    let private = Ident::new(PRIVATE, Span::call_site());
    quote! {{
        use #krate::__private as #private;
        #body
    }}
}

/// One warning per skill that a pinned reader would refuse, skip or read
/// otherwise (`skills_core::readers`), as statements that open the
/// expansion's block: a `#[deprecated]` constant whose note is the reason,
/// and its use, which rustc reports at the macro call as `use of deprecated
/// constant `…::reader_verdict`: <reason>`. Stable Rust has no other way
/// for a proc macro to warn; `#[allow(deprecated)]` on the item silences it.
pub(crate) fn reader_warnings(verdicts: &[skills_core::readers::SkillVerdicts]) -> String {
    let mut out = String::new();
    for skill in verdicts {
        // The findings a build repeats usefully (not where a host is pointed,
        // nor what the author asked for: `ReaderRule::in_build`).
        let reasons: Vec<String> = skill
            .readers
            .iter()
            .filter_map(|reader| {
                let why: Vec<&str> = reader
                    .findings
                    .iter()
                    .filter(|finding| finding.rule.in_build)
                    .map(|finding| finding.why.as_str())
                    .collect();
                (!why.is_empty())
                    .then(|| format!("{} {}", reader.reader.speaker, why.join("; it ")))
            })
            .collect();
        if reasons.is_empty() {
            continue;
        }
        let note = format!(
            "`{}` is read differently by some readers (`skills check --readers` shows the table): {}",
            skill.skill,
            reasons.join("; ")
        );
        out.push_str("{ #[deprecated(note = ");
        string(&mut out, &note);
        out.push_str(
            ")] #[allow(non_upper_case_globals)] const reader_verdict: () = (); let () = reader_verdict; }\n",
        );
    }
    out
}

/// A `"…"` literal with the value `text`.
fn string(out: &mut String, text: &str) {
    // `Debug` for `str` escapes into a valid Rust string literal.
    let _ = write!(out, "{text:?}");
}

/// A literal with the value `text`, the cheapest one for the macro to write
/// and for rustc to read: a raw string (`r#"…"#`: the text copied as it is,
/// nothing for rustc to unescape), or an escaped one when the text holds a
/// carriage return. rustc refuses a bare CR in any string literal, and it
/// normalises CRLF in the source text it lexes, which would change the bytes
/// silently (the `literals` pass case of tests/compile-tests catches both).
///
/// Escaping every character through `Debug` was the slowest part of
/// `generate` in the unoptimised macro, and rustc then unescaped every
/// line's `\n`. The searches here are `memchr`s, fast even unoptimised.
///
/// rustc's deny-by-default `text_direction_codepoint_in_literal` does not
/// look at literals a proc macro writes (rustc 1.95): the same pass case
/// embeds direction overrides raw, so a compiler that starts to will fail
/// that test, not a user's build unnoticed.
fn text(out: &mut String, text: &str) {
    if text.contains('\r') {
        return string(out, text);
    }
    // The text cannot end the literal early: no `"` in it is followed by as
    // many `#` as the delimiter has.
    let mut hashes = 0;
    for after_quote in text.split('"').skip(1) {
        let bytes = after_quote.as_bytes();
        let mut run = 0;
        while run < bytes.len() && bytes[run] == b'#' {
            run += 1;
        }
        hashes = hashes.max(run + 1);
    }
    out.reserve(text.len() + 2 * hashes + 3);
    out.push('r');
    for _ in 0..hashes {
        out.push('#');
    }
    out.push('"');
    out.push_str(text);
    out.push('"');
    for _ in 0..hashes {
        out.push('#');
    }
}

/// A `b"…"` literal with the value `bytes`.
fn byte_string(out: &mut String, bytes: &[u8]) {
    let _ = write!(out, "b\"{}\"", bytes.escape_ascii());
}

/// A digest as `b"\xNN…"`, two hex digits a byte, by table, into one
/// buffer (`String::push` per character is slow unoptimised).
fn hex_byte_string(out: &mut String, bytes: &[u8; 32]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut literal = [0u8; 3 + 4 * 32];
    literal[0] = b'b';
    literal[1] = b'"';
    let mut at = 2;
    for &byte in bytes {
        literal[at] = b'\\';
        literal[at + 1] = b'x';
        literal[at + 2] = HEX[usize::from(byte >> 4)];
        literal[at + 3] = HEX[usize::from(byte & 0x0f)];
        at += 4;
    }
    literal[at] = b'"';
    out.push_str(std::str::from_utf8(&literal).unwrap_or_default());
}

/// `number` in decimal, without the formatting machinery.
fn push_number(out: &mut String, mut number: usize) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (number % 10) as u8;
        number /= 10;
        if number == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&digits[start..]).unwrap_or_default());
}

/// A list of string literals, each followed by a comma.
fn strings<'a>(out: &mut String, items: impl IntoIterator<Item = &'a str>) {
    for item in items {
        string(out, item);
        out.push(',');
    }
}

/// The body of the expansion's block, as Rust source: statements and items,
/// then the `Skills` value. It names the runtime only through
/// `__skills_private`, which [`skills`] declares.
///
/// `env_vars` are read through `option_env!` so that rustc rebuilds the crate
/// when they change; with `untracked`, every file is also referenced through
/// `include_bytes!` so that at least edits to existing files rebuild.
pub(crate) fn source(
    loaded: &Loaded,
    options: &skills_core::Options,
    env_vars: &[String],
    untracked: bool,
) -> String {
    let p = PRIVATE;
    let mut out = String::new();
    for var in env_vars {
        let _ = write!(out, "const _: {p}::Option<&str> = {p}::option_env!(");
        string(&mut out, var);
        out.push_str(");\n");
    }
    // A short name for the type every file entry names.
    let _ = writeln!(out, "type __SkillsFile = {p}::SkillFile;");
    let mut content_index: HashMap<Digest, usize> = HashMap::default();
    let mut skill_values = String::new();

    for (index, skill) in loaded.skills().skills().iter().enumerate() {
        let mut files = String::new();
        for file in skill.files() {
            let content = match content_index.get(&file.digest()) {
                Some(&content) => content,
                None => {
                    let content = content_index.len();
                    let source = loaded.source_path(index, file);
                    content_const(&mut out, content, choose(file, &source));
                    if untracked
                        && file.is_text()
                        && let Some(path) = source.to_str()
                    {
                        out.push_str("const _: &[u8] = ");
                        let _ = write!(out, "{p}::include_bytes!(");
                        string(&mut out, path);
                        out.push_str(");\n");
                    }
                    content_index.insert(file.digest(), content);
                    content
                }
            };
            let constructor = if file.is_text() {
                "embedded_text"
            } else {
                "embedded_binary"
            };
            // Per file: `push_str`s, not `write!` (whose formatting machinery
            // was a third of `generate` on 10,000 files, unoptimised).
            files.push_str("__SkillsFile::");
            files.push_str(constructor);
            files.push('(');
            self::text(&mut files, file.path());
            files.push_str(", __SKILLS_CONTENT_");
            push_number(&mut files, content);
            files.push_str(", ");
            // One byte-string token per digest: far less for rustc to parse
            // than an array of 32 integer literals.
            hex_byte_string(&mut files, file.digest().as_bytes());
            files.push_str(if file.is_executable() {
                ", true),\n"
            } else {
                ", false),\n"
            });
        }
        let _ = write!(
            out,
            "const __SKILLS_FILES_{index}: &[__SkillsFile] = &[\n{files}];\n"
        );
        let _ = write!(skill_values, "{p}::Skill::embedded([");
        strings(
            &mut skill_values,
            [
                skill.name(),
                skill.description(),
                skill.path(),
                skill.uri(),
                skill.extra_fields_json(),
                skill.version(),
            ],
        );
        let _ = write!(
            skill_values,
            "], {}, __SKILLS_FILES_{index}).with_gated({})",
            skill.body_offset(),
            skill.is_gated()
        );
        if skill.main_file() != skills_core::SKILL_MD {
            skill_values.push_str(".with_main_file(");
            string(&mut skill_values, skill.main_file());
            skill_values.push(')');
        }
        skill_values.push_str(",\n");
    }

    let _ = write!(
        out,
        "const __SKILLS_SKILLS: &[{p}::Skill] = &[\n{skill_values}];\n\
         {p}::Skills::embedded_pending(__SKILLS_SKILLS, "
    );
    string(&mut out, loaded.skills().fingerprint());
    let _ = write!(
        out,
        ", ({p}::env!(\"CARGO_PKG_NAME\"), {p}::env!(\"CARGO_PKG_VERSION\")), "
    );
    // The rules the set passed, so a live reload of the folder applies them too.
    let _ = write!(out, "{p}::EmbedOptions::new(&[");
    strings(&mut out, options.allow_fields.iter().map(String::as_str));
    let _ = write!(out, "], {}, &[", options.check_links);
    strings(
        &mut out,
        options.allow_secrets_in.iter().map(String::as_str),
    );
    out.push_str("], &[");
    strings(&mut out, options.gated.iter().map(String::as_str));
    out.push_str("], &[");
    strings(&mut out, options.generated.iter().map(String::as_str));
    out.push_str("])");
    if options.main_file != skills_core::SKILL_MD {
        out.push_str(".with_main_file(");
        string(&mut out, &options.main_file);
        out.push(')');
    }
    out.push_str(", &[");
    // Files declared generated and not there: the program adds them at start-up.
    for pending in loaded.skills().pending_files() {
        let _ = write!(out, "{p}::Cow::Borrowed(");
        string(&mut out, pending);
        out.push_str("),");
    }
    out.push_str("])\n");
    out
}

fn content_const(out: &mut String, index: usize, bytes: Bytes) {
    let p = PRIVATE;
    match bytes {
        Bytes::Text(text) => {
            out.push_str("const __SKILLS_CONTENT_");
            push_number(out, index);
            out.push_str(": &str = ");
            self::text(out, text);
            out.push_str(";\n");
        }
        Bytes::Inline(bytes) => {
            let _ = write!(out, "const __SKILLS_CONTENT_{index}: &[u8] = ");
            byte_string(out, bytes);
            out.push_str(";\n");
        }
        Bytes::Include { path, len } => {
            let _ = write!(
                out,
                "const __SKILLS_CONTENT_{index}: &[u8] = {p}::include_bytes!("
            );
            string(out, &path);
            let _ = write!(
                out,
                ");\nconst _: () = {p}::assert!(__SKILLS_CONTENT_{index}.len() == {len}, "
            );
            string(
                out,
                &format!("{path} changed while it was being embedded; build again"),
            );
            out.push_str(");\n");
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn numbers_and_digests_are_written_as_format_would() {
        for number in [0, 7, 10, 99, 100, 12_345, usize::MAX] {
            let mut out = String::new();
            super::push_number(&mut out, number);
            assert_eq!(out, number.to_string());
        }
        for start in [0u8, 32, 96, 224] {
            let bytes: [u8; 32] = std::array::from_fn(|i| start.wrapping_add(i as u8));
            let mut out = String::new();
            super::hex_byte_string(&mut out, &bytes);
            let literal: syn::LitByteStr = syn::parse_str(&out).expect(&out);
            assert_eq!(literal.value(), bytes);
        }
    }

    /// Every literal the macro writes reads back as the very text, whichever
    /// form it takes; raw where nothing forbids it, with a delimiter no
    /// `"#…` run in the text can end. (rustc's own reading is proved by the
    /// `literals` pass case of tests/compile-tests.)
    #[test]
    fn text_literals_read_back_as_the_text() {
        let cases = [
            ("", true),
            ("plain\nlines\n", true),
            ("a \"quote\" and \"# and \"### here", true),
            ("ends with a quote\"", true),
            ("ends with \"#", true),
            ("backslash \\n stays two characters, tab\there", true),
            ("typography — “quotes” … →", true),
            ("crlf\r\nline", false),
            ("bare\rcr", false),
            ("direction \u{202e} override", true),
            ("isolate \u{2068}x\u{2069}", true),
        ];
        for (value, raw) in cases {
            let mut out = String::new();
            super::text(&mut out, value);
            assert_eq!(out.starts_with('r'), raw, "{value:?} as {out}");
            let literal: syn::LitStr = syn::parse_str(&out).expect(&out);
            assert_eq!(literal.value(), value, "{out}");
        }
    }
}
