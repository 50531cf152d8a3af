use serde_json::json;

use super::*;

fn job(value: Value) -> Job {
    match value {
        Value::Object(map) => Job::from_map(map),
        _ => unreachable!(),
    }
}

fn now() -> Timestamp {
    "2026-06-01T10:00:00Z".parse().unwrap()
}

#[test]
fn one_bad_record_does_not_stop_its_siblings() {
    let zone = CronZone::utc();
    let mut jobs = vec![
        job(json!({"job_id": "legacy1", "schedule": "nonsense", "next_run_at": 5})),
        job(
            json!({"id": "good", "schedule": {"kind": "interval", "minutes": 5},
                   "next_run_at": "2026-06-01T09:59:00+00:00", "last_run_at": "garbage"}),
        ),
    ];
    let scan = scan(&mut jobs, now(), &zone, "host:1", &|_| false);
    assert!(scan.changed);
    assert_eq!(jobs[0].id(), "legacy1");
    assert_eq!(jobs[0].get("schedule"), Some(&json!({})));
    assert!(jobs[0].get("next_run_at").is_none());
    assert!(jobs[1].get("last_run_at").is_none());
    assert_eq!(scan.due.len(), 1);
    assert_eq!(scan.due[0].id(), "good");
}

#[test]
fn a_missing_next_run_is_recovered_not_fired() {
    let zone = CronZone::utc();
    let mut jobs = vec![job(
        json!({"id": "a", "schedule": {"kind": "interval", "minutes": 30}}),
    )];
    let scan = scan(&mut jobs, now(), &zone, "host:1", &|_| false);
    assert!(scan.due.is_empty());
    assert_eq!(jobs[0].next_run_at(), Some("2026-06-01T10:30:00+00:00"));
}

#[test]
fn a_cron_time_written_in_another_zone_is_recomputed_not_fired_early() {
    // A Berlin 09:00 job whose next run was stored as 09:00 UTC (two hours late) or as the
    // UTC wall time of an older zone: fixed to the real 09:00 Berlin, not fired.
    let zone = CronZone::named("Europe/Berlin").unwrap();
    let mut jobs = vec![job(json!({
        "id": "a",
        "schedule": {"kind": "cron", "expr": "0 9 * * *", "timezone": "Europe/Berlin"},
        "next_run_at": "2026-06-01T09:00:00+00:00",
    }))];
    let at: Timestamp = "2026-06-01T09:30:00Z".parse().unwrap();
    let scan = scan(&mut jobs, at, &zone, "host:1", &|_| false);
    assert!(scan.due.is_empty(), "{:?}", scan.notes);
    assert_eq!(jobs[0].next_run_at(), Some("2026-06-02T09:00:00+02:00"));
}

#[test]
fn one_shots_are_claimed_and_a_fresh_claim_is_respected() {
    let zone = CronZone::utc();
    let mut jobs = vec![job(json!({
        "id": "a", "schedule": {"kind": "once", "run_at": "2026-06-01T09:59:00+00:00"},
        "next_run_at": "2026-06-01T09:59:00+00:00", "repeat": {"times": 1, "completed": 0},
    }))];
    let first = scan(&mut jobs, now(), &zone, "host:1", &|_| false);
    assert_eq!(first.due.len(), 1);
    assert_eq!(jobs[0].get("run_claim").unwrap()["by"], "host:1");
    let second = scan(&mut jobs, now(), &zone, "host:2", &|_| false);
    assert!(
        second.due.is_empty(),
        "a claimed one-shot was handed out twice"
    );
}

#[test]
fn a_spent_one_shot_is_removed_unless_it_still_runs_here() {
    let zone = CronZone::utc();
    let spent = || {
        vec![job(json!({
            "id": "a", "schedule": {"kind": "once", "run_at": "2026-06-01T09:59:00+00:00"},
            "next_run_at": "2026-06-01T09:59:00+00:00", "repeat": {"times": 1, "completed": 1},
        }))]
    };
    let mut jobs = spent();
    scan(&mut jobs, now(), &zone, "h:1", &|id| id == "a");
    assert_eq!(jobs.len(), 1);
    let mut jobs = spent();
    scan(&mut jobs, now(), &zone, "h:1", &|_| false);
    assert!(jobs.is_empty());
}
