//! Runs prepared points: fixed-size blocks of trials, every trial on its own stream of dice fixed by (seed,
//! trial index) alone, rayon over groups of points and over blocks, integer tallies merged by addition.
//!
//! Because a trial's stream depends on nothing but the seed and its index, trial t of every variant and
//! every sweep point rolls the same dice until their rules make them ask for different ones (exact common
//! random numbers), whatever the trials before it consumed. Points that are compared run in one
//! [`Group`], so each pair of their trials is summed jointly for a paired difference. Because tallies are
//! integers, every merge is exact: the results are byte-identical on any number of threads. Memory is one
//! tally per point, plus one per point and rayon split of the groups in flight.

use rand_xoshiro::SplitMix64;
use rand_xoshiro::rand_core::SeedableRng;
use rayon::prelude::*;

use crate::dice::Pooled;
use crate::rules::action::Prepared;
use crate::stats::Tally;
use crate::stats::metrics::{self, TrialDice};
use crate::stats::paired::{self, Comparison, Joint, LOG_TRIALS, Log};

/// Trials per block. Part of the reproducibility contract (recorded in the manifest): the unit of work
/// and of progress; the dice do not depend on it.
pub const BLOCK_SIZE: u64 = 1 << 16;

/// SplitMix64's output function: a bijection on u64 that scatters nearby inputs.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// SplitMix64's increment (the golden ratio in 64 bits).
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// How many 64-bit words each trial's stream owns (2^24, so 2^25 dice). No trial of the rules asks for
/// nearly as many: a 10,000-round fight of two many-armed monsters rolls well under 10^6 dice.
pub const WORDS_PER_TRIAL: u64 = 1 << 24;

/// The most trials a point may run: the trials' streams tile the seed's SplitMix64 sequence of 2^64 words
/// without overlap up to here.
pub const MAX_TRIALS: u64 = 1 << 40;

/// How far apart two consecutive trials' streams start in SplitMix64's state.
const STRIDE: u64 = WORDS_PER_TRIAL.wrapping_mul(GAMMA);

/// Where the seed's SplitMix64 sequence starts: the seed, scattered.
fn stream_start(seed: u64) -> u64 {
    mix(seed ^ GAMMA)
}

/// The generator of one trial: words t·2^24 + 1, t·2^24 + 2, ... of the seed's SplitMix64 sequence. It is
/// a function of the seed and the trial's index alone, and distinct trials of one seed never share a word.
pub fn trial_rng(seed: u64, trial: u64) -> SplitMix64 {
    SplitMix64::seed_from_u64(stream_start(seed).wrapping_add(trial.wrapping_mul(STRIDE)))
}

/// The dice of one trial: its generator, each 64-bit draw serving two dice.
pub fn trial_dice(seed: u64, trial: u64) -> Pooled<SplitMix64> {
    Pooled::new(trial_rng(seed, trial))
}

/// The dice of consecutive trials, each on its own stream ([`trial_dice`]): setting up the next trial's
/// stream is one addition.
pub struct TrialStreams {
    next: u64,
    current: Pooled<SplitMix64>,
}

impl TrialStreams {
    /// Trials from `first` on, under `seed`.
    pub fn new(seed: u64, first: u64) -> TrialStreams {
        TrialStreams {
            next: stream_start(seed).wrapping_add(first.wrapping_mul(STRIDE)),
            current: trial_dice(seed, first),
        }
    }
}

impl TrialDice for TrialStreams {
    type Roller = Pooled<SplitMix64>;
    #[inline]
    fn next_trial(&mut self) -> &mut Pooled<SplitMix64> {
        self.current = Pooled::new(SplitMix64::seed_from_u64(self.next));
        self.next = self.next.wrapping_add(STRIDE);
        &mut self.current
    }
}

/// The trials of block `block` out of `trials` in all (the last block may be short).
fn block_len(trials: u64, block: u64) -> u64 {
    BLOCK_SIZE.min(trials - block * BLOCK_SIZE)
}

/// Points run on the same trials: every variant at one sweep point, or a tune's candidate with the point
/// it is matched to. `None` marks an ineligible point (no tally).
#[derive(Debug, Clone)]
pub struct Group<'a> {
    /// The points.
    pub points: Vec<Option<&'a Prepared>>,
    /// Pairs of indices into `points` (variant, baseline), compared on these metrics.
    pub pairs: Vec<(usize, usize, &'a [Comparison])>,
}

