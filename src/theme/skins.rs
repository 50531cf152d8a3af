//! The skin catalog: the nine built-ins plus user skins in `HERMES_HOME/skins/*.yaml` (a
//! user file named like a built-in replaces it), loading one by name for a terminal,
//! validating a file for `hermes skins validate`, and writing a skin out in full.
//!
//! Loading never fails: every problem becomes a notice for the user and a fallback (the
//! inherited value for one bad key, the `default` skin for an unreadable or unknown skin),
//! so a broken skin file never prevents start-up. Not here: detecting the background or
//! colour depth (the caller passes them in `LoadOptions`).

use std::path::{Path, PathBuf};

use super::background::{Background, ThemeMode};
use super::color::{ColorDepth, to_hex};
use super::skin::{self, Severity};
use super::{Theme, builtin, render};

/// Where a skin comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkinSource {
    BuiltIn,
    /// A file in the user's skins directory.
    User(PathBuf),
}

/// One entry of `hermes skins list` / the `/skin` picker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkinInfo {
    /// The name to load it by: the file name without `.yaml`.
    pub name: String,
    pub description: String,
    pub source: SkinSource,
}

/// The terminal a skin is rendered for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LoadOptions {
    pub depth: ColorDepth,
    /// The detected background polarity; `None` (unknown) is treated as dark.
    pub background: Option<Background>,
    /// `display.theme_mode`; `Light` / `Dark` override the detected background.
    pub mode: ThemeMode,
}

/// The user's skin files (`*.yaml`), sorted by name.
fn user_files(skins_dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(skins_dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "yaml"))
        .filter_map(|p| Some((p.file_stem()?.to_str()?.to_owned(), p)))
        .collect();
    files.sort();
    files
}

/// The built-ins in Hermes's order, then the user's skins by name. A user skin named like a
/// built-in takes its place (and its source is `User`).
pub fn list(skins_dir: &Path) -> Vec<SkinInfo> {
    let mut infos: Vec<SkinInfo> = builtin::authored()
        .iter()
        .map(|t| SkinInfo {
            name: t.name.clone(),
            description: t.description.clone(),
            source: SkinSource::BuiltIn,
        })
        .collect();
    for (name, path) in user_files(skins_dir) {
        let description = crate::util::fs::read_text(&path)
            .ok()
            .and_then(|text| {
                let label = path.display().to_string();
                skin::parse(&text, &label, &name, &builtin::default_skin()).ok()
            })
            .map(|(theme, _)| theme.description)
            .unwrap_or_default();
        let info = SkinInfo {
            name: name.clone(),
            description,
            source: SkinSource::User(path),
        };
        match infos.iter_mut().find(|i| i.name == name) {
            Some(slot) => *slot = info,
            None => infos.push(info),
        }
    }
    infos
}

/// The skin `name` rendered for `options` (contrast against pure black or white; see
/// `Theme::with_background_rgb` for the real background colour), with notices for the user.
/// Never fails: see the module docs for the fallbacks.
pub fn load(skins_dir: &Path, name: &str, options: &LoadOptions) -> (Theme, Vec<String>) {
    let (authored, notices) = authored(skins_dir, name);
    (render::render(authored, *options, None), notices)
}

/// A skin as authored (inheritance applied), with notices.
fn authored(skins_dir: &Path, name: &str) -> (Theme, Vec<String>) {
    // `/skin mine.yaml` means the skin `mine`.
    let name = name.strip_suffix(".yaml").unwrap_or(name);
    let default = || builtin::default_skin();
    let plain_name = !name.is_empty()
        && !name.contains(['/', '\\'])
        && !name.starts_with('.')
        && name.trim() == name;
    if !plain_name {
        return (
            default(),
            vec![format!(
                "skin `{name}`: not a skin name (expected a file name without `.yaml`); using `default`"
            )],
        );
    }
    let path = skins_dir.join(format!("{name}.yaml"));
    if path.is_file() {
        let label = path.display().to_string();
        return match crate::util::fs::read_text(&path) {
            Ok(text) => match skin::parse(&text, &label, name, &default()) {
                Ok((theme, notices)) => (theme, notices.into_iter().map(|n| n.text).collect()),
                Err(notice) => (
                    default(),
                    vec![format!("{}; using the `default` skin", notice.text)],
                ),
            },
            Err(e) => (
                default(),
                vec![format!(
                    "{label}: cannot read skin: {e}; using the `default` skin"
                )],
            ),
        };
    }
    match builtin::find(name) {
        Some(theme) => (theme.clone(), Vec::new()),
        None => {
            let available: Vec<String> = list(skins_dir).into_iter().map(|i| i.name).collect();
            (
                default(),
                vec![format!(
                    "unknown skin `{name}` (available: {}); using `default`",
                    available.join(", ")
                )],
            )
        }
    }
}

