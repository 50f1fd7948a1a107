//! Which combatant fields each action reads, for the attacker and for the victim (docs/scenarios.md
//! "Combatants"). A scenario may set every field on either side, but no field may be accepted and then
//! ignored: a field the action does not read at that point is a warning naming it (a brawl attacker's
//! `attacks`, a fighter's `position` without an opening, `aware` for a strike).
//!
//! Why a table rather than a trace of what the rules touch: the rules fold a matchup into numbers once per
//! point, and many fields reach them only through a derived value (THAC0 from class and level, hit points
//! from Hit Dice, height from race or size, a monster's rough Strength from its attacks). The table states,
//! beside each maneuver's module, what any path of that action reads, derived values included, so a field
//! is called unread only when no roll, no eligibility check and no output of the action can depend on it.
//! The identity of a combatant (`name`, `class`, `level`, `monster`, `hit_dice`) is read by every action:
//! the outputs' `level_gap` and the ineligibility reasons use it. A character's `race` is read wherever his
//! size, his height or his Strength is: it decides whether an exceptional Strength is allowed.

use crate::rules::action::{Action, ActionOptions};
use crate::rules::fight::Opening;

/// Which side of an action a combatant is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Who acts (`[attacker]`).
    Attacker,
    /// Who is acted upon (`[victim]`).
    Victim,
}

impl Role {
    /// Both roles, attacker first.
    pub const ALL: [Role; 2] = [Role::Attacker, Role::Victim];

    /// The table a scenario writes the side in: `attacker` or `victim`.
    pub fn name(self) -> &'static str {
        match self {
            Role::Attacker => "attacker",
            Role::Victim => "victim",
        }
    }
}

/// When an action reads a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Read {
    /// At every point of the action.
    Always,
    /// Only through a monster's rough Strength (docs/rules.md §5), which its Strength contests use: a given
    /// `strength` replaces it, and a character (`class`) never has one.
    RoughStrength,
    /// Only in a fight's opening (`action_options.opening`, a mugging or a sap).
    Opening,
    /// Only in a fight's mugging opening (`action_options.opening = "mug"`).
    MugOpening,
}

/// What one action reads of each side: every field named here is read when its [`Read`] says; every
/// combatant field not named is read by no path of the action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reads {
    /// The action.
    pub action: Action,
    /// The attacker's fields it reads.
    pub attacker: &'static [(&'static str, Read)],
    /// The victim's fields it reads.
    pub victim: &'static [(&'static str, Read)],
}

use Read::{Always, MugOpening, Opening as InOpening, RoughStrength};

/// The fields that reach every action: the level gap, the reasons and the labels of the outputs.
macro_rules! identity {
    ($($field:expr),* $(,)?) => {
        &[
            ("name", Always),
            ("class", Always),
            ("level", Always),
            ("monster", Always),
            ("hit_dice", Always),
            $($field,)*
        ]
    };
}

/// The fields of a fighter in a brawl or a subdual fight that both sides read alike: his attack rolls (THAC0,
/// Strength), his armor class as the foe's rolls meet it, his hit points, his weapons, his wrestling
/// (armor penalty, martial arts, the Strength contest of holds), his state (a helpless fighter cannot fight).
macro_rules! fighter {
    ($($field:expr),* $(,)?) => {
        identity!(
            ("race", Always),
            ("size", Always),
            ("strength", Always),
            ("dexterity", Always),
            ("ac", Always),
            ("shield", Always),
            ("magic_ac", Always),
            ("armor_type", Always),
            ("hp", Always),
            ("thac0", Always),
            ("weapon", Always),
            ("backup_weapon", Always),
            ("carrier", RoughStrength),
            ("state", Always),
            ("martial_arts", Always),
            $($field,)*
        )
    };
}

/// The attacker of a fight: a fighter who may open with a mugging (from behind, his height against the
/// victim's, with `opening_weapon` in hand) or a sap (from behind, a rear attack: docs/rules.md §1), and who
/// may disarm (a free hand). The rounds themselves are face to face.
macro_rules! fight_attacker {
    ($attacks:expr) => {
        fighter!(
            ("height_ft", MugOpening),
            ("opening_weapon", InOpening),
            ("attacks", $attacks),
            ("hands_free", Always),
            ("position", InOpening),
        )
    };
}

