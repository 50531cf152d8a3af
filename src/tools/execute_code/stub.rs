//! `hermes_tools.py`, the module a script imports: one function per tool a script may call,
//! generated from the registry's schemas (parameters, types, defaults and descriptions), plus
//! the RPC client and Hermes's helpers (`json_parse`, `shell_quote`, `retry`).
//!
//! The client speaks the channel of `rpc`: one JSON line `{"id", "tool", "args", "token"}` per
//! call, one JSON line `{"id", "ok", "result"|"error"}` back. A refused call (approval denied,
//! a hook blocked it, the call limit, a tool scripts may not call) raises `HermesToolError`;
//! a tool that ran and failed returns its result with an `"error"` key, as in Hermes.
//! Invariants: the output is valid Python whatever the descriptions contain; parameters a
//! script may not use (`terminal`'s `background`, `pty`, …) are not offered.

use std::fmt::Write as _;

use crate::model::ToolSchema;

/// `terminal` parameters a script may not use: its calls run in the foreground.
pub const TERMINAL_BLOCKED_PARAMS: [&str; 4] =
    ["background", "pty", "notify_on_complete", "watch_patterns"];

/// What each tool returns to a script (the `data` shapes of the tools, Hermes's shapes).
fn returns(tool: &str) -> &'static str {
    match tool {
        "web_search" => {
            r#"{"success": bool, "data": {"web": [{"url", "title", "description"}, ...]}}"#
        }
        "web_extract" => {
            r#"{"results": [{"url", "title", "content", "error"}, ...]} where content is markdown"#
        }
        "read_file" => {
            r#"{"content": "1|first line\n2|…", "total_lines": N, "file_size": bytes, "truncated": bool, "hint"?: str}; lines are numbered "N|text""#
        }
        "write_file" => r#"{"bytes_written": N, "dirs_created": bool}"#,
        "search_files" => {
            r#"{"total_count": N, "matches": [{"path", "line", "content"}, ...]} for target="content", {"total_count": N, "files": [path, ...]} for target="files"; "truncated": true when more were found than limit"#
        }
        "patch" => r#"{"success": true, "files_modified": [path], "diff": str}"#,
        "terminal" => r#"{"output": str, "exit_code": int, "error": None|str}"#,
        _ => "the tool's result (a dict when it is JSON, else a str)",
    }
}

const HEADER: &str = r#""""Hermes tools for this script (generated for this run).

