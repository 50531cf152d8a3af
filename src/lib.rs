//! hermes: a full-screen terminal agent. `docs/architecture.md` has the layer table (base
//! `util`/`config`/`theme`; contract `protocol`/`model`; the services; `engine`; frontends
//! `tui`, `headless` and the binary's `cli`), the rule `tests/suite/architecture.rs` checks, the
//! runtime model and the source layout. The frontends `tui` and `headless` talk to the
//! `engine` only through `protocol`; only the binary wires the two together.

pub mod clipboard;
pub mod config;
pub mod cron;
pub mod engine;
pub mod headless;
pub mod images;
pub mod knowledge;
pub mod model;
pub mod protocol;
pub mod providers;
pub mod safety;
pub mod skills;
pub mod store;
pub mod theme;
pub mod tools;
pub mod tui;
pub mod util;
pub mod voice;
pub mod web;

/// The one scripted HTTP test server (`tests/support/scripted`, shared with the integration
/// suite) for the unit tests.
#[cfg(test)]
#[path = "../tests/support/scripted/mod.rs"]
mod test_server;
