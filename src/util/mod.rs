//! The base layer's shared helpers, used by services that must not depend on each other:
//! atomic file writes, advisory file locks, secret redaction and the `Secret` string type,
//! logging setup, UTC calendar arithmetic, YAML read with PyYAML's tolerance of repeated keys
//! and the line-preserving YAML model (`yaml_lines`), process spawning and process-group kill
//! (`process`), the shared HTTP client (`http`), path resolution with `~` (`paths`), the
//! exact-string patch planner (`patch_plan`) and MCP tool naming (`mcp_names`).
//!
//! Invariant: nothing here imports another hermes module; `util` is the bottom layer.

pub mod allocator;
pub mod digits;
pub mod expected_panic;
pub mod file_lock;
pub mod fs;
pub mod http;
pub mod image_path;
pub mod lenient_yaml;
pub mod logging;
pub mod mcp_names;
pub mod patch_plan;
pub mod paths;
pub mod process;
pub mod redact;
pub mod secret;
pub mod startup;
pub mod stderr;
pub mod temp_dir;
pub mod time;
pub mod yaml_lines;
