#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

#[test]
fn default_is_the_default_skin() {
    let theme = Theme::default();
    assert_eq!(theme.name, "default");
    assert_eq!(theme.branding.agent_name, "Hermes Agent");
}
