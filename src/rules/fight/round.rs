//! The general round of a fight (docs/rules.md §6 "The round of a fight"): initiative, the armed defender's
//! first strike, each side's turn and every attack in the order of play, with holds, stuns and knock-downs.
//! Every attack is rolled as it is made: its d20, then what a hit needs (damage dice, a punch's knockout
//! d100 and a knockout's d10), and a held fighter's contest in place of his first attack. Holds, stuns and
//! knock-downs change who acts and what is rolled mid-round, so rolling ahead would mean storing and
//! discarding dice, which measured slower.

use crate::dice::Roller;
use crate::rules::attack::contest;
use crate::rules::brawl::{knockout, wrestling_damage};
use crate::rules::fight::decide::{
    ARMED_BONUS, BlowKind, HELD, Order, TARGET_PRONE, TARGET_STUNNED, armed_defender_strikes,
    breaks_free_first, called_shot_initiative, order,
};
use crate::rules::fight::fighter::{Clock, Fighter, NO_BOUT, PINNED, Slot};
use crate::rules::fight::{ATTACKER, Ending, FightOutcome, FightPlan, VICTIM};
use crate::rules::sap::{KnockoutChance, sap_damage, sap_total};

impl FightPlan {
    /// The end of a round: the outcome if someone is down; else temporary damage heals a point when its
    /// countdown `heal_in` (rounds left, not a division per round) runs out, and the fight goes on.
    #[inline(always)]
    pub(super) fn after_round(
        &self,
        f: &mut [Fighter; 2],
        round: u32,
        heal_in: &mut u32,
    ) -> Option<FightOutcome> {
        let down = [f[ATTACKER].down(), f[VICTIM].down()];
        if down[ATTACKER] || down[VICTIM] {
            let ending = match down {
                [true, true] => Ending::BothDown,
                [false, true] => Ending::AttackerWins,
                [true, false] | [false, false] => Ending::VictimWins,
            };
            let death_at = self.options.death_at;
            return Some(FightOutcome {
                ending,
                rounds: round,
                killed: [f[ATTACKER].dead(death_at), f[VICTIM].dead(death_at)],
                won_by_opening: false,
            });
        }
        *heal_in -= 1;
        if *heal_in == 0 {
            *heal_in = self.options.temp_heal_rounds;
            for fighter in f.iter_mut() {
                fighter.heal();
            }
        }
        None
    }

    /// Nobody fell within `max_rounds`.
    pub(super) fn timeout(&self) -> FightOutcome {
        FightOutcome {
            ending: Ending::Timeout,
            rounds: self.max_rounds,
            killed: [false, false],
            won_by_opening: false,
        }
    }

