//! The macro output resolves everything through `$crate`, so it compiles in a
//! crate that renames the runtime (`skills = { package = "skills-runtime" }`)
//! and shadows `::core` with an empty crate (`core = { package = "shadow-core" }`).

/// Compiles only while `::core` names the dummy crate: the standard library's
/// `core` has no `ShadowCore`. Without it, this test would prove nothing.
const _: ::core::ShadowCore = ::core::ShadowCore;

// Local items named like the runtime and its private module must not capture
// the macro's paths either.
#[allow(dead_code)]
mod skills_runtime {}
#[allow(dead_code)]
mod __private {}

static TRACKED: skills::Skills = skills::embed_skills!("tests/fixtures/hygiene");

#[test]
fn embeds_through_a_renamed_runtime_with_core_shadowed() {
    let paths: Vec<&str> = TRACKED.skills().iter().map(|skill| skill.path()).collect();
    assert_eq!(paths, ["farewell", "greeting"]);
    let greeting = TRACKED.get("greeting").expect("greeting is embedded");
    assert_eq!(greeting.name(), "greeting");
    let phrases = greeting
        .file("references/phrases.md")
        .expect("the phrasebook is embedded");
    assert_eq!(
        phrases.bytes(),
        include_bytes!("fixtures/hygiene/greeting/references/phrases.md")
    );
}

#[test]
fn two_embeds_in_one_scope_do_not_collide() {
    let first = skills::embed_skills!("tests/fixtures/hygiene");
    let second = skills::embed_skills!("tests/fixtures/hygiene");
    assert_eq!(first.fingerprint(), second.fingerprint());
    assert_eq!(first.fingerprint(), TRACKED.fingerprint());
}
