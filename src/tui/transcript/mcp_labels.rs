//! MCP server labels for tool cells: the transcript keeps the server list from the last
//! `Event::McpStatus` and labels each tool cell whose name is `mcp_<server>_<tool>` of a
//! known server (`split_mcp_tool_name`), so the chat can show `read_file` with a
//! `filesystem · MCP` tag instead of `mcp_filesystem_read_file`.
//!
//! It does not render the tag (`panes::chat::cells` does). Invariant: a label, once set, never
//! changes — a server that is later removed from config still named the cell's tool when it
//! ran. The one change allowed to a finished cell is *gaining* a label, when a status list
//! arrives after the cell (a resumed session's replay may come before the first status).

use super::Transcript;
use super::cell::Cell;
use super::cell::McpLabel;
use super::cell::ToolCell;
use crate::protocol::McpServerStatus;
use crate::protocol::split_mcp_tool_name;

impl Transcript {
    /// A new tool cell, labelled with its MCP server when the name is a known server's tool.
    pub(super) fn tool_cell(&self, call_id: &str, name: &str, preview: &str) -> ToolCell {
        let mut cell = ToolCell::new(call_id, name, preview);
        cell.mcp = self.mcp_label(name);
        cell
    }

    /// The MCP server and tool a registered tool name stands for, if any known server has it.
    pub fn mcp_label(&self, name: &str) -> Option<McpLabel> {
        split_mcp_tool_name(name, &self.mcp_servers).map(|(server, tool)| McpLabel {
            server: server.to_string(),
            tool: tool.to_string(),
        })
    }

    /// `Event::McpStatus`: remember the servers, and label the tool cells that were waiting
    /// for them. Cells that gain no label are untouched (their `rev` stays).
    pub(super) fn set_mcp_servers(&mut self, servers: &[McpServerStatus]) {
        self.mcp_servers = servers.to_vec();
        let waiting: Vec<(usize, McpLabel)> = self
            .entries
            .iter()
            .enumerate()
            .filter_map(|(index, entry)| match entry.cell() {
                Cell::Tool(tool) if tool.mcp.is_none() && tool.name.starts_with("mcp_") => {
                    self.mcp_label(&tool.name).map(|label| (index, label))
                }
                _ => None,
            })
            .collect();
        for (index, label) in waiting {
            self.modify(index, |cell| {
                if let Cell::Tool(tool) = cell {
                    tool.mcp = Some(label);
                }
            });
        }
    }
}

#[cfg(test)]
#[path = "mcp_labels_tests.rs"]
mod tests;
