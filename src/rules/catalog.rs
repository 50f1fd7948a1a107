//! The catalog of docs/rules.md §1: weapons, monsters, races and classes, as plain data.
//!
//! Scenarios name these entries; a scenario may also define its own weapons with the same fields. Names match
//! ignoring case, with spaces, `_` and `-` alike, so "long sword", "long_sword" and "Long-Sword" are one entry.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::rules::tables::{Group, HitDice, Size};

/// How a weapon wounds (PHB Table 44). Blunt weapons (B) may mug.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub enum WeaponType {
    /// Bludgeoning: a blunt instrument.
    B,
    /// Piercing.
    P,
    /// Slashing.
    S,
}

/// A weapon as the rules need it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Weapon {
    /// Its name, as the catalog or the scenario gives it.
    pub name: String,
    /// Its size: after the first round of a wrestling bout only size S weapons are used.
    pub size: Size,
    /// Bludgeoning, piercing or slashing.
    pub kind: WeaponType,
    /// Damage against S and M targets (and T).
    pub damage: Dice,
    /// Damage against L and larger targets.
    pub damage_large: Dice,
    /// Whether the damage can be held back (docs/rules.md §3).
    pub controllable: bool,
    /// A missile weapon: never saps, never mugs, never strikes in melee (docs/rules.md §1: in a fight its holder
    /// uses his backup weapon or his fists).
    pub missile: bool,
    /// Hands it takes: none for the fist, two for a size L weapon or a bow, one for any other. A grab
    /// needs hands that neither the weapon nor a shield takes.
    pub hands: u32,
    /// Magical bonus to hit and damage (stripped by a sap and by every grab).
    pub magic: i32,
}

impl Weapon {
    /// The bare hands: `fist`.
    pub fn fist() -> Weapon {
        weapon("fist").unwrap_or_else(|| unreachable!("the catalog has a fist"))
    }

    /// Whether this is the bare hand rather than a held weapon (the armed-defender rule ignores fists).
    pub fn is_fist(&self) -> bool {
        normalize(&self.name) == "fist"
    }

    /// Type B and not a missile: bludgeoning in melee (the fist is, but a mugging wants a blunt
    /// instrument, which bare hands are not unless `mug_bare_hands`: see [`crate::rules::mugging`]).
    pub fn is_blunt(&self) -> bool {
        self.kind == WeaponType::B && !self.missile
    }

    /// A weapon that strikes in melee: held, and not a missile weapon.
    pub fn is_melee(&self) -> bool {
        !self.missile && !self.is_fist()
    }

    /// The hands a weapon of `size` takes when nothing else says: two for size L, else one.
    pub fn default_hands(size: Size) -> u32 {
        if size >= Size::L { 2 } else { 1 }
    }

    /// The damage dice against a target of this size.
    pub fn damage_against(&self, target: Size) -> Dice {
        if target >= Size::L {
            self.damage_large
        } else {
            self.damage
        }
    }
}

struct WeaponRow {
    name: &'static str,
    size: Size,
    kind: WeaponType,
    damage: Dice,
    damage_large: Dice,
    controllable: bool,
    missile: bool,
    hands: u32,
}

const fn w(
    name: &'static str,
    size: Size,
    kind: WeaponType,
    damage: Dice,
    damage_large: Dice,
    controllable: bool,
    missile: bool,
) -> WeaponRow {
    WeaponRow {
        name,
        size,
        kind,
        damage,
        damage_large,
        controllable,
        missile,
        hands: if matches!(size, Size::L) { 2 } else { 1 },
    }
}

/// A weapon drawn and loosed with both hands (a bow), whatever its size.
const fn two_hands(row: WeaponRow) -> WeaponRow {
    WeaponRow { hands: 2, ..row }
}

/// The bare hands, which take no hand from a grab.
const fn no_hands(row: WeaponRow) -> WeaponRow {
    WeaponRow { hands: 0, ..row }
}

