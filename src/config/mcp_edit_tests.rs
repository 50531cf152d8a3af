use std::collections::BTreeMap;

use super::*;
use crate::config::schema::{McpToolsFilter, NamedMcpServer};
#[cfg(unix)]
use crate::config::test_support::config_permissions;
use crate::config::test_support::{home_with, read};

const FILE: &str = "\
# My Hermes settings
model:
  default: anthropic/claude-sonnet-4  # favourite

# terminal stuff
terminal:
  timeout: 180   # seconds
display:
  skin: ares
";

fn stdio(command: &str, args: &[&str]) -> McpServerConfig {
    McpServerConfig {
        command: Some(command.into()),
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        ..McpServerConfig::default()
    }
}

fn http(url: &str) -> McpServerConfig {
    McpServerConfig {
        url: Some(url.into()),
        ..McpServerConfig::default()
    }
}

/// The servers `config.yaml` loads now, and the load warnings.
fn loaded_servers(home: &HermesHome) -> Vec<NamedMcpServer> {
    let loaded = crate::config::load::load(home);
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    loaded.config.mcp_servers
}

fn backup_path(home: &HermesHome) -> PathBuf {
    home.config_path().with_extension("yaml.bak")
}

#[test]
fn add_appends_a_section_keeping_the_file_byte_for_byte() {
    let (_d, home) = home_with(Some(FILE));
    let outcome = add_mcp_server(
        &home,
        "github",
        &stdio("npx", &["-y", "@modelcontextprotocol/server-github"]),
    )
    .unwrap();
    assert_eq!(outcome.method, EditMethod::InPlace);
    assert!(outcome.notices.is_empty(), "{:?}", outcome.notices);
    assert_eq!(outcome.path, home.config_path());
    assert_eq!(
        read(&home),
        format!(
            "{FILE}mcp_servers:\n  github:\n    command: npx\n    args:\n    - -y\n    - \
             '@modelcontextprotocol/server-github'\n"
        )
    );
    assert!(!backup_path(&home).exists());
    let servers = loaded_servers(&home);
    assert_eq!(servers.len(), 1);
    assert_eq!(servers[0].name, "github");
}

#[test]
fn add_goes_under_an_existing_section_with_its_indentation() {
    let text = "\
model:
    default: m
mcp_servers:    # my servers
    fs:
        command: uvx   # keep me
        args: [mcp-server-fs]

    # old: {url: http://x}
display:
    skin: ares
";
    let (_d, home) = home_with(Some(text));
    let outcome = add_mcp_server(&home, "linear", &http("https://mcp.linear.app/mcp")).unwrap();
    assert_eq!(outcome.method, EditMethod::InPlace);
    assert_eq!(
        read(&home),
        text.replace(
            "[mcp-server-fs]\n",
            "[mcp-server-fs]\n    linear:\n        url: https://mcp.linear.app/mcp\n"
        )
    );
    let servers = loaded_servers(&home);
    assert_eq!(
        servers.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        ["fs", "linear"]
    );
}

#[test]
fn add_fills_an_empty_or_null_section_header() {
    for (header, want) in [
        ("mcp_servers:\n", "mcp_servers:\n"),
        ("mcp_servers: {}  # none yet\n", "mcp_servers: # none yet\n"),
        ("mcp_servers: ~\n", "mcp_servers:\n"),
    ] {
        let text = format!("model:\n  default: m\n{header}display:\n  skin: ares\n");
        let (_d, home) = home_with(Some(&text));
        let outcome = add_mcp_server(&home, "x", &http("http://h/mcp")).unwrap();
        assert_eq!(outcome.method, EditMethod::InPlace, "{header}");
        assert_eq!(
            read(&home),
            format!(
                "model:\n  default: m\n{want}  x:\n    url: http://h/mcp\ndisplay:\n  skin: ares\n"
            )
        );
    }
}

#[test]
fn add_creates_a_missing_file() {
    let (_d, home) = home_with(None);
    let outcome = add_mcp_server(&home, "fs", &stdio("uvx", &["mcp-server-fs"])).unwrap();
    assert_eq!(outcome.method, EditMethod::InPlace);
    assert_eq!(
        read(&home),
        "mcp_servers:\n  fs:\n    command: uvx\n    args:\n    - mcp-server-fs\n"
    );
    #[cfg(unix)]
    assert_eq!(config_permissions(&home), 0o600);
}

