//! Integer tallies that add: counters and histograms of whole-number outcomes.
//!
//! Everything a block of trials produces is an integer, so merging blocks is exact integer addition:
//! associative and commutative, hence identical on any number of threads and in any order. Floats appear
//! only once, when a point's merged tally is summarized.

use std::ops::AddAssign;

/// Counts of each whole-number value of one quantity (knockout rounds, damage, contest rolls). Serialized
/// into a shard's part file (src/study/shard.rs), which is why its integers are its whole state. Two
/// histograms are equal when they count the same values the same number of times, whatever room each
/// holds for values not seen ([`Histogram::trim`]).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Histogram {
    /// The value counted by `counts[0]`.
    min: i64,
    counts: Vec<u64>,
}

impl PartialEq for Histogram {
    fn eq(&self, other: &Histogram) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Histogram {}

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

    /// Counts `value` `count` times, as `count` calls of [`Histogram::add`] would (nothing for 0).
    pub fn add_count(&mut self, value: i64, count: u64) {
        if count == 0 {
            return;
        }
        let index = value.wrapping_sub(self.min) as u64 as usize;
        match self.counts.get_mut(index) {
            Some(slot) if value >= self.min => *slot += count,
            _ => self.add_outside(value, count),
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

    /// Gives back the room for values no trial reached, at both ends, keeping every count. A histogram is
    /// sized for every value its rules can give, so that counting never resizes (a fight's rounds, up to its
    /// last round); a tally held after its trials needs only the values seen, often a tenth of them, and a
    /// study of 100,000 points holds 100,000 tallies.
    pub fn trim(&mut self) {
        let Some(first) = self.counts.iter().position(|&c| c > 0) else {
            *self = Histogram::default();
            return;
        };
        let last = self.counts.iter().rposition(|&c| c > 0).unwrap_or(first);
        self.counts.truncate(last + 1);
        self.counts.drain(..first);
        self.counts.shrink_to_fit();
        self.min += first as i64;
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

/// The most values a histogram read from a part file may span, and a merge of them may grow to: 2^20
/// (8 MiB of counts). A histogram the engine fills spans the values its rules can give, far fewer; the bound
/// is there so that two bins far apart in two parts cannot ask for memory without end (docs/scenarios.md
/// "Shards").
pub const MAX_BINS: usize = 1 << 20;

impl Histogram {
    /// Why this histogram, read from outside, cannot be one that `trials` trials filled: it spans more than
    /// [`MAX_BINS`] values or past the ends of `i64`, or counts more values than there were trials.
    pub fn check(&self, trials: u64) -> Result<(), String> {
        if self.counts.len() > MAX_BINS {
            return Err(format!(
                "a histogram spans {} values, more than {MAX_BINS}",
                self.counts.len()
            ));
        }
        if self.min.checked_add(self.counts.len() as i64).is_none() {
            return Err("a histogram's values pass the largest whole number".into());
        }
        match self.counts.iter().try_fold(0u64, |a, &c| a.checked_add(c)) {
            Some(total) if total <= trials => Ok(()),
            _ => Err(format!(
                "a histogram counts more values than its {trials} trials"
            )),
        }
    }

    /// Adds `other` as `+=` does, unless the sum would span more than [`MAX_BINS`] values or a count would
    /// pass `u64` (then `self` is left as it was). Both must have passed [`Histogram::check`].
    pub fn try_add(&mut self, other: &Histogram) -> Result<(), String> {
        let seen = |h: &Histogram| {
            let mut values = h.iter().map(|(v, _)| v);
            let first = values.next()?;
            Some((first, values.last().unwrap_or(first)))
        };
        let (Some((a, b)), Some((c, d))) = (seen(self), seen(other)) else {
            *self += other;
            return Ok(());
        };
        if i128::from(b.max(d)) - i128::from(a.min(c)) >= MAX_BINS as i128 {
            return Err(format!(
                "the parts' histograms together span more than {MAX_BINS} values"
            ));
        }
        let overflows = other.iter().any(|(value, count)| {
            let index = value.wrapping_sub(self.min) as u64 as usize;
            value >= self.min
                && self
                    .counts
                    .get(index)
                    .is_some_and(|c| c.checked_add(count).is_none())
        });
        if overflows {
            return Err("a histogram's counts pass the largest counter".into());
        }
        *self += other;
        Ok(())
    }
}

impl AddAssign<&Histogram> for Histogram {
    fn add_assign(&mut self, other: &Histogram) {
        for (value, count) in other.iter() {
            self.add_count(value, count);
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

impl Tally {
    /// Trims every histogram ([`Histogram::trim`]).
    pub fn trim(&mut self) {
        self.hists.iter_mut().for_each(Histogram::trim);
    }

    /// Why this tally, read from outside, cannot be one that `trials` trials made: another number of
    /// trials, a counter above them, or a histogram [`Histogram::check`] refuses.
    pub fn check(&self, trials: u64) -> Result<(), String> {
        if self.trials != trials {
            return Err(format!(
                "a tally of {} trials where its blocks hold {trials}",
                self.trials
            ));
        }
        if let Some(c) = self.counts.iter().find(|&&c| c > trials) {
            return Err(format!("a counter of {c} in {trials} trials"));
        }
        self.hists.iter().try_for_each(|h| h.check(trials))
    }

    /// Adds `other` as `+=` does, unless a number would overflow or a histogram grow past [`MAX_BINS`]
    /// (then an error, and `self` may be part added: the merge that calls it stops).
    pub fn try_add(&mut self, other: &Tally) -> Result<(), String> {
        let overflow = || "a tally's counts pass the largest counter".to_string();
        self.trials = self.trials.checked_add(other.trials).ok_or_else(overflow)?;
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a = a.checked_add(b).ok_or_else(overflow)?;
        }
        for (a, b) in self.hists.iter_mut().zip(&other.hists) {
            a.try_add(b)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trimmed_histogram_keeps_every_count_in_the_room_of_the_values_seen() {
        let mut h = Histogram::with_range(0, 100);
        for v in [7, 3, 3, 9, 7] {
            h.add(v);
        }
        let before = h.clone();
        h.trim();
        assert_eq!(h.bins(), 7, "3..=9");
        assert_eq!(h, before);
        assert_eq!(h.iter().collect::<Vec<_>>(), [(3, 2), (7, 2), (9, 1)]);
        assert_eq!(h.moments(), before.moments());
        // It counts on as before, below and above what it holds.
        for v in [0, 100, 5] {
            h.add(v);
        }
        assert_eq!(h.iter().map(|(_, c)| c).sum::<u64>(), 8);
        assert_eq!(h.iter().next(), Some((0, 1)));
        assert_eq!(h.iter().last(), Some((100, 1)));
        // Nothing seen: no room at all, and equal to an empty histogram of any size.
        let mut empty = Histogram::with_range(1, 64);
        empty.trim();
        assert_eq!(empty.bins(), 0);
        assert_eq!(empty, Histogram::with_range(5, 9));
        // Equal counts are equal whatever the room; another count is not.
        let mut other = Histogram::with_range(-5, 20);
        for v in [3, 3, 7, 7, 9] {
            other.add(v);
        }
        assert_eq!(other, before);
        other.add(9);
        assert_ne!(other, before);
    }

    #[test]
    fn a_histogram_from_outside_is_held_to_its_trials_and_its_span() {
        let mut h = Histogram::with_range(1, 4);
        for v in [1, 2, 2, 4] {
            h.add(v);
        }
        assert_eq!(h.check(4), Ok(()));
        assert!(h.check(3).is_err(), "more values than trials");
        let wide = Histogram {
            min: 0,
            counts: vec![0; MAX_BINS + 1],
        };
        assert!(wide.check(1).is_err());
        let at_the_end = Histogram {
            min: i64::MAX - 1,
            counts: vec![1, 0],
        };
        assert!(
            at_the_end.check(1).is_err(),
            "its last value would pass i64"
        );
        let wrapping = Histogram {
            min: 0,
            counts: vec![u64::MAX, 2],
        };
        assert!(wrapping.check(u64::MAX).is_err(), "its total wraps");
        // Two far bins: refused, and the histogram left as it was (no allocation of the span).
        let far = Histogram {
            min: 1 << 40,
            counts: vec![1],
        };
        let before = h.clone();
        assert!(h.try_add(&far).is_err());
        assert_eq!(h, before);
        let near = Histogram {
            min: MAX_BINS as i64,
            counts: vec![3],
        };
        assert!(
            h.try_add(&near).is_ok(),
            "a span of exactly MAX_BINS values"
        );
        assert_eq!(h.total(), 7);
        let mut full = Histogram {
            min: 2,
            counts: vec![u64::MAX],
        };
        assert!(full.try_add(&h).is_err(), "a count past u64");
        assert!(Histogram::default().try_add(&far).is_ok());
    }

    #[test]
    fn a_tally_from_outside_is_held_to_its_trials() {
        let mut t = Tally {
            trials: 10,
            ..Tally::default()
        };
        t.counts[2] = 10;
        assert_eq!(t.check(10), Ok(()));
        assert!(t.check(9).is_err());
        t.counts[2] = 11;
        assert!(t.check(10).is_err());
        let mut sum = Tally {
            trials: u64::MAX,
            ..Tally::default()
        };
        assert!(sum.try_add(&t).is_err(), "trials past u64");
    }

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