const fn d(count: u32, sides: u32, bonus: i32) -> Dice {
    Dice::of(count, sides, bonus)
}

use Size::{L, M, S};
use WeaponType::{B, P, S as Slash};

/// docs/rules.md §1 "Weapons": size, type, damage vs S/M, damage vs L, controllable, missile. The short bow
/// is size M (PHB Table 44) and takes both hands; the fist cannot be held back (bare hands punch, wrestle or
/// overbear instead).
const WEAPONS: &[WeaponRow] = &[
    w("dagger", S, P, d(1, 4, 0), d(1, 3, 0), true, false),
    w("knife", S, P, d(1, 3, 0), d(1, 2, 0), true, false),
    w("short sword", S, P, d(1, 6, 0), d(1, 8, 0), true, false),
    w("long sword", M, Slash, d(1, 8, 0), d(1, 12, 0), true, false),
    w("broad sword", M, Slash, d(2, 4, 0), d(1, 6, 1), true, false),
    w(
        "bastard sword",
        M,
        Slash,
        d(1, 8, 0),
        d(1, 12, 0),
        true,
        false,
    ),
    w(
        "two-handed sword",
        L,
        Slash,
        d(1, 10, 0),
        d(3, 6, 0),
        true,
        false,
    ),
    w("hand axe", M, Slash, d(1, 6, 0), d(1, 4, 0), true, false),
    w("battle axe", M, Slash, d(1, 8, 0), d(1, 8, 0), true, false),
    w("club", M, B, d(1, 6, 0), d(1, 3, 0), false, false),
    w("mace", M, B, d(1, 6, 1), d(1, 6, 0), false, false),
    w("morning star", M, B, d(2, 4, 0), d(1, 6, 1), false, false),
    w("war hammer", M, B, d(1, 4, 1), d(1, 4, 0), false, false),
    w("flail", M, B, d(1, 6, 1), d(2, 4, 0), false, false),
    w("quarterstaff", L, B, d(1, 6, 0), d(1, 6, 0), false, false),
    w("spear", M, P, d(1, 6, 0), d(1, 8, 0), false, false),
    w("sling", S, B, d(1, 4, 0), d(1, 4, 0), false, true),
    two_hands(w("short bow", M, P, d(1, 6, 0), d(1, 6, 0), false, true)),
    no_hands(w("fist", S, B, d(1, 2, 0), d(1, 2, 0), false, false)),
];

/// A monster of the catalog (docs/rules.md §1 "Monsters").
#[derive(Debug, Clone, PartialEq)]
pub struct Monster {
    /// Its name.
    pub name: &'static str,
    /// Hit Dice as written ("4+1").
    pub hit_dice: HitDice,
    /// Armor class, all included.
    pub ac: i32,
    /// Size category.
    pub size: Size,
    /// Height in feet (for the mugging height limit).
    pub height_ft: f64,
    /// Natural attacks, one die expression each; empty for weapon users.
    pub attacks: &'static [Dice],
    /// The weapon it carries when it has no natural attacks.
    pub weapon: Option<&'static str>,
    /// False only for creatures with no intelligence at all (save halving).
    pub intelligent: bool,
    /// A weight-carrying animal, or made partly of one (+8 monster Strength).
    pub carrier: bool,
    /// Number of legs (overbearing: −2 per leg beyond two).
    pub legs: u32,
    /// Of humanoid anatomy: a backstab, and so a mugging, needs one (docs/rules.md §2).
    pub humanoid: bool,
    /// Its armor class is its own hide or scales: its head is protected, so the mugging helmet rule does
    /// not touch it.
    pub natural_armor: bool,
}

const fn hd(whole: u32, modifier: i32) -> HitDice {
    HitDice {
        whole,
        modifier,
        half: false,
    }
}