/// The victim of a fight: a fighter who answers with his natural attacks if he has them, whom an
/// overbearing attacker meets leg by leg, and whom an opening meets as he stands (unaware, perhaps asleep;
/// a mugging also reads his save, his head, his back, his anatomy and his height).
const FIGHT_VICTIM: &[(&str, Read)] = fighter!(
    ("intelligent", MugOpening),
    ("height_ft", MugOpening),
    ("helmet", MugOpening),
    ("saves", MugOpening),
    ("attacks", Always),
    ("legs", Always),
    ("has_back", MugOpening),
    ("aware", InOpening),
    ("humanoid", MugOpening),
    ("natural_armor", MugOpening),
);

/// Either side of a grab: his armor class (the grabber's roll meets the victim's, an armed victim's first
/// strike meets the grabber's), his THAC0 (the grabber's roll, the armed victim's strike), his weapon (it
/// takes the grabber's hands; it is the object, or the victim's first strike) and his Strength contest (a
/// monster's rough Strength without a given one), his race allowing his Strength. Where the grabber
/// stands is read by the grabber's side only (a rear attack, docs/rules.md §1).
macro_rules! grab_side {
    ($($field:expr),* $(,)?) => {
        identity!(
            ("race", Always),
            ("strength", Always),
            ("dexterity", Always),
            ("ac", Always),
            ("shield", Always),
            ("magic_ac", Always),
            ("thac0", Always),
            ("weapon", Always),
            ("attacks", RoughStrength),
            ("carrier", RoughStrength),
            $($field,)*
        )
    };
}

/// The grabber of a person or a monster: his wrestling attack (armor penalty, where he stands), his hands,
/// and his size against the victim's; his size and hit points as the armed victim's first strike meets
/// them.
const HOLD_ATTACKER: &[(&str, Read)] = grab_side!(
    ("size", Always),
    ("hp", Always),
    ("armor_type", Always),
    ("hands_free", Always),
    ("position", Always),
);

/// The grabbed person or monster: awake, his size against the grabber's, and his first strike if he holds
/// a melee weapon (a missile holder's backup).
const HOLD_VICTIM: &[(&str, Read)] = grab_side!(
    ("size", Always),
    ("backup_weapon", Always),
    ("state", Always),
);

/// The striker of a blow that meets hit points (a sap, a held-back strike): his THAC0, his Strength to hit
/// and damage (his race allows an exceptional one or not), the weapon he strikes with in melee (a
/// missile holder draws his melee backup), and where he stands (a rear attack, docs/rules.md §1). His own
/// armor does not matter.
const BLOW_ATTACKER: &[(&str, Read)] = identity!(
    ("race", Always),
    ("strength", Always),
    ("thac0", Always),
    ("weapon", Always),
    ("backup_weapon", Always),
    ("position", Always),
);

/// The victim of a blow that meets hit points (a sap, a held-back strike): his armor class (shield and
/// Dexterity count unless he is struck from behind), his size against the weapon's dice, his hit points, and whether he is asleep or
/// held (an automatic hit). Whether he is aware changes neither blow.
const BLOW_VICTIM: &[(&str, Read)] = identity!(
    ("race", Always),
    ("size", Always),
    ("dexterity", Always),
    ("ac", Always),
    ("shield", Always),
    ("magic_ac", Always),
    ("hp", Always),
    ("state", Always),
);

