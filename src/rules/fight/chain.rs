//! EXACT ANSWERS for a one-on-one fight (docs/rules.md "Exact answers"): the probability of every way a
//! fight can end, carried round by round over the states a fight can be in, through the very round the
//! simulation fights.
//!
//! Why a chain of rounds rather than a walk of every die of the fight: the dice of a fight multiply round
//! after round, but what a round can do depends only on where the fight stands as it begins (each side's hit
//! points left and temporary damage, stun, knock-down, pin, hold, the weapon in hand, the wrestling bout,
//! the countdown to healing, and the round's parity for 3/2 attacks). Those states are few; each one's round
//! is walked once, die by die, by the [`Enumerator`] through `FightPlan::round` (or, for a plain fight, the
//! plain round's dice once per parity through `FightPlan::plain_roll`, which no state changes), kept as a row
//! of leads between numbered states, and the distribution over states is carried forward to `max_rounds`.
//! Rolled hit points enter as their distribution.
//!
//! Every transition probability is an exact fraction of the dice; the chain multiplies and adds them as
//! `f64`, so a value is exact to the last few digits of a double (the sums carry a relative error of about
//! 10^-13 at most; a test holds the total to 1 within 10^-9).

use std::collections::BTreeMap;
use std::collections::HashMap as StdMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use super::fighter::{Fighter, KNOCKOUT_PENDING, NO_BOUT, PINNED, Slot};
use super::plain::PlainRoll;
use super::{ATTACKER, FightOutcome, FightPlan, OpeningPlan, Sapped, VICTIM};
use crate::dice::{Dice, Enumerator, Roller};

/// The most states an exact fight may meet: 2^21, about two million.
///
/// Why this many: each state met is kept, numbered (about 200 bytes with its place in the chain), beside
/// its round's leads (see [`MAX_LEADS`]), so the two bounds keep an exact fight within about a gigabyte
/// (measured: 0.99 GB at the bound); the shipped fight studies meet at most some hundreds of thousands a
/// point, but for their wrestling bouts, whose hold lengths are part of the state.
pub const MAX_STATES: usize = 1 << 21;

/// The most paths of dice an exact fight walks over all its states' rounds: 2^27, about 130 million, half
/// a minute of walking on an ordinary core (a path of a round costs about 200 ns). A fight of stuns and
/// holds against an armed man at higher levels walks more and is refused when it reaches the bound.
pub const MAX_PATHS: u64 = 1 << 27;

/// The most leads an exact fight keeps: 2^25, about 34 million, 400 MB. A lead is one result of one state's
/// round (where it goes and how likely), kept so that the round is walked once however often the state is
/// carried. Past the bound, a state's round is walked each time the state is carried, as a chain that kept
/// nothing would.
pub const MAX_LEADS: usize = 1 << 25;

/// A state less likely than this after a round is left out of the chain, its probability counted in
/// [`ExactFight::dropped`].
///
/// Why: a fight's states persist to `max_rounds` with ever smaller probabilities (two sides missing round
/// after round), and carrying them all costs most of a long fight's time for nothing a double can show: a
/// value printed to 10 digits is unchanged unless some 10^10 such states were left out, and a chain meets
/// at most [`MAX_STATES`] states a round. The total left out is reported; the tests hold it under 10^-12.
pub const NEGLIGIBLE: f64 = 1e-24;

/// A multiply-rotate hasher for the chain's maps, whose keys are small states hashed millions of times and
/// never chosen by an adversary: several times as fast as the standard library's SipHash here.
#[derive(Default)]
struct Quick(u64);

impl Hasher for Quick {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    #[inline]
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }

    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }

    #[inline]
    fn write_i32(&mut self, x: i32) {
        self.write_u64(u64::from(x as u32));
    }

    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }

    #[inline]
    fn write_isize(&mut self, x: isize) {
        self.write_u64(x as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type HashMap<K, V> = StdMap<K, V, BuildHasherDefault<Quick>>;

/// Why a fight has no exact value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NoExactFight {
    /// Hit points whose outcomes do not fit a `u128`.
    #[error("its hit points have more outcomes than can be counted exactly")]
    TooManyOutcomes,
    /// More states than [`MAX_STATES`].
    #[error(
        "the fight reaches more than {MAX_STATES} states (it had met {states} when it stopped)"
    )]
    TooManyStates {
        /// The states met when the walk stopped.
        states: usize,
    },
    /// More paths than [`MAX_PATHS`].
    #[error("its rounds' dice fall more than {MAX_PATHS} ways in all")]
    TooManyPaths,
}

