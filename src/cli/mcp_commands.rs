//! `hermes mcp …`: list the configured MCP servers, add or remove one in config.yaml
//! (comments kept), and test one (connect as a session would, list its tools with their
//! schemas, report timings). Parsing and printing only; the work is in
//! `hermes::config::mcp_edit` and `hermes::tools::mcp`.
//!
//! Header values are never printed (they carry tokens); `list` makes no connection.

use std::collections::BTreeMap;
use std::io::Write;

use clap::Args;
use clap::Subcommand;
use hermes::config::HermesHome;
use hermes::config::env::EnvLookup;
use hermes::config::schema::McpEndpoint;
use hermes::config::schema::McpServerConfig;
use hermes::config::schema::McpToolsFilter;
use hermes::config::schema::NamedMcpServer;
use hermes::headless::exit_code;

#[derive(Subcommand, Debug)]
pub enum McpAction {
    /// List the servers in config.yaml (no connection is made).
    #[command(alias = "ls")]
    List,
    /// Add a server to config.yaml, then test it: `hermes mcp add fs --command npx --args -y
    /// @modelcontextprotocol/server-filesystem ~/src` (`--args` takes the rest of the line).
    Add(Box<AddArgs>),
    /// Remove a server from config.yaml.
    #[command(alias = "rm")]
    Remove { name: String },
    /// Connect to a server, list its tools and their schemas, and report timings.
    Test {
        name: String,
        /// Only names and descriptions, no schemas.
        #[arg(long)]
        brief: bool,
    },
}

#[derive(Args, Debug)]
pub struct AddArgs {
    /// The server's name (letters, digits, `-`, `_`); tools become `mcp_<name>_<tool>`.
    pub name: String,
    /// The program of a stdio server.
    #[arg(long, conflicts_with = "url")]
    pub command: Option<String>,
    /// The endpoint of a streamable-HTTP server.
    #[arg(long)]
    pub url: Option<String>,
    /// `codex`: `--command codex --args mcp-server`.
    #[arg(long)]
    pub preset: Option<String>,
    /// A variable for a stdio server, `KEY=VALUE` (repeatable; `${VAR}` is expanded at start).
    #[arg(long = "env", value_name = "KEY=VALUE")]
    pub env: Vec<String>,
    /// An HTTP header, `Name: value` (repeatable; use `${VAR}` to keep tokens in .env).
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// The stdio server's working directory.
    #[arg(long)]
    pub cwd: Option<String>,
    /// Offer only these tools (comma-separated; wins over --exclude).
    #[arg(long, value_delimiter = ',')]
    pub include: Vec<String>,
    /// Offer every tool but these (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub exclude: Vec<String>,
    /// Seconds a tool call may take (default 300).
    #[arg(long)]
    pub timeout: Option<f64>,
    /// Seconds connecting may take (default 60).
    #[arg(long)]
    pub connect_timeout: Option<f64>,
    /// Let this server's tools run alongside other parallel-safe calls.
    #[arg(long)]
    pub parallel_safe: bool,
    /// Save it with `enabled: false`.
    #[arg(long)]
    pub disabled: bool,
    /// Save without connecting to test it.
    #[arg(long)]
    pub no_test: bool,
    /// The stdio server's arguments: everything after `--args` (or after `--`).
    #[arg(long = "args", num_args = 1.., allow_hyphen_values = true)]
    pub args: Vec<String>,
    #[arg(last = true, hide = true)]
    pub rest: Vec<String>,
}

