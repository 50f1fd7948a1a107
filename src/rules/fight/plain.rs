//! The plain round: a fight of weapons and natural attacks only, one attack a side each round, where nobody
//! can be stunned, knocked down, pinned or held, and there is no armed man. After both initiatives it rolls the attacker's attacks and
//! then the victim's, each its d20 and its damage dice, hit or miss, and whether its side will still stand to
//! strike or not; initiative only orders the effects. Why: such a round runs without a branch on who acts
//! first or on hit or miss (1.4 times as fast as the general round when it was introduced, more since its
//! attacks are folded into `PlainStrike`s), and rule variants that change only who hits meet the same damage
//! dice. An exact enumeration of every die of a round holds it to the general round
//! (`a_plain_round_has_exactly_the_general_rounds_outcomes`).

use crate::dice::{Roller, narrate, narrate_state};
use crate::rules::fight::fighter::{Clock, Fighter};
use crate::rules::fight::fold::PlainSide;
use crate::rules::fight::tell::{cap, points};
use crate::rules::fight::{ATTACKER, FightOutcome, FightPlan, VICTIM};
use crate::rules::section::Section;

impl FightPlan {
    /// The rounds of a plain fight ([`FightPlan::plain`]). Only damage happens, so each side's attacks come
    /// down to the real and temporary damage of those that hit; the faster side always strikes (both stand
    /// as a round begins), and the slower one if he still stands or on a tie. `Err`: the attacker fell and
    /// the victim finishes him, from that round on, in the general round.
    #[inline(always)]
    pub(super) fn plain_rounds<R: Roller + ?Sized>(
        &self,
        plain: &[PlainSide; 2],
        f: &mut [Fighter; 2],
        from: Clock,
        rng: &mut R,
    ) -> Result<FightOutcome, Clock> {
        let mut heal_in = from.heal_in;
        // A counter that stops after the last round a `u32` holds, not `from.round..=self.max_rounds`: the
        // inclusive range's check for exhaustion cost about 5 % of a round's instructions, here and in
        // `rounds`.
        let mut round = from.round;
        while round <= self.max_rounds {
            let rolled = self.plain_roll(plain, round, rng);
            if let Some(outcome) = self.plain_land(f, &rolled, round, &mut heal_in, rng) {
                return Ok(outcome);
            }
            let Some(next) = round.checked_add(1) else {
                break;
            };
            round = next;
            if f[ATTACKER].down() {
                // A lethal victim finishes the fallen attacker: the general round goes on from here. (Not a
                // call from inside this loop: a function out of line that took the fighters would keep
                // them in memory rather than in registers, which cost the plain round a tenth.)
                return Err(Clock { round, heal_in });
            }
        }
        Ok(self.ending(f, self.max_rounds, heal_in))
    }

    /// The dice of one plain round, which no state of the fight changes: both initiatives, then the
    /// attacker's attacks and the victim's, each its d20 and its damage dice, hit or miss.
    #[inline(always)]
    pub(super) fn plain_roll<R: Roller + ?Sized>(
        &self,
        plain: &[PlainSide; 2],
        round: u32,
        rng: &mut R,
    ) -> PlainRoll {
        let first = self.plain_initiative(round, rng);
        narrate!(
            rng,
            Section::Fights,
            "{} strikes at {}, the damage dice rolled with each attack, counted if it hits.",
            cap(self.name(ATTACKER)),
            self.name(VICTIM)
        );
        let by_attacker = plain[ATTACKER].attacks(round, rng);
        narrate!(
            rng,
            Section::Fights,
            "{} strikes at {}, the damage dice rolled with each attack, counted if it hits.",
            cap(self.name(VICTIM)),
            self.name(ATTACKER)
        );
        let by_victim = plain[VICTIM].attacks(round, rng);
        PlainRoll {
            first,
            dealt: [by_attacker, by_victim],
        }
    }

