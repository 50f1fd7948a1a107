//! The round of a fight of several (docs/rules.md §6 "Several combatants a side"), in the order of the
//! table: the downed whose clock ran out get up; initiative (a d10 a side, or one each); every member able
//! to act picks a foe; the armed men strike first at the unarmed foes closing on them; every member's first
//! attacks in initiative order, then the staggered second attacks; the end of the round judges the sides.
//!
//! Members acting on the same initiative act together: who may act is judged as their turn begins, and the
//! effects of their blows all stand. Each attack resolves through the one-on-one plan of its pair, on a copy
//! of the two fighters, so a punch, a held-back cut or a sap reads the very tables it reads one on one.

use crate::dice::Roller;
use crate::rules::attack::contest;
use crate::rules::brawl::wrestling_damage;
use crate::rules::fight::decide::{Stand, breaks_free_first};
use crate::rules::fight::fighter::{Fighter, KNOCKOUT_PENDING, NO_BOUT, PINNED, Slot};
use crate::rules::fight::tell::cap;
use crate::rules::fight::{ATTACKER, VICTIM};
use crate::rules::options::Initiative;
use crate::rules::section::Section;

use super::plan::GangPlan;
use super::streams::MemberDice;
use super::{GangEnding, GangOutcome, tell, tell_state};

/// A member's state in a fight of several: his fighter as one on one, and what ties him to the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Fighting {
    pub(super) f: Fighter,
    /// The foe he is attacking (an index on the other side), kept until that foe is down.
    pub(super) foe: Option<usize>,
    /// The foe he holds in a wrestling hold.
    pub(super) holds: Option<usize>,
    /// The foe holding him.
    pub(super) held_by: Option<usize>,
    /// The foe who pinned him: he stays down while that foe stands over him.
    pub(super) pinned_by: Option<usize>,
    /// The first round of a wrestling bout he is in (`NO_BOUT`: none).
    pub(super) bout_began: u32,
    /// His initiative this round.
    pub(super) initiative: u32,
    /// Attacks of this round already made (the armed man's first strikes count).
    pub(super) attacks_made: u32,
    /// A friend already tried to break the hold on him this round.
    pub(super) helped: bool,
}

/// One member: his side and index on it.
pub(super) type Who = (usize, usize);

/// Lists a trial reuses from round to round, so that a round allocates nothing.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    /// Everyone, in the order they act this round.
    order: Vec<Who>,
    /// Who of a group acting together may act.
    able: Vec<bool>,
    /// The armed men and the unarmed closing on them.
    closing: Vec<(Who, usize)>,
}

/// What a trial keeps in lists: the members' states and the round's scratch lists. A run keeps one per
/// thread from trial to trial ([`GangPlan::resolve`](crate::rules::maneuver::Maneuver::resolve)), so that a
/// trial allocates nothing once the first trials have sized them: a short fight's cost was mostly its
/// allocations.
#[derive(Debug, Default)]
pub(super) struct Lists {
    /// Every member's state, attackers then victims.
    m: [Vec<Fighting>; 2],
    scratch: Scratch,
}

impl GangPlan {
    /// One fight of several, every member rolling his own dice.
    pub fn fight<D: MemberDice>(&self, dice: &mut D) -> GangOutcome {
        self.fight_in(dice, &mut Lists::default())
    }

    /// One fight of several in the lists of earlier ones.
    pub(super) fn fight_in<D: MemberDice>(&self, dice: &mut D, lists: &mut Lists) -> GangOutcome {
        let Lists { m, scratch } = lists;
        tell!(
            dice,
            Section::Core,
            "The fight begins: every member rolls his hit points from his own dice, attackers first."
        );
        self.start_into(dice, m);
        tell_state!(dice, "{}", self.tell_all(m, 0));
        let mut heal_in = self.options.temp_heal_rounds;
        let mut round = 1;
        loop {
            self.round(m, round, scratch, dice);
            if let Some(over) = self.after_round(m, round, &mut heal_in, dice) {
                tell!(dice, Section::Sides, "{}", self.ending_words(&over));
                return over;
            }
            if round >= self.max_rounds {
                let over = self.ending(m, self.max_rounds);
                tell!(dice, Section::Sides, "{}", self.ending_words(&over));
                return over;
            }
            round += 1;
        }
    }

