//! A fighter's state during one fight, on the stack, and the clock of the fight.
//!
//! Invariants, kept by every method: `left` is the rolled hit points less all real and temporary damage taken
//! and healed back; `temporary` is never negative; `down_at` is 0, or [`PINNED`] once pinned, so that "is he
//! down" is the one comparison `left <= down_at`; `holding` counts the rounds of a hold on the other side
//! (0: none), and `held` is set on the other side exactly while it is.

use crate::rules::Damage;

/// No wrestling bout yet: the last round a `u32` holds, after which no round follows, so that starting a
/// bout is a `min` and "after the bout's first round" is never true before it starts.
pub(super) const NO_BOUT: u32 = u32::MAX;

/// A side's blows by [`Slot`]: the main weapon, the backup, the bare hands.
pub(super) const SLOTS: usize = 3;

/// Which weapon a fighter holds right now (an index into [`Side::blows`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Slot {
    Main = 0,
    Backup = 1,
    Fists = 2,
}

/// A fighter's state during one fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Fighter {
    /// Hit points left once real and temporary damage are counted: kept rather than the rolled hit points,
    /// so that taking damage costs one more subtraction (no branch) and every "does he still stand" is one
    /// comparison instead of three operations.
    pub(super) left: i32,
    pub(super) real: i32,
    pub(super) temporary: i32,
    /// Stunned through this round (0: never).
    pub(super) stunned_through: u32,
    /// Knocked out (a mugging or a sap) through this round (0: never): down meanwhile, by [`PINNED`]
    /// (docs/rules.md §6 "After the blow").
    pub(super) out_through: u32,
    /// Knocked down by overbearing in this round.
    pub(super) prone_since: Option<u32>,
    /// Down while `left` is at most this: 0, or every hit point there is once pinned. Why: "pinned or
    /// unconscious" is asked several times a round, and one comparison answers it.
    pub(super) down_at: i32,
    /// Rounds the hold on the other side has lasted (0: no hold), and the round it began.
    pub(super) holding: u32,
    pub(super) hold_began: u32,
    pub(super) held: bool,
    pub(super) slot: Slot,
    /// The slot he holds outside a wrestling bout: the main weapon, or what a disarm left him. A lethal
    /// finish is struck from it, since the bout is over once the foe is down.
    pub(super) home: Slot,
}

/// [`Fighter::out_through`] of a fighter knocked out in the fight's last round whose knockout's length is
/// rolled after the fight (`FightPlan::knockout_rolled`).
pub(super) const KNOCKOUT_PENDING: u32 = u32::MAX;

/// [`Fighter::down_at`] of a pinned fighter, or of one a sap put out for the fight: down however many hit
/// points he has left.
pub(super) const PINNED: i32 = i32::MAX;

/// Where a fight stands in time: the round about to be fought and the rounds left until temporary damage
/// heals (a countdown, not a division per round). Fights start from [`FightPlan::clock`]; tests may start
/// one in any round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Clock {
    pub(super) round: u32,
    pub(super) heal_in: u32,
}

impl Fighter {
    /// A fighter as a fight starts: `left` hit points (in the fight's unit), unhurt, `slot` in hand.
    pub(super) fn fresh(left: i32, slot: Slot) -> Fighter {
        Fighter {
            left,
            real: 0,
            temporary: 0,
            stunned_through: 0,
            out_through: 0,
            prone_since: None,
            down_at: 0,
            holding: 0,
            hold_began: 0,
            held: false,
            slot,
            home: slot,
        }
    }

    /// A fighter with `hp` hit points who has taken `real` and `temporary` damage.
    #[cfg(test)]
    pub(super) fn hurt(self, hp: i32, real: i32, temporary: i32) -> Fighter {
        Fighter {
            left: hp - real - temporary,
            real,
            temporary,
            ..self
        }
    }

    /// Dead: real damage alone leaves `death_at` (in the fight's unit) or less.
    pub(super) fn dead(&self, death_at: i32) -> bool {
        self.left + self.temporary <= death_at
    }

    /// Pinned, dead or knocked out (at most 0 hit points left once temporary damage is counted). `death_at`
    /// is 0 or −10 and temporary damage is never negative, so the dead are always below 1 hit point as well:
    /// one comparison covers all three.
    pub(super) fn down(&self) -> bool {
        self.left <= self.down_at
    }

    #[cfg(test)]
    pub(super) fn pinned(&self) -> bool {
        self.down_at == PINNED
    }

    pub(super) fn stunned(&self, round: u32) -> bool {
        self.stunned_through >= round
    }

    /// Able to act this round.
    pub(super) fn can_act(&self, round: u32) -> bool {
        !self.down() && !self.stunned(round)
    }

    /// Takes a blow's damage, counted in hit points, in the fight's `unit` (1, or 4 for quarter points).
    pub(super) fn take(&mut self, d: Damage, unit: i32) {
        self.suffer([d.real as i32 * unit, d.temporary as i32 * unit], 1);
    }

    /// Still conscious after taking the real and temporary damage `dealt`, `times` (1 or 0) over.
    #[inline(always)]
    pub(super) fn stands_after(&self, dealt: [i32; 2], times: i32) -> bool {
        self.left - (dealt[0] + dealt[1]) * times > 0
    }

    /// Heals a point (`unit`) of temporary damage, or what is left of it: `left` gains only what
    /// `temporary` loses, so the two stay in step (temporary damage is never negative).
    #[inline(always)]
    pub(super) fn heal(&mut self, unit: i32) {
        let point = self.temporary.min(unit);
        self.temporary -= point;
        self.left += point;
    }

    /// Takes the real and temporary damage `dealt`, `times` (1 or 0) over: `times` lets a plain round skip
    /// it without a branch.
    #[inline(always)]
    pub(super) fn suffer(&mut self, dealt: [i32; 2], times: i32) {
        self.real += dealt[0] * times;
        self.temporary += dealt[1] * times;
        self.left -= (dealt[0] + dealt[1]) * times;
    }
}
