//! The mugging's fast path: the cheapest trial a single action has, run without a branch on its dice.
//!
//! A mugging rolls at most four dice, the attack d20 (none against a helpless victim), the save d20 and
//! the knockout dice, and every trial has its own stream, so those dice are the four halves of the
//! trial's first two 64-bit words ([`super::trial_dice`] draws them in that order, low half first). This
//! path mixes both words for every trial and reads the outcome from them with masks and sums, where the
//! plain rule ([`Mugging::resolve`]) asks for each die only once it is needed and branches on every
//! answer; the dice it would not have rolled are simply never read, so the outcome is the same. Lemire's
//! method rejects a word only when its low product falls under the die's sides (about one trial in 2^27);
//! such a trial, and any mugging whose dice do not fit in four halves, goes to the plain rule on the
//! trial's own stream. The tests prove the two give the same tallies, trial for trial.
//!
//! The points of a group (the variants at one sweep point) run trial by trial together, so a pair's joint
//! sums come from the two outcomes of each trial as they are made, with no log of the trials kept.

use rand_xoshiro::SplitMix64;
use rand_xoshiro::rand_core::SeedableRng;

use super::{GAMMA, GroupResult, Ready, STRIDE, mix, stream_start};
use crate::dice::Pooled;
use crate::rules::action::Prepared;
use crate::rules::maneuver::Kind;
use crate::rules::mugging::{HIT, KNOCKOUT, KO_ROUNDS, MugOutcome, Mugging, WOKE_BEFORE_BOUND};
use crate::stats::metrics::Source;

/// The halves of a trial's first two words: the most dice this path reads.
const SLOTS: usize = 4;

/// Bits per counter in a [`Row`]'s lanes: room for a block's count of every counter in one word.
const LANE: u32 = 21;
const LANE_MASK: u64 = (1 << LANE) - 1;
const _: () = assert!(super::BLOCK_SIZE <= LANE_MASK && 3 * LANE <= 64);

/// One trial's outcome: the mugging's counters, `Counter(c)` as 0 or 1 in bits `c·LANE..`, so that one
/// addition counts all three and sums of rows count each for a block; and the knockout's length, read
/// only where the knockout counter is 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Row {
    lanes: u64,
    rounds: u64,
}

/// The row's counters are the tally's, in its order.
const COUNTED: [usize; 3] = [HIT.0, KNOCKOUT.0, WOKE_BEFORE_BOUND.0];
const _: () = assert!(HIT.0 == 0 && KNOCKOUT.0 == 1 && WOKE_BEFORE_BOUND.0 == 2);

impl Row {
    const MISS: Row = Row {
        lanes: 0,
        rounds: 0,
    };

    #[inline(always)]
    fn new(hit: u64, knocked_out: u64, woke: u64, rounds: u64) -> Row {
        Row {
            lanes: hit << (HIT.0 as u32 * LANE)
                | knocked_out << (KNOCKOUT.0 as u32 * LANE)
                | woke << (WOKE_BEFORE_BOUND.0 as u32 * LANE),
            rounds,
        }
    }

    fn of(o: &MugOutcome) -> Row {
        Row::new(
            u64::from(o.hit),
            u64::from(o.ko_rounds.is_some()),
            u64::from(o.woke_before_bound),
            o.ko_rounds.map_or(0, u64::from),
        )
    }

    /// Counter `c`: 0 or 1.
    #[inline(always)]
    fn counter(self, c: usize) -> u64 {
        (self.lanes >> (c as u32 * LANE)) & 1
    }

    #[inline(always)]
    fn knocked_out(self) -> u64 {
        self.counter(KNOCKOUT.0)
    }
}

/// Counter `c` of a sum of rows' lanes.
fn lane(lanes: u64, c: usize) -> u64 {
    (lanes >> (c as u32 * LANE)) & LANE_MASK
}

/// Which halves a mugging's dice read: with an attack die (not against a helpless victim) it takes the
/// first half and the save the second, else the save takes the first; the knockout dice follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    attack_die: bool,
    ko_dice: usize,
}

