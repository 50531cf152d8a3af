//! The small languages of other tools that can start shell commands: vim's ex commands,
//! makefile text, and ed scripts.
//!
//! - `ex_shell`: the shell command an ex command runs (`!cmd`, `:%!cmd`, `r !cmd`,
//!   `w !cmd`, `silent !cmd`, `terminal cmd`, `exe "!cmd"`, `call system('cmd')`,
//!   `lua os.execute("cmd")`).
//! - `make_commands`: the recipes of makefile text (tab lines, `target: ; cmd`) and its
//!   `$(shell …)` calls, with `$$` read as `$`.
//! - `ed_script`: the `!cmd` lines of an ed script and whether it writes (`w`, `wq`, `x`);
//!   text after `a`/`i`/`c` up to `.` is data.
//!
//! None of them is a full parser: they find what runs, and say "unknown" (`None` or
//! `$UNKNOWN`) rather than guess when the text is computed. Invariant: the returned commands
//! are substrings of the input (after `$$` → `$`), never text made up here.

/// Placeholder for a command the text computes: classifying it gives `opaque_shell`.
const UNKNOWN: &str = "$UNKNOWN";

/// The shell command an ex command (`vim -c`, `+cmd`) runs, if any.
pub(super) fn ex_shell(cmd: &str) -> Option<String> {
    let c = cmd.trim_start_matches([':', ' ', '\t']);
    let c = ["silent!", "silent", "sil!", "sil"]
        .iter()
        .find_map(|p| c.strip_prefix(p))
        .unwrap_or(c)
        .trim_start();
    for call in [
        "system(",
        "systemlist(",
        "jobstart(",
        "termopen(",
        "os.execute(",
        "popen(",
    ] {
        if let Some(at) = c.find(call) {
            return Some(string_literal(&c[at + call.len()..]).unwrap_or_else(|| UNKNOWN.into()));
        }
    }
    if let Some(rest) = ["execute ", "exe "].iter().find_map(|p| c.strip_prefix(p)) {
        return string_literal(rest.trim_start())
            .map_or_else(|| Some(UNKNOWN.into()), |inner| ex_shell(&inner));
    }
    if let Some(rest) = ["terminal ", "term "]
        .iter()
        .find_map(|p| c.strip_prefix(p))
    {
        return Some(rest.to_string());
    }
    // A range (`%`, `.,$`, `1,5`) may precede `!` (filter) and `r`/`w`.
    let c = c.trim_start_matches(|ch: char| "%.$,;'0123456789 ".contains(ch));
    if let Some(rest) = c.strip_prefix('!') {
        return Some(rest.to_string());
    }
    for verb in ["read", "r"] {
        if let Some(rest) = c.strip_prefix(verb)
            && let Some(shell) = rest.trim_start().strip_prefix('!')
        {
            return Some(shell.to_string());
        }
    }
    // `w !cmd` pipes the buffer into cmd; `w! file` is only a forced write.
    for verb in ["write", "w"] {
        if let Some(rest) = c.strip_prefix(verb)
            && rest.starts_with([' ', '\t'])
            && let Some(shell) = rest.trim_start().strip_prefix('!')
        {
            return Some(shell.to_string());
        }
    }
    None
}

/// The first `'…'` or `"…"` literal at the start of `text` (after spaces).
fn string_literal(text: &str) -> Option<String> {
    let text = text.trim_start();
    let quote = text.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let body = &text[1..];
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if quote == '"' => out.extend(chars.next()),
            c if c == quote => return Some(out),
            c => out.push(c),
        }
    }
    None
}

/// The commands makefile text runs: recipes and `$(shell …)`.
pub(super) fn make_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for open in ["$(shell ", "${shell "] {
        let close = if open.starts_with("$(") { ')' } else { '}' };
        let mut from = 0;
        while let Some(at) = text[from..].find(open) {
            let start = from + at + open.len();
            let mut depth = 1usize;
            let end = text[start..]
                .char_indices()
                .find(|(_, c)| {
                    if *c == close {
                        depth -= 1;
                    } else if *c == open.chars().nth(1).unwrap_or('(') {
                        depth += 1;
                    }
                    depth == 0
                })
                .map_or(text.len(), |(i, _)| start + i);
            out.push(text[start..end].to_string());
            from = end.min(text.len());
        }
    }
    let joined = text.replace("\\\n", " ");
    for line in joined.lines() {
        let recipe = if let Some(r) = line.strip_prefix('\t') {
            Some(r)
        } else {
            // `target: prereqs ; recipe` (not a `:=` assignment).
            line.find(':')
                .filter(|&c| !line[..c].contains('=') && !line[c..].starts_with(":="))
                .and_then(|c| line[c..].split_once(';').map(|(_, r)| r))
        };
        if let Some(r) = recipe {
            let r = r.trim_start_matches(['@', '-', '+', ' ', '\t']);
            if !r.is_empty() {
                out.push(r.replace("$$", "$"));
            }
        }
    }
    out
}

/// What an ed script does.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct EdScript {
    pub runs: Vec<String>,
    pub writes: bool,
}

pub(super) fn ed_script(text: &str) -> EdScript {
    let mut out = EdScript::default();
    let mut in_text = false;
    for line in text.lines() {
        if in_text {
            in_text = line != ".";
            continue;
        }
        let cmd = line
            .trim_start()
            .trim_start_matches(|c: char| "0123456789,.;$+-' ".contains(c));
        let mut chars = cmd.chars();
        let letter = chars.next().unwrap_or(' ');
        let rest = chars.as_str().trim_start();
        match letter {
            '!' => out.runs.push(cmd[1..].to_string()),
            'a' | 'i' | 'c' if rest.is_empty() => in_text = true,
            'w' | 'W' | 'r' | 'e' | 'E' => {
                if let Some(shell) = rest.strip_prefix('!') {
                    out.runs.push(shell.to_string());
                } else if matches!(letter, 'w' | 'W') {
                    out.writes = true;
                }
            }
            'x' if rest.is_empty() => out.writes = true,
            _ => {}
        }
    }
    out
}

#[cfg(test)]
#[path = "minilang_tests.rs"]
mod tests;
