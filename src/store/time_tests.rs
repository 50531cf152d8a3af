use super::*;

#[test]
fn formats_known_instants() {
    assert_eq!(format_utc(0.0), "1970-01-01 00:00");
    // 2024-02-29 12:34:56 UTC
    assert_eq!(format_utc(1_709_210_096.0), "2024-02-29 12:34");
    assert_eq!(format_date(1_709_210_096.5), "2024-02-29");
    assert_eq!(format_utc(f64::NAN), "?");
    assert_eq!(format_utc(-5.0), "?");
}
