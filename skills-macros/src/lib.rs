//! Implementation detail of [skills-runtime]: the `embed_skills!` macro.
//! Depend on skills-runtime and call `skills_runtime::embed_skills!`.
//!
//! The macro is a thin shell: it parses its arguments (`args`), resolves
//! the folder with `skills_core::root`, checks rebuild tracking (`resolve`,
//! the one Cargo-specific step), hands the folder to `skills_core::load` —
//! the same public code any other front end calls — turns the problems into
//! one compile error rendered by `skills_core::Renderer`, and emits the
//! tables (`generate`). The last expansion is kept in `OUT_DIR` and reused
//! while nothing it was made from changes (`memo`).
//!
//! Warnings of the rules (a `SKILL.md` over 500 lines, nested references)
//! never fail the build, and are not shown: a proc macro on stable Rust can
//! emit errors only (`proc_macro::Diagnostic` is unstable). What the pinned
//! readers would do differently with a skill (`skills_core::readers`) is
//! shown, one warning per skill, through the one warning stable Rust lets
//! generated code raise: the use of a `#[deprecated]` constant whose note
//! is the reason (`#[allow(deprecated)]` on the `static` silences it).
//!
//! [skills-runtime]: https://docs.rs/skills-runtime

#![forbid(unsafe_code)]
#![deny(unreachable_pub)]

mod args;
mod generate;
mod memo;
mod resolve;

use std::path::{Path, PathBuf};
use std::str::FromStr as _;

use proc_macro2::{Span, TokenStream};
use quote::quote;

