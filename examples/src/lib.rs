//! The examples of skills-runtime (not published).
//!
//! This package owns the examples (`examples/*.rs`) and their skills
//! (`examples/skills/`), and compiles the code of the README and of the
//! guide (`docs/guide/`) as doc tests against them. That code uses every feature, so it is compiled with
//! the `readme` feature (`cargo test --doc --all-features`, as `.ci/run`
//! does); without it, this crate is empty and `cargo run --example demo`
//! builds only what the demo uses.
#![cfg_attr(feature = "readme", doc = include_str!("../../README.md"))]

/// One module per page of the guide, so that every Rust block in it is a doc test.
#[cfg(feature = "readme")]
macro_rules! guide {
    ($($module:ident => $page:literal,)*) => {
        $(
            #[doc = include_str!(concat!("../../docs/guide/", $page))]
            mod $module {}
        )*

        /// The pages compiled above, for the test that finds a page left out.
        #[cfg(test)]
        const GUIDE_PAGES: &[&str] = &[$($page),*];
    };
}

#[cfg(feature = "readme")]
guide! {
    guide_index => "README.md",
    guide_embed => "embed.md",
    guide_serve => "serve.md",
    guide_per_user => "per-user.md",
    guide_live => "live.md",
    guide_sync => "sync.md",
    guide_install => "install.md",
    guide_packs => "packs.md",
}

#[cfg(all(test, feature = "readme"))]
mod tests {
    /// A page added to docs/guide/ without a line above would have its
    /// code blocks never compiled.
    #[test]
    fn every_page_of_the_guide_is_compiled() {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/guide");
        let mut pages: Vec<String> = std::fs::read_dir(folder)
            .unwrap_or_else(|error| panic!("cannot read {folder}: {error}"))
            .map(|entry| entry.expect("a readable entry").file_name())
            .map(|name| name.to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".md"))
            .collect();
        pages.sort();
        let mut compiled: Vec<&str> = super::GUIDE_PAGES.to_vec();
        compiled.sort();
        assert_eq!(
            pages, compiled,
            "every page of docs/guide/ must be listed in examples/src/lib.rs's guide! block"
        );
    }
}
