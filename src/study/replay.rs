//! One trial of a point rolled again after the run, on the very dice the run gave it.
//!
//! A trial's dice are a function of the seed and its index alone ([`engine::trial_dice`]), so trial t of a
//! point can be resolved again on its own, and gives the outcome it gave in the run, whatever thread or
//! shard ran it. flips.csv and exemplars.csv name such trials (the first where two variants part, a fight
//! of typical length); they find them by replaying trials 0, 1, 2, ... after the run, so the engine's
//! trial loop keeps no record of single trials.

use crate::engine;
use crate::rules::action::Prepared;
use crate::rules::maneuver::{Counter, Hist, Maneuver, Record, Sink, with_maneuver};
use crate::stats::tally::{COUNTERS, HISTOGRAMS};

/// What one trial recorded: each counter, and each quantity where it exists. The same [`Record`] fills it
/// as fills a tally, so a replayed trial is counted as the run counted it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trial {
    counts: [bool; COUNTERS],
    values: [Option<i64>; HISTOGRAMS],
}

impl Trial {
    /// Whether the trial counted `counter`.
    pub fn happened(&self, counter: Counter) -> bool {
        self.counts[counter.0]
    }

    /// The trial's value of quantity `hist`, where it has one.
    pub fn value(&self, hist: Hist) -> Option<i64> {
        self.values[hist.0]
    }
}

impl Sink for Trial {
    fn count(&mut self, counter: Counter, yes: bool) {
        self.counts[counter.0] |= yes;
    }

    fn observe(&mut self, hist: Hist, value: i64) {
        self.values[hist.0] = Some(value);
    }
}

/// Trial `trial` of point `p` under `seed`, as the run recorded it.
pub fn replay(p: &Prepared, seed: u64, trial: u64) -> Trial {
    let mut dice = engine::trial_dice(seed, trial);
    let mut recorded = Trial::default();
    with_maneuver!(p, m => m.resolve(&mut dice).record(&mut recorded));
    recorded
}

/// What the tests of the trials named after a run start from.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;
    use crate::rules::action::{Action, ActionOptions};
    use crate::rules::{RuleOptions, matchup};
    use crate::stats::{Tally, metrics};

    /// `action` of `attacker` on `victim` (combatant tables as a scenario writes them), by the book.
    pub fn prepared(action: Action, attacker: &str, victim: &str) -> Prepared {
        let m = matchup(attacker, victim);
        Prepared::new(
            action,
            &m,
            &RuleOptions::default(),
            &ActionOptions::default(),
        )
        .unwrap()
    }

    /// The tally of trials `0..n` of `p` under `seed`, as the engine runs them.
    pub fn tally(p: &Prepared, seed: u64, n: u64) -> Tally {
        let mut tally = metrics::empty_tally(p);
        tally.trials = n;
        metrics::each_trial(p, n, &mut engine::TrialStreams::new(seed, 0), &mut tally);
        tally
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{prepared, tally};
    use super::*;
    use crate::rules::action::Action;
    use crate::stats::metrics;

    #[test]
    fn replayed_trials_add_up_to_the_engines_tally() {
        let p = prepared(
            Action::Mug,
            "class = \"thief\"\nlevel = 5\nweapon = \"club\"\nposition = \"behind\"",
            "monster = \"orc\"\naware = false",
        );
        let (seed, n) = (11, 3000);
        let tally = tally(&p, seed, n);
        let mut replayed = metrics::empty_tally(&p);
        replayed.trials = n;
        for t in 0..n {
            let trial = replay(&p, seed, t);
            for c in 0..COUNTERS {
                replayed.counts[c] += u64::from(trial.happened(Counter(c)));
            }
            for h in 0..HISTOGRAMS {
                if let Some(v) = trial.value(Hist(h)) {
                    replayed.hists[h].add(v);
                }
            }
        }
        assert!(tally.counts.iter().any(|&c| c > 0 && c < n));
        assert_eq!(replayed, tally);
    }
}
