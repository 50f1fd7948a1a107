//! Rear attacks (docs/rules.md §1 "Rear attacks", PHB Table 51 and the DMG): an attacker behind his victim
//! gets `rear_attack_bonus` to hit, and the victim's shield and Dexterity bonus do not count. The sap, the
//! held-back strike, the grabs and a fight's sap opening build their attack rolls here, so the rule lives in
//! one place. The mugging strikes from behind by definition and keeps its own +4 (docs/rules.md §2): it takes
//! only the stripped armor class from here, never the +2. A one-on-one fight's rounds are face to face; in a
//! fight of several a side the second on a foe stands behind him, his blows folded with the same armor class
//! (docs/rules.md §6 "Several combatants a side").
//!
//! Why `rear_attack_bonus = 0` also keeps the shield and Dexterity: the switch reads "no rear attack rule",
//! so at 0 every number is today's, position or not.

use crate::rules::Combatant;
use crate::rules::attack::AttackRoll;
use crate::rules::combatant::{ArmorClass, Position};
use crate::rules::options::RuleOptions;
use crate::rules::section::Terms;

/// The armor class of a victim struck from behind: no shield and no Dexterity bonus (a Dexterity penalty
/// stays), his armor and magical protection counting.
pub fn rear_armor_class(ac: &ArmorClass) -> i32 {
    ac.armor + ac.dexterity.max(0) - ac.magic
}

/// Whether the rear attack rule applies to `attacker`'s attacks: he stands behind and the rule is on.
pub fn from_behind(attacker: &Combatant, options: &RuleOptions) -> bool {
    attacker.position == Position::Behind && options.rear_attack_bonus != 0
}

/// The attack roll of `attacker` on an awake `victim` with the terms `to_hit`, from where the attacker
/// stands: from behind, a "from behind" term of `rear_attack_bonus` and the victim's armor class without
/// shield and Dexterity bonus; in front, the normal armor class. The roll adds the total of the terms it
/// returns, so a narration names every part of the modifier the roll uses.
pub fn attack_roll(
    attacker: &Combatant,
    victim: &Combatant,
    to_hit: Terms,
    options: &RuleOptions,
) -> (AttackRoll, Terms) {
    let behind = from_behind(attacker, options);
    let (ac, bonus) = if behind {
        (rear_armor_class(&victim.ac), options.rear_attack_bonus)
    } else {
        (victim.ac.normal(), 0)
    };
    let to_hit = to_hit.with("from behind", bonus);
    (
        AttackRoll::new(attacker.thac0, ac, to_hit.total(), options),
        to_hit,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::matchup;

    #[test]
    fn a_rear_attack_strips_the_shield_and_the_dexterity_bonus_but_not_a_penalty_or_magic() {
        let v = |text: &str| matchup("class = \"fighter\"", text).victim.ac;
        // AC 4, shield 1, Dexterity 17 (−3), magic 1: 4 + 0 − 1 = 3 (normal: 4 − 1 − 3 − 1 = −1).
        let shielded = v("class = \"fighter\"\nac = 4\nshield = 1\ndexterity = 17\nmagic_ac = 1");
        assert_eq!((rear_armor_class(&shielded), shielded.normal()), (3, -1));
        // Dexterity 4 (+3) stays: 6 + 3 = 9 either way.
        let clumsy = v("class = \"fighter\"\nac = 6\ndexterity = 4");
        assert_eq!((rear_armor_class(&clumsy), clumsy.normal()), (9, 9));
    }

    #[test]
    fn only_an_attacker_behind_with_the_rule_on_attacks_from_behind() {
        let behind = matchup(
            "class = \"thief\"\nposition = \"behind\"",
            "class = \"fighter\"",
        );
        let front = matchup("class = \"thief\"", "class = \"fighter\"");
        let on = RuleOptions::default();
        let off = RuleOptions {
            rear_attack_bonus: 0,
            ..RuleOptions::default()
        };
        assert!(from_behind(&behind.attacker, &on));
        assert!(!from_behind(&behind.attacker, &off));
        assert!(!from_behind(&front.attacker, &on));
    }
}
