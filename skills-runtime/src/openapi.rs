//! A skill's API reference rendered from an OpenAPI 3 document (feature
//! `openapi`), so the API part of a skill comes from the routes themselves.
//!
//! Generate the document from the code (`utoipa` on your axum handlers, or
//! any other generator), render it with [`api_reference`], and check the
//! result in as the skill's `references/api.md`; a test with
//! [`testing::assert_generated`](crate::testing::assert_generated) (feature
//! `testing`) then fails whenever a route changes and the skill does not.
//!
//! # The `x-skill` extension
//!
//! An OpenAPI document says what each route does; a skill must also say
//! *when* an agent calls it and in which order a real conversation needs
//! them. Each operation says so in an `x-skill` object:
//!
//! ```json
//! "post": {
//!   "summary": "Quote a course",
//!   "description": "Creates a pending order with the price to show the learner. Charges nothing.",
//!   "x-skill": {
//!     "order": 4,
//!     "when": "Only after the learner asked to buy a named course, to get the price you must state."
//!   }
//! }
//! ```
//!
//! - `order` (required, an integer): where the route comes in a real
//!   conversation; the reference lists routes by it (ties by path, then
//!   method) and numbers them.
//! - `when` (required, a string): when to call the route.
//! - `"x-skill": false` leaves a route out on purpose (a payment provider's
//!   webhook, an admin route): an agent never calls it.
//!
//! An operation without `x-skill`, or without a summary or description, is
//! an error naming it: a new route must say what it is for and when to call
//! it before the reference can be rendered.
//!
//! With utoipa:
//!
//! ```ignore
//! /// Quote a course
//! ///
//! /// Creates a pending order with the price to show the learner. Charges nothing.
//! #[utoipa::path(post, path = "/orders", request_body = NewOrder,
//!     responses((status = 201, body = Order)),
//!     extensions(("x-skill" = json!({
//!         "order": 4,
//!         "when": "Only after the learner asked to buy a named course, to get the price you must state."
//!     }))))]
//! async fn quote(/* … */) { /* … */ }
//! ```
//!
//! # What it renders
//!
//! A Markdown page: a comment saying the file is generated, the API's title
//! and description, the base path (the first server's URL), then one section
//! per route in conversation order: its summary with method and path, what
//! it is for, when to call it, its parameters, its request body's fields and
//! its answers (each status with its description and, for JSON bodies, the
//! fields). Schemas are followed through `$ref`s to `components/schemas`,
//! one level deep: an agent needs the field names, not the whole type tree.

use std::fmt::Write as _;

use serde_json::Value;

/// The methods an OpenAPI path item may hold, in the order a section lists
/// them when two routes share an order and a path.
const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Why a document could not be rendered: every problem found, each naming
/// where in the document it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiReferenceError {
    problems: Vec<String>,
}

impl ApiReferenceError {
    /// Each problem, as `<where>: <what>` (for example
    /// `paths./orders.post: no x-skill extension …`).
    pub fn problems(&self) -> &[String] {
        &self.problems
    }
}

