//! The expansion half of the lexer: `$…`, backticks, process substitution, `~`, `$'…'`.
//!
//! `$HOME`, `${HOME}` (also `${HOME:-…}`), `$HERMES_HOME` and `~` expand to the context's
//! paths, `~user` to a sibling of the home (or `/root`), an unquoted `$IFS` ends the word;
//! every other expansion is kept as written and marks the word dynamic. `$(…)`, backticks
//! and `<(…)`/`>(…)` record their inner text as substitutions. It does not evaluate
//! arithmetic, parameter operators or command output. Invariant: the cursor never moves
//! past the end of the text.

use super::lex::{Lexer, MAX_LEX_DEPTH};
use super::words::{Quoting, Word, c_escape, find_unescaped, matching_brace, matching_paren};

impl Lexer<'_> {
    pub(super) fn dollar(&mut self, w: &mut Word, quoting: Quoting) {
        let next = self.peek(1);
        match next {
            Some('(') => {
                let end = matching_paren(&self.chars, self.i + 2);
                let inner: String = self.chars[self.i + 2..end].iter().collect();
                self.add_subst(w, "$(", &inner);
                self.i = (end + 1).min(self.chars.len());
            }
            Some('{') => {
                let end = matching_brace(&self.chars, self.i + 2);
                let content: String = self.chars[self.i + 2..end].iter().collect();
                self.i = (end + 1).min(self.chars.len());
                self.param(w, &content, quoting);
            }
            Some(c) if c == '_' || c.is_ascii_alphabetic() => {
                let start = self.i + 1;
                let mut end = start;
                while self
                    .chars
                    .get(end)
                    .is_some_and(|c| *c == '_' || c.is_ascii_alphanumeric())
                {
                    end += 1;
                }
                let name: String = self.chars[start..end].iter().collect();
                self.i = end;
                self.named(w, &name, &format!("${name}"), quoting);
            }
            Some(c) if c.is_ascii_digit() || "@*#?$!-".contains(c) => {
                w.push_expansion(&format!("${c}"));
                self.i += 2;
            }
            Some('\'') if quoting == Quoting::Bare => {
                self.i += 2;
                w.quoted = true;
                self.ansi_c(w);
            }
            Some('"') if quoting == Quoting::Bare => self.i += 1,
            _ => {
                w.push_in('$', quoting);
                self.i += 1;
            }
        }
    }

    /// `$NAME` / `${NAME}` with no operator.
    fn named(&mut self, w: &mut Word, name: &str, raw: &str, quoting: Quoting) {
        match name {
            "HOME" => w.push_known(&self.expand.home),
            "HERMES_HOME" => w.push_known(&self.expand.hermes_home),
            "IFS" if quoting == Quoting::Double => w.push_quoted(' '),
            "IFS" => self.split = true,
            _ => w.push_expansion(raw),
        }
    }

    fn param(&mut self, w: &mut Word, content: &str, quoting: Quoting) {
        let name_len = content
            .find(|c: char| !(c == '_' || c.is_ascii_alphanumeric()))
            .unwrap_or(content.len());
        let (name, op) = content.split_at(name_len);
        let raw = format!("${{{content}}}");
        if op.is_empty() {
            self.named(w, name, &raw, quoting);
            return;
        }
        // `${HOME:-x}` is HOME: it is always set.
        let defaulted = [":-", "-", ":=", "=", ":?", "?"]
            .iter()
            .any(|p| op.starts_with(p));
        if name == "HOME" && defaulted {
            w.push_known(&self.expand.home);
        } else {
            w.push_expansion(&raw);
        }
        if op.contains("$(") || op.contains('`') {
            let inner = self.sub_lexer_dq(op);
            w.substitutions.extend(inner.substitutions.iter().cloned());
            self.substitutions.extend(inner.substitutions);
        }
    }

    pub(super) fn sub_lexer_dq(&self, text: &str) -> Word {
        if self.depth >= MAX_LEX_DEPTH {
            return Word::default();
        }
        let mut sub = Lexer::new(text, self.expand, self.depth + 1);
        let mut w = Word::default();
        sub.double_quoted(&mut w, None);
        w.substitutions = sub.substitutions;
        w
    }

    pub(super) fn backtick(&mut self, w: &mut Word) {
        let end = find_unescaped(&self.chars, self.i + 1, '`').unwrap_or(self.chars.len());
        let mut inner = String::new();
        let mut k = self.i + 1;
        while k < end {
            let c = self.chars[k];
            if c == '\\' && matches!(self.chars.get(k + 1), Some('`' | '\\' | '$')) {
                k += 1;
                inner.push(self.chars[k]);
            } else {
                inner.push(c);
            }
            k += 1;
        }
        self.add_subst(w, "$(", &inner);
        self.i = (end + 1).min(self.chars.len());
    }

    pub(super) fn process_subst(&mut self, w: &mut Word, c: char) {
        let end = matching_paren(&self.chars, self.i + 2);
        let inner: String = self.chars[self.i + 2..end].iter().collect();
        w.process = true;
        self.add_subst(w, if c == '<' { "<(" } else { ">(" }, &inner);
        self.i = (end + 1).min(self.chars.len());
    }

    fn add_subst(&mut self, w: &mut Word, open: &str, inner: &str) {
        w.push_expansion(&format!("{open}{inner})"));
        w.substitutions.push(inner.to_string());
        self.substitutions.push(inner.to_string());
    }

    /// `~`, `~/x`, `~user`, and `~` after `NAME=`.
    pub(super) fn tilde(&mut self, w: &mut Word) {
        let start = self.i + 1;
        let mut end = start;
        while self
            .chars
            .get(end)
            .is_some_and(|c| c.is_ascii_alphanumeric() || "._-+".contains(*c))
        {
            end += 1;
        }
        let ends_prefix = match self.chars.get(end) {
            None => true,
            Some(c) => *c == '/' || " \t\r\n;&|()<>".contains(*c),
        };
        if !ends_prefix {
            w.push_lit('~');
            self.i += 1;
            return;
        }
        let user: String = self.chars[start..end].iter().collect();
        self.i = end;
        match user.as_str() {
            "" => w.push_known(&self.expand.home),
            "+" | "-" => w.push_expansion(&format!("~{user}")),
            "root" => w.push_known("/root"),
            name if self.expand.user() == Some(name) => w.push_known(&self.expand.home),
            name => w.push_known(&format!("{}/{name}", self.expand.users_dir())),
        }
    }

    /// `$'…'`: C escapes.
    fn ansi_c(&mut self, w: &mut Word) {
        while let Some(c) = self.peek(0) {
            self.i += 1;
            match c {
                '\'' => return,
                '\\' => {
                    let (decoded, used) = c_escape(&self.chars[self.i..]);
                    self.i += used;
                    if let Some(d) = decoded {
                        w.push_quoted(d);
                    }
                }
                _ => w.push_quoted(c),
            }
        }
    }
}
