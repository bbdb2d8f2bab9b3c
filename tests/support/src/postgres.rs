//! A throwaway PostgreSQL cluster for a test: `initdb` in a temporary
//! folder, the server on a free loopback port with its socket in that
//! folder, stopped and removed when dropped. Nothing system-wide is
//! touched. `initdb` refuses to run as root, so as root (CI) every server
//! program runs as the package's `postgres` user (`runuser -u postgres`).
//!
//! A test that uses it is `#[ignore = "needs PostgreSQL (initdb)"]`:
//! [`needs::postgres`] finds the programs or fails
//! naming the package.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Output};

use crate::needs;

/// The password of the cluster's `postgres` user: host connections need
/// it (scram-sha-256), so a test can also try a wrong one.
pub const PASSWORD: &str = "kestrel-test-secret";

/// A running cluster, removed when dropped.
pub struct Cluster {
    folder: PathBuf,
    port: u16,
    as_postgres: bool,
}

impl Cluster {
    /// `initdb` a new cluster and start it.
    pub fn start() -> Cluster {
        let as_postgres = is_root();
        let folder = if as_postgres {
            // A folder the `postgres` user owns, made by that user.
            let made = run(
                Command::new("runuser").args([
                    "-u",
                    "postgres",
                    "--",
                    "mktemp",
                    "-d",
                    "-t",
                    "skills-pg-XXXXXX",
                ]),
                "mktemp",
            );
            PathBuf::from(String::from_utf8_lossy(&made.stdout).trim())
        } else {
            let folder = std::env::temp_dir().join(format!(
                "skills-pg-{}-{}",
                std::process::id(),
                free_port()
            ));
            std::fs::create_dir_all(&folder).expect("a temporary folder");
            folder
        };
        let cluster = Cluster {
            port: free_port(),
            folder,
            as_postgres,
        };
        let password_file = cluster.folder.join("password");
        cluster.as_owner(&[
            "sh",
            "-c",
            &format!("printf %s '{PASSWORD}' > '{}'", password_file.display()),
        ]);
        let initdb = needs::postgres("initdb");
        cluster.as_owner(&[
            initdb.to_str().unwrap(),
            "--pgdata",
            cluster.data().to_str().unwrap(),
            "--username",
            "postgres",
            "--pwfile",
            password_file.to_str().unwrap(),
            "--auth-host",
            "scram-sha-256",
            "--auth-local",
            "trust",
            "--encoding",
            "UTF8",
            "--no-instructions",
        ]);
        cluster.resume();
        cluster
    }

    /// `postgres://postgres:PASSWORD@127.0.0.1:PORT/postgres`.
    pub fn url(&self) -> String {
        format!(
            "postgres://postgres:{PASSWORD}@127.0.0.1:{}/postgres",
            self.port
        )
    }

    /// The loopback port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Stops the server (an outage); [`resume`](Self::resume) starts it
    /// again on the same port with the same data.
    pub fn stop(&self) {
        let pg_ctl = needs::postgres("pg_ctl");
        self.as_owner(&[
            pg_ctl.to_str().unwrap(),
            "--pgdata",
            self.data().to_str().unwrap(),
            "--mode",
            "fast",
            "--wait",
            "stop",
        ]);
    }

    /// Starts the server and waits until it accepts connections.
    pub fn resume(&self) {
        let pg_ctl = needs::postgres("pg_ctl");
        let options = format!(
            "-c listen_addresses=127.0.0.1 -c port={} -c unix_socket_directories='{}' -c fsync=off",
            self.port,
            self.folder.display()
        );
        self.as_owner(&[
            pg_ctl.to_str().unwrap(),
            "--pgdata",
            self.data().to_str().unwrap(),
            "--log",
            self.folder.join("server.log").to_str().unwrap(),
            "--options",
            &options,
            "--wait",
            "start",
        ]);
    }

    fn data(&self) -> PathBuf {
        self.folder.join("data")
    }

    /// Runs `argv` as the cluster's owner, and asserts it succeeded.
    fn as_owner(&self, argv: &[&str]) -> Output {
        let mut command = if self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]);
            command.args(argv);
            command
        } else {
            let mut command = Command::new(argv[0]);
            command.args(&argv[1..]);
            command
        };
        command.current_dir(&self.folder);
        run(&mut command, argv[0])
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if self.data().join("postmaster.pid").exists() {
            let pg_ctl = needs::postgres("pg_ctl");
            let mut command = if self.as_postgres {
                let mut command = Command::new("runuser");
                command.args(["-u", "postgres", "--"]).arg(&pg_ctl);
                command
            } else {
                Command::new(&pg_ctl)
            };
            let _ = command
                .arg("--pgdata")
                .arg(self.data())
                .args(["--mode", "immediate", "--wait", "stop"])
                .output();
        }
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

fn run(command: &mut Command, what: &str) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|error| panic!("cannot run {what}: {error}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| String::from_utf8_lossy(&output.stdout).trim() == "0")
}

/// A loopback port nobody listens on right now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free loopback port")
        .port()
}
