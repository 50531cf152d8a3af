//! Setting one list of a YAML file in place (`hermes tools enable|disable` writes
//! `platform_toolsets.cli`): the key's value — a block list under it, a flow list or a scalar
//! on its line — is replaced by a block list of the given items, indented as the old list's
//! items were, else one indentation step under the key (as Python Hermes's `save_config`
//! writes lists).
//!
//! A missing key is inserted first, where `set_scalar` would insert it. Comments on the
//! key's line and after the list are kept; everything else is byte for byte. Like
//! `set_scalar` it does not verify its output: the caller re-parses and compares.

use super::Kind;
use super::block_end;
use super::edit::LineEditError;
use super::edit::set_scalar;
use super::find_child;
use super::indent_unit;
use super::split_lines;

/// Sets `path` to a block list of `items` (already-rendered YAML scalars).
pub(crate) fn set_list(
    text: &str,
    path: &[&str],
    items: &[String],
) -> Result<String, LineEditError> {
    let inserted;
    let text = if find_path(text, path)?.is_some() {
        text
    } else {
        inserted = set_scalar(text, path, "[]")?;
        &inserted
    };
    let lines = split_lines(text);
    let Some(i) = find_path(text, path)? else {
        return Err(LineEditError::Unsupported(
            "a key that could not be inserted".into(),
        ));
    };
    let Kind::Key { colon_end, .. } = lines[i].kind else {
        return Err(LineEditError::Unsupported("an unexpected line".into()));
    };
    let key_part = &lines[i].text[..colon_end];
    let after = &lines[i].text[colon_end..];
    let comment = trailing_comment(after)?;
    let end = block_end(&lines, i);
    // The list's own lines: up to its last content line (comments after it stay).
    let last = (i + 1..end).rev().find(|&j| lines[j].is_content());
    let children = last.map_or(i + 1..i + 1, |l| i + 1..l + 1);
    if lines[children.clone()]
        .iter()
        .any(|l| l.is_content() && l.kind != Kind::Item && l.indent <= lines[i].indent)
    {
        return Err(LineEditError::Unsupported("a list mixed with keys".into()));
    }
    let pad = lines[children.clone()]
        .iter()
        .find(|l| l.kind == Kind::Item)
        .map_or(lines[i].indent + indent_unit(&lines), |l| l.indent);
    let newline = super::newline_of(text);
    let mut block = if items.is_empty() {
        format!("{key_part} []{comment}")
    } else {
        format!("{key_part}{comment}")
    };
    for item in items {
        block.push_str(newline);
        block.push_str(&" ".repeat(pad));
        block.push_str("- ");
        block.push_str(item);
    }
    let mut out = String::new();
    for (j, line) in lines.iter().enumerate() {
        if children.contains(&j) {
            continue;
        }
        out.push_str(if j == i { &block } else { line.text });
        out.push_str(line.eol);
    }
    Ok(out)
}

/// `" # comment"` after a key's value, or `""`; errs on a value this editor cannot read.
fn trailing_comment(after: &str) -> Result<String, LineEditError> {
    let v = after.trim_start();
    let rest = if let Some(flow) = v.strip_prefix('[') {
        match flow.rfind(']') {
            Some(close) => &flow[close + 1..],
            None => {
                return Err(LineEditError::Unsupported(
                    "a flow list spanning lines".into(),
                ));
            }
        }
    } else if v.starts_with('#') || v.is_empty() {
        v
    } else if v.starts_with(['{', '|', '>', '&', '*', '!', '"', '\'']) {
        return Err(LineEditError::Unsupported(
            "a value this editor does not rewrite".into(),
        ));
    } else {
        let cut = [" #", "\t#"].iter().filter_map(|p| v.find(p)).min();
        cut.map_or("", |c| &v[c..])
    };
    let rest = rest.trim_start();
    if rest.is_empty() {
        Ok(String::new())
    } else if rest.starts_with('#') {
        Ok(format!(" {rest}"))
    } else {
        Err(LineEditError::Unsupported("text after a flow list".into()))
    }
}

/// The line of the key `path`, walking block mappings by indentation.
fn find_path(text: &str, path: &[&str]) -> Result<Option<usize>, LineEditError> {
    let lines = split_lines(text);
    let (mut lo, mut hi) = (0, lines.len());
    for (depth, seg) in path.iter().enumerate() {
        let Some(i) = find_child(&lines, lo, hi, seg)? else {
            return Ok(None);
        };
        if depth + 1 == path.len() {
            return Ok(Some(i));
        }
        (lo, hi) = (i + 1, block_end(&lines, i));
    }
    Ok(None)
}
