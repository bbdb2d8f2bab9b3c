//! usage: macro-profile <tree> [reps] [expanded.rs]
//! Times, on the same tree, what embed_skills! does inside rustc, phase by phase (median of reps):
//!   load      skills_core::load: walk, read, validate (YAML, fields, links, secrets), hash, tables
//!   load_cached  the same with a warm read cache (Options::cache_dir, as embed_skills! gives it the
//!             crate's OUT_DIR): what a rebuild after touching one file costs
//!   read      walking the tree and reading every file (std::fs), the I/O part of load
//!   sha256    skills_core::digest::sha256 over every file
//!   is_text   skills_core::mime::is_text over every file (UTF-8 + NUL check)
//!   secrets   the secret scanner (skills-core/src/secrets.rs) over every text file
//!   generate  skills-macros' generate::source: the tables as Rust source text
//!   render    lexing that text into a proc_macro2::TokenStream (a stand-in for rustc's lexer,
//!             which the macro hands the text to; proc_macro2's fallback lexer is slower)
//! The rest of load (YAML parsing, field and link checks, tables) is load - read - sha256 -
//! is_text - secrets. With a third argument, writes the expanded code as a crate root
//! (`static SKILLS: Skills = <tables>;` + a checksum main) to compile without the macro.
#![allow(dead_code)]

#[path = "../../../../skills-core/src/secrets.rs"]
mod secrets;

// What secrets.rs imports from skills-core's crate root, from skills-core's public API; the
// profile times the scan only, so the collector is a plain list.
mod diagnostic {
    pub use skills_core::{Diagnostic, Position};

    pub struct Diagnostics(pub Vec<Diagnostic>);

    impl Diagnostics {
        pub fn push(&mut self, diagnostic: Diagnostic) {
            self.0.push(diagnostic);
        }
    }
}

mod rules {
    pub use skills_core::{OptionHint, Rule};
}

#[path = "../../../../skills-macros/src/generate.rs"]
mod generate;

use std::path::{Path, PathBuf};
use std::time::Instant;

fn files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let t = entry.file_type().unwrap();
            if t.is_dir() {
                stack.push(entry.path());
            } else if t.is_file() {
                out.push(entry.path());
            }
        }
    }
    out.sort();
    out
}

fn time<T>(reps: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..reps {
        let t = Instant::now();
        let v = f();
        times.push(t.elapsed().as_secs_f64() * 1e3);
        last = Some(v);
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (times[times.len() / 2], last.unwrap())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(args.next().expect("usage: macro-profile <tree> [reps] [expanded.rs]"));
    let reps: usize = args.next().map(|r| r.parse().unwrap()).unwrap_or(5);
    let expanded = args.next();
    let options = skills_core::Options::default();
    let (load_ms, loaded) = time(reps, || skills_core::load(&root, &options).expect("the tree loads"));
    let cache_dir = std::env::temp_dir().join(format!("macro-profile-cache-{}", std::process::id()));
    std::fs::create_dir_all(&cache_dir).unwrap();
    let mut cached_options = skills_core::Options::default();
    cached_options.cache_dir = Some(cache_dir.clone());
    skills_core::load(&root, &cached_options).expect("the tree loads"); // warms the cache
    let (load_cached_ms, _) = time(reps, || skills_core::load(&root, &cached_options).expect("the tree loads"));
    let _ = std::fs::remove_dir_all(&cache_dir);
    let (read_ms, contents) = time(reps, || files(&root).into_iter().map(|p| std::fs::read(p).unwrap()).collect::<Vec<_>>());
    let (sha_ms, _) = time(reps, || contents.iter().map(|b| skills_core::digest::sha256(b).len()).sum::<usize>());
    let (text_ms, _) = time(reps, || contents.iter().filter(|b| skills_core::mime::is_text(b)).count());
    let texts: Vec<&str> = contents
        .iter()
        .filter(|b| skills_core::mime::is_text(b))
        .map(|b| std::str::from_utf8(b).unwrap())
        .collect();
    // One automaton for the whole load, chosen by how much text it scans, as the loader does.
    let scanner = secrets::Scanner::for_bytes(texts.iter().map(|t| t.len()).sum());
    let (secrets_ms, _) = time(reps, || texts.iter().map(|t| scanner.scan(t).len()).sum::<usize>());
    let krate: proc_macro2::TokenStream = "::skills_runtime".parse().unwrap();
    let (gen_ms, source) = time(reps, || generate::source(&loaded, &options, &[], false));
    let (render_ms, _) = time(reps, || source.parse::<proc_macro2::TokenStream>().unwrap());
    let text = generate::skills(&krate, source.parse().unwrap()).to_string();
    let bytes: usize = contents.iter().map(Vec::len).sum();
    let rest = load_ms - read_ms - sha_ms - text_ms - secrets_ms;
    println!(
        "{{\"tree\":{:?},\"files\":{},\"bytes\":{},\"reps\":{},\"load_ms\":{:.2},\"load_cached_ms\":{:.2},\"read_ms\":{:.2},\"sha256_ms\":{:.2},\"is_text_ms\":{:.2},\"secrets_ms\":{:.2},\"yaml_fields_links_tables_ms\":{:.2},\"generate_ms\":{:.2},\"render_ms\":{:.2},\"expanded_chars\":{}}}",
        root.display().to_string(), contents.len(), bytes, reps, load_ms, load_cached_ms, read_ms, sha_ms, text_ms, secrets_ms, rest, gen_ms, render_ms, text.len()
    );
    if let Some(path) = expanded {
        let source = format!(
            "// Generated by bench/build-time/macro-profile: what embed_skills! expands to on {}.\n\
             static SKILLS: ::skills_runtime::Skills = {text};\n\
             fn main() {{\n    let (mut n, mut b, mut s) = (0u64, 0u64, 0u64);\n    for (_, f) in SKILLS.files() {{\n        \
             let mut h: u64 = 0xcbf29ce484222325;\n        for &x in f.bytes() {{ h ^= x as u64; h = h.wrapping_mul(0x100000001b3); }}\n        \
             n += 1; b += f.bytes().len() as u64; s = s.wrapping_add(h);\n    }}\n    \
             println!(\"files={{n}} bytes={{b}} checksum={{s:016x}}\");\n}}\n",
            root.display()
        );
        std::fs::write(path, source).unwrap();
    }
}
