//! A fight of several, prepared once per point: the one-on-one plan of every pair of entries, both ways, and
//! each member's place.

use crate::rules::combatant::Combatant;
use crate::rules::fight::decide::{BlowKind, Stand};
use crate::rules::fight::{FightKind, FightPlan, Intent, Then};
use crate::rules::tables::Size;
use crate::rules::{Ineligible, Matchup, RuleOptions};

use super::{Sides, Target};

/// One member of a side as the round sees him.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Member {
    /// His entry on his side (an index into the side's `[[attackers]]` or `[[victims]]` tables).
    pub(super) entry: usize,
    /// How he picks his foe.
    pub(super) target: Target,
    /// His size, for how many can stand around one foe.
    pub(super) size: Size,
    /// Attacks in a round and how many of them come in its first pass, by `round % 2`, as his side of any
    /// pair says (they do not depend on the foe).
    pub(super) attacks: [u32; 2],
    pub(super) first_pass: [u32; 2],
}

/// A fight of several sides, prepared for one point.
#[derive(Debug, Clone, PartialEq)]
pub struct GangPlan {
    /// `pairs[stand][a][v]`: the one-on-one plan of a member of attacker entry `a` against one of victim
    /// entry `v`, each standing at `stand` (front, flank, rear; the last two only with `flanking`). Its
    /// attacker side is the former folded against the latter, its victim side the other way round, so every
    /// blow between two members reads the tables of their own pair, from where the striker stands.
    pub(super) pairs: [Vec<Vec<FightPlan>>; 3],
    /// Each entry's combatant, attackers then victims (what a pile reads: THAC0, Strength, size).
    pub(super) entries: [Vec<Combatant>; 2],
    /// The attackers, then the victims, member by member.
    pub(super) members: [Vec<Member>; 2],
    pub(super) options: RuleOptions,
    pub(super) max_rounds: u32,
    /// Some member makes attacks after the first pass of a round.
    pub(super) staggers: bool,
    /// Some pair has an armed man against an unarmed foe in some pair of slots.
    pub(super) armed_defender: bool,
    /// `[s]`: side `s` can crowd a foe, its members' shares around the smallest foe adding to more than the
    /// room (`max_on_one`); else the room is never short and need not be counted.
    pub(super) crowds: [bool; 2],
    /// Some blow of some member overbears: else no pile forms and nobody is pinned, and a turn need not look
    /// for either.
    pub(super) any_overbear: bool,
    /// What a narrated fight calls each member: "thug 2" (entry name and number when the entry has
    /// several), "the guard". Read only when narrating.
    pub(super) names: [Vec<String>; 2],
}

impl GangPlan {
    /// How many one-on-one plans it holds (every pair of entries, at every stand prepared): what sizes
    /// it in memory, each plan holding both sides' face tables.
    pub fn fight_plans(&self) -> usize {
        self.pairs
            .iter()
            .flat_map(|stand| stand.iter().map(Vec::len))
            .sum()
    }

    /// Prepares a brawl or a subdual fight of several a side: every attacker entry against every victim
    /// entry, as the one-on-one fight prepares them (so a point is ineligible for the same reasons).
    pub fn prepare(
        sides: &Sides,
        options: &RuleOptions,
        kind: FightKind,
        intent: Intent,
        max_rounds: u32,
        then: Then,
    ) -> Result<GangPlan, Ineligible> {
        let stands: &[Stand] = if options.flanking {
            &[Stand::Front, Stand::Flank, Stand::Rear]
        } else {
            &[Stand::Front]
        };
        let mut pairs: [Vec<Vec<FightPlan>>; 3] = Default::default();
        for &stand in stands {
            for a in sides.sides[0].iter() {
                let mut row = Vec::with_capacity(sides.sides[1].len());
                for v in sides.sides[1].iter() {
                    let m = Matchup {
                        attacker: a.combatant.clone(),
                        victim: v.combatant.clone(),
                    };
                    row.push(
                        FightPlan::prepare_at(&m, options, kind, intent, max_rounds, stand)?
                            .with_then(&m, options, kind, then)?,
                    );
                }
                pairs[stand as usize].push(row);
            }
        }
        let entries = [0, 1].map(|s| {
            sides.sides[s]
                .iter()
                .map(|e| e.combatant.clone())
                .collect::<Vec<_>>()
        });
        let front = &pairs[Stand::Front as usize];
        let members = [0, 1].map(|s| {
            sides.sides[s]
                .iter()
                .enumerate()
                .flat_map(|(entry, e)| {
                    let own = if s == 0 {
                        &front[entry][0]
                    } else {
                        &front[0][entry]
                    };
                    std::iter::repeat_n(
                        Member {
                            entry,
                            target: e.target,
                            size: e.combatant.size,
                            attacks: own.sides[s].attacks,
                            first_pass: own.sides[s].first_pass,
                        },
                        e.count as usize,
                    )
                })
                .collect::<Vec<_>>()
        });
        let staggers = members.iter().flatten().any(|m| m.first_pass != m.attacks);
        let armed_defender = front.iter().flatten().any(|p| p.armed_defender);
        let crowds = [0, 1].map(|s| {
            let smallest = members[1 - s].iter().map(|m| m.size).min();
            options.max_on_one
                && smallest.is_some_and(|foe| {
                    members[s].iter().map(|m| share(m.size, foe)).sum::<u32>() > ROOM
                })
        });
        let any_overbear = pairs
            .iter()
            .flatten()
            .flatten()
            .flat_map(|p| p.sides.iter().flat_map(|side| side.blows.iter()))
            .any(|b| b.kind == BlowKind::Overbear);
        if members.iter().any(|m| m.is_empty()) {
            return Err(Ineligible::EmptySide);
        }
        let names = [0, 1].map(|s| {
            sides.sides[s]
                .iter()
                .flat_map(|e| {
                    (1..=e.count).map(move |k| {
                        if e.count == 1 {
                            format!("the {}", e.combatant.name)
                        } else {
                            format!("{} {k}", e.combatant.name)
                        }
                    })
                })
                .collect::<Vec<_>>()
        });
        Ok(GangPlan {
            pairs,
            entries,
            members,
            options: options.clone(),
            max_rounds,
            staggers,
            armed_defender,
            crowds,
            any_overbear,
            names,
        })
    }