    /// Every member as the fight starts: hit points rolled from his own dice, attackers first.
    #[cfg(test)]
    pub(super) fn start<D: MemberDice>(&self, dice: &mut D) -> [Vec<Fighting>; 2] {
        let mut m = Default::default();
        self.start_into(dice, &mut m);
        m
    }

    /// [`GangPlan::start`] into the lists `m`.
    fn start_into<D: MemberDice>(&self, dice: &mut D, m: &mut [Vec<Fighting>; 2]) {
        for s in [ATTACKER, VICTIM] {
            m[s].clear();
            for i in 0..self.members[s].len() {
                let plan = self.own(s, i);
                let side = &plan.sides[s];
                m[s].push(Fighting {
                    f: Fighter::fresh(side.hp.roll(dice.member(s, i)) * plan.unit, side.first_slot),
                    foe: None,
                    holds: None,
                    held_by: None,
                    pinned_by: None,
                    bout_began: NO_BOUT,
                    initiative: 0,
                    attacks_made: 0,
                    helped: false,
                });
            }
        }
    }

    /// A plan that holds member `i` of side `s`'s own side (against the first foe): what does not depend
    /// on the foe (hit points, attacks, slots) is read there.
    #[inline]
    pub(super) fn own(&self, s: usize, i: usize) -> &crate::rules::fight::FightPlan {
        if s == ATTACKER {
            self.pair(i, 0)
        } else {
            self.pair(0, i)
        }
    }

    /// The plan of the pair of `me` and the foe `foe` on the other side, face to face.
    #[inline]
    pub(super) fn between(&self, me: Who, foe: usize) -> &crate::rules::fight::FightPlan {
        self.between_at(me, foe, Stand::Front)
    }

    /// The plan of the pair of `me` and `foe`, `me` standing at `stand`.
    #[inline]
    pub(super) fn between_at(
        &self,
        me: Who,
        foe: usize,
        stand: Stand,
    ) -> &crate::rules::fight::FightPlan {
        if me.0 == ATTACKER {
            self.pair_at(me.1, foe, stand)
        } else {
            self.pair_at(foe, me.1, stand)
        }
    }

    /// Where `who` stands against foe `t` (docs/rules.md §6, rear and flank): with `flanking`, of those on
    /// `t` in order, the second stands behind him and the third at his flank; everyone else in front.
    pub(super) fn stand(&self, m: &[Vec<Fighting>; 2], who: Who, t: usize) -> Stand {
        if !self.options.flanking || m[who.0][who.1].foe != Some(t) {
            return Stand::Front;
        }
        match self.on(m, 1 - who.0, t).position(|j| j == who.1) {
            Some(1) => Stand::Rear,
            Some(2) => Stand::Flank,
            Some(_) | None => Stand::Front,
        }
    }

    /// Attacks `who` makes in `round`.
    fn attacks(&self, who: Who, round: u32) -> u32 {
        self.members[who.0][who.1].attacks[(round % 2) as usize]
    }

    /// Attacks of `round` that `who` makes in its first pass.
    fn first_pass(&self, who: Who, round: u32) -> u32 {
        self.members[who.0][who.1].first_pass[(round % 2) as usize]
    }

    /// The fight's unit of damage and its `death_at` in it.
    pub(super) fn death_at(&self) -> i32 {
        self.pair(0, 0).death_at
    }

