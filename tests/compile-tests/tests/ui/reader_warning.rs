// What the pinned readers would do differently with a skill that passes the
// rules is a warning: a field accepted with `allow_fields` that skills-ref
// refuses and fast-agent ignores. The warning is an error here, so that its
// words are part of the snapshot. A skill in a grouping folder, which
// fast-agent's registry does not look into, gets none: where a host is
// pointed is not the skill's business (`skills check` still says it).
#![deny(deprecated)]

static SKILLS: skills::Skills = skills::embed_skills!(
    "./fixtures/reader-warning",
    allow_fields = ["dependencies"],
    untracked
);

fn main() {
    println!("{}", SKILLS.len());
}
