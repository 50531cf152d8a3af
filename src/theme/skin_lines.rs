//! Line numbers for keys in a skin file, so notices can say `file:line`.
//!
//! `serde_norway::Value` carries no positions, so this scans the text: block-mapping keys by
//! indentation, skipping comments and block-scalar bodies (banner art). It only answers
//! "which line holds this key path"; a key inside a flow mapping (`{a: 1}`) is reported at
//! the nearest enclosing key that has its own line.
//!
//! (`config::yaml_lines` has a fuller line model but is private to `config`.)

/// 1-based line of the deepest key along `path` that is found on its own line; `None` when
/// not even the first key is.
pub(crate) fn locate(text: &str, path: &[&str]) -> Option<usize> {
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut best: Option<(usize, usize)> = None; // (depth matched, line)
    let mut block_owner: Option<usize> = None;
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        let indent = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[indent..];
        if let Some(owner) = block_owner {
            if rest.trim().is_empty() || indent > owner {
                continue;
            }
            block_owner = None;
        }
        if rest.trim().is_empty() || rest.starts_with('#') {
            continue;
        }
        let Some((key, value)) = split_key(rest) else {
            continue;
        };
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        stack.push((indent, key));
        let value = value.trim_start();
        if value.starts_with('|') || value.starts_with('>') {
            block_owner = Some(indent);
        }
        let matched = stack
            .iter()
            .zip(path)
            .take_while(|((_, k), p)| k == *p)
            .count();
        if matched == stack.len() && best.is_none_or(|(depth, _)| matched > depth) {
            best = Some((matched, index + 1));
            if matched == path.len() {
                break;
            }
        }
    }
    best.map(|(_, line)| line)
}

/// Every 1-based line holding exactly the key `path` on its own line, in file order (a
/// repeated key has several).
pub(crate) fn locate_all(text: &str, path: &[&str]) -> Vec<usize> {
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut block_owner: Option<usize> = None;
    let mut out = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        let indent = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[indent..];
        if let Some(owner) = block_owner {
            if rest.trim().is_empty() || indent > owner {
                continue;
            }
            block_owner = None;
        }
        if rest.trim().is_empty() || rest.starts_with('#') {
            continue;
        }
        let Some((key, value)) = split_key(rest) else {
            continue;
        };
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        stack.push((indent, key));
        let value = value.trim_start();
        if value.starts_with('|') || value.starts_with('>') {
            block_owner = Some(indent);
        }
        if stack.len() == path.len() && stack.iter().zip(path).all(|((_, k), p)| k == p) {
            out.push(index + 1);
        }
    }
    out
}

/// The key and the text after its colon, when `rest` starts a block-mapping entry.
fn split_key(rest: &str) -> Option<(String, &str)> {
    if let Some(quote) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') {
        let close = rest[1..].find(quote)? + 1;
        let after = rest[close + 1..].trim_start();
        let value = after.strip_prefix(':')?;
        return Some((rest[1..close].to_owned(), value));
    }
    if rest.starts_with(['-', '[', '{', '&', '*', '!', '|', '>', '%', '@', '`', '?']) {
        return None;
    }
    let bytes = rest.as_bytes();
    let colon = (0..bytes.len()).find(|&i| {
        bytes[i] == b':' && bytes.get(i + 1).is_none_or(|b| *b == b' ' || *b == b'\t')
    })?;
    let key = rest[..colon].trim_end();
    (!key.is_empty() && !key.contains(" #")).then(|| (key.to_owned(), &rest[colon + 1..]))
}

#[cfg(test)]
#[path = "skin_lines_tests.rs"]
mod tests;
