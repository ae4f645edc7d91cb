//! `--changed-within` / `--changed-before`: a duration back from now, or a point in time.

use anyhow::{anyhow, Result};
use jiff::civil::{DateTime, Time};
use jiff::fmt::temporal::Pieces;
use jiff::{tz::TimeZone, Span, Timestamp, Zoned};

/// One modification-time constraint, as nanoseconds since the Unix epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeFilter {
    /// Modified strictly before this instant.
    Before(i128),
    /// Modified strictly after this instant.
    After(i128),
}

/// Reads "2weeks", "1d 2h", "2024-06-01", "2024-06-01 12:00:00", an RFC 3339 timestamp or
/// "@SECONDS" into an instant (nanoseconds since the epoch), durations counted back from `now`.
///
/// Never panics, and every date jiff can write (years -9999 to 9999) is accepted, the last day
/// included: `9999-12-31` lies beyond jiff's `Timestamp` (which stops a day short so that every
/// instant has a civil time in every zone), so dates are computed from civil time and an offset
/// in `i128` nanoseconds. A duration reaching beyond the range means the range's end.
pub fn parse_instant(s: &str, now: &Zoned) -> Result<i128> {
    let err = || {
        anyhow!(
            "'{s}' is neither a duration (such as 10min, 2weeks, 1d 2h) nor a date \
             (such as 2024-06-01, 2024-06-01 12:00:00 or @1717200000)"
        )
    };
    if let Ok(span) = s.parse::<Span>() {
        return Ok(match now.checked_sub(span) {
            Ok(then) => then.timestamp().as_nanosecond(),
            Err(_) if span.is_negative() => Timestamp::MAX.as_nanosecond(),
            Err(_) => Timestamp::MIN.as_nanosecond(),
        });
    }
    if let Ok(ts) = s.parse::<Timestamp>() {
        return Ok(ts.as_nanosecond());
    }
    if let Ok(pieces) = Pieces::parse(s) {
        let dt = pieces
            .date()
            .to_datetime(pieces.time().unwrap_or(Time::midnight()));
        let offset = match pieces.offset() {
            Some(offset) => offset.to_numeric_offset(),
            None => {
                let tz = TimeZone::system();
                if let Ok(zoned) = tz.to_ambiguous_zoned(dt).later() {
                    return Ok(zoned.timestamp().as_nanosecond());
                }
                // Beyond Timestamp's range: the zone's offset at that end of it.
                let end = if dt.year() > 0 {
                    Timestamp::MAX
                } else {
                    Timestamp::MIN
                };
                tz.to_offset(end)
            }
        };
        return Ok(civil_nanos(dt) - i128::from(offset.seconds()) * NANOS);
    }
    let secs: i64 = s
        .strip_prefix('@')
        .and_then(|n| n.parse().ok())
        .ok_or_else(err)?;
    Ok(i128::from(secs) * NANOS)
}

const NANOS: i128 = 1_000_000_000;

/// Nanoseconds from 1970-01-01T00:00:00 to a civil time, as if it were UTC (civil arithmetic
/// covers all of -9999..=9999).
fn civil_nanos(dt: DateTime) -> i128 {
    let since = dt.duration_since(DateTime::constant(1970, 1, 1, 0, 0, 0, 0));
    i128::from(since.as_secs()) * NANOS + i128::from(since.subsec_nanos())
}

