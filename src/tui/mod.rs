//! The full-screen terminal UI: a ratatui app that drives one engine session through
//! `protocol` only (ARCHITECTURE §1). It never imports `engine`, `providers` or `tools`.
//!
//! `app` owns the event loop and only routes; state lives in the components below, each
//! rendered from plain data so every visible state can be snapshot-tested with `TestBackend`.

pub mod composer;
pub mod copy;
pub mod focus;
pub mod frame;
pub mod history;
pub mod layout;
pub mod markdown;
pub mod overlays;
pub mod panes;
pub mod popup;
pub mod probe;
pub mod queue;
pub mod signals;
pub mod slash;
pub mod status_bar;
pub mod terminal;
pub mod transcript;