/// A mugging as this path reads it.
#[derive(Debug, Clone, Copy)]
struct Shape {
    layout: Layout,
    /// Bit `k` set when a natural `k` of the attack hits.
    hit_faces: u32,
    /// Bit `k` set when a natural `k` saves.
    save_faces: u32,
    /// The knockout dice's sides and bonus.
    ko_sides: u32,
    ko_bonus: i32,
    /// The rounds the thief needs to tie his victim.
    bind_rounds: u32,
}

impl Shape {
    /// The shape of a mugging, or `None` when its dice need more than four halves.
    fn of(m: &Mugging) -> Option<Shape> {
        let attack_die = !m.attack.is_automatic();
        let ko_dice = m.ko_rounds.count() as usize;
        if usize::from(attack_die) + 1 + ko_dice > SLOTS {
            return None;
        }
        let faces =
            |ok: &dyn Fn(u32) -> bool| (1..=20).filter(|&k| ok(k)).fold(0, |f, k| f | 1 << k);
        Some(Shape {
            layout: Layout {
                attack_die,
                ko_dice,
            },
            hit_faces: faces(&|k| m.attack.hits(k)),
            save_faces: faces(&|k| m.save.saves(k)),
            ko_sides: m.ko_rounds.sides(),
            ko_bonus: m.ko_rounds.bonus(),
            bind_rounds: m.bind_rounds,
        })
    }

    /// The trial whose first two words are `words`, for a mugging of layout (`ATTACK`, `KO`), or `None`
    /// when a die of it needs Lemire's rejection test (then the plain rule rolls it).
    #[inline(always)]
    fn trial<const ATTACK: bool, const KO: usize>(&self, words: [u64; 2]) -> Option<Row> {
        let halves = [words[0], words[0] >> 32, words[1], words[1] >> 32];
        let save_slot = usize::from(ATTACK);
        let mut clean = true;
        let mut face = |slot: usize, sides: u32| {
            let product = (halves[slot] & 0xffff_ffff) * u64::from(sides);
            clean &= product as u32 >= sides;
            (product >> 32) as u32 + 1
        };
        let hit = if ATTACK {
            u64::from(self.hit_faces >> face(0, 20)) & 1
        } else {
            1
        };
        let saved = u64::from(self.save_faces >> face(save_slot, 20)) & 1;
        let mut sum = 0;
        for slot in save_slot + 1..save_slot + 1 + KO {
            sum += face(slot, self.ko_sides);
        }
        if !clean {
            return None;
        }
        let knocked_out = hit & !saved & 1;
        let rounds = (sum as i32 + self.ko_bonus).max(1) as u32;
        let woke = knocked_out & u64::from(rounds < self.bind_rounds);
        Some(Row::new(hit, knocked_out, woke, u64::from(rounds)))
    }

    /// [`Shape::trial`] for this mugging's own layout.
    #[inline(always)]
    fn trial_any(&self, words: [u64; 2]) -> Option<Row> {
        match (self.layout.attack_die, self.layout.ko_dice) {
            (true, 1) => self.trial::<true, 1>(words),
            (true, 2) => self.trial::<true, 2>(words),
            (false, 1) => self.trial::<false, 1>(words),
            (false, 2) => self.trial::<false, 2>(words),
            (false, 3) => self.trial::<false, 3>(words),
            // `Shape::of` admits no other layout.
            _ => None,
        }
    }
}

/// The first two words of the trial whose stream starts at `state` (as `SplitMix64` draws them).
#[inline(always)]
fn words(state: u64) -> [u64; 2] {
    [
        mix(state.wrapping_add(GAMMA)),
        mix(state.wrapping_add(GAMMA.wrapping_mul(2))),
    ]
}

/// The plain rule's trial on the stream that starts at `state`.
#[cold]
fn plain(m: &Mugging, state: u64) -> Row {
    Row::of(&m.resolve(&mut Pooled::new(SplitMix64::seed_from_u64(state))))
}

