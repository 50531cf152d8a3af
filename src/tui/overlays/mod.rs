//! Modal views drawn over the main screen.

pub mod model_picker;
pub mod onboarding;
pub mod sessions_picker;
