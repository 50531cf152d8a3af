//! The `search_files` tool: regex search over file contents (`target=content`, the default) or
//! a filename glob (`target=files`), over a directory walk that respects `.gitignore` (also
//! outside git repositories) and skips hidden files.
//!
//! Content search uses grep-searcher + grep-regex, skips binary files, and reports
//! `path:line: text` (context lines as `path-line- text`), in path order, capped at `limit`
//! matches with a count of the rest. The walk is blocking and runs in `spawn_blocking`; it
//! stops counting after `COUNT_CAP` matches so a huge tree cannot stall a call.

use std::path::Path;
use std::path::PathBuf;

use async_trait::async_trait;
use globset::Glob;
use globset::GlobMatcher;
use grep_regex::RegexMatcherBuilder;
use grep_searcher::BinaryDetection;
use grep_searcher::SearcherBuilder;
use grep_searcher::Sink;
use grep_searcher::SinkContext;
use grep_searcher::SinkMatch;
use serde::Deserialize;

use crate::model::ToolSchema;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::args;
use crate::tools::output;
use crate::util::paths::resolve_path;

const DEFAULT_LIMIT: u64 = 50;
const MAX_CONTEXT: u64 = 10;
const MAX_LINE_CHARS: usize = 300;
const COUNT_CAP: u64 = 100_000;

pub struct SearchFilesTool;

#[derive(Debug, Deserialize, Default, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Target {
    #[default]
    Content,
    Files,
}

#[derive(Debug, Deserialize)]
struct SearchArgs {
    pattern: String,
    #[serde(default)]
    target: Target,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    file_glob: Option<String>,
    #[serde(default, deserialize_with = "args::lenient_u64")]
    limit: Option<u64>,
    #[serde(default, deserialize_with = "args::lenient_u64")]
    context: Option<u64>,
}

#[async_trait]
impl Tool for SearchFilesTool {
    fn name(&self) -> &'static str {
        "search_files"
    }

    fn toolset(&self) -> &'static str {
        "file"
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: "Search the files under a directory (default: the working directory), respecting .gitignore and skipping hidden and binary files. \
                target=content (default): `pattern` is a regular expression (Rust regex syntax) matched against each line; results are `path:line: text`. \
                target=files: `pattern` is a filename glob such as `*.rs` or `src/**/mod.rs`; results are paths. \
                Narrow content searches with file_glob (e.g. `*.py`). Results are sorted by path and capped at `limit` (default 50)."
                .to_string(),
            parameters: serde_json::json!({
                "type": "object",
                "properties": {
                    "pattern": {"type": "string", "description": "Regex for content search, or filename glob for target=files."},
                    "target": {"type": "string", "enum": ["content", "files"], "description": "What to search (default content)."},
                    "path": {"type": "string", "description": "Directory (or file) to search (default: the working directory)."},
                    "file_glob": {"type": "string", "description": "Only search files whose name matches this glob, e.g. *.ts."},
                    "limit": {"type": "integer", "minimum": 1, "description": "Maximum results (default 50)."},
                    "context": {"type": "integer", "minimum": 0, "description": "Lines of context before and after each match (content search, default 0)."}
                },
                "required": ["pattern"]
            }),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::ParallelSafe
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        let pattern = args::preview_text(args::str_field(args, "pattern"), 60);
        match args::str_field(args, "path") {
            "" => pattern,
            path => format!("{pattern} in {path}"),
        }
    }

    async fn call(&self, args: serde_json::Value, ctx: &ToolContext) -> ToolOutput {
        let args: SearchArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        if args.pattern.is_empty() {
            return ToolOutput::error("pattern is empty");
        }
        let root = match args.path.as_deref().map(str::trim) {
            Some(p) if !p.is_empty() => resolve_path(&ctx.cwd, p),
            _ => ctx.cwd.clone(),
        };
        if !root.exists() {
            return ToolOutput::error(format!("path not found: {}", root.display()));
        }
        let max_bytes = ctx.limits.max_output_bytes;
        let result = tokio::task::spawn_blocking(move || search(&root, &args)).await;
        match result {
            Ok(Ok(found)) => {
                ToolOutput::ok(output::cap_text(&found.text, max_bytes)).with_data(found.data)
            }
            Ok(Err(e)) => ToolOutput::error(e.to_string()),
            Err(e) => ToolOutput::error(format!("search failed: {e}")),
        }
    }
}

