//! The d20 procedures every maneuver shares: the attack roll, the saving throw and the Strength contest.
//!
//! Each is split in two: a constructor that folds THAC0, armor class and every modifier into a couple of
//! integers once per point, and a `roll` that touches only those integers per trial. The `hits`/`saves`/`judge`
//! functions decide one set of faces, so tests and exact enumeration can call them without any generator.

use std::cmp::Ordering;

use crate::dice::{Paths, Roller, narrate};
use crate::rules::options::{GrabContest, RuleOptions};
use crate::rules::section::Section;
use crate::rules::tables::Strength;

/// An attack roll folded to "a d20 plus `modifier` must reach `target`" (docs/rules.md §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttackRoll {
    /// Everything added to the d20: Strength, magic, the rule's own bonus or penalty.
    pub modifier: i32,
    /// THAC0 minus the target's armor class.
    pub target: i32,
    automatic: bool,
    /// Bit `k` set when a natural `k` hits: one shift decides a hit, with no chain of comparisons.
    faces: u32,
}

/// The d20 faces from `lowest` up, as bits 1..=20, with the natural-20 and natural-1 rules applied.
const fn face_mask(lowest: i32, always_on_20: bool, never_on_1: bool) -> u32 {
    let lowest = if lowest < 1 {
        1
    } else if lowest > 21 {
        21
    } else {
        lowest
    } as u32;
    let mut mask = ((1u32 << 21) - 1) & !((1u32 << lowest) - 1);
    if always_on_20 {
        mask |= 1 << 20;
    }
    if never_on_1 {
        mask &= !(1 << 1);
    }
    mask
}

/// The result of one attack roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Swing {
    /// The attack hit.
    pub hit: bool,
    /// The d20 plus every modifier: the punching and wrestling column reads its row from it. An automatic hit
    /// rolls no die and reports 20 plus the modifier.
    pub modified: i32,
}

impl AttackRoll {
    /// An attack by a fighter of `thac0` against armor class `ac`, with `modifier` added to the die.
    pub fn new(thac0: i32, ac: i32, modifier: i32, options: &RuleOptions) -> AttackRoll {
        let target = thac0 - ac;
        AttackRoll {
            modifier,
            target,
            automatic: false,
            faces: face_mask(
                target.saturating_sub(modifier),
                options.natural_20_hits,
                options.natural_1_misses,
            ),
        }
    }

    /// An attack on a sleeping or held victim: it hits without a roll (PHB Table 51).
    pub fn automatic(modifier: i32) -> AttackRoll {
        AttackRoll {
            modifier,
            target: i32::MIN,
            automatic: true,
            faces: face_mask(1, true, false),
        }
    }

    /// The d20 face this attack needs, before the natural-1 and natural-20 rules: THAC0 minus armor class
    /// minus every modifier. It may be below 1 or above 20; an automatic hit needs 1 (the `roll_needed`
    /// metric).
    pub fn needed(&self) -> i32 {
        if self.automatic {
            1
        } else {
            self.target.saturating_sub(self.modifier)
        }
    }

    /// Whether this attack hits without rolling.
    pub fn is_automatic(&self) -> bool {
        self.automatic
    }

    /// Whether a natural d20 of `natural` hits.
    #[inline]
    pub fn hits(&self, natural: u32) -> bool {
        (self.faces >> natural) & 1 == 1
    }

    /// Rolls the d20 (unless the hit is automatic).
    #[inline]
    pub fn roll<R: Roller + ?Sized>(&self, rng: &mut R) -> Swing {
        if self.automatic {
            narrate!(
                rng,
                Section::Core,
                "The attack hits without a roll: the target is helpless."
            );
            return self.automatic_swing();
        }
        narrate!(
            rng,
            Section::Core,
            "Attack roll: a d20 {:+} must reach {} (THAC0 minus armor class), so {} or more on the die.",
            self.modifier,
            self.target,
            self.needed()
        );
        let swing = self.swing(rng.die(20));
        narrate!(
            rng,
            Section::Core,
            "{} {:+} = {}: {}.",
            swing.modified - self.modifier,
            self.modifier,
            swing.modified,
            if swing.hit { "a hit" } else { "a miss" }
        );
        swing
    }

