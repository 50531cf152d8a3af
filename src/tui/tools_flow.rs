//! `/tools` between the app, the picker and the engine: `/tools` (or `/tools list`) opens
//! the picker on the overlay stack and asks for the list (`Op::Toolsets(List)`); `/tools
//! enable NAME` / `/tools disable NAME` switch one at once, as Hermes's `/tools` does;
//! `Event::Toolsets` feeds the picker (or, with it closed, leaves a line saying what
//! changed). A change applied through here makes the next `/new` start the session afresh
//! from config.yaml (`App::tools_changed`), so it gets the new tool list; until then the
//! running session keeps its tools and its prompt cache.
//!
//! It does not read or write config.yaml (the engine does) and does not draw the picker
//! (`overlays::tools_picker`).

use super::app::App;
use super::overlays::tools_picker::APPLIES;
use super::overlays::tools_picker::ToolsPicker;
use crate::protocol::NoticeLevel;
use crate::protocol::Op;
use crate::protocol::ToolsetList;
use crate::protocol::ToolsetsOp;

const USAGE: &str = "usage: /tools [list] · /tools enable NAME · /tools disable NAME";

/// `/tools ARGS`.
pub fn command(app: &mut App, args: &str) {
    let mut words = args.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (None | Some("list"), None, None) => {
            app.overlays.push(ToolsPicker::new());
            app.send(Op::Toolsets(ToolsetsOp::List));
        }
        (Some(verb @ ("enable" | "disable")), Some(name), None) => {
            app.send(Op::Toolsets(ToolsetsOp::Set {
                name: name.to_string(),
                enabled: verb == "enable",
            }));
        }
        _ => app.transcript.push_notice(NoticeLevel::Info, USAGE),
    }
}

/// `Event::Toolsets`.
pub fn on_list(app: &mut App, list: &ToolsetList) {
    if !list.changed.is_empty() {
        app.tools_changed = true;
    }
    match app.overlays.find_mut::<ToolsPicker>() {
        Some(picker) => picker.set_list(list),
        None if !list.changed.is_empty() => app
            .transcript
            .push_notice(NoticeLevel::Info, &format!("{} — {APPLIES}", list.changed)),
        None => {}
    }
}

/// A warning came back instead of a list: a switch the picker sent was refused.
pub fn on_refused(app: &mut App) {
    if let Some(picker) = app.overlays.find_mut::<ToolsPicker>() {
        picker.clear_saving();
    }
}

#[cfg(test)]
#[path = "tools_flow_tests.rs"]
mod tests;
