use serde_json::json;

use super::*;

fn ts(text: &str) -> Timestamp {
    text.parse().unwrap()
}

fn cron_schedule(expr: &str, zone: &str) -> Map<String, Value> {
    match json!({"kind": "cron", "expr": expr, "display": expr, "timezone": zone}) {
        Value::Object(map) => map,
        _ => unreachable!(),
    }
}

/// The next `count` runs after `from`, as UTC text.
fn runs(expr: &str, zone: &str, from: &str, count: usize) -> Vec<String> {
    let cron = parse_cron(expr).unwrap();
    let tz = TimeZone::get(zone).unwrap();
    let mut at = ts(from);
    let mut out = Vec::new();
    for _ in 0..count {
        at = next_cron(&cron, at, &tz).unwrap();
        out.push(at.to_string());
    }
    out
}

#[test]
fn a_daily_job_keeps_its_wall_time_across_both_dst_changes_in_new_york() {
    // 2026-03-08: 02:00 EST -> 03:00 EDT; 2026-11-01: 02:00 EDT -> 01:00 EST.
    assert_eq!(
        runs("0 9 * * *", "America/New_York", "2026-03-07T14:00:00Z", 2),
        ["2026-03-08T13:00:00Z", "2026-03-09T13:00:00Z"]
    );
    assert_eq!(
        runs("0 9 * * *", "America/New_York", "2026-10-31T13:00:00Z", 2),
        ["2026-11-01T14:00:00Z", "2026-11-02T14:00:00Z"]
    );
}

#[test]
fn a_daily_job_keeps_its_wall_time_across_both_dst_changes_in_berlin() {
    // 2026-03-29: 02:00 CET -> 03:00 CEST; 2026-10-25: 03:00 CEST -> 02:00 CET.
    assert_eq!(
        runs("0 9 * * *", "Europe/Berlin", "2026-03-28T08:00:00Z", 2),
        ["2026-03-29T07:00:00Z", "2026-03-30T07:00:00Z"]
    );
    assert_eq!(
        runs("0 9 * * *", "Europe/Berlin", "2026-10-24T07:00:00Z", 2),
        ["2026-10-25T08:00:00Z", "2026-10-26T08:00:00Z"]
    );
}

#[test]
fn a_time_skipped_by_spring_forward_runs_once_at_the_end_of_the_gap() {
    assert_eq!(
        runs("30 2 * * *", "America/New_York", "2026-03-07T07:30:00Z", 3),
        // 02:30 EST on the 7th was 07:30Z; on the 8th 02:30 does not exist: 03:00 EDT.
        [
            "2026-03-08T07:00:00Z",
            "2026-03-09T06:30:00Z",
            "2026-03-10T06:30:00Z"
        ]
    );
    assert_eq!(
        runs("30 2 * * *", "Europe/Berlin", "2026-03-28T01:30:00Z", 2),
        ["2026-03-29T01:00:00Z", "2026-03-30T00:30:00Z"]
    );
    // Every 15 minutes through the gap: 01:45 EST, then 03:00 EDT once, then 03:15.
    assert_eq!(
        runs(
            "*/15 * * * *",
            "America/New_York",
            "2026-03-08T06:30:00Z",
            3
        ),
        [
            "2026-03-08T06:45:00Z",
            "2026-03-08T07:00:00Z",
            "2026-03-08T07:15:00Z"
        ]
    );
}

#[test]
fn a_time_repeated_by_fall_back_runs_once_unless_the_hour_is_a_wildcard() {
    // 01:30 happens at 05:30Z (EDT) and 06:30Z (EST) on 2026-11-01.
    assert_eq!(
        runs("30 1 * * *", "America/New_York", "2026-10-31T05:30:00Z", 2),
        ["2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"]
    );
    // Berlin's 02:30 happens at 00:30Z (CEST) and 01:30Z (CET) on 2026-10-25.
    assert_eq!(
        runs("30 2 * * *", "Europe/Berlin", "2026-10-24T00:30:00Z", 2),
        ["2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"]
    );
    // Hourly at :30 runs in both 01:00 hours, in instant order.
    assert_eq!(
        runs("30 * * * *", "America/New_York", "2026-11-01T04:45:00Z", 3),
        [
            "2026-11-01T05:30:00Z",
            "2026-11-01T06:30:00Z",
            "2026-11-01T07:30:00Z"
        ]
    );
}

