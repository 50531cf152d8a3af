//! Small shared helpers with no hermes domain knowledge: atomic file writes, secret
//! redaction, and logging setup.

pub mod fs;
pub mod logging;
pub mod redact;
pub mod startup;
