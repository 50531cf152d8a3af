//! `memory:` — the two persistent memory stores (`MEMORY.md`, `USER.md`), with Hermes's key
//! names and defaults. Plain data; `knowledge::memory_store` enforces the limits and the engine
//! leaves a disabled store out of the prompt and the `memory` tool.

use serde::Deserialize;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct MemoryConfig {
    /// `MEMORY.md` (the agent's notes) in the prompt and writable by the `memory` tool.
    pub memory_enabled: bool,
    /// `USER.md` (the user profile) in the prompt and writable by the `memory` tool.
    pub user_profile_enabled: bool,
    /// Characters `MEMORY.md` may hold.
    pub memory_char_limit: u32,
    /// Characters `USER.md` may hold.
    pub user_char_limit: u32,
}

impl Default for MemoryConfig {
    fn default() -> Self {
        Self {
            memory_enabled: true,
            user_profile_enabled: true,
            memory_char_limit: 2_200,
            user_char_limit: 1_375,
        }
    }
}
