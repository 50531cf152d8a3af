//! The `SKILL.md` frontmatter (spec-002a §3.4, §3.8, §3.9), read the way Hermes Agent reads
//! it (`agent/skill_utils.py` `parse_frontmatter`, `tools/skills_tool.py`): splitting the
//! `---`-fenced YAML from the markdown body and reading the Hermes fields.
//!
//! `read_frontmatter` never rejects a skill Hermes would load. Values are coerced as PyYAML
//! data flows through Hermes: a list where one value is expected is joined with ", "
//! (`author: [a, b]`), numbers and booleans are their text (`version: 1.0` → `"1.0"`), a
//! single value where a list is expected is a one-element list, `tags: a, b` is split at the
//! commas, repeated keys keep their last value, unknown keys are ignored, malformed entries in
//! `required_environment_variables` / `metadata.hermes.config` are skipped. None of that is a
//! problem. Problems — reported with their 1-based file line, the skill still loading — are
//! only what makes Hermes silently lose metadata: invalid YAML (read, as Hermes does, as plain
//! `key: value` lines), an unclosed fence (no frontmatter at all), frontmatter that is not a
//! mapping, a `name` or `description` that is a mapping or (name) a list.
//!
//! `parse_frontmatter` is the strict reading used when the agent writes or the user installs a
//! skill: any problem is an error. `validate_skill_md` adds `name` and `description` required,
//! a valid name, a body. Pure text processing; no filesystem access.

use serde_norway::Mapping;
use serde_norway::Value;

use crate::skills::skill::Conditions;
use crate::skills::skill::ConfigSetting;
use crate::skills::skill::MAX_DESCRIPTION_LEN;
use crate::skills::skill::MAX_NAME_LEN;
use crate::skills::skill::RequiredEnv;
use crate::skills::skill::SkillMeta;
use crate::skills::skill::is_valid_name;
use crate::util::lenient_yaml;

/// A frontmatter problem at a 1-based line of `SKILL.md`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontmatterError {
    pub line: usize,
    pub message: String,
}

impl FrontmatterError {
    fn new(line: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            message: message.into(),
        }
    }
}

/// What reading a `SKILL.md` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frontmatter<'a> {
    pub meta: SkillMeta,
    pub body: &'a str,
    /// Metadata Hermes would silently lose (see the module docs); empty for a sound file.
    pub problems: Vec<FrontmatterError>,
}

/// `text` split into (YAML, body). `None` YAML when the file has no frontmatter; an error when
/// the opening `---` is never closed.
pub fn split_frontmatter(text: &str) -> Result<(Option<&str>, &str), FrontmatterError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(rest) = text.strip_prefix("---") else {
        return Ok((None, text));
    };
    let Some(first_end) = rest.find('\n') else {
        return Ok((None, text));
    };
    if !rest[..first_end].trim().is_empty() {
        // `----` or `--- x`: a rule or text, not a fence.
        return Ok((None, text));
    }
    let rest = &rest[first_end + 1..];
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Ok((Some(&rest[..offset]), &rest[offset + line.len()..]));
        }
        offset += line.len();
    }
    Err(FrontmatterError::new(
        1,
        "frontmatter is not closed (add a closing '---' line); Hermes reads the file as having no frontmatter",
    ))
}