    /// One round.
    fn round<D: MemberDice>(
        &self,
        m: &mut [Vec<Fighting>; 2],
        round: u32,
        scratch: &mut Scratch,
        dice: &mut D,
    ) {
        tell!(dice, Section::Sides, "Round {round}.");
        self.get_up(m, round, dice);
        for s in [ATTACKER, VICTIM] {
            for i in 0..m[s].len() {
                let x = &mut m[s][i];
                x.attacks_made = 0;
                x.helped = false;
                // After the first round of a wrestling bout only size S weapons can be used.
                if round > x.bout_began && x.f.slot == Slot::Main {
                    x.f.slot = self.own(s, i).sides[s].in_bout;
                }
            }
        }
        let standing = |m: &[Vec<Fighting>; 2], s: usize| m[s].iter().any(|x| !x.f.down());
        let mut order = std::mem::take(&mut scratch.order);
        self.initiative(m, round, &mut order, dice);
        if !standing(m, ATTACKER) || !standing(m, VICTIM) {
            // Only a lethal finisher over a fallen side is left to act: his attacks of the round.
            tell!(
                dice,
                Section::Fights,
                "A side is down: only a fighter meaning to kill still strikes the fallen."
            );
            for &who in &order {
                if self.can_act(m, who, round) {
                    for i in 0..self.attacks(who, round) {
                        self.strike(m, who, round, false, i, dice);
                    }
                }
            }
            tell_state!(dice, "{}", self.tell_all(m, round));
            scratch.order = order;
            return;
        }
        for &who in &order {
            if self.can_act(m, who, round) {
                self.choose(m, who, dice);
            }
        }
        if self.armed_defender {
            self.armed_first(m, &order, round, &mut scratch.closing, dice);
        }
        self.pass(m, &order, round, Pass::First, &mut scratch.able, dice);
        if self.staggers {
            self.pass(m, &order, round, Pass::Second, &mut scratch.able, dice);
        }
        scratch.order = order;
    }

    /// The downed whose knockout ran out, and the pinned whose pinner has fallen, get up; a holder who has
    /// fallen, or whose foe is down, holds nothing.
    fn get_up<D: MemberDice>(&self, m: &mut [Vec<Fighting>; 2], round: u32, dice: &D) {
        for s in [ATTACKER, VICTIM] {
            for i in 0..m[s].len() {
                let pinner_down = m[s][i].pinned_by.is_some_and(|p| m[1 - s][p].f.down());
                let x = &mut m[s][i];
                if pinner_down {
                    x.pinned_by = None;
                }
                if x.f.out_through != 0 && x.f.out_through < round {
                    x.f.out_through = 0;
                }
                if x.f.down_at == PINNED && x.pinned_by.is_none() && x.f.out_through == 0 {
                    x.f.down_at = 0;
                    x.f.prone_since = None;
                    tell!(
                        dice,
                        Section::Sides,
                        "{} gets up: his knockout has run out, or his pinner has fallen.",
                        cap(self.name((s, i)))
                    );
                }
            }
        }
        for s in [ATTACKER, VICTIM] {
            for i in 0..m[s].len() {
                if let Some(h) = m[s][i].holds
                    && (m[s][i].f.down() || m[1 - s][h].f.down())
                {
                    self.release(m, (s, i));
                }
            }
        }
    }

    /// `holder` lets go of the foe he holds.
    fn release(&self, m: &mut [Vec<Fighting>; 2], holder: Who) {
        let (s, i) = holder;
        if let Some(h) = m[s][i].holds.take() {
            m[s][i].f.holding = 0;
            m[1 - s][h].held_by = None;
            m[1 - s][h].f.held = false;
        }
    }

