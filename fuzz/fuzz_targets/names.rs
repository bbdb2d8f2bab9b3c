//! Path and name rules: one path per line; the invariants are
//! `skills_fuzz_invariants::names::check`.
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| skills_fuzz_invariants::names::check(bytes));
