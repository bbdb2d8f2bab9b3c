//! A URI through uri::parse, then looked up in a set of skills; the invariants are
//! `skills_fuzz_invariants::uri_lookup::check`.
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| skills_fuzz_invariants::uri_lookup::check(bytes));
