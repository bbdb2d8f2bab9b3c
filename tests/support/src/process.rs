//! The tests' child processes: a server that prints `listening URL` as its
//! first line ([`Listening`]), a program run to its end within a time limit
//! ([`run`]), and a guard that stops a process when dropped ([`Running`]).

use std::io::{BufRead as _, BufReader};
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A child process stopped (and reaped) when dropped: `SIGTERM` first, so
/// that a master process (nginx's) stops its workers (`SIGKILL` would orphan
/// them), then `SIGKILL` after five seconds.
pub struct Running(pub Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A server that printed `listening URL` (`examples/http_server`, the
/// course platform, `skills serve`), killed when dropped.
pub struct Listening {
    child: Child,
    _stdout: BufReader<ChildStdout>,
    /// The URL it printed, such as `http://127.0.0.1:41234`.
    pub base: String,
}

impl Listening {
    /// Starts `command` (no stdin, its stderr discarded) and reads its first
    /// line, which must be `listening URL`.
    pub fn start(command: &mut Command) -> Listening {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {command:?}: {error}"));
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).expect("the first line");
        let base = line
            .trim()
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("{command:?} printed {line:?}"))
            .to_owned();
        Listening {
            child,
            _stdout: stdout,
            base,
        }
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How a program run by [`run`] ended.
pub struct Finished {
    /// Its exit status; `None` when it was killed at the time limit.
    pub status: Option<ExitStatus>,
    /// Everything it printed on stdout.
    pub stdout: String,
    /// Everything it printed on stderr.
    pub stderr: String,
}

impl Finished {
    /// Whether it exited with status 0 within the time limit.
    pub fn success(&self) -> bool {
        self.status.is_some_and(|status| status.success())
    }
}

/// Runs `command` (no stdin) to its end, killing it after `limit`; both of
/// its outputs are read while it runs, so a chatty program never blocks on
/// a full pipe. `Err` when it cannot start.
pub fn run(command: &mut Command, limit: Duration) -> std::io::Result<Finished> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let stdout = drain(child.stdout.take().unwrap());
    let stderr = drain(child.stderr.take().unwrap());
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Ok(Finished {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    })
}

fn drain(mut pipe: impl std::io::Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = pipe.read_to_string(&mut text);
        text
    })
}
