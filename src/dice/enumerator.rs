//! The exact walk: every sequence of faces a trial can ask for, each with its probability, driven
//! through the same resolvers as the simulation.

use super::{Dice, Roller};

/// Walks every sequence of faces a trial can ask for, each with its exact probability, by running the
/// trial again and again like an odometer: the last die asked for turns fastest. Because it drives the very
/// resolvers the simulation runs, exact answers and simulated ones cannot drift apart.
///
/// A trial must ask for finitely many dice on every path; the only endless branch in the rules, the
/// re-rolled tie of a contest, is cut through [`Roller::repeat_tie`] and reported as tie mass. A
/// [`Roller::region`] is one branch per region the dice can reach, weighed by its number of ways.
#[derive(Debug, Clone, Default)]
pub struct Enumerator {
    /// Every branch point on the current path.
    path: Vec<Branch>,
    depth: usize,
    tied: bool,
    inexact: bool,
    /// Ways of each value of the dice asked for in regions so far, so a revisited region is not convolved
    /// again.
    counts: Vec<(Dice, Option<Ways>)>,
}

/// The ways of each value of some dice, ascending by value ([`Dice::counts`]).
type Ways = Vec<(i32, u128)>;

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// One branch point of a path: a die (`ways` empty: faces 1..=`options`, each one way in `options`) or a
/// region of dice (`ways[k]` = (region, its ways), out of `total`).
#[derive(Debug, Clone)]
struct Branch {
    /// The option taken: a face from 1, or an index into `ways` from 1.
    taken: u32,
    options: u32,
    ways: Vec<(usize, u128)>,
    total: u128,
    /// The path's numerator and denominator up to this branch with the option taken (`None`: beyond a
    /// `u128`): kept along the path so that a leaf reads its probability rather than multiplying the whole
    /// path again.
    upto: (Option<u128>, Option<u128>),
}

impl Branch {
    fn weight(&self) -> u128 {
        self.ways.get(self.taken as usize - 1).map_or(1, |w| w.1)
    }
}

/// A path's numerator and denominator so far, the empty path's being 1/1.
fn upto(path: &[Branch]) -> (Option<u128>, Option<u128>) {
    path.last().map_or((Some(1), Some(1)), |b| b.upto)
}

impl Enumerator {
    /// Adds branch `b` (its option the first) to the path.
    fn push(&mut self, mut b: Branch) {
        let (n, d) = upto(&self.path);
        b.upto = (
            n.and_then(|n| n.checked_mul(b.weight())),
            d.and_then(|d| d.checked_mul(b.total)),
        );
        self.path.push(b);
    }
}

/// What a walk found: how many paths ended normally, and the probability of the paths cut at a tie.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Walk {
    /// Paths that ended without a tie.
    pub leaves: u64,
    /// Paths cut at a tie: walked like the others, so they cost as much.
    pub cut: u64,
    /// Total probability of the paths cut at a tie.
    pub tie_mass: f64,
    /// Some region's dice had more outcomes than a `u128` counts (such as 100d1000): its weights are not
    /// exact, and neither is anything the walk found.
    pub inexact: bool,
    /// The walk stopped at its limit of paths ([`Enumerator::walk_at_most`]) before it was through: what it
    /// found is a part, not the whole.
    pub stopped: bool,
}

impl Enumerator {
    /// Runs `trial` once for every path of faces and hands each result to `leaf` with its probability,
    /// exactly `numerator / denominator` (the products of the ways and of the outcomes of the branches on
    /// the path; the numerator is 1 on a path of plain dice).
    pub fn walk<T>(
        trial: impl FnMut(&mut Enumerator) -> T,
        leaf: impl FnMut(T, u128, u128),
    ) -> Walk {
        Enumerator::walk_at_most(u64::MAX, trial, leaf)
    }