/// What a group produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroupResult {
    /// One tally per point (`None` for an ineligible one).
    pub tallies: Vec<Option<Tally>>,
    /// One joint tally per pair (`None` when either side is ineligible).
    pub joints: Vec<Option<Joint>>,
}

impl GroupResult {
    fn empty(group: &Group<'_>) -> GroupResult {
        GroupResult {
            tallies: group
                .points
                .iter()
                .map(|p| p.map(metrics::empty_tally))
                .collect(),
            joints: group
                .pairs
                .iter()
                .map(|&(a, b, comparisons)| {
                    (group.points[a].is_some() && group.points[b].is_some())
                        .then(|| Joint::new(comparisons.len()))
                })
                .collect(),
        }
    }

    fn add(mut self, other: GroupResult) -> GroupResult {
        for (x, y) in self.tallies.iter_mut().zip(&other.tallies) {
            if let (Some(x), Some(y)) = (x, y) {
                *x += y;
            }
        }
        for (x, y) in self.joints.iter_mut().zip(&other.joints) {
            if let (Some(x), Some(y)) = (x, y) {
                *x += y;
            }
        }
        self
    }
}

impl Group<'_> {
    /// Which points keep a log of their trials: those in a pair whose two sides both run.
    fn logged(&self) -> Vec<bool> {
        (0..self.points.len())
            .map(|i| {
                self.pairs.iter().any(|&(a, b, _)| {
                    (a == i || b == i) && self.points[a].is_some() && self.points[b].is_some()
                })
            })
            .collect()
    }
}

/// Runs one block of a group's trials into `result`; `logged` is [`Group::logged`].
fn run_block(
    group: &Group<'_>,
    logged: &[bool],
    seed: u64,
    block: u64,
    n: u64,
    result: &mut GroupResult,
) {
    let first = block * BLOCK_SIZE;
    // Paired points run a chunk at a time, so each chunk's logs stay in cache while they are summed;
    // without pairs the block is one chunk.
    let chunk = if logged.contains(&true) {
        LOG_TRIALS as u64
    } else {
        n
    };
    let mut logs: Vec<Option<Box<Log>>> = logged.iter().map(|&l| l.then(Log::new)).collect();
    let mut start = 0;
    while start < n {
        let len = chunk.min(n - start);
        for (i, point) in group.points.iter().enumerate() {
            let (Some(p), Some(tally)) = (point, result.tallies[i].as_mut()) else {
                continue;
            };
            let mut dice = TrialStreams::new(seed, first + start);
            if let Some(log) = logs[i].as_deref_mut() {
                log.clear();
                metrics::each_trial(p, len, &mut dice, log);
                log.add_to(tally);
            } else {
                tally.trials += len;
                metrics::each_trial(p, len, &mut dice, tally);
            }
        }
        for (k, &(a, b, comparisons)) in group.pairs.iter().enumerate() {
            if let (Some(pa), Some(pb), Some(joint), Some(la), Some(lb)) = (
                group.points[a],
                group.points[b],
                result.joints[k].as_mut(),
                logs[a].as_deref(),
                logs[b].as_deref(),
            ) {
                paired::add_pairs(comparisons, (pa, la), (pb, lb), joint);
            }
        }
        start += len;
    }
}