/// The exact fight: every outcome with its probability, and what it took.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactFight {
    /// Every outcome a fight can have, with its probability (they add up to 1).
    pub outcomes: Vec<(FightOutcome, f64)>,
    /// The states the chain met (each kept with its round's leads), or walked as a shortcut's stand-in.
    pub states: usize,
    /// The leads kept: one per result of each state's round (see [`MAX_LEADS`]).
    pub leads: usize,
    /// Distinct rounds walked die by die (a state and a parity), or state-and-dice landings of a plain
    /// fight.
    pub transitions: u64,
    /// Paths of dice walked.
    pub paths: u64,
    /// The probability of the states left out as [`NEGLIGIBLE`], added over all rounds.
    pub dropped: f64,
}

/// A fighter between two rounds, as far as the rest of the fight can tell: counts of rounds are kept
/// relative to the round just fought, so that the same standing in round 3 and in round 9 is one state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Standing {
    pub(super) left: i32,
    pub(super) temporary: i32,
    /// Rounds of stun left after the round just fought (0: none).
    stunned_for: u32,
    /// Rounds of knockout left after it, or `u32::MAX` for a knockout whose length is rolled after the
    /// fight.
    out_for: u32,
    prone: bool,
    pinned: bool,
    holding: u32,
    held: bool,
    slot: Slot,
    home: Slot,
}

/// Where a fight stands between two rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct State {
    pub(super) f: [Standing; 2],
    /// Rounds until temporary damage next heals.
    heal_in: u32,
    /// A wrestling bout has begun.
    bout: bool,
}

impl std::hash::Hash for State {
    /// Four words rather than a call per field: a chain hashes states hundreds of millions of times. Every
    /// field goes into some word; fields that overlap only make collisions likelier, never a wrong answer.
    fn hash<H: Hasher>(&self, h: &mut H) {
        for f in &self.f {
            h.write_u64(u64::from(f.left as u32) | u64::from(f.temporary as u32) << 32);
            let flags = u64::from(f.prone)
                | u64::from(f.pinned) << 1
                | u64::from(f.held) << 2
                | (f.slot as u64) << 3
                | (f.home as u64) << 5;
            h.write_u64(
                u64::from(f.stunned_for)
                    ^ u64::from(f.out_for).rotate_left(16)
                    ^ u64::from(f.holding) << 40
                    ^ flags << 56,
            );
        }
        h.write_u64(u64::from(self.heal_in) | u64::from(self.bout) << 32);
    }
}

/// Where a round leads: on to a state, or to the fight's end (its `rounds` the round fought, set by the
/// chain).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Next {
    Goes(State),
    Ends(FightOutcome),
}

impl State {
    /// The state after `round` was fought, with `heal_in` and `bout_began` as the round left them.
    pub(super) fn after(f: &[Fighter; 2], round: u32, heal_in: u32, bout_began: u32) -> State {
        let standing = |x: &Fighter| Standing {
            left: x.left,
            temporary: x.temporary,
            stunned_for: x.stunned_through.saturating_sub(round),
            out_for: if x.out_through == KNOCKOUT_PENDING {
                u32::MAX
            } else {
                x.out_through.saturating_sub(round)
            },
            prone: x.prone_since.is_some(),
            pinned: x.down_at == PINNED,
            holding: x.holding,
            held: x.held,
            slot: x.slot,
            home: x.home,
        };
        State {
            f: [standing(&f[ATTACKER]), standing(&f[VICTIM])],
            heal_in,
            bout: bout_began != NO_BOUT,
        }
    }

