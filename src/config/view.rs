//! `hermes config show` and `hermes config get KEY`: read-only views of the effective
//! configuration. Never prints a secret value: `model.api_key`, `.env` values and the
//! secret-named values under `mcp_servers` (`GITHUB_TOKEN`, `Authorization`) show as `***`,
//! and `.env`/environment secrets are listed by name only.

use std::path::Path;

use serde_norway::{Mapping, Value};

use super::edit::{FieldKind, SECTIONS, canonical, known, split_key};
use super::env::{KNOWN_SECRET_VARS, read_dotenv};
use super::error::ConfigError;
use super::home::HermesHome;
use super::load::{LoadedConfig, load};
use super::schema::NamedMcpServer;
use crate::util::redact::{MASK, redact};

/// The effective configuration as YAML with secrets masked, plus where it came from and
/// which secrets are set (names only).
pub fn config_show(home: &HermesHome) -> Result<String, ConfigError> {
    let loaded = load(home);
    let (dotenv, env_warnings) = read_dotenv(&home.env_path())?;
    let dotenv_keys: Vec<String> = dotenv.into_keys().collect();
    let process = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let mut out = render_show(&loaded, &home.env_path(), &dotenv_keys, &process)?;
    for w in env_warnings {
        out.push_str(&format!("# warning: {w}\n"));
    }
    Ok(out)
}

/// `config show` over already-loaded parts; `process_env` says which variables are set.
pub fn render_show(
    loaded: &LoadedConfig,
    env_path: &Path,
    dotenv_keys: &[String],
    process_env: &dyn Fn(&str) -> Option<String>,
) -> Result<String, ConfigError> {
    let mut out = format!("# config: {}", loaded.path.display());
    out.push_str(if loaded.exists {
        "\n"
    } else {
        " (not found; defaults)\n"
    });
    for w in &loaded.warnings {
        out.push_str(&format!("# warning: {w}\n"));
    }
    let mut config = loaded.config.clone();
    if !config.model.api_key.is_empty() {
        config.model.api_key = MASK.to_owned();
    }
    out.push_str(&to_yaml(&config, loaded)?);
    if !config.mcp_servers.is_empty() {
        let shown = shown_mcp_servers(&config.mcp_servers).map_err(|e| ser_error(loaded, e))?;
        out.push_str(&to_yaml(&shown, loaded)?);
    }
    out.push_str(&unused_lines(&loaded.raw));
    out.push_str(&format!("# .env: {}", env_path.display()));
    if dotenv_keys.is_empty() {
        out.push_str(" (no keys)\n");
    } else {
        out.push('\n');
        for key in dotenv_keys {
            out.push_str(&format!("#   {key}={MASK}\n"));
        }
    }
    let from_env: Vec<&str> = KNOWN_SECRET_VARS
        .iter()
        .copied()
        .filter(|k| process_env(k).is_some())
        .collect();
    if !from_env.is_empty() {
        out.push_str(&format!(
            "# set in the environment: {}\n",
            from_env.join(", ")
        ));
    }
    Ok(out)
}

/// One line per section for the keys in the file hermes keeps but does not use (why:
/// docs/configuration.md), and one for keys neither hermes nor Hermes 0.19 knows.
fn unused_lines(raw: &Value) -> String {
    let unused = super::used_keys::unused_keys(raw);
    let mut out = String::new();
    for (section, keys) in &unused.kept {
        let place = match section {
            None => "also in the file,".to_owned(),
            Some(section) => format!("{section}:"),
        };
        out.push_str(&format!(
            "# {place} kept but not used by hermes yet: {}\n",
            keys.join(", ")
        ));
    }
    if !unused.kept.is_empty() {
        out.push_str("#   (docs/configuration.md says why, key by key)\n");
    }
    if !unused.unknown.is_empty() {
        out.push_str(&format!(
            "# not a key of hermes or Hermes 0.19 (a typo?), kept: {}\n",
            unused.unknown.join(", ")
        ));
    }
    out
}

/// The effective value of `key`: typed (with defaults) for keys hermes knows, raw from
/// the file otherwise. Secrets print as `***`.
pub fn config_get(home: &HermesHome, key: &str) -> Result<String, ConfigError> {
    get_value(&load(home), key)
}

