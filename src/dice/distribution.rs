//! The exact distribution of a [`Dice`]: counts of ways by integer convolution when they fit a `u128`,
//! probabilities in `f64` that keep the far tails when they do not, so that Monte Carlo results can be
//! checked against the truth.

use super::Dice;

impl Dice {
    /// The exact distribution, so that simulated frequencies can be checked against the truth and
    /// an enumerator can weigh outcomes without sampling.
    ///
    /// Returns `(value, probability)` ascending by value, every value from [`Dice::min`] to
    /// [`Dice::max`] present. The probabilities come from exact integer convolution of counts
    /// (`u128`) when `sides^count` fits, and otherwise from a convolution in `f64` that keeps
    /// relative precision in the far tails; either way they sum to 1 within 1e-12.
    pub fn distribution(&self) -> Vec<(i32, f64)> {
        let min = self.min();
        match self.counts() {
            Some(counts) => {
                // `counts` is `Some`, so the total fits; one rounding to f64 here, one per division.
                let total = u128::from(self.sides()).pow(self.count()) as f64;
                counts
                    .into_iter()
                    .map(|(value, ways)| (value, ways as f64 / total))
                    .collect()
            }
            None => float_probabilities(self.count(), self.sides())
                .into_iter()
                .zip(min..)
                .map(|(probability, value)| (value, probability))
                .collect(),
        }
    }

    /// The exact number of ways to roll each value, `(value, ways)` ascending from [`Dice::min`] to
    /// [`Dice::max`], with the ways adding up to `sides^count`; `None` when `sides^count` does not
    /// fit in a `u128` (for example 100d1000), where only [`Dice::distribution`] is available.
    ///
    /// Integer counts let tests and enumerators compare outcomes exactly, with no rounding.
    pub fn counts(&self) -> Option<Vec<(i32, u128)>> {
        let ways = exact_counts(self.count(), self.sides())?;
        Some((self.min()..).zip(ways).collect())
    }
}

/// Ways to roll each sum of `count` dice with `sides` sides, indexed from the minimum (`count`),
/// by repeated convolution with a sliding window; `None` when `sides^count` overflows `u128`.
/// Every intermediate count is at most `sides^k <= sides^count`, so nothing overflows.
fn exact_counts(count: u32, sides: u32) -> Option<Vec<u128>> {
    u128::from(sides).checked_pow(count)?;
    let sides = sides as usize;
    let mut current = vec![1u128; sides];
    for _ in 1..count {
        let len = current.len() + sides - 1;
        let mut next = Vec::with_capacity(len);
        let mut window = 0u128;
        for j in 0..len {
            if let Some(&entering) = current.get(j) {
                window += entering;
            }
            if j >= sides {
                window -= current[j - sides];
            }
            next.push(window);
        }
        current = next;
    }
    Some(current)
}

