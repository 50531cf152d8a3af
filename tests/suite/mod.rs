//! One module per area of the integration suite (see `tests/all.rs`); `hermes_compat/` and
//! `nous_login/` are module trees of their own.

mod approval_corpus;
mod architecture;
mod config_compat;
mod engine_loop;
mod goals_e2e;
mod headless_e2e;
mod hermes_compat;
mod images_e2e;
mod images_tmux;
mod lifecycle_e2e;
mod mcp_cli;
mod mcp_e2e;
mod mcp_tmux;
mod nous_login;
mod prompt_caching;
mod provider_profiles;
mod runaway;
mod safety_e2e;
mod sandbox_e2e;
mod sandbox_tmux;
mod scripted_server;
mod session_ends;
mod sessions_compat;
mod sessions_e2e;
mod skills_compat;
mod skins_e2e;
mod subagents_e2e;
mod tui_hangup;
mod tui_tmux;
mod voice_audio;
mod voice_service;
mod voice_stt;
mod voice_tts;
mod wire_formats;
