//! Runs prepared points: fixed-size blocks of trials, every trial on its own stream of dice fixed by (seed,
//! trial index) alone, rayon over runs of consecutive blocks of a group, integer tallies merged by addition.
//!
//! Because a trial's stream depends on nothing but the seed and its index, trial t of every variant and
//! every sweep point rolls the same dice until their rules make them ask for different ones (exact common
//! random numbers), whatever the trials before it consumed. Points that are compared run in one
//! [`Group`], so each pair of their trials is summed jointly for a paired difference. Because tallies are
//! integers, every merge is exact: the results are byte-identical on any number of threads, however the
//! blocks are shared out. Memory is one tally per point, plus a number of partial tallies bounded by the
//! thread count (see `plan`); a point given as a [`Recipe`] is prepared by each work item that runs it and
//! dropped when the item ends, so prepared actions too are bounded by the threads, not the points.
//!
//! Groups of muggings, the cheapest trials, take a fast path (`mugging`): the same dice read without a
//! branch, the variants of a point run trial by trial together so that their pairs need no log. Its tests
//! prove it gives the plain rule's tallies exactly; every other action runs the plain rules.

mod mugging;

use std::borrow::Cow;
use std::ops::Range;

use rand_xoshiro::SplitMix64;
use rand_xoshiro::rand_core::SeedableRng;
use rayon::prelude::*;

use crate::dice::Pooled;
use crate::rules::action::{Prepared, Recipe};
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

/// A point as a group holds it: already prepared, or a recipe that each work item running the point
/// prepares for itself and drops when it ends (a study's sweep points, so that a study of many points
/// holds no more prepared actions than it has workers).
#[derive(Debug, Clone, Copy)]
pub enum Runnable<'a> {
    /// Prepared by the caller.
    Prepared(&'a Prepared),
    /// Prepared by the work item.
    Recipe(&'a Recipe),
}

impl<'a> From<&'a Prepared> for Runnable<'a> {
    fn from(p: &'a Prepared) -> Runnable<'a> {
        Runnable::Prepared(p)
    }
}

impl<'a> From<&'a Recipe> for Runnable<'a> {
    fn from(r: &'a Recipe) -> Runnable<'a> {
        Runnable::Recipe(r)
    }
}

impl<'a> Runnable<'a> {
    /// The prepared action. A recipe was prepared once when its scenario was read, and preparing is a
    /// pure function of it, so it prepares again; were it ever to fail, the point would run as
    /// ineligible, and a debug build stops.
    fn prepare(self) -> Option<Cow<'a, Prepared>> {
        match self {
            Runnable::Prepared(p) => Some(Cow::Borrowed(p)),
            Runnable::Recipe(r) => {
                #[cfg(test)]
                PREPARED.with(|made| made.set(made.get() + 1));
                let prepared = r.prepare();
                debug_assert!(prepared.is_ok(), "a recipe that prepared once fails: {r:?}");
                prepared.ok().map(Cow::Owned)
            }
        }
    }
}

/// Points run on the same trials: every variant at one sweep point, or a tune's candidate with the point
/// it is matched to. `None` marks an ineligible point (no tally).
#[derive(Debug, Clone)]
pub struct Group<'a> {
    /// The points.
    pub points: Vec<Option<Runnable<'a>>>,
    /// Pairs of indices into `points` (variant, baseline), compared on these metrics.
    pub pairs: Vec<(usize, usize, &'a [Comparison])>,
}

/// A group's points prepared, as one work item runs them.
struct Ready<'a> {
    /// The points, prepared (`None` for an ineligible one).
    points: Vec<Option<Cow<'a, Prepared>>>,
    /// The group's pairs.
    pairs: &'a [(usize, usize, &'a [Comparison])],
}

impl<'a> Group<'a> {
    /// The group's points prepared, for one work item.
    fn ready(&'a self) -> Ready<'a> {
        Ready {
            points: self
                .points
                .iter()
                .map(|p| p.and_then(Runnable::prepare))
                .collect(),
            pairs: &self.pairs,
        }
    }
}

impl Ready<'_> {
    /// Point `i`, prepared, unless it is ineligible.
    fn point(&self, i: usize) -> Option<&Prepared> {
        self.points[i].as_deref()
    }
}

/// What a group produced (all integers, so a shard's part file carries it exactly).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GroupResult {
    /// One tally per point (`None` for an ineligible one).
    pub tallies: Vec<Option<Tally>>,
    /// One joint tally per pair (`None` when either side is ineligible).
    pub joints: Vec<Option<Joint>>,
}