/// [`config_get`] over an already-loaded config (lets the caller show load warnings once).
pub fn get_value(loaded: &LoadedConfig, key: &str) -> Result<String, ConfigError> {
    split_key(key)?;
    // A Hermes name (`agent.max_turns`) shows the effective value of the key it stands for.
    let key = canonical(key);
    let path = split_key(key)?;
    let typed = serde_norway::to_value(&loaded.config).map_err(|e| ser_error(loaded, e))?;
    let whole_section = path.len() == 1 && SECTIONS.contains(&path[0]);
    let value = if whole_section || known(key).is_some() {
        let mut v = lookup(&typed, &path).cloned().unwrap_or(Value::Null);
        // A whole section also shows the file's keys hermes does not model (yet).
        if let (Value::Mapping(typed_map), Some(Value::Mapping(raw_map))) =
            (&mut v, lookup(&loaded.raw, &path))
        {
            for (k, raw_value) in raw_map {
                if !typed_map.contains_key(k) {
                    typed_map.insert(k.clone(), raw_value.clone());
                }
            }
        }
        mask_secrets(&mut v, &path);
        v
    } else {
        let mut v = lookup(&loaded.raw, &path)
            .cloned()
            .ok_or_else(|| ConfigError::KeyNotSet {
                key: key.to_owned(),
                path: loaded.path.clone(),
            })?;
        if path[0] == "mcp_servers" {
            mask_named_secrets(&mut v, path.last().copied());
        }
        v
    };
    Ok(match value {
        Value::String(s) => s,
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        other => to_yaml(&other, loaded)?.trim_end().to_owned(),
    })
}

/// `mcp_servers:` as loaded (defaults filled in), with [`mask_named_secrets`] applied and
/// every other string through the redactor (a token in `args`, a password in a URL).
fn shown_mcp_servers(servers: &[NamedMcpServer]) -> Result<Value, serde_norway::Error> {
    let mut shown = Mapping::new();
    for server in servers {
        let mut config = server.config.clone();
        let clean = |text: &mut String| *text = redact(text, &[]).into_owned();
        config.env.values_mut().for_each(clean);
        config.headers.values_mut().for_each(clean);
        config.args.iter_mut().for_each(clean);
        config.url.iter_mut().for_each(clean);
        let mut value = serde_norway::to_value(&config)?;
        mask_named_secrets(&mut value, None);
        shown.insert(Value::String(server.name.clone()), value);
    }
    let mut top = Mapping::new();
    top.insert("mcp_servers".into(), Value::Mapping(shown));
    Ok(Value::Mapping(top))
}

/// Masks every string whose key names a secret (contains KEY, TOKEN, SECRET, PASSWORD or
/// AUTH, in any case): `GITHUB_TOKEN: ...`, `Authorization: Bearer ...`. For the free-form
/// mappings of `mcp_servers` (`env`, `headers`), where the schema cannot say what is secret.
fn mask_named_secrets(value: &mut Value, own_name: Option<&str>) {
    let secret = |name: &str| {
        let name = name.to_ascii_uppercase();
        ["KEY", "TOKEN", "SECRET", "PASSWORD", "AUTH"]
            .iter()
            .any(|word| name.contains(word))
    };
    match value {
        Value::String(s) if own_name.is_some_and(secret) && !s.is_empty() => *s = MASK.to_owned(),
        Value::Mapping(map) => {
            for (k, v) in map.iter_mut() {
                mask_named_secrets(v, k.as_str());
            }
        }
        _ => {}
    }
}

fn lookup<'v>(root: &'v Value, path: &[&str]) -> Option<&'v Value> {
    path.iter().try_fold(root, |v, seg| v.get(*seg))
}

fn mask_secrets(value: &mut Value, path: &[&str]) {
    let is_secret = |p: &[&str]| known(&p.join(".")).is_some_and(|k| k.kind == FieldKind::Secret);
    match value {
        Value::String(s) if is_secret(path) && !s.is_empty() => *s = MASK.to_owned(),
        Value::Mapping(map) => {
            for (k, v) in map.iter_mut() {
                if let Some(k) = k.as_str() {
                    let mut child = path.to_vec();
                    child.push(k);
                    mask_secrets(v, &child);
                }
            }
        }
        _ => {}
    }
}

fn to_yaml<T: serde::Serialize>(value: &T, loaded: &LoadedConfig) -> Result<String, ConfigError> {
    serde_norway::to_string(value).map_err(|e| ser_error(loaded, e))
}

fn ser_error(loaded: &LoadedConfig, source: serde_norway::Error) -> ConfigError {
    ConfigError::Serialize {
        path: loaded.path.clone(),
        source,
    }
}

#[cfg(test)]
#[path = "view_tests.rs"]
mod tests;