/// Checks a skin file for `hermes skins validate FILE`: `Ok(warnings)` when it loads as
/// written (unknown keys are only warnings), else `Err` with every error (`file:line: key:
/// message`, or `file:line:column` for YAML syntax).
pub fn validate_file(path: &Path) -> Result<Vec<String>, Vec<String>> {
    let label = path.display().to_string();
    let text = crate::util::fs::read_text(path)
        .map_err(|e| vec![format!("{label}: cannot read skin: {e}")])?;
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let (_, notices) =
        skin::parse(&text, &label, name, &builtin::default_skin()).map_err(|n| vec![n.text])?;
    let (errors, warnings): (Vec<_>, Vec<_>) = notices
        .into_iter()
        .partition(|n| n.severity == Severity::Error);
    if errors.is_empty() {
        Ok(warnings.into_iter().map(|n| n.text).collect())
    } else {
        Err(errors.into_iter().map(|n| n.text).collect())
    }
}

/// A YAML double-quoted scalar (JSON string syntax is valid YAML).
fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned())
}

/// A string value: a literal block for multi-line text (banner art), else quoted.
fn scalar(text: &str, indent: &str) -> String {
    let plain_lines = text.contains('\n')
        && !text
            .chars()
            .any(|c| (c.is_control() && c != '\n') || c == '\u{feff}');
    if !plain_lines {
        return quoted(text);
    }
    // Explicit indentation: art may start with spaces. Keep (+) exact trailing newlines.
    let chomp = if text.ends_with('\n') { "+" } else { "-" };
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut out = format!("|2{chomp}");
    for line in body.split('\n') {
        out.push('\n');
        if !line.is_empty() {
            out.push_str(indent);
            out.push_str("  ");
            out.push_str(line);
        }
    }
    out
}

fn colour_section(out: &mut String, section: &str, entries: &[(&str, String)]) {
    if entries.is_empty() {
        return;
    }
    out.push_str(&format!("{section}:\n"));
    for (key, hex) in entries {
        out.push_str(&format!("  {key}: \"{hex}\"\n"));
    }
}

fn list_section(out: &mut String, key: &str, items: &[String]) {
    out.push_str(&format!("  {key}:\n"));
    for item in items {
        out.push_str(&format!("    - {}\n", quoted(item)));
    }
}

/// The skin as a complete Hermes skin file (`hermes skins show`): every inherited value
/// written out, colours as authored (not adapted to the terminal), so loading it again
/// gives the same theme.
pub fn resolved_yaml(theme: &Theme) -> String {
    let mut out = format!(
        "# Skin `{}` with every inherited value filled in.\nname: {}\ndescription: {}\n",
        theme.name,
        quoted(&theme.name),
        quoted(&theme.description)
    );
    let authored = &theme.authored;
    let colors: Vec<(&str, String)> = super::Palette::KEYS
        .iter()
        .filter_map(|k| Some((*k, to_hex(authored.colors.get(k)?))))
        .collect();
    colour_section(&mut out, "colors", &colors);
    for (section, map) in [
        ("light_colors", &authored.light_colors),
        ("dark_colors", &authored.dark_colors),
    ] {
        let entries: Vec<(&str, String)> =
            map.iter().map(|(k, c)| (k.as_str(), to_hex(*c))).collect();
        colour_section(&mut out, section, &entries);
    }
    let s = &theme.spinner;
    out.push_str("spinner:\n");
    list_section(&mut out, "waiting_faces", &s.waiting_faces);
    list_section(&mut out, "thinking_faces", &s.thinking_faces);
    list_section(&mut out, "thinking_verbs", &s.thinking_verbs);
    if s.wings.is_empty() {
        out.push_str("  wings: []\n");
    } else {
        out.push_str("  wings:\n");
        for (left, right) in &s.wings {
            out.push_str(&format!("    - [{}, {}]\n", quoted(left), quoted(right)));
        }
    }
    let b = &theme.branding;
    out.push_str("branding:\n");
    for (key, value) in [
        ("agent_name", &b.agent_name),
        ("welcome", &b.welcome),
        ("goodbye", &b.goodbye),
        ("response_label", &b.response_label),
        ("prompt_symbol", &b.prompt_symbol),
        ("help_header", &b.help_header),
    ] {
        out.push_str(&format!("  {key}: {}\n", scalar(value, "  ")));
    }
    out.push_str(&format!("tool_prefix: {}\n", quoted(&theme.tool_prefix)));
    if theme.tool_emojis.is_empty() {
        out.push_str("tool_emojis: {}\n");
    } else {
        out.push_str("tool_emojis:\n");
        for (tool, emoji) in &theme.tool_emojis {
            out.push_str(&format!("  {}: {}\n", quoted(tool), quoted(emoji)));
        }
    }
    out.push_str(&format!(
        "banner_logo: {}\n",
        scalar(&theme.banner_logo, "")
    ));
    out.push_str(&format!(
        "banner_hero: {}\n",
        scalar(&theme.banner_hero, "")
    ));
    out
}

#[cfg(test)]
#[path = "skins_tests.rs"]
mod tests;
