//! Who a synced folder's skills come from: a source as the host configured
//! it, never as a server describes itself. A server's `serverInfo.name` is
//! its own choice, so any server can claim any name; the URL a host
//! connects to, the command line it starts, or a label it gives are the
//! host's.

use std::fmt;

use super::ClientError;
use crate::folder::shown;

/// The source a sync or a download writes for, as the host configured it:
/// a label the host gives ([`label`](Self::label)), the URL it connects to
/// ([`url`](Self::url)) or the command line it starts
/// ([`command`](Self::command)). The folder writer's record keeps it beside
/// each skill; a folder another source wrote is `foreign` to this one, so a
/// sync neither updates nor removes it without `force`, and its report names
/// the source the folder belongs to.
///
/// What a server says about itself (`serverInfo.name`) is never an identity:
/// two servers can give the same name, and a hostile one gives another's.
///
/// ```
/// use skills_runtime::client::SkillSource;
///
/// let docs = SkillSource::label("docs");
/// assert_eq!(docs.to_string(), "docs");
/// // Credentials, query and fragment never reach a record or a report.
/// let http = SkillSource::url("https://user:secret@Skills.Example.com/mcp?token=t#x")?;
/// assert_eq!(http.to_string(), "https://skills.example.com/mcp");
/// // A command line is shown by its program; its arguments only count.
/// let stdio = SkillSource::command("npx", ["-y", "@acme/skills", "--api-key", "k"]);
/// assert_eq!(stdio.to_string(), "npx …");
/// assert_ne!(stdio, SkillSource::command("npx", ["-y", "@acme/other"]));
/// # Ok::<(), skills_runtime::client::ClientError>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct SkillSource {
    /// What reports and records show.
    shown: String,
    /// What tells two sources apart (kept in each record).
    id: String,
    /// A label adopts the folders of a record that names no source and names
    /// the label as its writer (a sync before records named sources).
    label: bool,
}

impl SkillSource {
    /// A source the host names itself: the most stable identity (it stays
    /// the same when the server moves or its command line changes). Control
    /// characters are shown escaped.
    ///
    /// Folders written before records named their source (format 1) name
    /// their writer by the label the host passed then, or by the server's own
    /// `serverInfo.name` when it passed none: a label equal to that name
    /// adopts them.
    pub fn label(label: impl Into<String>) -> Self {
        let label = label.into();
        Self {
            shown: shown(&label),
            id: format!("label:{}", label.escape_default()),
            label: true,
        }
    }

    /// The streamable HTTP URL the host connects to. The identity is its
    /// scheme, host, port and path (lowercase scheme and host); user
    /// information, the query and the fragment are dropped, so a token in
    /// them reaches no record and no report (servers that differ only in
    /// their query are one source: give them labels).
    pub fn url(url: &str) -> Result<Self, ClientError> {
        let usage = |why: &str| ClientError::Usage(format!("the source URL {why}"));
        let uri: http::Uri = url
            .parse()
            .map_err(|error| usage(&format!("does not parse: {error}")))?;
        let scheme = uri
            .scheme_str()
            .ok_or_else(|| usage("has no scheme"))?
            .to_ascii_lowercase();
        let host = uri.host().ok_or_else(|| usage("has no host"))?;
        // The scheme's default port is the same endpoint written two ways
        // (RFC 3986, 6.2.3): `http://h:80/mcp` is `http://h/mcp`.
        let default = match scheme.as_str() {
            "http" => Some(80),
            "https" => Some(443),
            _ => None,
        };
        let port = uri
            .port_u16()
            .filter(|port| Some(*port) != default)
            .map(|port| format!(":{port}"));
        let plain = format!(
            "{scheme}://{}{}{}",
            host.to_ascii_lowercase(),
            port.unwrap_or_default(),
            uri.path()
        );
        Ok(Self {
            shown: shown(&plain),
            id: format!("url:{plain}"),
            label: false,
        })
    }

    /// The command line the host starts the server with (what it hands
    /// [`transport::ChildProcess::spawn`](super::transport::ChildProcess::spawn)).
    /// The identity is a SHA-256 of the program and every argument, so an
    /// argument that carries a secret reaches no record; reports show the
    /// program only.
    pub fn command<I, S>(program: impl AsRef<str>, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let program = program.as_ref();
        let mut line = program.as_bytes().to_vec();
        for arg in args {
            // A NUL between parts, which no argument holds: `a b` and `ab` differ.
            line.push(0);
            line.extend_from_slice(arg.as_ref().as_bytes());
        }
        Self {
            shown: format!("{} …", shown(program)),
            id: format!("command:{}", skills_core::digest::of(&line)),
            label: false,
        }
    }

    /// What records keep to tell this source from others.
    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    /// Whether a record that names no source, and names this source's
    /// label as its writer, is this source's.
    pub(crate) fn adopts_unsourced(&self) -> bool {
        self.label
    }

    /// The folder writer's target for this source under `folder`.
    pub(crate) fn target(&self, folder: &std::path::Path) -> crate::folder::Target {
        crate::folder::Target::sourced(
            folder,
            self.shown.clone(),
            self.id().to_owned(),
            self.adopts_unsourced(),
        )
    }
}

impl fmt::Display for SkillSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)
    }
}

impl fmt::Debug for SkillSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SkillSource({:?})", self.shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_told_apart_by_what_the_host_configured() {
        let a = SkillSource::url("http://127.0.0.1:8080/mcp").unwrap();
        assert_eq!(a.id(), "url:http://127.0.0.1:8080/mcp");
        assert_eq!(
            a,
            SkillSource::url("HTTP://user:pw@127.0.0.1:8080/mcp?x=1").unwrap()
        );
        assert_ne!(a, SkillSource::url("http://127.0.0.1:8081/mcp").unwrap());
        // A default port written out is the same endpoint; another is not.
        assert_eq!(
            SkillSource::url("HTTPS://Example.com:443/mcp").unwrap(),
            SkillSource::url("https://example.com/mcp").unwrap()
        );
        assert_eq!(
            SkillSource::url("http://example.com:80/mcp").unwrap(),
            SkillSource::url("http://example.com/mcp").unwrap()
        );
        assert_ne!(
            SkillSource::url("http://example.com:443/mcp").unwrap(),
            SkillSource::url("http://example.com/mcp").unwrap()
        );
        // Paths are compared as written: another path is another endpoint.
        assert_ne!(
            SkillSource::url("http://example.com/MCP").unwrap(),
            SkillSource::url("http://example.com/mcp").unwrap()
        );
        assert_ne!(
            SkillSource::url("http://example.com/a%2Fb").unwrap(),
            SkillSource::url("http://example.com/a/b").unwrap()
        );
        assert!(SkillSource::url("not a url").is_err());
        assert!(SkillSource::url("/relative").is_err());
        assert_ne!(
            SkillSource::command("a", ["b c"]),
            SkillSource::command("a", ["b", "c"])
        );
        assert_eq!(SkillSource::label("x\ny").to_string(), "x\\ny");
        assert_ne!(SkillSource::label("docs"), SkillSource::label("Docs"));
        assert!(SkillSource::label("docs").adopts_unsourced());
        assert!(!a.adopts_unsourced());
    }
}