    /// A plain round's initiative: a d10 each, the attacker's first, the lower acting first (only the
    /// order is read, so an exact walk sees its three orders rather than a hundred pairs).
    #[inline(always)]
    pub(super) fn plain_initiative<R: Roller + ?Sized>(
        &self,
        round: u32,
        rng: &mut R,
    ) -> std::cmp::Ordering {
        narrate!(
            rng,
            Section::Fights,
            "Round {round}. Initiative: a d10 each, {} first; the lower acts first.",
            self.name(ATTACKER)
        );
        let [a, v] = rng.pair_grouped([10, 10], &|a, v| (a.cmp(&v) as i32 + 1) as u32);
        narrate!(
            rng,
            Section::Core,
            "{} {a}, {} {v}: {}.",
            cap(self.name(ATTACKER)),
            self.name(VICTIM),
            match a.cmp(&v) {
                std::cmp::Ordering::Less => format!("{} acts first", self.name(ATTACKER)),
                std::cmp::Ordering::Greater => format!("{} acts first", self.name(VICTIM)),
                std::cmp::Ordering::Equal => "they act together".to_string(),
            }
        );
        a.cmp(&v)
    }

    /// A plain round's dice landing on the fighters, to the round's end: the outcome if the fight is over.
    /// Both stand as a round begins, so the faster side always strikes and the slower one if he still
    /// stands, or on a tie.
    #[inline(always)]
    pub(super) fn plain_land<R: Roller + ?Sized>(
        &self,
        f: &mut [Fighter; 2],
        rolled: &PlainRoll,
        round: u32,
        heal_in: &mut u32,
        rng: &R,
    ) -> Option<FightOutcome> {
        let [by_attacker, by_victim] = rolled.dealt;
        // 1 or 0, as multipliers. On a tie nothing lands before both have struck.
        let attacker_first = i32::from(rolled.first == std::cmp::Ordering::Less);
        let victim_first = i32::from(rolled.first == std::cmp::Ordering::Greater);
        // Both stand as a round begins, so a side strikes exactly when the other side's faster blows
        // (none unless the other side is faster) leave him conscious.
        let attacker_strikes = i32::from(f[ATTACKER].stands_after(by_victim, victim_first));
        let victim_strikes = i32::from(f[VICTIM].stands_after(by_attacker, attacker_first));
        f[VICTIM].suffer(by_attacker, attacker_strikes);
        f[ATTACKER].suffer(by_victim, victim_strikes);
        if rng.narrator().is_some() {
            for (s, strikes, dealt) in [
                (ATTACKER, attacker_strikes, by_attacker),
                (VICTIM, victim_strikes, by_victim),
            ] {
                narrate!(
                    rng,
                    Section::Fights,
                    "{}",
                    if strikes == 1 {
                        format!(
                            "{}'s blows land: {} real and {} temporary damage to {}.",
                            cap(self.name(s)),
                            points(dealt[0], self.unit),
                            points(dealt[1], self.unit),
                            self.name(1 - s)
                        )
                    } else {
                        format!(
                            "{} falls to the faster blows before his own land.",
                            cap(self.name(s))
                        )
                    }
                );
            }
            narrate_state!(rng, "{}", self.tell_state(f, round));
        }
        self.after_round(f, round, heal_in, rng)
    }
}

/// The dice of one plain round ([`FightPlan::plain_roll`]): who acts first (the attacker's initiative
/// against the victim's, the lower first), and the real and temporary damage each side's hits deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct PlainRoll {
    pub(super) first: std::cmp::Ordering,
    pub(super) dealt: [[i32; 2]; 2],
}

impl PlainSide {
    /// Rolls this side's attacks in a plain round, each its d20 and its damage dice, and returns the real
    /// and temporary damage of those that hit.
    #[inline(always)]
    pub(super) fn attacks<R: Roller + ?Sized>(&self, round: u32, rng: &mut R) -> [i32; 2] {
        let n = self.attacks[(round % 2) as usize] as usize;
        let mut dealt = [0, 0];
        for strike in &self.strikes[..n] {
            narrate!(
                rng,
                Section::Fights,
                "Attack roll: {} or more on the d20 (modifier {:+}); damage {} {:+}.",
                strike.roll.needed(),
                strike.roll.modifier,
                strike.dice,
                strike.add
            );
            let hit = i32::from(
                strike
                    .roll
                    .hits(rng.die_grouped(20, &|natural| u32::from(strike.roll.hits(natural)))),
            );
            let [real, temporary] = strike.split.damage(strike.dice.roll(rng) + strike.add);
            narrate!(
                rng,
                Section::Fights,
                "{}",
                if hit == 1 {
                    format!(
                        "A hit: {} real and {} temporary damage.",
                        points(real, strike.split.unit),
                        points(temporary, strike.split.unit)
                    )
                } else {
                    "A miss.".to_string()
                }
            );
            dealt[0] += real * hit;
            dealt[1] += temporary * hit;
        }
        dealt
    }
}