/// One point's sums over a block, added to its tally at the end.
struct PointSums<'a> {
    mugging: &'a Mugging,
    shape: Shape,
    /// The block's counters, in lanes.
    lanes: u64,
    /// Knockouts by length; index `r - 1` for `r` rounds.
    lengths: Vec<u64>,
}

impl PointSums<'_> {
    /// Counts one trial.
    #[inline(always)]
    fn add(&mut self, r: Row) {
        self.lanes += r.lanes;
        self.add_length(r);
    }

    /// Counts one trial's knockout length, if he was knocked out.
    #[inline(always)]
    fn add_length(&mut self, r: Row) {
        // Every knocked-out length is in range, so its slot is always there.
        // A plain trial without a knockout has length 0: it wraps past the end and counts nowhere.
        if let Some(slot) = self.lengths.get_mut((r.rounds as usize).wrapping_sub(1)) {
            *slot += r.knocked_out();
        }
    }

    /// This point's trial from the stream at `state`, whose first words are `words`.
    #[inline(always)]
    fn trial<const ATTACK: bool, const KO: usize>(&self, words: [u64; 2], state: u64) -> Row {
        match self.shape.trial::<ATTACK, KO>(words) {
            Some(row) => row,
            None => plain(self.mugging, state),
        }
    }
}

/// What a pair's comparison reads of its two rows.
#[derive(Debug, Clone, Copy)]
enum Read {
    /// Nothing (a fixed number).
    Nothing,
    /// Two counters.
    Counters(usize, usize),
    /// The two knockouts' lengths.
    Lengths,
}

/// One pair's sums over a block.
struct PairSums {
    /// The pair's index in the group.
    k: usize,
    a: usize,
    b: usize,
    reads: Vec<Read>,
    sums: Sums,
}

/// What every comparison of a pair of muggings is read from: for each counter of the variant, in lanes,
/// the trials where it and each counter of the baseline both happened; and over the trials where both
/// were knocked out their count, the variant's lengths, the baseline's, and their products. Every one is
/// summed whatever the comparisons, without a branch.
#[derive(Debug, Clone, Copy, Default)]
struct Sums {
    counters: [u64; 3],
    lengths: [u64; 4],
}

impl Sums {
    /// Adds one trial's two rows, the variant's and the baseline's.
    #[inline(always)]
    fn add(&mut self, x: Row, y: Row) {
        for (sum, a) in self.counters.iter_mut().zip(COUNTED) {
            *sum += x.counter(a) * y.lanes;
        }
        let both = x.knocked_out() & y.knocked_out();
        self.lengths[0] += both;
        self.lengths[1] += x.rounds * both;
        self.lengths[2] += y.rounds * both;
        self.lengths[3] += x.rounds * y.rounds * both;
    }

    /// The sums of a comparison over `n` trials, as [`crate::stats::paired::add_pairs`] makes them: for two
    /// counters, the trials and those where both happened.
    fn read(&self, read: Read, n: u64) -> [u64; 4] {
        match read {
            Read::Nothing => [0; 4],
            Read::Counters(a, b) => [n, 0, 0, lane(self.counters[a], b)],
            Read::Lengths => self.lengths,
        }
    }
}

/// A group of muggings that this path runs, with its sums over the block being run.
pub(super) struct Kernel<'a> {
    /// The points that run (an ineligible point has no trials).
    points: Vec<PointSums<'a>>,
    /// The index in the group of each of them.
    in_group: Vec<usize>,
    pairs: Vec<PairSums>,
    /// The layout every point that runs shares, if one does.
    layout: Option<Layout>,
}