pub fn mcp_command(home: &HermesHome, action: McpAction) -> anyhow::Result<i32> {
    let mut out = std::io::stdout();
    match action {
        McpAction::List => {
            let loaded = hermes::config::load(home);
            for warning in &loaded.warnings {
                eprintln!("warning: {warning}");
            }
            list(&loaded.config.mcp_servers, &mut out)?;
            Ok(exit_code::OK)
        }
        McpAction::Add(args) => add(home, *args, &mut out),
        McpAction::Remove { name } => {
            let outcome = hermes::config::mcp_edit::remove_mcp_server(home, &name)?;
            for notice in &outcome.notices {
                eprintln!("note: {notice}");
            }
            writeln!(out, "✓ Removed '{name}' from {}", outcome.path.display())?;
            writeln!(
                out,
                "  Running sessions keep it until /reload-mcp or a restart."
            )?;
            Ok(exit_code::OK)
        }
        McpAction::Test { name, brief } => {
            let loaded = hermes::config::load(home);
            let servers = &loaded.config.mcp_servers;
            let Some(server) = servers.iter().find(|s| s.name == name) else {
                for warning in &loaded.warnings {
                    eprintln!("warning: {warning}");
                }
                let names: Vec<&str> = servers.iter().map(|s| s.name.as_str()).collect();
                eprintln!("✗ Server '{name}' not found in {}", loaded.path.display());
                match names.is_empty() {
                    true => {
                        eprintln!("  No MCP servers configured: add one with `hermes mcp add`.")
                    }
                    false => eprintln!("  Available: {}", names.join(", ")),
                }
                return Ok(exit_code::CONFIG);
            };
            let detail = match brief {
                true => Detail::Brief,
                false => Detail::Schemas,
            };
            test(home, server, detail, &mut out)
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Detail {
    Brief,
    Schemas,
}

fn add(home: &HermesHome, args: AddArgs, out: &mut dyn Write) -> anyhow::Result<i32> {
    let mut server_args = args.args.clone();
    server_args.extend(args.rest.iter().cloned());
    let mut command = args.command.clone();
    match args.preset.as_deref() {
        None => {}
        Some("codex") => {
            command.get_or_insert_with(|| "codex".to_string());
            if server_args.is_empty() {
                server_args.push("mcp-server".to_string());
            }
        }
        Some(other) => anyhow::bail!("unknown preset {other:?} (known: codex)"),
    }
    if args.url.is_some() && !args.env.is_empty() {
        anyhow::bail!("--env is only for stdio servers (--command); HTTP servers take --header");
    }
    if command.is_some() && !args.headers.is_empty() {
        anyhow::bail!("--header is only for HTTP servers (--url); stdio servers take --env");
    }
    let config = McpServerConfig {
        command,
        args: server_args,
        env: pairs(&args.env, '=', "--env KEY=VALUE")?,
        cwd: args.cwd.clone(),
        url: args.url.clone(),
        headers: pairs(&args.headers, ':', "--header 'Name: value'")?,
        enabled: !args.disabled,
        timeout: args.timeout.unwrap_or(McpServerConfig::default().timeout),
        connect_timeout: args
            .connect_timeout
            .unwrap_or(McpServerConfig::default().connect_timeout),
        tools: McpToolsFilter {
            include: (!args.include.is_empty()).then(|| args.include.clone()),
            exclude: args.exclude.clone(),
            ..McpToolsFilter::default()
        },
        supports_parallel_tool_calls: args.parallel_safe,
        ..McpServerConfig::default()
    };
    let outcome = hermes::config::mcp_edit::add_mcp_server(home, &args.name, &config)?;
    for notice in &outcome.notices {
        eprintln!("note: {notice}");
    }
    writeln!(out, "✓ Saved '{}' to {}", args.name, outcome.path.display())?;
    if args.no_test || args.disabled {
        writeln!(
            out,
            "  Start a new session (or /reload-mcp) to use its tools."
        )?;
        return Ok(exit_code::OK);
    }
    let server = NamedMcpServer {
        name: args.name.clone(),
        config,
    };
    let code = test(home, &server, Detail::Brief, out)?;
    if code == exit_code::OK {
        writeln!(
            out,
            "  Start a new session (or /reload-mcp) to use these tools."
        )?;
    } else {
        writeln!(
            out,
            "  It is saved anyway: fix it with `hermes mcp remove {0}` and add it again, or edit config.yaml; `hermes mcp test {0}` tries again.",
            args.name
        )?;
    }
    Ok(code)
}

/// `KEY=VALUE` / `Name: value` pairs.
fn pairs(
    items: &[String],
    separator: char,
    usage: &str,
) -> anyhow::Result<BTreeMap<String, String>> {
    let mut map = BTreeMap::new();
    for item in items {
        let Some((key, value)) = item.split_once(separator) else {
            anyhow::bail!("{item:?} is not {usage}");
        };
        let key = key.trim();
        if key.is_empty() {
            anyhow::bail!("{item:?} has no name; expected {usage}");
        }
        map.insert(key.to_string(), value.trim().to_string());
    }
    Ok(map)
}

fn transport_text(config: &McpServerConfig) -> String {
    match config.endpoint() {
        Ok(McpEndpoint::Http { url }) => url.to_string(),
        Ok(McpEndpoint::Stdio { command }) => {
            let mut parts = vec![command.to_string()];
            parts.extend(config.args.iter().cloned());
            parts.join(" ")
        }
        Err(why) => format!("(invalid: {why})"),
    }
}

fn list(servers: &[NamedMcpServer], out: &mut dyn Write) -> std::io::Result<()> {
    if servers.is_empty() {
        writeln!(out, "No MCP servers configured.")?;
        writeln!(
            out,
            "  Add one:  hermes mcp add NAME --command PROGRAM --args ARG…"
        )?;
        writeln!(
            out,
            "        or  hermes mcp add NAME --url https://host/mcp"
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "{:<16} {:<9} {:<40} {:<12} Status",
        "Name", "Transport", "Command / URL", "Tools"
    )?;
    for server in servers {
        let config = &server.config;
        let kind = match config.endpoint() {
            Ok(McpEndpoint::Http { .. }) => "http",
            _ => "stdio",
        };
        let mut target = transport_text(config);
        if target.chars().count() > 40 {
            target = format!("{}…", target.chars().take(39).collect::<String>());
        }
        let tools = match (&config.tools.include, config.tools.exclude.len()) {
            (Some(include), _) => format!("{} selected", include.len()),
            (None, 0) => "all".to_string(),
            (None, n) => format!("-{n} excluded"),
        };
        let status = match config.enabled {
            true => "✓ enabled",
            false => "✗ disabled",
        };
        writeln!(
            out,
            "{:<16} {kind:<9} {target:<40} {tools:<12} {status}",
            server.name
        )?;
    }
    Ok(())
}

fn test(
    home: &HermesHome,
    server: &NamedMcpServer,
    detail: Detail,
    out: &mut dyn Write,
) -> anyhow::Result<i32> {
    let config = &server.config;
    writeln!(out, "Testing '{}'...", server.name)?;
    let kind = match config.endpoint() {
        Ok(McpEndpoint::Http { .. }) => "HTTP",
        _ => "stdio",
    };
    writeln!(out, "  Transport: {kind} → {}", transport_text(config))?;
    for name in config.headers.keys() {
        writeln!(out, "  Header: {name}: ***")?;
    }
    let (env, warnings) = EnvLookup::load(home)?;
    for warning in &warnings {
        eprintln!("warning: {warning}");
    }
    let lookup = move |key: &str| env.get(key);
    let cwd = std::env::current_dir()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    hermes::util::http::install_crypto_provider();
    let probed = runtime.block_on(hermes::tools::mcp::probe::probe(
        &server.name,
        config,
        &lookup,
        &cwd,
    ));
    let report = match probed {
        Ok(report) => report,
        Err(err) => {
            writeln!(
                out,
                "  ✗ Connection failed ({} ms): {}",
                err.elapsed_ms, err.reason
            )?;
            return Ok(exit_code::TRANSPORT);
        }
    };
    writeln!(
        out,
        "  ✓ Connected to {} ({} ms)",
        report.server, report.connect_ms
    )?;
    let offered = report.tools.iter().filter(|t| t.offered).count();
    writeln!(
        out,
        "  ✓ Tools discovered: {} ({offered} offered to the model; listed in {} ms)",
        report.tools.len(),
        report.list_ms
    )?;
    let extras: Vec<&str> = [
        (
            report.resources,
            "resources (list_resources, read_resource)",
        ),
        (report.prompts, "prompts (list_prompts, get_prompt)"),
    ]
    .into_iter()
    .filter_map(|(has, what)| has.then_some(what))
    .collect();
    if !extras.is_empty() {
        writeln!(out, "  ✓ Also: {}", extras.join(", "))?;
    }
    writeln!(out)?;
    for tool in &report.tools {
        let mark = match tool.offered {
            true => " ",
            false => "-",
        };
        let description: String = tool
            .description
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(70)
            .collect();
        writeln!(out, "  {mark} {:<36} {description}", tool.registered)?;
        if detail == Detail::Schemas {
            writeln!(out, "      {}", tool.schema)?;
        }
    }
    if report.tools.iter().any(|t| !t.offered) {
        writeln!(out, "\n  (-: left out by tools.include / tools.exclude)")?;
    }
    Ok(exit_code::OK)
}