    /// The rounds of any other fight, where holds, stuns, knock-downs or an armed defender can happen.
    #[inline(always)]
    pub(super) fn rounds<R: Roller + ?Sized>(
        &self,
        f: &mut [Fighter; 2],
        from: Clock,
        rng: &mut R,
    ) -> FightOutcome {
        let mut bout_began = NO_BOUT;
        let mut heal_in = from.heal_in;
        let mut round = from.round;
        while round <= self.max_rounds {
            // After the first round of a wrestling bout only size S weapons can be used.
            if round > bout_began {
                for s in [ATTACKER, VICTIM] {
                    if f[s].slot == Slot::Main {
                        f[s].slot = self.sides[s].in_bout;
                    }
                }
            }
            // A called shot adds to its maker's roll (the lower acts first), in every round he makes one.
            // Only a disarmer's blow changes mid-fight; every other attacker's is the one he starts with, so
            // the common round reads the plan's numbers rather than the blow in hand.
            let (called_shot, unarmed) = if self.disarms {
                let blow = self.sides[ATTACKER].blows[f[ATTACKER].slot as usize].kind;
                (called_shot_initiative(blow), blow.is_unarmed())
            } else {
                (self.called_shot, true)
            };
            let initiative = [rng.die(10) + called_shot, rng.die(10)];
            let armed = armed_defender_strikes(
                self.armed_defender,
                &f[VICTIM],
                &f[ATTACKER],
                unarmed,
                round,
            );
            if armed && !self.options.armed_defender_extra_attack {
                // The armed defender resolves all his attacks first, at +4 to hit and damage.
                if f[VICTIM].can_act(round) {
                    self.turn::<VICTIM, R>(f, round, true, &mut bout_began, rng);
                }
                if f[ATTACKER].can_act(round) {
                    self.turn::<ATTACKER, R>(f, round, false, &mut bout_began, rng);
                }
            } else {
                if armed && f[VICTIM].can_act(round) {
                    // One extra attack at +4 before the round; his normal attacks follow initiative. It is
                    // an attack, not his turn: a held defender still spends his first normal attack on the
                    // contest, not this one.
                    self.attack::<VICTIM, R>(f, round, true, 0, &mut bout_began, rng);
                }
                // Each order is spelled out with constant sides, so that both fighters stay in registers.
                match order(initiative) {
                    Order::AttackerFirst => {
                        if f[ATTACKER].can_act(round) {
                            self.turn::<ATTACKER, R>(f, round, false, &mut bout_began, rng);
                        }
                        if f[VICTIM].can_act(round) {
                            self.turn::<VICTIM, R>(f, round, false, &mut bout_began, rng);
                        }
                    }
                    Order::VictimFirst => {
                        if f[VICTIM].can_act(round) {
                            self.turn::<VICTIM, R>(f, round, false, &mut bout_began, rng);
                        }
                        if f[ATTACKER].can_act(round) {
                            self.turn::<ATTACKER, R>(f, round, false, &mut bout_began, rng);
                        }
                    }
                    Order::Together => {
                        // Simultaneous: both sides' attacks are rolled and all their effects apply together.
                        let victim_able = f[VICTIM].can_act(round);
                        if f[ATTACKER].can_act(round) {
                            self.turn::<ATTACKER, R>(f, round, false, &mut bout_began, rng);
                        }
                        if victim_able {
                            self.turn::<VICTIM, R>(f, round, false, &mut bout_began, rng);
                        }
                    }
                }
            }
            if let Some(outcome) = self.after_round(f, round, &mut heal_in) {
                return outcome;
            }
            let Some(next) = round.checked_add(1) else {
                break;
            };
            round = next;
        }
        self.timeout()
    }

    /// One side's turn: its attacks for the round (the first spent breaking a hold, or keeping one), each
    /// resolving even after the target has fallen. `armed` adds the armed defender's bonus to hit and damage.
    #[inline(always)]
    pub(super) fn turn<const S: usize, R: Roller + ?Sized>(
        &self,
        f: &mut [Fighter; 2],
        round: u32,
        armed: bool,
        bout_began: &mut u32,
        rng: &mut R,
    ) {
        let (s, o) = (S, 1 - S);
        // Most fighters make one attack a round: unless a hold is in play, their turn is that attack.
        // Why a path of its own: it spares the common round the count and the loop (about a tenth of a
        // brawl round's instructions).
        if self.sides[s].single && !f[s].held && f[s].holding == 0 {
            self.attack::<S, R>(f, round, armed, 0, bout_began, rng);
            return;
        }
        let n = self.attacks(s, round);
        let mut first = 0;
        if n > 0 && breaks_free_first(f[s].held, self.options.held_response) {
            // The held fighter's first attack is the contest to break free.
            let c = contest(
                self.sides[s].breaking,
                self.sides[o].holding,
                self.options.grab_contest,
                rng,
            );
            if c.first_wins {
                f[s].held = false;
                f[o].holding = 0;
            }
            first = 1;
        } else if n > 0 && f[s].holding > 0 && f[s].hold_began < round {
            // Keeping the hold is the holder's attack: k + Strength in its k-th round.
            f[s].holding += 1;
            let d = wrestling_damage(
                f[s].holding,
                self.sides[s].damage_adjustment,
                self.options.rounding,
            );
            f[o].take(d);
            first = 1;
        }
        for i in first..n {
            self.attack::<S, R>(f, round, armed, i as usize, bout_began, rng);
        }
    }

