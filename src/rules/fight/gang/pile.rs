//! PILES (docs/rules.md §6 "Several combatants a side"; PHB overbearing): several overbearing one foe roll
//! once as a pile, not each on his own.
//!
//! - `pile = "phb"` (default): one attack roll at the weakest member's to-hit, with the largest member's size
//!   modifier and +1 for every member beyond the first. (The PHB's own example: a giant and three pixies on a
//!   man roll with the pixies' to-hit, +3 for the extra attackers and +8 for the giant's size.)
//! - `pile = "combat_and_tactics"`: the defender takes a free attack at each member as the pile forms; then
//!   the best member's THAC0 against AC 10 adjusted only by the defender's Dexterity and magic, and if it
//!   hits an opposed Strength roll: the largest member's Strength, ±4 a size, +1 for every member beyond the
//!   first, against the defender's.
//!
//! A pile that succeeds does what one overbearing does: the foe is knocked down, or pinned if he was already
//! down from an earlier round. The pile forms at the turn of its first member in the first pass; the others
//! spend their first attack of the round in it.

use crate::dice::Roller;
use crate::rules::attack::{AttackRoll, contest};
use crate::rules::fight::decide::{BlowKind, TARGET_PRONE, TARGET_STUNNED};
use crate::rules::fight::fighter::PINNED;
use crate::rules::options::Pile;

use super::plan::GangPlan;
use super::round::{Fighting, Who};
use super::streams::MemberDice;
use super::tell;
use crate::rules::fight::tell::cap;
use crate::rules::section::Section;

impl GangPlan {
    /// The members of `who`'s side who would overbear foe `t` with their first attack now: `who` first,
    /// then the others in order (standing, able, not yet attacked this round, neither holding nor held).
    pub(super) fn pile_of(
        &self,
        m: &[Vec<Fighting>; 2],
        who: Who,
        t: usize,
        round: u32,
    ) -> Vec<usize> {
        let s = who.0;
        let joins = |j: usize| {
            let x = &m[s][j];
            x.f.can_act(round)
                && x.attacks_made == 0
                && x.holds.is_none()
                && x.held_by.is_none()
                && x.foe == Some(t)
                && self.overbears(m, (s, j), t)
        };
        if !joins(who.1) {
            return Vec::new();
        }
        std::iter::once(who.1)
            .chain((0..m[s].len()).filter(|&j| j != who.1 && joins(j)))
            .collect()
    }

    /// The pile `members` of side `s` on foe `t`, rolled by its first member.
    pub(super) fn pile<D: MemberDice>(
        &self,
        m: &mut [Vec<Fighting>; 2],
        s: usize,
        members: &[usize],
        t: usize,
        round: u32,
        dice: &mut D,
    ) {
        let o = 1 - s;
        for &j in members {
            m[s][j].attacks_made = 1;
        }
        tell!(
            dice,
            Section::Sides,
            "{} pile on {}: one roll for all, by {}.",
            cap(&members
                .iter()
                .map(|&j| self.name((s, j)))
                .collect::<Vec<_>>()
                .join(" and ")),
            self.name((o, t)),
            self.name((s, members[0]))
        );
        let lands = match self.options.pile {
            Pile::Phb => {
                let needed = self.phb_needed(m, s, members, t, round);
                tell!(
                    dice,
                    Section::Sides,
                    "The PHB pile: the weakest member's to-hit, the largest member's size and +1 for each member beyond the first: {} or more on the d20.",
                    AttackRoll::new(needed, 0, 0, &self.options).needed()
                );
                let natural = dice.member(s, members[0]).die(20);
                let lands = AttackRoll::new(needed, 0, 0, &self.options).hits(natural);
                tell!(
                    dice,
                    Section::Sides,
                    "Natural {natural}: {}.",
                    if lands {
                        "the pile lands"
                    } else {
                        "the pile fails"
                    }
                );
                lands
            }
            Pile::CombatAndTactics => {
                // The defender's free attack at each member as the pile forms.
                tell!(
                    dice,
                    Section::Sides,
                    "The Combat & Tactics pile: {} takes a free attack at each member as it forms.",
                    self.name((o, t))
                );
                for &j in members {
                    if m[o][t].f.can_act(round) {
                        self.strike_at(m, (o, t), j, round, false, 0, dice);
                    }
                }
                let members: Vec<usize> = members
                    .iter()
                    .copied()
                    .filter(|&j| !m[s][j].f.down())
                    .collect();
                !members.is_empty() && self.combat_and_tactics(s, &members, t, dice)
            }
        };
        if lands {
            let foe = &mut m[o][t];
            match foe.f.prone_since {
                Some(r) if r < round => {
                    foe.f.down_at = PINNED;
                    foe.pinned_by = Some(members[0]);
                }
                Some(_) => {}
                None => foe.f.prone_since = Some(round),
            }
            tell!(
                dice,
                Section::Sides,
                "{} is {}.",
                cap(self.name((o, t))),
                if m[o][t].f.down_at == PINNED {
                    "pinned"
                } else {
                    "knocked down"
                }
            );
        }
    }

