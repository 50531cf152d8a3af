//! The line-preserving model of a YAML file that config and skins share: the text split into
//! lines classified by block structure (`Line`, `split_lines`, `block_end`, `indent_unit`,
//! `rebuild`), lookups of a key path's line (`locate`, `nearest_key_line`, `key_lines`) so
//! warnings can say `file:line`, and (`edit`, `list`) setting one scalar or one list in place.
//!
//! `serde_norway::Value` carries no positions, hence this scan. It understands block
//! mappings, comments, quoted keys and skips block-scalar bodies (banner art, prompts); a key
//! inside a flow mapping (`{a: 1}`) has no line of its own. Users: `config` (load warnings,
//! `config set`, `mcp add/remove`) and `theme` (skin notices). Invariant: `Line::text` and
//! `Line::eol` concatenated over all lines give back the input exactly.

mod edit;
mod list;

pub(crate) use edit::LineEditError;
pub(crate) use edit::set_scalar;
pub(crate) use list::set_list;

/// What a line is, as far as the block structure goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Only whitespace, except inside a keep-chomping (`|+`, `>+`) block scalar, whose
    /// trailing blank lines are part of its value and so `Content`.
    Blank,
    Comment,
    /// `---`, `...` or a `%` directive.
    Marker,
    /// `key:` with the byte offset just past the colon.
    Key {
        key: String,
        colon_end: usize,
    },
    /// A `- ` sequence item.
    Item,
    /// Body of a block scalar (`|`, `>`).
    Content,
    Other,
}

/// One line of the file.
#[derive(Debug)]
pub(crate) struct Line<'a> {
    /// The line without its line ending.
    pub(crate) text: &'a str,
    /// `"\r\n"`, `"\n"`, or `""` on a last line without one.
    pub(crate) eol: &'a str,
    /// Leading spaces (tabs are not indentation in YAML).
    pub(crate) indent: usize,
    pub(crate) kind: Kind,
}

impl Line<'_> {
    /// A line of the document's data: not blank, a comment or a document marker.
    pub(crate) fn is_content(&self) -> bool {
        !matches!(self.kind, Kind::Blank | Kind::Comment | Kind::Marker)
    }

    pub(crate) fn is_blank(&self) -> bool {
        self.kind == Kind::Blank
    }

    pub(crate) fn is_comment(&self) -> bool {
        self.kind == Kind::Comment
    }
}

/// The line ending to use for new lines: CRLF when the file has any, else LF.
pub(crate) fn newline_of(text: &str) -> &'static str {
    if text.contains("\r\n") { "\r\n" } else { "\n" }
}

/// The block scalar whose body is being read.
struct BlockScalar {
    /// Indentation of the key that opened it; its body is indented deeper.
    owner: usize,
    /// Whether blank lines at its end belong to its value (`+` chomping).
    keeps_trailing_blanks: bool,
}

pub(crate) fn split_lines(text: &str) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    let mut block: Option<BlockScalar> = None;
    for raw in text.split_inclusive('\n') {
        let (body, eol) = match raw.strip_suffix("\r\n") {
            Some(b) => (b, "\r\n"),
            None => match raw.strip_suffix('\n') {
                Some(b) => (b, "\n"),
                None => (raw, ""),
            },
        };
        let indent = body.len() - body.trim_start_matches(' ').len();
        let rest = &body[indent..];
        if let Some(scalar) = &block {
            // A blank line does not end a block scalar, whatever its indentation.
            let blank = rest.trim().is_empty();
            if blank || indent > scalar.owner {
                let kind = if blank && !scalar.keeps_trailing_blanks {
                    Kind::Blank
                } else {
                    Kind::Content
                };
                lines.push(Line {
                    text: body,
                    eol,
                    indent,
                    kind,
                });
                continue;
            }
            block = None;
        }
        let kind = classify(rest, indent);
        if let Kind::Key { colon_end, .. } = &kind {
            let value = body[*colon_end..].trim_start();
            if value.starts_with('|') || value.starts_with('>') {
                let header = value.split([' ', '\t']).next().unwrap_or(value);
                block = Some(BlockScalar {
                    owner: indent,
                    keeps_trailing_blanks: header.contains('+'),
                });
            }
        }
        lines.push(Line {
            text: body,
            eol,
            indent,
            kind,
        });
    }
    lines
}

