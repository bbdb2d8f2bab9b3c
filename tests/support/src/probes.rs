//! Every request that names one skill: what "not owned answers like
//! nonexistent" must hold for (skills-runtime/tests/access.rs in process, catalog_routes.rs
//! over HTTP). A method that names a skill belongs here, once.

use serde_json::{Value, json};

/// The requests naming the skill at `path` called `name`, with `file` one of
/// its supporting files (relative to the skill folder). Index 6 is the
/// completion request.
pub fn naming_skill(path: &str, name: &str, file: &str) -> Vec<Value> {
    let requests = [
        json!({"method": "skills/get", "params": {"uri": "skill://{path}/SKILL.md"}}),
        json!({"method": "resources/read", "params": {"uri": "skill://{path}/SKILL.md"}}),
        json!({"method": "resources/read", "params": {"uri": "skill://{path}/{file}"}}),
        json!({"method": "resources/read", "params": {"uri": "skill://{path}/_manifest"}}),
        json!({"method": "resources/directory/read", "params": {"uri": "skill://{path}"}}),
        json!({"method": "resources/directory/read", "params": {"uri": "skill://{path}/references"}}),
        json!({"method": "completion/complete", "params": {
            "ref": {"type": "ref/resource", "uri": "skill://{path}/{path*}"},
            "argument": {"name": "path", "value": ""}}}),
        json!({"method": "tools/call", "params": {"name": "read_skill", "arguments": {"uri": "skill://{path}/SKILL.md"}}}),
        json!({"method": "tools/call", "params": {"name": "read_skill", "arguments": {"uri": "{name}"}}}),
        json!({"method": "prompts/get", "params": {"name": "{name}"}}),
    ];
    requests
        .iter()
        .map(|request| {
            let text = request
                .to_string()
                .replace("{path}", path)
                .replace("{name}", name)
                .replace("{file}", file);
            serde_json::from_str(&text).unwrap()
        })
        .collect()
}