    /// [`Enumerator::walk`], stopping (and saying so) once `limit` paths are walked with more to come: a
    /// last guard, should a count of [`Paths`] ever fall short of what a trial asks for, that no walk runs
    /// for longer than its limit allows.
    pub fn walk_at_most<T>(
        limit: u64,
        mut trial: impl FnMut(&mut Enumerator) -> T,
        mut leaf: impl FnMut(T, u128, u128),
    ) -> Walk {
        let mut e = Enumerator::default();
        let mut walk = Walk {
            leaves: 0,
            cut: 0,
            tie_mass: 0.0,
            inexact: false,
            stopped: false,
        };
        let mut walked: u64 = 0;
        loop {
            if walked >= limit {
                walk.inexact = e.inexact;
                walk.stopped = true;
                return walk;
            }
            walked += 1;
            e.depth = 0;
            e.tied = false;
            let out = trial(&mut e);
            e.path.truncate(e.depth);
            match upto(&e.path) {
                // A path whose probability a `u128` cannot hold: the walk is not exact.
                (None, _) | (_, None) => e.inexact = true,
                (Some(numerator), Some(denominator)) if e.tied => {
                    walk.cut += 1;
                    walk.tie_mass += numerator as f64 / denominator as f64;
                }
                (Some(numerator), Some(denominator)) => {
                    walk.leaves += 1;
                    leaf(out, numerator, denominator);
                }
            }
            // Turn the odometer: the last branch that can still turn does, the ones after it start again.
            loop {
                match e.path.last_mut() {
                    None => {
                        walk.inexact = e.inexact;
                        return walk;
                    }
                    Some(b) if b.taken < b.options => {
                        b.taken += 1;
                        let at = e.path.len() - 1;
                        let (n, _) = upto(&e.path[..at]);
                        let b = &mut e.path[at];
                        b.upto.0 = n.and_then(|n| n.checked_mul(b.weight()));
                        break;
                    }
                    Some(_) => {
                        e.path.pop();
                    }
                }
            }
        }
    }

    /// One branch over `outcomes` equally likely outcomes 1..=outcomes, one per class of `class` (the first
    /// outcome of each class stands for it, weighed by the outcomes in it).
    fn grouped(&mut self, outcomes: u32, class: &dyn Fn(u32) -> u32) -> u32 {
        if self.depth == self.path.len() {
            let mut ways: Vec<(usize, u128)> = Vec::new();
            let mut classes: Vec<u32> = Vec::new();
            for outcome in 1..=outcomes {
                let c = class(outcome);
                match classes.iter().position(|&k| k == c) {
                    Some(at) => ways[at].1 += 1,
                    None => {
                        classes.push(c);
                        ways.push((outcome as usize, 1));
                    }
                }
            }
            self.push(Branch {
                taken: 1,
                options: ways.len() as u32,
                ways,
                total: u128::from(outcomes),
                upto: (None, None),
            });
        }
        let b = &self.path[self.depth];
        self.depth += 1;
        b.ways[b.taken as usize - 1].0 as u32
    }

    /// The ways of each value of `dice`, convolved once per walk.
    fn ways_of(&mut self, dice: &Dice) -> Option<&[(i32, u128)]> {
        let at = match self.counts.iter().position(|(d, _)| d == dice) {
            Some(at) => at,
            None => {
                self.counts.push((*dice, dice.counts()));
                self.counts.len() - 1
            }
        };
        self.counts[at].1.as_deref()
    }
}

impl Roller for Enumerator {
    fn die(&mut self, sides: u32) -> u32 {
        if self.depth == self.path.len() {
            self.push(Branch {
                taken: 1,
                options: sides,
                ways: Vec::new(),
                total: u128::from(sides),
                upto: (None, None),
            });
        }
        let face = self.path[self.depth].taken;
        self.depth += 1;
        face
    }

    fn repeat_tie(&mut self) -> bool {
        self.tied = true;
        false
    }

    fn die_grouped(&mut self, sides: u32, class: &dyn Fn(u32) -> u32) -> u32 {
        self.grouped(sides, class)
    }

    fn pair_grouped(&mut self, sides: [u32; 2], class: &dyn Fn(u32, u32) -> u32) -> [u32; 2] {
        let [a, b] = sides;
        let k = self.grouped(a.saturating_mul(b), &|k| {
            class((k - 1) / b + 1, (k - 1) % b + 1)
        });
        [(k - 1) / b + 1, (k - 1) % b + 1]
    }