// Partial results made on this thread, so a test can count what a run made on its own pool's workers.
#[cfg(test)]
thread_local! {
    static EMPTIES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    static PREPARED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl GroupResult {
    fn empty(group: &Ready<'_>) -> GroupResult {
        #[cfg(test)]
        EMPTIES.with(|made| made.set(made.get() + 1));
        GroupResult {
            tallies: group
                .points
                .iter()
                .map(|p| p.as_deref().map(metrics::empty_tally))
                .collect(),
            joints: joint_comparisons(&group.points, group.pairs)
                .map(|c| c.map(Joint::new))
                .collect(),
        }
    }

    /// Trims its tallies' histograms to the values seen ([`Tally::trim`]): a work item's result is held
    /// until the study's files are written, and adding trimmed results gives the trimmed sum, so the
    /// results are the same on any number of threads.
    fn trim(&mut self) {
        self.tallies.iter_mut().flatten().for_each(Tally::trim);
    }

    /// Adds another partial result of the same group (exact integer sums).
    pub fn add(&mut self, other: &GroupResult) {
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
    }
}

impl GroupResult {
    /// Why this result, read from a part file, cannot be what `trials` trials of `group` made: a tally
    /// or joint tally where the group has none or lacks one, or one that its own check refuses.
    pub fn check(&self, group: &Group<'_>, trials: u64) -> Result<(), String> {
        if self.tallies.len() != group.points.len() || self.joints.len() != group.pairs.len() {
            return Err(format!(
                "{} tallies and {} joint tallies where the group has {} and {}",
                self.tallies.len(),
                self.joints.len(),
                group.points.len(),
                group.pairs.len()
            ));
        }
        let shape = "a tally where the point is ineligible, or none where it runs";
        for (tally, point) in self.tallies.iter().zip(&group.points) {
            match (tally, point) {
                (Some(t), Some(_)) => t.check(trials)?,
                (None, None) => {}
                (Some(_), None) | (None, Some(_)) => return Err(shape.into()),
            }
        }
        for (joint, comparisons) in self
            .joints
            .iter()
            .zip(joint_comparisons(&group.points, &group.pairs))
        {
            match (joint, comparisons) {
                (Some(j), Some(n)) => j.check(trials, n)?,
                (None, None) => {}
                (Some(_), None) | (None, Some(_)) => return Err(shape.into()),
            }
        }
        Ok(())
    }

    /// Adds another checked result of the same group as [`GroupResult::add`] does, unless a number would
    /// overflow or a histogram grow without bound ([`crate::stats::tally::MAX_BINS`]).
    pub fn try_add(&mut self, other: &GroupResult) -> Result<(), String> {
        for (x, y) in self.tallies.iter_mut().zip(&other.tallies) {
            if let (Some(x), Some(y)) = (x, y) {
                x.try_add(y)?;
            }
        }
        for (x, y) in self.joints.iter_mut().zip(&other.joints) {
            if let (Some(x), Some(y)) = (x, y) {
                x.try_add(y)?;
            }
        }
        Ok(())
    }
}

/// Each pair's number of comparisons, `None` for a pair with an ineligible side (it has no joint tally).
fn joint_comparisons<'g, T>(
    points: &'g [Option<T>],
    pairs: &'g [(usize, usize, &[Comparison])],
) -> impl Iterator<Item = Option<usize>> + 'g {
    pairs.iter().map(|&(a, b, comparisons)| {
        (points[a].is_some() && points[b].is_some()).then_some(comparisons.len())
    })
}

impl Ready<'_> {
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

