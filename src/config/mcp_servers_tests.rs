use std::collections::BTreeMap;
use std::path::PathBuf;

use super::*;
use crate::config::schema::{DEFAULT_MCP_TIMEOUT_SECS, McpSamplingConfig, McpToolsFilter};

fn path() -> PathBuf {
    PathBuf::from("/home/u/.hermes/config.yaml")
}

fn parse(text: &str) -> (Vec<NamedMcpServer>, Vec<ConfigWarning>) {
    let raw: Value = serde_norway::from_str(text).unwrap();
    let mut warnings = Vec::new();
    let servers = parse_mcp_servers(text, &raw, &path(), &mut warnings);
    (servers, warnings)
}

fn names(servers: &[NamedMcpServer]) -> Vec<&str> {
    servers.iter().map(|s| s.name.as_str()).collect()
}

fn shown(warnings: &[ConfigWarning]) -> Vec<String> {
    warnings.iter().map(ToString::to_string).collect()
}

#[test]
fn absent_or_null_section_is_empty_without_warnings() {
    for text in ["model: m\n", "mcp_servers:\n", "mcp_servers: ~\n", ""] {
        let (servers, warnings) = parse(text);
        assert!(servers.is_empty(), "{text}");
        assert!(warnings.is_empty(), "{text}: {warnings:?}");
    }
}

#[test]
fn a_section_that_is_not_a_mapping_gives_one_warning() {
    let (servers, warnings) = parse("model: m\nmcp_servers:\n  - github\n");
    assert!(servers.is_empty());
    assert_eq!(
        shown(&warnings),
        [
            "/home/u/.hermes/config.yaml:2:1: mcp_servers: expected a mapping of server names to \
          settings, found a list — no MCP servers loaded"
        ]
    );
}

#[test]
fn servers_load_in_file_order_with_every_field() {
    let text = "\
mcp_servers:
  zeta:
    url: https://example.com/mcp
    headers:
      Authorization: Bearer ${TOKEN}
    timeout: 12.5
    connect_timeout: 5
    tools:
      include: [create_issue, list_issues]
      resources: false
  alpha:
    command: npx
    args: [-y, '@modelcontextprotocol/server-github', 8080]
    env:
      GITHUB_TOKEN: ${GITHUB_TOKEN}
      PORT: 8080
    cwd: /tmp
    parallel_safe: true
    sampling:
      enabled: true
";
    let (servers, warnings) = parse(text);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(names(&servers), ["zeta", "alpha"]);
    let zeta = &servers[0].config;
    assert_eq!(zeta.url.as_deref(), Some("https://example.com/mcp"));
    assert_eq!(zeta.headers["Authorization"], "Bearer ${TOKEN}");
    assert_eq!(zeta.timeout, 12.5);
    assert_eq!(zeta.connect_timeout, 5.0);
    assert_eq!(
        zeta.tools,
        McpToolsFilter {
            include: Some(vec!["create_issue".into(), "list_issues".into()]),
            exclude: Vec::new(),
            resources: false,
            prompts: true,
        }
    );
    let alpha = &servers[1].config;
    assert_eq!(alpha.command.as_deref(), Some("npx"));
    assert_eq!(
        alpha.args,
        ["-y", "@modelcontextprotocol/server-github", "8080"]
    );
    assert_eq!(
        alpha.env,
        BTreeMap::from([
            ("GITHUB_TOKEN".to_string(), "${GITHUB_TOKEN}".to_string()),
            ("PORT".to_string(), "8080".to_string()),
        ])
    );
    assert_eq!(alpha.cwd.as_deref(), Some("/tmp"));
    assert!(alpha.supports_parallel_tool_calls);
    assert!(alpha.enabled);
    assert_eq!(alpha.timeout, DEFAULT_MCP_TIMEOUT_SECS);
    assert!(alpha.sampling.enabled);
}

