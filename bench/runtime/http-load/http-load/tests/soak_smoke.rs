//! The load smoke CI runs (`.ci/run`): `http-load soak` for 5 s with 16
//! sessions and 4 stateless 2026-07-28 clients against the debug build of
//! `examples/http_server` (the repository's `examples/skills/`, one skill and two
//! resources per page, so every listing pages). The soak exits 1 on any
//! failed request or any answer that differs from the manifest; this test
//! also reads its summary, so a soak that did nothing cannot pass.
//!
//! Ignored in the ordinary test run; `.ci/run` runs it as its own step:
//! `cargo test --workspace --all-features --locked --test soak_smoke -- --ignored --nocapture`
//! (the features, hence the build, of the other tests).

use std::process::Command;

use serde_json::Value;
use skills_test_support::examples;

#[test]
#[ignore = "the load smoke: .ci/run runs it as its own step"]
fn sixteen_sessions_and_four_stateless_clients_for_five_seconds() {
    let server = examples::executable("http_server");
    let output = Command::new(env!("CARGO_BIN_EXE_http-load"))
        .args([
            "soak",
            "--secs",
            "5",
            "--sessions",
            "16",
            "--stateless",
            "4",
            "--",
        ])
        .arg(&server)
        .args(["--bind", "127.0.0.1:{port}"])
        .args(["--skills-page-size", "1", "--resources-page-size", "2"])
        .output()
        .expect("http-load runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let summary: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|_| panic!("http-load printed no summary: {stdout}"));
    assert!(output.status.success(), "the soak failed: {summary:#}");
    assert_eq!(summary["errors"], 0, "{summary:#}");
    assert_eq!(summary["mismatches"], 0, "{summary:#}");
    let requests = summary["requests"].as_u64().unwrap_or(0);
    assert!(
        requests >= 100,
        "only {requests} requests in 5 s: {summary:#}"
    );
    for (method, kinds) in summary["by_op"].as_object().expect("by_op") {
        for kind in ["session", "stateless"] {
            let done = kinds[kind]["requests"].as_u64().unwrap_or(0);
            assert!(done > 0, "no {kind} client sent {method}: {summary:#}");
        }
    }
    assert!(summary["rss_kb"]["samples"].as_u64().unwrap_or(0) >= 5);
    eprintln!(
        "{requests} requests ({:.0}/s), {} errors, {} mismatches; p99 {} ms; server RSS {} -> max {} kB",
        summary["req_per_s"].as_f64().unwrap_or(0.0),
        summary["errors"],
        summary["mismatches"],
        summary["lat_ms"]["p99"],
        summary["rss_kb"]["first"],
        summary["rss_kb"]["max"],
    );
}
