//! The general round of a fight (docs/rules.md §6 "The round of a fight", "Fights as the table plays
//! them"): initiative, the armed man's first strike, each side's first attacks in initiative order, then
//! the second attacks in initiative order again, with holds, stuns, knock-downs, and no blows on the fallen
//! save a lethal victim's finish. Every attack is rolled as it is made: its d20, then what a hit needs
//! (damage dice, a punch's knockout d100 and a knockout's d10), and a held fighter's contest in place of his
//! first attack. Holds, stuns, knock-downs and falls change who acts and what is rolled mid-round, so
//! rolling ahead would mean storing and discarding dice, which measured slower.

use crate::dice::{Roller, narrate, narrate_state};
use crate::rules::attack::contest;
use crate::rules::brawl::{knockout, wrestling_damage};
use crate::rules::fight::decide::{
    ARMED_BONUS, BlowKind, HELD, Order, TARGET_PRONE, TARGET_STUNNED, breaks_free_first, order,
};
use crate::rules::fight::fighter::{Clock, Fighter, KNOCKOUT_PENDING, NO_BOUT, PINNED, Slot};
use crate::rules::fight::tell::{cap, face as face_words, points, terms, verb};
use crate::rules::fight::{ATTACKER, Ending, FightOutcome, FightPlan, VICTIM};
use crate::rules::sap::{KnockoutChance, sap_damage, sap_total};
use crate::rules::section::Section;

/// Which of a side's attacks of the round a turn makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pass {
    /// The first pass: a fighter's first attack (a monster's every attack form).
    First,
    /// The second pass, after every fighter's first: the attacks left.
    Second,
    /// All of them at once: the armed man's turn, which comes before the unarmed attack.
    All,
}

impl FightPlan {
    /// The end of a round: the outcome if the fight is over; else, when nobody is down, temporary damage
    /// heals a point when its countdown `heal_in` (rounds left, not a division per round) runs out, and the
    /// fight goes on. A fight goes on past a fall only while a lethal victim still stands over a living
    /// foe he means to finish (docs/rules.md §6 "No blows on the fallen"); nobody heals meanwhile.
    #[inline(always)]
    pub(super) fn after_round<R: Roller + ?Sized>(
        &self,
        f: &mut [Fighter; 2],
        round: u32,
        heal_in: &mut u32,
        rng: &R,
    ) -> Option<FightOutcome> {
        if f[ATTACKER].down() || f[VICTIM].down() {
            if self.finishing(f) {
                narrate!(
                    rng,
                    Section::Fights,
                    "{} is down but alive, and {} fights to kill: he strikes the fallen next round.",
                    cap(self.name(ATTACKER)),
                    self.name(VICTIM)
                );
            }
            return (!self.finishing(f)).then(|| self.ending(f, round, *heal_in));
        }
        *heal_in -= 1;
        if *heal_in == 0 {
            *heal_in = self.options.temp_heal_rounds;
            for fighter in f.iter_mut() {
                fighter.heal(self.unit);
            }
            narrate!(
                rng,
                Section::Fights,
                "End of round {round}: {} rounds have passed, and each fighter heals a point of temporary damage.",
                self.options.temp_heal_rounds
            );
            narrate_state!(rng, "{}", self.tell_state(f, round));
        }
        None
    }

    /// A victim still standing means to strike his downed foe again: the attacker is down but not yet
    /// dead, and the victim finishes the fallen.
    #[inline(always)]
    pub(super) fn finishing(&self, f: &[Fighter; 2]) -> bool {
        f[ATTACKER].down() && !f[VICTIM].down() && self.finishes::<VICTIM>(f)
    }

    /// Side `S` would finish his downed foe: he finishes the fallen, the foe is not yet dead, and the
    /// weapon he holds outside a bout can kill (a weapon, or natural attacks). Fists cannot: their damage
    /// is mostly temporary, and the text knows no finishing blow with them (docs/rules.md §6 "No blows on
    /// the fallen").
    #[inline(always)]
    fn finishes<const S: usize>(&self, f: &[Fighter; 2]) -> bool {
        let me = &self.sides[S];
        me.finishes
            && !f[1 - S].dead(self.death_at)
            && me.blows[f[S].home as usize].kind.damage_dice().is_some()
    }

