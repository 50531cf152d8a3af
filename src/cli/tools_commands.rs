//! `hermes tools …`: list the toolsets with their state and tools (and why a tool cannot be
//! offered), and enable or disable toolsets in config.yaml as Python Hermes's `hermes tools
//! enable|disable` does (comments kept). Python's bare `hermes tools` is a curses checklist;
//! here it prints the list. Parsing and printing only; the work is in
//! `hermes::config::toolsets_edit` and `hermes::engine::toolsets_view`.

use std::io::Write;

use clap::Subcommand;
use hermes::config::HermesHome;
use hermes::config::env::EnvLookup;
use hermes::config::toolsets_edit::ToolsetAction;
use hermes::config::toolsets_edit::change_toolsets;
use hermes::engine::toolsets_view;
use hermes::headless::exit_code;
use hermes::protocol::ToolsetList;

#[derive(Subcommand, Debug)]
pub enum ToolsAction {
    /// Show every toolset, enabled or disabled, with its tools.
    #[command(alias = "ls")]
    List {
        /// The platform (hermes is `cli`).
        #[arg(long, default_value = "cli")]
        platform: String,
    },
    /// Enable toolsets (`web`, `memory`, …) or MCP servers for new sessions.
    Enable {
        #[arg(required = true, value_name = "NAME")]
        names: Vec<String>,
        #[arg(long, default_value = "cli")]
        platform: String,
    },
    /// Disable toolsets or MCP servers for new sessions.
    Disable {
        #[arg(required = true, value_name = "NAME")]
        names: Vec<String>,
        #[arg(long, default_value = "cli")]
        platform: String,
    },
}

pub fn tools_command(home: &HermesHome, action: Option<ToolsAction>) -> anyhow::Result<i32> {
    let action = action.unwrap_or(ToolsAction::List {
        platform: "cli".to_string(),
    });
    let (ToolsAction::List { platform }
    | ToolsAction::Enable { platform, .. }
    | ToolsAction::Disable { platform, .. }) = &action;
    if platform != "cli" {
        say(&format!(
            "hermes: unknown platform '{platform}' (hermes is the cli platform)"
        ));
        return Ok(exit_code::CONFIG);
    }
    let mut stdout = std::io::stdout();
    match action {
        ToolsAction::List { .. } => {
            let text = list_text(home)?;
            write!(stdout, "{text}")?;
        }
        ToolsAction::Enable { names, .. } => return change(home, &names, ToolsetAction::Enable),
        ToolsAction::Disable { names, .. } => return change(home, &names, ToolsetAction::Disable),
    }
    Ok(exit_code::OK)
}

fn change(home: &HermesHome, names: &[String], action: ToolsetAction) -> anyhow::Result<i32> {
    match change_toolsets(home, names, action) {
        Ok(outcome) => {
            for notice in &outcome.notices {
                say(&format!("note: {notice}"));
            }
            let verb = match action {
                ToolsetAction::Enable => "Enabled",
                ToolsetAction::Disable => "Disabled",
            };
            writeln!(
                std::io::stdout(),
                "✓ {verb}: {} ({})",
                outcome.changed.join(", "),
                toolsets_view::APPLIES
            )?;
            Ok(exit_code::OK)
        }
        Err(err) => {
            say(&format!("hermes: {err}"));
            Ok(exit_code::CONFIG)
        }
    }
}

fn list_text(home: &HermesHome) -> anyhow::Result<String> {
    let (env, _) = EnvLookup::load(home)?;
    let loaded = hermes::config::load::load(home);
    for warning in &loaded.warnings {
        say(&format!("warning: {warning}"));
    }
    let skills = std::sync::Arc::new(hermes::skills::catalog::SkillLoader::new(home.skills_dir()));
    let memory = hermes::knowledge::MemorySettings::from_config(&loaded.config.memory);
    let web = hermes::engine::spec_parts::web_settings(home, &loaded.config, &env);
    let built = hermes::engine::spec_parts::build_tools(home, None, &skills, &memory, &web);
    let tools = hermes::engine::spec_parts::hermes_tools(&built);
    let list = toolsets_view::toolset_list(&loaded.config, &env, &tools, None);
    Ok(render(
        &list,
        &toolsets_view::not_in_hermes(&tools),
        &loaded.config.toolsets.disabled,
    ))
}

/// The list as text: Hermes's `✓ enabled  NAME  LABEL` lines, each followed by its tools.
fn render(list: &ToolsetList, missing: &[&str], disabled: &[String]) -> String {
    let mut out = String::from("Built-in toolsets (cli):\n");
    let width = list
        .toolsets
        .iter()
        .map(|t| t.name.chars().count())
        .max()
        .unwrap_or(0);
    let state = |enabled: bool| {
        if enabled {
            "✓ enabled "
        } else {
            "✗ disabled"
        }
    };
    let mut mcp = String::new();
    for toolset in &list.toolsets {
        let line = format!(
            "  {}  {:width$}  {}\n",
            state(toolset.enabled),
            toolset.name,
            toolset.label
        );
        if toolset.label.starts_with("MCP server") {
            mcp.push_str(&line);
            continue;
        }
        out.push_str(&line);
        let available: Vec<&str> = toolset
            .tools
            .iter()
            .filter(|t| t.unavailable.is_none())
            .map(|t| t.name.as_str())
            .collect();
        let pad = " ".repeat(16);
        if !available.is_empty() {
            out.push_str(&format!("{pad}{}\n", available.join(", ")));
        }
        for tool in &toolset.tools {
            if let Some(why) = &tool.unavailable {
                out.push_str(&format!("{pad}{}: {why}\n", tool.name));
            }
        }
    }
    if !missing.is_empty() {
        out.push_str(&format!("\nNot in hermes yet: {}\n", missing.join(", ")));
    }
    if !mcp.is_empty() {
        out.push_str("\nMCP servers (tools listed by `hermes mcp test NAME`):\n");
        out.push_str(&mcp);
    }
    if !disabled.is_empty() {
        out.push_str(&format!(
            "\nagent.disabled_toolsets (off everywhere): {}\n",
            disabled.join(", ")
        ));
    }
    out.push_str(&format!(
        "\nChange with `hermes tools enable NAME` / `hermes tools disable NAME` (or /tools in \
         the app): {}.\n",
        list.applies
    ));
    out
}

/// One line on stderr; not `eprintln!`, which panics when stderr is gone.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}