    /// The fighters, the healing countdown and the bout as `round` is about to be fought (the real damage,
    /// which only a story reads, left at 0).
    pub(super) fn before(&self, round: u32) -> ([Fighter; 2], u32, u32) {
        let last = round - 1;
        let fighter = |s: &Standing| Fighter {
            left: s.left,
            real: 0,
            temporary: s.temporary,
            stunned_through: if s.stunned_for > 0 {
                last + s.stunned_for
            } else {
                0
            },
            out_through: match s.out_for {
                u32::MAX => KNOCKOUT_PENDING,
                0 => 0,
                n => last + n,
            },
            prone_since: s.prone.then_some(last),
            down_at: if s.pinned { PINNED } else { 0 },
            holding: s.holding,
            hold_began: if s.holding > 0 { last } else { 0 },
            held: s.held,
            slot: s.slot,
            home: s.home,
        };
        (
            [fighter(&self.f[ATTACKER]), fighter(&self.f[VICTIM])],
            self.heal_in,
            if self.bout { last } else { NO_BOUT },
        )
    }
}

/// A roller around the enumerator that weighs a path by 400/(400 − ties) for each contest it passed: the
/// enumerator cuts a tied pair where the contest would roll again, and the series of re-rolls gives the
/// pairs that decide it that much more weight.
struct Weighed<'a> {
    e: &'a mut Enumerator,
    factor: f64,
}

impl Roller for Weighed<'_> {
    fn die(&mut self, sides: u32) -> u32 {
        self.e.die(sides)
    }

    fn repeat_tie(&mut self) -> bool {
        self.e.repeat_tie()
    }

    fn region(&mut self, dice: &Dice, cuts: &[i32]) -> usize {
        self.e.region(dice, cuts)
    }

    fn die_grouped(&mut self, sides: u32, class: &dyn Fn(u32) -> u32) -> u32 {
        self.e.die_grouped(sides, class)
    }

    fn pair_grouped(&mut self, sides: [u32; 2], class: &dyn Fn(u32, u32) -> u32) -> [u32; 2] {
        self.e.pair_grouped(sides, class)
    }

    fn contest(&mut self, ties: &dyn Fn() -> u32) {
        self.factor *= 400.0 / f64::from(400 - ties());
    }
}

/// The chain's bookkeeping: states met, rounds walked and their results, paths walked.
#[derive(Default)]
pub(super) struct Walker {
    /// Each shortcut stand-in's round by parity and kind (plain or not), walked once for every state it
    /// stands in for.
    rounds: HashMap<(State, u32, bool), Walked>,
    /// The most states carried from one round to the next.
    most: usize,
    /// Walk every state with its own numbers (no shortcut).
    direct: bool,
    transitions: u64,
    paths: u64,
}

/// A state's round, walked: where it leads, and the most hit points (in the fight's unit) each side lost in
/// it on any path before healing, counted as the loss at the round's end plus a point of healing.
#[derive(Clone)]
pub(super) struct Walked {
    pub(super) results: Rc<[(Next, f64)]>,
    drop: [i32; 2],
}

/// Hit points that stand in for "more than any round can take" in a state whose round is walked once for
/// every state alike (see [`FightPlan::transition`]).
const STANDS: i32 = 1 << 24;

/// The round a state of parity `parity` is walked in: a round of that parity from which every count of
/// rounds kept relative stays positive.
fn base_round(parity: u32) -> u32 {
    2 + parity
}

impl Walker {
    /// Counts `carried` states (carried in a round, or met so far), and the stand-ins walked so far: either
    /// over [`MAX_STATES`] stops the chain.
    fn meet(&mut self, carried: usize) -> Result<(), NoExactFight> {
        self.most = self.most.max(carried);
        let states = self.most.max(self.rounds.len());
        if states > MAX_STATES {
            return Err(NoExactFight::TooManyStates { states });
        }
        Ok(())
    }

