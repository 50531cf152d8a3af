use super::*;

fn said(outcome: VerdictOutcome, reason: &str) -> Judged {
    Judged {
        outcome,
        reason: reason.to_string(),
    }
}

fn keep_going() -> Judged {
    said(VerdictOutcome::Continue, "not yet")
}

#[test]
fn continue_counts_a_continuation_and_done_achieves() {
    let mut goal = GoalRecord::new("four files".into(), 20);
    goal.note_reply("Created note_1.txt");
    let step = goal.after_verdict(said(VerdictOutcome::Continue, "1 of 4"), 100);
    let Step::Continue { reason, prompt } = step else {
        panic!("{step:?}");
    };
    assert_eq!(reason, "1 of 4");
    assert!(prompt.starts_with("[Continuing toward your standing goal]\nGoal: four files\n"));
    assert_eq!((goal.turns_used, goal.turn), (1, 2));
    assert_eq!(goal.verdicts[0].turn, 1);
    assert_eq!(goal.verdicts[0].at, 100);
    let step = goal.after_verdict(said(VerdictOutcome::Done, "all there"), 200);
    assert_eq!(
        step,
        Step::Achieved {
            reason: "all there".into()
        }
    );
    assert_eq!(goal.status, GoalStatus::Achieved);
    assert_eq!(goal.turns_used, 1, "an achieved goal counts no new turn");
    assert_eq!(goal.verdicts[1].turn, 2);
}

#[test]
fn the_budget_pauses_after_max_turns_continuations() {
    let mut goal = GoalRecord::new("g".into(), 2);
    for expected in 1..=2 {
        goal.note_reply(&format!("reply {expected}"));
        assert!(matches!(
            goal.after_verdict(keep_going(), 0),
            Step::Continue { .. }
        ));
        assert_eq!(goal.turns_used, expected);
    }
    goal.note_reply("reply 3");
    assert_eq!(
        goal.after_verdict(keep_going(), 0),
        Step::Pause(PauseCause::Budget)
    );
    assert_eq!(goal.status, GoalStatus::Paused);
    assert_eq!(goal.turns_used, 2);
    goal.resume();
    assert_eq!((goal.status, goal.turns_used), (GoalStatus::Active, 0));
}

#[test]
fn judge_errors_continue_and_three_unreadable_answers_in_a_row_pause() {
    let mut goal = GoalRecord::new("g".into(), 20);
    let error = said(VerdictOutcome::JudgeError, "timed out");
    let unreadable = || said(VerdictOutcome::Unreadable, "garbage");
    for (i, judged) in [
        unreadable(),
        unreadable(),
        error,
        keep_going(),
        unreadable(),
        unreadable(),
    ]
    .into_iter()
    .enumerate()
    {
        goal.note_reply(&format!("reply {i}"));
        assert!(
            matches!(goal.after_verdict(judged, 0), Step::Continue { .. }),
            "verdict {i}"
        );
    }
    goal.note_reply("reply 6");
    assert_eq!(
        goal.after_verdict(unreadable(), 0),
        Step::Pause(PauseCause::UnreadableVerdicts)
    );
}

#[test]
fn three_near_identical_replies_pause_unless_the_judge_says_done() {
    let mut goal = GoalRecord::new("g".into(), 20);
    let stuck = "I could not find the config file, let me look again.";
    goal.note_reply(stuck);
    goal.after_verdict(keep_going(), 0);
    goal.note_reply(stuck);
    goal.after_verdict(keep_going(), 0);
    goal.note_reply(stuck);
    let mut done_instead = goal.clone();
    assert_eq!(
        goal.after_verdict(keep_going(), 0),
        Step::Pause(PauseCause::RepeatedReplies)
    );
    assert!(matches!(
        done_instead.after_verdict(said(VerdictOutcome::Done, "blocked: no config"), 0),
        Step::Achieved { .. }
    ));
    goal.resume();
    assert!(
        goal.recent_replies.is_empty(),
        "resume starts the guard afresh"
    );
}

#[test]
fn subgoals_reach_the_continuation_prompt() {
    let mut goal = GoalRecord::new("ship".into(), 20);
    goal.subgoals = vec!["tests pass".into(), "docs updated".into()];
    let prompt = goal.continuation_prompt();
    assert!(prompt.contains("Additional criteria"));
    assert!(prompt.contains("1. tests pass\n2. docs updated\n"));
    assert!(prompt.ends_with("say so clearly and stop."));
}

#[test]
fn verdicts_are_capped() {
    let mut goal = GoalRecord::new("g".into(), 1_000);
    for i in 0..(VERDICTS_KEPT + 10) {
        goal.note_reply(&format!("reply {i}"));
        goal.after_verdict(keep_going(), i as u64);
    }
    assert_eq!(goal.verdicts.len(), VERDICTS_KEPT);
    assert_eq!(goal.verdicts[0].at, 10);
}

#[test]
fn status_text_names_state_counters_subgoals_and_the_last_verdict() {
    let mut goal = GoalRecord::new("ship".into(), 20);
    goal.subgoals.push("tests pass".into());
    goal.note_reply("r");
    goal.after_verdict(said(VerdictOutcome::Continue, "tests fail"), 0);
    assert_eq!(
        goal.status_text(),
        "Goal (active, 1/20 turns used): ship\nSubgoals:\n1. tests pass\n\
         Last verdict (turn 1): continue — tests fail"
    );
}

#[test]
fn a_record_survives_json() {
    let mut goal = GoalRecord::new("g".into(), 5);
    goal.subgoals.push("s".into());
    goal.note_reply("r");
    goal.after_verdict(keep_going(), 9);
    let json = serde_json::to_string(&goal).unwrap();
    assert_eq!(serde_json::from_str::<GoalRecord>(&json).unwrap(), goal);
}
