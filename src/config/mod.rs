//! Configuration: `HERMES_HOME` resolution and profiles, `config.yaml` (typed, Hermes key
//! names), `.env` secrets, the `auth.json` credential store shared with Python Hermes, and
//! in-place edits that keep comments and unknown keys.

pub mod auth_store;
pub mod auth_store_nous;
pub mod edit;
pub mod env;
pub mod error;
pub mod hermes_keys;
mod hermes_names;
pub mod home;
mod known_keys;
pub mod load;
pub mod mcp_edit;
mod mcp_servers;
pub mod schema;
mod schema_code;
mod schema_cron;
mod schema_mcp;
mod schema_memory;
mod schema_providers;
mod schema_sandbox;
mod schema_vision;
mod schema_voice;
mod schema_web;
pub mod toolset_catalog;
pub mod toolset_selection;
pub mod toolsets;
pub mod toolsets_edit;
pub mod used_keys;
pub mod view;

#[cfg(test)]
mod test_support;

pub use edit::{EditMethod, SetOutcome, config_set};
pub use env::{EnvLookup, set_env_var};
pub use error::{ConfigError, ConfigWarning};
pub use home::HermesHome;
pub use load::{LoadedConfig, load};
pub use mcp_edit::{McpEditOutcome, add_mcp_server, remove_mcp_server};
pub use schema::*;
pub use view::{config_get, config_show};
