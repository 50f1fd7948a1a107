//! Who attacks whom (docs/rules.md §6 "Several combatants a side"): each member's `target` policy, kept
//! until his foe is down, and the room around one foe (`max_on_one`).

use crate::dice::Roller;

use super::Target;
use super::plan::{GangPlan, ROOM, share};
use super::round::{Fighting, Who};
use super::streams::MemberDice;
use super::tell;
use crate::rules::fight::tell::cap;
use crate::rules::section::Section;

impl GangPlan {
    /// `who` keeps his foe while that foe stands (the held foe, while he holds one); otherwise he picks a
    /// foe standing with room around him by his policy, or has none.
    pub(super) fn choose<D: MemberDice>(&self, m: &mut [Vec<Fighting>; 2], who: Who, dice: &mut D) {
        let (s, i) = who;
        let o = 1 - s;
        if let Some(h) = m[s][i].holds {
            m[s][i].foe = Some(h);
            return;
        }
        if let Some(t) = m[s][i].foe
            && !m[o][t].f.down()
        {
            return;
        }
        m[s][i].foe = None;
        // The foes open to him, walked again by each policy rather than listed: a list would allocate.
        let view: &[Vec<Fighting>; 2] = m;
        let open =
            || (0..view[o].len()).filter(|&t| !view[o][t].f.down() && self.room(view, who, t));
        let Some(first) = open().next() else {
            tell!(
                dice,
                Section::Sides,
                "{} has no foe standing with room around him.",
                cap(self.name(who))
            );
            return;
        };
        let pick = match self.members[s][i].target {
            Target::Focus => first,
            Target::Weakest => open()
                .min_by_key(|&t| (view[o][t].f.left, t))
                .unwrap_or(first),
            Target::Strongest => open()
                .min_by_key(|&t| (std::cmp::Reverse(view[o][t].f.left), t))
                .unwrap_or(first),
            Target::Random => {
                let roll = dice.member(s, i).die(open().count() as u32) as usize;
                open().nth(roll - 1).unwrap_or(first)
            }
            Target::Spread => open()
                .min_by_key(|&t| (self.on(view, o, t).count(), t))
                .unwrap_or(first),
        };
        m[s][i].foe = Some(pick);
        tell!(
            dice,
            Section::Sides,
            "{} goes for {} (he picks {}).",
            cap(self.name(who)),
            self.name((o, pick)),
            match self.members[s][i].target {
                Target::Focus => "his side's first foe standing",
                Target::Weakest => "the foe with the fewest hit points left",
                Target::Strongest => "the foe with the most hit points left",
                Target::Random => "a foe at random, by his own die",
                Target::Spread => "the foe with the fewest attackers on him",
            }
        );
    }

    /// The members standing who attack foe `t` of side `o`.
    pub(super) fn on<'a>(
        &self,
        m: &'a [Vec<Fighting>; 2],
        o: usize,
        t: usize,
    ) -> impl Iterator<Item = usize> + 'a {
        let s = 1 - o;
        (0..m[s].len()).filter(move |&j| m[s][j].foe == Some(t) && !m[s][j].f.down())
    }

    /// There is room for `who` around foe `t`: with `max_on_one`, the shares of those already on him and
    /// his own fit (docs/rules.md §6: 8 Small, 6 Medium or 4 Large around a Medium foe, scaled by size).
    fn room(&self, m: &[Vec<Fighting>; 2], who: Who, t: usize) -> bool {
        let (s, o) = (who.0, 1 - who.0);
        if !self.crowds[s] {
            return true;
        }
        let foe = self.members[o][t].size;
        let taken: u32 = self
            .on(m, o, t)
            .filter(|&j| j != who.1)
            .map(|j| share(self.members[s][j].size, foe))
            .sum();
        taken + share(self.members[s][who.1].size, foe) <= ROOM
    }
}