/// Read `SKILL.md` text as Hermes does, noting what it would silently lose.
pub fn read_frontmatter(text: &str) -> Frontmatter<'_> {
    let mut problems = Vec::new();
    let (yaml, body) = match split_frontmatter(text) {
        Ok(split) => split,
        Err(e) => {
            problems.push(e);
            (None, text.strip_prefix('\u{feff}').unwrap_or(text))
        }
    };
    let map = match yaml.filter(|y| !y.trim().is_empty()) {
        None => Mapping::new(),
        Some(yaml) => match lenient_yaml::from_str(yaml) {
            Ok(parsed) => match parsed.value {
                Value::Mapping(map) => map,
                Value::Null => Mapping::new(),
                _ => {
                    problems.push(FrontmatterError::new(
                        2,
                        "frontmatter must be a YAML mapping (key: value lines); it is ignored",
                    ));
                    Mapping::new()
                }
            },
            Err(e) => {
                // The YAML starts on line 2 of the file.
                let line = e.location().map_or(2, |l| l.line() + 1);
                let message = e.to_string();
                let message = message.split(" at line ").next().unwrap_or(&message);
                problems.push(FrontmatterError::new(
                    line,
                    format!(
                        "invalid YAML ({message}); read as plain 'key: value' lines as Hermes does, so lists and nested fields such as metadata.hermes are lost"
                    ),
                ));
                plain_lines(yaml)
            }
        },
    };
    let mut reader = Reader {
        yaml: yaml.unwrap_or(""),
        problems,
    };
    let meta = reader.meta(&map);
    Frontmatter {
        meta,
        body,
        problems: reader.problems,
    }
}

/// Parse `SKILL.md` text strictly: any problem `read_frontmatter` notes is an error.
pub fn parse_frontmatter(text: &str) -> Result<(SkillMeta, &str), FrontmatterError> {
    let read = read_frontmatter(text);
    match read.problems.into_iter().next() {
        Some(problem) => Err(problem),
        None => Ok((read.meta, read.body)),
    }
}

/// The strict check for agent-written and installed skills.
pub fn validate_skill_md(text: &str) -> Result<SkillMeta, FrontmatterError> {
    if text.trim().is_empty() {
        return Err(FrontmatterError::new(1, "content cannot be empty"));
    }
    let (yaml, _) = split_frontmatter(text)?;
    if yaml.is_none() {
        return Err(FrontmatterError::new(
            1,
            "SKILL.md must start with YAML frontmatter ('---' line, name, description, '---' line)",
        ));
    }
    let (meta, body) = parse_frontmatter(text)?;
    let name = meta.name.as_deref().unwrap_or("");
    if name.is_empty() {
        return Err(FrontmatterError::new(
            2,
            "frontmatter must include a 'name' field",
        ));
    }
    if !is_valid_name(name) {
        return Err(FrontmatterError::new(
            key_line(text, "name"),
            format!(
                "invalid name '{name}': use lowercase letters, numbers, '-', '.', '_' (start with a letter or digit, at most {MAX_NAME_LEN} chars)"
            ),
        ));
    }
    let description = meta.description.as_deref().unwrap_or("");
    if description.trim().is_empty() {
        return Err(FrontmatterError::new(
            2,
            "frontmatter must include a 'description' field",
        ));
    }
    if description.chars().count() > MAX_DESCRIPTION_LEN {
        return Err(FrontmatterError::new(
            key_line(text, "description"),
            format!("description exceeds {MAX_DESCRIPTION_LEN} characters"),
        ));
    }
    if body.trim().is_empty() {
        return Err(FrontmatterError::new(
            text.lines().count().max(1),
            "SKILL.md must have instructions after the frontmatter",
        ));
    }
    Ok(meta)
}

/// 1-based file line of the first frontmatter line starting with `key:` (else 2).
pub fn key_line(text: &str, key: &str) -> usize {
    text.lines()
        .enumerate()
        .skip(1)
        .find(|(_, l)| {
            l.trim_start()
                .strip_prefix(key)
                .is_some_and(|r| r.starts_with(':'))
        })
        .map_or(2, |(i, _)| i + 1)
}

/// Hermes's fallback for YAML it cannot parse: every line with a `:` is `key: value` (later
/// lines win, indentation ignored). Each value is read as a YAML scalar or flow list when it
/// is one (`[linux, macos]`), else kept as written.
fn plain_lines(yaml: &str) -> Mapping {
    let mut map = Mapping::new();
    for line in yaml.trim().split('\n') {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        let parsed = serde_norway::from_str::<Value>(value)
            .ok()
            .filter(|v| !v.is_mapping() && !v.is_null())
            .unwrap_or_else(|| Value::String(value.to_string()));
        map.insert(Value::from(key.trim()), parsed);
    }
    map
}

