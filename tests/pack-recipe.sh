#!/usr/bin/env bash
# The recipe for skill authors, end to end, on a scratch crate that ships a
# pack of skills, exactly as the README tells an author to build one:
#
#   skills init --path <clone> --tests   the Quickstart's pieces + the trybuild recipe
#   skills new pdf-forms                 a skill that passes every rule
#   (paste the `pub static SKILLS` line `skills init` prints)
#   TRYBUILD=overwrite cargo test        records the compile_fail snapshot
#
# and the Quickstart in a binary crate as `cargo new` leaves it (`skills init`
# writes its main, which compiles and says when no client connected).
#
# Then it checks that the new skill embeds (`embed_skills!`), that the
# snapshot names paths relative to the macro's argument (nothing of this
# machine), that a copy of the crate at another path passes against the
# same snapshot, and that breaking a skill fails the tests.
#
# The scratch crate builds into the workspace's target folder, so it reuses
# what the compile-tests built (and its trybuild cases share their
# `target/tests/trybuild`). Run by .ci/run after the workspace's tests.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
cargo build --quiet --locked -p skills-cli --manifest-path "$repo/Cargo.toml"
skills="$CARGO_TARGET_DIR/debug/skills"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/skills-pack-recipe.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
fail() { echo "pack-recipe: $*" >&2; exit 1; }

pack="$scratch/first/pdf-pack"
mkdir -p "$pack/src"
cat >"$pack/Cargo.toml" <<'EOF'
[package]
name = "pdf-pack"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]

# Its own workspace, wherever the temporary folder is.
[workspace]
EOF
printf '//! A pack of skills for other servers to serve.\n' >"$pack/src/lib.rs"
# The workspace's versions, already downloaded: --offline works.
cp "$repo/Cargo.lock" "$pack/Cargo.lock"
cd "$pack"

"$skills" init --path "$repo" --tests
"$skills" new pdf-forms
line="$("$skills" init | sed -n 's/.*paste `\(pub static SKILLS: .*;\)`.*/\1/p')"
[ -n "$line" ] || fail "skills init printed no line to paste"
printf '\n%s\n' "$line" >>src/lib.rs
# The new skill passes, with a warning until its description is written.
"$skills" check skills >"$scratch/check.log" || { cat "$scratch/check.log" >&2; fail "the new skill does not pass"; }
grep -q 'warning\[placeholder-description\]' "$scratch/check.log" || { cat "$scratch/check.log" >&2; fail "no warning for the placeholder description"; }
sed -i 's/^description: .*$/description: Fills PDF forms. Use when the user shares a PDF form to complete./' skills/pdf-forms/SKILL.md
"$skills" check --deny-warnings skills

echo "--- recording the snapshot (TRYBUILD=overwrite)"
TRYBUILD=overwrite cargo test --quiet --offline --test skills
snapshot=tests/skills/ui/name_mismatch.stderr
[ -f "$snapshot" ] || fail "trybuild wrote no $snapshot"
grep -q 'error\[name-mismatch\]' "$snapshot" || fail "$snapshot lacks the rule"
grep -qF -- '--> ./fixtures/name-mismatch/pdf/SKILL.md:2:7' "$snapshot" || fail "$snapshot lacks the relative place"
if grep -qF "$scratch" "$snapshot"; then fail "$snapshot names this machine's paths"; fi

echo "--- a copy at another path passes against the same snapshot"
# The same depth, so the path dependency written by `skills init` still resolves.
copy="$scratch/second/pdf-pack"
mkdir -p "$(dirname "$copy")"
cp -r "$pack" "$copy"
(cd "$copy" && cargo test --quiet --offline --test skills)

echo "--- a broken skill fails the tests"
sed -i 's/^name: pdf-forms$/name: pdf-form/' skills/pdf-forms/SKILL.md
if cargo test --quiet --offline --test skills >"$scratch/broken.log" 2>&1; then
    fail "the tests passed with a misnamed skill"
fi
grep -q 'name-mismatch' "$scratch/broken.log" || { cat "$scratch/broken.log" >&2; fail "the failure does not name the rule"; }
echo "--- the Quickstart in a binary crate, as \`cargo new\` leaves it"
# `skills init` adds rmcp and tokio and replaces the hello world with the
# Quickstart's main; that main compiles and, with its input closed before a
# client spoke, says that no client connected (and exits 1).
server="$scratch/first/larder"
mkdir -p "$server/src"
cat >"$server/Cargo.toml" <<'EOF'
[package]
name = "larder"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]

[workspace]
EOF
printf 'fn main() {\n    println!("Hello, world!");\n}\n' >"$server/src/main.rs"
cp "$repo/Cargo.lock" "$server/Cargo.lock"
cd "$server"
"$skills" init --path "$repo"
"$skills" new stock-audit
grep -qF 'embed_skills!("skills")' src/main.rs || fail "skills init did not write the Quickstart's main"
cargo build --quiet --offline
if "$CARGO_TARGET_DIR/debug/larder" </dev/null 2>"$scratch/larder.log"; then
    fail "larder exited 0 with no client"
fi
grep -q 'no client connected' "$scratch/larder.log" || { cat "$scratch/larder.log" >&2; fail "larder did not say that no client connected"; }
echo "pack recipe: ok"
