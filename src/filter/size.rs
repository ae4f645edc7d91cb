//! `-S/--size`: fd's size syntax (`+1M`, `-10k`, `500b`; decimal and binary units).

use anyhow::{bail, Result};

/// One size constraint; a file passes when it is within every one given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeFilter {
    /// `+N`: at least N bytes.
    Min(u64),
    /// `-N`: at most N bytes.
    Max(u64),
    /// `N`: exactly N bytes.
    Equals(u64),
}

fn unit_bytes(unit: &str) -> Option<u64> {
    Some(match unit {
        "b" => 1,
        "k" | "kb" => 1000,
        "ki" | "kib" => 1024,
        "m" | "mb" => 1000u64.pow(2),
        "mi" | "mib" => 1024u64.pow(2),
        "g" | "gb" => 1000u64.pow(3),
        "gi" | "gib" => 1024u64.pow(3),
        "t" | "tb" => 1000u64.pow(4),
        "ti" | "tib" => 1024u64.pow(4),
        _ => return None,
    })
}

impl SizeFilter {
    /// Parses `[+-]NUMBER UNIT`, the unit case-insensitive, as fd does.
    pub fn parse(s: &str) -> Result<SizeFilter> {
        let lower = s.to_ascii_lowercase();
        let (sign, rest) = match lower.as_bytes().first() {
            Some(b'+') => (Some('+'), &lower[1..]),
            Some(b'-') => (Some('-'), &lower[1..]),
            _ => (None, &lower[..]),
        };
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (num, unit) = rest.split_at(digits);
        let Some(mult) = unit_bytes(unit).filter(|_| !num.is_empty()) else {
            bail!("'{s}' is not a valid size: use [+-]NUMBER followed by b, k, m, g, t, ki, mi, gi or ti (e.g. +1M, -10k, 500b)");
        };
        // Only digits are left, so the one way to fail is a number past u64.
        let Some(bytes) = num.parse::<u64>().ok().and_then(|n| n.checked_mul(mult)) else {
            bail!("'{s}' is too large a size")
        };
        Ok(match sign {
            Some('+') => SizeFilter::Min(bytes),
            Some(_) => SizeFilter::Max(bytes),
            None => SizeFilter::Equals(bytes),
        })
    }

    /// Whether a file of `size` bytes passes.
    pub fn is_within(&self, size: u64) -> bool {
        match *self {
            SizeFilter::Min(n) => size >= n,
            SizeFilter::Max(n) => size <= n,
            SizeFilter::Equals(n) => size == n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_fd_units() {
        assert_eq!(
            SizeFilter::parse("+1M").unwrap(),
            SizeFilter::Min(1_000_000)
        );
        assert_eq!(SizeFilter::parse("-10k").unwrap(), SizeFilter::Max(10_000));
        assert_eq!(SizeFilter::parse("500b").unwrap(), SizeFilter::Equals(500));
        assert_eq!(SizeFilter::parse("+2Ki").unwrap(), SizeFilter::Min(2048));
        assert_eq!(
            SizeFilter::parse("1gib").unwrap(),
            SizeFilter::Equals(1 << 30)
        );
        assert!(SizeFilter::parse("10").is_err());
        assert!(SizeFilter::parse("+1x").is_err());
        assert!(SizeFilter::parse("k").is_err());
    }

    #[test]
    fn bounds_are_inclusive() {
        assert!(SizeFilter::Min(10).is_within(10));
        assert!(!SizeFilter::Min(10).is_within(9));
        assert!(SizeFilter::Max(10).is_within(10));
        assert!(!SizeFilter::Max(10).is_within(11));
        assert!(SizeFilter::Equals(0).is_within(0));
    }

    #[test]
    fn a_number_past_u64_is_too_large_not_malformed() {
        let e = SizeFilter::parse("+99999999999999999999k").unwrap_err();
        assert_eq!(
            e.to_string(),
            "'+99999999999999999999k' is too large a size"
        );
    }

    const UNITS: [(&str, u64); 17] = [
        ("b", 1),
        ("k", 1000),
        ("kb", 1000),
        ("ki", 1024),
        ("kib", 1024),
        ("m", 1_000_000),
        ("mb", 1_000_000),
        ("mi", 1 << 20),
        ("mib", 1 << 20),
        ("g", 1_000_000_000),
        ("gb", 1_000_000_000),
        ("gi", 1 << 30),
        ("gib", 1 << 30),
        ("t", 1_000_000_000_000),
        ("tb", 1_000_000_000_000),
        ("ti", 1 << 40),
        ("tib", 1 << 40),
    ];

    proptest::proptest! {
        #[test]
        fn any_text_is_read_or_refused_by_name(s in "\\PC{0,24}") {
            let quoted = format!("'{}'", s);
            if let Err(e) = SizeFilter::parse(&s) {
                proptest::prop_assert!(e.to_string().starts_with(&quoted));
            }
        }

        #[test]
        fn size_like_text_never_panics(s in "[-+]?[0-9]{0,25}[kmgtib]{0,4}") {
            let _ = SizeFilter::parse(&s);
        }

        #[test]
        fn valid_sizes_round_trip(sign in 0usize..3, n in proptest::num::u64::ANY,
                                  unit in 0usize..UNITS.len(), upper in proptest::bool::ANY) {
            let (name, mult) = UNITS[unit];
            let name = if upper { name.to_ascii_uppercase() } else { name.to_owned() };
            let text = format!("{}{n}{name}", ["", "+", "-"][sign]);
            match n.checked_mul(mult) {
                Some(bytes) => {
                    let want = [SizeFilter::Equals(bytes), SizeFilter::Min(bytes),
                                SizeFilter::Max(bytes)][sign];
                    proptest::prop_assert_eq!(SizeFilter::parse(&text).unwrap(), want);
                }
                None => proptest::prop_assert!(SizeFilter::parse(&text).is_err()),
            }
        }
    }
}
