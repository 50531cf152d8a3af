//! The skin file schema (Hermes's keys) and inheritance: YAML text + a base skin → a skin
//! with every value filled in, plus notices about whatever was ignored.
//!
//! The YAML is parsed into a `serde_norway::Value` first so each key can be checked on its
//! own: an unknown key is a warning, a wrongly typed value an error for that key only (it
//! keeps the inherited value), a repeated key a warning (the last value wins, as PyYAML
//! reads it — Hermes's own skin template repeats one), and only unparseable YAML rejects the
//! whole file. Inheritance follows Hermes: `colors`, `spinner`, `branding`, `tool_prefix` and
//! the banner art inherit key by key from the base; `light_colors`, `dark_colors` and
//! `tool_emojis` do not. A colour key that neither the skin nor the default skin sets is
//! derived from the skin's own colours the way Hermes paints it (`skin_derived`). Not here:
//! adapting colours to a background (`render`).

use std::collections::BTreeMap;
use std::collections::BTreeSet;

use ratatui::style::Color;
use serde_norway::Value;

use super::Theme;
use super::color::parse_color;
use super::palette::Palette;
use super::skin_derived::derive_unset;
use crate::util::lenient_yaml;
use crate::util::yaml_lines::key_lines;
use crate::util::yaml_lines::nearest_key_line;

/// A skin's colours as written (after inheritance), before any background adaptation.
/// Equality compares the colours, not which of them were written (`explicit`).
#[derive(Debug, Clone, Eq)]
pub struct SkinColors {
    /// `colors`: every key set.
    pub colors: Palette,
    /// `light_colors`: keys to use instead on a light background.
    pub light_colors: BTreeMap<String, Color>,
    /// `dark_colors`: keys to use instead on a dark background.
    pub dark_colors: BTreeMap<String, Color>,
    /// The `colors` keys set by the skin file or the skin it inherits from; the others are
    /// derived (see `skin_derived`).
    pub explicit: BTreeSet<String>,
}

impl Default for SkinColors {
    fn default() -> Self {
        Self {
            colors: Palette::filled(Color::Reset),
            light_colors: BTreeMap::new(),
            dark_colors: BTreeMap::new(),
            explicit: BTreeSet::new(),
        }
    }
}

impl PartialEq for SkinColors {
    fn eq(&self, other: &Self) -> bool {
        self.colors == other.colors
            && self.light_colors == other.light_colors
            && self.dark_colors == other.dark_colors
    }
}

/// How bad a problem in a skin file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Severity {
    /// Ignored without losing anything the file meant (an unknown key).
    Warning,
    /// A value that could not be used; the inherited one is used instead.
    Error,
}

/// One problem in a skin file, already phrased for the user (`file:line: key: message`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Notice {
    pub severity: Severity,
    pub text: String,
}

const TOP_LEVEL_KEYS: &[&str] = &[
    "name",
    "description",
    "colors",
    "light_colors",
    "dark_colors",
    "spinner",
    "branding",
    "tool_prefix",
    "tool_emojis",
    "banner_logo",
    "banner_hero",
];
const SPINNER_KEYS: &[&str] = &["waiting_faces", "thinking_faces", "thinking_verbs", "wings"];
const BRANDING_KEYS: &[&str] = &[
    "agent_name",
    "welcome",
    "goodbye",
    "response_label",
    "prompt_symbol",
    "help_header",
];

/// Reads one skin file's text on top of `base`.
struct Reader<'a> {
    text: &'a str,
    file: &'a str,
    notices: Vec<Notice>,
}

