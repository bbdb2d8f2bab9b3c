// Each option relaxes exactly the rule it names. The secret fixture is the one
// `tests/ui/secret.rs` rejects, allowed the way that error's hint says.
static LENIENT: skills::Skills = skills::embed_skills!(
    "./fixtures/lenient",
    allow_fields = ["author"],
    check_links = false,
    untracked,
);
static ALLOWED_SECRET: skills::Skills = skills::embed_skills!(
    "./../ui/fixtures/secret",
    allow_secrets_in = ["deploy/references/setup.md"],
    untracked
);

fn main() {
    let report = LENIENT.get("report").expect("report is embedded");
    assert!(report.extra_fields_json().contains(r#""author":"Platform Team""#));
    let deploy = ALLOWED_SECRET.get("deploy").expect("deploy is embedded");
    assert!(deploy.file("references/setup.md").is_some());
}
