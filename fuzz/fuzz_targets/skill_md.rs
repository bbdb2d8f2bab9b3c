//! One SKILL.md's bytes through parse_skill_md and the loader; the invariants are
//! `skills_fuzz_invariants::skill_md::check`.
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| skills_fuzz_invariants::skill_md::check(bytes));
