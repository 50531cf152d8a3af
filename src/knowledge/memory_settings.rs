//! Which memory stores a session uses and how large they may grow, from `memory:` in
//! config.yaml (Hermes's `memory_enabled`, `user_profile_enabled`, `memory_char_limit`,
//! `user_char_limit`). A disabled store is left out of the prompt snapshot and refused by the
//! `memory` tool; with both disabled the engine registers no memory tool. Plain data.

use crate::config::MemoryConfig;
use crate::knowledge::memory_store::MemoryLimits;
use crate::knowledge::memory_store::MemoryTarget;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemorySettings {
    pub limits: MemoryLimits,
    /// `MEMORY.md` is in use (`memory.memory_enabled`).
    pub memory_enabled: bool,
    /// `USER.md` is in use (`memory.user_profile_enabled`).
    pub user_enabled: bool,
}

impl Default for MemorySettings {
    fn default() -> Self {
        Self::from_config(&MemoryConfig::default())
    }
}

impl MemorySettings {
    pub fn from_config(config: &MemoryConfig) -> Self {
        // A limit of 0 would refuse every entry and divide by zero in the usage line.
        let chars = |limit: u32| usize::try_from(limit).unwrap_or(usize::MAX).max(1);
        Self {
            limits: MemoryLimits {
                memory_chars: chars(config.memory_char_limit),
                user_chars: chars(config.user_char_limit),
            },
            memory_enabled: config.memory_enabled,
            user_enabled: config.user_profile_enabled,
        }
    }

    pub fn enabled(&self, target: MemoryTarget) -> bool {
        match target {
            MemoryTarget::Memory => self.memory_enabled,
            MemoryTarget::User => self.user_enabled,
        }
    }

    /// Whether the session has a memory tool at all.
    pub fn any_enabled(&self) -> bool {
        self.memory_enabled || self.user_enabled
    }

    /// The config key that switched `target` off, for messages.
    pub fn switch_name(target: MemoryTarget) -> &'static str {
        match target {
            MemoryTarget::Memory => "memory.memory_enabled",
            MemoryTarget::User => "memory.user_profile_enabled",
        }
    }
}