    /// Everyone's initiative this round, and the order they act in: lower first, attackers before victims
    /// and members in order on a tie (which acts together).
    fn initiative<D: MemberDice>(
        &self,
        m: &mut [Vec<Fighting>; 2],
        round: u32,
        order: &mut Vec<Who>,
        dice: &mut D,
    ) {
        tell!(
            dice,
            Section::Sides,
            "Initiative: {}; the lower acts first, a called shot adding 1.",
            match self.options.initiative {
                Initiative::Side => "a d10 a side, rolled by its first member",
                Initiative::Individual => "a d10 for every member able to act",
            }
        );
        let side_roll = match self.options.initiative {
            Initiative::Side => [ATTACKER, VICTIM].map(|s| dice.member(s, 0).die(10)),
            Initiative::Individual => [0, 0],
        };
        let mut called_shots = false;
        for s in [ATTACKER, VICTIM] {
            for i in 0..m[s].len() {
                let roll = match self.options.initiative {
                    Initiative::Side => side_roll[s],
                    Initiative::Individual if self.can_act(m, (s, i), round) => {
                        dice.member(s, i).die(10)
                    }
                    Initiative::Individual => 10,
                };
                // A called shot adds to its maker's roll, in every round he makes one.
                let called = self.own(s, i).sides[s].blows[m[s][i].f.slot as usize].called_shot;
                called_shots |= called != 0;
                m[s][i].initiative = roll + called;
            }
        }
        order.clear();
        if self.options.initiative == Initiative::Side && !called_shots {
            // Each side acts as one: the lower side's members in order, then the other's (on a tie the
            // attackers are listed first, and all act together).
            let first = if side_roll[VICTIM] < side_roll[ATTACKER] {
                VICTIM
            } else {
                ATTACKER
            };
            for s in [first, 1 - first] {
                order.extend((0..m[s].len()).map(|i| (s, i)));
            }
        } else {
            for s in [ATTACKER, VICTIM] {
                order.extend((0..m[s].len()).map(|i| (s, i)));
            }
            order.sort_unstable_by_key(|&(s, i)| {
                (u64::from(m[s][i].initiative) << 32) | ((s as u64) << 16) | i as u64
            });
        }
        tell!(
            dice,
            Section::Sides,
            "The order: {}.",
            order
                .iter()
                .map(|&(s, i)| format!("{} ({})", self.name((s, i)), m[s][i].initiative))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }

    /// `who` can act this round: he stands and is not stunned.
    pub(super) fn can_act(&self, m: &[Vec<Fighting>; 2], who: Who, round: u32) -> bool {
        m[who.0][who.1].f.can_act(round)
    }

    /// The armed men's first strikes (docs/rules.md §6 "Several combatants a side"): each unarmed member
    /// closing on an armed foe able to act meets one of that foe's attacks at +4, in the order the unarmed
    /// act, as far as the armed man's attacks go; an armed man with foes closing spends all his attacks of
    /// the round so (several at one foe if fewer close than he has attacks), or, with
    /// `armed_defender_extra_attack`, makes one extra attack at each, at most his attacks of the round.
    fn armed_first<D: MemberDice>(
        &self,
        m: &mut [Vec<Fighting>; 2],
        order: &[Who],
        round: u32,
        closing: &mut Vec<(Who, usize)>,
        dice: &mut D,
    ) {
        // The armed men and the unarmed closing on them, in the order the unarmed act.
        closing.clear();
        for &(s, i) in order {
            if !self.can_act(m, (s, i), round) {
                continue;
            }
            let Some(t) = m[s][i].foe else { continue };
            let armed = (1 - s, t);
            if self.can_act(m, armed, round) && self.armed_against(m, armed, (s, i)) {
                closing.push((armed, i));
            }
        }
        let extra = self.options.armed_defender_extra_attack;
        for k in 0..closing.len() {
            let man = closing[k].0;
            if closing[..k].iter().any(|(other, _)| *other == man) {
                continue;
            }
            let foes = closing.iter().filter(|(other, _)| *other == man).count();
            let n = self.attacks(man, round);
            let strikes = if extra { (foes as u32).min(n) } else { n };
            for j in 0..strikes {
                if !self.can_act(m, man, round) {
                    break;
                }
                let foe = closing
                    .iter()
                    .filter(|(other, _)| *other == man)
                    .nth(j as usize % foes)
                    .map_or(0, |(_, foe)| *foe);
                tell!(
                    dice,
                    Section::ArmedDefender,
                    "{} is armed and {} closes on him unarmed: he strikes first, at +{}.",
                    cap(self.name(man)),
                    self.name((1 - man.0, foe)),
                    crate::rules::armed_defender::armed_bonus(&self.options)
                );
                self.strike_at(m, man, foe, round, true, j, dice);
            }
            if !extra {
                m[man.0][man.1].attacks_made = n;
            }
        }
    }

    /// `man` is armed against the unarmed `foe` with the blows they hold now.
    fn armed_against(&self, m: &[Vec<Fighting>; 2], man: Who, foe: Who) -> bool {
        let (a, v) = if man.0 == ATTACKER {
            (man, foe)
        } else {
            (foe, man)
        };
        let plan = self.pair(a.1, v.1);
        if !plan.armed_defender {
            return false;
        }
        let first =
            plan.armed_first[m[ATTACKER][a.1].f.slot as usize][m[VICTIM][v.1].f.slot as usize];
        first != 0 && usize::from(first - 1) == man.0
    }

    /// One pass in initiative order; members on the same initiative act together.
    fn pass<D: MemberDice>(
        &self,
        m: &mut [Vec<Fighting>; 2],
        order: &[Who],
        round: u32,
        pass: Pass,
        able: &mut Vec<bool>,
        dice: &mut D,
    ) {
        let mut start = 0;
        while start < order.len() {
            let init = m[order[start].0][order[start].1].initiative;
            let end = start
                + order[start..]
                    .iter()
                    .take_while(|&&(s, i)| m[s][i].initiative == init)
                    .count();
            able.clear();
            able.extend(
                order[start..end]
                    .iter()
                    .map(|&who| self.can_act(m, who, round)),
            );
            for (k, &who) in order[start..end].iter().enumerate() {
                if able[k] {
                    self.turn(m, who, round, pass, dice);
                }
            }
            if able.iter().any(|&a| a) {
                tell_state!(dice, "{}", self.tell_all(m, round));
            }
            start = end;
        }
    }

    /// `who`'s attacks of a pass: the first spent breaking free, keeping a hold, keeping a pin or freeing a
    /// held friend; the others at his foe.
    fn turn<D: MemberDice>(
        &self,
        m: &mut [Vec<Fighting>; 2],
        who: Who,
        round: u32,
        pass: Pass,
        dice: &mut D,
    ) {
        let (s, i) = who;
        let n = self.attacks(who, round);
        let split = self.first_pass(who, round);
        let (from, to) = match pass {
            Pass::First => (m[s][i].attacks_made, split.max(m[s][i].attacks_made)),
            Pass::Second => (split.max(m[s][i].attacks_made), n),
        };
        if from >= to {
            return;
        }
        let mut next = from;
        if from == 0 {
            if breaks_free_first(m[s][i].held_by.is_some(), self.options.held_response) {
                let holder = m[s][i].held_by.unwrap_or(0);
                tell!(
                    dice,
                    Section::Fights,
                    "{} is held by {}: his first attack is a Strength contest to break free.",
                    cap(self.name(who)),
                    self.name((1 - s, holder))
                );
                self.break_free(m, who, who, holder, dice);
                next = 1;
            } else if let Some(h) = m[s][i].holds {
                // Keeping the hold is the holder's attack: k + Strength in its k-th round.
                if m[s][i].f.hold_began < round {
                    let plan = self.between(who, h);
                    let x = &mut m[s][i].f;
                    x.holding += 1;
                    let d = wrestling_damage(
                        x.holding,
                        plan.sides[s].damage_adjustment,
                        self.options.rounding,
                    );
                    m[1 - s][h].f.take(d, plan.unit);
                    tell!(
                        dice,
                        Section::Fights,
                        "{} keeps his hold on {} (its round {}), his attack: {} real and {} temporary damage.",
                        cap(self.name(who)),
                        self.name((1 - s, h)),
                        m[s][i].f.holding,
                        d.real,
                        d.temporary
                    );
                    next = 1;
                }
            } else if self.any_overbear && self.pinning(m, who) {
                // Holding a pin takes all he has.
                tell!(
                    dice,
                    Section::Sides,
                    "{} holds his foe pinned: that takes all his attacks.",
                    cap(self.name(who))
                );
                return;
            } else if let Some((friend, holder)) = self.held_friend(m, who) {
                // A free ally spends his attack on the contest in the held man's place.
                tell!(
                    dice,
                    Section::Sides,
                    "{} spends his attack on a Strength contest to free {} from {}.",
                    cap(self.name(who)),
                    self.name((s, friend)),
                    self.name((1 - s, holder))
                );
                m[s][friend].helped = true;
                self.break_free(m, who, (s, friend), holder, dice);
                next = 1;
            }
        }
        if next == 0 && pass == Pass::First && self.any_overbear {
            // Several overbearing one foe roll once, as a pile. (Without overbearing, his first strike below
            // aims as this would, on the same dice.)
            if let Some(t) = self.aim(m, who, dice) {
                let pile = self.pile_of(m, who, t, round);
                if pile.len() > 1 {
                    self.pile(m, s, &pile, t, round, dice);
                    next = 1;
                }
            }
        }
        for k in next..to {
            self.strike(m, who, round, false, k, dice);
        }
        m[s][i].attacks_made = to;
    }

    /// `who` holds a foe pinned.
    fn pinning(&self, m: &[Vec<Fighting>; 2], who: Who) -> bool {
        m[1 - who.0]
            .iter()
            .any(|x| x.pinned_by == Some(who.1) && x.f.down_at == PINNED)
    }

    /// A friend of `who` still held, not yet helped this round, and his holder: the first in order.
    fn held_friend(&self, m: &[Vec<Fighting>; 2], who: Who) -> Option<(usize, usize)> {
        let (s, i) = who;
        if m[s][i].held_by.is_some() || m[s][i].holds.is_some() {
            return None;
        }
        m[s].iter().enumerate().find_map(|(j, x)| {
            (j != i && !x.helped && !x.f.down())
                .then_some(x.held_by)
                .flatten()
                .map(|h| (j, h))
        })
    }

    /// `helper` (the held man himself or a friend) tries the Strength contest against `holder` for `held`.
    fn break_free<D: MemberDice>(
        &self,
        m: &mut [Vec<Fighting>; 2],
        helper: Who,
        held: Who,
        holder: usize,
        dice: &mut D,
    ) {
        let s = helper.0;
        let plan = self.between(helper, holder);
        let c = contest(
            plan.sides[s].breaking,
            plan.sides[1 - s].holding,
            self.options.grab_contest,
            dice.member(s, helper.1),
        );
        if c.first_wins && m[held.0][held.1].held_by == Some(holder) {
            self.release(m, (1 - s, holder));
        }
        tell!(
            dice,
            Section::Fights,
            "{}",
            if c.first_wins {
                format!("The hold on {} is broken.", self.name(held))
            } else {
                format!("{} holds on.", cap(self.name((1 - s, holder))))
            }
        );
    }

    /// Attack `k` of `who` this round at his foe, picking a new foe if his is down: none at a fallen foe
    /// but a lethal finisher's, and none if no foe is left to him.
    fn strike<D: MemberDice>(
        &self,
        m: &mut [Vec<Fighting>; 2],
        who: Who,
        round: u32,
        armed: bool,
        k: u32,
        dice: &mut D,
    ) {
        if let Some(t) = self.aim(m, who, dice) {
            self.strike_at(m, who, t, round, armed, k, dice);
        }
    }

    /// The foe `who` strikes now: the one he holds or attacks while that foe stands, else a new one by his
    /// policy, else a downed foe he finishes, else none.
    fn aim<D: MemberDice>(
        &self,
        m: &mut [Vec<Fighting>; 2],
        who: Who,
        dice: &mut D,
    ) -> Option<usize> {
        let (s, i) = who;
        match m[s][i].holds.or(m[s][i].foe) {
            Some(t) if !m[1 - s][t].f.down() => Some(t),
            Some(_) | None => {
                self.choose(m, who, dice);
                m[s][i].foe.or_else(|| self.finishable(m, who))
            }
        }
    }

    /// The first downed foe `who` would finish: he finishes the fallen and the foe is not dead.
    fn finishable(&self, m: &[Vec<Fighting>; 2], who: Who) -> Option<usize> {
        let o = 1 - who.0;
        (0..m[o].len()).find(|&t| {
            let plan = self.between(who, t);
            let me = &plan.sides[who.0];
            m[o][t].f.down()
                && me.finishes
                && !m[o][t].f.dead(self.death_at())
                && me.blows[m[who.0][who.1].f.home as usize]
                    .kind
                    .damage_dice()
                    .is_some()
        })
    }

    /// Attack `k` of `who` at foe `t`, through the one-on-one attack of their pair.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn strike_at<D: MemberDice>(
        &self,
        m: &mut [Vec<Fighting>; 2],
        who: Who,
        t: usize,
        round: u32,
        armed: bool,
        k: u32,
        dice: &mut D,
    ) {
        let (s, i) = who;
        let o = 1 - s;
        let plan = self.between_at(who, t, self.stand(m, who, t));
        let mut pair = [m[ATTACKER][0].f; 2];
        let mut me = m[s][i].f;
        me.holding = if m[s][i].holds == Some(t) {
            me.holding
        } else {
            0
        };
        me.held = m[s][i].held_by.is_some();
        let foe = m[o][t].f;
        pair[s] = me;
        pair[o] = foe;
        let mut bout = NO_BOUT;
        // A narrated attack calls the members by their names: the pair plan, renamed.
        let named;
        let plan = if dice.narrator().is_some() {
            let (a, v) = if s == ATTACKER { (i, t) } else { (t, i) };
            named = plan.named([
                self.name((ATTACKER, a)).to_string(),
                self.name((VICTIM, v)).to_string(),
            ]);
            &named
        } else {
            plan
        };
        let rng = dice.member(s, i);
        if s == ATTACKER {
            plan.attack::<ATTACKER, D::Roller, true>(
                &mut pair, round, armed, k as usize, &mut bout, rng,
            );
        } else {
            plan.attack::<VICTIM, D::Roller, true>(
                &mut pair, round, armed, k as usize, &mut bout, rng,
            );
        }
        // A sap's knockout lasts its rolled rounds from now: a gang fights on around him, so it is rolled
        // at the fall, by the striker (docs/rules.md §6 "After the blow").
        if pair[o].out_through == KNOCKOUT_PENDING {
            let k = self.options.sap_ko_rounds.roll(rng).max(0) as u32;
            pair[o].out_through = round.saturating_add(k);
            crate::dice::narrate!(
                rng,
                Section::Fights,
                "{} is out for {k} rounds, through round {}.",
                cap(self.name((o, t))),
                pair[o].out_through
            );
        }
        let new_hold = pair[s].holding > 0 && me.holding == 0;
        let newly_pinned =
            pair[o].down_at == PINNED && foe.down_at != PINNED && pair[o].out_through == 0;
        let x = &mut m[s][i];
        let (holding, hold_began) = (x.f.holding, x.f.hold_began);
        x.f = pair[s];
        x.f.held = me.held;
        if !new_hold && m[s][i].holds != Some(t) {
            m[s][i].f.holding = holding;
            m[s][i].f.hold_began = hold_began;
        }
        let y = &mut m[o][t];
        let (their_holding, their_held) = (y.f.holding, y.f.held);
        y.f = pair[o];
        y.f.holding = their_holding;
        y.f.held = their_held;
        if bout != NO_BOUT {
            m[s][i].bout_began = m[s][i].bout_began.min(bout);
            m[o][t].bout_began = m[o][t].bout_began.min(bout);
        }
        if new_hold {
            if m[o][t].held_by.is_none() && m[s][i].holds.is_none() {
                m[s][i].holds = Some(t);
                m[o][t].held_by = Some(i);
                m[o][t].f.held = true;
            } else {
                // He is held already: the move did its damage and no more.
                m[s][i].f.holding = 0;
            }
        }
        if newly_pinned {
            m[o][t].pinned_by = Some(i);
        }
        if new_hold && m[s][i].holds != Some(t) {
            tell!(
                dice,
                Section::Sides,
                "{} is held already: the move does its damage and no more.",
                cap(self.name((o, t)))
            );
        }
    }