Call them like functions; each runs through hermes exactly like the agent's own tool calls
(same approvals, sandbox and hooks). A tool that ran but failed returns a dict with an
"error" key. A call hermes refused (approval denied, blocked by a hook, the tool-call limit,
a tool scripts may not call) raises HermesToolError with the reason.
"""
import json, os, shlex, socket, threading, time

__all__ = ["HermesToolError", "json_parse", "shell_quote", "retry"]


class HermesToolError(RuntimeError):
    """A tool call hermes refused or could not make; str(e) says why."""

    def __init__(self, tool, message, kind="refused"):
        super().__init__(f"{tool}: {message}")
        self.tool = tool
        self.kind = kind


def json_parse(text: str):
    """Parse JSON tolerant of control characters (strict=False).
    Use this instead of json.loads() when parsing output from terminal()
    or web_extract() that may contain raw tabs/newlines in strings."""
    return json.loads(text, strict=False)


def shell_quote(s: str) -> str:
    """Shell-escape a string for safe interpolation into commands:
        terminal(f"echo {shell_quote(user_input)}")
    """
    return shlex.quote(s)


def retry(fn, max_attempts=3, delay=2):
    """Retry fn() up to max_attempts times with exponential backoff (transient failures):
        result = retry(lambda: terminal("gh issue list ..."))
    """
    last_err = None
    for attempt in range(max_attempts):
        try:
            return fn()
        except Exception as e:
            last_err = e
            if attempt < max_attempts - 1:
                time.sleep(delay * (2 ** attempt))
    raise last_err


_lock = threading.Lock()
_conn = None
_conn_pid = None
_next_id = 0


def _connect():
    global _conn, _conn_pid
    # A forked child must not share its parent's connection (replies would cross).
    if _conn is None or _conn_pid != os.getpid():
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(os.environ["HERMES_RPC_SOCKET"])
        _conn, _conn_pid = sock.makefile("rwb"), os.getpid()
    return _conn


def _call(tool, args):
    global _next_id
    args = {k: v for k, v in args.items() if v is not None}
    with _lock:
        _next_id += 1
        request = {"id": _next_id, "tool": tool, "args": args, "token": os.environ.get("HERMES_RPC_TOKEN", "")}
        try:
            conn = _connect()
            conn.write((json.dumps(request) + "\n").encode())
            conn.flush()
            line = conn.readline()
        except OSError as e:
            raise HermesToolError(tool, f"the channel to hermes failed: {e}", "channel") from None
    if not line:
        raise HermesToolError(tool, "hermes closed the channel (the run is ending)", "channel")
    reply = json.loads(line)
    if not reply.get("ok"):
        raise HermesToolError(tool, reply.get("error", "refused"), reply.get("kind", "refused"))
    return reply.get("result")

"#;

/// Python source of the module for the tools in `schemas` (sorted by name, as Hermes).
pub fn generate(schemas: &[ToolSchema]) -> String {
    let mut schemas: Vec<&ToolSchema> = schemas.iter().collect();
    schemas.sort_by(|a, b| a.name.cmp(&b.name));
    let mut out = String::from(HEADER);
    let mut names = Vec::new();
    for schema in schemas {
        if !is_identifier(&schema.name) {
            continue;
        }
        out.push('\n');
        out.push_str(&function(schema));
        names.push(schema.name.clone());
    }
    let _ = writeln!(
        out,
        "\n__all__ += [{}]",
        names
            .iter()
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    out
}

/// One parameter of a generated function.
struct Param {
    name: String,
    annotation: &'static str,
    /// Python literal of the default; `None` for a required parameter.
    default: Option<String>,
    description: String,
}

fn params(schema: &ToolSchema) -> Vec<Param> {
    let properties = schema
        .parameters
        .get("properties")
        .and_then(|p| p.as_object())
        .cloned()
        .unwrap_or_default();
    let required: Vec<&str> = schema
        .parameters
        .get("required")
        .and_then(|r| r.as_array())
        .map(|r| r.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default();
    let mut out: Vec<Param> = Vec::new();
    for (name, spec) in &properties {
        if !is_identifier(name)
            || (schema.name == "terminal" && TERMINAL_BLOCKED_PARAMS.contains(&name.as_str()))
        {
            continue;
        }
        let default = if required.contains(&name.as_str()) {
            None
        } else {
            Some(
                spec.get("default")
                    .map_or("None".to_string(), python_literal),
            )
        };
        out.push(Param {
            name: name.clone(),
            annotation: annotation(spec),
            default,
            description: spec
                .get("description")
                .and_then(|d| d.as_str())
                .unwrap_or("")
                .to_string(),
        });
    }
    // Required first, then Hermes's positional order for its tools (the schema's own map is
    // alphabetical), then the rest by name.
    let order = hermes_order(&schema.name);
    out.sort_by_key(|p| {
        let rank = order
            .iter()
            .position(|o| *o == p.name)
            .unwrap_or(order.len());
        (p.default.is_some(), rank, p.name.clone())
    });
    out
}

/// The parameter order of Hermes's stubs, so positional calls written for Hermes work.
fn hermes_order(tool: &str) -> &'static [&'static str] {
    match tool {
        "web_search" => &["query", "limit"],
        "web_extract" => &["urls", "char_limit"],
        "read_file" => &["path", "offset", "limit"],
        "write_file" => &["path", "content"],
        "search_files" => &[
            "pattern",
            "target",
            "path",
            "file_glob",
            "limit",
            "offset",
            "output_mode",
            "context",
        ],
        "patch" => &["path", "old_string", "new_string", "replace_all"],
        "terminal" => &["command", "timeout", "workdir"],
        _ => &[],
    }
}

fn function(schema: &ToolSchema) -> String {
    let params = params(schema);
    let signature: Vec<String> = params
        .iter()
        .map(|p| match &p.default {
            None => format!("{}: {}", p.name, p.annotation),
            Some(d) => format!("{}: {} = {d}", p.name, p.annotation),
        })
        .collect();
    let mut doc = String::new();
    let description = schema.description.trim();
    if !description.is_empty() {
        doc.push_str(description);
        doc.push_str("\n\n");
    }
    if !params.is_empty() {
        doc.push_str("Args:\n");
        for p in &params {
            let _ = writeln!(doc, "    {}: {}", p.name, one_line(&p.description));
        }
        doc.push('\n');
    }
    let _ = write!(doc, "Returns: {}", returns(&schema.name));
    let args: Vec<String> = params
        .iter()
        .map(|p| format!("{:?}: {}", p.name, p.name))
        .collect();
    format!(
        "def {name}({sig}):\n    \"\"\"{doc}\"\"\"\n    return _call({name:?}, {{{args}}})\n",
        name = schema.name,
        sig = signature.join(", "),
        doc = docstring(&doc),
        args = args.join(", "),
    )
}

fn annotation(spec: &serde_json::Value) -> &'static str {
    let kind = match spec.get("type") {
        Some(serde_json::Value::String(t)) => t.as_str(),
        Some(serde_json::Value::Array(types)) => types
            .iter()
            .filter_map(|t| t.as_str())
            .find(|t| *t != "null")
            .unwrap_or(""),
        _ => "",
    };
    match kind {
        "string" => "str",
        "integer" => "int",
        "number" => "float",
        "boolean" => "bool",
        "array" => "list",
        "object" => "dict",
        _ => "object",
    }
}

/// A JSON value as a Python literal.
fn python_literal(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => "None".to_string(),
        serde_json::Value::Bool(true) => "True".to_string(),
        serde_json::Value::Bool(false) => "False".to_string(),
        serde_json::Value::Number(n) => n.to_string(),
        // JSON string escapes are valid Python string escapes.
        serde_json::Value::String(s) => serde_json::Value::String(s.clone()).to_string(),
        // Mutable defaults are a Python trap; the tool applies its own default.
        serde_json::Value::Array(_) | serde_json::Value::Object(_) => "None".to_string(),
    }
}

/// Text safe inside a `"""…"""` docstring: backslashes doubled, quote runs broken.
fn docstring(text: &str) -> String {
    let escaped = text.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    let indented = escaped.replace('\n', "\n    ");
    // A trailing quote would merge with the closing `"""`.
    if indented.ends_with('"') {
        format!("{indented} ")
    } else {
        indented
    }
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

const KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// A name usable as a Python identifier (ASCII, not a keyword).
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&name)
}

#[cfg(test)]
#[path = "stub_tests.rs"]
mod tests;