const fn monster(
    name: &'static str,
    hit_dice: HitDice,
    ac: i32,
    size: Size,
    height_ft: f64,
    attacks: &'static [Dice],
    weapon: Option<&'static str>,
) -> Monster {
    Monster {
        name,
        hit_dice,
        ac,
        size,
        height_ft,
        attacks,
        weapon,
        intelligent: true,
        carrier: false,
        legs: 2,
        humanoid: true,
        natural_armor: false,
    }
}

/// An animal: not humanoid (no backstab, so no mugging), armored by its own hide.
const fn beast(m: Monster) -> Monster {
    Monster {
        humanoid: false,
        natural_armor: true,
        ..m
    }
}

const fn carrier(m: Monster, legs: u32) -> Monster {
    Monster {
        carrier: true,
        legs,
        ..m
    }
}

/// docs/rules.md §1 "Monsters in the catalog at least".
const MONSTERS: &[Monster] = &[
    monster("ogre", hd(4, 1), 5, L, 9.0, &[d(1, 10, 0)], None),
    beast(carrier(
        monster(
            "nightmare",
            hd(6, 6),
            -4,
            L,
            6.0,
            &[d(2, 4, 2), d(2, 4, 2), d(2, 4, 0)],
            None,
        ),
        4,
    )),
    monster("orc", hd(1, 0), 6, M, 6.0, &[], Some("long sword")),
    monster("goblin", hd(1, -1), 6, S, 4.0, &[], Some("short sword")),
    monster(
        "kobold",
        HitDice {
            whole: 0,
            modifier: 0,
            half: true,
        },
        7,
        S,
        3.0,
        &[],
        Some("dagger"),
    ),
    monster("gnoll", hd(2, 0), 5, L, 7.5, &[], Some("broad sword")),
    monster(
        "hill giant",
        hd(12, 2),
        3,
        Size::H,
        16.0,
        &[d(2, 6, 7)],
        None,
    ),
    beast(carrier(
        monster("horse", hd(3, 0), 7, L, 6.0, &[d(1, 3, 0)], None),
        4,
    )),
];

/// A PC race (docs/rules.md §1 "Races"): size and height; every race is a "PC race" for the grab size rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Race {
    /// Its name.
    pub name: &'static str,
    /// Size category.
    pub size: Size,
    /// Typical height in feet.
    pub height_ft: f64,
    /// Halflings may not have exceptional Strength.
    pub exceptional_strength: bool,
}

const fn race(name: &'static str, size: Size, height_ft: f64) -> Race {
    Race {
        name,
        size,
        height_ft,
        exceptional_strength: true,
    }
}

const RACES: &[Race] = &[
    race("human", M, 6.0),
    race("elf", M, 5.0),
    race("half-elf", M, 5.5),
    race("dwarf", S, 4.0),
    race("gnome", S, 3.5),
    Race {
        exceptional_strength: false,
        ..race("halfling", S, 3.0)
    },
    race("half-orc", M, 6.0),
];

/// A character class and the group whose tables it uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Class {
    /// Its name.
    pub name: &'static str,
    /// Warrior, priest, rogue or wizard.
    pub group: Group,
}

