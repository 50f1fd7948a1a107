//! Integer tallies that add: counters and histograms of whole-number outcomes.
//!
//! Everything a block of trials produces is an integer, so merging blocks is exact integer addition:
//! associative and commutative, hence identical on any number of threads and in any order. Floats appear
//! only once, when a point's merged tally is summarized.

use std::ops::AddAssign;

/// Counts of each whole-number value of one quantity (knockout rounds, damage, contest rolls). Serialized
/// into a shard's part file (src/study/shard.rs), which is why its integers are its whole state.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Histogram {
    /// The value counted by `counts[0]`.
    min: i64,
    counts: Vec<u64>,
}

/// Exact sums of a histogram, for means and sample variances without rounding error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Moments {
    /// How many values.
    pub n: u64,
    /// Their sum.
    pub sum: i128,
    /// The sum of their squares.
    pub sum_squares: u128,
}

impl Histogram {
    /// An empty histogram sized for values in `min..=max` (others still count, at the cost of a resize).
    pub fn with_range(min: i64, max: i64) -> Histogram {
        let len = usize::try_from(max - min + 1).unwrap_or(0).min(1 << 16);
        Histogram {
            min,
            counts: vec![0; len],
        }
    }

    /// Counts one value.
    #[inline]
    pub fn add(&mut self, value: i64) {
        let index = value.wrapping_sub(self.min) as u64 as usize;
        if let Some(slot) = self.counts.get_mut(index)
            && value >= self.min
        {
            *slot += 1;
        } else {
            self.add_outside(value, 1);
        }
    }

    #[cold]
    fn add_outside(&mut self, value: i64, count: u64) {
        if self.counts.is_empty() {
            self.min = value;
            self.counts.push(count);
            return;
        }
        if value < self.min {
            let shift = (self.min - value) as usize;
            let mut grown = vec![0; shift];
            grown.extend_from_slice(&self.counts);
            self.counts = grown;
            self.min = value;
        }
        let index = (value - self.min) as usize;
        if index >= self.counts.len() {
            self.counts.resize(index + 1, 0);
        }
        self.counts[index] += count;
    }

    /// How many values were counted.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// How many values it holds room for (an upper bound on its distinct values only when its range was).
    pub fn bins(&self) -> usize {
        self.counts.len()
    }

    /// The values seen, ascending, with their counts (values never seen are left out).
    pub fn iter(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(move |(i, c)| (self.min + i as i64, *c))
    }

    /// The same counts with every value passed through `f` (real and temporary parts of a damage total).
    pub fn map(&self, f: impl Fn(i64) -> i64) -> Histogram {
        let mut mapped = Histogram::default();
        for (value, count) in self.iter() {
            mapped.add_outside(f(value), count);
        }
        mapped
    }

    /// Exact sums for the mean and variance.
    pub fn moments(&self) -> Moments {
        let mut m = Moments::default();
        for (value, count) in self.iter() {
            m.n += count;
            m.sum += i128::from(value) * i128::from(count);
            m.sum_squares += (i128::from(value) * i128::from(value)) as u128 * u128::from(count);
        }
        m
    }
}

impl AddAssign<&Histogram> for Histogram {
    fn add_assign(&mut self, other: &Histogram) {
        for (value, count) in other.iter() {
            let index = value.wrapping_sub(self.min) as u64 as usize;
            match self.counts.get_mut(index) {
                Some(slot) if value >= self.min => *slot += count,
                _ => self.add_outside(value, count),
            }
        }
    }
}

/// How many counters and histograms a tally has: enough for every action's metrics.
pub const COUNTERS: usize = 9;
/// See [`COUNTERS`].
pub const HISTOGRAMS: usize = 4;

/// Everything a block of trials of one point produced. What each slot means is decided by the action's
/// metric table (`stats::metrics`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    /// Trials run.
    pub trials: u64,
    /// Event counters (hits, knockouts, ...).
    pub counts: [u64; COUNTERS],
    /// Histograms of whole-number quantities.
    pub hists: [Histogram; HISTOGRAMS],
}

impl AddAssign<&Tally> for Tally {
    fn add_assign(&mut self, other: &Tally) {
        self.trials += other.trials;
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
        for (a, b) in self.hists.iter_mut().zip(&other.hists) {
            *a += b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_outside_the_range_still_count() {
        let mut h = Histogram::with_range(2, 4);
        for v in [3, 2, 9, -1, 3] {
            h.add(v);
        }
        assert_eq!(
            h.iter().collect::<Vec<_>>(),
            [(-1, 1), (2, 1), (3, 2), (9, 1)]
        );
        assert_eq!(h.total(), 5);
        let mut empty = Histogram::default();
        empty.add(7);
        assert_eq!(empty.iter().collect::<Vec<_>>(), [(7, 1)]);
    }

    #[test]
    fn merging_is_the_same_in_any_order() {
        let mut a = Histogram::with_range(0, 3);
        let mut b = Histogram::with_range(5, 6);
        a.add(1);
        a.add(3);
        b.add(5);
        b.add(12);
        let mut ab = a.clone();
        ab += &b;
        let mut ba = b.clone();
        ba += &a;
        assert_eq!(ab.iter().collect::<Vec<_>>(), ba.iter().collect::<Vec<_>>());
        assert_eq!(ab.moments(), ba.moments());
    }

    #[test]
    fn moments_are_exact_sums() {
        let mut h = Histogram::default();
        for v in [2, 2, 5] {
            h.add(v);
        }
        assert_eq!(
            h.moments(),
            Moments {
                n: 3,
                sum: 9,
                sum_squares: 33
            }
        );
        assert_eq!(
            h.map(|v| v / 2).iter().collect::<Vec<_>>(),
            [(1, 2), (2, 1)]
        );
    }

    #[test]
    fn tallies_add_slot_by_slot() {
        let mut a = Tally {
            trials: 10,
            counts: [1, 2, 3, 4, 0, 7, 0, 2, 1],
            ..Tally::default()
        };
        a.hists[0].add(4);
        let mut b = Tally {
            trials: 5,
            counts: [1, 1, 1, 1, 0, 1, 1, 3, 0],
            ..Tally::default()
        };
        b.hists[0].add(4);
        b.hists[1].add(1);
        a += &b;
        assert_eq!((a.trials, a.counts), (15, [2, 3, 4, 5, 0, 8, 1, 5, 1]));
        assert_eq!(a.hists[0].iter().collect::<Vec<_>>(), [(4, 2)]);
        assert_eq!(a.hists[1].total(), 1);
    }
}
