//! The few statistics `ffind --bench` reports, on plain slices of seconds.
//!
//! The same definitions as hyperfine's: the *sample* standard deviation (divided by n − 1, so
//! absent for a single run), and the median as the mean of the two middle values of an even
//! count. Nothing here knows about processes or formats.

/// The arithmetic mean (0 for no values).
pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.iter().sum::<f64>() / values.len() as f64
}

/// The sample standard deviation, or `None` with fewer than two values.
pub fn stddev(values: &[f64]) -> Option<f64> {
    if values.len() < 2 {
        return None;
    }
    let m = mean(values);
    let squares: f64 = values.iter().map(|v| (v - m) * (v - m)).sum();
    Some((squares / (values.len() - 1) as f64).sqrt())
}

/// The median (0 for no values).
pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len().is_multiple_of(2) {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    } else {
        sorted[mid]
    }
}

/// The smallest value (0 for no values).
pub fn min(values: &[f64]) -> f64 {
    values.iter().copied().reduce(f64::min).unwrap_or(0.0)
}

/// The largest value (0 for no values).
pub fn max(values: &[f64]) -> f64 {
    values.iter().copied().reduce(f64::max).unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn mean_of_known_numbers() {
        assert!(close(mean(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]), 5.0));
        assert_eq!(mean(&[]), 0.0);
    }

    #[test]
    fn stddev_is_the_sample_one() {
        // Sum of squared deviations is 32 over 8 values: population σ = 2, sample σ = √(32/7).
        let s = stddev(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert!(close(s, (32.0f64 / 7.0).sqrt()), "{s}");
        // hyperfine's own test data: 7, 8, 12 s has σ = √7.
        assert!(close(stddev(&[7.0, 8.0, 12.0]).unwrap(), 7.0f64.sqrt()));
        assert_eq!(stddev(&[1.0]), None);
        assert_eq!(stddev(&[3.0, 3.0]), Some(0.0));
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&[5.0]), 5.0);
    }

    #[test]
    fn min_and_max() {
        assert_eq!(min(&[0.3, 0.1, 0.2]), 0.1);
        assert_eq!(max(&[0.3, 0.1, 0.2]), 0.3);
        assert_eq!(min(&[]), 0.0);
    }
}