/// Field extraction over the parsed mapping, noting problems at the key's line.
struct Reader<'a> {
    yaml: &'a str,
    problems: Vec<FrontmatterError>,
}

impl Reader<'_> {
    fn problem(&mut self, key: &str, message: &str) {
        // `key_line` counts from the file's first line; the YAML starts on line 2.
        let line = key_line(&format!("---\n{}", self.yaml), key);
        self.problems
            .push(FrontmatterError::new(line, format!("'{key}': {message}")));
    }

    fn meta(&mut self, map: &Mapping) -> SkillMeta {
        let metadata = mapping(map.get("metadata"));
        let hermes = mapping(metadata.get("hermes"));
        let name = match map.get("name") {
            Some(v @ (Value::Sequence(_) | Value::Mapping(_))) => {
                let shape = if v.is_mapping() {
                    "a mapping"
                } else {
                    "a list"
                };
                self.problem(
                    "name",
                    &format!("is {shape}, not one name; the directory name is used"),
                );
                None
            }
            other => other.and_then(text),
        };
        let description = match map.get("description") {
            Some(Value::Mapping(_)) => {
                self.problem(
                    "description",
                    "is a mapping, not text; the first line of the body is used",
                );
                None
            }
            other => other.and_then(text),
        };
        let get = |key: &str| map.get(key).and_then(text);
        let prerequisites = mapping(map.get("prerequisites"));
        SkillMeta {
            name,
            description,
            version: get("version"),
            author: get("author"),
            license: get("license"),
            platforms: lower(items(map.get("platforms"))),
            environments: lower(items(map.get("environments"))),
            tags: tags(hermes.get("tags").filter(|v| truthy(v)).or(map.get("tags"))),
            related_skills: tags(
                hermes
                    .get("related_skills")
                    .filter(|v| truthy(v))
                    .or(map.get("related_skills")),
            ),
            category: hermes.get("category").and_then(text),
            conditions: Conditions {
                fallback_for_toolsets: items(hermes.get("fallback_for_toolsets")),
                fallback_for_tools: items(hermes.get("fallback_for_tools")),
                requires_toolsets: items(hermes.get("requires_toolsets")),
                requires_tools: items(hermes.get("requires_tools")),
            },
            required_env: required_env(map, &prerequisites),
            commands: items(prerequisites.get("commands")),
            config: config(hermes.get("config")),
        }
    }
}

/// `_get_required_environment_variables`: `required_environment_variables` (names or
/// `{name|env_var, prompt, help|provider_url|url, required_for, optional}`), then
/// `setup.collect_secrets`, then the legacy `prerequisites.env_vars`; invalid names and
/// repeats skipped.
fn required_env(map: &Mapping, prerequisites: &Mapping) -> Vec<RequiredEnv> {
    let setup = mapping(map.get("setup"));
    let setup_help = setup.get("help").and_then(string);
    let mut out: Vec<RequiredEnv> = Vec::new();
    let mut add = |entry: &Mapping| {
        let field = |k: &str| entry.get(k).filter(|v| truthy(v));
        let Some(name) = field("name").or(field("env_var")).and_then(text) else {
            return;
        };
        let valid = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid || out.iter().any(|r| r.name == name) {
            return;
        }
        let help = field("help")
            .or(field("provider_url"))
            .or(field("url"))
            .and_then(string)
            .or_else(|| setup_help.clone());
        out.push(RequiredEnv {
            name,
            prompt: field("prompt").and_then(text),
            help,
            required_for: entry.get("required_for").and_then(string),
            optional: entry.get("optional").is_some_and(truthy),
        });
    };
    for item in entries(map.get("required_environment_variables")) {
        match item {
            Value::Mapping(m) => add(&m),
            Value::String(s) => add(&single("name", &s)),
            _ => {}
        }
    }
    for item in entries(setup.get("collect_secrets")) {
        if let Value::Mapping(m) = item {
            let mut entry = Mapping::new();
            for (from, to) in [("env_var", "name"), ("prompt", "prompt")] {
                if let Some(v) = m.get(from) {
                    entry.insert(Value::from(to), v.clone());
                }
            }
            if let Some(url) = m.get("provider_url").or(m.get("url")) {
                entry.insert(Value::from("help"), url.clone());
            }
            add(&entry);
        }
    }
    for name in items(prerequisites.get("env_vars")) {
        add(&single("name", &name));
    }
    out
}

