//! Configuration: `HERMES_HOME` resolution and profiles, `config.yaml` (typed, Hermes key
//! names), `.env` secrets, and in-place edits that keep comments and unknown keys.

pub mod schema;

pub use schema::*;
