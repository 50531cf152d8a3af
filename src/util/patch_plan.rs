//! Planning an exact-string replacement in a text (the `patch` tool and `skill_manage`'s
//! patch action): the new content and a short unified-style diff of the changed lines.
//!
//! `old` must occur exactly once unless `replace_all` is set; otherwise the error says how
//! many matches there were (for zero, with a hint when the text matches after whitespace
//! normalisation). A text with CRLF line endings also accepts an `old` written with LF, and
//! the replacement keeps CRLF. Nothing here touches a file; error texts speak the tools'
//! argument names (`old_string`, `replace_all`) because the model reads them.

/// Hunks shown in the diff summary, and lines per side of a hunk.
const MAX_HUNKS: usize = 3;
const MAX_HUNK_LINES: usize = 20;

/// A planned edit: the new content and a diff summary.
#[derive(Debug)]
pub struct Edit {
    pub new_content: String,
    pub summary: String,
}

/// Replace `old` with `new` in `content` under the uniqueness rules, or say why not.
pub fn plan(content: &str, old: &str, new: &str, replace_all: bool) -> Result<Edit, String> {
    if old.is_empty() {
        return Err("old_string is empty; to write a whole file use write_file".to_string());
    }
    if old == new {
        return Err("old_string and new_string are identical; nothing to change".to_string());
    }
    let (mut old, mut new) = (old.to_string(), new.to_string());
    let mut count = content.matches(&old).count();
    if count == 0 && content.contains("\r\n") && old.contains('\n') && !old.contains('\r') {
        // Models write LF; keep the file's CRLF.
        old = old.replace('\n', "\r\n");
        new = new.replace("\r\n", "\n").replace('\n', "\r\n");
        count = content.matches(&old).count();
    }
    match count {
        0 => Err(not_found_message(content, &old)),
        n if n > 1 && !replace_all => Err(format!(
            "old_string matches {n} times; add surrounding context to make it unique, or set replace_all=true"
        )),
        n => {
            let starts: Vec<usize> = content.match_indices(&old).map(|(i, _)| i).collect();
            let new_content = content.replace(&old, &new);
            let mut summary = format!("{n} replacement{}", if n == 1 { "" } else { "s" });
            let delta = new.len() as isize - old.len() as isize;
            for (k, &start) in starts.iter().take(MAX_HUNKS).enumerate() {
                let new_start = (start as isize + delta * k as isize) as usize;
                summary.push('\n');
                summary.push_str(&hunk(
                    content,
                    start,
                    old.len(),
                    &new_content,
                    new_start,
                    new.len(),
                ));
            }
            if n > MAX_HUNKS {
                summary.push_str(&format!(
                    "\n… {} more replacements not shown",
                    n - MAX_HUNKS
                ));
            }
            Ok(Edit {
                new_content,
                summary,
            })
        }
    }
}

fn not_found_message(content: &str, old: &str) -> String {
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut msg = "old_string not found".to_string();
    if squash(content).contains(&squash(old)) {
        msg.push_str(
            "; it does match if whitespace is ignored, so check indentation, tabs vs spaces and trailing spaces \
             (read the exact text with read_file and copy it without the line-number prefix)",
        );
    } else {
        msg.push_str("; read the file again with read_file and copy the exact text");
    }
    msg
}

/// The full lines around one replacement, old versus new, as a `@@`-headed hunk.
fn hunk(
    old_content: &str,
    start: usize,
    old_len: usize,
    new_content: &str,
    new_start: usize,
    new_len: usize,
) -> String {
    let line_start = old_content[..start].rfind('\n').map_or(0, |i| i + 1);
    // The text before the match on its first line is the same in both versions.
    let new_line_start = new_start - (start - line_start);
    let old_end = line_end(old_content, start + old_len).max(line_start);
    let new_end = line_end(new_content, new_start + new_len).max(new_line_start);
    let old_lines: Vec<&str> = old_content[line_start..old_end].lines().collect();
    let new_lines: Vec<&str> = new_content[new_line_start..new_end].lines().collect();
    // Trim lines the edit left unchanged at either end.
    let common_head = old_lines
        .iter()
        .zip(&new_lines)
        .take_while(|(a, b)| a == b)
        .count();
    let max_tail = old_lines.len().min(new_lines.len()) - common_head;
    let common_tail = old_lines
        .iter()
        .rev()
        .zip(new_lines.iter().rev())
        .take(max_tail)
        .take_while(|(a, b)| a == b)
        .count();
    let removed = &old_lines[common_head..old_lines.len() - common_tail];
    let added = &new_lines[common_head..new_lines.len() - common_tail];
    let line_no = old_content[..line_start].matches('\n').count() + 1 + common_head;
    let mut out = format!("@@ line {line_no}: -{} +{} @@", removed.len(), added.len());
    for (sign, lines) in [('-', removed), ('+', added)] {
        for line in lines.iter().take(MAX_HUNK_LINES) {
            out.push_str(&format!("\n{sign}{}", line.trim_end_matches('\r')));
        }
        if lines.len() > MAX_HUNK_LINES {
            out.push_str(&format!(
                "\n{sign}… {} more lines",
                lines.len() - MAX_HUNK_LINES
            ));
        }
    }
    out
}

/// End of the line containing byte `at - 1` (exclusive of the newline), or `at` at a line start.
fn line_end(text: &str, at: usize) -> usize {
    if at > 0 && text.as_bytes().get(at - 1) == Some(&b'\n') {
        return at - 1;
    }
    text[at..].find('\n').map_or(text.len(), |i| at + i)
}

#[cfg(test)]
#[path = "patch_plan_tests.rs"]
mod tests;