    /// Walks `trial` die by die, each path weighed by its contests, and adds each result's probability.
    fn walk<K: std::hash::Hash + Eq>(
        &mut self,
        mut trial: impl FnMut(&mut Weighed<'_>) -> K,
    ) -> Result<Vec<(K, f64)>, NoExactFight> {
        let mut sums: HashMap<K, f64> = HashMap::default();
        let left = MAX_PATHS.saturating_sub(self.paths);
        let walk = Enumerator::walk_at_most(
            left,
            |e| {
                let mut w = Weighed { e, factor: 1.0 };
                let next = trial(&mut w);
                (next, w.factor)
            },
            |(next, factor), numerator, denominator| {
                *sums.entry(next).or_insert(0.0) +=
                    factor * (numerator as f64 / denominator as f64);
            },
        );
        self.paths += walk.leaves + walk.cut;
        if walk.stopped {
            return Err(NoExactFight::TooManyPaths);
        }
        if walk.inexact {
            return Err(NoExactFight::TooManyOutcomes);
        }
        Ok(sums.into_iter().collect())
    }
}

/// How a chain walks: as fast as it can, or without one of its shortcuts, the proof of that shortcut.
#[derive(Debug, Clone, Copy)]
pub(super) struct Walking {
    /// Walk a side that cannot fall this round once for all his hit points ([`FightPlan::transition`]).
    pub(super) shortcut: bool,
    /// Walk odd and even rounds apart even when no side's attacks change with the parity.
    pub(super) by_parity: bool,
    /// The most leads kept ([`MAX_LEADS`]).
    pub(super) max_leads: usize,
}

impl Walking {
    /// Every shortcut.
    pub(super) const FAST: Walking = Walking {
        shortcut: true,
        by_parity: false,
        max_leads: MAX_LEADS,
    };
}

/// An ending's place among the leads: a lead of `ENDS + k` ends the fight with outcome `k`, any lower one
/// goes on to that state.
const ENDS: u32 = 1 << 31;

/// The states of a chain by number, and each state's round (per parity) as a row of leads.
///
/// Why numbers: a state's round is walked once, but its results land every round the state is carried; a
/// landing by number is an addition into an array, where by state it is a hash and a compare of the whole
/// state (about half the chain's time when states were carried by value).
#[derive(Default)]
struct Chain {
    ids: HashMap<State, u32>,
    states: Vec<State>,
    outcome_ids: HashMap<FightOutcome, u32>,
    /// The outcomes of the leads, their `rounds` at 0 (the round they end in is the chain's).
    outcomes: Vec<FightOutcome>,
    /// Each state's row of leads by parity, as a range of `to` and `p`, once walked.
    rows: Vec<[Option<(usize, usize)>; 2]>,
    to: Vec<u32>,
    p: Vec<f64>,
    /// This round's probability by state, and the next round's (numbered with the states).
    on: Vec<f64>,
    next: Vec<f64>,
    /// This round's probability of ending by outcome.
    ended: Vec<f64>,
}

impl Chain {
    /// The number of state `s`, numbered when first met.
    fn state(&mut self, s: State) -> u32 {
        *self.ids.entry(s).or_insert_with(|| {
            self.states.push(s);
            self.rows.push([None; 2]);
            self.on.push(0.0);
            self.next.push(0.0);
            (self.states.len() - 1) as u32
        })
    }

    /// Keeps a lead of the row being walked.
    fn lead(&mut self, result: Next, q: f64) {
        let to = match result {
            Next::Goes(s) => self.state(s),
            Next::Ends(over) => {
                let over = FightOutcome { rounds: 0, ..over };
                ENDS + *self.outcome_ids.entry(over).or_insert_with(|| {
                    self.outcomes.push(over);
                    self.ended.push(0.0);
                    (self.outcomes.len() - 1) as u32
                })
            }
        };
        self.to.push(to);
        self.p.push(q);
    }
}

/// Where an opening's path leads: the fight over, the fight begun in a round, or a sleeper asleep still.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Opened {
    Ends(FightOutcome),
    Begins(u32, State),
    Sleeps(State),
}

impl Opened {
    /// Adds probability `p` where this path leads.
    fn land(
        self,
        p: f64,
        ends: &mut HashMap<FightOutcome, f64>,
        entering: &mut BTreeMap<u32, HashMap<State, f64>>,
        sleeping: &mut HashMap<State, f64>,
    ) {
        match self {
            Opened::Ends(over) => add(ends, over, p),
            Opened::Begins(round, s) => add(entering.entry(round).or_default(), s, p),
            Opened::Sleeps(s) => add(sleeping, s, p),
        }
    }
}

