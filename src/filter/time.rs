//! `--changed-within` / `--changed-before`: a duration back from now, or a point in time.

use anyhow::{anyhow, Result};
use jiff::{civil::DateTime, tz::TimeZone, Span, Timestamp, Zoned};

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
pub fn parse_instant(s: &str, now: &Zoned) -> Result<i128> {
    let err = || {
        anyhow!(
            "'{s}' is neither a duration (such as 10min, 2weeks, 1d 2h) nor a date \
             (such as 2024-06-01, 2024-06-01 12:00:00 or @1717200000)"
        )
    };
    if let Ok(span) = s.parse::<Span>() {
        let then = now.checked_sub(span).map_err(|_| err())?;
        return Ok(then.timestamp().as_nanosecond());
    }
    if let Ok(ts) = s.parse::<Timestamp>() {
        return Ok(ts.as_nanosecond());
    }
    if let Ok(dt) = s.parse::<DateTime>() {
        let zoned = TimeZone::system()
            .to_ambiguous_zoned(dt)
            .later()
            .map_err(|_| err())?;
        return Ok(zoned.timestamp().as_nanosecond());
    }
    if let Ok(date) = s.parse::<jiff::civil::Date>() {
        let zoned = TimeZone::system()
            .to_ambiguous_zoned(date.to_datetime(jiff::civil::Time::midnight()))
            .later()
            .map_err(|_| err())?;
        return Ok(zoned.timestamp().as_nanosecond());
    }
    let secs: i64 = s
        .strip_prefix('@')
        .and_then(|n| n.parse().ok())
        .ok_or_else(err)?;
    Ok(i128::from(secs) * 1_000_000_000)
}

impl TimeFilter {
    /// Whether a modification time (seconds and nanoseconds since the epoch) passes.
    pub fn applies_to(&self, secs: i64, nsec: i64) -> bool {
        let t = i128::from(secs) * 1_000_000_000 + i128::from(nsec);
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
}
