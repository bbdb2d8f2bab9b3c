//! The integration tests of skills-runtime: one test binary, one module per
//! area (ripgrep's layout), so that rmcp, tokio and axum are linked once.
//! Each module names the features it needs; skills-test-support turns on all
//! of them but `rig` for the crate's own test runs, so `cargo test -p
//! skills-runtime` runs every module. One test, or one area:
//! `cargo test -p skills-runtime --test integration client_lies::`.
//!
//! A file of tests/ not declared here would never run: skills-test-paths'
//! `every_test_file_is_declared_in_its_packages_tests_rs` fails, naming it.
//!
//! The tests share one process: a test that needs a fresh folder makes one
//! of its own (the helpers of skills-test-support number them), and none
//! changes the process's environment or current folder.

#[cfg(feature = "server")]
mod access;
#[cfg(feature = "http")]
mod access_http;
#[cfg(feature = "http")]
mod catalog_routes;
#[cfg(all(feature = "server", feature = "client"))]
mod client;
#[cfg(all(feature = "server", feature = "client"))]
mod client_approval;
#[cfg(all(feature = "server", feature = "client"))]
mod client_catalog;
#[cfg(feature = "client")]
mod client_lies;
#[cfg(feature = "client")]
mod client_order;
#[cfg(feature = "server")]
mod composition;
#[cfg(all(feature = "server", feature = "load"))]
mod generated;
#[cfg(feature = "server")]
mod hosts;
#[cfg(feature = "install")]
mod install;
#[cfg(feature = "watch")]
mod live;
#[cfg(feature = "server")]
mod prompts;
#[cfg(feature = "server")]
mod protocol;
#[cfg(all(feature = "server", feature = "load"))]
mod readme;
#[cfg(feature = "http")]
mod well_known;

/// Serves `router` on a free loopback port for the rest of the test run;
/// returns its base URL.
#[cfg(feature = "http")]
async fn serve_router(router: axum::Router) -> String {
    let server = skills_runtime::http::Server::bind("127.0.0.1:0")
        .await
        .unwrap()
        .until(std::future::pending());
    let base = server.url();
    tokio::spawn(server.serve(router));
    base
}