    /// Attack number `i` of side `s` this round, with the blow of the slot in hand.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn attack<const S: usize, R: Roller + ?Sized>(
        &self,
        f: &mut [Fighter; 2],
        round: u32,
        armed: bool,
        i: usize,
        bout_began: &mut u32,
        rng: &mut R,
    ) {
        let (s, o) = (S, 1 - S);
        let me = &self.sides[s];
        let blow = &me.blows[f[s].slot as usize];
        let situation = usize::from(armed) * ARMED_BONUS
            + usize::from(f[o].stunned(round)) * TARGET_STUNNED
            + usize::from(f[o].prone_since.is_some()) * TARGET_PRONE
            + usize::from(f[s].held) * HELD;
        if blow.kind == BlowKind::Wrestle {
            // A wrestling attack starts the bout, hit or miss.
            *bout_began = (*bout_began).min(round);
        }
        if blow.kind == BlowKind::Idle {
            return;
        }
        let face = blow.faces[situation][rng.die(20) as usize];
        // A missed face does nothing (see `Face::new`), so a wrestling move, which rolls no more dice, needs
        // no branch on hit or miss: its outcome is as random as the d20, and a branch would be mispredicted.
        f[o].suffer(face.damage(), 1);
        match blow.kind {
            BlowKind::Wrestle => {
                if face.hold && f[s].holding == 0 {
                    f[s].holding = 1;
                    f[s].hold_began = round;
                    f[o].held = true;
                }
            }
            BlowKind::Weapon { .. } | BlowKind::Natural { .. } if face.hit => {
                f[o].suffer(blow.roll_damage(&me.natural, i, armed, rng), 1);
            }
            BlowKind::Punch | BlowKind::MartialArts { .. } if face.hit => {
                if let Some(k) = knockout(u32::from(face.ko_percent), rng) {
                    f[o].stunned_through = f[o].stunned_through.max(round.saturating_add(k));
                }
            }
            BlowKind::Sap if face.hit => {
                // A quarter of the damage real; a knockout (5 % a point, to the cap, against the awake)
                // puts him out for the rest of the fight (docs/rules.md §6 "The text's maneuvers").
                let total = sap_total(blow.dice.roll(rng) + blow.damage_add[usize::from(armed)]);
                f[o].take(sap_damage(total, self.options.rounding));
                // The single sap's own knockout d100, read against the awake (it never wakes anyone).
                if KnockoutChance::awake(&self.options).roll(total, rng) == Some(true) {
                    f[o].down_at = PINNED;
                }
            }
            BlowKind::Disarm if face.hit => {
                // The grab touched the weapon: the Strength contest decides control (docs/rules.md §5).
                // Won, the victim falls back on his backup weapon or his fists, and the attacker fights on
                // with `then` (the backup slot of his side).
                let c = contest(
                    me.breaking,
                    self.sides[o].breaking,
                    self.options.grab_contest,
                    rng,
                );
                if c.first_wins {
                    f[o].slot = self.sides[o].disarmed;
                    f[s].slot = Slot::Backup;
                }
            }
            BlowKind::Overbear if face.hit => match f[o].prone_since {
                Some(r) if r < round => f[o].down_at = PINNED,
                Some(_) => {}
                None => f[o].prone_since = Some(round),
            },
            // A miss, or no attack at all, does nothing more.
            BlowKind::Weapon { .. }
            | BlowKind::Natural { .. }
            | BlowKind::Punch
            | BlowKind::MartialArts { .. }
            | BlowKind::Overbear
            | BlowKind::Sap
            | BlowKind::Disarm
            | BlowKind::Idle => {}
        }
    }
}
