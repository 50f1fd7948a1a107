//! flips.csv: how often a variant and the baseline part on the same dice, each way, and the first trial
//! where they do (docs/scenarios.md "flips.csv").
//!
//! A paired difference of a probability is the trials where only the variant's event happened minus those
//! where only the baseline's did, over the trials. A difference of 2 points may be 2 % of trials flipping
//! one way and none the other, or 30 % flipping each way: the same number, different rules. This file
//! gives the two shares apart, read from the discordant pairs the difference itself is made of
//! ([`paired::discordant`]), so `p_flip_to − p_flip_from` is the difference, and it names the first trial of
//! each way, so a reader can replay it and see why the two rules part there.
//!
//! The example trials are looked for after the run ([`super::replay`]), only in a direction with a flip,
//! and never past the trials run: the engine's trial loop keeps no record of single trials, and a merge of
//! shards finds the same trials as one run, because trial t rolls the same dice wherever it ran.

use rayon::prelude::*;

use crate::rules::action::Prepared;
use crate::rules::maneuver::Counter;
use crate::scenario::Scenario;
use crate::scenario::sweep::SweepValue;
use crate::stats::interval::{self, Estimate};
use crate::stats::metrics;
use crate::stats::paired;
use crate::study::Results;
use crate::study::replay::replay;

/// One way a variant and the baseline part: its count of trials, its share with an interval, and the
/// first trial it happened on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flip {
    /// The paired trials where it happened.
    pub count: u64,
    /// Its share of the paired trials, with the Wilson interval summary.csv gives a probability.
    pub share: Estimate,
    /// The first trial (in the seed's order) where it happened; `None` when it never did.
    pub example: Option<u64>,
}

/// One row of flips.csv: a variant against the baseline at one sweep point, on the variant's headline.
#[derive(Debug, Clone, PartialEq)]
pub struct FlipRow<'a> {
    /// The variant compared.
    pub variant: &'a str,
    /// The baseline.
    pub baseline: &'a str,
    /// The variant's point and the baseline's, as indices into the scenario's points.
    pub points: (usize, usize),
    /// The sweep values.
    pub values: &'a [SweepValue],
    /// The variant's level gap at this point.
    pub level_gap: i32,
    /// The variant's headline (`ineligible` when either side did not run).
    pub metric: &'static str,
    /// The paired trials (0 when either side did not run).
    pub trials: u64,
    /// To the variant (its event without the baseline's) and from it (the reverse); `None` when the
    /// headline is not a probability compared with the baseline's, or a side did not run.
    pub flips: Option<[Flip; 2]>,
}

/// The rows of flips.csv, in the order of differences.csv (variants, then sweep points), one per variant
/// and point. The example trials are found under the scenario's seed with rayon, one row a task: the rows
/// are independent, and the result is the same on any number of threads.
pub fn flips<'a>(scenario: &'a Scenario, results: &Results) -> Vec<FlipRow<'a>> {
    let z = interval::z_for(scenario.confidence);
    let grid = scenario.grid();
    // One row a pairing and sweep point, sized up front (not grown to twice that).
    let mut rows = Vec::with_capacity(grid * scenario.pairings.len());
    // Per row, what its examples are looked for on: the events and the flips' counts (both points are
    // prepared where they are looked through, and dropped after).
    let mut searches = Vec::with_capacity(rows.capacity());
    for (k, pairing) in scenario.pairings.iter().enumerate() {
        for g in 0..grid {
            let (a, b) = (pairing.variant * grid + g, scenario.baseline * grid + g);
            let point = &scenario.points[a];
            let headline = metrics::headline(point.action);
            let mut row = FlipRow {
                variant: &scenario.variants[pairing.variant],
                baseline: &scenario.variants[scenario.baseline],
                points: (a, b),
                values: &point.values,
                level_gap: point.level_gap,
                metric: "ineligible",
                trials: 0,
                flips: None,
            };
            let ran = (
                point.eligible(),
                scenario.points[b].eligible(),
                &results.tallies[a],
                &results.tallies[b],
                &results.joints[k][g],
            );
            let search = match ran {
                (true, true, Some(ta), Some(tb), Some(joint)) => {
                    row.metric = headline;
                    row.trials = joint.trials;
                    // The headline is the pairing's first comparison when it is compared at all.
                    pairing
                        .comparisons
                        .first()
                        .zip(joint.cross.first())
                        .filter(|(c, _)| c.metric == headline)
                        .and_then(|(c, cross)| {
                            let counts = paired::discordant(c, ta, tb, cross)?;
                            Some((c.events()?, counts))
                        })
                }
                _ => None,
            };
            rows.push(row);
            searches.push(search);
        }
    }
    let found: Vec<Option<[Flip; 2]>> = rows
        .par_iter()
        .zip(&searches)
        .map(|(row, search)| {
            let &(events, (to, from)) = search.as_ref()?;
            let (pa, pb) = (
                scenario.points[row.points.0].prepare().ok()?,
                scenario.points[row.points.1].prepare().ok()?,
            );
            let examples = first_flips((&pa, &pb), events, scenario.seed, row.trials, [to, from]);
            let flip = |count, example| Flip {
                count,
                share: interval::proportion(count, row.trials, z),
                example,
            };
            Some([flip(to, examples[0]), flip(from, examples[1])])
        })
        .collect();
    for (row, flips) in rows.iter_mut().zip(found) {
        row.flips = flips;
    }
    rows
}