impl std::fmt::Display for ApiReferenceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = self.problems.len();
        write!(
            f,
            "the OpenAPI document cannot be rendered as a skill reference ({count} problem{}):",
            if count == 1 { "" } else { "s" }
        )?;
        for problem in &self.problems {
            write!(f, "\n- {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ApiReferenceError {}

/// One operation, as the reference shows it.
struct Route<'a> {
    order: i64,
    method: &'static str,
    path: &'a str,
    operation: &'a Value,
    path_item: &'a Value,
    when: &'a str,
}

/// Renders the API reference of a skill (Markdown, for `references/api.md`)
/// from an OpenAPI 3 document given as JSON (`utoipa`'s
/// `ApiDoc::openapi()` through `serde_json::to_value`, say).
///
/// ```
/// let document = serde_json::json!({
///     "openapi": "3.1.0",
///     "info": {"title": "Academy API", "version": "1.0.0"},
///     "paths": {
///         "/me": {"get": {
///             "summary": "Who the learner is",
///             "description": "The learner's name and the courses they own.",
///             "x-skill": {"order": 1, "when": "At the start of a conversation about the learner's courses."},
///             "responses": {"200": {"description": "The learner"}}
///         }}
///     }
/// });
/// let reference = skills_runtime::openapi::api_reference(&document).unwrap();
/// assert!(reference.contains("## 1. Who the learner is: `GET /me`"));
/// assert!(reference.contains("When to call it: At the start of a conversation"));
/// ```
///
/// # Errors
///
/// Every problem at once: a document that is not OpenAPI 3, an operation
/// without an `x-skill` extension (or with a malformed one), an operation
/// with neither summary nor description.
pub fn api_reference(document: &Value) -> Result<String, ApiReferenceError> {
    let mut problems = Vec::new();
    match document.get("openapi").and_then(Value::as_str) {
        Some(version) if version.starts_with("3.") => {}
        Some(version) => problems.push(format!(
            "openapi: version {version:?} is not OpenAPI 3 (3.0 or 3.1)"
        )),
        None => problems.push("openapi: missing; this is not an OpenAPI 3 document".to_owned()),
    }
    let routes = routes(document, &mut problems);
    if !problems.is_empty() {
        return Err(ApiReferenceError { problems });
    }
    Ok(render(document, &routes))
}

/// Every operation the reference shows, in conversation order; problems for
/// those that do not say what they are for or when to call them.
fn routes<'a>(document: &'a Value, problems: &mut Vec<String>) -> Vec<Route<'a>> {
    let mut routes = Vec::new();
    let Some(paths) = document.get("paths").and_then(Value::as_object) else {
        problems.push("paths: missing or not an object".to_owned());
        return routes;
    };
    // Sorted: serde_json keeps document order when any crate in the build
    // enables its `preserve_order` feature (rig-core does), and the output
    // must not depend on what else a build links.
    let mut paths: Vec<_> = paths.iter().collect();
    paths.sort_by_key(|(path, _)| path.as_str());
    for (path, path_item) in paths {
        for method in METHODS {
            let Some(operation) = path_item.get(method) else {
                continue;
            };
            let at = format!("paths.{path}.{method}");
            let summary = text(operation, "summary");
            let description = text(operation, "description");
            if summary.is_none() && description.is_none() {
                problems.push(format!(
                    "{at}: no summary or description; say what the route is for (in utoipa, a doc comment on the handler)"
                ));
            }
            match operation.get("x-skill") {
                Some(Value::Bool(false)) => {}
                Some(Value::Object(skill)) => {
                    let order = skill.get("order").and_then(Value::as_i64);
                    let when = skill.get("when").and_then(Value::as_str).map(str::trim);
                    if order.is_none() {
                        problems.push(format!(
                            "{at}.x-skill.order: missing or not an integer; say where the route comes in a real conversation"
                        ));
                    }
                    match when {
                        Some(when) if !when.is_empty() => {
                            if let Some(order) = order {
                                routes.push(Route {
                                    order,
                                    method,
                                    path,
                                    operation,
                                    path_item,
                                    when,
                                });
                            }
                        }
                        _ => problems.push(format!(
                            "{at}.x-skill.when: missing or empty; say when an agent calls the route"
                        )),
                    }
                }
                Some(_) => problems.push(format!(
                    "{at}.x-skill: must be an object {{\"order\": N, \"when\": \"…\"}}, or false to leave the route out"
                )),
                None => problems.push(format!(
                    "{at}: no x-skill extension; add {{\"order\": N, \"when\": \"…\"}} (when an agent calls it, and where in a conversation), or false to leave the route out of the skill"
                )),
            }
        }
    }
    routes.sort_by(|a, b| {
        (a.order, a.path, method_rank(a.method)).cmp(&(b.order, b.path, method_rank(b.method)))
    });
    routes
}

fn method_rank(method: &str) -> usize {
    METHODS
        .iter()
        .position(|known| *known == method)
        .unwrap_or(METHODS.len())
}

/// A non-empty, trimmed string field of `value`.
fn text<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value
        .get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|text| !text.is_empty())
}

