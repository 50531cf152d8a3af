//! Finding `@` references in a draft: `@path`, `@dir/`, `@"path with spaces"`, `@diff`, and
//! Hermes's prefixed forms `@file:path` / `@folder:path`.
//!
//! Rules: an `@` counts only at the start of a line or after whitespace or an opening bracket
//! or quote (so `a@b.com` and `x/@y` are not references); text inside fenced code blocks
//! (```` ``` ```` / `~~~`) and inline code spans is skipped; trailing sentence punctuation and
//! unbalanced closing brackets are not part of a bare path (`(see @a.rs).` → `a.rs`).

use super::Reference;
use super::ReferenceTarget;

/// Characters after which an `@` may start a reference.
const OPENERS: &[char] = &['(', '[', '{', '<', '"', '\''];
/// Dropped from the end of a bare path.
const TRAILING_PUNCTUATION: &[char] = &[',', '.', ';', ':', '!', '?', '"', '\''];

pub(super) fn find(text: &str) -> Vec<Reference> {
    let mut found = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let body = body.strip_suffix('\r').unwrap_or(body);
        match (fence, fence_marker(body)) {
            (None, Some(marker)) => fence = Some(marker),
            (Some((c, n)), Some((c2, n2))) if c == c2 && n2 >= n && is_closing(body) => {
                fence = None;
            }
            (None, None) => scan_line(body, offset, &mut found),
            _ => {}
        }
        offset += line.len();
    }
    found
}

/// A fence line: optional indent, then three or more backticks or tildes.
fn fence_marker(line: &str) -> Option<(char, usize)> {
    let trimmed = line.trim_start();
    let c = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let run = trimmed.chars().take_while(|x| *x == c).count();
    (run >= 3).then_some((c, run))
}

/// A closing fence has nothing after its marker.
fn is_closing(line: &str) -> bool {
    let trimmed = line.trim();
    trimmed.chars().all(|c| c == '`' || c == '~')
}

/// Scans one line outside fences; `offset` is the line's byte offset in the whole text.
fn scan_line(line: &str, offset: usize, found: &mut Vec<Reference>) {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'`' => i = skip_code_span(line, i),
            b'@' if starts_token(line, i) => match parse_at(line, i) {
                Some((reference_end, target)) => {
                    found.push(Reference {
                        raw: line[i..reference_end].to_owned(),
                        target,
                        range: offset + i..offset + reference_end,
                    });
                    i = reference_end;
                }
                None => i += 1,
            },
            _ => i += 1,
        }
    }
}

/// Past an inline code span opened at `start`, or just past the backtick run when it is never
/// closed on this line (then it is literal text).
fn skip_code_span(line: &str, start: usize) -> usize {
    let run = line[start..].bytes().take_while(|b| *b == b'`').count();
    let after = start + run;
    let mut i = after;
    while let Some(pos) = line[i..].find('`') {
        let at = i + pos;
        let close = line[at..].bytes().take_while(|b| *b == b'`').count();
        if close == run {
            return at + close;
        }
        i = at + close;
    }
    after
}

fn starts_token(line: &str, at: usize) -> bool {
    match line[..at].chars().next_back() {
        None => true,
        Some(c) => c.is_whitespace() || OPENERS.contains(&c),
    }
}

/// Parses the reference whose `@` is at `at`: its end (byte index in `line`) and target.
fn parse_at(line: &str, at: usize) -> Option<(usize, ReferenceTarget)> {
    let mut start = at + 1;
    let rest = &line[start..];
    for prefix in ["file:", "folder:"] {
        if rest.starts_with(prefix) {
            start += prefix.len();
            break;
        }
    }
    let rest = &line[start..];
    if let Some(quote) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') {
        let inner = &rest[1..];
        let close = inner.find(quote)?;
        let path = &inner[..close];
        if path.trim().is_empty() {
            return None;
        }
        let end = start + 1 + close + 1;
        return Some((end, ReferenceTarget::Path(path.to_owned())));
    }
    let word_len = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let word = trim_bare(&rest[..word_len]);
    if word.is_empty() {
        return None;
    }
    let end = start + word.len();
    let target = if start == at + 1 && word == "diff" {
        ReferenceTarget::Diff
    } else {
        ReferenceTarget::Path(word.to_owned())
    };
    Some((end, target))
}

/// Drops trailing punctuation and closing brackets that have no opener inside the word.
fn trim_bare(word: &str) -> &str {
    let mut word = word;
    loop {
        let before = word;
        word = word.trim_end_matches(TRAILING_PUNCTUATION);
        if let Some(last) = word.chars().next_back() {
            let opener = match last {
                ')' => Some('('),
                ']' => Some('['),
                '}' => Some('{'),
                '>' => Some('<'),
                _ => None,
            };
            if let Some(opener) = opener
                && word.matches(last).count() > word.matches(opener).count()
            {
                word = &word[..word.len() - 1];
            }
        }
        if word == before {
            return word;
        }
    }
}
