//! What every mode shares: the manifest, digests, the file order, medians,
//! latency percentiles and what /proc says about the server.

use base64::Engine as _;
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};

/// One file of the manifest, as `skills/list` described it.
#[derive(Clone)]
pub struct FileRef {
    pub uri: String,
    pub size: u64,
    pub digest: String,
}

/// Adds the files of one `skills/list` page to `files` (keyed by URI).
pub fn collect_files(page: &Value, files: &mut std::collections::BTreeMap<String, FileRef>) {
    for skill in page["skills"].as_array().expect("a skills array") {
        for file in skill["resources"]
            .as_array()
            .expect("a resources array (not dynamic)")
        {
            let uri = file["uri"].as_str().expect("a uri").to_owned();
            files.insert(
                uri.clone(),
                FileRef {
                    uri,
                    size: file["size"].as_u64().expect("a size"),
                    digest: file["digest"].as_str().expect("a digest").to_owned(),
                },
            );
        }
    }
}

/// A short fingerprint of the request universe (sorted uri, size, digest), to
/// show every server got the same mix.
pub fn manifest_fingerprint(files: &[FileRef]) -> String {
    let mut hash = Sha256::new();
    for file in files {
        hash.update(format!("{}\t{}\t{}\n", file.uri, file.size, file.digest).as_bytes());
    }
    hash.finalize()
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub fn sha256_digest(bytes: &[u8]) -> String {
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// The bytes of a `resources/read` result's first content item.
pub fn read_bytes(result: &Value) -> Option<Vec<u8>> {
    let item = &result["contents"][0];
    if let Some(text) = item.get("text").and_then(Value::as_str) {
        return Some(text.as_bytes().to_vec());
    }
    base64::engine::general_purpose::STANDARD
        .decode(item.get("blob")?.as_str()?)
        .ok()
}

/// Whether a read answered `file` exactly (uri echoed, size and digest).
pub fn read_matches(result: &Value, file: &FileRef) -> bool {
    let Some(bytes) = read_bytes(result) else {
        return false;
    };
    result["contents"][0]["uri"].as_str() == Some(&file.uri)
        && bytes.len() as u64 == file.size
        && sha256_digest(&bytes) == file.digest
}

/// Indices `0..len` shuffled with xorshift64* from `seed`, as load-client does.
pub fn shuffled(len: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    let mut state = seed.max(1);
    for i in (1..order.len()).rev() {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let r = state.wrapping_mul(0x2545_F491_4F6C_DD1D);
        order.swap(i, (r % (i as u64 + 1)) as usize);
    }
    order
}

pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// `{metric, median, min, max, n}` of a series of runs.
pub fn stats(name: &str, values: &[f64]) -> Value {
    let mut sorted = values.to_vec();
    let med = median(&mut sorted);
    json!({ "metric": name, "median": med, "min": sorted.first(), "max": sorted.last(), "n": sorted.len() })
}

/// Latency percentiles in milliseconds of per-request times in microseconds
/// (nearest rank).
pub fn latency(micros: &mut [u32]) -> Value {
    if micros.is_empty() {
        return json!({ "n": 0 });
    }
    micros.sort_unstable();
    let rank = |p: f64| {
        let index = ((p / 100.0) * micros.len() as f64).ceil() as usize;
        f64::from(micros[index.clamp(1, micros.len()) - 1]) / 1e3
    };
    let mean = micros.iter().map(|&m| f64::from(m)).sum::<f64>() / micros.len() as f64 / 1e3;
    json!({
        "n": micros.len(),
        "p50": rank(50.0),
        "p90": rank(90.0),
        "p99": rank(99.0),
        "max": f64::from(micros[micros.len() - 1]) / 1e3,
        "mean": mean,
    })
}

/// A field of `/proc/<pid>/status` in kB (`VmHWM:`, `VmRSS:`), 0 if unreadable.
pub fn proc_status_kb(pid: u32, key: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|line| line.starts_with(key))
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|value| value.parse().ok())
        .unwrap_or(0)
}

/// utime + stime of a process in seconds (all threads; CLK_TCK = 100).
pub fn proc_cpu_s(pid: &str) -> f64 {
    let (user, system) = proc_user_system_s(pid);
    user + system
}

/// utime and stime of a process in seconds, apart: where a server's CPU goes
/// (its own code, or the kernel's on its behalf), which instruction counts
/// under callgrind do not show.
pub fn proc_user_system_s(pid: &str) -> (f64, f64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let field = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (field(11) / 100.0, field(12) / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spinning costs user time, and `proc_cpu_s` is the sum of the split:
    /// a swapped or misread field of `/proc/self/stat` fails here.
    #[test]
    fn a_busy_loop_shows_as_user_time() {
        let (user0, system0) = proc_user_system_s("self");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let mut spin = 0u64;
        while proc_cpu_s("self") - (user0 + system0) < 0.2 && std::time::Instant::now() < deadline {
            for _ in 0..1_000_000 {
                spin = std::hint::black_box(spin.wrapping_mul(31).wrapping_add(1));
            }
        }
        let (user1, system1) = proc_user_system_s("self");
        assert!(
            user1 - user0 >= 0.1,
            "user {user0} -> {user1}, system {system0} -> {system1}"
        );
        assert!(system1 >= system0);
    }

    #[test]
    fn percentiles_by_nearest_rank() {
        let mut micros: Vec<u32> = (1..=100).map(|ms| ms * 1000).collect();
        let lat = latency(&mut micros);
        assert_eq!(lat["p50"], 50.0);
        assert_eq!(lat["p90"], 90.0);
        assert_eq!(lat["p99"], 99.0);
        assert_eq!(lat["max"], 100.0);
        assert_eq!(latency(&mut [7000])["p99"], 7.0);
    }

    #[test]
    fn the_shuffle_is_a_permutation() {
        let mut order = shuffled(50, 1);
        assert_ne!(order, (0..50).collect::<Vec<_>>());
        order.sort_unstable();
        assert_eq!(order, (0..50).collect::<Vec<_>>());
    }
}
