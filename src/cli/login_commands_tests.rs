use super::*;

fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: std::collections::BTreeMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |k| map.get(k).cloned()
}

#[test]
fn no_browser_over_ssh_in_cloud_shells_or_for_console_browsers() {
    assert!(!can_open_graphical_browser(&env_of(&[
        ("DISPLAY", ":0"),
        ("SSH_CLIENT", "10.0.0.1 5000 22")
    ])));
    assert!(!can_open_graphical_browser(&env_of(&[
        ("DISPLAY", ":0"),
        ("CODESPACES", "true")
    ])));
    assert!(!can_open_graphical_browser(&env_of(&[
        ("DISPLAY", ":0"),
        ("BROWSER", "/usr/bin/w3m %s")
    ])));
    assert!(can_open_graphical_browser(&env_of(&[("DISPLAY", ":0")])));
}

#[cfg(target_os = "linux")]
#[test]
fn no_browser_on_linux_without_a_display() {
    assert!(!can_open_graphical_browser(&env_of(&[])));
    assert!(can_open_graphical_browser(&env_of(&[(
        "BROWSER", "firefox"
    )])));
}

#[test]
fn provider_comes_from_the_argument_then_the_flag_then_the_default() {
    assert_eq!(
        chosen_provider(Some("NOUS"), Some("x"), None).as_deref(),
        Some("nous")
    );
    assert_eq!(
        chosen_provider(None, Some("nous"), None).as_deref(),
        Some("nous")
    );
    assert_eq!(
        chosen_provider(None, None, Some(NOUS)).as_deref(),
        Some("nous")
    );
    assert_eq!(chosen_provider(None, None, None), None);
}