/// `extract_skill_config_vars`: mappings with a `key` and a `description`, first per key;
/// the prompt defaults to the description.
fn config(raw: Option<&Value>) -> Vec<ConfigSetting> {
    let mut out: Vec<ConfigSetting> = Vec::new();
    for item in entries(raw) {
        let Value::Mapping(m) = item else {
            continue;
        };
        let key = m.get("key").and_then(text).unwrap_or_default();
        let description = m.get("description").and_then(text).unwrap_or_default();
        if key.is_empty() || description.is_empty() || out.iter().any(|c| c.key == key) {
            continue;
        }
        let prompt = m
            .get("prompt")
            .and_then(string)
            .unwrap_or_else(|| description.clone());
        out.push(ConfigSetting {
            key,
            default: m.get("default").and_then(text),
            description: Some(description),
            prompt: Some(prompt),
        });
    }
    out
}

fn single(key: &str, value: &str) -> Mapping {
    let mut m = Mapping::new();
    m.insert(Value::from(key), Value::from(value));
    m
}

/// A value as a list of entries: a mapping is one entry, null none.
fn entries(value: Option<&Value>) -> Vec<Value> {
    match value.map(untag) {
        Some(Value::Sequence(items)) => items.clone(),
        Some(Value::Null) | None => Vec::new(),
        Some(other) => vec![other.clone()],
    }
}

fn mapping(value: Option<&Value>) -> Mapping {
    match value.map(untag) {
        Some(Value::Mapping(m)) => m.clone(),
        _ => Mapping::new(),
    }
}

/// A value as text the way Hermes shows it: strings trimmed, numbers and booleans as Python
/// prints them, lists joined with ", ". `None` for null, a mapping, or nothing left.
fn text(value: &Value) -> Option<String> {
    let out = match untag(value) {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        Value::Bool(true) => "True".to_string(),
        Value::Bool(false) => "False".to_string(),
        Value::Sequence(items) => items.iter().filter_map(text).collect::<Vec<_>>().join(", "),
        _ => return None,
    };
    (!out.is_empty()).then_some(out)
}

/// Only an actual string (Hermes's `isinstance(x, str) and x.strip()`), trimmed.
fn string(value: &Value) -> Option<String> {
    match untag(value) {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    }
}

/// One value or a list of them, each as text; empty items dropped.
fn items(value: Option<&Value>) -> Vec<String> {
    entries(value).iter().filter_map(text).collect()
}

fn lower(items: Vec<String>) -> Vec<String> {
    items.into_iter().map(|s| s.to_lowercase()).collect()
}

/// `_parse_tags`: a list, or a string like `a, b` or `[a, b]` split at the commas.
fn tags(value: Option<&Value>) -> Vec<String> {
    match value.map(untag) {
        Some(Value::String(s)) => {
            let s = s.trim();
            let s = s
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .unwrap_or(s);
            s.split(',')
                .map(|t| t.trim().trim_matches(['"', '\'']).to_string())
                .filter(|t| !t.is_empty())
                .collect()
        }
        other => items(other),
    }
}

/// The value under any YAML tags (`!tag x` → `x`).
fn untag(value: &Value) -> &Value {
    match value {
        Value::Tagged(t) => untag(&t.value),
        other => other,
    }
}

/// Python truthiness of a PyYAML value; `yes`/`no`/`on`/`off` are the booleans PyYAML reads.
fn truthy(value: &Value) -> bool {
    match untag(value) {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !matches!(s.to_ascii_lowercase().as_str(), "" | "no" | "off"),
        Value::Sequence(items) => !items.is_empty(),
        Value::Mapping(m) => !m.is_empty(),
        Value::Tagged(t) => truthy(&t.value),
    }
}

#[cfg(test)]
#[path = "frontmatter_tests.rs"]
mod tests;