#[test]
fn add_refuses_duplicates_bad_names_and_servers_without_a_transport() {
    let text = "mcp_servers:\n  github:\n    command: npx\n";
    let (_d, home) = home_with(Some(text));
    let err = add_mcp_server(&home, "github", &http("http://h")).unwrap_err();
    assert!(matches!(err, ConfigError::McpServerExists { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        format!(
            "mcp_servers.github already exists in {} — remove it first with `hermes mcp remove \
             github`",
            home.config_path().display()
        )
    );
    let err = add_mcp_server(&home, "git hub", &http("http://h")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid MCP server name \"git hub\": ' ' is not allowed; use letters, digits, '-' and '_'"
    );
    assert!(add_mcp_server(&home, "", &http("http://h")).is_err());
    assert!(add_mcp_server(&home, &"a".repeat(65), &http("http://h")).is_err());
    assert!(add_mcp_server(&home, &"a".repeat(64), &http("http://h")).is_ok());
    add_mcp_server(&home, "my-api", &http("http://h")).unwrap();
    let err = add_mcp_server(&home, "my_api", &http("http://h")).unwrap_err();
    assert!(
        err.to_string()
            .contains("like those of the configured server my-api"),
        "{err}"
    );
    let err = add_mcp_server(&home, "none", &McpServerConfig::default()).unwrap_err();
    assert!(
        err.to_string().starts_with("mcp_servers.none has neither"),
        "{err}"
    );
    let mut both = http("http://h");
    both.command = Some("npx".into());
    assert!(add_mcp_server(&home, "both", &both).is_err());
    let names: Vec<String> = loaded_servers(&home).into_iter().map(|s| s.name).collect();
    assert_eq!(
        names,
        ["github".to_string(), "a".repeat(64), "my-api".to_string()]
    );
}

#[test]
fn malformed_file_is_an_error_and_untouched() {
    let text = "model:\n  default: m\n   bad: [\n";
    let (_d, home) = home_with(Some(text));
    let err = add_mcp_server(&home, "x", &http("http://h")).unwrap_err();
    let ConfigError::Malformed(warning) = &err else {
        panic!("{err}");
    };
    assert_eq!(warning.path, home.config_path());
    assert!(warning.line.is_some(), "{warning}");
    assert!(warning.message.contains("hermes mcp add"), "{warning}");
    assert!(remove_mcp_server(&home, "x").is_err());
    assert_eq!(read(&home), text);
    assert!(!backup_path(&home).exists());
}

#[test]
fn remove_keeps_neighbours_and_comments() {
    let text = "\
model:
  default: m
mcp_servers:
  # GitHub, via npx
  github:
    command: npx
    # args: [old]
    args: [-y, server-github]
  fs:
    command: uvx   # filesystem
display:
  skin: ares
";
    let (_d, home) = home_with(Some(text));
    let outcome = remove_mcp_server(&home, "github").unwrap();
    assert_eq!(outcome.method, EditMethod::InPlace);
    assert_eq!(
        read(&home),
        "\
model:
  default: m
mcp_servers:
  # GitHub, via npx
  fs:
    command: uvx   # filesystem
display:
  skin: ares
"
    );
    let servers = loaded_servers(&home);
    assert_eq!(servers.len(), 1);
    assert_eq!(servers[0].name, "fs");
}

#[test]
fn removing_the_last_server_removes_the_section() {
    let text = "\
model:
  default: m

mcp_servers:
  fs:
    command: uvx
    # trailing note in the server

# display settings
display:
  skin: ares
";
    let (_d, home) = home_with(Some(text));
    remove_mcp_server(&home, "fs").unwrap();
    assert_eq!(
        read(&home),
        "model:\n  default: m\n\n# display settings\ndisplay:\n  skin: ares\n"
    );
    assert!(loaded_servers(&home).is_empty());
    // A file holding only the section ends up empty.
    std::fs::write(
        home.config_path(),
        "mcp_servers:\n  a:\n    url: http://h\n",
    )
    .unwrap();
    remove_mcp_server(&home, "a").unwrap();
    assert_eq!(read(&home), "");
}

#[test]
fn removing_a_missing_name_lists_the_configured_ones() {
    let (_d, home) = home_with(Some(
        "mcp_servers:\n  github:\n    command: npx\n  fs:\n    command: uvx\n",
    ));
    let err = remove_mcp_server(&home, "gitlab").unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "no MCP server named \"gitlab\" in {} (configured: github, fs)",
            home.config_path().display()
        )
    );
    let (_d2, empty) = home_with(None);
    let err = remove_mcp_server(&empty, "gitlab").unwrap_err();
    assert!(err.to_string().ends_with("(configured: none)"), "{err}");
    assert!(!empty.config_path().exists());
}

#[test]
fn flow_style_falls_back_to_the_serializer_with_a_backup() {
    let text = "# comment\nmcp_servers: {fs: {command: uvx}}\nmodel: {default: m}\n";
    let (_d, home) = home_with(Some(text));
    let outcome = add_mcp_server(&home, "web", &http("http://h/mcp")).unwrap();
    assert_eq!(outcome.method, EditMethod::Reserialized);
    assert_eq!(outcome.notices.len(), 1);
    assert!(outcome.notices[0].contains("comments and formatting were not kept"));
    assert!(outcome.notices[0].contains("config.yaml.bak"));
    assert_eq!(std::fs::read_to_string(backup_path(&home)).unwrap(), text);
    let now = read(&home);
    assert!(!now.contains("# comment"), "{now}");
    let loaded = crate::config::load::load(&home);
    assert_eq!(loaded.config.model.default, "m");
    let names: Vec<&str> = loaded
        .config
        .mcp_servers
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(names, ["fs", "web"]);

    let (_d2, home) = home_with(Some(text));
    let outcome = remove_mcp_server(&home, "fs").unwrap();
    assert_eq!(outcome.method, EditMethod::Reserialized);
    assert_eq!(read(&home), "model:\n  default: m\n");
}