fn render(document: &Value, routes: &[Route<'_>]) -> String {
    let info = document.get("info").unwrap_or(&Value::Null);
    let title = text(info, "title").unwrap_or("API");
    let version = text(info, "version");
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!-- Generated from the OpenAPI document of {title}{} by skills_runtime::openapi::api_reference. \
         Do not edit: change the routes, then run the tests with SKILLS_UPDATE=1. -->",
        version
            .map(|version| format!(" {version}"))
            .unwrap_or_default()
    );
    let _ = writeln!(out, "# {title}");
    if let Some(description) = text(info, "description") {
        let _ = write!(out, "\n{description}\n");
    }
    let base = document
        .get("servers")
        .and_then(|servers| servers.get(0))
        .and_then(|server| text(server, "url"));
    if let Some(base) = base {
        let _ = write!(out, "\nPaths below are relative to `{base}`.\n");
    }
    let _ = write!(
        out,
        "\nThe routes, in the order a conversation usually needs them:\n"
    );
    for (number, route) in routes.iter().enumerate() {
        render_route(&mut out, document, number + 1, route);
    }
    out
}

fn render_route(out: &mut String, document: &Value, number: usize, route: &Route<'_>) {
    let operation = route.operation;
    let method = route.method.to_ascii_uppercase();
    let summary = text(operation, "summary");
    let description = text(operation, "description");
    let _ = writeln!(out);
    match summary {
        Some(summary) => {
            let _ = writeln!(out, "## {number}. {summary}: `{method} {}`", route.path);
        }
        None => {
            let _ = writeln!(out, "## {number}. `{method} {}`", route.path);
        }
    }
    let _ = writeln!(out);
    if let Some(purpose) = description.or(summary) {
        let _ = writeln!(out, "What it is for: {}", one_paragraph(purpose));
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "When to call it: {}", one_paragraph(route.when));

    let parameters = parameters(document, route);
    if !parameters.is_empty() {
        let _ = write!(out, "\nParameters:\n");
        for parameter in parameters {
            let _ = writeln!(out, "- {parameter}");
        }
    }

    if let Some(body) = operation
        .get("requestBody")
        .map(|body| resolve(document, body))
    {
        let required = body.get("required").and_then(Value::as_bool) == Some(true);
        let (media, schema) = media_schema(body);
        let mut line = format!(
            "\nBody ({}{})",
            media
                .map(|media| format!("`{media}`"))
                .unwrap_or_else(|| "no content type".to_owned()),
            if required { ", required" } else { "" },
        );
        if let Some(description) = text(body, "description") {
            let _ = write!(line, ": {}", sentence(description));
        }
        let (shape, fields) = schema
            .map(|schema| shape(document, schema))
            .unwrap_or_default();
        let _ = writeln!(out, "{line}{shape}");
        for field in fields {
            let _ = writeln!(out, "- {field}");
        }
    }

    if let Some(responses) = operation.get("responses").and_then(Value::as_object) {
        let _ = write!(out, "\nAnswers:\n");
        let mut statuses: Vec<_> = responses.iter().collect();
        statuses.sort_by(|a, b| a.0.cmp(b.0));
        for (status, response) in statuses {
            let response = resolve(document, response);
            let mut line = format!("- `{status}`");
            if let Some(description) = text(response, "description") {
                let _ = write!(line, ": {}", sentence(description));
            }
            let (shape, fields) = match media_schema(response) {
                (_, Some(schema)) => shape(document, schema),
                _ => Default::default(),
            };
            let _ = writeln!(out, "{line}{shape}");
            for field in fields {
                let _ = writeln!(out, "  - {field}");
            }
        }
    }
}

/// What a body holds: the words that end its line, and the fields of an
/// object (or of each item of a list of objects) to list below it; or its
/// type, when it has no fields.
fn shape(document: &Value, schema: &Value) -> (String, Vec<String>) {
    let schema = resolve(document, schema);
    let is_list = schema.get("type").and_then(Value::as_str) == Some("array");
    let fields = match (is_list, schema.get("items")) {
        (true, Some(items)) => fields(document, items),
        _ => fields(document, schema),
    };
    if fields.is_empty() {
        (format!(" ({})", type_name(document, schema)), fields)
    } else if is_list {
        (": a list, each item with:".to_owned(), fields)
    } else {
        (", with:".to_owned(), fields)
    }
}

/// `text` as one paragraph without a closing full stop, to continue a line.
fn sentence(text: &str) -> String {
    let mut paragraph = one_paragraph(text);
    if paragraph.ends_with('.') && !paragraph.ends_with("..") {
        paragraph.pop();
    }
    paragraph
}

