//! AFTER THE BLOW (docs/rules.md §6 "After the blow"): how long the loser stays down once the fight is over,
//! and whether he wakes before the winner has him tied.
//!
//! Why a clock per way to be down, rather than "down" alone: the designer's question behind every
//! non-lethal rule is "will he wake before we have him tied?", and the answer differs by how he fell. A
//! knockout (a mugging or a sap) lasts its rolled rounds; unconsciousness by temporary damage lasts until
//! healing (a point every `temp_heal_rounds`) brings his damage below his hit points; a pin lasts while he is
//! held, and the dead never wake. A punch's knockout is a stun, not a fall: the fight goes on around it.
//!
//! One on one, a fall ends the fight (nobody strikes the fallen, and a lethal victim's finish leaves his foe
//! dead), so the clocks run after the end: the fight's last round is round `R`, and a loser whose clock
//! shows `n` rounds is still down through round `R + n` and wakes as round `R + n + 1` begins. The winner,
//! binding him for `bind_rounds` rounds, has him tied at the end of round `R + bind_rounds`: he woke first
//! exactly when `n < bind_rounds`.

use super::fighter::{Fighter, KNOCKOUT_PENDING};
use super::{ATTACKER, Ending, FightOutcome, FightPlan, VICTIM};
use crate::dice::{Roller, narrate};
use crate::rules::section::Section;

impl FightPlan {
    /// The fight with the rounds its winner needs to tie up a downed victim (0: at once, no waking).
    pub fn with_bind_rounds(mut self, bind_rounds: u32) -> FightPlan {
        self.bind_rounds = bind_rounds;
        self
    }

    /// Rounds the winner needs to tie up his downed victim.
    pub fn bind_rounds(&self) -> u32 {
        self.bind_rounds
    }

    /// How long `loser` stays down after `round`, the fight's last, with temporary damage next healing at
    /// the end of round `round + heal_in`: the longer of his knockout's rounds left and the rounds until
    /// healing lifts him to 1 hit point. `None` when no clock runs: he is dead, not down, only pinned (held,
    /// he stays down while held), or down by real damage that no healing of temporary damage lifts.
    pub(super) fn rounds_out(&self, loser: &Fighter, round: u32, heal_in: u32) -> Option<u32> {
        if loser.dead(self.death_at) || !loser.down() {
            return None;
        }
        // A knockout whose length is still to be rolled counts as 0 here (`knockout_rolled` adds it).
        let knockout = if loser.out_through == KNOCKOUT_PENDING {
            Some(0)
        } else {
            loser.out_through.checked_sub(round).filter(|n| *n > 0)
        };
        let healing = if loser.left > 0 {
            0
        } else if loser.left + loser.temporary <= 0 {
            // Real damage alone keeps him down: healing temporary damage never wakes him.
            return None;
        } else {
            // Points (in the fight's unit) to heal before he has 1 hit point, one point a tick.
            let ticks = ((1 - loser.left + self.unit - 1) / self.unit) as u32;
            heal_in + (ticks - 1) * self.options.temp_heal_rounds
        };
        match (knockout, healing) {
            (None, 0) => None,
            (knockout, healing) => Some(knockout.unwrap_or(0).max(healing)),
        }
    }

    /// The fight's outcome with the length of a knockout in its last round rolled (`sap_ko_rounds`) and
    /// counted in the loser's clock: after the fight, so that the fight's own dice are untouched.
    pub(super) fn knockout_rolled<R: Roller + ?Sized>(
        &self,
        over: FightOutcome,
        f: &[Fighter; 2],
        rng: &mut R,
    ) -> FightOutcome {
        let pending =
            FightPlan::loser(over.ending).is_some_and(|s| f[s].out_through == KNOCKOUT_PENDING);
        match over.rounds_out {
            Some(healing) if pending => {
                narrate!(
                    rng,
                    Section::Fights,
                    "The fight is over: the length of the sap's knockout is rolled now ({}).",
                    self.options.sap_ko_rounds
                );
                let knockout = self.options.sap_ko_rounds.roll(rng).max(0) as u32;
                FightOutcome {
                    rounds_out: Some(healing.max(knockout)),
                    ..over
                }
            }
            Some(_) | None => over,
        }
    }

    /// The loser of a fight that ended: the side down while the other stands.
    pub(super) fn loser(ending: Ending) -> Option<usize> {
        match ending {
            Ending::AttackerWins => Some(VICTIM),
            Ending::VictimWins => Some(ATTACKER),
            Ending::BothDown | Ending::Timeout => None,
        }
    }
}

impl FightOutcome {
    /// The attacker won over a living victim who woke before he was tied: his clock ran out within
    /// `bind_rounds` (the `p_woke_before_bound` metric).
    pub fn woke_before_bound_within(&self, bind_rounds: u32) -> bool {
        self.ending == Ending::AttackerWins
            && !self.killed[VICTIM]
            && self.rounds_out.is_some_and(|n| n < bind_rounds)
    }
}
