use super::*;

fn zone() -> CronZone {
    CronZone::named("Europe/Berlin").unwrap()
}

fn now() -> Timestamp {
    "2026-06-01T10:00:00Z".parse().unwrap()
}

#[test]
fn durations_are_one_shots_after_that_delay() {
    let s = parse_schedule("30m", now(), &zone()).unwrap();
    assert_eq!(s["kind"], "once");
    assert_eq!(s["run_at"], "2026-06-01T12:30:00+02:00");
    assert_eq!(s["display"], "once in 30m");
    let s = parse_schedule("2h", now(), &zone()).unwrap();
    assert_eq!(s["run_at"], "2026-06-01T14:00:00+02:00");
    let s = parse_schedule("1 day", now(), &zone()).unwrap();
    assert_eq!(s["run_at"], "2026-06-02T12:00:00+02:00");
}

#[test]
fn every_is_an_interval_in_minutes() {
    let s = parse_schedule("every 2h", now(), &zone()).unwrap();
    assert_eq!(
        s,
        object(json!({"kind": "interval", "minutes": 120, "display": "every 120m"}))
    );
    let s = parse_schedule("Every 45 mins", now(), &zone()).unwrap();
    assert_eq!(s["minutes"], 45);
}

#[test]
fn cron_expressions_keep_the_text_and_record_the_zone() {
    let s = parse_schedule("0 9 * * 1-5", now(), &zone()).unwrap();
    assert_eq!(s["kind"], "cron");
    assert_eq!(s["expr"], "0 9 * * 1-5");
    assert_eq!(s["display"], "0 9 * * 1-5");
    assert_eq!(s["timezone"], "Europe/Berlin");
    let err = parse_schedule("99 9 * * *", now(), &zone())
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("Invalid cron expression '99 9 * * *'"),
        "{err}"
    );
}

#[test]
fn spoken_forms_become_cron_expressions() {
    for (text, expr) in [
        ("every day 7am", "0 7 * * *"),
        ("every day at 7:30pm", "30 19 * * *"),
        ("every 1d at 09:00", "0 9 * * *"),
        ("every sunday 9am", "0 9 * * 0"),
        ("every weekday at 9:30", "30 9 * * 1-5"),
        ("every monday at 12am", "0 0 * * 1"),
        ("every fri 12pm", "0 12 * * 5"),
    ] {
        let s = parse_schedule(text, now(), &zone()).unwrap();
        assert_eq!(s["kind"], "cron", "{text}");
        assert_eq!(s["expr"], expr, "{text}");
        assert_eq!(s["display"], text);
    }
    assert!(parse_schedule("every day 25am", now(), &zone()).is_err());
    assert!(parse_schedule("every blursday 9am", now(), &zone()).is_err());
}

#[test]
fn iso_timestamps_are_one_shots_read_in_the_zone_without_an_offset() {
    let s = parse_schedule("2026-07-01T09:00:00", now(), &zone()).unwrap();
    assert_eq!(s["run_at"], "2026-07-01T09:00:00+02:00");
    assert_eq!(s["display"], "once at 2026-07-01 09:00");
    let s = parse_schedule("2026-07-01T09:00:00Z", now(), &zone()).unwrap();
    assert_eq!(s["run_at"], "2026-07-01T11:00:00+02:00");
    let err = parse_schedule("2026-13-01T09:00", now(), &zone())
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("Invalid timestamp"), "{err}");
}

#[test]
fn anything_else_gets_hermes_usage_message() {
    let err = parse_schedule("whenever", now(), &zone())
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("Invalid schedule 'whenever'. Use:\n  - Duration: '30m'"),
        "{err}"
    );
    assert!(
        err.ends_with("'2026-02-03T14:00:00' (one-shot at time)"),
        "{err}"
    );
    let err = parse_duration("5 fortnights").unwrap_err().to_string();
    assert_eq!(
        err,
        "Invalid duration: '5 fortnights'. Use format like '30m', '2h', or '1d'"
    );
}
