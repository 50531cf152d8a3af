use serde_json::json;

use super::*;

fn job(value: serde_json::Value) -> Job {
    match value {
        serde_json::Value::Object(map) => Job::from_map(map),
        other => panic!("not an object: {other}"),
    }
}

#[test]
fn hand_edited_fields_read_leniently() {
    let j = job(json!({
        "id": "abc123",
        "name": null,
        "prompt": "Check the build and report anything red in the last hour please",
        "skills": "one",
        "repeat": {"times": 3, "completed": "abc"},
        "deliver": ["origin", " local "],
        "origin": {"platform": "hermes", "chat_id": ""},
        "enabled": "yes",
    }));
    assert_eq!(
        j.name(),
        "Check the build and report anything red in the las"
    );
    assert_eq!(j.skills(), ["one"]);
    assert_eq!(j.repeat_completed(), 0);
    assert_eq!(j.repeat_times(), Some(3));
    assert_eq!(j.deliver(), "origin,local");
    assert!(j.origin().is_none(), "an empty chat id is no origin");
    assert!(j.enabled(), "a non-bool enabled reads as the default");
    assert_eq!(j.state(), "scheduled");
    assert_eq!(j.schedule_display(), "?");
}

#[test]
fn legacy_single_skill_and_unknown_keys_survive() {
    let mut j = job(json!({"id": "x", "skill": "maps", "future_field": {"a": 1}}));
    assert_eq!(j.skills(), ["maps"]);
    j.set_text("last_status", Some("ok"));
    let value = j.into_value();
    assert_eq!(value["future_field"], json!({"a": 1}));
    assert_eq!(value["last_status"], json!("ok"));
}

#[test]
fn paused_from_state_or_enabled() {
    assert!(job(json!({"enabled": false})).is_paused());
    assert!(job(json!({"state": "paused"})).is_paused());
    assert!(!job(json!({"state": "scheduled"})).is_paused());
}
