//! Durations for people, as hyperfine writes them: µs below a millisecond, ms below a second,
//! s above, with one decimal (three for seconds). A table or chart uses one unit throughout.

/// A unit for showing durations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Microseconds.
    MicroSecond,
    /// Milliseconds.
    MilliSecond,
    /// Seconds.
    Second,
}

impl Unit {
    /// The unit hyperfine would pick for this many seconds.
    pub fn for_seconds(seconds: f64) -> Unit {
        if seconds < 0.001 {
            Unit::MicroSecond
        } else if seconds < 1.0 {
            Unit::MilliSecond
        } else {
            Unit::Second
        }
    }

    /// The symbol: "µs", "ms" or "s".
    pub fn short_name(self) -> &'static str {
        match self {
            Unit::MicroSecond => "µs",
            Unit::MilliSecond => "ms",
            Unit::Second => "s",
        }
    }

    /// How many of this unit a second holds.
    pub fn per_second(self) -> f64 {
        match self {
            Unit::MicroSecond => 1e6,
            Unit::MilliSecond => 1e3,
            Unit::Second => 1.0,
        }
    }

    /// The number alone, in this unit ("10.8").
    pub fn value(self, seconds: f64) -> String {
        let v = seconds * self.per_second();
        match self {
            Unit::Second => format!("{v:.3}"),
            Unit::MilliSecond | Unit::MicroSecond => format!("{v:.1}"),
        }
    }

    /// The number and the symbol ("10.8 ms").
    pub fn format(self, seconds: f64) -> String {
        format!("{} {}", self.value(seconds), self.short_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_hyperfine() {
        // hyperfine's test_format_duration_unit_basic and _with_unit.
        assert_eq!(Unit::for_seconds(1.3).format(1.3), "1.300 s");
        assert_eq!(Unit::for_seconds(0.999).format(0.999), "999.0 ms");
        assert_eq!(Unit::for_seconds(0.0005).format(0.0005), "500.0 µs");
        assert_eq!(Unit::for_seconds(0.0).format(0.0), "0.0 µs");
        assert_eq!(Unit::MilliSecond.format(1.3), "1300.0 ms");
        assert_eq!(Unit::Second.value(1000.0), "1000.000");
    }
}