    /// The end of a round: the outcome if the fight is over. Both sides standing, temporary damage heals a
    /// point when its countdown runs out; a side all down ends the fight, unless a lethal finisher still
    /// stands over a living foe (nobody heals meanwhile).
    fn after_round<D: MemberDice>(
        &self,
        m: &mut [Vec<Fighting>; 2],
        round: u32,
        heal_in: &mut u32,
        dice: &D,
    ) -> Option<GangOutcome> {
        let standing = [ATTACKER, VICTIM].map(|s| m[s].iter().any(|x| !x.f.down()));
        if standing == [true, true] {
            *heal_in -= 1;
            if *heal_in == 0 {
                *heal_in = self.options.temp_heal_rounds;
                let unit = self.pair(0, 0).unit;
                let death_at = self.death_at();
                for x in m.iter_mut().flatten() {
                    if !x.f.dead(death_at) {
                        x.f.heal(unit);
                    }
                }
                tell!(
                    dice,
                    Section::Fights,
                    "End of round {round}: {} rounds have passed, and every living member heals a point of temporary damage.",
                    self.options.temp_heal_rounds
                );
                tell_state!(dice, "{}", self.tell_all(m, round));
            }
            return None;
        }
        let finishing = [ATTACKER, VICTIM].into_iter().any(|s| {
            standing[s]
                && (0..m[s].len())
                    .any(|i| !m[s][i].f.down() && self.finishable(m, (s, i)).is_some())
        });
        (!finishing).then(|| self.ending(m, round))
    }

