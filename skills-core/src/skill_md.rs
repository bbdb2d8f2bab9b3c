//! One `SKILL.md` from its bytes: every check the loader runs on a skill's
//! `SKILL.md` (encoding → frontmatter → YAML → fields → links), for callers
//! that hold the bytes rather than a folder: a client that downloaded a skill,
//! a fuzz target. The loader calls the same [`check`], so both report the
//! same problems in the same words.

use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, Diagnostics, Position, Report};
use crate::frontmatter;
use crate::options::Options;
use crate::rules::Rule;
use crate::{fields, gate, links};

/// The most lines the specification recommends for a `SKILL.md`
/// ("Keep your main SKILL.md under 500 lines").
pub const MAX_RECOMMENDED_LINES: usize = 500;

/// The most tokens the specification recommends for a `SKILL.md` body
/// ("< 5000 tokens recommended"), as estimated by [`estimate_tokens`].
pub const MAX_RECOMMENDED_TOKENS: usize = 5000;

/// A rough token count of `text`: one token per four characters, rounded
/// up. Tokenizers differ (English prose is about four characters per token
/// with the BPE vocabularies models use; code and other languages run
/// shorter), so the warning it drives says "about"; it needs no vocabulary
/// and is stable across builds, which a warning threshold needs.
pub fn estimate_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

/// What a caller knows about a `SKILL.md` besides its bytes: how to name it in
/// diagnostics, and optionally its folder's name and its skill's files, which
/// turn on the checks that need them.
#[derive(Debug, Clone, Copy)]
pub struct SkillMdContext<'a> {
    file: &'a str,
    folder_name: Option<&'a str>,
    files: Option<&'a [&'a str]>,
    gated: bool,
}

impl<'a> SkillMdContext<'a> {
    /// Diagnostics name the file `file` (`SKILL.md`, `pdf/SKILL.md`), after
    /// [`Options::display_root`] when that is set.
    pub fn new(file: &'a str) -> Self {
        Self {
            file,
            folder_name: None,
            files: None,
            gated: false,
        }
    }

    /// The name of the skill's folder (the last segment of its path): `name`
    /// must equal it (`name-mismatch`). Without it that rule is skipped.
    pub fn folder_name(mut self, folder_name: &'a str) -> Self {
        self.folder_name = Some(folder_name);
        self
    }

    /// Every file of the skill, by its `/`-separated path inside the skill
    /// (`SKILL.md`, `references/api.md`): relative links and paths in the body
    /// must name one of them or a folder holding one (`broken-link`), unless
    /// [`Options::check_links`] is off. Without it links are not checked.
    pub fn files(mut self, files: &'a [&'a str]) -> Self {
        self.files = Some(files);
        self
    }

    /// Whether the skill is gated ([`Options::gated`]): sold or held back
    /// from some callers. A gated skill must not grant `allowed-tools`
    /// (`gated-allowed-tools`).
    pub fn gated(mut self, gated: bool) -> Self {
        self.gated = gated;
        self
    }
}

/// A `SKILL.md` that passed every check.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SkillMd {
    /// The `name` field.
    pub name: String,
    /// The `description` field.
    pub description: String,
    /// Every frontmatter field, `name` and `description` included, as JSON,
    /// with keys sorted at every level. Without `name` and `description`
    /// it serializes to exactly what [`Skill::extra_fields_json`] holds for
    /// the same file.
    ///
    /// [`Skill::extra_fields_json`]: crate::Skill::extra_fields_json
    pub frontmatter: Map<String, Value>,
    /// The byte offset of the body: just after the closing `---` line.
    pub body_offset: usize,
    /// What the specification only recommends: a file over
    /// [`MAX_RECOMMENDED_LINES`] lines, a body over about
    /// [`MAX_RECOMMENDED_TOKENS`] tokens.
    pub warnings: Vec<Diagnostic>,
}