/// Runs `trials` trials of every point of every group. `progress` is called after every block of a point
/// with the trials it ran, from any worker thread.
pub fn run_groups(
    groups: &[Group<'_>],
    trials: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<GroupResult> {
    let blocks = trials.div_ceil(BLOCK_SIZE);
    groups
        .par_iter()
        .map(|group| {
            let eligible = group.points.iter().flatten().count() as u64;
            let logged = group.logged();
            (0..blocks)
                .into_par_iter()
                .fold(
                    || GroupResult::empty(group),
                    |mut result, block| {
                        let n = block_len(trials, block);
                        run_block(group, &logged, seed, block, n, &mut result);
                        progress(n * eligible);
                        result
                    },
                )
                .reduce(|| GroupResult::empty(group), GroupResult::add)
        })
        .collect()
}

/// Runs `trials` trials of every point, each on its own (no pairs): the tallies in order.
pub fn run(
    points: &[Option<&Prepared>],
    trials: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<Option<Tally>> {
    let groups: Vec<Group<'_>> = points
        .iter()
        .map(|p| Group {
            points: vec![*p],
            pairs: Vec::new(),
        })
        .collect();
    run_groups(&groups, trials, seed, progress)
        .into_iter()
        .map(|mut r| r.tallies.pop().flatten())
        .collect()
}

/// Runs `f` on a pool of `threads` workers (a local pool, so tests can vary it within one process).
pub fn with_threads<T: Send>(
    threads: usize,
    f: impl FnOnce() -> T + Send,
) -> Result<T, rayon::ThreadPoolBuildError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    Ok(pool.install(f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Roller;
    use crate::rules::RuleOptions;
    use crate::rules::action::Action;
    use crate::rules::action::ActionOptions;
    use crate::rules::matchup;

    #[test]
    fn first_rolls_of_a_seeded_trial_are_pinned() {
        // Golden vector: if a dependency upgrade or a change here alters the dice, this fails.
        let mut rng = trial_dice(7376, 0);
        let faces: Vec<u32> = (0..12).map(|_| rng.die(20)).collect();
        assert_eq!(faces, GOLDEN_TRIAL_0, "{faces:?}");
        let mut rng = trial_dice(7376, 1);
        let faces: Vec<u32> = (0..6).map(|_| rng.die(6)).collect();
        assert_eq!(faces, GOLDEN_TRIAL_1, "{faces:?}");
    }

    const GOLDEN_TRIAL_0: [u32; 12] = [20, 19, 5, 17, 14, 16, 20, 19, 4, 12, 14, 7];
    const GOLDEN_TRIAL_1: [u32; 6] = [6, 3, 4, 2, 4, 3];

    #[test]
    fn a_trials_dice_do_not_depend_on_the_trial_before_it() {
        // Whatever trial 4 consumed (nothing, one die, a hundred), trial 5 rolls the same faces, and they are
        // the faces of its own stream.
        let own: Vec<u32> = {
            let mut r = trial_dice(11, 5);
            (0..8).map(|_| r.die(20)).collect()
        };
        for consumed in [0, 1, 3, 100] {
            let mut streams = TrialStreams::new(11, 4);
            let before = streams.next_trial();
            for _ in 0..consumed {
                before.die(6);
            }
            let next = streams.next_trial();
            let faces: Vec<u32> = (0..8).map(|_| next.die(20)).collect();
            assert_eq!(faces, own, "after {consumed} dice in trial 4");
        }
        // A block starting anywhere reaches the same trial with the same dice.
        let mut from_zero = TrialStreams::new(11, 0);
        for _ in 0..5 {
            from_zero.next_trial().die(100);
        }
        let r = from_zero.next_trial();
        assert_eq!((0..8).map(|_| r.die(20)).collect::<Vec<_>>(), own);
    }

    #[test]
    fn trials_of_one_seed_differ_and_seeds_differ() {
        let first = |seed, trial| trial_rng(seed, trial).die(1_000_000);
        assert_ne!(first(1, 0), first(1, 1));
        assert_ne!(first(1, 0), first(2, 0));
    }

    fn mug_point() -> Prepared {
        let m = matchup(
            "class = \"thief\"\nlevel = 9\nweapon = \"club\"\nposition = \"behind\"",
            "monster = \"ogre\"\naware = false",
        );
        Prepared::new(
            Action::Mug,
            &m,
            &RuleOptions::default(),
            &ActionOptions::default(),
        )
        .unwrap()
    }

    #[test]
    fn tallies_are_identical_on_1_2_and_7_threads() {
        let p = mug_point();
        let points = [Some(&p), None, Some(&p)];
        let trials = 3 * BLOCK_SIZE + 123;
        let run_on = |threads| with_threads(threads, || run(&points, trials, 99, &|_| {})).unwrap();
        let one = run_on(1);
        assert_eq!(one, run_on(2));
        assert_eq!(one, run_on(7));
        assert!(one[1].is_none());
        assert_eq!(one[0].as_ref().map(|t| t.trials), Some(trials));
        // Common random numbers: the same point twice gives the same tally.
        assert_eq!(one[0], one[2]);
    }

    #[test]
    fn progress_counts_every_trial() {
        let p = mug_point();
        let done = std::sync::atomic::AtomicU64::new(0);
        let trials = BLOCK_SIZE + 5;
        run(&[Some(&p)], trials, 1, &|n| {
            done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        });
        assert_eq!(done.into_inner(), trials);
    }
}
