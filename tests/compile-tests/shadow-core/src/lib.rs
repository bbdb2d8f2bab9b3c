//! Depended on as `core` by skills-compile-tests: any `::core::…` path there
//! resolves to this crate, which holds nothing but [`ShadowCore`].
#![no_std]

/// Proof, at compile time, that `::core` names this crate: the standard
/// library's `core` has no such item.
pub struct ShadowCore;