    fn region(&mut self, dice: &Dice, cuts: &[i32]) -> usize {
        if self.depth == self.path.len() {
            let branch = match self.ways_of(dice) {
                Some(values) => {
                    let mut ways: Vec<(usize, u128)> = Vec::new();
                    for &(value, n) in values {
                        let region = cuts.iter().filter(|&&cut| value > cut).count();
                        match ways.last_mut() {
                            Some(last) if last.0 == region => last.1 += n,
                            _ => ways.push((region, n)),
                        }
                    }
                    // Ways and their total divided by what they share, so that paths stay small.
                    let total: u128 = ways.iter().map(|w| w.1).sum();
                    let common = ways.iter().fold(total, |g, w| gcd(g, w.1));
                    for w in &mut ways {
                        w.1 /= common;
                    }
                    Branch {
                        taken: 1,
                        options: ways.len() as u32,
                        total: total / common,
                        ways,
                        upto: (None, None),
                    }
                }
                None => {
                    // Too many outcomes to count: one branch, and the walk says it is not exact.
                    self.inexact = true;
                    Branch {
                        taken: 1,
                        options: 1,
                        ways: vec![(0, 1)],
                        total: 1,
                        upto: (None, None),
                    }
                }
            };
            self.push(branch);
        }
        let b = &self.path[self.depth];
        self.depth += 1;
        b.ways[b.taken as usize - 1].0
    }
}

/// At most how many paths the [`Enumerator`] walks through a trial, and a number that every path's
/// denominator divides, counted from the dice the trial may ask for before a single path is walked.
///
/// Why count first: a walk costs one run of the trial per path, and paths multiply (a damage roll of 6d20 is
/// 64 million of them, each times the attack's d20), so a walk too long to wait for, or with probabilities
/// too fine for a `u128`, must be refused before it starts rather than found out after. A count is a few
/// multiplications per branch point. It is exact when every branch is reached (a region not reached by any
/// value is counted all the same), so the walk never takes more paths than counted.
///
/// Why a number every denominator divides rather than the largest one: exact sums are kept over the least
/// common multiple of the paths' denominators, and that multiple divides this number too, so when it fits a
/// `u128` none of the sums can outgrow one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paths {
    /// The most paths, saturating at `u128::MAX` (far beyond any walk).
    pub count: u128,
    /// A multiple of every path's denominator, `None` when it does not fit a `u128`.
    pub denominator: Option<u128>,
}

impl Paths {
    /// A trial that asks for nothing more: one path, certain.
    pub const END: Paths = Paths {
        count: 1,
        denominator: Some(1),
    };

    /// One die of `sides` sides ([`Roller::die`]), each face `f` followed by the paths `after(f)`.
    pub fn die(sides: u32, after: impl Fn(u32) -> Paths) -> Paths {
        Paths::branch(Some(u128::from(sides)), (1..=sides).map(after))
    }

    /// `dice` rolled one die at a time, as [`Dice::roll`] does: `sides^count` paths of one way each.
    pub fn roll(dice: &Dice) -> Paths {
        (0..dice.count()).fold(Paths::END, |p, _| {
            p.then(Paths::die(dice.sides(), |_| Paths::END))
        })
    }

    /// A [`Roller::region`] of `dice` among `regions` regions (one more than its cuts), region `k` followed by
    /// `after(k)`. The enumerator weighs the regions out of the dice's `sides^count` outcomes (or a divisor
    /// of it), so a count of outcomes that does not fit a `u128` (such as 100d1000) has no denominator.
    pub fn region(dice: &Dice, regions: usize, after: impl Fn(usize) -> Paths) -> Paths {
        let outcomes = u128::from(dice.sides()).checked_pow(dice.count());
        Paths::branch(outcomes, (0..regions).map(after))
    }

    /// Every path of `self` followed by every path of `next`.
    pub fn then(self, next: Paths) -> Paths {
        Paths {
            count: self.count.saturating_mul(next.count),
            denominator: self
                .denominator
                .zip(next.denominator)
                .and_then(|(a, b)| a.checked_mul(b)),
        }
    }

    /// A branch point of `total` outcomes (`None`: too many for a `u128`), followed by `outcomes`: its paths
    /// add up, and each path's denominator divides `total` times the least common multiple of theirs.
    fn branch(total: Option<u128>, outcomes: impl Iterator<Item = Paths>) -> Paths {
        let mut count: u128 = 0;
        let mut multiple = Some(1u128);
        for p in outcomes {
            count = count.saturating_add(p.count);
            multiple = multiple.zip(p.denominator).and_then(|(m, d)| lcm(m, d));
        }
        Paths {
            count,
            denominator: total.zip(multiple).and_then(|(t, m)| t.checked_mul(m)),
        }
    }
}