#[test]
fn intervals_are_elapsed_time_and_ignore_dst() {
    let zone = CronZone::named("America/New_York").unwrap();
    let Value::Object(schedule) = json!({"kind": "interval", "minutes": 60}) else {
        unreachable!()
    };
    let next = compute_next_run(
        &schedule,
        Some("2026-03-08T01:30:00-05:00"),
        ts("2026-03-08T06:31:00Z"),
        &zone,
    );
    assert_eq!(next.as_deref(), Some("2026-03-08T03:30:00-04:00"));
    let first = compute_next_run(&schedule, None, ts("2026-03-08T06:31:00Z"), &zone);
    assert_eq!(first.as_deref(), Some("2026-03-08T03:31:00-04:00"));
}

#[test]
fn cron_next_runs_are_written_in_the_jobs_own_zone() {
    let configured = CronZone::named("UTC").unwrap();
    let schedule = cron_schedule("0 9 * * *", "Asia/Tokyo");
    let next = compute_next_run(&schedule, None, ts("2026-06-01T01:00:00Z"), &configured);
    assert_eq!(next.as_deref(), Some("2026-06-02T09:00:00+09:00"));
    // Without a recorded zone the configured one is used (Python Hermes's behaviour).
    let mut plain = schedule;
    plain.remove("timezone");
    let next = compute_next_run(&plain, None, ts("2026-06-01T01:00:00Z"), &configured);
    assert_eq!(next.as_deref(), Some("2026-06-01T09:00:00+00:00"));
}

#[test]
fn one_shots_have_a_next_run_only_until_run_and_within_grace() {
    let zone = CronZone::utc();
    let Value::Object(schedule) = json!({"kind": "once", "run_at": "2026-06-01T10:00:00+00:00"})
    else {
        unreachable!()
    };
    let at = |t: &str| compute_next_run(&schedule, None, ts(t), &zone);
    assert_eq!(
        at("2026-06-01T09:00:00Z").as_deref(),
        Some("2026-06-01T10:00:00+00:00")
    );
    assert_eq!(
        at("2026-06-01T10:02:00Z").as_deref(),
        Some("2026-06-01T10:00:00+00:00")
    );
    assert_eq!(at("2026-06-01T10:02:01Z"), None);
    let ran = compute_next_run(
        &schedule,
        Some("2026-06-01T10:00:05+00:00"),
        ts("2026-06-01T10:00:06Z"),
        &zone,
    );
    assert_eq!(ran, None);
}

#[test]
fn grace_is_half_the_period_clamped_to_two_minutes_and_two_hours() {
    let zone = CronZone::utc();
    let now = ts("2026-06-01T10:00:00Z");
    let interval = |m: i64| match json!({"kind": "interval", "minutes": m}) {
        Value::Object(map) => map,
        _ => unreachable!(),
    };
    assert_eq!(grace_seconds(&interval(1), now, &zone), 120);
    assert_eq!(grace_seconds(&interval(10), now, &zone), 300);
    assert_eq!(grace_seconds(&interval(1440), now, &zone), 7200);
    assert_eq!(
        grace_seconds(&cron_schedule("0 * * * *", "UTC"), now, &zone),
        1800
    );
    assert_eq!(
        grace_seconds(&cron_schedule("0 9 * * *", "UTC"), now, &zone),
        7200
    );
    assert_eq!(grace_seconds(&Map::new(), now, &zone), 120);
}

#[test]
fn schedules_read_in_words() {
    let zone = CronZone::named("Europe/Berlin").unwrap();
    let Value::Object(interval) = json!({"kind": "interval", "minutes": 120}) else {
        unreachable!()
    };
    assert_eq!(describe(&interval, &zone), "every 2 hours");
    let words = describe(&cron_schedule("0 9 * * 1-5", "Europe/Berlin"), &zone);
    assert!(words.contains("09:00") || words.contains("9:00"), "{words}");
    let elsewhere = describe(&cron_schedule("0 9 * * *", "Asia/Tokyo"), &zone);
    assert!(elsewhere.ends_with("(Asia/Tokyo)"), "{elsewhere}");
}
