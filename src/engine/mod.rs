//! The agent engine: session actors that run turns (model calls + the tool loop) and speak
//! `protocol` to frontends. The engine never imports a frontend; frontends reach it only
//! through a `SessionHandle`.

pub mod bootstrap;
pub mod compress;
pub mod cron_link;
pub mod cron_run;
pub mod delegation;
pub mod dispatch;
pub mod events;
pub mod goals;
pub mod guard;
pub mod host;
pub mod images;
pub mod prompt;
pub mod recorder;
mod script_calls;
pub mod session;
pub mod session_spec;
pub mod spec_parts;
pub mod toolsets_view;
pub mod turn;
mod turn_budget;
mod turn_hooks;
pub mod turn_images;
mod turn_stream;

pub use session::BusyInputMode;
pub use session::McpLaunch;
pub use session::ModelEndpoint;
pub use session::ModelSwitcher;
pub use session::ResumedSession;
pub use session::SessionSpec;
pub use session::spawn_session;