    /// Rounds before a timeout.
    pub fn max_rounds(&self) -> u32 {
        self.max_rounds
    }

    /// Members on side `s`.
    pub fn members(&self, s: usize) -> usize {
        self.members[s].len()
    }

    /// The plan of attacker `a` against victim `v` (members, by their index on their side), face to face.
    #[inline]
    pub(super) fn pair(&self, a: usize, v: usize) -> &FightPlan {
        self.pair_at(a, v, Stand::Front)
    }

    /// The plan of attacker `a` against victim `v`, the striker standing at `stand`.
    #[inline]
    pub(super) fn pair_at(&self, a: usize, v: usize, stand: Stand) -> &FightPlan {
        &self.pairs[stand as usize][self.members[0][a].entry][self.members[1][v].entry]
    }

    /// What a narrated fight calls member `who`.
    pub(super) fn name(&self, who: (usize, usize)) -> &str {
        &self.names[who.0][who.1]
    }

    /// Member `i` of side `s` as a combatant.
    pub(super) fn combatant(&self, s: usize, i: usize) -> &Combatant {
        &self.entries[s][self.members[s][i].entry]
    }
}

/// A combatant's share of the room around one foe, in 15360ths (docs/rules.md §6 "Several combatants a
/// side"): at most 8 Small, 6 Medium or 4 Large attackers stand around a Medium foe, twice as many around
/// each size larger and half as many around each size smaller (at least one). 15360 = 2^10 · 3 · 5, so
/// every such limit divides it and the shares add exactly.
pub(super) fn share(me: Size, foe: Size) -> u32 {
    let around_medium: u32 = match me {
        Size::T => 10,
        Size::S => 8,
        Size::M => 6,
        Size::L => 4,
        Size::H => 2,
        Size::G => 1,
    };
    let steps = foe as i32 - Size::M as i32;
    let limit = if steps >= 0 {
        around_medium << steps
    } else {
        (around_medium >> (-steps)).max(1)
    };
    ROOM / limit
}

/// The room around one foe, in the units of [`share`].
pub(super) const ROOM: u32 = 15360;

impl crate::rules::maneuver::Maneuver for GangPlan {
    type Outcome = super::GangOutcome;

    #[inline]
    fn resolve<R: crate::dice::Roller + ?Sized>(&self, rng: &mut R) -> super::GangOutcome {
        // The lists are the trial's own: the rules core keeps no state between trials, and a thread's cache
        // would tie it to how the engine runs them. Their allocations cost a short fight more than its rounds
        // (README, "Performance"); the engine could lend each work item its buffers instead.
        let mut dice =
            super::MemberStreams::new(rng, [self.members[0].len(), self.members[1].len()]);
        // A narrated trial records every member's dice, from the same streams in the same order.
        if let Some(narrator) = rng.narrator() {
            return self.fight_in(
                &mut dice.recording(narrator),
                &mut super::round::Lists::default(),
            );
        }
        self.fight_in(&mut dice, &mut super::round::Lists::default())
    }

    /// A fight of several is walked round by round: no exact answer.
    fn paths(&self) -> Option<crate::dice::Paths> {
        None
    }

    fn range(&self, hist: crate::rules::maneuver::Hist) -> Option<(i64, i64)> {
        let n = |s: usize| self.members[s].len() as i64;
        if hist == super::ROUNDS {
            Some((1, i64::from(self.max_rounds)))
        } else if hist == super::ATTACKERS_DOWN || hist == super::ATTACKERS_KILLED {
            Some((0, n(0)))
        } else {
            (hist == super::VICTIMS_KILLED).then_some((0, n(1)))
        }
    }
}
