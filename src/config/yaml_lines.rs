//! A line-based editor for YAML block mappings: finds a dotted key by indentation and
//! replaces its scalar, or inserts missing keys/sections at the end of their parent block.
//!
//! Everything outside the edited line (comments, order, unknown keys, blank lines, line
//! endings) is kept byte for byte. It understands block mappings, comments, quoted scalars
//! and skips block-scalar bodies; it refuses (`Unsupported`) flow collections, anchors,
//! tags, multi-line scalars and sequences on the path. It does not verify its output: the
//! caller re-parses the result and compares, so a wrong guess here never corrupts a file.
//!
//! Its line model (`Line`, `split_lines`, `block_end`, `indent_unit`, `rebuild`) is shared
//! with `mcp_edit`. Invariant: `Line::text` and `Line::eol` concatenated over all lines give
//! back the input exactly.

/// Why the line editor declined an edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LineEditError {
    /// The YAML on the path is beyond this editor; the caller may round-trip instead.
    Unsupported(String),
    /// The key holds a nested mapping, so it cannot take a scalar.
    IsSection,
}

/// What a line is, as far as the block structure goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Kind {
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
pub(super) struct Line<'a> {
    /// The line without its line ending.
    pub(super) text: &'a str,
    /// `"\r\n"`, `"\n"`, or `""` on a last line without one.
    pub(super) eol: &'a str,
    /// Leading spaces (tabs are not indentation in YAML).
    pub(super) indent: usize,
    pub(super) kind: Kind,
}

impl Line<'_> {
    /// A line of the document's data: not blank, a comment or a document marker.
    pub(super) fn is_content(&self) -> bool {
        !matches!(self.kind, Kind::Blank | Kind::Comment | Kind::Marker)
    }

    pub(super) fn is_blank(&self) -> bool {
        self.kind == Kind::Blank
    }

    pub(super) fn is_comment(&self) -> bool {
        self.kind == Kind::Comment
    }
}

/// The line ending to use for new lines: CRLF when the file has any, else LF.
pub(super) fn newline_of(text: &str) -> &'static str {
    if text.contains("\r\n") { "\r\n" } else { "\n" }
}

/// The block scalar whose body is being read.
struct BlockScalar {
    /// Indentation of the key that opened it; its body is indented deeper.
    owner: usize,
    /// Whether blank lines at its end belong to its value (`+` chomping).
    keeps_trailing_blanks: bool,
}

pub(super) fn split_lines(text: &str) -> Vec<Line<'_>> {
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

/// The value after a key's colon as byte offsets `(start, end)` into `after`; what
/// follows `end` is blank or a comment. Errs for forms this editor does not rewrite.
fn split_value(after: &str) -> Result<(usize, usize), LineEditError> {
    let start = after.len() - after.trim_start().len();
    let v = &after[start..];
    let unsupported = |what: &str| Err(LineEditError::Unsupported(what.to_owned()));
    let end = match v.chars().next() {
        None | Some('#') => start,
        Some(q @ ('"' | '\'')) => match closing_quote(v, q) {
            Some(close) => start + close + 1,
            None => return unsupported("a quoted value spanning lines"),
        },
        Some('[' | '{') => return unsupported("a flow-style value"),
        Some('|' | '>') => return unsupported("a block scalar"),
        Some('&' | '*' | '!') => return unsupported("an anchor, alias or tag"),
        Some(_) => {
            let cut = [" #", "\t#"]
                .iter()
                .filter_map(|p| v.find(p))
                .min()
                .unwrap_or(v.len());
            start + v[..cut].trim_end().len()
        }
    };
    let tail = after[end..].trim_start();
    if tail.is_empty() || tail.starts_with('#') {
        Ok((start, end))
    } else {
        unsupported("text after a quoted value")
    }
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
pub(super) fn block_end(lines: &[Line<'_>], i: usize) -> usize {
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
pub(super) fn indent_unit(lines: &[Line<'_>]) -> usize {
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

/// Sets `path` to the already-rendered YAML scalar `scalar`.
pub(crate) fn set_scalar(text: &str, path: &[&str], scalar: &str) -> Result<String, LineEditError> {
    let lines = split_lines(text);
    let newline = newline_of(text);
    let unit = indent_unit(&lines);
    let (mut lo, mut hi) = (0, lines.len());
    let mut parent: Option<usize> = None;
    for (depth, seg) in path.iter().enumerate() {
        let last = depth + 1 == path.len();
        let Some(i) = find_child(&lines, lo, hi, seg)? else {
            return Ok(insert(
                &lines,
                lo,
                hi,
                parent,
                &path[depth..],
                scalar,
                unit,
                newline,
            ));
        };
        let Kind::Key { colon_end, .. } = lines[i].kind else {
            return Err(LineEditError::Unsupported("an unexpected line".into()));
        };
        let after = &lines[i].text[colon_end..];
        let (vs, ve) = split_value(after)?;
        let end = block_end(&lines, i);
        let has_children = lines[i + 1..end].iter().any(|l| l.is_content());
        if last {
            if vs == ve && has_children {
                return Err(LineEditError::IsSection);
            }
            // Keep a trailing comment and the spacing before it.
            let rest = &after[ve..];
            let tail = match rest.trim_start() {
                "" => String::new(),
                comment if vs == ve => format!(" {comment}"),
                _ => rest.to_owned(),
            };
            let new_line = format!("{}: {scalar}{tail}", &lines[i].text[..colon_end - 1]);
            return Ok(rebuild(
                &lines,
                |j| (j == i).then(|| new_line.clone()),
                None,
            ));
        }
        if vs != ve {
            return Err(LineEditError::Unsupported(format!(
                "`{seg}` holds a value, not a section"
            )));
        }
        (lo, hi, parent) = (i + 1, end, Some(i));
    }
    Err(LineEditError::Unsupported("an empty key".into()))
}

#[allow(clippy::too_many_arguments)]
fn insert(
    lines: &[Line<'_>],
    lo: usize,
    hi: usize,
    parent: Option<usize>,
    segs: &[&str],
    scalar: &str,
    unit: usize,
    newline: &str,
) -> String {
    let last_content = (lo..hi).rev().find(|&j| lines[j].is_content());
    let base = match (last_content, parent) {
        (Some(_), _) => lines[lo..hi]
            .iter()
            .find(|l| l.is_content())
            .map_or(0, |l| l.indent),
        (None, Some(p)) => lines[p].indent + unit,
        (None, None) => 0,
    };
    let mut block = String::new();
    for (d, seg) in segs.iter().enumerate() {
        let pad = " ".repeat(base + d * unit);
        if d + 1 == segs.len() {
            block.push_str(&format!("{pad}{seg}: {scalar}{newline}"));
        } else {
            block.push_str(&format!("{pad}{seg}:{newline}"));
        }
    }
    // After the parent's last entry; a top-level key goes after everything.
    let after = match (last_content, parent) {
        (Some(j), _) => Some(j),
        (None, Some(p)) => Some(p),
        (None, None) => lines.len().checked_sub(1),
    };
    rebuild(lines, |_| None, Some((after, block, newline)))
}

/// Reassembles the file, replacing lines and inserting one block after a line (`None`:
/// before the first), with `newline` added first when that line had no line ending.
pub(super) fn rebuild(
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