/// The least common multiple, `None` when it does not fit a `u128` (or, never met, for two zeros).
fn lcm(a: u128, b: u128) -> Option<u128> {
    a.checked_div(gcd(a, b))?.checked_mul(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::dice::tests::dice;

    #[test]
    fn the_enumerator_walks_every_face_once_with_its_probability() {
        let d = dice("2d4+2");
        let mut seen = [0.0; 11];
        let walk = Enumerator::walk(
            |e| d.roll(e),
            |total, num, den| seen[total as usize] += num as f64 / den as f64,
        );
        assert_eq!(walk.leaves, 16);
        assert_eq!(walk.tie_mass, 0.0);
        for (value, p) in d.distribution() {
            assert!((seen[value as usize] - p).abs() < 1e-15, "{value}");
        }
    }

    #[test]
    fn the_enumerator_follows_branches_that_ask_for_different_dice() {
        // A d2; on a 2, a d6 too: paths 1 (1/2) and 2,k (1/12 each).
        let mut leaves = Vec::new();
        let walk = Enumerator::walk(
            |e| {
                let first = e.die(2);
                if first == 2 { first + e.die(6) } else { first }
            },
            |v, num, den| leaves.push((v, num as f64 / den as f64)),
        );
        assert_eq!(walk.leaves, 7);
        assert_eq!(leaves[0], (1, 0.5));
        assert!(
            leaves[1..]
                .iter()
                .all(|&(_, p)| (p - 1.0 / 12.0).abs() < 1e-15)
        );
        let total: f64 = leaves.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-15);
    }

    #[test]
    fn a_region_rolls_the_dice_as_roll_does_and_counts_the_cuts_passed() {
        let d = dice("2d6");
        for faces in [[1, 1], [3, 4], [6, 6], [2, 5]] {
            let value = d.roll(&mut Scripted::new(faces));
            let mut script = Scripted::new(faces);
            let region = script.region(&d, &[4, 7]);
            assert_eq!(script.requests(), &[6, 6]);
            assert_eq!(region, usize::from(value > 4) + usize::from(value > 7));
        }
    }

    #[test]
    fn the_enumerator_walks_regions_weighed_by_their_ways() {
        // 9d10 against cuts 20 and 60: three branches whose ways add up to 10^9, exactly those of the
        // distribution.
        let d = dice("9d10");
        let mut leaves = Vec::new();
        let walk = Enumerator::walk(
            |e| e.region(&d, &[20, 60]),
            |r, num, den| leaves.push((r, num, den)),
        );
        assert_eq!(walk.leaves, 3);
        assert!(!walk.inexact);
        let ways = d.counts().unwrap();
        let sum = |keep: &dyn Fn(i32) -> bool| -> u128 {
            ways.iter().filter(|(v, _)| keep(*v)).map(|(_, n)| n).sum()
        };
        let expected = [
            sum(&|v| v <= 20),
            sum(&|v| v > 20 && v <= 60),
            sum(&|v| v > 60),
        ];
        for (k, &(region, num, den)) in leaves.iter().enumerate() {
            assert_eq!(region, k);
            // The same fraction as ways / 10^9, whatever common factor was taken out.
            assert_eq!(num * 10u128.pow(9), expected[k] * den, "region {k}");
        }
        // A region nothing reaches is no branch at all; a die after a region still turns per face. The two
        // regions of 2 ways in 4 are reduced to 1 in 2.
        let mut seen = Vec::new();
        Enumerator::walk(
            |e| (e.region(&dice("1d4"), &[0, 2, 10]), e.die(2)),
            |o, num, den| seen.push((o, num, den)),
        );
        assert_eq!(
            seen,
            [
                ((1, 1), 1, 4),
                ((1, 2), 1, 4),
                ((2, 1), 1, 4),
                ((2, 2), 1, 4)
            ]
        );
    }

    #[test]
    fn the_enumerator_says_when_dice_are_too_many_to_count() {
        let walk = Enumerator::walk(|e| e.region(&dice("100d1000"), &[50_000]), |_, _, _| {});
        assert!(walk.inexact);
        // Each of two regions fits, but not the path of both: 8^40 × 8^40 outcomes.
        let mut leaves = 0;
        let walk = Enumerator::walk(
            |e| {
                (
                    e.region(&dice("40d8"), &[100]),
                    e.region(&dice("40d8"), &[200]),
                )
            },
            |_, _, _| leaves += 1,
        );
        assert!(walk.inexact);
        assert_eq!(
            leaves, 0,
            "no leaf with a wrapped probability is handed out"
        );
        // Ways that share a factor with their total are reduced: 1d4 against 2 is 2 ways in 4, or 1 in 2.
        let mut seen = Vec::new();
        Enumerator::walk(
            |e| e.region(&dice("1d4"), &[2]),
            |r, n, d| seen.push((r, n, d)),
        );
        assert_eq!(seen, [(0, 1, 2), (1, 1, 2)]);
    }

    #[test]
    fn paths_count_what_the_enumerator_walks_and_a_multiple_of_its_denominators() {
        // A d2; on a 2, 2d6 too; then 3d6 against two cuts, all three regions reached.
        let (two, three) = (dice("2d6"), dice("3d6"));
        let counted = Paths::die(2, |face| {
            if face == 2 {
                Paths::roll(&two)
            } else {
                Paths::END
            }
        })
        .then(Paths::region(&three, 3, |_| Paths::END));
        let mut denominators = Vec::new();
        let walk = Enumerator::walk(
            |e| {
                if e.die(2) == 2 {
                    two.roll(e);
                }
                e.region(&three, &[8, 12])
            },
            |_, _, d| denominators.push(d),
        );
        assert_eq!(counted.count, (1 + 36) * 3);
        assert_eq!(u128::from(walk.leaves), counted.count);
        assert_eq!(counted.denominator, Some(2 * 36 * 216));
        // A region's ways are reduced by what they share, so its paths' denominators divide the count's: 3d6
        // against 8 and 12 falls 56, 104 and 56 ways in 216, or 7, 13 and 7 in 27.
        assert!(denominators.iter().all(|d| (2 * 36 * 216) % d == 0));
        assert!(denominators.contains(&(2 * 36 * 27)), "{denominators:?}");
    }

    #[test]
    fn paths_beyond_a_u128_saturate_and_have_no_denominator() {
        let huge = Paths::roll(&dice("100d1000"));
        assert_eq!((huge.count, huge.denominator), (u128::MAX, None));
        // A region is three paths however many outcomes its dice have, but 1000^100 has no denominator.
        let region = Paths::region(&dice("100d1000"), 3, |_| Paths::END);
        assert_eq!((region.count, region.denominator), (3, None));
        let fits = Paths::roll(&dice("12d1000"));
        assert_eq!(fits.count, 10u128.pow(36));
        assert_eq!(fits.denominator, Some(10u128.pow(36)));
        assert_eq!(fits.then(Paths::roll(&dice("1d1000"))).denominator, None);
        // Branches of unequal denominators take their least common multiple: 4 and 6 give 12, not 24.
        let mixed = Paths::die(2, |f| {
            Paths::roll(&dice(if f == 1 { "1d4" } else { "1d6" }))
        });
        assert_eq!((mixed.count, mixed.denominator), (10, Some(2 * 12)));
        assert_eq!(lcm(u128::MAX, 2), None);
        assert_eq!(lcm(0, 0), None);
    }

    #[test]
    fn a_walk_stops_at_its_limit_and_says_so() {
        let d = dice("2d4");
        let all = Enumerator::walk_at_most(16, |e| d.roll(e), |_, _, _| {});
        assert_eq!((all.leaves, all.stopped), (16, false));
        let mut handed = 0;
        let part = Enumerator::walk_at_most(15, |e| d.roll(e), |_, _, _| handed += 1);
        assert_eq!((part.leaves, part.stopped, handed), (15, true, 15));
    }

    #[test]
    fn the_enumerator_cuts_ties_and_reports_their_mass() {
        // Two d2: equal faces tie (cut), unequal ones end.
        let walk = Enumerator::walk(
            |e| {
                let (a, b) = (e.die(2), e.die(2));
                if a == b && !e.repeat_tie() {
                    return 0;
                }
                a
            },
            |_, _, _| {},
        );
        assert_eq!(walk.leaves, 2);
        assert!((walk.tie_mass - 0.5).abs() < 1e-15);
    }
}