/// Adds `p` to `key`'s sum.
fn add<K: std::hash::Hash + Eq>(sums: &mut HashMap<K, f64>, key: K, p: f64) {
    *sums.entry(key).or_insert(0.0) += p;
}

impl FightPlan {
    /// Refuses, before any walk, a fight the chain does not follow.
    pub fn exact_check(&self) -> Result<(), NoExactFight> {
        for side in &self.sides {
            side.hp.ways().ok_or(NoExactFight::TooManyOutcomes)?;
        }
        Ok(())
    }

    /// The exact fight: every outcome with its probability, or why there is none.
    pub fn exact(&self) -> Result<ExactFight, NoExactFight> {
        self.exact_walking(Walking::FAST)
    }

    /// [`FightPlan::exact`] walked as `how` says (its proofs walk without a shortcut).
    pub(super) fn exact_walking(&self, how: Walking) -> Result<ExactFight, NoExactFight> {
        self.exact_check()?;
        let mut w = Walker {
            direct: !how.shortcut,
            ..Walker::default()
        };
        let mut ends: HashMap<FightOutcome, f64> = HashMap::default();
        let mut dropped = 0.0;
        // Before round 1: both fighters' hit points, then the opening, if any: a mugging walked at once, a
        // sap round by round while a sleeper sleeps on. Each state enters the fight in the round it begins.
        let hp = self.sides.each_ref().map(|side| {
            let ways = side.hp.ways().unwrap_or_default();
            let total: u128 = ways.iter().map(|w| w.1).sum();
            ways.into_iter()
                .map(|(v, n)| (v, n as f64 / total as f64))
                .collect::<Vec<_>>()
        });
        let heal_in = self.options.temp_heal_rounds;
        let mut entering: BTreeMap<u32, HashMap<State, f64>> = BTreeMap::new();
        let mut sleeping: HashMap<State, f64> = HashMap::default();
        for &(a, pa) in &hp[ATTACKER] {
            for &(v, pv) in &hp[VICTIM] {
                let fresh = self.fresh([a, v]);
                let p = pa * pv;
                let first = State::after(&fresh, 0, heal_in, NO_BOUT);
                match &self.opening {
                    None => add(entering.entry(1).or_default(), first, p),
                    Some(OpeningPlan::Sap { .. }) => add(&mut sleeping, first, p),
                    Some(opening @ OpeningPlan::Mug(_)) => {
                        for (opened, q) in w.walk(|e| {
                            let mut f = fresh;
                            match self.open(opening, &mut f, e) {
                                Ok(over) => Opened::Ends(self.bound(over, e)),
                                Err(clock) => Opened::Begins(
                                    clock.round,
                                    State::after(&f, clock.round - 1, clock.heal_in, NO_BOUT),
                                ),
                            }
                        })? {
                            opened.land(p * q, &mut ends, &mut entering, &mut sleeping);
                        }
                    }
                }
            }
        }
        if let Some(OpeningPlan::Sap { sap, asleep }) = &self.opening {
            let mut round = 0;
            while !sleeping.is_empty() {
                w.meet(sleeping.len())?;
                for (s, p) in std::mem::take(&mut sleeping) {
                    if p < NEGLIGIBLE {
                        dropped += p;
                        continue;
                    }
                    let (f0, _, _) = s.before(round + 1);
                    for (opened, q) in w.walk(|e| {
                        let mut f = f0;
                        match self.sap_once(sap, *asleep, &mut f, round, e) {
                            Sapped::Over(over) => Opened::Ends(self.bound(over, e)),
                            Sapped::Begins(clock) => Opened::Begins(
                                clock.round,
                                State::after(&f, clock.round - 1, clock.heal_in, NO_BOUT),
                            ),
                            Sapped::SleepsOn => {
                                Opened::Sleeps(State::after(&f, round, heal_in, NO_BOUT))
                            }
                        }
                    })? {
                        opened.land(p * q, &mut ends, &mut entering, &mut sleeping);
                    }
                }
                round += 1;
            }
        }
        let plain = match &self.plain {
            Some(plain) => Some([
                self.plain_rolls(plain, 0, &mut w)?,
                self.plain_rolls(plain, 1, &mut w)?,
            ]),
            None => None,
        };
        let parities = if how.by_parity || self.parity_matters() {
            2
        } else {
            1
        };
        let mut chain = Chain::default();
        let mut live = Vec::new();
        for round in 1..=self.max_rounds {
            for (s, p) in entering.remove(&round).unwrap_or_default() {
                let id = chain.state(s);
                chain.on[id as usize] += p;
                live.push(id);
            }
            if live.is_empty() && entering.is_empty() {
                break;
            }
            let parity = round % parities;
            live.sort_unstable();
            live.dedup();
            w.meet(live.len().max(chain.states.len()))?;
            let mut next_live = Vec::new();
            for &id in &live {
                let p = std::mem::take(&mut chain.on[id as usize]);
                if p < NEGLIGIBLE {
                    dropped += p;
                    continue;
                }
                let (from, to, kept) = match chain.rows[id as usize][parity as usize] {
                    Some((from, to)) => (from, to, true),
                    None => {
                        let s = chain.states[id as usize];
                        let (f, _, _) = s.before(round);
                        let rolls = match &plain {
                            Some(rolls) if !f[ATTACKER].down() => Some(&rolls[parity as usize][..]),
                            Some(_) | None => None,
                        };
                        let from = chain.to.len();
                        self.transition(&s, parity, rolls, &mut w, |result, q| {
                            chain.lead(result, q)
                        })?;
                        // Counted at each walk, not once a round, so that memory stays near the bound.
                        w.meet(chain.states.len())?;
                        let to = chain.to.len();
                        let kept = to <= how.max_leads;
                        if kept {
                            chain.rows[id as usize][parity as usize] = Some((from, to));
                        }
                        (from, to, kept)
                    }
                };
                for (&to, &q) in chain.to[from..to].iter().zip(&chain.p[from..to]) {
                    match to.checked_sub(ENDS) {
                        Some(end) => chain.ended[end as usize] += p * q,
                        None => {
                            let mass = &mut chain.next[to as usize];
                            if *mass == 0.0 {
                                next_live.push(to);
                            }
                            *mass += p * q;
                        }
                    }
                }
                if !kept {
                    chain.to.truncate(from);
                    chain.p.truncate(from);
                }
            }
            for (over, mass) in chain.outcomes.iter().zip(&mut chain.ended) {
                if *mass > 0.0 {
                    let over = FightOutcome {
                        rounds: round,
                        ..*over
                    };
                    add(&mut ends, over, std::mem::take(mass));
                }
            }
            std::mem::swap(&mut chain.on, &mut chain.next);
            live = next_live;
        }
        live.sort_unstable();
        live.dedup();
        // States still fighting, and those of a sleeper who woke in the last round.
        let mut states: Vec<(State, f64)> = live
            .iter()
            .map(|&id| (chain.states[id as usize], chain.on[id as usize]))
            .collect();
        states.extend(entering.into_values().flatten());
        // Still fighting after the last round: a timeout, or the side left standing wins.
        w.meet(states.len())?;
        for (s, p) in states {
            let (f, heal_in, _) = s.before(self.max_rounds.saturating_add(1));
            let over = self.ending(&f, self.max_rounds, heal_in);
            for (result, q) in w.walk(|e| Next::Ends(self.ended(over, &f, e)))? {
                if let Next::Ends(over) = result {
                    add(&mut ends, over, p * q);
                }
            }
        }
        let mut outcomes: Vec<(FightOutcome, f64)> = ends.into_iter().collect();
        outcomes.sort_by_key(|(o, _)| {
            (
                o.rounds,
                o.ending as u8,
                o.killed,
                o.won_by_opening,
                o.rounds_out,
                o.woke_before_bound,
            )
        });
        Ok(ExactFight {
            outcomes,
            states: w.most.max(w.rounds.len()).max(chain.states.len()),
            leads: chain.to.len(),
            transitions: w.transitions,
            paths: w.paths,
            dropped,
        })
    }

