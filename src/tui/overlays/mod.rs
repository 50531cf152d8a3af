//! Modal views drawn over the main screen.

pub mod onboarding;