/// Every action's row, in [`Action::ALL`] order.
pub const READS: [Reads; 8] = [
    // A mugging (docs/rules.md §2): a thief (class), behind (position), his height against the victim's,
    // a blunt weapon, his THAC0 and Strength to hit. The victim: unaware, with a back, humanoid, his
    // height, the stripped armor class (armor, a Dexterity penalty, magic; no shield), the helmet rule, his
    // save vs petrification moved by the levels, and asleep or held for an automatic hit. No hit points:
    // the mugging knocks out or does nothing.
    Reads {
        action: Action::Mug,
        attacker: identity!(
            ("race", Always),
            ("size", Always),
            ("height_ft", Always),
            ("strength", Always),
            ("thac0", Always),
            ("weapon", Always),
            ("position", Always),
        ),
        victim: identity!(
            ("intelligent", Always),
            ("race", Always),
            ("size", Always),
            ("height_ft", Always),
            ("dexterity", Always),
            ("ac", Always),
            ("magic_ac", Always),
            ("helmet", Always),
            ("saves", Always),
            ("has_back", Always),
            ("state", Always),
            ("aware", Always),
            ("humanoid", Always),
            ("natural_armor", Always),
        ),
    },
    // A sap (docs/rules.md §4): a blow's striker (a missile holder saps with his melee backup) and victim;
    // whether the victim is aware does not matter (only asleep or held).
    Reads {
        action: Action::Sap,
        attacker: BLOW_ATTACKER,
        victim: BLOW_VICTIM,
    },
    // A held-back strike (docs/rules.md §3): a blow's striker (a bowman holds back his melee backup) and
    // victim.
    Reads {
        action: Action::Strike,
        attacker: BLOW_ATTACKER,
        victim: BLOW_VICTIM,
    },
    // A grab of an object (docs/rules.md §5): a called shot with one free hand, no wrestling (so no armor
    // penalty), then the Strength contest. The object is the weapon in the victim's hand: his backup is not
    // grabbed, and his size does not enter (his race only allows his Strength). The grabber's hit points
    // meet the holder's first strike.
    Reads {
        action: Action::GrabObject,
        attacker: grab_side!(
            ("size", Always),
            ("hp", Always),
            ("hands_free", Always),
            ("position", Always),
        ),
        victim: grab_side!(("state", Always)),
    },
    // A grab of a person (docs/rules.md §5).
    Reads {
        action: Action::GrabPerson,
        attacker: HOLD_ATTACKER,
        victim: HOLD_VICTIM,
    },
    // A grab of a monster (docs/rules.md §5): as a person's, the size modifier in full.
    Reads {
        action: Action::GrabMonster,
        attacker: HOLD_ATTACKER,
        victim: HOLD_VICTIM,
    },
    // A brawl (docs/rules.md §6): the attacker punches, wrestles, overbears or saps with his style; his
    // natural attacks serve only his Strength contest, as a monster's rough Strength.
    Reads {
        action: Action::Brawl,
        attacker: fight_attacker!(RoughStrength),
        victim: FIGHT_VICTIM,
    },
    // A subdual fight (docs/rules.md §6): as a brawl, but a monster subdues with its natural attacks held
    // back.
    Reads {
        action: Action::Subdue,
        attacker: fight_attacker!(Always),
        victim: FIGHT_VICTIM,
    },
];

/// The row of `action`.
pub fn reads(action: Action) -> &'static Reads {
    // READS is in Action::ALL order (a test holds it there); a fight of sides reads as the fight it is.
    let written = action.written();
    let i = Action::ALL.iter().position(|a| *a == written).unwrap_or(0);
    &READS[i]
}

/// A field set on a combatant that the action does not read at this point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Unread<'a> {
    /// The combatant field (`attacks`).
    pub field: &'a str,
    /// `None`: the action never reads it; `Some(when)`: it reads it only when `when` says, which does not
    /// hold here.
    pub only: Option<Read>,
}

