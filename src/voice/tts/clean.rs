//! Inline markdown → speakable text, for one sentence at a time: links and images keep their
//! text, inline-code backticks and emphasis marks (`*`, `**`, `~~`, word-edge `_`) go,
//! whitespace collapses. Block syntax (headings, bullets, fences, tables) is the splitter's job.
//!
//! Invariant: plain text passes through unchanged apart from whitespace collapsing; `_` inside
//! a word (`snake_case`) is kept.

/// Strip inline markdown from `text` and collapse whitespace.
pub fn clean_inline(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '!' if chars.get(i + 1) == Some(&'[') => {
                if let Some((label, next)) = link_at(&chars, i + 1) {
                    out.push_str(&label);
                    i = next;
                } else {
                    out.push(c);
                    i += 1;
                }
            }
            '[' => {
                if let Some((label, next)) = link_at(&chars, i) {
                    out.push_str(&label);
                    i = next;
                } else {
                    out.push(c);
                    i += 1;
                }
            }
            '`' | '*' => i += 1,
            '~' if chars.get(i + 1) == Some(&'~') => i += 2,
            '_' => {
                let before = i.checked_sub(1).and_then(|p| chars.get(p));
                let after = chars.get(i + 1);
                let inside_word = before.is_some_and(|b| b.is_alphanumeric())
                    && after.is_some_and(|a| a.is_alphanumeric());
                if inside_word {
                    out.push('_');
                }
                i += 1;
            }
            c if c.is_whitespace() => {
                if !out.is_empty() && !out.ends_with(' ') {
                    out.push(' ');
                }
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out.trim_end().to_string()
}

/// `[label](target)` or `[label][ref]` starting at `start` (the `[`): the cleaned label and the
/// index after the link.
fn link_at(chars: &[char], start: usize) -> Option<(String, usize)> {
    let close = start
        + 1
        + chars[start + 1..]
            .iter()
            .position(|&c| c == ']' || c == '[')?;
    if chars[close] != ']' {
        return None;
    }
    let shut = match chars.get(close + 1) {
        Some('(') => ')',
        Some('[') => ']',
        _ => return None,
    };
    let end = close + 2 + chars[close + 2..].iter().position(|&c| c == shut)?;
    if chars[close + 2..end].iter().any(|c| c.is_whitespace()) && shut == ')' {
        // `[a] (b c)` style text is not a link target.
        return None;
    }
    let label: String = chars[start + 1..close].iter().collect();
    Some((clean_inline(&label), end + 1))
}

#[cfg(test)]
#[path = "clean_tests.rs"]
mod tests;
