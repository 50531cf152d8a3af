//! Setting one scalar of a YAML file in place (`config set`): finds a dotted key by
//! indentation and replaces its scalar, or inserts missing keys/sections at the end of their
//! parent block, on the line model of `util::yaml_lines`.
//!
//! Everything outside the edited line (comments, order, unknown keys, blank lines, line
//! endings) is kept byte for byte. It refuses (`Unsupported`) flow collections, anchors,
//! tags, multi-line scalars and sequences on the path. It does not verify its output: the
//! caller re-parses the result and compares, so a wrong guess here never corrupts a file.

use super::Kind;
use super::Line;
use super::block_end;
use super::closing_quote;
use super::find_child;
use super::indent_unit;
use super::newline_of;
use super::rebuild;
use super::split_lines;

/// Why the line editor declined an edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LineEditError {
    /// The YAML on the path is beyond this editor; the caller may round-trip instead.
    Unsupported(String),
    /// The key holds a nested mapping, so it cannot take a scalar.
    IsSection,
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
        let has_children = lines[i + 1..end].iter().any(super::Line::is_content);
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
