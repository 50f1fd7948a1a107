//! exemplars.csv: for every fight point, a short, a typical and a long fight, and the first deadly one, as
//! trials a reader can replay (docs/scenarios.md "exemplars.csv").
//!
//! A mean of 6.2 rounds says nothing of what one fight looks like; the trial whose length is the median
//! does. The lengths are read from the point's own tally (its `rounds` histogram: the nearest-rank 5th,
//! 50th and 95th percentiles), and whether anyone died from its death counters, so the trials are looked
//! for only where the tally says they exist. They are found after the run by replaying trials 0, 1, 2, ...
//! on their own dice ([`super::replay`]) until each is met: the first trial of each length, and the first
//! with a death. The engine's loop keeps no record of single trials, and a merge of shards finds the same
//! trials as one run.

use rayon::prelude::*;

use crate::rules::action::Prepared;
use crate::rules::fight::{self, gang};
use crate::rules::maneuver::Hist;
use crate::scenario::Scenario;
use crate::stats::Tally;
use crate::stats::tally::Histogram;
use crate::study::replay::{Trial, replay};

/// The kinds of exemplar, in the file's order, with their percentile of the rounds (in percent) where
/// they have one.
pub const KINDS: [(&str, Option<u64>); 4] = [
    ("p5", Some(5)),
    ("median", Some(50)),
    ("p95", Some(95)),
    ("first_death", None),
];

/// One row of exemplars.csv. Its variant, sweep values and level gap are its point's: a study of 100,000
/// fight points holds 400,000 of these, so each keeps only the point's index.
#[derive(Debug, Clone, PartialEq)]
pub struct Exemplar {
    /// The point, as an index into the scenario's points.
    pub point: usize,
    /// `p5`, `median`, `p95` or `first_death`.
    pub kind: &'static str,
    /// The trial and its rounds; `None` for a first death when no trial had one.
    pub found: Option<(u64, i64)>,
}

