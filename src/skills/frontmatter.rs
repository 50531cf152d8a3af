//! The `SKILL.md` frontmatter (spec-002a §3.4, §3.8, §3.9): splitting the `---`-fenced YAML
//! from the markdown body and reading the Hermes fields.
//!
//! Fields are read leniently: a scalar where a list is expected is a one-element list,
//! `version: 1.0` becomes `"1.0"`, unknown keys are ignored. Errors carry the 1-based line in
//! the file. A file without frontmatter is accepted (name from the directory, description from
//! the first body line, as Hermes does); an unclosed fence, invalid YAML, or a field of the
//! wrong shape is an error. `validate_skill_md` is the strict check used when the agent writes
//! or the user installs a skill: `name` and `description` required, a valid name, a body.
//!
//! Pure text processing; no filesystem access.

use serde_norway::Mapping;
use serde_norway::Value;

use crate::skills::skill::Conditions;
use crate::skills::skill::ConfigSetting;
use crate::skills::skill::MAX_DESCRIPTION_LEN;
use crate::skills::skill::MAX_NAME_LEN;
use crate::skills::skill::RequiredEnv;
use crate::skills::skill::SkillMeta;
use crate::skills::skill::is_valid_name;

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

/// `text` split into (YAML, body, 1-based line where the YAML starts). `None` YAML when the
/// file has no frontmatter.
pub fn split_frontmatter(text: &str) -> Result<(Option<&str>, &str), FrontmatterError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(rest) = text.strip_prefix("---") else {
        return Ok((None, text));
    };
    let Some(rest) = rest
        .strip_prefix("\r\n")
        .or_else(|| rest.strip_prefix('\n'))
    else {
        return Err(FrontmatterError::new(
            1,
            "the opening '---' must be on a line of its own",
        ));
    };
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Ok((Some(&rest[..offset]), &rest[offset + line.len()..]));
        }
        offset += line.len();
    }
    Err(FrontmatterError::new(
        1,
        "frontmatter is not closed; add a closing '---' line",
    ))
}

/// Parse `SKILL.md` text into its metadata and body.
pub fn parse_frontmatter(text: &str) -> Result<(SkillMeta, &str), FrontmatterError> {
    let (yaml, body) = split_frontmatter(text)?;
    let Some(yaml) = yaml else {
        return Ok((SkillMeta::default(), body));
    };
    if yaml.trim().is_empty() {
        return Ok((SkillMeta::default(), body));
    }
    let value: Value = serde_norway::from_str(yaml).map_err(|e| {
        // The YAML starts on line 2 of the file.
        let line = e.location().map_or(1, |l| l.line() + 1);
        FrontmatterError::new(line, format!("invalid YAML: {e}"))
    })?;
    let Value::Mapping(map) = value else {
        return Err(FrontmatterError::new(
            2,
            "frontmatter must be a YAML mapping (key: value lines)",
        ));
    };
    let fields = Fields { map: &map, yaml };
    let hermes = fields.mapping_at(&["metadata", "hermes"])?;
    let h = Fields { map: &hermes, yaml };
    let meta = SkillMeta {
        name: fields.scalar("name")?,
        description: fields.scalar("description")?,
        version: fields.scalar("version")?,
        author: fields.scalar("author")?,
        platforms: fields
            .list("platforms")?
            .into_iter()
            .map(|p| p.to_ascii_lowercase())
            .collect(),
        tags: h.list("tags")?,
        category: h.scalar("category")?,
        conditions: Conditions {
            fallback_for_toolsets: h.list("fallback_for_toolsets")?,
            fallback_for_tools: h.list("fallback_for_tools")?,
            requires_toolsets: h.list("requires_toolsets")?,
            requires_tools: h.list("requires_tools")?,
        },
        required_env: fields.required_env()?,
        config: h.config()?,
    };
    Ok((meta, body))
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

/// Typed field access over one YAML mapping with errors at the key's line.
struct Fields<'a> {
    map: &'a Mapping,
    yaml: &'a str,
}

impl Fields<'_> {
    fn err(&self, key: &str, message: String) -> FrontmatterError {
        // `key_line` counts from the file's first line; the YAML starts on line 2.
        let yaml_line = key_line(&format!("---\n{}", self.yaml), key);
        FrontmatterError::new(yaml_line, format!("'{key}': {message}"))
    }

    fn scalar(&self, key: &str) -> Result<Option<String>, FrontmatterError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => scalar_text(v)
                .map(Some)
                .ok_or_else(|| self.err(key, "expected a single value".to_string())),
        }
    }

    fn list(&self, key: &str) -> Result<Vec<String>, FrontmatterError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Sequence(items)) => items
                .iter()
                .map(|v| {
                    scalar_text(v)
                        .ok_or_else(|| self.err(key, "list items must be plain values".into()))
                })
                .collect(),
            Some(v) => scalar_text(v)
                .map(|s| vec![s])
                .ok_or_else(|| self.err(key, "expected a list".to_string())),
        }
    }

    fn mapping_at(&self, path: &[&str]) -> Result<Mapping, FrontmatterError> {
        let mut current = self.map.clone();
        for key in path {
            current = match current.get(*key) {
                None | Some(Value::Null) => return Ok(Mapping::new()),
                Some(Value::Mapping(m)) => m.clone(),
                Some(_) => return Err(self.err(key, "expected a mapping".to_string())),
            };
        }
        Ok(current)
    }

    fn required_env(&self) -> Result<Vec<RequiredEnv>, FrontmatterError> {
        let key = "required_environment_variables";
        self.entries(key, "name")?
            .into_iter()
            .map(|m| {
                Ok(RequiredEnv {
                    name: text_of(&m, "name").unwrap_or_default(),
                    prompt: text_of(&m, "prompt"),
                    help: text_of(&m, "help"),
                    required_for: text_of(&m, "required_for"),
                })
            })
            .collect()
    }

    fn config(&self) -> Result<Vec<ConfigSetting>, FrontmatterError> {
        Ok(self
            .entries("config", "key")?
            .into_iter()
            .map(|m| ConfigSetting {
                key: text_of(&m, "key").unwrap_or_default(),
                description: text_of(&m, "description"),
                default: text_of(&m, "default"),
                prompt: text_of(&m, "prompt"),
            })
            .collect())
    }

    /// A list of mappings each with a non-empty `id_key`; a bare string `s` means
    /// `{id_key: s}`.
    fn entries(&self, key: &str, id_key: &str) -> Result<Vec<Mapping>, FrontmatterError> {
        let items = match self.map.get(key) {
            None | Some(Value::Null) => return Ok(Vec::new()),
            Some(Value::Sequence(items)) => items.clone(),
            Some(_) => return Err(self.err(key, "expected a list".to_string())),
        };
        let mut out = Vec::new();
        for item in items {
            let m = match item {
                Value::Mapping(m) => m,
                other => match scalar_text(&other) {
                    Some(s) => {
                        let mut m = Mapping::new();
                        m.insert(Value::from(id_key), Value::from(s));
                        m
                    }
                    None => return Err(self.err(key, "entries must be mappings".to_string())),
                },
            };
            if text_of(&m, id_key).is_none_or(|s| s.trim().is_empty()) {
                return Err(self.err(key, format!("every entry needs a '{id_key}'")));
            }
            out.push(m);
        }
        Ok(out)
    }
}

fn text_of(map: &Mapping, key: &str) -> Option<String> {
    map.get(key).and_then(scalar_text)
}

fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}
