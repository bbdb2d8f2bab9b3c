//! nginx in front of two replicas, with the configuration
//! docs/guide/serve.md documents (read from the guide itself, so the tested
//! and the documented configuration are one text): unprivileged, in the
//! foreground, everything under a scratch folder, on a loopback port.

use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::examples::workspace_dir;
use crate::process::Running;

/// The one ```nginx block of docs/guide/serve.md, with its replica addresses
/// (`HOST:PORT`) and its listening port replaced by the test's.
pub fn documented_config(replicas: [&str; 2], port: u16) -> String {
    let guide = workspace_dir().join("docs/guide/serve.md");
    let text = std::fs::read_to_string(&guide)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", guide.display()));
    let blocks: Vec<&str> = text
        .split("```nginx\n")
        .skip(1)
        .map(|rest| rest.split("\n```").next().expect("a closed block"))
        .collect();
    let [block] = blocks.as_slice() else {
        panic!(
            "docs/guide/serve.md must hold exactly one ```nginx block, not {}",
            blocks.len()
        );
    };
    let mut config = (*block).to_owned();
    for (documented, actual) in [
        ("server 127.0.0.1:8081;", format!("server {};", replicas[0])),
        ("server 127.0.0.1:8082;", format!("server {};", replicas[1])),
        ("listen 8080;", format!("listen 127.0.0.1:{port};")),
    ] {
        assert_eq!(
            config.matches(documented).count(),
            1,
            "the nginx block of docs/guide/serve.md must contain `{documented}` once"
        );
        config = config.replace(documented, &actual);
    }
    config
}

/// A loopback port free when asked.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

/// nginx serving `site` (a `server { … }` block, such as
/// [`documented_config`]'s) on `port`; stopped, and its folder removed,
/// when dropped.
pub struct Nginx {
    running: Option<Running>,
    dir: PathBuf,
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // nginx stops before its folder goes.
        drop(self.running.take());
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Starts nginx (found by [`needs::program`](crate::needs::program)) with
/// `site` on `127.0.0.1:port`, everything under a scratch folder named after
/// `test`; returns once it accepts connections.
pub fn start(test: &str, site: &str, port: u16) -> Nginx {
    let nginx = crate::needs::program("nginx");
    let dir = std::env::temp_dir().join(format!("skills-nginx-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    std::fs::write(dir.join("skills.conf"), site).unwrap();
    let d = dir.display();
    let main = format!(
        "worker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log notice;\n\
         events {{ worker_connections 64; }}\n\
         http {{\n    access_log {d}/access.log;\n    client_body_temp_path {d}/client_body;\n    \
         proxy_temp_path {d}/proxy;\n    fastcgi_temp_path {d}/fastcgi;\n    uwsgi_temp_path {d}/uwsgi;\n    \
         scgi_temp_path {d}/scgi;\n    include {d}/skills.conf;\n}}\n"
    );
    std::fs::write(dir.join("nginx.conf"), main).unwrap();
    let child = Command::new(nginx)
        .arg("-p")
        .arg(&dir)
        .arg("-c")
        .arg(dir.join("nginx.conf"))
        .arg("-e")
        .arg(dir.join("error.log"))
        .args(["-g", "daemon off;"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start nginx");
    let mut running = Running(child);
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        let log = || std::fs::read_to_string(dir.join("error.log")).unwrap_or_default();
        if let Some(status) = running.0.try_wait().unwrap() {
            let log = log();
            let _ = std::fs::remove_dir_all(&dir);
            panic!("nginx exited ({status}):\n{log}");
        }
        assert!(
            Instant::now() < deadline,
            "nginx never listened:\n{}",
            log()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    Nginx {
        running: Some(running),
        dir,
    }
}