/// Parses one `SKILL.md` from its bytes with every check the loader runs on
/// it: UTF-8 encoding, the `---` frontmatter delimiters, YAML (and the YAML
/// features hosts disagree on), the field rules (required fields, types,
/// lengths, name format, reserved metadata keys, unknown fields unless
/// [`Options::allow_fields`] names them), `name` against the folder name when
/// `context` gives it, and body links when `context` gives the skill's files
/// and [`Options::check_links`] is on.
///
/// Every problem is reported at once in the [`Report`], exactly as
/// [`load`](crate::load()) reports it for the same file. Rules about the tree
/// (sizes, file names, secrets in files, duplicate names) are not run: they
/// need the other files.
///
/// ```
/// use skills_core::{Options, Rule, SkillMdContext, parse_skill_md};
///
/// let text = "---\nname: pdf\ndescription: Fill PDF forms.\nlicense: MIT\n---\nSee [the API](references/api.md).\n";
/// let files = ["SKILL.md", "references/api.md"];
/// let context = SkillMdContext::new("pdf/SKILL.md").folder_name("pdf").files(&files);
/// let skill = parse_skill_md(text.as_bytes(), &context, &Options::default())?;
/// assert_eq!(skill.name, "pdf");
/// assert_eq!(skill.frontmatter["license"], "MIT");
/// assert_eq!(&text[skill.body_offset..], "See [the API](references/api.md).\n");
///
/// let report = parse_skill_md(text.as_bytes(), &context.folder_name("pdf-forms"), &Options::default())
///     .unwrap_err();
/// assert_eq!(report.diagnostics()[0].rule, Rule::NameMismatch);
/// assert!(report.to_string().contains("pdf/SKILL.md:2:7: name-mismatch: the name `pdf` differs from its folder `pdf-forms`"));
/// # Ok::<(), skills_core::Report>(())
/// ```
pub fn parse_skill_md(
    bytes: &[u8],
    context: &SkillMdContext<'_>,
    options: &Options,
) -> Result<SkillMd, Report> {
    let mut diagnostics = Diagnostics::new();
    let checked = check(bytes, context, options, &mut diagnostics);
    let root = options.display_root.as_deref().unwrap_or_default();
    let (checked, warnings) = diagnostics.finish(root, checked)?;
    let checked = checked.expect("`check` reports why whenever it returns nothing");
    Ok(SkillMd {
        name: checked.name,
        description: checked.description,
        frontmatter: checked.frontmatter,
        body_offset: checked.body_offset,
        warnings,
    })
}

/// What [`inspect_skill_md`] found: the frontmatter whenever its YAML could
/// be read, and every rule it breaks.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct InspectedSkillMd {
    /// Every frontmatter field as JSON, keys sorted at every level (as in
    /// [`SkillMd::frontmatter`]); `None` when the file has no readable
    /// frontmatter (not UTF-8, no `---` delimiters, invalid YAML, not a mapping).
    pub frontmatter: Option<Map<String, Value>>,
    /// Every error [`parse_skill_md`] reports for the same bytes; `None`
    /// when there is none.
    pub problems: Option<Report>,
    /// What the specification only recommends (as in [`SkillMd::warnings`]),
    /// when there are no errors.
    pub warnings: Vec<Diagnostic>,
}

/// Runs the checks of [`parse_skill_md`] on one `SKILL.md` and returns the
/// frontmatter even when some rules are broken, for callers that must look
/// at a skill they did not write: a client compares a downloaded `SKILL.md`
/// with the frontmatter its server advertised field by field, and reports a
/// foreign skill's rule findings rather than refusing to read it.
///
/// ```
/// use skills_core::{Options, Rule, SkillMdContext, inspect_skill_md};
///
/// let text = "---\nname: pdf\ndescription: Fill PDF forms.\ndependencies: [mail]\n---\n";
/// let inspected = inspect_skill_md(text.as_bytes(), &SkillMdContext::new("SKILL.md"), &Options::default());
/// let frontmatter = inspected.frontmatter.expect("readable YAML");
/// assert_eq!(frontmatter["dependencies"][0], "mail");
/// let problems = inspected.problems.expect("`dependencies` is not a specification field");
/// assert_eq!(problems.diagnostics()[0].rule, Rule::UnknownField);
/// ```
pub fn inspect_skill_md(
    bytes: &[u8],
    context: &SkillMdContext<'_>,
    options: &Options,
) -> InspectedSkillMd {
    let mut diagnostics = Diagnostics::new();
    let file = context.file;
    let frontmatter = frontmatter::check_encoding(bytes, file, &mut diagnostics).and_then(|text| {
        let mark = diagnostics.len();
        let parsed = frontmatter::parse(text, file, options, &mut diagnostics);
        let object = parsed.map(|parsed| {
            let _ = fields::check(
                &parsed,
                context.folder_name,
                options,
                file,
                &mut diagnostics,
            );
            if options.check_links
                && let Some(files) = context.files
            {
                links::check(text, parsed.body_offset, files, file, &mut diagnostics);
            }
            recommendations(text, parsed.body_offset, file, &mut diagnostics);
            parsed.object
        });
        diagnostics.attach_source(mark, file, text);
        object
    });
    let root = options.display_root.as_deref().unwrap_or_default();
    match diagnostics.finish(root, ()) {
        Ok(((), warnings)) => InspectedSkillMd {
            frontmatter,
            problems: None,
            warnings,
        },
        Err(report) => InspectedSkillMd {
            frontmatter,
            problems: Some(report),
            warnings: Vec::new(),
        },
    }
}

