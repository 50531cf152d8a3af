use super::*;

fn results() -> TurnInput {
    TurnInput::SubagentResults("results".to_string().into())
}

fn user() -> TurnInput {
    TurnInput::User("hi".to_string().into())
}

#[test]
fn result_turns_continue_the_message_budget_and_user_turns_restart_it() {
    let mut budget = MessageBudget::new(5);
    assert_eq!(budget.for_turn(&user()), 5);
    budget.spend(2);
    assert_eq!(budget.for_turn(&results()), 3);
    budget.spend(3);
    assert_eq!(budget.for_turn(&results()), 0);
    budget.spend(0);
    assert_eq!(budget.for_turn(&user()), 5);
    assert_eq!(budget.for_turn(&TurnInput::Compress), 5);
    budget.spend(u32::MAX);
    budget.spend(1);
    assert_eq!(budget.for_turn(&results()), 0);
}

#[test]
fn the_notice_says_whether_result_turns_shared_the_budget() {
    assert!(spent_notice(5, 5, 5).starts_with("stopped after 5 API calls in one turn"));
    assert!(spent_notice(1, 5, 1).starts_with("stopped: this message and the turns"));
    assert!(spent_notice(0, 5, 0).starts_with("stopped: the subagents' results arrived"));
}