fn classify(rest: &str, indent: usize) -> Kind {
    if rest.trim().is_empty() {
        Kind::Blank
    } else if rest.trim_start().starts_with('#') {
        // Also a comment after a tab, which is not indentation.
        Kind::Comment
    } else if indent == 0
        && (rest.starts_with("---") || rest.starts_with("...") || rest.starts_with('%'))
    {
        Kind::Marker
    } else if rest == "-" || rest.starts_with("- ") || rest.starts_with("-\t") {
        Kind::Item
    } else if rest.starts_with('\t') {
        Kind::Other
    } else {
        match parse_key(rest) {
            Some((key, colon)) => Kind::Key {
                key,
                colon_end: indent + colon,
            },
            None => Kind::Other,
        }
    }
}

/// `(key, offset past ':')` when `rest` starts a mapping entry.
fn parse_key(rest: &str) -> Option<(String, usize)> {
    let (key, after_key) = match rest.chars().next()? {
        q @ ('"' | '\'') => {
            let close = closing_quote(rest, q)?;
            let inner = &rest[1..close];
            let key = if q == '"' {
                inner.replace("\\\"", "\"").replace("\\\\", "\\")
            } else {
                inner.replace("''", "'")
            };
            (key, close + 1)
        }
        c if "[]{}&*!|>%@`?,#".contains(c) => return None,
        _ => {
            let bytes = rest.as_bytes();
            let colon = (0..bytes.len()).find(|&i| {
                bytes[i] == b':' && bytes.get(i + 1).is_none_or(|b| *b == b' ' || *b == b'\t')
            })?;
            let key = rest[..colon].trim_end();
            if key.is_empty() || key.contains(" #") {
                return None;
            }
            (key.to_owned(), colon)
        }
    };
    let tail = &rest[after_key..];
    let spaces = tail.len() - tail.trim_start_matches(' ').len();
    let tail = &tail[spaces..];
    let ok = tail.starts_with(':')
        && tail[1..]
            .chars()
            .next()
            .is_none_or(|c| c == ' ' || c == '\t');
    ok.then_some((key, after_key + spaces + 1))
}

