//! Generate step: a loaded tree → one expression that builds `Skills` in a
//! `const` context.
//!
//! Every distinct file content is emitted once, as a `const` the file
//! entries share (about a fifth of real corpora is duplicated bytes). Text
//! goes out as a string literal of the very buffer that was validated and
//! hashed; binary files larger than [`INLINE_BINARY_MAX`] go out as
//! `include_bytes!`, which rustc reads far faster than an escaped literal,
//! guarded by a compile-time length check.

use std::collections::HashMap;
use std::path::Path;

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote};
use skills_core::{Digest, Loaded, SkillFile};

/// Binary files up to this size are inlined as byte strings.
pub(crate) const INLINE_BINARY_MAX: usize = 1024;

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

/// The expression that builds the embedded `Skills`.
///
/// `env_vars` are read through `option_env!` so that rustc rebuilds the crate
/// when they change; with `untracked`, every file is also referenced through
/// `include_bytes!` so that at least edits to existing files rebuild.
pub(crate) fn skills(
    krate: &TokenStream,
    loaded: &Loaded,
    options: &skills_core::Options,
    env_vars: &[String],
    untracked: bool,
) -> TokenStream {
    let private = quote!(#krate::__private);
    let site = Span::mixed_site();
    let file_type = format_ident!("__SkillsFile", span = site);
    let mut contents: Vec<TokenStream> = Vec::new();
    let mut content_ident: HashMap<Digest, proc_macro2::Ident> = HashMap::new();
    let mut skill_consts = Vec::new();
    let mut skill_values = Vec::new();

    for (index, skill) in loaded.skills().skills().iter().enumerate() {
        let mut files = Vec::with_capacity(skill.files().len());
        for file in skill.files() {
            let content = match content_ident.get(&file.digest()) {
                Some(ident) => ident.clone(),
                None => {
                    let ident = format_ident!("__SKILLS_CONTENT_{}", contents.len(), span = site);
                    let source = loaded.source_path(index, file);
                    contents.push(content_const(&private, &ident, choose(file, &source)));
                    if untracked
                        && file.is_text()
                        && let Some(path) = source.to_str()
                    {
                        contents.push(quote!(const _: &[u8] = #private::include_bytes!(#path);));
                    }
                    content_ident.insert(file.digest(), ident.clone());
                    ident
                }
            };
            let path = Literal::string(file.path());
            // One byte-string token per digest: far less for rustc to parse
            // than an array of 32 integer literals.
            let digest = Literal::byte_string(file.digest().as_bytes());
            let executable = file.is_executable();
            let constructor = if file.is_text() {
                quote!(embedded_text)
            } else {
                quote!(embedded_binary)
            };
            files.push(quote!(#file_type::#constructor(#path, #content, #digest, #executable)));
        }
        let files_ident = format_ident!("__SKILLS_FILES_{}", index, span = site);
        skill_consts.push(quote! {
            const #files_ident: &[#file_type] = &[#(#files),*];
        });
        let strings = [
            skill.name(),
            skill.description(),
            skill.path(),
            skill.uri(),
            skill.extra_fields_json(),
            skill.version(),
        ]
        .map(Literal::string);
        let body_offset = Literal::usize_unsuffixed(skill.body_offset());
        let gated = skill.is_gated();
        skill_values.push(quote! {
            #private::Skill::embedded([#(#strings),*], #body_offset, #files_ident).with_gated(#gated)
        });
    }

    let fingerprint = Literal::string(loaded.skills().fingerprint());
    // Files declared generated and not there: the program adds them at start-up.
    let pending = loaded.skills().pending_files().map(Literal::string);
    let env_tracking = env_vars
        .iter()
        .map(|var| quote!(const _: #private::Option<&str> = #private::option_env!(#var);));
    let skills_ident = format_ident!("__SKILLS_SKILLS", span = site);
    // The rules the set passed, so a live reload of the folder applies them too.
    let allow_fields = options
        .allow_fields
        .iter()
        .map(|field| Literal::string(field));
    let check_links = options.check_links;
    let allow_secrets_in = options
        .allow_secrets_in
        .iter()
        .map(|path| Literal::string(path));
    let gated_globs = options.gated.iter().map(|glob| Literal::string(glob));
    let generated_paths = options.generated.iter().map(|path| Literal::string(path));
    quote! {{
        #(#env_tracking)*
        // A short name for the type every file entry names.
        type #file_type = #private::SkillFile;
        #(#contents)*
        #(#skill_consts)*
        const #skills_ident: &[#private::Skill] = &[#(#skill_values),*];
        #private::Skills::embedded_pending(
            #skills_ident,
            #fingerprint,
            (#private::env!("CARGO_PKG_NAME"), #private::env!("CARGO_PKG_VERSION")),
            #private::EmbedOptions::new(
                &[#(#allow_fields),*],
                #check_links,
                &[#(#allow_secrets_in),*],
                &[#(#gated_globs),*],
                &[#(#generated_paths),*],
            ),
            &[#(#private::Cow::Borrowed(#pending)),*],
        )
    }}
}

fn content_const(private: &TokenStream, ident: &proc_macro2::Ident, bytes: Bytes) -> TokenStream {
    match bytes {
        Bytes::Text(text) => {
            let literal = Literal::string(text);
            quote!(const #ident: &str = #literal;)
        }
        Bytes::Inline(bytes) => {
            let literal = Literal::byte_string(bytes);
            quote!(const #ident: &[u8] = #literal;)
        }
        Bytes::Include { path, len } => {
            let len = Literal::usize_unsuffixed(len);
            let message = Literal::string(&format!(
                "{path} changed while it was being embedded; build again"
            ));
            quote! {
                const #ident: &[u8] = #private::include_bytes!(#path);
                const _: () = #private::assert!(#ident.len() == #len, #message);
            }
        }
    }
}