    /// Whether a round's parity changes it: a side with 3/2 attacks strikes twice in every second round.
    /// When no side has them, every round is walked as one of parity 0.
    fn parity_matters(&self) -> bool {
        let differs = |n: &[u32; 2]| n[0] != n[1];
        self.sides
            .iter()
            .any(|s| differs(&s.attacks) || differs(&s.first_pass))
            || self
                .plain
                .as_ref()
                .is_some_and(|plain| plain.iter().any(|s| differs(&s.attacks)))
    }

    /// Every way a round of `parity` can go from state `s`: its own walk, or, for a side whose hit points no
    /// path of the round can bring to 0, the walk of the state with that side's hit points at [`STANDS`]
    /// (and his temporary damage at most a point, all that healing reads), moved back by what he had.
    ///
    /// Why it is exact: such a side is standing on every path of the round whatever his hit points, so
    /// every branch of the round (who can act, who stands after a blow, who fell, who is dead) goes as in
    /// the walk with [`STANDS`], and his hit points and temporary damage only move by what the dice did. The
    /// walk says, per side, the most he lost on any path ([`Walked::drop`]), so the condition is checked on
    /// the walk itself, not assumed. A side near his end is walked with his own numbers.
    pub(super) fn transition(
        &self,
        s: &State,
        parity: u32,
        plain: Option<&[(PlainRoll, f64)]>,
        w: &mut Walker,
        mut each: impl FnMut(Next, f64),
    ) -> Result<(), NoExactFight> {
        let shortcuts: &[[bool; 2]] = if w.direct {
            &[]
        } else {
            &[[true, true], [true, false], [false, true]]
        };
        for &stands in shortcuts {
            let key = self.standing_in(s, stands);
            if key == *s {
                continue;
            }
            let walked = self.walked(&key, parity, plain, w, true)?;
            let safe = (0..2).all(|k| !stands[k] || s.f[k].left - walked.drop[k] > 0);
            if safe {
                let moved: [[i32; 2]; 2] = std::array::from_fn(|k| {
                    if stands[k] {
                        [
                            s.f[k].left - key.f[k].left,
                            s.f[k].temporary - key.f[k].temporary,
                        ]
                    } else {
                        [0, 0]
                    }
                });
                for (next, q) in walked.results.iter() {
                    match *next {
                        Next::Goes(mut to) => {
                            for (side, [left, temporary]) in to.f.iter_mut().zip(moved) {
                                side.left += left;
                                side.temporary += temporary;
                            }
                            each(Next::Goes(to), *q);
                        }
                        Next::Ends(over) => each(Next::Ends(over), *q),
                    }
                }
                return Ok(());
            }
        }
        for (next, q) in self.walked(s, parity, plain, w, false)?.results.iter() {
            each(*next, *q);
        }
        Ok(())
    }

