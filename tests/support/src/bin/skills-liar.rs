//! `skills-liar`: the lying server of `skills_test_support::client::Liar`
//! over stdio, for tests that run the client examples as processes.
//!
//! ```text
//! skills-liar [--legacy] [--stranger URI NAME]...
//! ```
//!
//! Serves the honest `liar` skill and each stranger (a skill listed at
//! `URI`, advertising `NAME`); `--legacy` serves the pre-SEP path only.

use skills_test_support::client::{Liar, Lie, Stranger};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut liar = Liar::new(Lie::Honest);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--legacy" => liar = liar.legacy(),
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