    /// How the fight stands after `round`.
    fn ending(&self, m: &[Vec<Fighting>; 2], round: u32) -> GangOutcome {
        let death_at = self.death_at();
        let down = |s: usize| m[s].iter().filter(|x| x.f.down()).count() as u32;
        let dead = |s: usize| m[s].iter().filter(|x| x.f.dead(death_at)).count() as u32;
        let all_down = |s: usize| down(s) == m[s].len() as u32;
        let ending = match [all_down(ATTACKER), all_down(VICTIM)] {
            [true, true] => GangEnding::BothDown,
            [false, true] => GangEnding::AttackersWin,
            [true, false] => GangEnding::VictimsWin,
            [false, false] => GangEnding::Timeout,
        };
        GangOutcome {
            ending,
            rounds: round,
            attackers_down: down(ATTACKER),
            attackers_killed: dead(ATTACKER),
            victims_killed: dead(VICTIM),
        }
    }
}

/// Which of a member's attacks of the round a turn makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pass {
    /// His first attack (a monster's every attack form).
    First,
    /// The attacks left, after everyone's first.
    Second,
}

#[cfg(test)]
impl GangPlan {
    pub(super) fn round_for_tests<D: MemberDice>(
        &self,
        m: &mut [Vec<Fighting>; 2],
        round: u32,
        dice: &mut D,
    ) {
        self.round(m, round, &mut Scratch::default(), dice);
    }

    pub(super) fn turn_for_tests<D: MemberDice>(
        &self,
        m: &mut [Vec<Fighting>; 2],
        who: Who,
        round: u32,
        dice: &mut D,
    ) {
        self.turn(m, who, round, Pass::First, dice);
    }

    pub(super) fn get_up_for_tests(&self, m: &mut [Vec<Fighting>; 2], round: u32) {
        self.get_up(m, round, &super::MemberStreams::default());
    }
}