/// The path item's and the operation's parameters (the operation's win on
/// a clash of name and place), each as one line.
fn parameters(document: &Value, route: &Route<'_>) -> Vec<String> {
    let mut seen: Vec<(String, String)> = Vec::new();
    let mut lines = Vec::new();
    let own = route.operation.get("parameters").and_then(Value::as_array);
    let shared = route.path_item.get("parameters").and_then(Value::as_array);
    for parameter in own
        .into_iter()
        .flatten()
        .chain(shared.into_iter().flatten())
    {
        let parameter = resolve(document, parameter);
        let name = text(parameter, "name").unwrap_or("?");
        let place = text(parameter, "in").unwrap_or("?");
        let key = (name.to_owned(), place.to_owned());
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let required = parameter.get("required").and_then(Value::as_bool) == Some(true);
        let kind = parameter
            .get("schema")
            .map(|schema| type_name(document, resolve(document, schema)))
            .unwrap_or_else(|| "any".to_owned());
        let mut line = format!(
            "`{name}` ({place}, {kind}{})",
            if required { ", required" } else { "" }
        );
        if let Some(description) = text(parameter, "description") {
            let _ = write!(line, ": {}", one_paragraph(description));
        }
        lines.push(line);
    }
    lines
}

/// The first media type of a request body or response, and its schema.
fn media_schema(value: &Value) -> (Option<&str>, Option<&Value>) {
    match value
        .get("content")
        .and_then(Value::as_object)
        // The first by name, whatever order serde_json keeps (see `routes`).
        .and_then(|content| content.iter().min_by_key(|(media, _)| media.as_str()))
    {
        Some((media, entry)) => (Some(media.as_str()), entry.get("schema")),
        None => (None, None),
    }
}

/// The fields of an object schema, one line each; empty for other schemas.
fn fields(document: &Value, schema: &Value) -> Vec<String> {
    let schema = resolve(document, schema);
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    // By name, whatever order serde_json keeps (see `routes`).
    let mut properties: Vec<_> = properties.iter().collect();
    properties.sort_by_key(|(name, _)| name.as_str());
    properties
        .into_iter()
        .map(|(name, property)| {
            let property_resolved = resolve(document, property);
            let mut line = format!(
                "`{name}` ({}{})",
                type_name(document, property),
                if required.contains(&name.as_str()) {
                    ", required"
                } else {
                    ""
                }
            );
            let description =
                text(property, "description").or_else(|| text(property_resolved, "description"));
            if let Some(description) = description {
                let _ = write!(line, ": {}", one_paragraph(description));
            }
            line
        })
        .collect()
}

/// A short name for a schema's type: `string`, `integer`, `array of Course`,
/// `Course` (a named schema), `string or null`, one of the enum's values.
fn type_name(document: &Value, schema: &Value) -> String {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let name = reference.rsplit('/').next().unwrap_or(reference);
        let target = resolve(document, schema);
        if let Some(values) = enum_values(target) {
            return values;
        }
        return format!("object `{name}`");
    }
    if let Some(values) = enum_values(schema) {
        return values;
    }
    for combinator in ["oneOf", "anyOf"] {
        if let Some(options) = schema.get(combinator).and_then(Value::as_array) {
            let names: Vec<String> = options
                .iter()
                .map(|option| type_name(document, option))
                .collect();
            return names.join(" or ");
        }
    }
    let kinds: Vec<&str> = match schema.get("type") {
        Some(Value::String(kind)) => vec![kind.as_str()],
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let named: Vec<String> = kinds
        .iter()
        .map(|kind| match *kind {
            "array" => match schema.get("items") {
                Some(items) => format!("array of {}", type_name(document, items)),
                None => "array".to_owned(),
            },
            // A string's format (date-time, uri, …) tells an agent what to
            // write; a number's (int32, double) does not.
            "string" => match schema.get("format").and_then(Value::as_str) {
                Some(format) => format!("string ({format})"),
                None => "string".to_owned(),
            },
            other => other.to_owned(),
        })
        .collect();
    if named.is_empty() {
        "any".to_owned()
    } else {
        named.join(" or ")
    }
}