/// Runs one block of a group's trials into `result`; `logged` is [`Ready::logged`].
fn run_block(
    group: &Ready<'_>,
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
            let (Some(p), Some(tally)) = (point.as_deref(), result.tallies[i].as_mut()) else {
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
                group.point(a),
                group.point(b),
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

/// Work items a run aims for per worker thread. Idle workers steal whatever items are left, so with items
/// of similar cost the last one to finish keeps the others waiting for about one item: 1/16 of a share.
const ITEMS_PER_THREAD: usize = 16;

/// A unit of work: consecutive blocks of one group, run in order into one partial [`GroupResult`].
#[derive(Debug, Clone, PartialEq, Eq)]
struct Item {
    /// The group's index.
    group: usize,
    /// Its blocks.
    blocks: Range<u64>,
}

/// Shares the blocks of `groups` groups out into items: every group's blocks split into the same number of
/// runs, as few as keep `threads` workers busy, in group order. Items never nest, so a worker holds one
/// partial result at a time and no group's partials wait on another's.
///
/// This is what bounds memory. Each item makes exactly one partial result, and a group's partials are
/// merged into its first, so a run holds at most `groups.max(2 · ITEMS_PER_THREAD · threads)` results:
/// one per group once there are at least `ITEMS_PER_THREAD · threads` groups (a sweep of many points then
/// runs each point's blocks in one task and merges nothing), and fewer than `2 · ITEMS_PER_THREAD ·
/// threads` otherwise. Splitting a group's blocks is only worth it when there are too few groups to go
/// round, and because merges are exact additions ([`crate::stats::Tally`]) the split never shows in the
/// results.
fn plan(groups: usize, blocks: u64, threads: usize) -> Vec<Item> {
    plan_ranges(&vec![0..blocks; groups], threads)
}

/// [`plan`] for given block ranges, one per entry (a shard's share of its groups): each range split into
/// as many runs as keep `threads` busy; an item's `group` is the index of its range.
fn plan_ranges(ranges: &[Range<u64>], threads: usize) -> Vec<Item> {
    let wanted = (ITEMS_PER_THREAD * threads.max(1)).div_ceil(ranges.len().max(1)) as u64;
    ranges
        .iter()
        .enumerate()
        .flat_map(|(group, range)| {
            let blocks = range.end - range.start;
            // At least one item per range, even without blocks (zero trials), so every one has a result.
            let runs = wanted.clamp(1, blocks.max(1));
            let start = range.start;
            (0..runs).map(move |r| Item {
                group,
                blocks: start + r * blocks / runs..start + (r + 1) * blocks / runs,
            })
        })
        .collect()
}

/// Runs an item's blocks into a partial result of its group, calling `progress` after every block. The
/// item prepares the group's recipes and drops them when it ends.
fn run_item(
    group: &Group<'_>,
    blocks: Range<u64>,
    trials: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> GroupResult {
    let group = &group.ready();
    let eligible = group.points.iter().flatten().count() as u64;
    let mut result = GroupResult::empty(group);
    // Muggings take their fast path, every other group the plain rules (see `mugging`).
    if let Some(kernel) = mugging::Kernel::of(group) {
        run_muggings(
            kernel,
            blocks,
            trials,
            seed,
            eligible,
            progress,
            &mut result,
        );
        result.trim();
        return result;
    }
    let logged = group.logged();
    for block in blocks {
        let n = block_len(trials, block);
        run_block(group, &logged, seed, block, n, &mut result);
        progress(n * eligible);
    }
    result.trim();
    result
}

/// [`run_item`] for a group of muggings, on their fast path (kept apart, so that the plain path's code is
/// compiled as it would be without it).
#[inline(never)]
fn run_muggings(
    mut kernel: mugging::Kernel<'_>,
    blocks: Range<u64>,
    trials: u64,
    seed: u64,
    eligible: u64,
    progress: &(dyn Fn(u64) + Sync),
    result: &mut GroupResult,
) {
    for block in blocks {
        let n = block_len(trials, block);
        kernel.run_block(seed, block * BLOCK_SIZE, n, result);
        progress(n * eligible);
    }
}

/// Adds up the partial results of `items` (one per item, in the order of [`plan`]): one result per group.
fn merge(items: &[Item], partials: Vec<GroupResult>) -> Vec<GroupResult> {
    let mut results: Vec<GroupResult> = Vec::new();
    for (item, partial) in items.iter().zip(partials) {
        match results.get_mut(item.group) {
            Some(result) => result.add(&partial),
            None => {
                debug_assert_eq!(item.group, results.len(), "items in group order");
                results.push(partial);
            }
        }
    }
    results
}

/// Runs the blocks of `items` (each once, [`plan`]) and adds them up: one result per group.
fn run_items(
    groups: &[Group<'_>],
    items: &[Item],
    trials: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<GroupResult> {
    let partials: Vec<GroupResult> = items
        .par_iter()
        .map(|item| {
            run_item(
                &groups[item.group],
                item.blocks.clone(),
                trials,
                seed,
                progress,
            )
        })
        .collect();
    merge(items, partials)
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
    let items = plan(groups.len(), blocks, rayon::current_num_threads());
    run_items(groups, &items, trials, seed, progress)
}

/// Runs blocks `range` of group `group` for each `(group, range)` of `ranges` (a shard's share of the
/// study): one partial result per entry, which adds exactly to the other shards' partials of that group.
pub fn run_ranges(
    groups: &[Group<'_>],
    ranges: &[(usize, Range<u64>)],
    trials: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<GroupResult> {
    let picked: Vec<Group<'_>> = ranges.iter().map(|(g, _)| groups[*g].clone()).collect();
    let blocks: Vec<Range<u64>> = ranges.iter().map(|(_, r)| r.clone()).collect();
    let items = plan_ranges(&blocks, rayon::current_num_threads());
    run_items(&picked, &items, trials, seed, progress)
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
            points: vec![p.map(Runnable::Prepared)],
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
        mug_at(9)
    }

    fn mug_at(level: u32) -> Prepared {
        let m = matchup(
            &format!(
                "class = \"thief\"\nlevel = {level}\nweapon = \"club\"\nposition = \"behind\""
            ),
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

    /// `n` groups of two mug points (thieves of different levels) paired on every metric, with an
    /// ineligible baseline in every third group.
    fn paired_groups<'a>(
        points: &'a [Prepared; 2],
        comparisons: &'a [Comparison],
        n: usize,
    ) -> Vec<Group<'a>> {
        (0..n)
            .map(|g| Group {
                points: vec![
                    Some((&points[g % 2]).into()),
                    (g % 3 != 2).then_some((&points[1]).into()),
                ],
                pairs: vec![(0, 1, comparisons)],
            })
            .collect()
    }

    #[test]
    fn paired_tallies_are_identical_on_1_2_and_7_threads_with_many_points_and_few_blocks() {
        let points = [mug_at(3), mug_at(12)];
        let comparisons = paired::comparisons(Action::Mug, Action::Mug, None);
        // Many points of one short block; and so many points that 1 and 2 threads run each point's two
        // blocks in one item while 7 threads split them (see `plan`).
        for (n, trials) in [(1000, 100), (64, BLOCK_SIZE + 7)] {
            let groups = paired_groups(&points, &comparisons, n);
            let run_on = |threads| {
                with_threads(threads, || run_groups(&groups, trials, 5, &|_| {})).unwrap()
            };
            let one = run_on(1);
            assert_eq!(one.len(), n);
            assert_eq!(one, run_on(2), "{n} points");
            assert_eq!(one, run_on(7), "{n} points");
            for (g, result) in one.iter().enumerate() {
                assert_eq!(result.tallies[0].as_ref().map(|t| t.trials), Some(trials));
                let joint = result.joints[0].as_ref().map(|j| j.trials);
                assert_eq!(joint, (g % 3 != 2).then_some(trials), "group {g}");
            }
        }
    }

    #[test]
    fn plan_runs_every_block_once_in_a_bounded_number_of_items() {
        for groups in [0, 1, 3, 7, 100, 10_000] {
            for blocks in [0, 1, 2, 5, 1000] {
                for threads in [1, 2, 8, 64] {
                    let items = plan(groups, blocks, threads);
                    let case = format!("{groups} groups, {blocks} blocks, {threads} threads");
                    let busy = ITEMS_PER_THREAD * threads;
                    assert!(
                        items.len() <= groups.max(2 * busy),
                        "{case}: {}",
                        items.len()
                    );
                    if groups >= busy {
                        assert_eq!(items.len(), groups, "{case}: one item per group");
                    }
                    // Every group's blocks, in order, each in one item; at least one item per group.
                    let mut next = vec![None; groups];
                    for item in &items {
                        let at = next[item.group].unwrap_or(0);
                        assert_eq!(item.blocks.start, at, "{case}: {item:?}");
                        assert!(blocks == 0 || !item.blocks.is_empty(), "{case}: {item:?}");
                        next[item.group] = Some(item.blocks.end);
                    }
                    let ends = if groups == 0 {
                        vec![]
                    } else {
                        vec![Some(blocks); groups]
                    };
                    assert_eq!(next, ends, "{case}");
                    assert!(items.windows(2).all(|w| w[0].group <= w[1].group), "{case}");
                }
            }
        }
    }

    /// Runs `groups` on a pool of `threads` and counts the partial results its workers made.
    fn partials_made(groups: &[Group<'_>], trials: u64, threads: usize) -> usize {
        counted(&EMPTIES, groups, trials, threads).1
    }

    /// A run of `groups` on `threads` workers, and how many times `counter` counted on them.
    fn counted(
        counter: &'static std::thread::LocalKey<std::cell::Cell<usize>>,
        groups: &[Group<'_>],
        trials: u64,
        threads: usize,
    ) -> (Vec<GroupResult>, usize) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        counter.with(std::cell::Cell::take);
        let results = pool.install(|| run_groups(groups, trials, 3, &|_| {}));
        assert_eq!(results.len(), groups.len());
        let on_workers: usize = pool
            .broadcast(|_| counter.with(std::cell::Cell::take))
            .into_iter()
            .sum();
        (results, on_workers + counter.with(std::cell::Cell::take))
    }

    /// Recipes of a mugging and of a brawl (the largest prepared action: both sides' face tables).
    fn recipes() -> Vec<Recipe> {
        let m = matchup(
            "class = \"fighter\"\nlevel = 4\nstrength = \"17\"",
            "class = \"fighter\"\nlevel = 3\nweapon = \"long sword\"",
        );
        let thief = matchup(
            "class = \"thief\"\nlevel = 7\nweapon = \"club\"\nposition = \"behind\"",
            "monster = \"ogre\"\naware = false",
        );
        [
            (Action::Brawl, &m),
            (Action::Subdue, &m),
            (Action::Mug, &thief),
        ]
        .into_iter()
        .map(|(action, m)| Recipe {
            action,
            sides: crate::rules::fight::gang::Sides::one_on_one(m),
            options: RuleOptions::default(),
            action_options: ActionOptions::default(),
        })
        .collect()
    }

    #[test]
    fn a_recipe_runs_as_its_prepared_action_and_each_work_item_prepares_its_own() {
        let recipes = recipes();
        let prepared: Vec<Prepared> = recipes.iter().map(|r| r.prepare().unwrap()).collect();
        let comparisons = paired::comparisons(Action::Brawl, Action::Subdue, None);
        // A brawl and a subdual paired in the first group, two muggings in every other.
        let group = |g: usize, as_recipe: bool| {
            let (k, l) = if g == 0 { (0, 1) } else { (2, 2) };
            let point = |i: usize| -> Option<Runnable<'_>> {
                Some(if as_recipe {
                    (&recipes[i]).into()
                } else {
                    (&prepared[i]).into()
                })
            };
            Group {
                points: vec![point(k), point(l), None],
                pairs: if g == 0 {
                    vec![(1, 0, comparisons.as_slice())]
                } else {
                    Vec::new()
                },
            }
        };
        // Many groups, each one item of one block or of two; few groups, their blocks shared out.
        for (n, trials) in [(40, 300), (40, BLOCK_SIZE + 1), (2, 5 * BLOCK_SIZE / 4)] {
            let given: Vec<Group<'_>> = (0..n).map(|g| group(g, false)).collect();
            let from_recipes: Vec<Group<'_>> = (0..n).map(|g| group(g, true)).collect();
            for threads in [1, 3] {
                let (expected, made) = counted(&PREPARED, &given, trials, threads);
                assert_eq!(made, 0, "prepared points are not prepared again");
                let (results, made) = counted(&PREPARED, &from_recipes, trials, threads);
                assert_eq!(results, expected, "{n} groups on {threads} threads");
                // Two recipes a group, prepared by each of its work items, not by each block: once a group
                // when the groups are many, once per share of its blocks when they are few.
                let items = plan(n, trials.div_ceil(BLOCK_SIZE), threads).len();
                assert_eq!(made, 2 * items, "{n} groups on {threads} threads");
            }
        }
    }

    #[test]
    fn a_run_makes_one_partial_result_per_point_when_points_are_many() {
        let points = [mug_at(3), mug_at(12)];
        let comparisons = paired::comparisons(Action::Mug, Action::Mug, None);
        let groups = paired_groups(&points, &comparisons, 2000);
        // Many points on many threads: one result per point, however rayon splits the work.
        for threads in [1, 8, 32] {
            assert_eq!(
                partials_made(&groups, 10, threads),
                2000,
                "{threads} threads"
            );
        }
        // Few points of many blocks: the blocks are split, into a number of partials set by the threads.
        let few = paired_groups(&points, &comparisons, 3);
        let blocks = 20;
        let made = partials_made(&few, blocks * BLOCK_SIZE, 8);
        assert_eq!(made, plan(3, blocks, 8).len());
        assert!((4..=2 * ITEMS_PER_THREAD * 8).contains(&made), "{made}");
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
