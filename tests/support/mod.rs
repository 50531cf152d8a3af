//! Test support shared by the integration suite (`tests/all.rs`) and
//! `examples/scripted_provider.rs`: the scripted provider server (`scripted`, also used by the
//! library's unit tests; see `scripted/README.md` for the script JSON format), an in-process
//! engine session builder (`engine`), a clean child environment (`env`), MCP servers, tmux
//! drivers and fakes of the web search/extract services (`web_fakes`).
//!
//! It never touches the network beyond loopback. Not every user uses every item, hence the
//! `dead_code` allowance.

#![allow(dead_code, unused_imports)]

pub mod cli_home;
pub mod display;
pub mod engine;
pub mod env;
pub mod mcp;
pub mod peak_rss;
pub mod scripted;
pub mod tmux;
pub mod tmux_app;
pub mod web_fakes;
pub mod web_site;

pub use scripted::*;