    /// How the fight stands after `round`: the side left standing wins, both down is both down, and
    /// nobody down is a timeout; the loser's clock runs from here, healing next at the end of round
    /// `round + heal_in`.
    #[inline(always)]
    pub(super) fn ending(&self, f: &[Fighter; 2], round: u32, heal_in: u32) -> FightOutcome {
        let ending = match [f[ATTACKER].down(), f[VICTIM].down()] {
            [true, true] => Ending::BothDown,
            [false, true] => Ending::AttackerWins,
            [true, false] => Ending::VictimWins,
            [false, false] => Ending::Timeout,
        };
        FightOutcome {
            ending,
            rounds: round,
            killed: [
                f[ATTACKER].dead(self.death_at),
                f[VICTIM].dead(self.death_at),
            ],
            won_by_opening: false,
            rounds_out: FightPlan::loser(ending)
                .and_then(|s| self.rounds_out(&f[s], round, heal_in)),
            woke_before_bound: false,
        }
    }

    /// Nobody fell within `max_rounds`.
    pub(super) fn timeout(&self) -> FightOutcome {
        FightOutcome {
            ending: Ending::Timeout,
            rounds: self.max_rounds,
            killed: [false, false],
            won_by_opening: false,
            rounds_out: None,
            woke_before_bound: false,
        }
    }

    /// The side whose armed man strikes first this round, if any (docs/rules.md §3, §6 "The armed
    /// defender, both ways"): his blow in hand is armed, his foe's is unarmed and the foe is about to
    /// strike (he can act).
    #[inline(always)]
    pub(super) fn armed_side(&self, f: &[Fighter; 2], round: u32) -> Option<usize> {
        if !self.armed_defender {
            return None;
        }
        match self.armed_first[f[ATTACKER].slot as usize][f[VICTIM].slot as usize] {
            0 => None,
            man => {
                let man = usize::from(man - 1);
                f[1 - man].can_act(round).then_some(man)
            }
        }
    }

