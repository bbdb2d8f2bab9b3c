//! Parse step: `$crate; "skills", option = value, …` → [`Input`].

use proc_macro2::{TokenStream, TokenTree};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, LitBool, LitStr, Token, bracketed};

/// The options after the path.
#[derive(Default)]
pub(crate) struct Options {
    pub allow_fields: Vec<String>,
    pub check_links: Option<bool>,
    pub allow_secrets_in: Vec<String>,
    pub gated: Vec<String>,
    pub generated: Vec<String>,
    pub main_file: Option<String>,
    pub untracked: bool,
}

const KNOWN: &str = "allow_fields = [\"…\"], check_links = false, allow_secrets_in = [\"…\"], gated = [\"…\"], generated = [\"…\"], main_file = \"…\", untracked";

/// Splits the forwarded crate path from the user's arguments. Fails only if
/// the macro was not called through the runtime's wrapper.
pub(crate) fn split_krate(input: TokenStream) -> Option<(TokenStream, TokenStream)> {
    let mut tokens = input.into_iter();
    let mut krate = TokenStream::new();
    for token in tokens.by_ref() {
        if let TokenTree::Punct(punct) = &token
            && punct.as_char() == ';'
        {
            return Some((krate, tokens.collect()));
        }
        krate.extend([token]);
    }
    None
}

/// The user's arguments, parsed with syn.
pub(crate) struct Arguments {
    pub path: LitStr,
    pub options: Options,
}

impl Parse for Arguments {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.is_empty() {
            return Err(input.error("expected the skills folder: `embed_skills!(\"skills\")`"));
        }
        let path: LitStr = input.parse().map_err(|error| {
            syn::Error::new(
                error.span(),
                "expected the skills folder as a string literal: `embed_skills!(\"skills\")`",
            )
        })?;
        let mut options = Options::default();
        let mut seen: Vec<String> = Vec::new();
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let name: Ident = input.parse().map_err(|error| {
                syn::Error::new(error.span(), format!("expected an option: {KNOWN}"))
            })?;
            let key = name.to_string();
            if seen.contains(&key) {
                return Err(syn::Error::new(
                    name.span(),
                    format!("`{key}` is given twice"),
                ));
            }
            seen.push(key.clone());
            match key.as_str() {
                "untracked" => options.untracked = true,
                "check_links" => {
                    input.parse::<Token![=]>()?;
                    options.check_links = Some(input.parse::<LitBool>()?.value);
                }
                "allow_fields" => options.allow_fields = string_list(input)?,
                "allow_secrets_in" => options.allow_secrets_in = string_list(input)?,
                "gated" => options.gated = string_list(input)?,
                "generated" => options.generated = string_list(input)?,
                "main_file" => {
                    input.parse::<Token![=]>()?;
                    options.main_file = Some(input.parse::<LitStr>()?.value());
                }
                _ => {
                    return Err(syn::Error::new(
                        name.span(),
                        format!("unknown option `{key}`; the options are: {KNOWN}"),
                    ));
                }
            }
        }
        Ok(Self { path, options })
    }
}

fn string_list(input: ParseStream) -> syn::Result<Vec<String>> {
    input.parse::<Token![=]>()?;
    let content;
    bracketed!(content in input);
    let items = Punctuated::<LitStr, Token![,]>::parse_terminated(&content)?;
    Ok(items.iter().map(LitStr::value).collect())
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;

    fn parse(tokens: TokenStream) -> syn::Result<Arguments> {
        syn::parse2(tokens)
    }

    #[test]
    fn splits_the_forwarded_crate() {
        let (krate, rest) = split_krate(quote!(::skills_runtime; "skills", untracked)).unwrap();
        assert_eq!(krate.to_string(), ":: skills_runtime");
        assert_eq!(rest.to_string(), "\"skills\" , untracked");
        assert!(split_krate(quote!("skills")).is_none());
    }

    #[test]
    fn parses_every_option() {
        let arguments = parse(quote!(
            "skills",
            allow_fields = ["dependencies", "disable-model-invocation"],
            check_links = false,
            allow_secrets_in = ["a/b.md",],
            gated = ["courses/*"],
            generated = ["platform/references/api.md"],
            main_file = "README.md",
            untracked,
        ))
        .unwrap();
        assert_eq!(arguments.path.value(), "skills");
        assert_eq!(
            arguments.options.allow_fields,
            ["dependencies", "disable-model-invocation"]
        );
        assert_eq!(arguments.options.check_links, Some(false));
        assert_eq!(arguments.options.allow_secrets_in, ["a/b.md"]);
        assert_eq!(arguments.options.gated, ["courses/*"]);
        assert_eq!(arguments.options.generated, ["platform/references/api.md"]);
        assert_eq!(arguments.options.main_file.as_deref(), Some("README.md"));
        assert!(arguments.options.untracked);
    }

    #[test]
    fn explains_bad_arguments() {
        let message = |tokens| {
            parse(tokens)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        assert!(message(quote!()).contains("expected the skills folder"));
        assert!(message(quote!(skills)).contains("as a string literal"));
        assert!(message(quote!("s", colour = 1)).contains("unknown option `colour`"));
        assert!(message(quote!("s", untracked, untracked)).contains("given twice"));
        assert!(message(quote!("s", check_links = "no")).contains("expected boolean literal"));
    }
}