    /// The paths of [`AttackRoll::roll`] for the exact count ([`Paths`]), each swing followed by
    /// `after(swing)`: one path without a die when the hit is automatic.
    pub fn paths(&self, after: impl Fn(Swing) -> Paths) -> Paths {
        if self.automatic {
            return after(self.automatic_swing());
        }
        Paths::die(20, |natural| after(self.swing(natural)))
    }

    #[inline]
    fn automatic_swing(&self) -> Swing {
        Swing {
            hit: true,
            modified: 20 + self.modifier,
        }
    }

    #[inline]
    fn swing(&self, natural: u32) -> Swing {
        Swing {
            hit: self.hits(natural),
            modified: natural as i32 + self.modifier,
        }
    }
}

/// A saving throw: a d20 of `needed` or more succeeds (docs/rules.md §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SavingThrow {
    /// The number needed, after every modifier; above 20 only a natural-20 rule can save, 1 or less always saves.
    pub needed: i32,
    /// Bit `k` set when a natural `k` saves.
    faces: u32,
}

impl SavingThrow {
    /// A save needing `needed`, with the natural-roll switches of `options`.
    pub fn new(needed: i32, options: &RuleOptions) -> SavingThrow {
        SavingThrow {
            needed,
            faces: face_mask(
                needed,
                options.natural_20_saves,
                options.natural_1_fails_saves,
            ),
        }
    }

    /// Whether a natural d20 of `natural` saves.
    #[inline]
    pub fn saves(&self, natural: u32) -> bool {
        (self.faces >> natural) & 1 == 1
    }

    /// Rolls the save.
    #[inline]
    pub fn roll<R: Roller + ?Sized>(&self, rng: &mut R) -> bool {
        narrate!(
            rng,
            Section::Core,
            "Saving throw: a d20 of {} or more saves.",
            self.needed
        );
        let saved = self.saves(rng.die(20));
        narrate!(
            rng,
            Section::Core,
            "{}.",
            if saved { "Saved" } else { "The save fails" }
        );
        saved
    }

    /// The paths of [`SavingThrow::roll`], a save or a failure followed by `after(saved)`.
    pub fn paths(&self, after: impl Fn(bool) -> Paths) -> Paths {
        Paths::die(20, |natural| after(self.saves(natural)))
    }
}

/// A Strength score as the grab contest sees it: every 18/xx is 18, the percentile only breaks ties.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ContestScore {
    /// The score rolled against (may exceed 25 for a monster's rough Strength).
    pub score: i32,
    /// The 18/xx percentile (1-100, 100 for 18/00); 0 for a plain 18 or any other score.
    pub percentile: u8,
}

impl ContestScore {
    /// A score with no percentile.
    pub fn plain(score: i32) -> ContestScore {
        ContestScore {
            score,
            percentile: 0,
        }
    }

    /// The score changed by a grab size modifier: any modifier turns an 18/xx into 18 + modifier with no
    /// percentile (docs/rules.md §5); never below 1.
    pub fn modified(self, by: i32) -> ContestScore {
        if by == 0 {
            self
        } else {
            ContestScore::plain((self.score + by).max(1))
        }
    }
}

impl From<Strength> for ContestScore {
    fn from(s: Strength) -> ContestScore {
        ContestScore {
            score: i32::from(s.score()),
            percentile: s.percentile(),
        }
    }
}

/// Who won a Strength contest and how many pairs of d20s it took (ties are rolled again, docs/rules.md §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContestOutcome {
    /// The first side won.
    pub first_wins: bool,
    /// Pairs of dice rolled, ties included (at least 1).
    pub rolls: u32,
}

/// One round of the contest decided from its two rolls: `Greater` when the first side wins, `Less` when the
/// second does, `Equal` for a tie to roll again.
pub fn judge(
    first: ContestScore,
    second: ContestScore,
    roll_1: u32,
    roll_2: u32,
    mode: GrabContest,
) -> Ordering {
    let (r1, r2) = (roll_1 as i32, roll_2 as i32);
    let by_rolls = match mode {
        GrabContest::Margin => (first.score - r1).cmp(&(second.score - r2)),
        GrabContest::HighestSuccess => match (r1 <= first.score, r2 <= second.score) {
            (true, true) => r1.cmp(&r2),
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => return Ordering::Equal,
        },
    };
    if by_rolls == Ordering::Equal && first.score == 18 && second.score == 18 {
        // Two 18s tied: the higher percentile wins, a plain 18 being the lowest.
        first.percentile.cmp(&second.percentile)
    } else {
        by_rolls
    }
}

