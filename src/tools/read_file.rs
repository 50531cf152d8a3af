//! The `read_file` tool: a text file with line numbers (`     1|text`), paged by `offset`
//! (1-based line) and `limit` (lines, default 2000).
//!
//! It refuses binary files (known binary extensions, or a NUL byte in the first 8 KB) and
//! directories, and never loads a whole large file: it streams lines, keeping only the window
//! it returns. Without offset/limit, a file above `limits.max_read_bytes` returns its first
//! lines plus the total line count and how to page. A missing file names similar files in its
//! directory. Lines are decoded lossily.

use std::fs::File;
use std::io::BufRead;
use std::io::BufReader;
use std::io::Read;
use std::path::Path;
use std::path::PathBuf;

use async_trait::async_trait;
use serde::Deserialize;

use crate::model::ToolSchema;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::args;
use crate::tools::output;
use crate::util::paths::resolve_path;

pub const DEFAULT_LIMIT: u64 = 2000;
/// Longer lines are cut so one minified line cannot flood the context.
const MAX_LINE_CHARS: usize = 2000;

const BINARY_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "bmp", "ico", "webp", "tif", "tiff", "psd", "pdf", "zip", "gz",
    "tgz", "bz2", "xz", "zst", "7z", "rar", "tar", "jar", "war", "class", "exe", "dll", "so",
    "dylib", "o", "a", "lib", "rlib", "wasm", "pyc", "mp3", "mp4", "wav", "flac", "ogg", "avi",
    "mov", "mkv", "webm", "ttf", "otf", "woff", "woff2", "sqlite", "sqlite3", "db", "bin",
];

pub struct ReadFileTool;

#[derive(Debug, Deserialize)]
struct ReadArgs {
    path: String,
    #[serde(default, deserialize_with = "args::lenient_u64")]
    offset: Option<u64>,
    #[serde(default, deserialize_with = "args::lenient_u64")]
    limit: Option<u64>,
}

#[async_trait]
impl Tool for ReadFileTool {
    fn name(&self) -> &'static str {
        "read_file"
    }

    fn toolset(&self) -> &'static str {
        "file"
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: "Read a text file. Lines come back numbered as `LINE_NUMBER|content` (the number and `|` are not part of the file). \
                Reads up to 2000 lines from `offset` (1-based); use offset and limit to page through long files. \
                Large files read without offset/limit return their first part plus the total line count. \
                Binary files are refused. Paths are relative to the working directory; ~ is the home directory."
                .to_string(),
            parameters: serde_json::json!({
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "File to read."},
                    "offset": {"type": "integer", "minimum": 1, "description": "First line to return, 1-based (default 1)."},
                    "limit": {"type": "integer", "minimum": 1, "description": "Maximum number of lines to return (default 2000)."}
                },
                "required": ["path"]
            }),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::ParallelSafe
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        let path = args::str_field(args, "path");
        match args.get("offset").and_then(serde_json::Value::as_u64) {
            Some(o) => format!("{path}:{o}"),
            None => path.to_string(),
        }
    }

    async fn call(&self, args: serde_json::Value, ctx: &ToolContext) -> ToolOutput {
        let args: ReadArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        let path = resolve_path(&ctx.cwd, &args.path);
        let max_bytes = ctx.limits.max_read_bytes.max(1024);
        let result =
            tokio::task::spawn_blocking(move || read(&path, args.offset, args.limit, max_bytes))
                .await;
        match result {
            Ok(Ok(read)) => ToolOutput::ok(read.text).with_data(read.data),
            Ok(Err(e)) => ToolOutput::error(e.to_string()),
            Err(e) => ToolOutput::error(format!("read_file failed: {e}")),
        }
    }
}

/// Whether `path`'s extension marks a binary format.
pub fn has_binary_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| BINARY_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// Why `read_file` shows nothing; the text is for the model and says what to do instead.
#[derive(Debug, thiserror::Error)]
enum ReadError {
    /// `similar` is empty or a line naming similar files in the same directory.
    #[error("file not found: {}{similar}", path.display())]
    NotFound { path: PathBuf, similar: String },
    #[error("cannot read {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{} is a directory; use search_files with target=files to list it",
        path.display()
    )]
    Directory { path: PathBuf },
    #[error("{} is not a regular file", path.display())]
    NotRegular { path: PathBuf },
    #[error(
        "{} is a binary file; read_file only reads text. Inspect it with the terminal (`file`, `xxd | head`, `strings`) instead.",
        path.display()
    )]
    Binary { path: PathBuf },
    #[error("offset {start} is past the end of {}, which has {total} lines", path.display())]
    PastEnd {
        start: u64,
        path: PathBuf,
        total: u64,
    },
}

/// What a read shows: the text for the model and Hermes's `ReadResult` for scripts.
struct ReadOutcome {
    text: String,
    data: serde_json::Value,
}