impl Reader<'_> {
    fn notice(&mut self, severity: Severity, path: &[&str], message: &str) {
        let key = path.join(".");
        let text = match nearest_key_line(self.text, path) {
            Some(line) => format!("{}:{line}: {key}: {message}", self.file),
            None => format!("{}: {key}: {message}", self.file),
        };
        self.notices.push(Notice { severity, text });
    }

    /// A key that appears more than once in its mapping: named at its last line.
    fn repeated(&mut self, path: &[String]) {
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        let key = path.join(".");
        let lines = key_lines(self.text, &path);
        let text = match (lines.first(), lines.last()) {
            (Some(first), Some(last)) if first != last => format!(
                "{}:{last}: {key}: repeated (first on line {first}); the last value is used, as Hermes does",
                self.file
            ),
            _ => format!(
                "{}: {key}: repeated; the last value is used, as Hermes does",
                self.file
            ),
        };
        self.notices.push(Notice {
            severity: Severity::Warning,
            text,
        });
    }

    fn wrong_type(&mut self, path: &[&str], expected: &str, found: &Value) {
        let message = format!(
            "expected {expected}, found {}; using the inherited value",
            describe(found)
        );
        self.notice(Severity::Error, path, &message);
    }

    /// The entries of a mapping with string keys; other keys are reported as unknown.
    fn entries<'v>(&mut self, path: &[&str], value: &'v Value) -> Vec<(String, &'v Value)> {
        let Value::Mapping(map) = value else {
            if !value.is_null() {
                self.wrong_type(path, "a mapping", value);
            }
            return Vec::new();
        };
        let mut out = Vec::new();
        for (key, value) in map {
            match key {
                Value::String(k) => out.push((k.clone(), value)),
                other => {
                    let shown = serde_norway::to_string(other).unwrap_or_default();
                    let mut key_path = path.to_vec();
                    let shown = shown.trim();
                    key_path.push(shown);
                    self.notice(Severity::Warning, &key_path, "unknown key (ignored)");
                }
            }
        }
        out
    }

    fn unknown(&mut self, path: &[&str], known: &[&str]) {
        let hint = closest(path.last().copied().unwrap_or_default(), known)
            .map(|k| format!(" — did you mean `{k}`?"))
            .unwrap_or_default();
        self.notice(
            Severity::Warning,
            path,
            &format!("unknown key (ignored){hint}"),
        );
    }

    fn string(&mut self, path: &[&str], value: &Value) -> Option<String> {
        match value {
            Value::String(s) => Some(s.clone()),
            Value::Null => None,
            other => {
                self.wrong_type(path, "a string", other);
                None
            }
        }
    }

    fn color(&mut self, path: &[&str], value: &Value) -> Option<Color> {
        match value {
            Value::String(s) => match parse_color(s) {
                Some((r, g, b)) => Some(Color::Rgb(r, g, b)),
                None => {
                    let message = format!(
                        "`{s}` is not a colour (use \"#RRGGBB\", \"#RGB\" or a colour name); using the inherited value"
                    );
                    self.notice(Severity::Error, path, &message);
                    None
                }
            },
            Value::Null => {
                // `key: #FFD700` unquoted is a YAML comment, so the value comes out empty.
                let commented = nearest_key_line(self.text, path)
                    .and_then(|line| self.text.lines().nth(line - 1))
                    .is_some_and(|l| l.contains('#'));
                if commented {
                    self.notice(
                        Severity::Error,
                        path,
                        "empty value: an unquoted `#` starts a YAML comment, so write the colour in quotes (\"#RRGGBB\"); using the inherited value",
                    );
                }
                None
            }
            other => {
                self.wrong_type(path, "a colour string like \"#RRGGBB\"", other);
                None
            }
        }
    }

    fn string_list(&mut self, path: &[&str], value: &Value) -> Option<Vec<String>> {
        match value {
            Value::Null => None,
            Value::Sequence(items) => {
                let strings: Option<Vec<String>> = items
                    .iter()
                    .map(|v| v.as_str().map(str::to_owned))
                    .collect();
                if strings.is_none() {
                    self.wrong_type(path, "a list of strings", value);
                }
                strings
            }
            other => {
                self.wrong_type(path, "a list of strings", other);
                None
            }
        }
    }

    fn wings(&mut self, path: &[&str], value: &Value) -> Option<Vec<(String, String)>> {
        let pair = |v: &Value| match v.as_sequence().map(Vec::as_slice) {
            Some([Value::String(l), Value::String(r)]) => Some((l.clone(), r.clone())),
            _ => None,
        };
        match value {
            Value::Null => None,
            Value::Sequence(items) => {
                let pairs: Option<Vec<_>> = items.iter().map(pair).collect();
                if pairs.is_none() {
                    self.wrong_type(path, "a list of [left, right] string pairs", value);
                }
                pairs
            }
            other => {
                self.wrong_type(path, "a list of [left, right] string pairs", other);
                None
            }
        }
    }

    fn palette(&mut self, section: &str, value: &Value, out: &mut BTreeMap<String, Color>) {
        for (key, v) in self.entries(&[section], value) {
            let path = [section, key.as_str()];
            if !Palette::KEYS.contains(&key.as_str()) {
                self.unknown(&path, Palette::KEYS);
            } else if let Some(color) = self.color(&path, v) {
                out.insert(key, color);
            }
        }
    }
}

