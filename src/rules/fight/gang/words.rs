//! The words of a narrated fight of several (`subdual explain`): every member's state after a turn, and the
//! ending. The steps themselves are told where they happen, in `round.rs`, `target.rs` and `pile.rs`; the
//! state of one fighter is said as one on one does (`fight::tell::state`).

use crate::rules::fight::tell::state;
use crate::rules::fight::{ATTACKER, VICTIM};

use super::plan::GangPlan;
use super::round::Fighting;
use super::{GangEnding, GangOutcome};

impl GangPlan {
    /// Every member's state after a turn of `round`, attackers first.
    pub(super) fn tell_all(&self, m: &[Vec<Fighting>; 2], round: u32) -> String {
        let unit = self.pair(0, 0).unit;
        let death_at = self.death_at();
        let words: Vec<String> = [ATTACKER, VICTIM]
            .into_iter()
            .flat_map(|s| (0..m[s].len()).map(move |i| (s, i)))
            .map(|(s, i)| state(self.name((s, i)), &m[s][i].f, unit, death_at, round))
            .collect();
        format!("{}.", words.join("; "))
    }

    /// How the fight ended, in words.
    pub(super) fn ending_words(&self, over: &GangOutcome) -> String {
        let rounds = over.rounds;
        let killed = format!(
            "Attackers down: {}, killed: {}; victims killed: {}.",
            over.attackers_down, over.attackers_killed, over.victims_killed
        );
        let words = match over.ending {
            GangEnding::AttackersWin => format!("The attackers win in round {rounds}."),
            GangEnding::VictimsWin => format!("The victims win in round {rounds}."),
            GangEnding::BothDown => format!("Both sides are down in round {rounds}."),
            GangEnding::Timeout => {
                format!("Both sides still stand after {rounds} rounds: a timeout.")
            }
        };
        let alive = if over.taken_alive() {
            " Every victim is taken alive."
        } else {
            ""
        };
        format!("{words} {killed}{alive}")
    }
}