impl<'a> Kernel<'a> {
    /// The path for `group`, or `None` unless every point that runs is a mugging this path can read and
    /// every comparison of its pairs is of counters or of knockout lengths.
    pub(super) fn of(group: &'a Ready<'_>) -> Option<Kernel<'a>> {
        let (mut points, mut in_group) = (Vec::new(), Vec::new());
        for (i, point) in group.points.iter().enumerate() {
            match point.as_deref() {
                None => continue,
                Some(Prepared::Mug(m)) => points.push(PointSums {
                    mugging: m,
                    shape: Shape::of(m)?,
                    lanes: 0,
                    // Lengths run from 1 (the knockout lasts at least a round) to the dice's most.
                    lengths: vec![0; m.ko_rounds.max().max(1) as usize],
                }),
                Some(_) => return None,
            }
            in_group.push(i);
        }
        let running = |i: usize| in_group.iter().position(|&g| g == i);
        let mut pairs = Vec::new();
        for (k, &(a, b, comparisons)) in group.pairs.iter().enumerate() {
            let (Some(a), Some(b)) = (running(a), running(b)) else {
                continue;
            };
            let mut reads = Vec::with_capacity(comparisons.len());
            for c in comparisons {
                reads.push(match (c.kind, c.sources()) {
                    (Kind::Fixed, _) => Read::Nothing,
                    (Kind::Probability, (Source::Count(x), Source::Count(y)))
                        if x.0 < 3 && y.0 < 3 =>
                    {
                        Read::Counters(x.0, y.0)
                    }
                    (Kind::Mean, (Source::Mean(x), Source::Mean(y)))
                        if x == KO_ROUNDS && y == KO_ROUNDS =>
                    {
                        Read::Lengths
                    }
                    _ => return None,
                });
            }
            pairs.push(PairSums {
                k,
                a,
                b,
                reads,
                sums: Sums::default(),
            });
        }
        let mut layouts = points.iter().map(|p| p.shape.layout);
        let first = layouts.next();
        let layout = first.filter(|&l| layouts.all(|other| other == l));
        Some(Kernel {
            points,
            in_group,
            pairs,
            layout,
        })
    }

    /// Runs trials `first..first + n` under `seed` into `result` (the group's, in its shape).
    pub(super) fn run_block(&mut self, seed: u64, first: u64, n: u64, result: &mut GroupResult) {
        let start = stream_start(seed).wrapping_add(first.wrapping_mul(STRIDE));
        // A point alone, or the two of a variant paired with the baseline, is compiled for its layout,
        // so its shape and sums stay in registers; any other group takes each point's layout as it goes.
        match (self.points.len(), self.layout) {
            (1, Some(l)) => self.by_layout::<1>(l, start, n),
            (2, Some(l)) => self.by_layout::<2>(l, start, n),
            _ => self.run_any(start, n),
        }
        self.flush(n, result);
    }

    fn by_layout<const N: usize>(&mut self, layout: Layout, start: u64, n: u64) {
        match (layout.attack_die, layout.ko_dice) {
            (true, 1) => self.run_points::<N, true, 1>(start, n),
            (true, 2) => self.run_points::<N, true, 2>(start, n),
            (false, 1) => self.run_points::<N, false, 1>(start, n),
            (false, 2) => self.run_points::<N, false, 2>(start, n),
            (false, 3) => self.run_points::<N, false, 3>(start, n),
            _ => self.run_any(start, n),
        }
    }

    /// A group of `N` points of one layout, trial by trial from the stream at `start`. Its sums are kept
    /// in locals for the block, where nothing else can touch them, so they stay in registers.
    fn run_points<const N: usize, const ATTACK: bool, const KO: usize>(
        &mut self,
        start: u64,
        n: u64,
    ) {
        if self.pairs.len() > N {
            return self.run_any(start, n);
        }
        let Kernel { points, pairs, .. } = self;
        let points: &mut [PointSums<'_>; N] = points.as_mut_slice().try_into().expect("N points");
        let mut lanes = [0u64; N];
        let mut sums = [Sums::default(); N];
        let mut state = start;
        for _ in 0..n {
            let words = words(state);
            let rows: [Row; N] =
                std::array::from_fn(|i| points[i].trial::<ATTACK, KO>(words, state));
            for ((p, lanes), row) in points.iter_mut().zip(lanes.iter_mut()).zip(rows) {
                *lanes += row.lanes;
                p.add_length(row);
            }
            for (pair, sums) in pairs.iter().zip(sums.iter_mut()) {
                sums.add(rows[pair.a], rows[pair.b]);
            }
            state = state.wrapping_add(STRIDE);
        }
        for (p, lanes) in points.iter_mut().zip(lanes) {
            p.lanes = lanes;
        }
        for (pair, sums) in pairs.iter_mut().zip(sums) {
            pair.sums = sums;
        }
    }

    /// Any group: each point's trial by its own layout.
    fn run_any(&mut self, start: u64, n: u64) {
        let Kernel { points, pairs, .. } = self;
        let mut rows = vec![Row::MISS; points.len()];
        let mut state = start;
        for _ in 0..n {
            let words = words(state);
            for (p, row) in points.iter_mut().zip(rows.iter_mut()) {
                *row = p
                    .shape
                    .trial_any(words)
                    .unwrap_or_else(|| plain(p.mugging, state));
                p.add(*row);
            }
            for pair in pairs.iter_mut() {
                pair.sums.add(rows[pair.a], rows[pair.b]);
            }
            state = state.wrapping_add(STRIDE);
        }
    }

    /// Adds the block's sums to `result` and starts the next block's from zero.
    fn flush(&mut self, n: u64, result: &mut GroupResult) {
        for (p, &i) in self.points.iter_mut().zip(&self.in_group) {
            let Some(tally) = result.tallies[i].as_mut() else {
                continue;
            };
            tally.trials += n;
            let lanes = std::mem::take(&mut p.lanes);
            for c in COUNTED {
                tally.counts[c] += lane(lanes, c);
            }
            for (i, count) in p.lengths.iter_mut().enumerate() {
                tally.hists[KO_ROUNDS.0].add_count(i as i64 + 1, std::mem::take(count));
            }
        }
        for pair in &mut self.pairs {
            let Some(joint) = result.joints[pair.k].as_mut() else {
                continue;
            };
            joint.trials += n;
            let sums = std::mem::take(&mut pair.sums);
            for (k, &read) in pair.reads.iter().enumerate() {
                let [both, a, b, product] = sums.read(read, n);
                joint.add_sums(k, both, a, b, product);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;
    use crate::engine::{BLOCK_SIZE, Group, run_block};
    use crate::rules::RuleOptions;
    use crate::rules::action::{Action, ActionOptions};
    use crate::rules::matchup;
    use crate::stats::paired::{self, Comparison};

    /// A mugging by a thief of `level` of the victim in `victim`, under `options`.
    fn mugging(level: u32, victim: &str, options: &RuleOptions, bind_rounds: u32) -> Prepared {
        let thief =
            format!("class = \"thief\"\nlevel = {level}\nweapon = \"club\"\nposition = \"behind\"");
        let action = ActionOptions {
            bind_rounds,
            ..ActionOptions::default()
        };
        Prepared::new(Action::Mug, &matchup(&thief, victim), options, &action).unwrap()
    }

    const OGRE: &str = "monster = \"ogre\"\naware = false";
    const SLEEPING_GUARD: &str =
        "class = \"fighter\"\nlevel = 3\nstate = \"asleep\"\naware = false";

    /// Muggings of every layout this path reads and of one it does not: levels, both victims (an attack die
    /// or none), the natural-roll and helmet switches, knockout dice with and without a bonus, bind rounds.
    fn muggings() -> Vec<Prepared> {
        let mut all = Vec::new();
        let dice = [
            (2, 8, 0),
            (1, 6, 0),
            (1, 4, -5),
            (2, 4, 1),
            (3, 4, 0),
            (1, 1, 0),
        ];
        for (k, &(count, sides, bonus)) in dice.iter().enumerate() {
            let options = RuleOptions {
                mug_ko_rounds: Dice::new(count, sides, bonus).unwrap(),
                helmets: k % 2 == 1,
                natural_20_hits: k != 2,
                natural_1_fails_saves: k == 3,
                ..RuleOptions::default()
            };
            for level in [1, 9, 20] {
                for victim in [OGRE, SLEEPING_GUARD] {
                    all.push(mugging(level, victim, &options, [0, 3, 9][k % 3]));
                }
            }
        }
        all
    }

    /// The plain rules' result of `group` over trials `first..first + n` (the engine's path for every
    /// other action: each point rolled by `Mugging::resolve`, pairs summed from logs).
    fn plain_result(group: &Group<'_>, seed: u64, block: u64, n: u64) -> GroupResult {
        let group = &group.ready();
        let mut result = GroupResult::empty(group);
        run_block(group, &group.logged(), seed, block, n, &mut result);
        result
    }

    fn fast_result(group: &Group<'_>, seed: u64, block: u64, n: u64) -> GroupResult {
        let group = &group.ready();
        let mut result = GroupResult::empty(group);
        let mut kernel = Kernel::of(group).expect("a group this path runs");
        kernel.run_block(seed, block * BLOCK_SIZE, n, &mut result);
        // A second block on the same kernel starts from zero.
        kernel.run_block(seed, (block + 1) * BLOCK_SIZE, n, &mut result);
        result
    }

    fn both_blocks_plain(group: &Group<'_>, seed: u64, block: u64, n: u64) -> GroupResult {
        let mut result = plain_result(group, seed, block, n);
        result.add(&plain_result(group, seed, block + 1, n));
        result
    }

    #[test]
    fn every_mugging_this_path_reads_tallies_as_the_plain_rule_does_trial_for_trial() {
        let all = muggings();
        let mut read = 0;
        for (i, p) in all.iter().enumerate() {
            let group = Group {
                points: vec![Some(p.into())],
                pairs: Vec::new(),
            };
            let Some(_) = Kernel::of(&group.ready()) else {
                // Only knockout dice beyond the halves left are refused: 3d4 after an attack die.
                let Prepared::Mug(m) = p else { unreachable!() };
                assert!(m.ko_rounds.count() == 3 && !m.attack.is_automatic(), "{i}");
                continue;
            };
            read += 1;
            let n = 5000 + i as u64;
            assert_eq!(
                fast_result(&group, 40 + i as u64, 3, n),
                both_blocks_plain(&group, 40 + i as u64, 3, n),
                "mugging {i}: {p:?}"
            );
        }
        assert!(read >= 30, "{read}");
    }

    /// Comparisons of two muggings: every metric, and the headline against another metric.
    fn comparisons() -> [Vec<Comparison>; 2] {
        [
            paired::comparisons(Action::Mug, Action::Mug, None),
            paired::comparisons(Action::Mug, Action::Mug, Some("p_hit")),
        ]
    }

    #[test]
    fn pairs_sum_as_the_logs_of_the_plain_rule_do_in_every_kind_of_group() {
        let all = muggings();
        let [same, headline] = comparisons();
        let fits = |p: &&Prepared| {
            Kernel::of(
                &Group {
                    points: vec![Some((*p).into())],
                    pairs: Vec::new(),
                }
                .ready(),
            )
            .is_some()
        };
        let ok: Vec<&Prepared> = all.iter().filter(fits).collect();
        for (g, w) in ok.windows(3).enumerate() {
            let cs: &[Comparison] = if g % 2 == 0 { &same } else { &headline };
            let groups = [
                // Two variants of one layout or of two (then every point takes its own).
                Group {
                    points: vec![Some(w[0].into()), Some(w[1].into())],
                    pairs: vec![(1, 0, cs)],
                },
                // Three points, two pairs against the baseline, one ineligible point and its pair.
                Group {
                    points: vec![
                        Some(w[0].into()),
                        Some(w[1].into()),
                        Some(w[2].into()),
                        None,
                    ],
                    pairs: vec![(1, 0, cs), (2, 0, cs), (3, 0, cs)],
                },
                // An ineligible baseline: no joint tally.
                Group {
                    points: vec![None, Some(w[2].into())],
                    pairs: vec![(1, 0, cs)],
                },
            ];
            for (k, group) in groups.iter().enumerate() {
                let seed = 1000 + g as u64;
                assert_eq!(
                    fast_result(group, seed, 0, 3000),
                    both_blocks_plain(group, seed, 0, 3000),
                    "window {g}, group {k}"
                );
            }
        }
    }

    /// The inverse of [`mix`]: the state whose word is `z`.
    fn unmix(mut z: u64) -> u64 {
        let inverse = |a: u64| {
            // Newton's iteration for the inverse of an odd number modulo 2^64.
            let mut x = a;
            for _ in 0..6 {
                x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
            }
            x
        };
        z ^= z >> 31 ^ z >> 62;
        z = z.wrapping_mul(inverse(0x94d0_49bb_1331_11eb));
        z ^= z >> 27 ^ z >> 54;
        z = z.wrapping_mul(inverse(0xbf58_476d_1ce4_e5b9));
        z ^ (z >> 30) ^ (z >> 60)
    }

    #[test]
    fn unmix_inverts_mix() {
        for z in [0, 1, 0xdead_beef, u64::MAX, 0x9e37_79b9_7f4a_7c15] {
            assert_eq!(mix(unmix(z)), z);
        }
    }

    /// Words whose halves Lemire rejects or may reject: a low product under the die's sides.
    fn awkward_halves() -> Vec<u32> {
        let mut halves = vec![0, 1, 7, 15];
        // The first words whose product by 20 or by 8 wraps to under the sides.
        for sides in [20u64, 8] {
            for j in 1..4u64 {
                let w = ((j << 32).div_ceil(sides)) as u32;
                halves.push(w);
                halves.push(w.wrapping_add(1));
            }
        }
        halves
    }

    #[test]
    fn trials_whose_dice_lemire_rejects_are_rolled_by_the_plain_rule() {
        let all = muggings();
        let mut fell_back = 0;
        for half in awkward_halves() {
            for slot in 0..SLOTS {
                let (word, nth) = (slot / 2, slot % 2);
                for other in [0x1234_5678u32, 0xffff_fff0] {
                    let w = if nth == 0 {
                        u64::from(other) << 32 | u64::from(half)
                    } else {
                        u64::from(half) << 32 | u64::from(other)
                    };
                    // The trial whose `word`-th word is `w`.
                    let state = unmix(w).wrapping_sub(GAMMA.wrapping_mul(word as u64 + 1));
                    assert_eq!(words(state)[word], w);
                    // A seed whose trial 2 starts there, so a block meets it.
                    let seed = unmix(state.wrapping_sub(STRIDE.wrapping_mul(2))) ^ GAMMA;
                    assert_eq!(
                        stream_start(seed).wrapping_add(STRIDE.wrapping_mul(2)),
                        state
                    );
                    for p in all.iter().step_by(5) {
                        let Prepared::Mug(m) = p else { unreachable!() };
                        let Some(shape) = Shape::of(m) else { continue };
                        let plain_row =
                            Row::of(&m.resolve(&mut crate::engine::trial_dice(seed, 2)));
                        match shape.trial_any(words(state)) {
                            // The length is read only after a knockout.
                            Some(row) => assert_eq!(
                                (row.lanes, row.rounds * row.knocked_out()),
                                (plain_row.lanes, plain_row.rounds),
                                "{p:?}"
                            ),
                            None => fell_back += 1,
                        }
                        let group = Group {
                            points: vec![Some(p.into())],
                            pairs: Vec::new(),
                        };
                        assert_eq!(
                            fast_result(&group, seed, 0, 5),
                            both_blocks_plain(&group, seed, 0, 5)
                        );
                    }
                }
            }
        }
        assert!(fell_back > 100, "{fell_back}");
    }
}