/// A skin parsed from `text` (named `file` in notices) on top of `base`. `Err` only for text
/// that is not YAML or not a mapping at all: then nothing of it can be trusted.
pub(crate) fn parse(
    text: &str,
    file: &str,
    name: &str,
    base: &Theme,
) -> Result<(Theme, Vec<Notice>), Notice> {
    let (value, repeated) = if text.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#') || t == "---"
    }) {
        (Value::Null, Vec::new())
    } else {
        let parsed = lenient_yaml::from_str(text).map_err(|e| syntax_notice(file, &e))?;
        (parsed.value, parsed.repeated)
    };
    let mut reader = Reader {
        text,
        file,
        notices: Vec::new(),
    };
    for path in &repeated {
        reader.repeated(path);
    }
    let mut skin = base.clone();
    skin.name = name.to_owned();
    skin.description = String::new();
    skin.tool_emojis = BTreeMap::new();
    skin.authored.light_colors = BTreeMap::new();
    skin.authored.dark_colors = BTreeMap::new();
    if !value.is_null() && !value.is_mapping() {
        return Err(Notice {
            severity: Severity::Error,
            text: format!(
                "{file}: a skin file must be a mapping of keys (name, colors, …), found {}",
                describe(&value)
            ),
        });
    }
    for (key, v) in reader.entries(&[], &value) {
        let path = [key.as_str()];
        match key.as_str() {
            // The file name is what `display.skin` and `/skin` use; `name` is informational.
            "name" => {
                reader.string(&path, v);
            }
            "description" => {
                if let Some(s) = reader.string(&path, v) {
                    skin.description = s;
                }
            }
            "colors" => {
                let mut set = BTreeMap::new();
                reader.palette("colors", v, &mut set);
                for (k, c) in set {
                    skin.authored.colors.set(&k, c);
                    skin.authored.explicit.insert(k);
                }
            }
            "light_colors" => reader.palette("light_colors", v, &mut skin.authored.light_colors),
            "dark_colors" => reader.palette("dark_colors", v, &mut skin.authored.dark_colors),
            "spinner" => read_spinner(&mut reader, v, &mut skin),
            "branding" => read_branding(&mut reader, v, &mut skin),
            "tool_prefix" => {
                if let Some(s) = reader.string(&path, v) {
                    skin.tool_prefix = s;
                }
            }
            "tool_emojis" => {
                for (tool, emoji) in reader.entries(&path, v) {
                    if let Some(e) = reader.string(&["tool_emojis", tool.as_str()], emoji) {
                        skin.tool_emojis.insert(tool, e);
                    }
                }
            }
            "banner_logo" => {
                if let Some(s) = reader.string(&path, v) {
                    skin.banner_logo = s;
                }
            }
            "banner_hero" => {
                if let Some(s) = reader.string(&path, v) {
                    skin.banner_hero = s;
                }
            }
            _ => reader.unknown(&path, TOP_LEVEL_KEYS),
        }
    }
    derive_unset(&mut skin.authored);
    skin.palette = skin.authored.colors.clone();
    Ok((skin, reader.notices))
}

fn read_spinner(reader: &mut Reader<'_>, value: &Value, skin: &mut Theme) {
    for (key, v) in reader.entries(&["spinner"], value) {
        let path = ["spinner", key.as_str()];
        // Hermes falls back to the default faces and verbs when a list is empty.
        let list = |reader: &mut Reader<'_>| {
            reader
                .string_list(&path, v)
                .filter(|items| !items.is_empty())
        };
        match key.as_str() {
            "waiting_faces" => {
                if let Some(items) = list(reader) {
                    skin.spinner.waiting_faces = items;
                }
            }
            "thinking_faces" => {
                if let Some(items) = list(reader) {
                    skin.spinner.thinking_faces = items;
                }
            }
            "thinking_verbs" => {
                if let Some(items) = list(reader) {
                    skin.spinner.thinking_verbs = items;
                }
            }
            "wings" => {
                if let Some(pairs) = reader.wings(&path, v) {
                    skin.spinner.wings = pairs;
                }
            }
            _ => reader.unknown(&path, SPINNER_KEYS),
        }
    }
}

fn read_branding(reader: &mut Reader<'_>, value: &Value, skin: &mut Theme) {
    for (key, v) in reader.entries(&["branding"], value) {
        let path = ["branding", key.as_str()];
        let b = &mut skin.branding;
        let slot = match key.as_str() {
            "agent_name" => &mut b.agent_name,
            "welcome" => &mut b.welcome,
            "goodbye" => &mut b.goodbye,
            "response_label" => &mut b.response_label,
            "prompt_symbol" => &mut b.prompt_symbol,
            "help_header" => &mut b.help_header,
            _ => {
                reader.unknown(&path, BRANDING_KEYS);
                continue;
            }
        };
        if let Some(s) = reader.string(&path, v) {
            *slot = s;
        }
    }
}

fn syntax_notice(file: &str, error: &serde_norway::Error) -> Notice {
    let message = error.to_string();
    // serde_norway appends " at line L column C"; the location goes in front instead.
    let message = message
        .split(" at line ")
        .next()
        .unwrap_or(&message)
        .to_owned();
    let text = match error.location() {
        Some(at) => format!(
            "{file}:{}:{}: not valid YAML: {message}",
            at.line(),
            at.column()
        ),
        None => format!("{file}: not valid YAML: {message}"),
    };
    Notice {
        severity: Severity::Error,
        text,
    }
}

fn describe(value: &Value) -> String {
    match value {
        Value::Null => "nothing".into(),
        Value::Bool(b) => format!("`{b}` (a boolean)"),
        Value::Number(n) => format!("`{n}` (a number)"),
        Value::String(s) => format!("the string `{s}`"),
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a mapping".into(),
        Value::Tagged(t) => format!("a value tagged `{}`", t.tag),
    }
}

/// The known key nearest to a misspelt one (edit distance ≤ 2), for "did you mean".
fn closest<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    known
        .iter()
        .map(|k| (strsim::levenshtein(key, k), *k))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

#[cfg(test)]
#[path = "skin_tests.rs"]
mod tests;