/// The fields of `set` (the combatant fields a scenario sets on the side `role`, by their keys) that
/// `action` with `options` does not read, in the order of `set`.
pub fn unread<'a>(
    action: Action,
    options: &ActionOptions,
    role: Role,
    set: &[&'a str],
) -> Vec<Unread<'a>> {
    let row = reads(action);
    let read = match role {
        Role::Attacker => row.attacker,
        Role::Victim => row.victim,
    };
    let holds = |when: Read| match when {
        Read::Always => true,
        Read::RoughStrength => !set.contains(&"strength") && !set.contains(&"class"),
        Read::Opening => options.opening.is_some(),
        Read::MugOpening => options.opening == Some(Opening::Mug),
    };
    set.iter()
        .filter_map(|&field| match read.iter().find(|(f, _)| *f == field) {
            None => Some(Unread { field, only: None }),
            Some(&(_, when)) if !holds(when) => Some(Unread {
                field,
                only: Some(when),
            }),
            Some(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::scenario::CombatantSpec;

    fn unread_of<'a>(
        action: Action,
        options: &ActionOptions,
        role: Role,
        set: &[&'a str],
    ) -> Vec<&'a str> {
        unread(action, options, role, set)
            .into_iter()
            .map(|u| u.field)
            .collect()
    }

    fn plain<'a>(action: Action, role: Role, set: &[&'a str]) -> Vec<&'a str> {
        unread_of(action, &ActionOptions::default(), role, set)
    }

    #[test]
    fn the_rows_follow_the_actions_and_name_each_field_once() {
        for (row, action) in READS.iter().zip(Action::ALL) {
            assert_eq!(row.action, action);
            for side in [row.attacker, row.victim] {
                for (i, (field, _)) in side.iter().enumerate() {
                    assert!(
                        CombatantSpec::FIELDS.contains(field),
                        "{action}: `{field}` is not a combatant field"
                    );
                    assert!(
                        side[..i].iter().all(|(f, _)| f != field),
                        "{action}: `{field}` twice"
                    );
                }
            }
        }
    }

    #[test]
    fn every_action_reads_who_the_combatants_are() {
        for action in Action::ALL {
            for role in Role::ALL {
                assert!(
                    plain(
                        action,
                        role,
                        &["name", "class", "level", "monster", "hit_dice"]
                    )
                    .is_empty()
                );
            }
        }
    }

    #[test]
    fn a_mugging_reads_position_helmet_and_awareness_but_not_the_shield_or_hit_points() {
        // mugging.rs: `thief.position`, `victim.aware`, `victim.helmet`, the stripped armor class (no shield).
        assert!(
            plain(
                Action::Mug,
                Role::Attacker,
                &["position", "weapon", "height_ft"]
            )
            .is_empty()
        );
        assert!(
            plain(
                Action::Mug,
                Role::Victim,
                &["aware", "helmet", "has_back", "saves"]
            )
            .is_empty()
        );
        assert_eq!(
            plain(
                Action::Mug,
                Role::Victim,
                &["shield", "hp", "weapon", "aware"]
            ),
            ["shield", "hp", "weapon"]
        );
        assert_eq!(
            plain(
                Action::Mug,
                Role::Attacker,
                &["backup_weapon", "hp", "state"]
            ),
            ["backup_weapon", "hp", "state"]
        );
    }

    #[test]
    fn a_sap_reads_where_the_sapper_stands_but_not_whether_the_victim_is_aware() {
        // sap.rs: the victim's state (helpless), size (eligibility, damage), AC and hit points;
        // rear.rs: the sapper's position.
        assert!(plain(Action::Sap, Role::Attacker, &["position", "strength"]).is_empty());
        assert_eq!(
            plain(
                Action::Sap,
                Role::Victim,
                &["aware", "state", "size", "hp", "shield"]
            ),
            ["aware"]
        );
    }

    #[test]
    fn a_strike_reads_the_backup_but_not_the_victims_awareness() {
        // strike.rs: `attacker.in_melee()`, `victim.state`, `victim.ac`, `Vitals::of`; rear.rs: `position`.
        assert!(
            plain(
                Action::Strike,
                Role::Attacker,
                &["backup_weapon", "weapon", "position"]
            )
            .is_empty()
        );
        assert_eq!(
            plain(
                Action::Strike,
                Role::Victim,
                &["aware", "state", "hp", "legs"]
            ),
            ["aware", "legs"]
        );
    }

    #[test]
    fn a_grab_of_an_object_reads_hands_but_no_wrestling() {
        // grab.rs: `common_eligibility` (hands), `object_grab_modifier` (no armor penalty), the holder's
        // weapon as the object.
        assert_eq!(
            plain(
                Action::GrabObject,
                Role::Attacker,
                &["hands_free", "armor_type", "position"]
            ),
            ["armor_type"]
        );
        assert_eq!(
            plain(
                Action::GrabObject,
                Role::Victim,
                &["weapon", "backup_weapon", "size"]
            ),
            ["backup_weapon", "size"]
        );
    }

    #[test]
    fn a_grab_of_a_person_or_monster_wrestles_against_the_victims_size_and_backup() {
        // grab.rs: `wrestling_attack` (armor penalty), the size modifiers, `armed_with` (a backup).
        for action in [Action::GrabPerson, Action::GrabMonster] {
            assert!(
                plain(
                    action,
                    Role::Attacker,
                    &["armor_type", "size", "hands_free", "position"]
                )
                .is_empty()
            );
            assert!(plain(action, Role::Victim, &["size", "backup_weapon", "state"]).is_empty());
            assert_eq!(
                plain(action, Role::Victim, &["hp", "aware"]),
                ["hp", "aware"]
            );
        }
    }

    #[test]
    fn a_monsters_attacks_reach_a_grab_only_through_its_rough_strength() {
        // combatant.rs: `contest_score` takes the Strength, else the rough Strength from the attacks.
        assert!(plain(Action::GrabPerson, Role::Victim, &["monster", "attacks"]).is_empty());
        let unread = unread(
            Action::GrabPerson,
            &ActionOptions::default(),
            Role::Victim,
            &["monster", "strength", "attacks"],
        );
        assert_eq!(
            unread,
            [Unread {
                field: "attacks",
                only: Some(Read::RoughStrength)
            }]
        );
    }

    #[test]
    fn a_brawler_does_not_strike_with_natural_attacks_and_a_subduer_does() {
        // decide.rs: `attacker_blow` is the style in a brawl; a subduing monster's `Natural` blow.
        let set = ["monster", "strength", "attacks"];
        assert_eq!(plain(Action::Brawl, Role::Attacker, &set), ["attacks"]);
        assert!(plain(Action::Subdue, Role::Attacker, &set).is_empty());
        // The victim answers with them in either.
        assert!(plain(Action::Brawl, Role::Victim, &set).is_empty());
    }

    #[test]
    fn a_fight_reads_the_opening_fields_only_with_an_opening() {
        let fight = [Action::Brawl, Action::Subdue];
        for action in fight {
            assert_eq!(
                plain(action, Role::Attacker, &["opening_weapon", "position"]),
                ["opening_weapon", "position"]
            );
            assert_eq!(
                plain(action, Role::Victim, &["aware", "helmet", "state"]),
                ["aware", "helmet"]
            );
            let sap = ActionOptions {
                opening: Some(Opening::Sap),
                ..ActionOptions::default()
            };
            assert_eq!(
                unread_of(
                    action,
                    &sap,
                    Role::Attacker,
                    &["opening_weapon", "position"]
                ),
                [] as [&str; 0]
            );
            assert_eq!(
                unread_of(action, &sap, Role::Victim, &["aware", "helmet"]),
                ["helmet"]
            );
            let mug = ActionOptions {
                opening: Some(Opening::Mug),
                ..ActionOptions::default()
            };
            assert!(
                unread_of(
                    action,
                    &mug,
                    Role::Attacker,
                    &["opening_weapon", "position"]
                )
                .is_empty()
            );
            assert!(
                unread_of(action, &mug, Role::Victim, &["aware", "helmet", "saves"]).is_empty()
            );
        }
    }

    #[test]
    fn the_opening_weapon_is_read_only_by_a_fights_attacker_with_an_opening() {
        for action in Action::ALL {
            for role in Role::ALL {
                assert_eq!(
                    plain(action, role, &["opening_weapon"]),
                    ["opening_weapon"],
                    "{action}"
                );
            }
        }
        let mug = ActionOptions {
            opening: Some(Opening::Mug),
            ..ActionOptions::default()
        };
        assert!(unread_of(Action::Brawl, &mug, Role::Attacker, &["opening_weapon"]).is_empty());
        assert_eq!(
            unread_of(Action::Brawl, &mug, Role::Victim, &["opening_weapon"]),
            ["opening_weapon"]
        );
    }
}
