use super::*;

fn finding(tier: Tier, key: &'static str) -> Finding {
    Finding {
        tier,
        key,
        reason: format!("{key} reason"),
    }
}

fn classified(findings: Vec<Finding>) -> Classification {
    Classification {
        findings,
        writes_files: false,
    }
}

fn session(mode: ApprovalMode, yolo: Yolo, allowlist: &[&str]) -> SessionApprovals {
    SessionApprovals::new(
        ApprovalSettings {
            mode,
            timeout: Duration::from_secs(60),
            allowlist: allowlist.iter().map(ToString::to_string).collect(),
            deny: Vec::new(),
        },
        yolo,
    )
}

#[test]
fn benign_commands_are_allowed_in_every_mode() {
    let turn = TurnApprovals::default();
    for mode in [ApprovalMode::Manual, ApprovalMode::Smart, ApprovalMode::Off] {
        let s = session(mode, Yolo::Off, &[]);
        assert_eq!(
            s.assess(&classified(vec![]), "ls", &turn),
            Assessment::Allow
        );
    }
}

#[test]
fn hardline_is_blocked_even_in_yolo_and_off_mode() {
    let turn = TurnApprovals::default();
    let c = classified(vec![
        finding(Tier::Dangerous, "recursive_rm"),
        finding(Tier::Hardline, "rm_root"),
    ]);
    for s in [
        session(ApprovalMode::Manual, Yolo::On, &["rm_root"]),
        session(ApprovalMode::Off, Yolo::Off, &[]),
    ] {
        match s.assess(&c, "rm -rf /", &turn) {
            Assessment::Block { reason } => {
                assert!(reason.contains("rm_root reason"), "{reason}");
                assert!(reason.contains("even in YOLO"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn dangerous_asks_in_manual_and_smart_but_not_in_yolo_or_off() {
    let turn = TurnApprovals::default();
    let c = classified(vec![finding(Tier::Dangerous, "recursive_rm")]);
    for mode in [ApprovalMode::Manual, ApprovalMode::Smart] {
        let s = session(mode, Yolo::Off, &[]);
        assert!(matches!(
            s.assess(&c, "rm -rf x", &turn),
            Assessment::Ask { findings } if findings.len() == 1
        ));
    }
    assert_eq!(
        session(ApprovalMode::Off, Yolo::Off, &[]).assess(&c, "rm -rf x", &turn),
        Assessment::Allow
    );
    let s = session(ApprovalMode::Manual, Yolo::Off, &[]);
    s.set_yolo(Yolo::On);
    assert_eq!(s.assess(&c, "rm -rf x", &turn), Assessment::Allow);
    s.set_yolo(Yolo::Off);
    assert!(matches!(
        s.assess(&c, "rm -rf x", &turn),
        Assessment::Ask { .. }
    ));
}

#[test]
fn allowlist_and_session_answers_cover_their_keys_only() {
    let turn = TurnApprovals::default();
    let rm = classified(vec![finding(Tier::Dangerous, "recursive_rm")]);
    let push = classified(vec![finding(Tier::Dangerous, "git_force_push")]);
    let both = classified(vec![
        finding(Tier::Dangerous, "recursive_rm"),
        finding(Tier::Dangerous, "git_force_push"),
    ]);
    let s = session(ApprovalMode::Manual, Yolo::Off, &["recursive_rm"]);
    // Approved by the allowlist: runs, and outside the sandbox (a person said yes).
    assert_eq!(s.assess(&rm, "rm -rf a", &turn), Assessment::Approved);
    match s.assess(&both, "rm -rf a && git push -f", &turn) {
        Assessment::Ask { findings } => {
            assert_eq!(findings.len(), 1);
            assert_eq!(findings[0].key, "git_force_push");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        s.record(
            ApprovalDecision::Session,
            &push.findings,
            "git push -f",
            &turn
        ),
        None
    );
    assert_eq!(
        s.assess(&push, "git push -f origin x", &turn),
        Assessment::Approved
    );
    assert_eq!(
        s.assess(&both, "rm -rf a && git push -f", &turn),
        Assessment::Approved
    );
}

#[test]
fn once_allows_nothing_further() {
    let turn = TurnApprovals::default();
    let c = classified(vec![finding(Tier::Dangerous, "recursive_rm")]);
    let s = session(ApprovalMode::Manual, Yolo::Off, &[]);
    assert_eq!(
        s.record(ApprovalDecision::Once, &c.findings, "rm -rf a", &turn),
        None
    );
    assert!(matches!(
        s.assess(&c, "rm -rf a", &turn),
        Assessment::Ask { .. }
    ));
}

#[test]
fn a_refused_command_is_refused_again_for_the_rest_of_the_turn_only() {
    let turn = TurnApprovals::default();
    let c = classified(vec![finding(Tier::Dangerous, "recursive_rm")]);
    let s = session(ApprovalMode::Manual, Yolo::Off, &[]);
    s.record(ApprovalDecision::Deny, &c.findings, "rm -rf ~/x", &turn);
    assert_eq!(
        s.assess(&c, "rm -rf ~/x", &turn),
        Assessment::RefusedEarlier
    );
    // A different command of the same kind still asks.
    assert!(matches!(
        s.assess(&c, "rm -rf ~/y", &turn),
        Assessment::Ask { .. }
    ));
    // The next turn starts clean.
    let next = TurnApprovals::default();
    assert!(matches!(
        s.assess(&c, "rm -rf ~/x", &next),
        Assessment::Ask { .. }
    ));
}

#[test]
fn always_returns_the_allowlist_to_save_once() {
    let turn = TurnApprovals::default();
    let c = classified(vec![finding(Tier::Dangerous, "git_force_push")]);
    let s = session(ApprovalMode::Manual, Yolo::Off, &["recursive_rm"]);
    let saved = s.record(ApprovalDecision::Always, &c.findings, "git push -f", &turn);
    assert_eq!(
        saved,
        Some(vec![
            "git_force_push".to_string(),
            "recursive_rm".to_string()
        ])
    );
    assert_eq!(s.assess(&c, "git push -f", &turn), Assessment::Approved);
    // Already there: nothing new to save.
    assert_eq!(
        s.record(ApprovalDecision::Always, &c.findings, "git push -f", &turn),
        None
    );
}

#[test]
fn deny_rules_come_from_the_settings() {
    let s = SessionApprovals::new(
        ApprovalSettings {
            deny: vec!["git push --force*".to_string()],
            ..ApprovalSettings::default()
        },
        Yolo::On,
    );
    assert_eq!(
        s.deny_rule("git push --force origin", "git push --force origin"),
        Some("git push --force*")
    );
    assert_eq!(s.deny_rule("git push", "git push"), None);
}