    /// `s` with the hit points of each side `stands` says at [`STANDS`] and his temporary damage at most a
    /// point; a pinned side keeps his own.
    fn standing_in(&self, s: &State, stands: [bool; 2]) -> State {
        let mut key = *s;
        for (side, stands) in key.f.iter_mut().zip(stands) {
            if stands && !side.pinned {
                side.left = STANDS;
                side.temporary = side.temporary.min(self.unit);
            }
        }
        key
    }

    /// The walk of state `s`'s round of `parity` (plain when `plain` gives the plain round's dice), kept
    /// for the next call when `keep` (a shortcut's stand-in, shared by many states; a state's own walk is
    /// asked for once, as its chain's row is kept).
    fn walked(
        &self,
        s: &State,
        parity: u32,
        plain: Option<&[(PlainRoll, f64)]>,
        w: &mut Walker,
        keep: bool,
    ) -> Result<Walked, NoExactFight> {
        if let Some(known) = w.rounds.get(&(*s, parity, plain.is_some())) {
            return Ok(known.clone());
        }
        let walked = match plain {
            Some(rolls) => self.plain_landings(s, rolls, parity, w)?,
            None => self.general_round(s, parity, w)?,
        };
        if keep {
            w.rounds
                .insert((*s, parity, plain.is_some()), walked.clone());
        }
        Ok(walked)
    }