/// Byte index of the quote closing the scalar that opens `s`, on this line.
fn closing_quote(s: &str, quote: char) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut i = 1;
    while i < bytes.len() {
        match (quote, bytes[i]) {
            ('"', b'\\') => i += 2,
            ('"', b'"') => return Some(i),
            ('\'', b'\'') if bytes.get(i + 1) == Some(&b'\'') => i += 2,
            ('\'', b'\'') => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// 1-based (line, column) of the value of `path`, if the key is present.
pub(crate) fn locate(text: &str, path: &[&str]) -> Option<(usize, usize)> {
    let lines = split_lines(text);
    let (mut lo, mut hi) = (0, lines.len());
    let mut found = None;
    for seg in path {
        let i = find_child(&lines, lo, hi, seg).ok()??;
        let Kind::Key { colon_end, .. } = &lines[i].kind else {
            return None;
        };
        let after = &lines[i].text[*colon_end..];
        let skip = after.len() - after.trim_start().len();
        found = Some((i + 1, colon_end + skip + 1));
        (lo, hi) = (i + 1, block_end(&lines, i));
    }
    found
}

/// The keys on their own lines, in file order: for each, its 0-based line index and the key
/// path from the top (block-mapping nesting by indentation). `visit` returns `false` to stop.
fn walk_keys(text: &str, mut visit: impl FnMut(usize, &[(usize, String)]) -> bool) {
    let mut stack: Vec<(usize, String)> = Vec::new();
    for (index, line) in split_lines(text).iter().enumerate() {
        let Kind::Key { key, .. } = &line.kind else {
            continue;
        };
        while stack.last().is_some_and(|(i, _)| *i >= line.indent) {
            stack.pop();
        }
        stack.push((line.indent, key.clone()));
        if !visit(index, &stack) {
            break;
        }
    }
}

/// 1-based line of the deepest key along `path` that is found on its own line (a key in a
/// flow mapping or a block scalar is reported at its nearest enclosing key); `None` when not
/// even the first key is.
pub(crate) fn nearest_key_line(text: &str, path: &[&str]) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None; // (depth matched, line)
    walk_keys(text, |index, stack| {
        let matched = stack
            .iter()
            .zip(path)
            .take_while(|((_, k), p)| k == *p)
            .count();
        if matched == stack.len() && best.is_none_or(|(depth, _)| matched > depth) {
            best = Some((matched, index + 1));
            return matched != path.len();
        }
        true
    });
    best.map(|(_, line)| line)
}

/// Every 1-based line holding exactly the key `path` on its own line, in file order (a
/// repeated key has several).
pub(crate) fn key_lines(text: &str, path: &[&str]) -> Vec<usize> {
    let mut out = Vec::new();
    walk_keys(text, |index, stack| {
        if stack.len() == path.len() && stack.iter().zip(path).all(|((_, k), p)| k == p) {
            out.push(index + 1);
        }
        true
    });
    out
}

/// Index of the child key `seg` among lines `lo..hi`; `Ok(None)` when absent.
fn find_child(
    lines: &[Line<'_>],
    lo: usize,
    hi: usize,
    seg: &str,
) -> Result<Option<usize>, LineEditError> {
    let Some(first) = lines[lo..hi].iter().find(|l| l.is_content()) else {
        return Ok(None);
    };
    if first.kind == Kind::Item {
        return Err(LineEditError::Unsupported(
            "a list where a section was expected".into(),
        ));
    }
    let child_indent = first.indent;
    Ok((lo..hi).find(|&i| {
        let l = &lines[i];
        l.indent == child_indent && matches!(&l.kind, Kind::Key { key, .. } if key == seg)
    }))
}

/// One past the last line belonging to the entry at `i`: trailing blank lines and comments
/// are included, block-scalar bodies too, and a `- item` at the key's own indentation is
/// the key's list.
pub(crate) fn block_end(lines: &[Line<'_>], i: usize) -> usize {
    let n = lines[i].indent;
    (i + 1..lines.len())
        .find(|&j| {
            let l = &lines[j];
            match l.kind {
                Kind::Key { .. } | Kind::Other | Kind::Marker => l.indent <= n,
                Kind::Item => l.indent < n,
                _ => false,
            }
        })
        .unwrap_or(lines.len())
}

/// Indentation step used by the file: from the first key directly followed by a deeper key
/// or list item (a block-scalar body says nothing about it); 2 when it cannot tell.
pub(crate) fn indent_unit(lines: &[Line<'_>]) -> usize {
    lines
        .windows(2)
        .find_map(|w| {
            let (a, b) = (&w[0], &w[1]);
            (matches!(a.kind, Kind::Key { .. })
                && matches!(b.kind, Kind::Key { .. } | Kind::Item)
                && b.indent > a.indent)
                .then(|| b.indent - a.indent)
        })
        .unwrap_or(2)
}

/// Reassembles the file, replacing lines and inserting one block after a line (`None`:
/// before the first), with `newline` added first when that line had no line ending.
pub(crate) fn rebuild(
    lines: &[Line<'_>],
    replace: impl Fn(usize) -> Option<String>,
    insert: Option<(Option<usize>, String, &str)>,
) -> String {
    let mut out = String::new();
    if let Some((None, block, _)) = &insert {
        out.push_str(block);
    }
    for (j, line) in lines.iter().enumerate() {
        match replace(j) {
            Some(text) => out.push_str(&text),
            None => out.push_str(line.text),
        }
        out.push_str(line.eol);
        if let Some((Some(at), block, newline)) = &insert
            && *at == j
        {
            if line.eol.is_empty() {
                out.push_str(newline);
            }
            out.push_str(block);
        }
    }
    out
}

#[cfg(test)]
#[path = "yaml_lines_tests.rs"]
mod tests;