impl Class {
    /// Only thieves backstab, so only thieves mug (docs/rules.md §1).
    pub fn backstabs(&self) -> bool {
        self.name == "thief"
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

const fn class(name: &'static str, group: Group) -> Class {
    Class { name, group }
}

/// docs/rules.md §1 "Classes → groups"; the wizard specialists of the PHB are wizards.
const CLASSES: &[Class] = &[
    class("fighter", Group::Warrior),
    class("paladin", Group::Warrior),
    class("ranger", Group::Warrior),
    class("cleric", Group::Priest),
    class("druid", Group::Priest),
    class("thief", Group::Rogue),
    class("bard", Group::Rogue),
    class("mage", Group::Wizard),
    class("illusionist", Group::Wizard),
    class("abjurer", Group::Wizard),
    class("conjurer", Group::Wizard),
    class("diviner", Group::Wizard),
    class("enchanter", Group::Wizard),
    class("invoker", Group::Wizard),
    class("necromancer", Group::Wizard),
    class("transmuter", Group::Wizard),
];

/// The key catalog names are compared by: lower case, with spaces, `_` and `-` alike.
pub fn normalize(name: &str) -> String {
    name.trim()
        .chars()
        .map(|c| match c {
            ' ' | '-' => '_',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

fn find<'a, T>(rows: &'a [T], name: &str, key: impl Fn(&T) -> &str) -> Option<&'a T> {
    let wanted = normalize(name);
    rows.iter().find(|row| normalize(key(row)) == wanted)
}

/// A catalog weapon by name.
pub fn weapon(name: &str) -> Option<Weapon> {
    find(WEAPONS, name, |r| r.name).map(|r| Weapon {
        name: r.name.to_string(),
        size: r.size,
        kind: r.kind,
        damage: r.damage,
        damage_large: r.damage_large,
        controllable: r.controllable,
        missile: r.missile,
        hands: r.hands,
        magic: 0,
    })
}

/// A catalog monster by name.
pub fn monster_named(name: &str) -> Option<&'static Monster> {
    find(MONSTERS, name, |m| m.name)
}

/// A race by name.
pub fn race_named(name: &str) -> Option<&'static Race> {
    find(RACES, name, |r| r.name)
}

/// A class by name.
pub fn class_named(name: &str) -> Option<&'static Class> {
    find(CLASSES, name, |c| c.name)
}

/// Every weapon name, in catalog order.
pub fn weapon_names() -> impl Iterator<Item = &'static str> {
    WEAPONS.iter().map(|w| w.name)
}

/// Every catalog weapon, in catalog order.
pub fn weapons() -> impl Iterator<Item = Weapon> {
    weapon_names().filter_map(weapon)
}

/// Every catalog monster.
pub fn monsters() -> &'static [Monster] {
    MONSTERS
}

/// Every race.
pub fn races() -> &'static [Race] {
    RACES
}

/// Every class.
pub fn classes() -> &'static [Class] {
    CLASSES
}

