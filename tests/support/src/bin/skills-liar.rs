//! `skills-liar`: the lying server of `skills_test_support::client::Liar`
//! over stdio, for tests that run the client examples as processes.
//!
//! ```text
//! skills-liar [--legacy] [--terminal] [--stranger URI NAME]...
//! ```
//!
//! Serves the honest `liar` skill and each stranger (a skill listed at
//! `URI`, advertising `NAME`); `--legacy` serves the pre-SEP path only;
//! `--terminal` puts text that acts on a terminal into `liar`'s SKILL.md
//! body and a file name (what a host shows its user when it loads it).

use skills_test_support::client::{Liar, Lie, Stranger, TERMINAL, liar_files};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut liar = Liar::new(Lie::Honest);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--legacy" => liar = liar.legacy(),
            "--terminal" => {
                let mut files = liar_files();
                files[0].1.extend_from_slice(TERMINAL.as_bytes());
                files.push(("references/notes\u{202e}dm.sh".into(), b"echo\n".to_vec()));
                liar.files = files;
            }
            "--stranger" => {
                let (Some(uri), Some(name)) = (args.next(), args.next()) else {
                    eprintln!("skills-liar: --stranger takes a URI and a name");
                    std::process::exit(2);
                };
                liar = liar.with_stranger(Stranger {
                    uri: Box::leak(uri.into_boxed_str()),
                    name: Box::leak(name.into_boxed_str()),
                });
            }
            other => {
                eprintln!("skills-liar: unknown argument {other:?}");
                std::process::exit(2);
            }
        }
    }
    liar.serve(tokio::io::join(tokio::io::stdin(), tokio::io::stdout()))
        .await;
}