/// What the checks of one `SKILL.md` give the loader.
#[derive(Debug)]
pub(crate) struct Checked {
    pub name: String,
    pub description: String,
    /// Where `name`'s value was written.
    pub name_at: Option<Position>,
    pub frontmatter: Map<String, Value>,
    pub extra_json: String,
    pub body_offset: usize,
}

/// The checks of [`parse_skill_md`], reporting into the caller's collector:
/// the loader's per-skill step. `None` when the file is unusable (every
/// reason is reported); a result may still come with problems reported.
pub(crate) fn check(
    bytes: &[u8],
    context: &SkillMdContext<'_>,
    options: &Options,
    diagnostics: &mut Diagnostics,
) -> Option<Checked> {
    let file = context.file;
    let mark = diagnostics.len();
    let text = frontmatter::check_encoding(bytes, file, diagnostics)?;
    let checked = check_text(text, context, options, diagnostics);
    diagnostics.attach_source(mark, file, text);
    checked
}

fn check_text(
    text: &str,
    context: &SkillMdContext<'_>,
    options: &Options,
    diagnostics: &mut Diagnostics,
) -> Option<Checked> {
    let file = context.file;
    let parsed = frontmatter::parse(text, file, options, diagnostics)?;
    let identity = fields::check(&parsed, context.folder_name, options, file, diagnostics);
    if context.gated {
        gate::check_allowed_tools(&parsed, file, diagnostics);
    }
    if options.check_links
        && let Some(files) = context.files
    {
        links::check(text, parsed.body_offset, files, file, diagnostics);
    }
    recommendations(text, parsed.body_offset, file, diagnostics);
    let identity = identity?;
    Some(Checked {
        name: identity.name,
        description: identity.description,
        name_at: parsed.get("name").map(|entry| entry.value.at),
        frontmatter: parsed.object,
        extra_json: parsed.extra_json,
        body_offset: parsed.body_offset,
    })
}

/// Warnings for what the specification only recommends about size.
fn recommendations(text: &str, body_offset: usize, file: &str, diagnostics: &mut Diagnostics) {
    let lines = text.lines().count();
    if lines > MAX_RECOMMENDED_LINES {
        diagnostics.push(
            Diagnostic::warning(
                Rule::TooManyLines,
                file,
                format!(
                    "SKILL.md is {lines} lines long; the specification recommends under {MAX_RECOMMENDED_LINES}, since the whole file enters the model's context when the skill is used"
                ),
            )
            .at(crate::diagnostic::saturating_u32(MAX_RECOMMENDED_LINES + 1), 1)
            .hint("move detailed material into files under `references/` and link them from SKILL.md"),
        );
    }
    let body = text.get(body_offset..).unwrap_or_default();
    let tokens = estimate_tokens(body);
    if tokens > MAX_RECOMMENDED_TOKENS {
        diagnostics.push(
            Diagnostic::warning(
                Rule::TooManyTokens,
                file,
                format!(
                    "the body of SKILL.md is about {tokens} tokens (one per four characters); the specification recommends under {MAX_RECOMMENDED_TOKENS}"
                ),
            )
            .hint("move detailed material into files under `references/` and link them from SKILL.md"),
        );
    }
}