/// The first trial of `0..trials` (in the seed's order) where the variant's event happened without the
/// baseline's, and the first of the reverse, each looked for only while its count of flips says there is
/// one to find: `pa`, `pb` the variant's and the baseline's points, `events` their counters.
pub fn first_flips(
    (pa, pb): (&Prepared, &Prepared),
    (ea, eb): (Counter, Counter),
    seed: u64,
    trials: u64,
    [to, from]: [u64; 2],
) -> [Option<u64>; 2] {
    let mut found = [None, None];
    let wanted = |found: &[Option<u64>; 2]| {
        (to > 0 && found[0].is_none()) || (from > 0 && found[1].is_none())
    };
    let mut t = 0;
    while t < trials && wanted(&found) {
        let (x, y) = (
            replay(pa, seed, t).happened(ea),
            replay(pb, seed, t).happened(eb),
        );
        if x && !y && to > 0 {
            found[0].get_or_insert(t);
        }
        if y && !x && from > 0 {
            found[1].get_or_insert(t);
        }
        t += 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{self, Group};
    use crate::rules::action::Action;
    use crate::study::replay::fixtures::prepared;

    /// A thief saps an unaware fighter (the variant) or mugs him (the baseline), knockouts compared: the
    /// two rules roll the same dice differently, so their knockouts part on some trials each way.
    fn pair() -> (Prepared, Prepared, Vec<paired::Comparison>) {
        let (thief, fighter) = (
            "class = \"thief\"\nlevel = 7\nweapon = \"club\"\nposition = \"behind\"",
            "class = \"fighter\"\nlevel = 4\naware = false",
        );
        let prepare = |action| prepared(action, thief, fighter);
        let cs = paired::comparisons(Action::Sap, Action::Mug, Some("p_knockout"));
        assert_eq!(
            (cs[0].metric, cs[0].baseline_metric),
            ("p_out", "p_knockout")
        );
        (prepare(Action::Sap), prepare(Action::Mug), cs)
    }

    /// The pair run by the engine on `trials` trials: their tallies and joint tally.
    fn run(
        a: &Prepared,
        b: &Prepared,
        comparisons: &[paired::Comparison],
        seed: u64,
        trials: u64,
    ) -> engine::GroupResult {
        let groups = [Group {
            points: vec![Some(a.into()), Some(b.into())],
            pairs: vec![(0, 1, comparisons)],
        }];
        engine::run_groups(&groups, trials, seed, &|_| {})
            .pop()
            .unwrap()
    }

    #[test]
    fn the_flips_each_way_add_up_to_the_paired_difference_in_whole_trials() {
        let (a, b, cs) = pair();
        let (seed, trials) = (7, 5000);
        let result = run(&a, &b, &cs, seed, trials);
        let (ta, tb) = (
            result.tallies[0].as_ref().unwrap(),
            result.tallies[1].as_ref().unwrap(),
        );
        let joint = result.joints[0].as_ref().unwrap();
        let (to, from) = paired::discordant(&cs[0], ta, tb, &joint.cross[0]).unwrap();
        assert!(to > 0 && from > 0, "{to} to, {from} from: flips both ways");
        // In whole trials: the variant's events minus the baseline's are the flips to it minus the flips
        // from it, counted trial by trial on the very dice of the run.
        let (ea, eb) = cs[0].events().unwrap();
        assert_eq!(
            i128::from(ta.counts[ea.0]) - i128::from(tb.counts[eb.0]),
            i128::from(to) - i128::from(from)
        );
        let (mut to_seen, mut from_seen) = (0, 0);
        for t in 0..trials {
            let (x, y) = (
                replay(&a, seed, t).happened(ea),
                replay(&b, seed, t).happened(eb),
            );
            to_seen += u64::from(x && !y);
            from_seen += u64::from(y && !x);
        }
        assert_eq!((to_seen, from_seen), (to, from));
        // And the difference differences.csv prints is (to − from) / trials.
        let d = paired::difference(&cs[0], (&a, ta), (&b, tb), &joint.cross[0], trials, 2.0);
        assert_eq!(
            d.difference,
            Some((i128::from(to) - i128::from(from)) as f64 / trials as f64)
        );
    }

    #[test]
    fn an_example_is_the_first_trial_that_flips_its_way() {
        let (a, b, cs) = pair();
        let (ea, eb) = cs[0].events().unwrap();
        let seed = 3;
        let [to, from] = first_flips((&a, &b), (ea, eb), seed, 5000, [1, 1]);
        let (to, from) = (to.unwrap(), from.unwrap());
        let flipped = |t: u64| {
            let (x, y) = (
                replay(&a, seed, t).happened(ea),
                replay(&b, seed, t).happened(eb),
            );
            (x && !y, y && !x)
        };
        assert!(flipped(to).0, "trial {to} flips to the variant");
        assert!(flipped(from).1, "trial {from} flips from it");
        assert!((0..to).all(|t| !flipped(t).0), "no earlier flip to it");
        assert!((0..from).all(|t| !flipped(t).1), "no earlier flip from it");
        // Without a flip to look for, none is looked for; never past the trials given.
        assert_eq!(
            first_flips((&a, &b), (ea, eb), seed, 5000, [0, 1]),
            [None, Some(from)]
        );
        assert_eq!(
            first_flips((&a, &b), (ea, eb), seed, to, [1, 0]),
            [None, None]
        );
    }
}
