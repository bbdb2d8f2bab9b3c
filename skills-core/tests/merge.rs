//! Skill packs: sets from several crates merged into one for a server
//! (`merge_skills`), and the clashes that must stop it at start-up.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use skills_core::{Options, Skill, Skills, load, merge_skills};

/// A fresh folder holding one skill per `(path, name)`.
fn tree(name: &str, skills: &[(&str, &str)]) -> PathBuf {
    let root =
        std::env::temp_dir().join(format!("skills-core-merge-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for (path, skill) in skills {
        let file = root.join(path).join("SKILL.md");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        let text = format!("---\nname: {skill}\ndescription: Does {skill}.\n---\n# {skill}\n");
        std::fs::write(file, text).unwrap();
    }
    root
}

fn loaded(root: &Path) -> Skills {
    load(root, &Options::default()).unwrap().into_skills()
}

/// `set` as if an `embed_skills!` of crate `name` had produced it.
fn pack(set: &Skills, name: &'static str, version: &'static str) -> Skills {
    Skills::from_parts(
        Cow::Owned(set.skills().to_vec()),
        Cow::Owned(set.fingerprint().to_owned()),
        Some((Cow::Borrowed(name), Cow::Borrowed(version))),
    )
}

fn paths(skills: &Skills) -> Vec<&str> {
    skills.skills().iter().map(Skill::path).collect()
}

#[test]
fn packs_merge_into_one_sorted_set_with_the_fingerprint_of_one_tree() {
    let own = tree("own", &[("stock-audit", "stock-audit")]);
    let pdf = tree(
        "pdf",
        &[("pdf-forms", "pdf-forms"), ("acme/pdf-fill", "pdf-fill")],
    );
    let both = tree(
        "both",
        &[
            ("stock-audit", "stock-audit"),
            ("pdf-forms", "pdf-forms"),
            ("acme/pdf-fill", "pdf-fill"),
        ],
    );
    let own_set = pack(&loaded(&own), "larder", "1.2.0");
    let pdf_set = pack(&loaded(&pdf), "pdf-pack", "0.3.1");
    let merged = merge_skills([&own_set, &pdf_set]).unwrap();
    assert_eq!(
        paths(&merged),
        ["acme/pdf-fill", "pdf-forms", "stock-audit"]
    );
    // Lookups (binary searches) work on the merged tables.
    assert_eq!(merged.get("pdf-forms").unwrap().name(), "pdf-forms");
    assert!(merged.by_uri("skill://acme/pdf-fill/SKILL.md").is_some());
    // The fingerprint is the one a single tree holding every skill has.
    assert_eq!(merged.fingerprint(), loaded(&both).fingerprint());
    assert_ne!(merged.fingerprint(), own_set.fingerprint());
    // It introduces itself as the first set's crate.
    assert_eq!(merged.package(), Some(("larder", "1.2.0")));
    // Merging nothing, or one set, changes nothing a client sees.
    assert_eq!(
        merge_skills([]).unwrap().fingerprint(),
        Skills::empty().fingerprint()
    );
    assert_eq!(
        merge_skills([&pdf_set]).unwrap().fingerprint(),
        pdf_set.fingerprint()
    );
    for root in [own, pdf, both] {
        std::fs::remove_dir_all(root).unwrap();
    }
}

#[test]
fn a_name_clash_names_both_packs() {
    let first = tree("clash-a", &[("pdf", "pdf")]);
    let second = tree("clash-b", &[("tools/pdf", "pdf")]);
    let a = pack(&loaded(&first), "pdf-pack", "0.3.1");
    let b = pack(&loaded(&second), "office-pack", "2.0.0");
    let error = merge_skills([&a, &b]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "two packs provide a skill named `pdf`: the pack `pdf-pack` 0.3.1 (at `pdf`) and the pack `office-pack` 2.0.0 (at `tools/pdf`); hosts key skills by name, so rename one of them or leave one pack out"
    );
    assert_eq!((error.first_name(), error.second_name()), ("pdf", "pdf"));
    // A set loaded at run time has no crate: it is named by its position.
    let unnamed = loaded(&second);
    let error = merge_skills([&a, &unnamed]).unwrap_err();
    assert!(
        error.to_string().contains("and set 2 (no crate recorded)"),
        "{error}"
    );
    for root in [first, second] {
        std::fs::remove_dir_all(root).unwrap();
    }
}

#[test]
fn a_skill_inside_another_packs_skill_is_refused() {
    let outer = tree("outer", &[("acme", "acme")]);
    let inner = tree("inner", &[("acme/refunds", "refunds")]);
    let a = pack(&loaded(&outer), "acme-pack", "1.0.0");
    let b = pack(&loaded(&inner), "refunds-pack", "1.0.0");
    for order in [[&a, &b], [&b, &a]] {
        let error = merge_skills(order).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the skill `acme/refunds` of the pack `refunds-pack` 1.0.0 lies inside the folder of the skill `acme` of the pack `acme-pack` 1.0.0, so their URIs would overlap; move one of them"
        );
    }
    for root in [outer, inner] {
        std::fs::remove_dir_all(root).unwrap();
    }
}