fn read(
    path: &Path,
    offset: Option<u64>,
    limit: Option<u64>,
    max_bytes: usize,
) -> Result<ReadOutcome, ReadError> {
    let shown = path.display();
    let io = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => ReadError::NotFound {
            path: path.to_path_buf(),
            similar: similar_names(path),
        },
        _ => io(e),
    })?;
    if meta.is_dir() {
        return Err(ReadError::Directory {
            path: path.to_path_buf(),
        });
    }
    if !meta.is_file() {
        // FIFOs and devices could block the read forever or never end.
        return Err(ReadError::NotRegular {
            path: path.to_path_buf(),
        });
    }
    let binary = || ReadError::Binary {
        path: path.to_path_buf(),
    };
    if has_binary_extension(path) {
        return Err(binary());
    }
    let mut file = File::open(path).map_err(io)?;
    let mut sniff = Vec::with_capacity(output::BINARY_SNIFF_BYTES);
    (&mut file)
        .take(output::BINARY_SNIFF_BYTES as u64)
        .read_to_end(&mut sniff)
        .map_err(io)?;
    if output::looks_binary(&sniff) {
        return Err(binary());
    }
    let reader = BufReader::new(std::io::Cursor::new(sniff).chain(file));

    let paged = offset.is_some() || limit.is_some();
    let whole_file_too_big = !paged && meta.len() > max_bytes as u64;
    let start = offset.unwrap_or(1).max(1);
    let limit = limit.unwrap_or(DEFAULT_LIMIT).max(1);
    let window = Window::collect(reader, start, limit, max_bytes).map_err(io)?;

    if window.total_lines == 0 {
        return Ok(ReadOutcome {
            text: format!("{shown} is empty."),
            data: serde_json::json!({"content": "", "total_lines": 0, "file_size": meta.len()}),
        });
    }
    if start > window.total_lines {
        return Err(ReadError::PastEnd {
            start,
            path: path.to_path_buf(),
            total: window.total_lines,
        });
    }
    let last = start + window.lines.len() as u64 - 1;
    let content = window.lines.join("\n");
    let hint = if whole_file_too_big {
        Some(format!(
            "[{shown} is {} bytes ({} lines), more than the {max_bytes}-byte limit for reading a whole file; \
             showing lines {start}-{last}. Use offset and limit to read other parts, or search_files to find what you need.]",
            meta.len(),
            window.total_lines
        ))
    } else if last < window.total_lines {
        Some(format!(
            "[showing lines {start}-{last} of {}; use offset={} to continue]",
            window.total_lines,
            last + 1
        ))
    } else {
        None
    };
    let mut data = serde_json::json!({
        "content": content,
        "total_lines": window.total_lines,
        "file_size": meta.len(),
        "truncated": hint.is_some(),
    });
    let text = match hint {
        Some(hint) => {
            data["hint"] = serde_json::Value::String(hint.clone());
            format!("{content}\n\n{hint}")
        }
        None => content,
    };
    Ok(ReadOutcome { text, data })
}

/// The numbered lines `[start, start + limit)` (stopping early at `max_bytes` of output) and
/// the file's total line count.
struct Window {
    lines: Vec<String>,
    total_lines: u64,
}

impl Window {
    fn collect(
        mut reader: impl BufRead,
        start: u64,
        limit: u64,
        max_bytes: usize,
    ) -> std::io::Result<Self> {
        let mut lines = Vec::new();
        let mut bytes = 0usize;
        let mut full = false;
        let mut total = 0u64;
        let mut raw = Vec::new();
        loop {
            raw.clear();
            if reader.read_until(b'\n', &mut raw)? == 0 {
                break;
            }
            total += 1;
            if total < start || full || lines.len() as u64 >= limit {
                continue;
            }
            let text = output::lossy(&raw);
            let text = text.trim_end_matches('\n').trim_end_matches('\r');
            let line = format!("{total:>6}|{}", cut_line(text));
            // Always return at least one line, even a long one.
            if !lines.is_empty() && bytes + line.len() > max_bytes {
                full = true;
                continue;
            }
            bytes += line.len() + 1;
            lines.push(line);
        }
        Ok(Self {
            lines,
            total_lines: total,
        })
    }
}

fn cut_line(text: &str) -> String {
    match text.char_indices().nth(MAX_LINE_CHARS) {
        None => text.to_string(),
        Some((at, _)) => format!(
            "{}… [line cut: {} chars]",
            &text[..at],
            text.chars().count()
        ),
    }
}

/// Up to five similar names from the same directory, as a line to add to "not found" (or
/// nothing).
fn similar_names(path: &Path) -> String {
    let mut msg = String::new();
    let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else {
        return msg;
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return msg;
    };
    let wanted = name.to_lowercase();
    let mut similar: Vec<(usize, String)> = entries
        .take(2000)
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|candidate| {
            let score = similarity(&wanted, &candidate.to_lowercase())?;
            Some((score, candidate))
        })
        .collect();
    similar.sort();
    if !similar.is_empty() {
        let names: Vec<_> = similar.into_iter().take(5).map(|(_, n)| n).collect();
        msg.push_str(&format!(
            "\nsimilar names in {}: {}",
            dir.display(),
            names.join(", ")
        ));
    }
    msg
}

/// Lower is closer; `None` when unrelated.
fn similarity(wanted: &str, candidate: &str) -> Option<usize> {
    let stem = |s: &str| s.split('.').next().unwrap_or(s).to_string();
    if stem(wanted) == stem(candidate) && !stem(wanted).is_empty() {
        return Some(0);
    }
    if wanted.len() > 64 || candidate.len() > 64 {
        return None;
    }
    let d = strsim::levenshtein(wanted, candidate);
    (d <= 2.max(wanted.len() / 4)).then_some(d)
}

#[cfg(test)]
#[path = "read_file_tests.rs"]
mod tests;
