//! Implementation detail of [skills-runtime]: the `embed_skills!` macro.
//! Depend on skills-runtime and call `skills_runtime::embed_skills!`.
//!
//! The macro is a thin shell: it parses its arguments (`args`), finds the
//! folder and checks rebuild tracking (`resolve`), hands the folder to
//! `skills_core::load` — the same code the runtime and the CLI run — turns
//! each problem into a compile error, and emits the tables (`generate`).
//!
//! [skills-runtime]: https://docs.rs/skills-runtime

#![forbid(unsafe_code)]

mod args;
mod generate;
mod resolve;

use std::path::{Path, PathBuf};

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
    let root = resolve::root(
        &arguments.path.value(),
        &manifest_dir,
        calling_file(span).as_deref(),
        |name| std::env::var(name).ok(),
    )
    .map_err(fail)?;
    if !root.path.is_dir() {
        return Err(fail(format!(
            "the skills folder `{}` does not exist or is not a folder\n  help: a relative path starts at the folder holding Cargo.toml; one starting with `./` starts at the file that calls `embed_skills!`",
            root.display
        )));
    }
    let options = arguments.options;
    if !options.untracked {
        let package = std::env::var("CARGO_PKG_NAME").unwrap_or_default();
        match std::env::var_os("OUT_DIR").map(PathBuf::from) {
            // Another package's (a crate compiled from a test inherits it) or
            // another build system's layout: it says nothing about this crate.
            Some(out_dir) if !resolve::belongs_to(&out_dir, &package) => {}
            out_dir => {
                resolve::check_tracking(&root, &manifest_dir, out_dir.as_deref()).map_err(fail)?
            }
        }
    }
    let mut load_options = skills_core::Options::default();
    load_options.display_root = Some(root.display.clone());
    load_options.allow_fields = options.allow_fields;
    load_options.check_links = options.check_links.unwrap_or(true);
    load_options.allow_secrets_in = options.allow_secrets_in;
    match skills_core::load(&root.path, &load_options) {
        Ok(loaded) => Ok(generate::skills(
            krate,
            &loaded,
            &root.env_vars,
            options.untracked,
        )),
        Err(report) => Err(report
            .rendered()
            .map(|message| syn::Error::new(span, message))
            .collect()),
    }
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