    /// The d20 a PHB pile needs: the weakest member's (every modifier of his but his size), less the
    /// largest member's size modifier and 1 for each member beyond the first.
    pub(super) fn phb_needed(
        &self,
        m: &[Vec<Fighting>; 2],
        s: usize,
        members: &[usize],
        t: usize,
        round: u32,
    ) -> i32 {
        let o = 1 - s;
        let situation = usize::from(m[o][t].f.stunned(round)) * TARGET_STUNNED
            + usize::from(m[o][t].f.prone_since.is_some()) * TARGET_PRONE;
        let foe_size = self.combatant(o, t).size as i32;
        let size = |j: usize| 4 * (self.combatant(s, j).size as i32 - foe_size);
        let weakest = members
            .iter()
            .map(|&j| {
                let plan = self.between((s, j), t);
                let roll = &plan.sides[s].blows[m[s][j].f.slot as usize].rolls[situation];
                // What he needs with his own size modifier taken out again.
                roll.target - roll.modifier + size(j)
            })
            .max()
            .unwrap_or(20);
        let largest = members.iter().map(|&j| size(j)).max().unwrap_or(0);
        weakest - largest - (members.len() as i32 - 1)
    }

    /// A Combat & Tactics pile, once the defender's free attacks are made: the attack roll, then the
    /// opposed Strength roll.
    fn combat_and_tactics<D: MemberDice>(
        &self,
        s: usize,
        members: &[usize],
        t: usize,
        dice: &mut D,
    ) -> bool {
        let o = 1 - s;
        let foe = self.combatant(o, t);
        let ac = 10 + foe.ac.dexterity - foe.ac.magic;
        let best = members
            .iter()
            .map(|&j| self.combatant(s, j))
            .min_by_key(|c| c.thac0 - c.hit_adjustment())
            .map(|c| AttackRoll::new(c.thac0, ac, c.hit_adjustment(), &self.options));
        let Some(roll) = best else { return false };
        tell!(
            dice,
            Section::Sides,
            "The pile's attack roll: the best member's THAC0 against armor class {ac} (10, the foe's Dexterity and magic): {} or more on the d20.",
            roll.needed()
        );
        let rng = dice.member(s, members[0]);
        let natural = rng.die(20);
        if !roll.hits(natural) {
            crate::dice::narrate!(rng, Section::Sides, "Natural {natural}: a miss.");
            return false;
        }
        let largest = members.iter().map(|&j| self.combatant(s, j)).fold(
            None::<&crate::rules::combatant::Combatant>,
            |big, c| match big {
                Some(b) if b.size >= c.size => Some(b),
                Some(_) | None => Some(c),
            },
        );
        let Some(largest) = largest else { return false };
        let steps = largest.size as i32 - foe.size as i32;
        let pile = largest
            .contest_score()
            .modified(4 * steps + members.len() as i32 - 1);
        crate::dice::narrate!(
            rng,
            Section::Sides,
            "Natural {natural}: a hit. The opposed Strength roll: the largest member's Strength, {:+} for size and numbers, against {}'s.",
            4 * steps + members.len() as i32 - 1,
            self.name((o, t))
        );
        let won = contest(pile, foe.contest_score(), self.options.grab_contest, rng).first_wins;
        crate::dice::narrate!(
            rng,
            Section::Sides,
            "{}",
            if won {
                "The pile wins the Strength roll."
            } else {
                "The foe wins the Strength roll."
            }
        );
        won
    }

    /// `who` overbears with the blow in his hand against `t`.
    pub(super) fn overbears(&self, m: &[Vec<Fighting>; 2], who: Who, t: usize) -> bool {
        let plan = self.between(who, t);
        plan.sides[who.0].blows[m[who.0][who.1].f.slot as usize].kind == BlowKind::Overbear
    }
}
