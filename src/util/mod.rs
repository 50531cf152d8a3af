//! Small shared helpers with no hermes domain knowledge: atomic file writes, advisory file
//! locks, secret redaction and the `Secret` string type, logging setup, UTC calendar
//! arithmetic and YAML read with PyYAML's tolerance of repeated keys.

pub mod file_lock;
pub mod fs;
pub mod image_path;
pub mod lenient_yaml;
pub mod logging;
pub mod memory;
pub mod redact;
pub mod secret;
pub mod startup;
pub mod stderr;
pub mod temp_dir;
pub mod time;
