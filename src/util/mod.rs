//! Small shared helpers with no hermes domain knowledge: atomic file writes, secret
//! redaction, logging setup and UTC calendar arithmetic.

pub mod fs;
pub mod image_path;
pub mod logging;
pub mod memory;
pub mod redact;
pub mod startup;
pub mod stderr;
pub mod temp_dir;
pub mod time;
