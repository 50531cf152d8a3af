//! The `execute_code` schema the model sees: Hermes 0.19's description (`build_execute_code_
//! schema`), listing only the script tools this session has and the working-directory
//! sentence of the configured mode.

use crate::config::CodeExecutionMode;
use crate::model::ToolSchema;

/// The tools a script may call (Hermes's `SANDBOX_ALLOWED_TOOLS`), in Hermes's display order.
pub const SCRIPT_TOOLS: [&str; 7] = [
    "web_search",
    "web_extract",
    "read_file",
    "write_file",
    "search_files",
    "patch",
    "terminal",
];

/// Hermes's per-tool lines, with `read_file` describing hermes's numbered lines.
fn doc_line(tool: &str) -> &'static str {
    match tool {
        "web_search" => {
            "  web_search(query: str, limit: int = 5) -> dict\n    Returns {\"data\": {\"web\": [{\"url\", \"title\", \"description\"}, ...]}}"
        }
        "web_extract" => {
            "  web_extract(urls: list[str], char_limit: int = None) -> dict\n    Returns {\"results\": [{\"url\", \"title\", \"content\", \"error\"}, ...]} where content is markdown.\n    No LLM summarization. Pages over char_limit (default 15000) are head+tail truncated; full text stored on disk (path in the content footer)."
        }
        "read_file" => {
            "  read_file(path: str, offset: int = 1, limit: int = 500) -> dict\n    Lines are 1-indexed. Returns {\"content\": \"...\", \"total_lines\": N}"
        }
        "write_file" => {
            "  write_file(path: str, content: str) -> dict\n    Always overwrites the entire file."
        }
        "search_files" => {
            "  search_files(pattern: str, target=\"content\", path=\".\", file_glob=None, limit=50) -> dict\n    target: \"content\" (search inside files) or \"files\" (find files by name). Returns {\"matches\": [...]}"
        }
        "patch" => {
            "  patch(path: str, old_string: str, new_string: str, replace_all: bool = False) -> dict\n    Replaces old_string with new_string in the file."
        }
        "terminal" => {
            "  terminal(command: str, timeout=None, workdir=None) -> dict\n    Foreground only (no background/pty). Returns {\"output\": \"...\", \"exit_code\": N}"
        }
        _ => "",
    }
}

/// The schema for a session whose script tools are `enabled` (names outside
/// [`SCRIPT_TOOLS`] are ignored).
pub fn schema(
    enabled: &[String],
    mode: CodeExecutionMode,
    timeout_secs: u64,
    max_calls: u64,
) -> ToolSchema {
    let has = |name: &str| enabled.iter().any(|e| e == name);
    let lines: Vec<&str> = SCRIPT_TOOLS
        .iter()
        .filter(|t| has(t))
        .map(|t| doc_line(t))
        .collect();
    let mut imports: Vec<&str> = ["web_search", "terminal"]
        .into_iter()
        .filter(|t| has(t))
        .collect();
    if imports.is_empty() {
        imports = SCRIPT_TOOLS
            .iter()
            .copied()
            .filter(|t| has(t))
            .take(2)
            .collect();
    }
    let import = if imports.is_empty() {
        "...".to_string()
    } else {
        format!("{}, ...", imports.join(", "))
    };
    let cwd_note = match mode {
        CodeExecutionMode::Strict => {
            "Scripts run in their own temp dir, not the session's CWD — use absolute paths \
             (os.path.expanduser('~/.hermes/.env')) or terminal()/read_file() for user files."
        }
        CodeExecutionMode::Project => {
            "Scripts run in the session's working directory with the active venv's python, \
             so project deps (pandas, etc.) and relative paths work like in terminal()."
        }
    };
    let limit = if timeout_secs.is_multiple_of(60) {
        format!("{}-minute timeout", timeout_secs / 60)
    } else {
        format!("{timeout_secs}-second timeout")
    };
    let description = format!(
        "Run a Python script that can call Hermes tools programmatically. Use this when you \
         need 3+ tool calls with processing logic between them, need to filter/reduce large \
         tool outputs before they enter your context, need conditional branching (if X then Y \
         else Z), or need to loop (fetch N pages, process N files, retry on failure).\n\n\
         Use normal tool calls instead when: single tool call with no processing, you need to \
         see the full result and apply complex reasoning, or the task requires interactive \
         user input.\n\n\
         Available via `from hermes_tools import ...`:\n\n{tools}\n\n\
         Limits: {limit}, 50KB stdout cap, max {max_calls} tool calls per script. terminal() \
         is foreground-only (no background or pty).\n\n\
         {cwd_note}\n\n\
         Print your final result to stdout. Use Python stdlib (json, re, math, csv, datetime, \
         collections, etc.) for processing between tool calls.\n\n\
         Also available (no import needed — built into hermes_tools):\n\
         \x20 json_parse(text: str) — json.loads with strict=False; use for terminal() output \
         with control chars\n\
         \x20 shell_quote(s: str) — shlex.quote(); use when interpolating dynamic strings into \
         shell commands\n\
         \x20 retry(fn, max_attempts=3, delay=2) — retry with exponential backoff for \
         transient failures\n\n\
         A tool that fails returns a dict with an \"error\" key; a call hermes refuses (the \
         user denied approval, a hook blocked it, the tool-call limit) raises \
         hermes_tools.HermesToolError.",
        tools = lines.join("\n"),
    );
    ToolSchema {
        name: "execute_code".to_string(),
        description,
        parameters: serde_json::json!({
            "type": "object",
            "properties": {
                "code": {
                    "type": "string",
                    "description": format!(
                        "Python code to execute. Import tools with `from hermes_tools import \
                         {import}` and print your final result to stdout."
                    ),
                },
            },
            "required": ["code"],
        }),
    }
}
