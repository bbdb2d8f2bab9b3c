//! Tests of `embed_skills!` that need a whole crate around the macro call
//! (see `tests/`): trybuild UI snapshots, hygiene under a renamed runtime and
//! a shadowed `core`, the shared skill corpus, and rebuild tracking with a
//! real Cargo. The library itself is empty.