/// Called by `skills_runtime::embed_skills!`, which forwards `$crate` first.
#[doc(hidden)]
#[proc_macro]
pub fn embed_skills_impl(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let Some((krate, arguments)) = args::split_krate(input.into()) else {
        return quote!(::core::compile_error!(
            "call `skills_runtime::embed_skills!`, not this implementation macro"
        ))
        .into();
    };
    match expand(&krate, arguments) {
        Ok(tokens) => tokens,
        Err(errors) => {
            // Every error, then a harmless value so the rest of the crate type-checks.
            // `compile_error!` is reached through the runtime, so a crate that
            // shadows `core` still sees the messages.
            // The alias lets each error carry the span of what it is about
            // (the folder literal, an option); `$crate` keeps the span of the
            // whole call, which rustc would underline instead.
            // rustc reports the `compile_error!`s of one block last to first;
            // emit them reversed so authors read them in file order.
            let errors = errors.into_iter().rev().map(|error| {
                let message = error.to_string();
                quote::quote_spanned!(error.span()=> __skills_compile_error!(#message);)
            });
            quote!({
                use #krate::__private::compile_error as __skills_compile_error;
                #(#errors)*
                #krate::__private::Skills::empty()
            })
        }
    }
    .into()
}

fn expand(krate: &TokenStream, arguments: TokenStream) -> Result<TokenStream, Vec<syn::Error>> {
    let arguments: args::Arguments = syn::parse2(arguments).map_err(|error| vec![error])?;
    let span = arguments.path.span();
    let fail = |message: String| vec![syn::Error::new(span, message)];
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let calling_dir = calling_file(span).and_then(|file| file.parent().map(Path::to_path_buf));
    let root = skills_core::root::resolve(
        &arguments.path.value(),
        &manifest_dir,
        calling_dir.as_deref(),
        |name| std::env::var(name).ok(),
    )
    .map_err(|diagnostic| fail(render_one(&diagnostic, "")))?;
    let options = arguments.options;
    // A missing folder is reported by the loader (`root-missing`); only an
    // existing one can be watched.
    let package = std::env::var("CARGO_PKG_NAME").unwrap_or_default();
    // Another package's (a crate compiled from a test inherits it) or
    // another build system's layout says nothing about this crate.
    let out_dir = std::env::var_os("OUT_DIR")
        .map(PathBuf::from)
        .filter(|out_dir| resolve::belongs_to(out_dir, &package));
    let foreign_out_dir = out_dir.is_none() && std::env::var_os("OUT_DIR").is_some();
    if !options.untracked && root.path.is_dir() && !foreign_out_dir {
        resolve::check_tracking(&root, &manifest_dir, out_dir.as_deref()).map_err(fail)?
    }
    // The library's defaults, changed only where the call says so.
    let mut load_options = skills_core::Options::default();
    load_options.display_root = Some(root.display.clone());
    load_options.allow_fields = options.allow_fields;
    if let Some(check_links) = options.check_links {
        load_options.check_links = check_links;
    }
    load_options.allow_secrets_in = options.allow_secrets_in;
    load_options.gated = options.gated;
    load_options.generated = options.generated;
    if let Some(main_file) = options.main_file {
        load_options.main_file = main_file;
    }
    // The crate's own OUT_DIR keeps each file's digest and secret scan, so a
    // rebuild after a one-file edit hashes and scans that file only, and the
    // last expansion, reused when no skill changed (see `memo`).
    load_options.cache_dir = out_dir.clone();
    let call = format!(
        "{:?}",
        (
            &root.path,
            &root.display,
            &root.env_vars,
            options.untracked,
            &load_options
        )
    );
    let memo = out_dir
        .as_deref()
        .and_then(|out_dir| memo::Memo::new(out_dir, &root.path, &call));
    // A first build has no memo and skips the listing: its load reads every
    // file anyway.
    if let Some(memo) = memo.as_ref().filter(|memo| memo.exists())
        && let Some(listing) = skills_core::listing(&root.path, &load_options)
        && let Some(source) = memo.lookup(&memo.key(&listing))
    {
        return lex(krate, &source).map_err(fail);
    }
    match skills_core::load_listed(&root.path, &load_options) {
        // Warnings cannot be shown: stable Rust gives proc macros no warnings.
        Ok((loaded, listing)) => {
            // What the pinned readers would do differently, as warnings.
            let verdicts = skills_core::readers::predict(&loaded);
            let source = generate::reader_warnings(&verdicts)
                + &generate::source(&loaded, &load_options, &root.env_vars, options.untracked);
            // Keyed by the listing of the very bytes loaded, so a file edited
            // during the build cannot file this expansion under another tree.
            if let (Some(memo), Some(listing)) = (&memo, listing) {
                memo.store(&memo.key(&listing), &source);
            }
            lex(krate, &source).map_err(fail)
        }
        Err(report) => Err(fail(render_report(&report))),
    }
}

/// The expansion of `source`, lexed by the compiler's own lexer, not
/// proc_macro2's (see `generate::skills`).
fn lex(krate: &TokenStream, source: &str) -> Result<TokenStream, String> {
    let body = proc_macro::TokenStream::from_str(source).map_err(|error| {
        format!("embed_skills! generated tokens rustc cannot lex ({error}); please report this bug")
    })?;
    Ok(generate::skills(krate, body.into()))
}

/// Every problem of the report in one message, so that rustc prints the
/// frame of the macro call once: the summary, then each problem as rustc
/// prints its own, with the line and a caret. Only errors: the macro cannot
/// show warnings, and listing them as errors would mislead.
fn render_report(report: &skills_core::Report) -> String {
    let renderer = skills_core::Renderer::new(&skills_core::EmbedMacro);
    let errors: Vec<&skills_core::Diagnostic> = report.errors().collect();
    let mut out = format!(
        "{} problem{} in {}:",
        errors.len(),
        if errors.len() == 1 { "" } else { "s" },
        report.root()
    );
    for diagnostic in errors {
        out.push_str("\n\n");
        out.push_str(&renderer.diagnostic(diagnostic, report.root()));
    }
    out
}

fn render_one(diagnostic: &skills_core::Diagnostic, root: &str) -> String {
    skills_core::Renderer::new(&skills_core::EmbedMacro).diagnostic(diagnostic, root)
}

/// The file holding the macro call, when the compiler says (rust-analyzer does not).
fn calling_file(span: Span) -> Option<PathBuf> {
    if !proc_macro::is_available() {
        return None;
    }
    let file = span.unwrap().local_file()?;
    if file.is_absolute() {
        Some(file)
    } else {
        // Relative to rustc's working directory, the workspace root under Cargo.
        std::env::current_dir()
            .ok()
            .map(|dir| dir.join(Path::new(&file)))
    }
}
