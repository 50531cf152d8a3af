//! What a stdio MCP server's process gets to see, and `${VAR}` substitution in server config.
//!
//! A third-party server never inherits hermes's whole environment (that holds provider API
//! keys): it gets a safe baseline (Hermes's list: `PATH HOME USER LANG LC_ALL TERM SHELL
//! TMPDIR` and every `XDG_*`), then the server's own `env:` on top. `${VAR}` and `${env:VAR}`
//! in `env`, `headers`, `args`, `url` and `cwd` are replaced from hermes's environment and
//! `.env`; an unset variable keeps its placeholder (as in Hermes), so the server sees an
//! obviously unexpanded value instead of an empty one.

use std::collections::BTreeMap;

use crate::config::schema::McpServerConfig;

/// Variables passed through from hermes's environment to every stdio server.
pub const BASELINE_VARS: &[&str] = &[
    "PATH", "HOME", "USER", "LANG", "LC_ALL", "TERM", "SHELL", "TMPDIR",
];

/// The full environment of a stdio server: the baseline from `parent`, then `own` (already
/// interpolated) on top.
pub fn server_env(
    parent: impl IntoIterator<Item = (String, String)>,
    own: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let mut env: BTreeMap<String, String> = parent
        .into_iter()
        .filter(|(key, _)| BASELINE_VARS.contains(&key.as_str()) || key.starts_with("XDG_"))
        .collect();
    env.extend(own.iter().map(|(k, v)| (k.clone(), v.clone())));
    env
}

/// Replaces `${VAR}` and `${env:VAR}` with `lookup(VAR)`; unknown variables stay as written.
pub fn interpolate(value: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let name = &after[..end];
        let key = name.strip_prefix("env:").unwrap_or(name);
        match lookup(key) {
            Some(found) if !key.is_empty() => out.push_str(&found),
            _ => out.push_str(&rest[start..start + 2 + end + 1]),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The server config with `${VAR}` replaced in every string the transport uses.
pub fn interpolated(
    config: &McpServerConfig,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> McpServerConfig {
    let map = |m: &BTreeMap<String, String>| {
        m.iter()
            .map(|(k, v)| (k.clone(), interpolate(v, lookup)))
            .collect()
    };
    McpServerConfig {
        command: config.command.as_deref().map(|c| interpolate(c, lookup)),
        args: config.args.iter().map(|a| interpolate(a, lookup)).collect(),
        env: map(&config.env),
        cwd: config.cwd.as_deref().map(|c| interpolate(c, lookup)),
        url: config.url.as_deref().map(|u| interpolate(u, lookup)),
        headers: map(&config.headers),
        ..config.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(key: &str) -> Option<String> {
        match key {
            "TOKEN" => Some("abc".into()),
            "HOME" => Some("/home/u".into()),
            _ => None,
        }
    }

    #[test]
    fn placeholders_are_replaced_and_unknown_ones_kept() {
        assert_eq!(interpolate("Bearer ${TOKEN}", &lookup), "Bearer abc");
        assert_eq!(interpolate("${env:HOME}/x", &lookup), "/home/u/x");
        assert_eq!(interpolate("${NOPE}-${TOKEN}", &lookup), "${NOPE}-abc");
        assert_eq!(interpolate("${}", &lookup), "${}");
        assert_eq!(interpolate("open ${TOKEN", &lookup), "open ${TOKEN");
        assert_eq!(interpolate("plain $TOKEN", &lookup), "plain $TOKEN");
        assert_eq!(interpolate("ü${TOKEN}ü", &lookup), "üabcü");
    }

    #[test]
    fn only_the_baseline_and_own_env_pass() {
        let parent = [
            ("PATH", "/bin"),
            ("HOME", "/h"),
            ("OPENAI_API_KEY", "sk-secret"),
            ("XDG_RUNTIME_DIR", "/run/1"),
            ("SECRET_X", "x"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()));
        let own = BTreeMap::from([
            ("ALLOWED".to_string(), "yes".to_string()),
            ("PATH".to_string(), "/custom".to_string()),
        ]);
        let env = server_env(parent, &own);
        assert_eq!(
            env.keys().map(String::as_str).collect::<Vec<_>>(),
            ["ALLOWED", "HOME", "PATH", "XDG_RUNTIME_DIR"]
        );
        assert_eq!(env["PATH"], "/custom", "the server's own env wins");
    }

    #[test]
    fn every_transport_string_is_interpolated() {
        let config: McpServerConfig = serde_norway::from_str(
            "command: ${HOME}/bin/srv\nargs: ['--token=${TOKEN}']\nenv: {A: '${TOKEN}'}\nheaders: {Authorization: 'Bearer ${TOKEN}'}\ncwd: ${HOME}",
        )
        .unwrap();
        let done = interpolated(&config, &lookup);
        assert_eq!(done.command.as_deref(), Some("/home/u/bin/srv"));
        assert_eq!(done.args, ["--token=abc"]);
        assert_eq!(done.env["A"], "abc");
        assert_eq!(done.headers["Authorization"], "Bearer abc");
        assert_eq!(done.cwd.as_deref(), Some("/home/u"));
    }
}
