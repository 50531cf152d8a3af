use super::*;

#[test]
fn environment_wins_over_config_and_bad_names_fall_back_with_a_reason() {
    let zone = CronZone::resolve(Some("Europe/Berlin"), Some("America/New_York"));
    assert_eq!(zone.name, "Europe/Berlin");
    assert!(zone.warning.is_none());
    let zone = CronZone::resolve(None, Some("America/New_York"));
    assert_eq!(zone.name, "America/New_York");
    let zone = CronZone::resolve(None, Some("Mars/Olympus"));
    assert!(
        zone.warning.as_deref().unwrap().contains("Mars/Olympus"),
        "{zone:?}"
    );
}

#[test]
fn iso_text_is_pythons_isoformat() {
    let zone = CronZone::named("America/New_York").unwrap();
    let at: Timestamp = "2026-03-15T13:00:00Z".parse().unwrap();
    assert_eq!(zone.iso(at), "2026-03-15T09:00:00-04:00");
    let at: Timestamp = "2026-01-15T14:00:00.25Z".parse().unwrap();
    assert_eq!(zone.iso(at), "2026-01-15T09:00:00.250000-05:00");
}

#[test]
fn stored_times_parse_with_offsets_and_naive_ones_in_the_zone() {
    let zone = CronZone::named("Europe/Berlin").unwrap();
    let want: Timestamp = "2026-07-01T07:00:00Z".parse().unwrap();
    assert_eq!(zone.parse("2026-07-01T09:00:00+02:00"), Some(want));
    assert_eq!(zone.parse("2026-07-01T09:00:00"), Some(want));
    assert_eq!(zone.parse("2026-07-01 09:00"), Some(want));
    assert_eq!(zone.parse("2026-07-01T07:00:00Z"), Some(want));
    assert_eq!(
        zone.parse("2026-07-01T09:00:00.123456+02:00")
            .map(jiff::Timestamp::as_second),
        Some(want.as_second())
    );
    assert_eq!(zone.parse("not a time"), None);
    assert_eq!(zone.parse(""), None);
}