/// Probability of each sum of `count` dice with `sides` sides, indexed from the minimum, for dice
/// whose exact counts overflow `u128`.
///
/// Each step convolves with one die by a sliding window over the left half only and mirrors it:
/// every partial distribution is symmetric and rises over its left half, so the window's running
/// sum never cancels against much larger terms and even the far tails (down to 1e-300 for
/// 100d1000) keep their relative precision. Values are probabilities throughout, so nothing can
/// overflow.
fn float_probabilities(count: u32, sides: u32) -> Vec<f64> {
    let step = 1.0 / f64::from(sides);
    let sides = sides as usize;
    let mut current = vec![step; sides];
    for _ in 1..count {
        let len = current.len() + sides - 1;
        let half = (len - 1) / 2;
        let mut next = vec![0.0; len];
        let mut window = 0.0;
        for j in 0..=half {
            // `half < current.len()` because `current.len() >= sides`.
            window += current[j];
            if j >= sides {
                window -= current[j - sides];
            }
            next[j] = window * step;
        }
        for j in half + 1..len {
            next[j] = next[len - 1 - j];
        }
        current = next;
    }
    current
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::tests::dice;

    // ---- statistics -----------------------------------------------------------------------------

    #[test]
    fn min_max_and_mean() {
        let cases = [
            ("1d8", 1, 8, 4.5),
            ("2d4+2", 4, 10, 7.0),
            ("1d6-1", 0, 5, 2.5),
            ("3d6", 3, 18, 10.5),
            ("1d20", 1, 20, 10.5),
            ("1d1", 1, 1, 1.0),
            ("1d4-5", -4, -1, -2.5),
            ("100d1000+10000", 10_100, 110_000, 60_050.0),
            ("100d1000-10000", -9_900, 90_000, 40_050.0),
        ];
        for (text, min, max, mean) in cases {
            let d = dice(text);
            assert_eq!((d.min(), d.max(), d.mean()), (min, max, mean), "{text}");
        }
    }

    #[test]
    fn distribution_of_two_d_four_plus_two_is_exact() {
        let expected: Vec<(i32, f64)> = (4..=10)
            .zip([1.0, 2.0, 3.0, 4.0, 3.0, 2.0, 1.0])
            .map(|(value, ways)| (value, ways / 16.0))
            .collect();
        assert_eq!(dice("2d4+2").distribution(), expected);
        assert_eq!(
            dice("2d4+2").counts(),
            Some((4..=10).zip([1, 2, 3, 4, 3, 2, 1]).collect())
        );
    }

    #[test]
    fn distribution_of_one_d_twenty_is_flat() {
        let expected: Vec<(i32, f64)> = (1..=20).map(|value| (value, 0.05)).collect();
        assert_eq!(dice("1d20").distribution(), expected);
    }

    #[test]
    fn counts_of_three_d_six_match_the_table() {
        let table = [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1];
        let expected: Vec<(i32, u128)> = (3..=18).zip(table).collect();
        assert_eq!(dice("3d6").counts(), Some(expected));
        let probabilities: Vec<(i32, f64)> = (3..=18)
            .zip(table)
            .map(|(value, ways)| (value, ways as f64 / 216.0))
            .collect();
        assert_eq!(dice("3d6").distribution(), probabilities);
    }

    #[test]
    fn counts_add_up_to_sides_to_the_power_of_count() {
        for text in ["1d1", "100d1", "5d7-3", "12d1000", "100d2", "49d6"] {
            let d = dice(text);
            let counts = d.counts().expect("fits in u128");
            let total: u128 = counts.iter().map(|(_, ways)| ways).sum();
            assert_eq!(total, u128::from(d.sides()).pow(d.count()), "{text}");
        }
    }

    #[test]
    fn counts_are_none_only_when_the_total_overflows_u128() {
        assert!(dice("12d1000").counts().is_some());
        assert!(dice("13d1000").counts().is_none());
        assert!(dice("49d6").counts().is_some());
        assert!(dice("50d6").counts().is_none());
        assert!(dice("100d1000").counts().is_none());
    }

    #[test]
    fn distributions_run_from_min_to_max_and_sum_to_one() {
        for text in [
            "1d1",
            "1d2",
            "1d20",
            "2d4+2",
            "3d6",
            "1d100",
            "4d6-4",
            "10d10",
            "12d1000",
            "13d1000",
            "50d6",
            "100d2",
            "100d6+10000",
            "37d999",
            "100d1000",
            "100d1000-10000",
        ] {
            let d = dice(text);
            let distribution = d.distribution();
            let values: Vec<i32> = distribution.iter().map(|(value, _)| *value).collect();
            assert_eq!(values, (d.min()..=d.max()).collect::<Vec<_>>(), "{text}");
            assert!(
                distribution.iter().all(|(_, p)| *p > 0.0 && *p <= 1.0),
                "{text}"
            );
            let sum: f64 = distribution.iter().map(|(_, p)| p).sum();
            assert!((sum - 1.0).abs() < 1e-12, "{text} sums to {sum}");
            let mean: f64 = distribution.iter().map(|(v, p)| f64::from(*v) * p).sum();
            assert!(
                (mean - d.mean()).abs() <= 1e-9 * d.mean().abs().max(1.0),
                "{text}"
            );
        }
    }

    #[test]
    fn float_path_matches_exact_counts() {
        for (count, sides) in [
            (1, 7),
            (2, 4),
            (3, 6),
            (12, 1000),
            (49, 6),
            (100, 2),
            (7, 333),
        ] {
            let exact = exact_counts(count, sides).expect("fits in u128");
            let total = f64::from(sides).powi(count as i32);
            let float = float_probabilities(count, sides);
            assert_eq!(exact.len(), float.len());
            for (ways, p) in exact.iter().zip(&float) {
                let truth = *ways as f64 / total;
                assert!(
                    (p - truth).abs() <= 1e-11 * truth,
                    "{count}d{sides}: {p} vs {truth}"
                );
            }
        }
    }

    #[test]
    fn float_path_keeps_the_far_tails() {
        let distribution = dice("100d1000").distribution();
        let (first, last) = (distribution[0], distribution[distribution.len() - 1]);
        assert_eq!((first.0, last.0), (100, 100_000));
        for p in [first.1, last.1] {
            assert!((p / 1e-300 - 1.0).abs() < 1e-10, "{p}");
        }
        // Two ways to roll 101: the second smallest value is 100 times the smallest.
        assert!((distribution[1].1 / first.1 - 100.0).abs() < 1e-9);
    }
}