/// How many of the 400 pairs of faces tie one round of the contest (to be rolled again), judged by
/// [`judge`] itself.
pub fn tied_pairs(first: ContestScore, second: ContestScore, mode: GrabContest) -> u32 {
    let ties = (1..=20u32)
        .flat_map(|a| (1..=20u32).map(move |b| (a, b)))
        .filter(|&(a, b)| judge(first, second, a, b, mode) == Ordering::Equal)
        .count();
    ties as u32
}

/// The paths of one [`contest`] for the exact count: a pair of d20s, every pair a path, since the
/// enumerator cuts a tie where the contest would roll again (and sums the rounds as a series instead).
pub fn contest_paths() -> Paths {
    Paths::die(20, |_| Paths::die(20, |_| Paths::END))
}

/// The grab contest: both sides roll a d20 (first side first) until one wins.
///
/// A tie can never be certain (each side succeeds on a roll of 1 or fails on 20 at some margin), so the loop
/// ends with probability 1; its expected length is at most 400/380 pairs.
pub fn contest<R: Roller + ?Sized>(
    first: ContestScore,
    second: ContestScore,
    mode: GrabContest,
    rng: &mut R,
) -> ContestOutcome {
    narrate!(
        rng,
        Section::Grab,
        "The Strength contest: each side rolls a d20 against his Strength, the first {first}, the second {second}; {}, and a tie is rolled again.",
        match mode {
            GrabContest::Margin => "the larger margin (Strength minus the die) wins",
            GrabContest::HighestSuccess => "the higher roll still at or under its score wins",
        }
    );
    rng.contest(&|| tied_pairs(first, second, mode));
    let mut rolls = 0;
    loop {
        rolls += 1;
        let roll_1 = rng.die(20);
        let roll_2 = rng.die(20);
        let verdict = judge(first, second, roll_1, roll_2, mode);
        tell_contest_pair(first, second, roll_1, roll_2, mode, verdict, rng);
        match verdict {
            Ordering::Greater => {
                return ContestOutcome {
                    first_wins: true,
                    rolls,
                };
            }
            Ordering::Less => {
                return ContestOutcome {
                    first_wins: false,
                    rolls,
                };
            }
            Ordering::Equal => {
                if !rng.repeat_tie() {
                    // An enumerator cuts the endless branch here; the outcome is discarded.
                    return ContestOutcome {
                        first_wins: false,
                        rolls,
                    };
                }
            }
        }
    }
}

/// Says what one pair of the contest's dice meant (a narrated trial; nothing otherwise).
#[inline(always)]
fn tell_contest_pair<R: Roller + ?Sized>(
    first: ContestScore,
    second: ContestScore,
    roll_1: u32,
    roll_2: u32,
    mode: GrabContest,
    verdict: Ordering,
    rng: &mut R,
) {
    narrate!(rng, Section::Grab, "{}", {
        let side = |roll: u32, score: ContestScore| match mode {
            GrabContest::Margin => format!(
                "{roll} against {score} (margin {:+})",
                score.score - roll as i32
            ),
            GrabContest::HighestSuccess => format!(
                "{roll} against {score} ({})",
                if roll as i32 <= score.score {
                    "made"
                } else {
                    "missed"
                }
            ),
        };
        // The same judge without the percentiles: did they alone decide?
        let plain = |c: ContestScore| ContestScore::plain(c.score);
        let by_percentile = verdict != Ordering::Equal
            && judge(plain(first), plain(second), roll_1, roll_2, mode) == Ordering::Equal;
        let outcome = match verdict {
            Ordering::Greater => "the first wins",
            Ordering::Less => "the second wins",
            Ordering::Equal => "a tie, rolled again",
        };
        format!(
            "The first rolls {}, the second {}: {outcome}{}.",
            side(roll_1, first),
            side(roll_2, second),
            if by_percentile {
                " on the higher percentile"
            } else {
                ""
            }
        )
    });
}

