//! What a sed script runs and writes, besides editing text.
//!
//! GNU sed can run commands: `e CMD` runs CMD, a bare `e` runs the pattern space, and the
//! `s///e` flag runs the pattern space after the substitution. It can also write files:
//! `w FILE`, `W FILE` and the `s///w FILE` flag. `effects` reads the scripts given with
//! `-e`/`--expression` or as the first operand (not `-f` files) with a small parser of sed's
//! syntax — addresses (`1`, `$`, `/re/`, `\cREc`, `first~step`, `addr,+N`, `!`), blocks,
//! labels, `a`/`i`/`c` text, `y///` — so `sed -n '/e/p'` and `sed 's/e/E/'` run nothing.
//! `--sandbox` turns all of it off. It does not read `-f` script files, and stops at a
//! command it does not know (the rest of that script is not inspected). Invariant: the
//! parser always advances, so it ends on any input.

use super::words::Word;

#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct SedEffects {
    /// Commands given in the script (`e CMD`, the replacement of `s///e`).
    pub runs: Vec<String>,
    /// The input lines themselves are run (`e`, `s///e`).
    pub runs_input: bool,
    /// Files written by `w`/`W`/`s///w`.
    pub writes: Vec<String>,
}

pub(super) fn effects(args: &[Word]) -> SedEffects {
    let mut out = SedEffects::default();
    let mut scripts = Vec::new();
    let mut explicit = false;
    let mut operands = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        let t = a.text.as_str();
        match t {
            "--" => {
                operands.extend(args[i..].iter().map(|w| w.text.as_str()));
                break;
            }
            "--sandbox" => return SedEffects::default(),
            "-e" | "--expression" => {
                explicit = true;
                scripts.extend(args.get(i).map(|w| w.text.as_str()));
                i += 1;
            }
            "-f" | "--file" | "-l" | "--line-length" => {
                explicit |= t.ends_with('f') || t.ends_with("file");
                i += 1;
            }
            // BSD `sed -i '' …`: the empty word is the backup suffix.
            "-i" if args.get(i).is_some_and(|w| w.text.is_empty()) => i += 1,
            _ if t.starts_with("--expression=") => {
                explicit = true;
                scripts.push(&t["--expression=".len()..]);
            }
            _ if t.starts_with("--file=") => explicit = true,
            _ if t.starts_with("--") => {}
            _ if t.starts_with('-') && t.len() > 1 => {
                for (k, c) in t.char_indices().skip(1) {
                    let rest = &t[k + c.len_utf8()..];
                    match c {
                        'e' | 'f' | 'l' => {
                            explicit |= c != 'l';
                            if rest.is_empty() {
                                if c == 'e' {
                                    scripts.extend(args.get(i).map(|w| w.text.as_str()));
                                }
                                i += 1;
                            } else if c == 'e' {
                                scripts.push(rest);
                            }
                            break;
                        }
                        // `-i.bak`: the rest is the backup suffix.
                        'i' => break,
                        _ => {}
                    }
                }
            }
            _ => operands.push(t),
        }
    }
    if !explicit && let Some(first) = operands.first() {
        scripts.push(first);
    }
    for script in scripts {
        parse(script, &mut out);
    }
    out
}

fn parse(script: &str, out: &mut SedEffects) {
    let chars: Vec<char> = script.chars().collect();
    let mut p = Parser { chars, i: 0 };
    loop {
        p.skip(|c| c.is_whitespace() || c == ';');
        let Some(_) = p.peek() else {
            return;
        };
        if !p.address() {
            return;
        }
        p.skip(|c| c == ' ' || c == '\t');
        if p.peek() == Some('!') {
            p.i += 1;
            p.skip(|c| c == ' ' || c == '\t');
        }
        let Some(cmd) = p.next() else {
            return;
        };
        match cmd {
            '{' | '}' | '=' | 'd' | 'D' | 'g' | 'G' | 'h' | 'H' | 'n' | 'N' | 'p' | 'P' | 'x'
            | 'z' | 'F' => {}
            'l' | 'L' | 'q' | 'Q' => p.skip(|c| c.is_ascii_digit() || c == ' '),
            ':' | 'b' | 't' | 'T' | 'v' => p.skip(|c| c != ';' && c != '\n' && c != '}'),
            '#' | 'a' | 'i' | 'c' | 'r' | 'R' => {
                p.rest_of_line();
            }
            'w' | 'W' => out.writes.push(p.rest_of_line().trim().to_string()),
            'e' => {
                let command = p.rest_of_line();
                if command.trim().is_empty() {
                    out.runs_input = true;
                } else {
                    out.runs.push(command.trim().to_string());
                }
            }
            's' => {
                let Some(delim) = p.next() else {
                    return;
                };
                p.part(delim);
                let replacement = p.part(delim);
                loop {
                    match p.peek() {
                        Some('e') => {
                            p.i += 1;
                            out.runs_input = true;
                            out.runs.push(replacement.clone());
                        }
                        Some('w') => {
                            p.i += 1;
                            out.writes.push(p.rest_of_line().trim().to_string());
                        }
                        Some(c) if c.is_ascii_digit() || "gpiImM".contains(c) => p.i += 1,
                        _ => break,
                    }
                }
            }
            'y' => {
                let Some(delim) = p.next() else {
                    return;
                };
                p.part(delim);
                p.part(delim);
            }
            _ => return,
        }
    }
}

struct Parser {
    chars: Vec<char>,
    i: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn skip(&mut self, keep_going: impl Fn(char) -> bool) {
        while self.peek().is_some_and(&keep_going) {
            self.i += 1;
        }
    }

    /// Text up to the end of the line (a `\` before the newline continues it).
    fn rest_of_line(&mut self) -> String {
        let mut out = String::new();
        while let Some(c) = self.next() {
            match c {
                '\n' => break,
                '\\' if self.peek() == Some('\n') => {
                    self.i += 1;
                    out.push('\n');
                }
                c => out.push(c),
            }
        }
        out
    }

    /// One part of `s/re/repl/` or `y/a/b/`, up to an unescaped `delim`; `\delim` → delim.
    fn part(&mut self, delim: char) -> String {
        let mut out = String::new();
        while let Some(c) = self.next() {
            match c {
                '\\' => match self.next() {
                    Some(d) if d == delim => out.push(d),
                    Some('n') => out.push('\n'),
                    Some(other) => {
                        out.push('\\');
                        out.push(other);
                    }
                    None => {}
                },
                c if c == delim => break,
                c => out.push(c),
            }
        }
        out
    }

    /// Skips `ADDR[,ADDR]`; false when the text cannot be an address.
    fn address(&mut self) -> bool {
        if !self.one_address() {
            return false;
        }
        if self.peek() == Some(',') {
            self.i += 1;
            if matches!(self.peek(), Some('+' | '~')) {
                self.i += 1;
            }
            return self.one_address();
        }
        true
    }

    fn one_address(&mut self) -> bool {
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                self.skip(|c| c.is_ascii_digit());
                if self.peek() == Some('~') {
                    self.i += 1;
                    self.skip(|c| c.is_ascii_digit());
                }
            }
            Some('$') => self.i += 1,
            Some('/') => {
                self.i += 1;
                self.part('/');
                self.skip(|c| c == 'I' || c == 'M');
            }
            Some('\\') => {
                self.i += 1;
                let Some(delim) = self.next() else {
                    return false;
                };
                self.part(delim);
                self.skip(|c| c == 'I' || c == 'M');
            }
            _ => {}
        }
        true
    }
}

#[cfg(test)]
#[path = "sed_tests.rs"]
mod tests;
