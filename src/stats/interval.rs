//! Point estimates with confidence intervals: Wilson score intervals for probabilities, normal intervals
//! for means (docs/scenarios.md "summary.csv").
//!
//! statrs supplies only the normal quantile; its Beta quantile is unreliable at the trial counts subdual
//! runs (statrs#434), which is one more reason for Wilson over Clopper–Pearson.

use statrs::distribution::{ContinuousCDF, Normal};

use crate::stats::tally::Moments;

/// One summary number with its interval. `None` fields print as empty CSV cells.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The point estimate.
    pub estimate: Option<f64>,
    /// Lower end of the interval.
    pub ci_low: Option<f64>,
    /// Upper end of the interval.
    pub ci_high: Option<f64>,
    /// The standard error of the estimate.
    pub std_error: Option<f64>,
    /// The trials it rests on (for means, the trials where the quantity exists).
    pub trials: u64,
}

/// The two-sided normal quantile for `confidence` (1.959963984540054 at 0.95).
pub fn z_for(confidence: f64) -> f64 {
    let normal = Normal::standard();
    normal.inverse_cdf(1.0 - (1.0 - confidence) / 2.0)
}

/// A probability: estimate k/n, the Wilson score interval, std_error √(p(1−p)/n).
pub fn proportion(successes: u64, trials: u64, z: f64) -> Estimate {
    if trials == 0 {
        return Estimate::empty();
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Estimate {
        estimate: Some(p),
        // At k = 0 and k = n the exact bounds are 0 and 1; rounding would leave crumbs like 3e-17.
        ci_low: Some(if successes == 0 {
            0.0
        } else {
            (center - half).max(0.0)
        }),
        ci_high: Some(if successes == trials {
            1.0
        } else {
            (center + half).min(1.0)
        }),
        std_error: Some((p * (1.0 - p) / n).sqrt()),
        trials,
    }
}

/// A mean over the trials where the quantity exists: s the sample standard deviation (n − 1), std_error
/// s/√n, interval mean ± z·std_error. With no trial every number is empty; with one, only the estimate.
pub fn mean(m: Moments, z: f64) -> Estimate {
    if m.n == 0 {
        return Estimate::empty();
    }
    let n = m.n as f64;
    let mean = m.sum as f64 / n;
    if m.n == 1 {
        return Estimate {
            estimate: Some(mean),
            ci_low: None,
            ci_high: None,
            std_error: None,
            trials: 1,
        };
    }
    // n·Σx² − (Σx)² is exact in integers; only the final division is rounded.
    let spread = (i128::from(m.n) * m.sum_squares as i128 - m.sum * m.sum).max(0) as f64;
    let variance = spread / (n * (n - 1.0));
    let std_error = (variance / n).sqrt();
    Estimate {
        estimate: Some(mean),
        ci_low: Some(mean - z * std_error),
        ci_high: Some(mean + z * std_error),
        std_error: Some(std_error),
        trials: m.n,
    }
}

/// A quantity fixed by the matchup: the value, an interval of zero width, std_error 0.
pub fn fixed(value: i32, trials: u64) -> Estimate {
    let v = f64::from(value);
    Estimate {
        estimate: Some(v),
        ci_low: Some(v),
        ci_high: Some(v),
        std_error: Some(0.0),
        trials,
    }
}

impl Estimate {
    /// No number at all.
    pub fn empty() -> Estimate {
        Estimate {
            estimate: None,
            ci_low: None,
            ci_high: None,
            std_error: None,
            trials: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn z_at_95_percent_is_1_96() {
        assert!(close(z_for(0.95), 1.959963984540054, 1e-12));
        assert!(close(z_for(0.99), 2.5758293035489004, 1e-12));
    }

    #[test]
    fn wilson_matches_reference_values() {
        // Reference: Wilson score interval, 95 %, computed independently (e.g. R's prop.test without
        // continuity correction): 45/100 → [0.3561, 0.5475]; 0/10 → [0, 0.2775]; 10/10 → [0.7225, 1].
        let z = z_for(0.95);
        let e = proportion(45, 100, z);
        assert!(close(e.ci_low.unwrap(), 0.3561, 1e-4) && close(e.ci_high.unwrap(), 0.5475, 1e-4));
        assert!(close(
            e.std_error.unwrap(),
            (0.45f64 * 0.55 / 100.0).sqrt(),
            1e-15
        ));
        let e = proportion(0, 10, z);
        assert_eq!(e.ci_low, Some(0.0));
        assert!(close(e.ci_high.unwrap(), 0.2775, 1e-4));
        let e = proportion(10, 10, z);
        assert!(close(e.ci_low.unwrap(), 0.7225, 1e-4));
        assert_eq!(e.ci_high, Some(1.0));
        assert_eq!(proportion(0, 0, z), Estimate::empty());
    }

    #[test]
    fn means_use_the_sample_standard_deviation() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample variance 32/7.
        let m = Moments {
            n: 8,
            sum: 40,
            sum_squares: 232,
        };
        let e = mean(m, 2.0);
        let se = (32.0f64 / 7.0 / 8.0).sqrt();
        assert_eq!(e.estimate, Some(5.0));
        assert!(close(e.std_error.unwrap(), se, 1e-15));
        assert!(close(e.ci_low.unwrap(), 5.0 - 2.0 * se, 1e-12));
        assert_eq!(e.trials, 8);
        assert_eq!(mean(Moments::default(), 2.0), Estimate::empty());
        let one = mean(
            Moments {
                n: 1,
                sum: 3,
                sum_squares: 9,
            },
            2.0,
        );
        assert_eq!((one.estimate, one.std_error), (Some(3.0), None));
    }

    #[test]
    fn fixed_values_have_no_width() {
        let e = fixed(17, 1000);
        assert_eq!(
            (e.estimate, e.ci_low, e.ci_high, e.std_error),
            (Some(17.0), Some(17.0), Some(17.0), Some(0.0))
        );
    }
}