/// A pattern the search cannot use; the text is for the model.
#[derive(Debug, thiserror::Error)]
enum PatternError {
    #[error("invalid glob {pattern:?}: {source}")]
    Glob {
        pattern: String,
        source: globset::Error,
    },
    #[error("invalid regex {pattern:?}: {source}")]
    Regex {
        pattern: String,
        source: grep_regex::Error,
    },
}

fn glob(pattern: &str) -> Result<(GlobMatcher, bool), PatternError> {
    let matcher = Glob::new(pattern)
        .map_err(|source| PatternError::Glob {
            pattern: pattern.to_string(),
            source,
        })?
        .compile_matcher();
    // A glob with a slash matches the path below the root; otherwise the file name.
    Ok((matcher, pattern.contains('/')))
}

fn glob_matches(glob: &(GlobMatcher, bool), root: &Path, path: &Path) -> bool {
    let (matcher, whole_path) = glob;
    if *whole_path {
        matcher.is_match(path.strip_prefix(root).unwrap_or(path))
    } else {
        path.file_name().is_some_and(|n| matcher.is_match(n))
    }
}

/// Files under `root` in path order, as the walk yields them.
fn walk(root: &Path) -> impl Iterator<Item = PathBuf> {
    ignore::WalkBuilder::new(root)
        .hidden(true)
        .git_ignore(true)
        .require_git(false)
        .sort_by_file_path(Ord::cmp)
        .build()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .map(ignore::DirEntry::into_path)
}

fn display_path(root: &Path, path: &Path) -> String {
    // Relative to the search root when searching a directory, so results stay short.
    match path.strip_prefix(root) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
        _ => path.display().to_string(),
    }
}

/// What a search shows: the text for the model and Hermes's `SearchResult` for scripts
/// (`{"total_count", "matches": [{"path", "line", "content"}]}` or `{"total_count", "files"}`).
struct Found {
    text: String,
    data: serde_json::Value,
}

fn search(root: &Path, args: &SearchArgs) -> Result<Found, PatternError> {
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT).max(1);
    match args.target {
        Target::Files => search_files(root, &args.pattern, limit),
        Target::Content => search_content(root, args, limit),
    }
}

fn search_files(root: &Path, pattern: &str, limit: u64) -> Result<Found, PatternError> {
    let glob = glob(pattern)?;
    let mut shown = Vec::new();
    let mut total = 0u64;
    for path in walk(root).filter(|p| glob_matches(&glob, root, p)) {
        total += 1;
        if total <= limit {
            shown.push(display_path(root, &path));
        }
        if total >= COUNT_CAP {
            break;
        }
    }
    let mut data = serde_json::json!({"total_count": total, "files": shown});
    if total > limit {
        data["truncated"] = serde_json::Value::Bool(true);
    }
    if shown.is_empty() {
        return Ok(Found {
            text: format!("no files matching {pattern:?} under {}", root.display()),
            data,
        });
    }
    Ok(Found {
        text: finish(shown, total, limit, "files"),
        data,
    })
}

fn finish(mut lines: Vec<String>, total: u64, limit: u64, what: &str) -> String {
    if total > limit {
        let more = total - limit;
        let at_least = if total >= COUNT_CAP { "at least " } else { "" };
        lines.push(format!(
            "[{at_least}{more} more {what} not shown; narrow the search or raise limit]"
        ));
    }
    lines.join("\n")
}