#[test]
fn a_bad_server_is_skipped_with_its_line_and_the_others_load() {
    let text = "\
model: m
mcp_servers:
  fine:
    command: uvx
  github:
    command: npx
    timeout: soon
  listy:
    command: npx
    args: 5
  scalar: npx -y server
  empty:
  nowhere:
    cwd: /tmp
  both:
    command: a
    url: http://b
";
    let (servers, warnings) = parse(text);
    assert_eq!(names(&servers), ["fine"]);
    let shown = shown(&warnings);
    assert_eq!(shown.len(), 6, "{shown:#?}");
    assert!(
        shown[0].starts_with(
            "/home/u/.hermes/config.yaml:7:5: mcp_servers.github.timeout: invalid type: string \
             \"soon\", expected f64"
        ),
        "{shown:#?}"
    );
    assert!(shown[0].ends_with(" — server github skipped"), "{shown:#?}");
    assert!(
        shown[1].starts_with("/home/u/.hermes/config.yaml:10:5: mcp_servers.listy.args: "),
        "{shown:#?}"
    );
    assert!(shown[1].ends_with(" — server listy skipped"), "{shown:#?}");
    assert_eq!(
        shown[2],
        "/home/u/.hermes/config.yaml:11:3: mcp_servers.scalar: expected a mapping of settings, \
         found \"npx -y server\" — server scalar skipped"
    );
    assert_eq!(
        shown[3],
        "/home/u/.hermes/config.yaml:12:3: mcp_servers.empty: has no settings (it needs \
         `command:` or `url:`) — server empty skipped"
    );
    assert!(
        shown[4].starts_with("/home/u/.hermes/config.yaml:13:3: mcp_servers.nowhere: has neither"),
        "{shown:#?}"
    );
    assert!(
        shown[5].starts_with("/home/u/.hermes/config.yaml:15:3: mcp_servers.both: has both"),
        "{shown:#?}"
    );
}

#[test]
fn several_wrong_fields_are_named_in_one_warning() {
    let (servers, warnings) =
        parse("mcp_servers:\n  x:\n    command: a\n    timeout: soon\n    env: [A]\n");
    assert!(servers.is_empty());
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0]
            .message
            .contains("(also wrong: env) — server x skipped"),
        "{warnings:?}"
    );
}

#[test]
fn enabled_accepts_boolish_words_and_defaults_to_on() {
    let mut text = String::from("mcp_servers:\n");
    let cases = [
        ("true", true),
        ("\"Yes\"", true),
        ("on", true),
        ("\"1\"", true),
        ("1", true),
        ("false", false),
        ("\"NO\"", false),
        ("\"off\"", false),
        ("0", false),
        ("\"0\"", false),
        ("~", true),
    ];
    for (i, (value, _)) in cases.iter().enumerate() {
        text.push_str(&format!("  s{i}:\n    command: c\n    enabled: {value}\n"));
    }
    text.push_str("  maybe:\n    command: c\n    enabled: perhaps\n");
    let (servers, warnings) = parse(&text);
    let enabled: Vec<bool> = servers.iter().map(|s| s.config.enabled).collect();
    let mut want: Vec<bool> = cases.iter().map(|(_, on)| *on).collect();
    want.push(true);
    assert_eq!(enabled, want);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(
        warnings[0].message,
        "mcp_servers.maybe.enabled: \"perhaps\" is not true or false — treated as true"
    );
    assert_eq!(warnings[0].line, Some(37));
}

#[test]
fn a_string_args_is_split_shell_style() {
    let text = r#"mcp_servers:
  a:
    command: npx
    args: -y "@scope/server x" 'it''s' --flag=1
  b:
    command: npx
    args: "[-y, pkg, 3]"
  c:
    command: npx
    args: -y "unbalanced
"#;
    let (servers, warnings) = parse(text);
    assert_eq!(names(&servers), ["a", "b"]);
    assert_eq!(
        servers[0].config.args,
        ["-y", "@scope/server x", "its", "--flag=1"]
    );
    assert_eq!(servers[1].config.args, ["-y", "pkg", "3"]);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0]
            .message
            .starts_with("mcp_servers.c.args: cannot split"),
        "{warnings:?}"
    );
}