/// A contest score as a narration writes it: "17", or "18/40" ("18/00" for the hundredth).
impl std::fmt::Display for ContestScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.percentile {
            0 => write!(f, "{}", self.score),
            100 => write!(f, "{}/00", self.score),
            p => write!(f, "{}/{p:02}", self.score),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;

    fn s(text: &str) -> ContestScore {
        ContestScore::from(text.parse::<Strength>().unwrap())
    }

    #[test]
    fn a_d20_plus_modifiers_reaching_thac0_minus_ac_hits() {
        let o = RuleOptions::default();
        // THAC0 16 against AC 5 with +4: needs 11 - 4 = 7.
        let a = AttackRoll::new(16, 5, 4, &o);
        assert!(!a.hits(6));
        assert!(a.hits(7));
    }

    #[test]
    fn natural_20_hits_and_natural_1_misses_by_default() {
        let o = RuleOptions::default();
        let hopeless = AttackRoll::new(20, -10, 0, &o);
        assert!(hopeless.hits(20));
        assert!(!hopeless.hits(19));
        let certain = AttackRoll::new(10, 10, 10, &o);
        assert!(!certain.hits(1));
        assert!(certain.hits(2));
    }

    #[test]
    fn natural_rolls_count_plainly_when_switched_off() {
        let o = RuleOptions {
            natural_20_hits: false,
            natural_1_misses: false,
            ..RuleOptions::default()
        };
        assert!(!AttackRoll::new(20, -10, 0, &o).hits(20));
        assert!(AttackRoll::new(10, 10, 10, &o).hits(1));
    }

    #[test]
    fn roll_needed_is_thac0_minus_ac_minus_modifiers_unclamped() {
        let o = RuleOptions::default();
        assert_eq!(AttackRoll::new(16, 5, 4, &o).needed(), 7);
        assert_eq!(AttackRoll::new(20, -10, -8, &o).needed(), 38);
        assert_eq!(AttackRoll::new(10, 10, 10, &o).needed(), -10);
        assert_eq!(AttackRoll::automatic(-8).needed(), 1);
    }

    #[test]
    fn automatic_hits_roll_no_die() {
        let mut dice = Scripted::new([]);
        let swing = AttackRoll::automatic(-8).roll(&mut dice);
        assert!(swing.hit);
        assert!(dice.requests().is_empty());
    }

    #[test]
    fn the_modified_roll_includes_every_modifier() {
        let o = RuleOptions::default();
        let mut dice = Scripted::new([9]);
        let swing = AttackRoll::new(20, 6, -3, &o).roll(&mut dice);
        assert_eq!(swing.modified, 6);
        assert!(!swing.hit);
    }

    #[test]
    fn the_face_masks_agree_with_the_plain_comparison_everywhere() {
        for lowest in -30..=40 {
            for (n20, n1) in [(false, false), (true, false), (false, true), (true, true)] {
                let mask = face_mask(lowest, n20, n1);
                for face in 1..=20 {
                    let plain = if n20 && face == 20 {
                        true
                    } else if n1 && face == 1 {
                        false
                    } else {
                        face >= lowest
                    };
                    assert_eq!(
                        (mask >> face) & 1 == 1,
                        plain,
                        "lowest {lowest}, face {face}"
                    );
                }
            }
        }
    }

    #[test]
    fn saves_succeed_on_the_number_or_more_without_natural_rules() {
        let o = RuleOptions::default();
        let save = SavingThrow::new(17, &o);
        assert!(!save.saves(16));
        assert!(save.saves(17));
        let impossible = SavingThrow::new(21, &o);
        assert!(!impossible.saves(20));
        let certain = SavingThrow::new(1, &o);
        assert!(certain.saves(1));
    }

    #[test]
    fn natural_save_switches_make_20_save_and_1_fail() {
        let o = RuleOptions {
            natural_20_saves: true,
            natural_1_fails_saves: true,
            ..RuleOptions::default()
        };
        assert!(SavingThrow::new(25, &o).saves(20));
        assert!(!SavingThrow::new(-3, &o).saves(1));
    }

