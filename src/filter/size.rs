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
        let (Ok(n), Some(mult)) = (num.parse::<u64>(), unit_bytes(unit)) else {
            bail!("'{s}' is not a valid size: use [+-]NUMBER followed by b, k, m, g, t, ki, mi, gi or ti (e.g. +1M, -10k, 500b)");
        };
        let Some(bytes) = n.checked_mul(mult) else {
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
}
