//! Python Hermes 0.19's toolsets, as data: every name of `toolsets.py`'s `TOOLSETS` with its
//! tools and includes, which of them `hermes tools` configures (with Hermes's labels, in its
//! order) and which are off by default. The table is `toolsets.tsv`, generated from Hermes's
//! source and compiled in; `resolve` expands a name the way `resolve_toolset` does.
//!
//! Plain data and pure functions: what a session offers is decided in `config::toolsets`,
//! which tools exist in hermes is the tool registry's business. Invariants (tested): every
//! include names a toolset of the table; `configurable()` follows Hermes's order.

use std::collections::BTreeSet;
use std::sync::OnceLock;

const TABLE: &str = include_str!("toolsets.tsv");

/// The preset every CLI session starts from when `platform_toolsets.cli` is not a list.
pub const CLI_PRESET: &str = "hermes-cli";

/// One toolset of Hermes's table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolsetDef {
    pub name: &'static str,
    pub description: &'static str,
    pub tools: Vec<&'static str>,
    pub includes: Vec<&'static str>,
    /// Shown in `hermes tools` (Hermes's `CONFIGURABLE_TOOLSETS`).
    pub configurable: bool,
    /// Off for a new install until enabled (Hermes's `_DEFAULT_OFF_TOOLSETS`).
    pub default_off: bool,
    /// A session-level selection (`coding`), never recovered into a platform's list.
    pub posture: bool,
}

/// A configurable toolset's label in `hermes tools` (`🔍 Web Search & Scraping`) and its
/// short description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label {
    pub name: &'static str,
    pub label: &'static str,
    pub summary: &'static str,
}

struct Catalog {
    defs: Vec<ToolsetDef>,
    labels: Vec<Label>,
}

fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| parse(TABLE))
}

fn list(field: &'static str) -> Vec<&'static str> {
    if field == "-" {
        return Vec::new();
    }
    field.split(',').filter(|s| !s.is_empty()).collect()
}

fn parse(table: &'static str) -> Catalog {
    let mut defs = Vec::new();
    let mut labels = Vec::new();
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&'static str> = line.split('\t').collect();
        match fields.as_slice() {
            ["LABEL", name, label, summary] => labels.push(Label {
                name,
                label,
                summary,
            }),
            [name, flags, includes, tools, description] => {
                let flags = list(flags);
                defs.push(ToolsetDef {
                    name,
                    description,
                    tools: list(tools),
                    includes: list(includes),
                    configurable: flags.contains(&"configurable"),
                    default_off: flags.contains(&"default_off"),
                    posture: flags.contains(&"posture"),
                });
            }
            // The table is compiled in and checked by a test; a bad line is skipped.
            _ => {}
        }
    }
    Catalog { defs, labels }
}

/// Every toolset of the table, in Hermes's order.
pub fn all() -> &'static [ToolsetDef] {
    &catalog().defs
}

pub fn get(name: &str) -> Option<&'static ToolsetDef> {
    catalog().defs.iter().find(|d| d.name == name)
}

/// The toolsets `hermes tools` shows, in Hermes's order, with their labels.
pub fn configurable() -> &'static [Label] {
    &catalog().labels
}

pub fn is_configurable(name: &str) -> bool {
    get(name).is_some_and(|d| d.configurable)
}

/// Whether `name` is a toolset Hermes knows (`all` and `*` included), as
/// `toolsets.validate_toolset` answers without plugins or MCP servers.
pub fn is_known(name: &str) -> bool {
    name == "all" || name == "*" || get(name).is_some()
}

/// The toolsets a tool belongs to, in table order (`web_search` is in `web`, `search`,
/// `browser`, and the presets).
pub fn toolsets_of(tool: &str) -> impl Iterator<Item = &'static ToolsetDef> + '_ {
    all().iter().filter(move |d| d.tools.contains(&tool))
}

/// All tool names of `name`, its includes expanded (cycles and diamonds resolved once);
/// `all`/`*` is every toolset. Unknown names resolve to nothing, as in Hermes.
pub fn resolve(name: &str) -> BTreeSet<&'static str> {
    let mut out = BTreeSet::new();
    if name == "all" || name == "*" {
        for def in all() {
            out.extend(resolve(def.name));
        }
        return out;
    }
    let mut visited = BTreeSet::new();
    resolve_into(name, &mut visited, &mut out);
    out
}

fn resolve_into(
    name: &str,
    visited: &mut BTreeSet<&'static str>,
    out: &mut BTreeSet<&'static str>,
) {
    let Some(def) = get(name) else {
        return;
    };
    if !visited.insert(def.name) {
        return;
    }
    out.extend(def.tools.iter().copied());
    for include in &def.includes {
        resolve_into(include, visited, out);
    }
}

/// Hermes's core tool list (the `hermes-cli` preset): what a platform bundle shares with
/// every other, so disabling a bundle removes only its extras (`bundle_non_core_tools`).
pub fn core_tools() -> BTreeSet<&'static str> {
    resolve(CLI_PRESET)
}

/// The tools disabling `name` takes away: a platform bundle (`hermes-*`) or a posture
/// toolset loses only what is not core; anything else loses all its tools.
pub fn tools_removed_by_disabling(name: &str) -> BTreeSet<&'static str> {
    let resolved = resolve(name);
    let bundle = name.starts_with("hermes-") || get(name).is_some_and(|d| d.posture);
    if !bundle {
        return resolved;
    }
    let core = core_tools();
    resolved.into_iter().filter(|t| !core.contains(t)).collect()
}

/// The valid names for a warning, comma-separated: the configurable toolsets first (what a
/// user most likely meant), then the rest.
pub fn valid_names_hint() -> String {
    let mut names: Vec<&str> = configurable().iter().map(|l| l.name).collect();
    names.extend(all().iter().filter(|d| !d.configurable).map(|d| d.name));
    names.join(", ")
}

#[cfg(test)]
#[path = "toolset_catalog_tests.rs"]
mod tests;