    #[test]
    fn the_larger_margin_wins_the_contest() {
        // The CFH's example: Str 17 rolling 10 (made by 7) beats Str 15 rolling 9 (made by 6).
        let m = GrabContest::Margin;
        assert_eq!(judge(s("17"), s("15"), 10, 9, m), Ordering::Greater);
        assert_eq!(judge(s("15"), s("17"), 9, 10, m), Ordering::Less);
        // Both missed by 2: a tie.
        assert_eq!(judge(s("12"), s("15"), 14, 17, m), Ordering::Equal);
        // Negative margins compare too: missing by 1 beats missing by 3.
        assert_eq!(judge(s("12"), s("15"), 13, 18, m), Ordering::Greater);
    }

    #[test]
    fn every_18_counts_as_18_and_the_percentile_breaks_ties() {
        let m = GrabContest::Margin;
        // 18/40 beats 18/30 on a tied margin...
        assert_eq!(judge(s("18/40"), s("18/30"), 7, 7, m), Ordering::Greater);
        assert_eq!(judge(s("18/30"), s("18/40"), 7, 7, m), Ordering::Less);
        // ...a plain 18 is the lowest...
        assert_eq!(judge(s("18"), s("18/01"), 3, 3, m), Ordering::Less);
        // ...but the percentile adds nothing to the margin.
        assert_eq!(judge(s("18/00"), s("18"), 8, 7, m), Ordering::Less);
        // Equal percentiles, and ties between other scores, are rolled again.
        assert_eq!(judge(s("18/50"), s("18/50"), 4, 4, m), Ordering::Equal);
        assert_eq!(judge(s("18"), s("18"), 4, 4, m), Ordering::Equal);
        assert_eq!(judge(s("17"), s("17"), 4, 4, m), Ordering::Equal);
    }

    #[test]
    fn highest_success_prefers_the_higher_roll_under_the_score() {
        let h = GrabContest::HighestSuccess;
        assert_eq!(judge(s("17"), s("15"), 10, 12, h), Ordering::Less);
        assert_eq!(judge(s("17"), s("15"), 17, 16, h), Ordering::Greater);
        assert_eq!(judge(s("17"), s("15"), 18, 15, h), Ordering::Less);
        assert_eq!(judge(s("10"), s("15"), 11, 16, h), Ordering::Equal);
        assert_eq!(judge(s("10"), s("15"), 7, 7, h), Ordering::Equal);
        assert_eq!(judge(s("18/91"), s("18/20"), 7, 7, h), Ordering::Greater);
    }

    #[test]
    fn ties_are_rolled_again_and_every_roll_is_counted() {
        // First pair ties (both made it by 5), second pair: 16 rolls 3 (by 13) against 16 rolling 9.
        let mut dice = Scripted::new([11, 11, 3, 9]);
        let out = contest(s("16"), s("16"), GrabContest::Margin, &mut dice);
        assert_eq!(
            out,
            ContestOutcome {
                first_wins: true,
                rolls: 2
            }
        );
        assert_eq!(dice.requests(), &[20, 20, 20, 20]);
    }

    #[test]
    fn a_modifier_turns_18_xx_into_a_plain_score() {
        assert_eq!(s("18/76").modified(2), ContestScore::plain(20));
        assert_eq!(s("18/76").modified(0), s("18/76"));
        assert_eq!(s("18/00").modified(-6), ContestScore::plain(12));
        assert_eq!(ContestScore::plain(3).modified(-6), ContestScore::plain(1));
    }

    #[test]
    fn a_narrated_contest_tells_every_pair_and_the_tie_rolled_again() {
        let (out, steps) = crate::rules::told::steps([11, 11, 3, 9], |d| {
            contest(s("16"), s("16"), GrabContest::Margin, d)
        });
        assert_eq!(out.rolls, 2);
        assert_eq!(
            steps[1..],
            [
                "The first rolls 11 against 16 (margin +5), the second 11 against 16 (margin +5): a tie, rolled again.",
                "The first rolls 3 against 16 (margin +13), the second 9 against 16 (margin +7): the first wins.",
            ]
        );
        let (_, steps) = crate::rules::told::steps([7, 7], |d| {
            contest(s("18/40"), s("18/00"), GrabContest::HighestSuccess, d)
        });
        assert_eq!(
            steps,
            [
                "The Strength contest: each side rolls a d20 against his Strength, the first 18/40, the second 18/00; the higher roll still at or under its score wins, and a tie is rolled again.",
                "The first rolls 7 against 18/40 (made), the second 7 against 18/00 (made): the second wins on the higher percentile.",
            ]
        );
    }
}
