use pretty_assertions::assert_eq;

use super::*;
use crate::protocol::Event;
use crate::tui::engine_link::on_engine_event;
use crate::tui::overlays::onboarding::Onboarding;
use crate::tui::overlays::tools_picker::tests::list;
use crate::tui::test_support::last_notice;
use crate::tui::test_support::ops_sent;
use crate::tui::test_support::setup;

#[tokio::test]
async fn tools_opens_the_picker_and_asks_for_the_list() {
    let (_dir, mut app, mut ops) = setup();
    crate::tui::commands::execute(&mut app, "tools", "");
    assert!(app.overlays.contains::<ToolsPicker>());
    assert_eq!(ops_sent(&mut ops), vec![Op::Toolsets(ToolsetsOp::List)]);
    on_engine_event(&mut app, Event::Toolsets(list()));
    assert!(!app.tools_changed, "a plain list changes nothing");
}

#[tokio::test]
async fn tools_enable_and_disable_switch_at_once_and_say_when_it_applies() {
    let (_dir, mut app, mut ops) = setup();
    crate::tui::commands::execute(&mut app, "tools", "disable memory");
    assert_eq!(
        ops_sent(&mut ops),
        vec![Op::Toolsets(ToolsetsOp::Set {
            name: "memory".into(),
            enabled: false
        })]
    );
    let mut answer = list();
    answer.changed = "memory disabled".into();
    on_engine_event(&mut app, Event::Toolsets(answer));
    let notice = last_notice(&app).unwrap();
    assert!(
        notice.starts_with("memory disabled — Saved to config.yaml; applies from /new"),
        "{notice}"
    );
    assert!(app.tools_changed);
    crate::tui::commands::execute(&mut app, "tools", "frobnicate");
    assert_eq!(last_notice(&app).as_deref(), Some(USAGE));
    assert!(ops_sent(&mut ops).is_empty());
}

#[tokio::test]
async fn new_after_a_switch_restarts_the_session_from_config() {
    let (_dir, mut app, mut ops) = setup();
    crate::tui::commands::execute(&mut app, "new", "");
    assert_eq!(
        ops_sent(&mut ops),
        vec![Op::NewSession],
        "nothing switched: a plain /new"
    );
    app.tools_changed = true;
    crate::tui::commands::execute(&mut app, "new", "");
    assert!(
        ops_sent(&mut ops).is_empty(),
        "no Op::NewSession: the session is started anew"
    );
    assert!(!app.tools_changed);
    // The test factory hands out one session; asking it again is what opens onboarding.
    assert!(app.overlays.contains::<Onboarding>());
}