/// A monster's rough Strength when none is given (docs/rules.md §5): the largest maximum damage of one attack,
/// plus one per attack beyond the first, plus 8 for a carrier animal. A weapon user counts its weapon as one
/// attack; a creature with neither has the fist's 2.
pub fn monster_strength(attacks: &[Dice], weapon: Option<&Weapon>, carrier: bool) -> i32 {
    let largest = attacks
        .iter()
        .map(Dice::max)
        .max()
        .or_else(|| weapon.map(|w| w.damage.max()))
        .unwrap_or(2);
    let extra = attacks.len().saturating_sub(1) as i32;
    largest + extra + if carrier { 8 } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_ignoring_case_space_underscore_and_dash() {
        for name in ["long sword", "long_sword", "Long-Sword", " LONG SWORD "] {
            assert_eq!(weapon(name).map(|w| w.name), Some("long sword".into()));
        }
        assert_eq!(
            monster_named("Hill_Giant").map(|m| m.name),
            Some("hill giant")
        );
        assert_eq!(race_named("half elf").map(|r| r.name), Some("half-elf"));
        assert!(weapon("longsword").is_none());
    }

    #[test]
    fn every_weapon_of_rules_md_is_there_with_its_numbers() {
        let table = [
            ("dagger", S, P, "1d4", "1d3", true, false),
            ("knife", S, P, "1d3", "1d2", true, false),
            ("short sword", S, P, "1d6", "1d8", true, false),
            ("long sword", M, Slash, "1d8", "1d12", true, false),
            ("broad sword", M, Slash, "2d4", "1d6+1", true, false),
            ("bastard sword", M, Slash, "1d8", "1d12", true, false),
            ("two-handed sword", L, Slash, "1d10", "3d6", true, false),
            ("hand axe", M, Slash, "1d6", "1d4", true, false),
            ("battle axe", M, Slash, "1d8", "1d8", true, false),
            ("club", M, B, "1d6", "1d3", false, false),
            ("mace", M, B, "1d6+1", "1d6", false, false),
            ("morning star", M, B, "2d4", "1d6+1", false, false),
            ("war hammer", M, B, "1d4+1", "1d4", false, false),
            ("flail", M, B, "1d6+1", "2d4", false, false),
            ("quarterstaff", L, B, "1d6", "1d6", false, false),
            ("spear", M, P, "1d6", "1d8", false, false),
            ("sling", S, B, "1d4", "1d4", false, true),
            ("short bow", M, P, "1d6", "1d6", false, true),
            ("fist", S, B, "1d2", "1d2", false, false),
        ];
        assert_eq!(weapon_names().count(), table.len());
        for (name, size, kind, dmg, dmg_l, controllable, missile) in table {
            let w = weapon(name).unwrap();
            assert_eq!(
                (
                    w.size,
                    w.kind,
                    w.damage.to_string(),
                    w.damage_large.to_string()
                ),
                (size, kind, dmg.to_string(), dmg_l.to_string()),
                "{name}"
            );
            assert_eq!(
                (w.controllable, w.missile, w.magic),
                (controllable, missile, 0)
            );
        }
    }

    #[test]
    fn the_short_bow_is_size_m_and_the_fist_is_not_held_back() {
        let bow = weapon("short bow").unwrap();
        assert_eq!((bow.size, bow.missile, bow.hands), (M, true, 2));
        let fist = weapon("fist").unwrap();
        assert!(!fist.controllable && !fist.is_melee());
        assert_eq!(fist.hands, 0);
    }

    #[test]
    fn weapons_take_one_hand_two_when_large_or_a_bow_and_fists_none() {
        let hands = |n: &str| weapon(n).unwrap().hands;
        assert_eq!(hands("long sword"), 1);
        assert_eq!(hands("dagger"), 1);
        assert_eq!(hands("sling"), 1);
        assert_eq!(hands("two-handed sword"), 2);
        assert_eq!(hands("quarterstaff"), 2);
        assert_eq!(hands("short bow"), 2);
        assert_eq!(hands("fist"), 0);
        assert!(weapon("sling").map(|w| !w.is_melee()).unwrap());
        assert!(weapon("club").map(|w| w.is_melee()).unwrap());
    }

    #[test]
    fn horses_and_nightmares_are_not_humanoid_and_wear_their_own_hide() {
        for m in monsters() {
            let beast = matches!(m.name, "horse" | "nightmare");
            assert_eq!(m.humanoid, !beast, "{}", m.name);
            assert_eq!(m.natural_armor, beast, "{}", m.name);
        }
    }

    #[test]
    fn blunt_instruments_are_type_b_melee_weapons_and_fists() {
        let blunt: Vec<&str> = weapon_names()
            .filter(|n| weapon(n).unwrap().is_blunt())
            .collect();
        assert_eq!(
            blunt,
            [
                "club",
                "mace",
                "morning star",
                "war hammer",
                "flail",
                "quarterstaff",
                "fist"
            ]
        );
    }

    #[test]
    fn large_targets_use_the_large_column() {
        let sword = weapon("long sword").unwrap();
        assert_eq!(sword.damage_against(Size::T).to_string(), "1d8");
        assert_eq!(sword.damage_against(Size::M).to_string(), "1d8");
        assert_eq!(sword.damage_against(Size::L).to_string(), "1d12");
        assert_eq!(sword.damage_against(Size::G).to_string(), "1d12");
    }

    #[test]
    fn every_monster_of_rules_md_is_there() {
        let ogre = monster_named("ogre").unwrap();
        assert_eq!(
            (ogre.hit_dice.to_string(), ogre.ac, ogre.size),
            ("4+1".into(), 5, L)
        );
        assert_eq!((ogre.height_ft, ogre.intelligent), (9.0, true));
        assert_eq!(ogre.attacks, &[Dice::of(1, 10, 0)]);
        let nm = monster_named("nightmare").unwrap();
        assert_eq!(
            (nm.hit_dice.to_string(), nm.ac, nm.size),
            ("6+6".into(), -4, L)
        );
        assert_eq!((nm.carrier, nm.legs, nm.attacks.len()), (true, 4, 3));
        let orc = monster_named("orc").unwrap();
        assert_eq!(
            (orc.hit_dice.to_string(), orc.ac, orc.size, orc.weapon),
            ("1".into(), 6, M, Some("long sword"))
        );
        let goblin = monster_named("goblin").unwrap();
        assert_eq!(
            (
                goblin.hit_dice.to_string(),
                goblin.ac,
                goblin.size,
                goblin.height_ft
            ),
            ("1-1".into(), 6, S, 4.0)
        );
        let kobold = monster_named("kobold").unwrap();
        assert_eq!(
            (kobold.hit_dice.to_string(), kobold.ac, kobold.weapon),
            ("1/2".into(), 7, Some("dagger"))
        );
        let gnoll = monster_named("gnoll").unwrap();
        assert_eq!(
            (gnoll.hit_dice.to_string(), gnoll.size, gnoll.height_ft),
            ("2".into(), L, 7.5)
        );
        let giant = monster_named("hill giant").unwrap();
        assert_eq!(
            (giant.hit_dice.to_string(), giant.ac, giant.size),
            ("12+2".into(), 3, Size::H)
        );
        let horse = monster_named("horse").unwrap();
        assert_eq!(
            (horse.hit_dice.to_string(), horse.carrier, horse.legs),
            ("3".into(), true, 4)
        );
        for m in monsters() {
            if let Some(w) = m.weapon {
                assert!(weapon(w).is_some(), "{} carries an unknown weapon", m.name);
            }
        }
    }

    #[test]
    fn nightmare_strength_is_20() {
        let nm = monster_named("nightmare").unwrap();
        assert_eq!(monster_strength(nm.attacks, None, nm.carrier), 20);
    }

    #[test]
    fn monster_strength_counts_extra_attacks_and_weapons() {
        let ogre = monster_named("ogre").unwrap();
        assert_eq!(monster_strength(ogre.attacks, None, false), 10);
        let orc_sword = weapon("long sword").unwrap();
        assert_eq!(monster_strength(&[], Some(&orc_sword), false), 8);
        assert_eq!(monster_strength(&[], None, false), 2);
        let horse = monster_named("horse").unwrap();
        assert_eq!(monster_strength(horse.attacks, None, horse.carrier), 11);
    }

    #[test]
    fn races_and_classes_are_those_of_rules_md() {
        let expect = [
            ("human", M, 6.0),
            ("elf", M, 5.0),
            ("half-elf", M, 5.5),
            ("dwarf", S, 4.0),
            ("gnome", S, 3.5),
            ("halfling", S, 3.0),
            ("half-orc", M, 6.0),
        ];
        assert_eq!(races().len(), expect.len());
        for (name, size, height) in expect {
            let r = race_named(name).unwrap();
            assert_eq!((r.size, r.height_ft), (size, height));
            assert_eq!(r.exceptional_strength, name != "halfling");
        }
        let group = |n: &str| class_named(n).unwrap().group;
        for n in ["fighter", "paladin", "ranger"] {
            assert_eq!(group(n), Group::Warrior);
        }
        for n in ["cleric", "druid"] {
            assert_eq!(group(n), Group::Priest);
        }
        for n in ["thief", "bard"] {
            assert_eq!(group(n), Group::Rogue);
        }
        for n in ["mage", "illusionist", "necromancer"] {
            assert_eq!(group(n), Group::Wizard);
        }
        let muggers: Vec<&str> = classes()
            .iter()
            .filter(|c| c.backstabs())
            .map(|c| c.name)
            .collect();
        assert_eq!(muggers, ["thief"]);
    }
}