    /// Every way a general round can go from state `s` in a round of `parity`, walked die by die.
    pub(super) fn general_round(
        &self,
        s: &State,
        parity: u32,
        w: &mut Walker,
    ) -> Result<Walked, NoExactFight> {
        let round = base_round(parity);
        let (f0, heal_in0, bout0) = s.before(round);
        let mut drop = [0; 2];
        let results = w.walk(|e| {
            let (mut f, mut heal_in, mut bout) = (f0, heal_in0, bout0);
            let over = self.round(&mut f, round, &mut heal_in, &mut bout, e);
            for k in 0..2 {
                drop[k] = drop[k].max(f0[k].left - f[k].left + self.unit);
            }
            match over {
                None => Next::Goes(State::after(&f, round, heal_in, bout)),
                Some(over) => Next::Ends(self.ended(over, &f, e)),
            }
        })?;
        w.transitions += 1;
        Ok(Walked {
            results: results.into(),
            drop,
        })
    }

    /// The plain round's dice in a round of `parity`, each with its probability: both initiatives, then
    /// each side's attacks, three walks whose dice are independent (no die of one is read by another).
    pub(super) fn plain_rolls(
        &self,
        plain: &[super::fold::PlainSide; 2],
        parity: u32,
        w: &mut Walker,
    ) -> Result<Vec<(PlainRoll, f64)>, NoExactFight> {
        let round = base_round(parity);
        let mut firsts: HashMap<std::cmp::Ordering, f64> = HashMap::default();
        let mut dealt: [HashMap<[i32; 2], f64>; 2] = Default::default();
        let walked = Enumerator::walk(
            |e| self.plain_initiative(round, e),
            |first, n, d| add(&mut firsts, first, n as f64 / d as f64),
        );
        w.paths += walked.leaves;
        for s in [ATTACKER, VICTIM] {
            let walked = Enumerator::walk(
                |e| plain[s].attacks(round, e),
                |d, n, den| add(&mut dealt[s], d, n as f64 / den as f64),
            );
            if walked.inexact {
                return Err(NoExactFight::TooManyOutcomes);
            }
            w.paths += walked.leaves;
        }
        let mut rolls = Vec::new();
        for (&first, &p) in &firsts {
            for (&by_attacker, &q) in &dealt[ATTACKER] {
                for (&by_victim, &r) in &dealt[VICTIM] {
                    rolls.push((
                        PlainRoll {
                            first,
                            dealt: [by_attacker, by_victim],
                        },
                        p * q * r,
                    ));
                }
            }
        }
        rolls.sort_by_key(|r| r.0);
        Ok(rolls)
    }

    /// Every way a plain round's dice `rolls` land on state `s` in a round of `parity`.
    pub(super) fn plain_landings(
        &self,
        s: &State,
        rolls: &[(PlainRoll, f64)],
        parity: u32,
        w: &mut Walker,
    ) -> Result<Walked, NoExactFight> {
        let round = base_round(parity);
        let (f0, heal_in0, bout0) = s.before(round);
        let quiet = Enumerator::default();
        let mut sums: HashMap<Next, f64> = HashMap::default();
        let mut drop = [0; 2];
        for (roll, p) in rolls {
            let (mut f, mut heal_in) = (f0, heal_in0);
            w.transitions += 1;
            let over = self.plain_land(&mut f, roll, round, &mut heal_in, &quiet);
            for k in 0..2 {
                drop[k] = drop[k].max(f0[k].left - f[k].left + self.unit);
            }
            match over {
                None => add(
                    &mut sums,
                    Next::Goes(State::after(&f, round, heal_in, bout0)),
                    *p,
                ),
                Some(over) => {
                    for (result, q) in w.walk(|e| Next::Ends(self.ended(over, &f, e)))? {
                        add(&mut sums, result, p * q);
                    }
                }
            }
        }
        Ok(Walked {
            results: sums.into_iter().collect::<Vec<_>>().into(),
            drop,
        })
    }
}