    /// The rounds of any other fight, where holds, stuns, knock-downs, an armed man, several attacks a
    /// round or a lethal finish can happen.
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
            if let Some(outcome) = self.round(f, round, &mut heal_in, &mut bout_began, rng) {
                return outcome;
            }
            let Some(next) = round.checked_add(1) else {
                break;
            };
            round = next;
        }
        // The last round ended with a lethal victim still finishing his foe: the side left standing wins.
        self.ending(f, self.max_rounds, heal_in)
    }

    /// One round of the general fight, to its end: the outcome if the fight is over. The simulation fights
    /// its rounds with it, and the exact answer (`chain.rs`) walks it die by die from each state a fight can
    /// reach.
    #[inline(always)]
    pub(super) fn round<R: Roller + ?Sized>(
        &self,
        f: &mut [Fighter; 2],
        round: u32,
        heal_in: &mut u32,
        bout_began: &mut u32,
        rng: &mut R,
    ) -> Option<FightOutcome> {
        narrate!(rng, Section::Fights, "Round {round}.");
        // After the first round of a wrestling bout only size S weapons can be used.
        if round > *bout_began {
            for s in [ATTACKER, VICTIM] {
                if f[s].slot == Slot::Main {
                    f[s].slot = self.sides[s].in_bout;
                    if f[s].slot != Slot::Main {
                        narrate!(
                            rng,
                            Section::Fights,
                            "After the first round of the wrestling bout only small weapons serve: {} fights with {}.",
                            self.name(s),
                            if f[s].slot == Slot::Backup {
                                "his backup weapon"
                            } else {
                                "his bare hands"
                            }
                        );
                    }
                }
            }
        }
        if f[ATTACKER].down() {
            // Only a lethal victim finishing the fallen attacker is left to act.
            self.finish_round(f, round, bout_began, rng);
        } else {
            self.fought_round(f, round, bout_began, rng);
        }
        self.after_round(f, round, heal_in, rng)
    }

    /// A round both fighters begin standing: initiative, the armed man, and the passes.
    #[inline(always)]
    fn fought_round<R: Roller + ?Sized>(
        &self,
        f: &mut [Fighter; 2],
        round: u32,
        bout_began: &mut u32,
        rng: &mut R,
    ) {
        // A called shot adds to its maker's roll (the lower acts first), in every round he makes one.
        let called_shot = self.sides[ATTACKER].blows[f[ATTACKER].slot as usize].called_shot;
        narrate!(
            rng,
            Section::Core,
            "Initiative: a d10 each, {} first; the lower acts first{}.",
            self.name(ATTACKER),
            if called_shot > 0 {
                format!(
                    ", {} adding {called_shot} for his called shot",
                    self.name(ATTACKER)
                )
            } else {
                String::new()
            }
        );
        // Only the order is read (and told), so an exact walk sees three orders rather than a hundred pairs.
        let [a, v] = rng.pair_grouped([10, 10], &|a, v| order([a + called_shot, v]) as u32);
        let initiative = [a + called_shot, v];
        let order = order(initiative);
        narrate!(
            rng,
            Section::Core,
            "{} {}, {} {}: {}.",
            cap(self.name(ATTACKER)),
            initiative[0],
            self.name(VICTIM),
            initiative[1],
            match order {
                Order::AttackerFirst => format!("{} acts first", self.name(ATTACKER)),
                Order::VictimFirst => format!("{} acts first", self.name(VICTIM)),
                Order::Together => "they act together".to_string(),
            }
        );
        let armed = self.armed_side(f, round);
        if let Some(man) = armed {
            narrate!(
                rng,
                Section::ArmedDefender,
                "{} is armed against a foe closing on him unarmed: {}, at +{} to hit and damage.",
                cap(self.name(man)),
                if self.options.armed_defender_extra_attack {
                    "he strikes an extra blow before the round"
                } else {
                    "he makes all his attacks first"
                },
                crate::rules::armed_defender::armed_bonus(&self.options)
            );
        }
        if let Some(man) = armed
            && !self.options.armed_defender_extra_attack
        {
            // The armed man resolves all his attacks first, at +4 to hit and damage, then his foe.
            if man == VICTIM {
                if f[VICTIM].can_act(round) {
                    self.turn::<VICTIM, R>(f, round, Pass::All, true, bout_began, rng);
                }
                if f[ATTACKER].can_act(round) {
                    self.turn::<ATTACKER, R>(f, round, Pass::All, false, bout_began, rng);
                }
            } else {
                if f[ATTACKER].can_act(round) {
                    self.turn::<ATTACKER, R>(f, round, Pass::All, true, bout_began, rng);
                }
                if f[VICTIM].can_act(round) {
                    self.turn::<VICTIM, R>(f, round, Pass::All, false, bout_began, rng);
                }
            }
        } else {
            // One extra attack at +4 before the round; his normal attacks follow initiative. It is an
            // attack, not his turn: a held man still spends his first normal attack on the contest, not
            // this one.
            if armed == Some(VICTIM) && f[VICTIM].can_act(round) {
                self.attack::<VICTIM, R, false>(f, round, true, 0, bout_began, rng);
                narrate_state!(rng, "{}", self.tell_state(f, round));
            } else if armed == Some(ATTACKER) && f[ATTACKER].can_act(round) {
                self.attack::<ATTACKER, R, false>(f, round, true, 0, bout_began, rng);
                narrate_state!(rng, "{}", self.tell_state(f, round));
            }
            self.pass(f, round, order, Pass::First, bout_began, rng);
            if self.staggers {
                self.pass(f, round, order, Pass::Second, bout_began, rng);
            }
        }
    }

    /// One pass of the round in initiative order: each side able to act makes its attacks of the pass.
    #[inline(always)]
    fn pass<R: Roller + ?Sized>(
        &self,
        f: &mut [Fighter; 2],
        round: u32,
        order: Order,
        pass: Pass,
        bout_began: &mut u32,
        rng: &mut R,
    ) {
        // Each order is spelled out with constant sides, so that both fighters stay in registers.
        match order {
            Order::AttackerFirst => {
                if f[ATTACKER].can_act(round) {
                    self.turn::<ATTACKER, R>(f, round, pass, false, bout_began, rng);
                }
                if f[VICTIM].can_act(round) {
                    self.turn::<VICTIM, R>(f, round, pass, false, bout_began, rng);
                }
            }
            Order::VictimFirst => {
                if f[VICTIM].can_act(round) {
                    self.turn::<VICTIM, R>(f, round, pass, false, bout_began, rng);
                }
                if f[ATTACKER].can_act(round) {
                    self.turn::<ATTACKER, R>(f, round, pass, false, bout_began, rng);
                }
            }
            Order::Together => {
                // Simultaneous: both sides' attacks of the pass are rolled and all their effects apply
                // together.
                let victim_able = f[VICTIM].can_act(round);
                if f[ATTACKER].can_act(round) {
                    self.turn::<ATTACKER, R>(f, round, pass, false, bout_began, rng);
                }
                if victim_able {
                    self.turn::<VICTIM, R>(f, round, pass, false, bout_began, rng);
                }
            }
        }
    }

    /// One side's attacks of a pass (the first attack spent breaking a hold, or keeping one). Nobody
    /// strikes a fallen foe, except a lethal victim finishing a living one. `armed` adds the armed man's
    /// bonus to hit and damage.
    #[inline(always)]
    pub(super) fn turn<const S: usize, R: Roller + ?Sized>(
        &self,
        f: &mut [Fighter; 2],
        round: u32,
        pass: Pass,
        armed: bool,
        bout_began: &mut u32,
        rng: &mut R,
    ) {
        let (s, o) = (S, 1 - S);
        // Most fighters make one attack a round: unless a hold is in play, their turn is that attack in the
        // first pass, and nothing in the second. Why a path of its own: it spares the common round the count
        // and the loop (about a tenth of a brawl round's instructions).
        if self.sides[s].single && !f[s].held && f[s].holding == 0 {
            // Both stood as the round began, so a lone attack meets a standing foe, unless an armed man's
            // extra attack has just dropped him.
            match pass {
                Pass::Second => {}
                Pass::First | Pass::All if self.options.armed_defender_extra_attack => {
                    self.attack::<S, R, true>(f, round, armed, 0, bout_began, rng)
                }
                Pass::First | Pass::All => {
                    self.attack::<S, R, false>(f, round, armed, 0, bout_began, rng)
                }
            }
            if pass != Pass::Second {
                narrate_state!(rng, "{}", self.tell_state(f, round));
            }
            return;
        }
        // A holder who has fallen holds nothing.
        if f[s].held && f[o].down() {
            f[s].held = false;
            f[o].holding = 0;
        }
        let n = self.attacks(s, round);
        let split = self.sides[s].first_pass[(round % 2) as usize];
        let (from, to) = match pass {
            Pass::First => (0, split),
            Pass::Second => (split, n),
            Pass::All => (0, n),
        };
        let mut next = from;
        if from == 0 && n > 0 {
            if breaks_free_first(f[s].held, self.options.held_response) {
                // The held fighter's first attack is the contest to break free.
                narrate!(
                    rng,
                    Section::Fights,
                    "{} is held: his first attack is a Strength contest to break free.",
                    cap(self.name(s))
                );
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
                narrate!(
                    rng,
                    Section::Fights,
                    "{} {}.",
                    cap(self.name(s)),
                    if c.first_wins {
                        "breaks free"
                    } else {
                        "stays held"
                    }
                );
                next = 1;
            } else if f[s].holding > 0 && f[s].hold_began < round && self.strikes::<S>(f) {
                // Keeping the hold is the holder's attack: k + Strength in its k-th round.
                f[s].holding += 1;
                let d = wrestling_damage(
                    f[s].holding,
                    self.sides[s].damage_adjustment,
                    self.options.rounding,
                );
                f[o].take(d, self.unit);
                narrate!(
                    rng,
                    Section::Fights,
                    "{} keeps his hold on {} (its round {}), his attack: {} real and {} temporary damage.",
                    cap(self.name(s)),
                    self.name(o),
                    f[s].holding,
                    d.real,
                    d.temporary
                );
                next = 1;
            }
        }
        for i in next..to {
            self.attack::<S, R, true>(f, round, armed, i as usize, bout_began, rng);
        }
        if from < to || next > from {
            narrate_state!(rng, "{}", self.tell_state(f, round));
        }
    }

    /// Side `S` strikes his foe now: the foe stands, or is down and `S` finishes him.
    #[inline(always)]
    fn strikes<const S: usize>(&self, f: &[Fighter; 2]) -> bool {
        !f[1 - S].down() || self.finishes::<S>(f)
    }

    /// A round that begins with the attacker down and a lethal victim over him: the victim's attacks of
    /// the round, each a finishing blow, until he is dead.
    #[inline(always)]
    fn finish_round<R: Roller + ?Sized>(
        &self,
        f: &mut [Fighter; 2],
        round: u32,
        bout_began: &mut u32,
        rng: &mut R,
    ) {
        for i in 0..self.attacks(VICTIM, round) {
            self.attack::<VICTIM, R, true>(f, round, false, i as usize, bout_began, rng);
        }
        narrate_state!(rng, "{}", self.tell_state(f, round));
    }

    /// Attack number `i` of side `s` this round, with the blow of the slot in hand: none at a fallen foe,
    /// save a finishing blow, which hits automatically (a helpless foe, PHB Table 51). `FALLEN`: the foe
    /// may be down (the caller cannot rule it out).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn attack<const S: usize, R: Roller + ?Sized, const FALLEN: bool>(
        &self,
        f: &mut [Fighter; 2],
        round: u32,
        armed: bool,
        i: usize,
        bout_began: &mut u32,
        rng: &mut R,
    ) {
        let (s, o) = (S, 1 - S);
        // A finishing blow comes from the weapon held outside the bout, which ended as the foe fell.
        let finishing = FALLEN && f[o].down();
        if finishing && !self.finishes::<S>(f) {
            return;
        }
        let me = &self.sides[s];
        let in_hand = if finishing { f[s].home } else { f[s].slot } as usize;
        let blow = &me.blows[in_hand];
        if blow.kind == BlowKind::Wrestle {
            // A wrestling attack starts the bout, hit or miss.
            *bout_began = (*bout_began).min(round);
        }
        if blow.kind == BlowKind::Idle {
            return;
        }
        let situation = usize::from(armed) * ARMED_BONUS
            + usize::from(f[o].stunned(round)) * TARGET_STUNNED
            + usize::from(f[o].prone_since.is_some()) * TARGET_PRONE
            + usize::from(f[s].held) * HELD;
        if finishing {
            narrate!(
                rng,
                Section::Fights,
                "{} strikes the fallen {}: a helpless foe is hit whatever the d20 shows.",
                cap(self.name(s)),
                self.name(o)
            );
        } else {
            narrate!(
                rng,
                Section::Fights,
                "{} {} {}: {} or more on the d20 (THAC0 against armor class, modifier {}).",
                cap(self.name(s)),
                verb(blow.kind),
                self.name(o),
                blow.rolls[situation].needed(),
                terms(
                    blow.kind,
                    &me.terms[in_hand],
                    situation,
                    crate::rules::armed_defender::armed_bonus(&self.options),
                    (self.stand, self.stand.bonus(&self.options))
                )
                .words()
            );
        }
        let table = if finishing {
            &blow.helpless
        } else {
            &blow.faces[situation]
        };
        // Read only through its face: an exact walk sees each distinct face once, weighed by its naturals.
        let natural = rng.die_grouped(20, &|n| {
            (1..=20u32)
                .find(|&m| table[m as usize] == table[n as usize])
                .unwrap_or(n)
        }) as usize;
        let face = table[natural];
        narrate!(
            rng,
            Section::Fights,
            "{}.",
            face_words(
                blow.kind,
                natural,
                if finishing {
                    &blow.rolls[0]
                } else {
                    &blow.rolls[situation]
                },
                &face,
                self.unit
            )
        );
        // A missed face does nothing (see `Face::new`), so a wrestling move, which rolls no more dice, needs
        // no branch on hit or miss: its outcome is as random as the d20, and a branch would be mispredicted.
        f[o].suffer(face.damage(), 1);
        match blow.kind {
            BlowKind::Wrestle => {
                if face.hold && f[s].holding == 0 {
                    f[s].holding = 1;
                    f[s].hold_began = round;
                    f[o].held = true;
                    narrate!(
                        rng,
                        Section::Fights,
                        "{} holds {}.",
                        cap(self.name(s)),
                        self.name(o)
                    );
                }
            }
            BlowKind::Weapon { .. } | BlowKind::Natural { .. } if face.hit => {
                narrate!(
                    rng,
                    Section::Fights,
                    "Damage: {} {:+}{}{}.",
                    blow.dice(blow.kind.damage_dice() == Some(true), &me.natural, i),
                    blow.damage_add[usize::from(armed)],
                    if armed {
                        " (with the armed man's bonus)"
                    } else {
                        ""
                    },
                    if blow.kind.held_back() {
                        ", held back: half of it, half of that temporary"
                    } else {
                        ", all of it real"
                    }
                );
                let dealt = blow.roll_damage(&me.natural, i, armed, rng);
                narrate!(
                    rng,
                    Section::Fights,
                    "{} takes {} real and {} temporary damage.",
                    cap(self.name(o)),
                    points(dealt[0], self.unit),
                    points(dealt[1], self.unit)
                );
                f[o].suffer(dealt, 1);
            }
            BlowKind::Punch | BlowKind::MartialArts { .. } if face.hit => {
                if let Some(k) = knockout(u32::from(face.ko_percent), rng) {
                    f[o].stunned_through = f[o].stunned_through.max(round.saturating_add(k));
                    narrate!(
                        rng,
                        Section::Fights,
                        "A knockout: {} is stunned for {k} rounds, through round {}.",
                        self.name(o),
                        f[o].stunned_through
                    );
                }
            }
            BlowKind::Sap if face.hit => {
                // A quarter of the damage real; a knockout (5 % a point, to the cap, against the awake)
                // puts him out for the rest of the fight (docs/rules.md §6 "The text's maneuvers").
                narrate!(
                    rng,
                    Section::Fights,
                    "The sap's damage: {} {:+}, a quarter of it real.",
                    blow.dice,
                    blow.damage_add[usize::from(armed)]
                );
                let total = sap_total(blow.dice.roll(rng) + blow.damage_add[usize::from(armed)]);
                let d = sap_damage(total, self.options.rounding);
                narrate!(
                    rng,
                    Section::Fights,
                    "{} takes {} real and {} temporary damage; the knockout roll is read against {total}.",
                    cap(self.name(o)),
                    d.real,
                    d.temporary
                );
                f[o].take(d, self.unit);
                // The single sap's own knockout d100, read against the awake (it never wakes anyone).
                if KnockoutChance::awake(&self.options).roll(total, rng) == Some(true) {
                    // Out for `sap_ko_rounds` (docs/rules.md §6 "After the blow"), rolled once the fight is
                    // over, so that the fight's own dice are those of a fight without the clock.
                    f[o].down_at = PINNED;
                    f[o].out_through = KNOCKOUT_PENDING;
                    narrate!(rng, Section::Fights, "The sap knocks {} out.", self.name(o));
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
                    f[o].home = self.sides[o].disarmed;
                    f[s].slot = Slot::Backup;
                    f[s].home = Slot::Backup;
                }
                narrate!(
                    rng,
                    Section::Grab,
                    "{}",
                    if c.first_wins {
                        format!(
                            "{} wins the Strength contest and takes the weapon of {}.",
                            cap(self.name(s)),
                            self.name(o)
                        )
                    } else {
                        format!("{} keeps his weapon.", cap(self.name(o)))
                    }
                );
            }
            BlowKind::Overbear if face.hit => {
                match f[o].prone_since {
                    Some(r) if r < round => f[o].down_at = PINNED,
                    Some(_) => {}
                    None => f[o].prone_since = Some(round),
                }
                narrate!(
                    rng,
                    Section::Fights,
                    "{}",
                    match f[o].prone_since {
                        Some(r) if r < round => format!("{} is pinned.", cap(self.name(o))),
                        Some(_) => format!(
                            "{} is knocked down (pinned only by a hit in a later round).",
                            cap(self.name(o))
                        ),
                        None => String::new(),
                    }
                );
            }
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