#[test]
fn add_then_load_gives_back_the_same_server() {
    let github = McpServerConfig {
        command: Some("npx".into()),
        args: vec![
            "-y".into(),
            "@modelcontextprotocol/server-github".into(),
            "a path with spaces".into(),
            "it's \"quoted\"".into(),
            "--flag=1".into(),
            "123".into(),
            "true".into(),
            "".into(),
        ],
        env: BTreeMap::from([
            ("GITHUB_TOKEN".into(), "${GITHUB_TOKEN}".into()),
            ("DEBUG".into(), "1".into()),
        ]),
        cwd: Some("~/work dir".into()),
        enabled: false,
        timeout: 12.5,
        tools: McpToolsFilter {
            include: Some(vec!["create_issue".into(), "list:issues".into()]),
            exclude: vec!["delete_repo".into()],
            resources: false,
            prompts: true,
        },
        supports_parallel_tool_calls: true,
        ..McpServerConfig::default()
    };
    let remote = McpServerConfig {
        url: Some("https://example.com/mcp?x=1#frag".into()),
        headers: BTreeMap::from([(
            "Authorization".into(),
            "Bearer ${MCP_REMOTE_API_KEY}".into(),
        )]),
        connect_timeout: 5.0,
        tools: McpToolsFilter {
            include: Some(Vec::new()),
            ..McpToolsFilter::default()
        },
        ..McpServerConfig::default()
    };
    let (_d, home) = home_with(Some(FILE));
    add_mcp_server(&home, "github", &github).unwrap();
    add_mcp_server(&home, "remote", &remote).unwrap();
    let text = read(&home);
    assert!(text.starts_with(FILE), "{text}");
    assert!(
        !text.contains("prompts"),
        "defaults are not written:\n{text}"
    );
    assert!(!text.contains("connect_timeout: 60"), "{text}");
    assert!(!text.contains("enabled: true"), "{text}");
    assert_eq!(
        loaded_servers(&home),
        [
            NamedMcpServer {
                name: "github".into(),
                config: github
            },
            NamedMcpServer {
                name: "remote".into(),
                config: remote
            },
        ]
    );
    remove_mcp_server(&home, "github").unwrap();
    remove_mcp_server(&home, "remote").unwrap();
    assert_eq!(read(&home), FILE);
}

#[test]
fn minimal_mapping_drops_only_defaults() {
    let mut server = http("http://h");
    assert_eq!(
        serde_norway::to_string(&minimal_server_mapping(&server)).unwrap(),
        "url: http://h\n"
    );
    server.tools.prompts = false;
    server.timeout = 30.0;
    assert_eq!(
        serde_norway::to_string(&minimal_server_mapping(&server)).unwrap(),
        "url: http://h\ntimeout: 30.0\ntools:\n  prompts: false\n"
    );
}

#[test]
fn crlf_files_stay_crlf() {
    let text = "model:\r\n  default: m\r\nmcp_servers:\r\n  a:\r\n    url: http://a\r\n";
    let (_d, home) = home_with(Some(text));
    add_mcp_server(&home, "b", &http("http://b")).unwrap();
    assert_eq!(read(&home), format!("{text}  b:\r\n    url: http://b\r\n"));
    remove_mcp_server(&home, "a").unwrap();
    assert_eq!(
        read(&home),
        "model:\r\n  default: m\r\nmcp_servers:\r\n  b:\r\n    url: http://b\r\n"
    );
}

#[test]
fn add_after_a_block_scalar_keeps_its_hash_lines_inside_it() {
    // `# …` indented into a block scalar is text of the value, not a comment: the new
    // server goes after it, and the file is still edited in place.
    let text = "\
mcp_servers:
  fs:
    command: uvx
    env:
      NOTE: |
        first
        # part of the note

display:
  skin: ares
";
    let (_d, home) = home_with(Some(text));
    let outcome = add_mcp_server(&home, "b", &http("http://b")).unwrap();
    assert_eq!(outcome.method, EditMethod::InPlace);
    assert_eq!(
        read(&home),
        text.replace(
            "# part of the note\n",
            "# part of the note\n  b:\n    url: http://b\n"
        )
    );
    let servers = loaded_servers(&home);
    assert_eq!(
        servers[0].config.env.get("NOTE").map(String::as_str),
        Some("first\n# part of the note\n")
    );
}
