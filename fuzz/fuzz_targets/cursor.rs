//! The server's cursor decoder; the invariants are
//! `skills_fuzz_invariants::cursor::check`.
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| skills_fuzz_invariants::cursor::check(bytes));
