//! Skills read, checked and hashed at run time (feature `load`), with the
//! rules and messages of [`embed_skills!`](crate::embed_skills): what a
//! server serving a folder, a checker, an installer or a client checking a
//! downloaded skill calls.
//!
//! - loading a folder: [`load()`] (strict, like the macro: any error, no
//!   skills), [`load_lenient`] (every valid skill loads, each invalid one is
//!   refused and reported), [`load_roots`] (several roots merged, the first
//!   winning on a name), with [`Options`] and its presets for what each
//!   agent accepts ([`Options::claude_code`]);
//! - the rules one by one, for code that holds bytes or paths rather than a
//!   folder: [`parse_skill_md`], [`inspect_skill_md`] and the path and name
//!   rules of [`names`];
//! - what they report: a [`Report`](crate::Report) (at the crate's root,
//!   since serving refuses a set with one too), [`Diagnostic`] with its [`Rule`] and
//!   [`Severity`], the option that would accept a refusal ([`OptionHint`]),
//!   mechanical fixes ([`Fix`]), and the one [`Renderer`] that prints them
//!   the way rustc does, with options spelled by a [`FrontEnd`] ([`Library`]
//!   for a program, [`EmbedMacro`] for the macro's own words);
//! - where skills folders are: [`vendor`] (the folders each agent reads and
//!   installs to) and [`root`] (`${VAR:-default}` expansion);
//! - files known only at run time: [`add_files`];
//! - a folder written by someone else: [`open`] (the one way its files are
//!   read: no link followed, no FIFO opened, only the file a walk saw, up
//!   to a limit) and [`printable`] (the one escape of every path, name and
//!   hint printed).
//!
//! ```
//! use skills_runtime::load::{Library, Options, Renderer, SkillMdContext, parse_skill_md};
//!
//! let text = "---\nname: pdf\ndescription: Fill PDF forms.\n---\n";
//! let context = SkillMdContext::new("pdf-forms/SKILL.md").folder_name("pdf-forms");
//! let report = parse_skill_md(text.as_bytes(), &context, &Options::default()).unwrap_err();
//! let rendered = Renderer::new(&Library).diagnostic(&report.diagnostics()[0], "skills");
//! assert!(rendered.starts_with("error[name-mismatch]"), "{rendered}");
//! ```
//!
//! Everything here is skills-core's, re-exported: skills-core is internal to
//! this crate (semver-exempt, pinned exactly), so name these paths, not its.
//! The crate's root holds none of them: loading is named only here
//! (`skills_runtime::load::load`, `skills_runtime::load::Options`, …).

pub use skills_core::{
    CLAUDE_CODE_FIELDS, Diagnostic, EmbedMacro, Fix, FrontEnd, InspectedSkillMd, Lenient, Library,
    Loaded, MAX_FRONTMATTER_BYTES, MAX_RECOMMENDED_LINES, MAX_RECOMMENDED_TOKENS, OptionHint,
    Options, PLACEHOLDER_DESCRIPTION, Position, Refused, Renderer, Rule, SPEC_FIELDS, Severity,
    SkillMd, SkillMdContext, add_files, estimate_tokens, inspect_skill_md, load, load_lenient,
    load_roots, names, open, parse_skill_md, printable, root, vendor,
};
