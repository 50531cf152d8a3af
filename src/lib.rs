//! hermes: a full-screen terminal agent. See ARCHITECTURE.md for the layers; frontends
//! (`headless`, later `tui`) talk to the `engine` only through `protocol`.

pub mod clipboard;
pub mod config;
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

/// The one scripted HTTP test server (`tests/support/scripted`, shared with the integration
/// suite) for the unit tests.
#[cfg(test)]
#[path = "../tests/support/scripted/mod.rs"]
mod test_server;