#[test]
fn unknown_and_unsupported_keys_are_ignored_with_warnings() {
    let text = "\
mcp_servers:
  github:
    comand: npx
    command: npx
    trust: untrusted
    lazy: true
    sampling:
      enabled: false
    tools:
      exlude: [x]
      prompts: no
    frobnicate: 1
";
    let (servers, warnings) = parse(text);
    assert_eq!(names(&servers), ["github"]);
    assert!(!servers[0].config.tools.prompts);
    assert_eq!(
        shown(&warnings),
        [
            "/home/u/.hermes/config.yaml:3:5: mcp_servers.github.comand: unknown key — ignored \
             (did you mean command?)",
            "/home/u/.hermes/config.yaml:5:5: mcp_servers.github.trust: not supported by hermes \
             yet — ignored",
            "/home/u/.hermes/config.yaml:6:5: mcp_servers.github.lazy: not supported by hermes \
             yet — ignored",
            "/home/u/.hermes/config.yaml:10:7: mcp_servers.github.tools.exlude: unknown key — \
             ignored (did you mean exclude?)",
            "/home/u/.hermes/config.yaml:12:5: mcp_servers.github.frobnicate: unknown key — \
             ignored",
        ]
    );
}

#[test]
fn names_that_sanitise_alike_keep_the_first() {
    let text = "\
mcp_servers:
  my-api:
    url: http://a
  my_api:
    url: http://b
  my.api:
    url: http://c
  '':
    url: http://d
  42:
    url: http://e
";
    let (servers, warnings) = parse(text);
    assert_eq!(names(&servers), ["my-api", "42"]);
    let shown = shown(&warnings);
    assert_eq!(shown.len(), 3, "{shown:#?}");
    assert_eq!(
        shown[0],
        "/home/u/.hermes/config.yaml:4:3: mcp_servers.my_api: its tools would be named like \
         those of server my-api (mcp_my_api_*) — server my_api skipped; rename one of them"
    );
    assert!(
        shown[1].contains("mcp_servers.my.api: its tools"),
        "{shown:#?}"
    );
    assert!(
        shown[2].contains("a server needs a non-empty name"),
        "{shown:#?}"
    );
}

#[test]
fn known_keys_cover_the_schema() {
    // Every field `McpServerConfig` writes must be a key the reader accepts, and the
    // reader must not accept a field the schema lacks (besides the alias).
    let full = McpServerConfig {
        command: Some("c".into()),
        args: vec!["a".into()],
        env: BTreeMap::from([("K".into(), "v".into())]),
        cwd: Some("/".into()),
        url: Some("u".into()),
        headers: BTreeMap::from([("H".into(), "v".into())]),
        sampling: McpSamplingConfig {
            model: Some("m".into()),
            ..McpSamplingConfig::default()
        },
        tools: McpToolsFilter {
            include: Some(vec!["t".into()]),
            exclude: vec!["u".into()],
            ..McpToolsFilter::default()
        },
        ..McpServerConfig::default()
    };
    let Value::Mapping(map) = serde_norway::to_value(&full).unwrap() else {
        panic!("not a mapping");
    };
    let mut written: Vec<&str> = map.keys().map(|k| k.as_str().unwrap()).collect();
    written.push("parallel_safe");
    written.sort_unstable();
    let mut accepted = SERVER_KEYS.to_vec();
    accepted.sort_unstable();
    assert_eq!(written, accepted);
    let tools: Vec<&str> = map["tools"]
        .as_mapping()
        .unwrap()
        .keys()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert_eq!(tools, TOOLS_KEYS);
    assert!(NOT_SUPPORTED_KEYS.iter().all(|k| !SERVER_KEYS.contains(k)));
}

#[test]
fn load_reads_mcp_servers_and_reports_their_warnings() {
    let text = "model: m\nmcp_servers:\n  fs:\n    command: npx\n    timeout: x\n  ok:\n    url: http://h\n";
    let loaded = crate::config::load::parse(text, &path());
    assert_eq!(names(&loaded.config.mcp_servers), ["ok"]);
    assert_eq!(loaded.config.model.default, "m");
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    assert_eq!(loaded.warnings[0].line, Some(5));
}
