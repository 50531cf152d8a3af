//! Shell words after quote removal, and the small scanners the lexer uses.
//!
//! A `Word` keeps its text with quotes removed and known expansions applied, plus what the
//! rules need to know about how it was written: whether any of it was quoted, whether it
//! holds an unknown expansion (`dynamic`) or nothing but expansions (`opaque`), unquoted
//! glob characters, and the inner text of its substitutions. It does not split fields or
//! expand globs. Invariant: the scanners never index past the text and always return a
//! position within `0..=len`.

use std::path::Path;

/// What `~` and the variables hermes can know expand to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Expand {
    pub home: String,
    pub hermes_home: String,
}

impl Expand {
    pub(super) fn new(home: &Path, hermes_home: &Path) -> Self {
        let home = home.to_string_lossy().trim_end_matches('/').to_string();
        let hermes_home = hermes_home
            .to_string_lossy()
            .trim_end_matches('/')
            .to_string();
        Self {
            home: if home.is_empty() { "/".into() } else { home },
            hermes_home,
        }
    }

    /// The user name `~user` would give for our own home.
    pub(super) fn user(&self) -> Option<&str> {
        self.home.rsplit('/').next().filter(|s| !s.is_empty())
    }

    /// Where `~other` lives: the parent of our home, or `/home`.
    pub(super) fn users_dir(&self) -> &str {
        match self.home.rsplit_once('/') {
            Some((parent, _)) if !parent.is_empty() && parent != "/root" => parent,
            _ => "/home",
        }
    }
}

/// Where an expansion is: bare, or inside `"…"` (no field splitting, literal `$`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Quoting {
    Bare,
    Double,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Word {
    /// The text after quote removal and known expansions; substitutions appear as `$(…)`,
    /// `<(…)`, unknown variables as `$NAME` / `${…}`.
    pub text: String,
    /// Inner text of the command/process substitutions in this word.
    pub substitutions: Vec<String>,
    /// Contains an expansion whose value is unknown (a variable or a substitution).
    pub dynamic: bool,
    /// Contains at least one character that did not come from an unknown expansion.
    pub literal: bool,
    /// Some part of it was quoted or escaped (so it is never a keyword or an fd number).
    pub quoted: bool,
    /// Contains an unquoted `*`, `?` or `[`.
    pub glob: bool,
    /// Contains a process substitution `<(…)` / `>(…)`.
    pub process: bool,
}

impl Word {
    pub(super) fn plain(text: &str) -> Self {
        Self {
            text: text.to_string(),
            literal: true,
            ..Self::default()
        }
    }

    /// An unquoted literal character.
    pub(super) fn push_lit(&mut self, c: char) {
        self.text.push(c);
        self.literal = true;
    }

    /// A quoted or escaped literal character.
    pub(super) fn push_quoted(&mut self, c: char) {
        self.push_lit(c);
        self.quoted = true;
    }

    pub(super) fn push_in(&mut self, c: char, quoting: Quoting) {
        match quoting {
            Quoting::Bare => self.push_lit(c),
            Quoting::Double => self.push_quoted(c),
        }
    }

    pub(super) fn push_known(&mut self, value: &str) {
        self.text.push_str(value);
        self.literal = true;
    }

    pub(super) fn push_expansion(&mut self, raw: &str) {
        self.text.push_str(raw);
        self.dynamic = true;
    }

    /// Nothing in it is known: `"$VAR"`, `$(cmd)`.
    pub(super) fn opaque(&self) -> bool {
        self.dynamic && !self.literal
    }
}

pub(super) fn find_unescaped(chars: &[char], from: usize, wanted: char) -> Option<usize> {
    let mut i = from;
    while i < chars.len() {
        if chars[i] == '\\' {
            i += 2;
            continue;
        }
        if chars[i] == wanted {
            return Some(i);
        }
        i += 1;
    }
    None
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Quote {
    None,
    Single,
    Double,
}

/// Index of the `)` closing a `$(` / `(` whose body starts at `from` (or `chars.len()`).
pub(super) fn matching_paren(chars: &[char], from: usize) -> usize {
    matching(chars, from, '(', ')')
}

/// Index of the `}` closing a `${` whose body starts at `from` (or `chars.len()`).
pub(super) fn matching_brace(chars: &[char], from: usize) -> usize {
    matching(chars, from, '{', '}')
}

fn matching(chars: &[char], from: usize, open: char, close: char) -> usize {
    let mut depth = 1usize;
    let mut quote = Quote::None;
    let mut i = from;
    while i < chars.len() {
        let c = chars[i];
        match (quote, c) {
            (Quote::Single, '\'') | (Quote::Double, '"') => quote = Quote::None,
            (Quote::Single, _) => {}
            (_, '\\') => i += 1,
            (Quote::None, '\'') => quote = Quote::Single,
            (Quote::None, '"') => quote = Quote::Double,
            (Quote::None, c) if c == open => depth += 1,
            (Quote::None, c) if c == close => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    chars.len()
}

/// Decodes one C escape after a backslash (`rest` starts after the `\`): the character, if
/// any, and how many characters of `rest` it used.
pub(super) fn c_escape(rest: &[char]) -> (Option<char>, usize) {
    let Some(&first) = rest.first() else {
        return (Some('\\'), 0);
    };
    let simple = match first {
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        'e' | 'E' => Some('\u{1b}'),
        'f' => Some('\u{c}'),
        'v' => Some('\u{b}'),
        '\\' | '\'' | '"' | '?' => Some(first),
        _ => None,
    };
    if simple.is_some() {
        return (simple, 1);
    }
    let (radix, skip, max) = match first {
        'x' => (16, 1, 2),
        'u' => (16, 1, 4),
        'U' => (16, 1, 8),
        '0'..='7' => (8, 0, 3),
        _ => return (Some(first), 1),
    };
    let digits: String = rest[skip..]
        .iter()
        .take(max)
        .take_while(|c| c.is_digit(radix))
        .collect();
    let used = skip + digits.chars().count();
    let decoded = u32::from_str_radix(&digits, radix)
        .ok()
        .and_then(char::from_u32);
    (decoded, used)
}

/// `text` with its unknown expansions (`$NAME`, `${…}`, `$(…)`, `$1`) taken out, as if
/// they were empty: `r${EMPTY}m` → `rm`.
pub(super) fn without_expansions(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        i += match (c, next) {
            ('$', Some('(')) => matching_paren(&chars, i + 2) + 1 - i,
            ('$', Some('{')) => matching_brace(&chars, i + 2) + 1 - i,
            ('$', Some(n)) if n == '_' || n.is_ascii_alphabetic() => {
                1 + chars[i + 1..]
                    .iter()
                    .take_while(|c| **c == '_' || c.is_ascii_alphanumeric())
                    .count()
            }
            ('$', Some(n)) if n.is_ascii_digit() || "@*#?$!-".contains(n) => 2,
            _ => {
                out.push(c);
                1
            }
        };
    }
    out
}

/// The program name of a command word: `/usr/bin/rm` → `rm`.
pub(super) fn basename(text: &str) -> &str {
    text.rsplit('/').next().unwrap_or(text)
}