/// `one of "a", "b"` for an enum schema.
fn enum_values(schema: &Value) -> Option<String> {
    let values = schema.get("enum").and_then(Value::as_array)?;
    let shown: Vec<String> = values.iter().map(Value::to_string).collect();
    Some(format!("one of {}", shown.join(", ")))
}

/// Follows `$ref`s within the document (`#/…` JSON pointers), at most a few
/// steps, so a cycle cannot loop.
fn resolve<'a>(document: &'a Value, mut value: &'a Value) -> &'a Value {
    for _ in 0..8 {
        let Some(reference) = value.get("$ref").and_then(Value::as_str) else {
            break;
        };
        let Some(pointer) = reference.strip_prefix('#') else {
            break;
        };
        match document.pointer(pointer) {
            Some(target) => value = target,
            None => break,
        }
    }
    value
}

/// `text` with its lines joined into one paragraph.
fn one_paragraph(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn document(paths: Value) -> Value {
        json!({
            "openapi": "3.1.0",
            "info": {"title": "Academy API", "version": "1.0.0", "description": "The academy's own API."},
            "servers": [{"url": "/api"}],
            "paths": paths,
            "components": {"schemas": {
                "NewOrder": {"type": "object", "required": ["course"], "properties": {
                    "course": {"type": "string", "description": "The course's slug."}
                }},
                "Order": {"type": "object", "required": ["id", "status"], "properties": {
                    "id": {"type": "integer", "format": "int64"},
                    "status": {"$ref": "#/components/schemas/Status"},
                    "price": {"type": ["string", "null"]}
                }},
                "Status": {"type": "string", "enum": ["quoted", "paid"]}
            }}
        })
    }

    fn skill(order: i64, when: &str) -> Value {
        json!({"order": order, "when": when})
    }

    #[test]
    fn routes_come_in_conversation_order_with_what_and_when() {
        let doc = document(json!({
            "/orders": {"post": {
                "summary": "Quote a course",
                "description": "Creates a pending order.\nCharges nothing.",
                "x-skill": skill(2, "After the learner asked to buy."),
                "requestBody": {"required": true, "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/NewOrder"}}}},
                "responses": {"201": {"description": "The quote", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Order"}}}}}
            }},
            "/me": {"get": {
                "summary": "Who the learner is",
                "x-skill": skill(1, "First."),
                "responses": {"200": {"description": "The learner"}}
            }}
        }));
        let reference = api_reference(&doc).unwrap();
        let me = reference
            .find("## 1. Who the learner is: `GET /me`")
            .unwrap();
        let quote = reference
            .find("## 2. Quote a course: `POST /orders`")
            .unwrap();
        assert!(me < quote, "{reference}");
        assert!(
            reference.starts_with("<!-- Generated from the OpenAPI document of Academy API 1.0.0")
        );
        assert!(
            reference.contains("Paths below are relative to `/api`."),
            "{reference}"
        );
        assert!(reference.contains("What it is for: Creates a pending order. Charges nothing."));
        assert!(reference.contains("When to call it: After the learner asked to buy."));
        assert!(reference.contains("Body (`application/json`, required), with:\n- `course` (string, required): The course's slug.\n"), "{reference}");
        assert!(reference.contains("- `201`: The quote, with:\n  - `id` (integer, required)\n  - `price` (string or null)\n  - `status` (one of \"quoted\", \"paid\", required)\n"), "{reference}");
        // A summary alone is also what the route is for.
        assert!(
            reference.contains("What it is for: Who the learner is\n"),
            "{reference}"
        );
    }

    #[test]
    fn every_route_without_x_skill_or_purpose_is_named_at_once() {
        let doc = document(json!({
            "/a": {"get": {"summary": "A", "responses": {}}},
            "/b": {"post": {"x-skill": skill(1, "Now."), "responses": {}}},
            "/c": {"get": {"summary": "C", "x-skill": {"order": "first", "when": ""}, "responses": {}}},
            "/d": {"get": {"summary": "D", "x-skill": "soon", "responses": {}}}
        }));
        let error = api_reference(&doc).unwrap_err();
        assert_eq!(
            error.problems(),
            [
                "paths./a.get: no x-skill extension; add {\"order\": N, \"when\": \"…\"} (when an agent calls it, and where in a conversation), or false to leave the route out of the skill",
                "paths./b.post: no summary or description; say what the route is for (in utoipa, a doc comment on the handler)",
                "paths./c.get.x-skill.order: missing or not an integer; say where the route comes in a real conversation",
                "paths./c.get.x-skill.when: missing or empty; say when an agent calls the route",
                "paths./d.get.x-skill: must be an object {\"order\": N, \"when\": \"…\"}, or false to leave the route out",
            ]
        );
        assert!(error.to_string().starts_with(
            "the OpenAPI document cannot be rendered as a skill reference (5 problems):\n- paths./a.get"
        ));
    }

    #[test]
    fn lists_of_objects_show_their_items_fields_and_plain_bodies_their_type() {
        let doc = document(json!({
            "/orders": {"get": {
                "summary": "My orders",
                "x-skill": skill(1, "When asked."),
                "responses": {
                    "200": {"description": "The orders.", "content": {"application/json": {
                        "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Order"}}}}},
                    "503": {"description": "Down", "content": {"text/plain": {
                        "schema": {"type": "string", "format": "date-time"}}}}
                }
            }}
        }));
        let reference = api_reference(&doc).unwrap();
        assert!(
            reference.contains(
                "- `200`: The orders: a list, each item with:\n  - `id` (integer, required)\n"
            ),
            "{reference}"
        );
        assert!(
            reference.contains("- `503`: Down (string (date-time))\n"),
            "{reference}"
        );
    }

    #[test]
    fn x_skill_false_leaves_a_route_out() {
        let doc = document(json!({
            "/me": {"get": {"summary": "Me", "x-skill": skill(1, "First."), "responses": {}}},
            "/webhooks/payments": {"post": {"summary": "Payment webhook", "x-skill": false, "responses": {}}}
        }));
        let reference = api_reference(&doc).unwrap();
        assert!(reference.contains("`GET /me`"));
        assert!(!reference.contains("webhooks"), "{reference}");
    }

    #[test]
    fn parameters_of_the_path_item_and_the_operation() {
        let doc = document(json!({
            "/courses/{slug}": {
                "parameters": [{"name": "slug", "in": "path", "required": true, "schema": {"type": "string"}, "description": "Shared."}],
                "get": {
                    "summary": "One course",
                    "x-skill": skill(1, "Before describing it."),
                    "parameters": [
                        {"name": "slug", "in": "path", "required": true, "schema": {"type": "string"}, "description": "The course's slug."},
                        {"name": "lang", "in": "query", "schema": {"type": "string", "enum": ["en", "fr"]}}
                    ],
                    "responses": {"404": {"description": "No such course"}}
                }
            }
        }));
        let reference = api_reference(&doc).unwrap();
        assert!(reference.contains("Parameters:\n- `slug` (path, string, required): The course's slug.\n- `lang` (query, one of \"en\", \"fr\")\n"), "{reference}");
        assert!(!reference.contains("Shared."));
        assert!(reference.contains("- `404`: No such course\n"));
    }

    #[test]
    fn not_openapi_3() {
        let error = api_reference(&json!({"swagger": "2.0", "paths": {}})).unwrap_err();
        assert_eq!(
            error.problems(),
            ["openapi: missing; this is not an OpenAPI 3 document"]
        );
        let error = api_reference(&json!({"openapi": "2.0", "paths": {}})).unwrap_err();
        assert_eq!(
            error.problems(),
            ["openapi: version \"2.0\" is not OpenAPI 3 (3.0 or 3.1)"]
        );
    }

    #[test]
    fn a_reference_cycle_does_not_loop() {
        let mut doc = document(json!({
            "/loop": {"get": {"summary": "Loop", "x-skill": skill(1, "Never."), "responses": {
                "200": {"description": "Loops", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}
            }}}
        }));
        doc["components"]["schemas"]["A"] = json!({"$ref": "#/components/schemas/B"});
        doc["components"]["schemas"]["B"] = json!({"$ref": "#/components/schemas/A"});
        let reference = api_reference(&doc).unwrap();
        assert!(reference.contains("`200`: Loops"), "{reference}");
    }
}