impl TimeFilter {
    /// Whether a modification time (seconds and nanoseconds since the epoch) passes.
    pub fn applies_to(&self, secs: i64, nsec: i64) -> bool {
        let t = i128::from(secs) * NANOS + i128::from(nsec);
        match *self {
            TimeFilter::Before(limit) => t < limit,
            TimeFilter::After(limit) => t > limit,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> Zoned {
        "2024-06-15T12:00:00+00:00[UTC]".parse().unwrap()
    }

    #[test]
    fn durations_count_back_from_now() {
        let n = now();
        let base = n.timestamp().as_nanosecond();
        let day = 86_400 * 1_000_000_000i128;
        assert_eq!(parse_instant("1d", &n).unwrap(), base - day);
        assert_eq!(parse_instant("2weeks", &n).unwrap(), base - 14 * day);
        assert_eq!(
            parse_instant("1d 2h", &n).unwrap(),
            base - day - 2 * 3600 * 1_000_000_000
        );
    }

    #[test]
    fn dates_and_epoch_seconds() {
        let n = now();
        assert_eq!(
            parse_instant("@1717200000", &n).unwrap(),
            1_717_200_000 * 1_000_000_000
        );
        assert_eq!(
            parse_instant("2024-06-01T00:00:00Z", &n).unwrap(),
            1_717_200_000 * 1_000_000_000
        );
        assert!(parse_instant("2024-06-01", &n).is_ok());
        assert!(parse_instant("2024-06-01 10:00:00", &n).is_ok());
        assert!(parse_instant("yesterday-ish", &n).is_err());
    }

    #[test]
    fn bounds_are_strict() {
        let f = TimeFilter::After(10_000_000_000);
        assert!(f.applies_to(10, 1));
        assert!(!f.applies_to(10, 0));
        assert!(TimeFilter::Before(10_000_000_000).applies_to(9, 999_999_999));
    }

    #[test]
    fn the_last_and_first_days_jiff_can_write_are_dates() {
        let n = now();
        // 9999-12-31T00:00:00Z is 253402214400 s after the epoch.
        assert_eq!(
            parse_instant("9999-12-31T00:00:00Z", &n).unwrap(),
            253_402_214_400 * NANOS
        );
        assert_eq!(
            parse_instant("9999-12-31T23:59:59Z", &n).unwrap(),
            253_402_300_799 * NANOS
        );
        assert!(parse_instant("9999-12-31", &n).is_ok());
        assert!(parse_instant("9999-12-31 23:59:59", &n).is_ok());
        // -9999-01-01T00:00:00Z is 377705116800 s before the epoch.
        assert_eq!(
            parse_instant("-009999-01-01T00:00:00Z", &n).unwrap(),
            -377_705_116_800 * NANOS
        );
        assert!(parse_instant("-009999-01-01", &n).is_ok());
    }

    #[test]
    fn a_duration_beyond_the_range_means_its_end() {
        let n = now();
        assert_eq!(
            parse_instant("19000y", &n).unwrap(),
            Timestamp::MIN.as_nanosecond()
        );
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_read_or_refused_by_name(s in "\\PC{0,40}") {
            let quoted = format!("'{}'", s);
            if let Err(e) = parse_instant(&s, &now()) {
                proptest::prop_assert!(e.to_string().contains(&quoted));
            }
        }

        #[test]
        fn date_like_text_never_panics(s in "[-+@0-9:TZ .a-z]{0,30}") {
            let _ = parse_instant(&s, &now());
        }

        #[test]
        fn epoch_seconds_round_trip(secs in proptest::num::i64::ANY) {
            proptest::prop_assert_eq!(
                parse_instant(&format!("@{secs}"), &now()).unwrap(),
                i128::from(secs) * NANOS
            );
        }

        #[test]
        fn utc_dates_round_trip(y in 1i16..=9999, m in 1i8..=12, d in 1i8..=28,
                                h in 0i8..24, mi in 0i8..60, sec in 0i8..60) {
            let text = format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{sec:02}Z");
            let want = civil_nanos(DateTime::constant(y, m, d, h, mi, sec, 0));
            proptest::prop_assert_eq!(parse_instant(&text, &now()).unwrap(), want);
            // Through jiff's own Timestamp where it reaches.
            if let Ok(ts) = text.parse::<Timestamp>() {
                proptest::prop_assert_eq!(ts.as_nanosecond(), want);
            }
        }

        #[test]
        fn days_count_back_from_now(days in 0i64..3_000_000) {
            let n = now();
            let got = parse_instant(&format!("{days}d"), &n).unwrap();
            let want = i128::from(n.timestamp().as_second() - days * 86_400) * NANOS;
            proptest::prop_assert_eq!(got, want.max(Timestamp::MIN.as_nanosecond()));
        }
    }
}