fn search_content(root: &Path, args: &SearchArgs, limit: u64) -> Result<Found, PatternError> {
    let matcher = RegexMatcherBuilder::new()
        .build(&args.pattern)
        .map_err(|source| PatternError::Regex {
            pattern: args.pattern.clone(),
            source,
        })?;
    let file_glob = match args.file_glob.as_deref().map(str::trim) {
        Some(g) if !g.is_empty() => Some(glob(g)?),
        _ => None,
    };
    let context = args.context.unwrap_or(0).min(MAX_CONTEXT) as usize;
    let mut searcher = SearcherBuilder::new()
        .line_number(true)
        .before_context(context)
        .after_context(context)
        .binary_detection(BinaryDetection::quit(0))
        .build();
    let mut sink = Collect {
        lines: Vec::new(),
        matched: Vec::new(),
        path: String::new(),
        matches: 0,
        limit,
    };
    for path in walk(root) {
        if let Some(g) = &file_glob
            && !glob_matches(g, root, &path)
        {
            continue;
        }
        sink.path = display_path(root, &path);
        let before = sink.lines.len();
        // Unreadable files are skipped, as grep does.
        if searcher.search_path(&matcher, &path, &mut sink).is_ok()
            && context > 0
            && sink.lines.len() > before
            && sink.matches <= limit
        {
            sink.lines.push("--".to_string());
        }
        if sink.matches >= COUNT_CAP {
            break;
        }
    }
    if sink.lines.last().is_some_and(|l| l == "--") {
        sink.lines.pop();
    }
    let mut data = serde_json::json!({"total_count": sink.matches, "matches": sink.matched});
    if sink.matches > limit {
        data["truncated"] = serde_json::Value::Bool(true);
    }
    if sink.matches == 0 {
        return Ok(Found {
            text: format!("no matches for {:?} under {}", args.pattern, root.display()),
            data,
        });
    }
    Ok(Found {
        text: finish(sink.lines, sink.matches, limit, "matches"),
        data,
    })
}

/// Collects `path:line: text` lines (and the matches alone, as JSON) until `limit` matches,
/// then only counts.
struct Collect {
    lines: Vec<String>,
    matched: Vec<serde_json::Value>,
    path: String,
    matches: u64,
    limit: u64,
}

impl Collect {
    fn push(&mut self, sep: char, line_number: Option<u64>, bytes: &[u8]) {
        let text = output::lossy(bytes);
        let text = text.trim_end_matches(['\n', '\r']);
        let text: String = match text.char_indices().nth(MAX_LINE_CHARS) {
            Some((at, _)) => format!("{}…", &text[..at]),
            None => text.to_string(),
        };
        let n = line_number.unwrap_or(0);
        self.lines
            .push(format!("{}{sep}{n}{sep} {text}", self.path));
    }
}

impl Sink for Collect {
    type Error = std::io::Error;

    fn matched(
        &mut self,
        _searcher: &grep_searcher::Searcher,
        mat: &SinkMatch<'_>,
    ) -> Result<bool, Self::Error> {
        self.matches += 1;
        if self.matches <= self.limit {
            self.push(':', mat.line_number(), mat.bytes());
            let text = output::lossy(mat.bytes());
            self.matched.push(serde_json::json!({
                "path": self.path,
                "line": mat.line_number().unwrap_or(0),
                "content": text.trim_end_matches(['\n', '\r']),
            }));
        }
        Ok(self.matches < COUNT_CAP)
    }

    fn context(
        &mut self,
        _searcher: &grep_searcher::Searcher,
        ctx: &SinkContext<'_>,
    ) -> Result<bool, Self::Error> {
        if self.matches < self.limit
            || (self.matches == self.limit
                && matches!(ctx.kind(), grep_searcher::SinkContextKind::After))
        {
            self.push('-', ctx.line_number(), ctx.bytes());
        }
        Ok(true)
    }

    fn context_break(&mut self, _searcher: &grep_searcher::Searcher) -> Result<bool, Self::Error> {
        if self.matches < self.limit {
            self.lines.push("--".to_string());
        }
        Ok(true)
    }
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