/// How a fight's outcome tells its rounds and whether someone died: the hooks each fight keeps beside its
/// record ([`fight::DEATHS`], [`gang::DEATHS`]).
#[derive(Debug, Clone, Copy)]
enum Reading {
    /// One on one: death counters.
    Counters(Hist, &'static [crate::rules::maneuver::Counter]),
    /// Sides: histograms of the killed, a death where one is above 0.
    Killed(Hist, &'static [Hist]),
}

impl Reading {
    /// The reading of a point, `None` for an action that is not a fight.
    fn of(p: &Prepared) -> Option<Reading> {
        match p {
            Prepared::Fight(_) => Some(Reading::Counters(fight::ROUNDS_FOUGHT, &fight::DEATHS)),
            Prepared::Gang(_) => Some(Reading::Killed(gang::ROUNDS_FOUGHT, &gang::DEATHS)),
            Prepared::Mug(_)
            | Prepared::Sap(_)
            | Prepared::Strike(_)
            | Prepared::GrabObject(_)
            | Prepared::GrabPerson(_)
            | Prepared::GrabMonster(_) => None,
        }
    }

    fn rounds(self) -> Hist {
        match self {
            Reading::Counters(h, _) | Reading::Killed(h, _) => h,
        }
    }

    /// Whether anyone died in some trial of `tally`.
    fn any_death(self, tally: &Tally) -> bool {
        match self {
            Reading::Counters(_, deaths) => deaths.iter().any(|c| tally.counts[c.0] > 0),
            Reading::Killed(_, killed) => killed
                .iter()
                .any(|h| tally.hists[h.0].iter().any(|(v, _)| v > 0)),
        }
    }

    /// Whether anyone died in `trial`.
    fn died(self, trial: &Trial) -> bool {
        match self {
            Reading::Counters(_, deaths) => deaths.iter().any(|&c| trial.happened(c)),
            Reading::Killed(_, killed) => killed.iter().any(|&h| trial.value(h).unwrap_or(0) > 0),
        }
    }
}

/// The nearest-rank percentile `percent` of a histogram: the smallest value whose cumulative count reaches
/// ⌈percent·n/100⌉ (at least 1); `None` for an empty histogram. In whole numbers, so 5 % of 100 trials is
/// rank 5, not 5.000000000000001.
pub fn percentile(hist: &Histogram, percent: u64) -> Option<i64> {
    let n = hist.total();
    let rank = (u128::from(percent) * u128::from(n)).div_ceil(100).max(1);
    let mut seen: u128 = 0;
    hist.iter().find_map(|(value, count)| {
        seen += u128::from(count);
        (seen >= rank).then_some(value)
    })
}

/// The rows of exemplars.csv: four per fight point that ran, in point order.
pub fn exemplars(scenario: &Scenario, tallies: &[Option<Tally>]) -> Vec<Exemplar> {
    let points: Vec<_> = scenario
        .points
        .iter()
        .zip(tallies)
        .enumerate()
        .filter_map(|(index, (point, tally))| {
            let tally = tally.as_ref().filter(|_| point.action.is_fight())?;
            Some((index, point, tally))
        })
        .collect();
    // Each point is prepared where its trials are retold, and dropped after.
    let found: Vec<Option<Vec<Exemplar>>> = points
        .par_iter()
        .map(|&(index, point, tally)| {
            let p = &point.prepare().ok()?;
            let reading = Reading::of(p)?;
            let rounds = &tally.hists[reading.rounds().0];
            let wanted: Vec<Option<Wanted>> = KINDS
                .iter()
                .map(|&(_, percent)| match percent {
                    Some(percent) => percentile(rounds, percent).map(Wanted::Rounds),
                    None => reading.any_death(tally).then_some(Wanted::Death),
                })
                .collect();
            let found = first_trials(p, reading, scenario.seed, tally.trials, &wanted);
            let rows = KINDS
                .iter()
                .zip(found)
                .map(|(&(kind, _), found)| Exemplar {
                    point: index,
                    kind,
                    found,
                })
                .collect::<Vec<_>>();
            Some(rows)
        })
        .collect();
    // Sized up front: a study of 50,000 fight points has 200,000 rows, and a vector grown to them may
    // hold twice that.
    let mut rows = Vec::with_capacity(found.iter().flatten().map(Vec::len).sum());
    rows.extend(found.into_iter().flatten().flatten());
    rows
}

/// A trial looked for: the first with so many rounds, or the first with a death.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wanted {
    Rounds(i64),
    Death,
}

/// The first trial of `0..trials` (in the seed's order) that is each of `wanted`, with its rounds; `None`
/// for one not wanted (or never met).
fn first_trials(
    p: &Prepared,
    reading: Reading,
    seed: u64,
    trials: u64,
    wanted: &[Option<Wanted>],
) -> Vec<Option<(u64, i64)>> {
    let mut found = vec![None; wanted.len()];
    let mut t = 0;
    while t < trials
        && wanted
            .iter()
            .zip(&found)
            .any(|(w, f)| w.is_some() && f.is_none())
    {
        let trial = replay(p, seed, t);
        let rounds = trial.value(reading.rounds()).unwrap_or(0);
        for (w, f) in wanted.iter().zip(found.iter_mut()) {
            let hit = match w {
                Some(Wanted::Rounds(v)) => rounds == *v,
                Some(Wanted::Death) => reading.died(&trial),
                None => false,
            };
            if hit && f.is_none() {
                *f = Some((t, rounds));
            }
        }
        t += 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::action::Action;
    use crate::study::replay::fixtures::{prepared, tally};

    #[test]
    fn a_percentile_is_the_smallest_value_whose_cumulative_count_reaches_its_rank() {
        // 20 values: 1 ×1, 2 ×9, 3 ×9, 7 ×1. Ranks: 5 % → 1, 50 % → 10, 95 % → 19.
        let mut h = Histogram::default();
        for (v, n) in [(1, 1), (2, 9), (3, 9), (7, 1)] {
            (0..n).for_each(|_| h.add(v));
        }
        assert_eq!(percentile(&h, 5), Some(1));
        assert_eq!(percentile(&h, 50), Some(2));
        assert_eq!(percentile(&h, 95), Some(3));
        assert_eq!(percentile(&h, 100), Some(7));
        // 5 % of 21 is rank 2 (⌈1.05⌉): the second value.
        h.add(2);
        assert_eq!(percentile(&h, 5), Some(2));
        // 100 values 1..=100: rank 5 exactly (5 % of 100 in whole numbers, no float crumb).
        let mut hundred = Histogram::default();
        (1..=100).for_each(|v| hundred.add(v));
        assert_eq!(percentile(&hundred, 5), Some(5));
        assert_eq!(percentile(&hundred, 95), Some(95));
        assert_eq!(percentile(&Histogram::default(), 50), None);
    }

    #[test]
    fn exemplars_are_the_first_trials_of_their_length_and_of_a_death() {
        // A brawl with real blows, where some fights kill.
        let p = prepared(
            Action::Brawl,
            "class = \"fighter\"\nlevel = 3\nweapon = \"short sword\"",
            "class = \"fighter\"\nlevel = 3\nweapon = \"dagger\"",
        );
        let reading = Reading::of(&p).unwrap();
        let (seed, n) = (9, 2000);
        let tally = tally(&p, seed, n);
        let trials: Vec<Trial> = (0..n).map(|t| replay(&p, seed, t)).collect();
        let rounds = |t: &Trial| t.value(reading.rounds()).unwrap();
        let wanted: Vec<Option<Wanted>> = [5, 50, 95]
            .map(|q| {
                Some(Wanted::Rounds(
                    percentile(&tally.hists[reading.rounds().0], q).unwrap(),
                ))
            })
            .into_iter()
            .chain([reading.any_death(&tally).then_some(Wanted::Death)])
            .collect();
        let found = first_trials(&p, reading, seed, n, &wanted);
        for (w, f) in wanted.iter().zip(&found) {
            match w {
                Some(Wanted::Rounds(v)) => {
                    let (t, r) = f.unwrap();
                    assert_eq!((rounds(&trials[t as usize]), r), (*v, *v));
                    assert!(trials[..t as usize].iter().all(|x| rounds(x) != *v));
                }
                Some(Wanted::Death) => {
                    let (t, r) = f.unwrap();
                    assert!(reading.died(&trials[t as usize]));
                    assert_eq!(r, rounds(&trials[t as usize]));
                    assert!(!trials[..t as usize].iter().any(|x| reading.died(x)));
                }
                None => panic!("no trial of these {n} had a death: pick a deadlier fight"),
            }
        }
        // The three lengths differ, so the test says something about each.
        assert!(
            matches!(wanted[..3], [Some(Wanted::Rounds(a)), _, Some(Wanted::Rounds(c))] if a < c)
        );
    }
}
