//! A resolved combatant ([`Combatant`]): every number a rule needs, catalog defaults filled in, THAC0 and
//! saves looked up, Strength checked. The scenario layer reads what a file writes and resolves it into one
//! (`scenario::combatant`); the rules take only the resolved values.
//!
//! Resolution happens once per sweep point, so every table look-up and every validation is out of the trial
//! loop, and a bad value is reported before anything runs.

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, narrate};
use crate::rules::attack::ContestScore;
use crate::rules::catalog::{self, Class, Weapon};
use crate::rules::section::Section;
use crate::rules::tables::{
    self, ArmorType, Group, HitDice, SaveCategory, SaveNumbers, Size, Strength,
};

/// Awake, asleep, or magically held (not a wrestling hold).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// The default.
    #[default]
    Awake,
    /// Attacks hit automatically; a sap may wake him.
    Asleep,
    /// Magically held: as asleep for attacks.
    Held,
}

impl State {
    /// Asleep or held: attacks hit automatically and the victim is unaware.
    pub fn is_helpless(self) -> bool {
        self != State::Awake
    }
}

/// Where the attacker stands relative to the victim.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Position {
    /// In front (the default).
    #[default]
    Front,
    /// Behind: a mugging needs it.
    Behind,
}

/// Training in martial arts (docs/rules.md §6 "Martial arts"): only the trained may fight with the column.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum MartialArtsSkill {
    /// Untrained (the default).
    #[default]
    None,
    /// Proficient: the column, as it is.
    Proficient,
    /// Specialized: +1 to hit, +1 damage, one more attack a round, and +1 to the row.
    Specialized,
}
/// Hit points: a fixed number, or dice rolled per trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitPoints {
    /// Always this many.
    Fixed(i32),
    /// Rolled per trial; at least 1.
    Rolled(Dice),
}

impl HitPoints {
    /// Hit points for one trial.
    #[inline]
    pub fn roll<R: crate::dice::Roller + ?Sized>(&self, rng: &mut R) -> i32 {
        match self {
            HitPoints::Fixed(n) => *n,
            HitPoints::Rolled(dice) => {
                narrate!(
                    rng,
                    Section::Core,
                    "Hit points are rolled on {dice} (at least 1)."
                );
                let hp = dice.roll(rng).max(1);
                narrate!(
                    rng,
                    Section::Core,
                    "{hp} hit point{}.",
                    if hp == 1 { "" } else { "s" }
                );
                hp
            }
        }
    }

    /// Every value [`HitPoints::roll`] can give, each with its ways out of the dice's outcomes (rolled hit
    /// points are at least 1); `None` when the outcomes do not fit a `u128`.
    pub fn ways(&self) -> Option<Vec<(i32, u128)>> {
        match self {
            HitPoints::Fixed(n) => Some(vec![(*n, 1)]),
            HitPoints::Rolled(dice) => {
                let mut ways: Vec<(i32, u128)> = Vec::new();
                for (value, n) in dice.counts()? {
                    // Values below 1 count as 1: they join the first value's ways.
                    let value = value.max(1);
                    if let Some(last) = ways.last_mut().filter(|last| last.0 == value) {
                        last.1 += n;
                    } else {
                        ways.push((value, n));
                    }
                }
                Some(ways)
            }
        }
    }

    /// Where one trial's hit points fall among `cuts` (ascending): how many of them they exceed, as
    /// [`Roller::region`](crate::dice::Roller::region) says. Rolled hit points are at least 1, so a cut
    /// below 1 is always exceeded.
    #[inline]
    pub fn region<R: crate::dice::Roller + ?Sized, const N: usize>(
        &self,
        cuts: [i32; N],
        rng: &mut R,
    ) -> usize {
        match self {
            HitPoints::Fixed(n) => cuts.iter().filter(|&&cut| *n > cut).count(),
            HitPoints::Rolled(dice) => {
                rng.region(dice, &cuts.map(|cut| if cut < 1 { i32::MIN } else { cut }))
            }
        }
    }

    /// The paths of [`HitPoints::region`] with two cuts: none for fixed hit points, a region of three
    /// for rolled ones.
    pub fn paths(&self) -> crate::dice::Paths {
        self.paths_cut(2)
    }

    /// The paths of [`HitPoints::region`] with `cuts` cuts: none for fixed hit points, a region of one
    /// more for rolled ones.
    pub fn paths_cut(&self, cuts: usize) -> crate::dice::Paths {
        match self {
            HitPoints::Fixed(_) => crate::dice::Paths::END,
            HitPoints::Rolled(dice) => {
                crate::dice::Paths::region(dice, cuts + 1, |_| crate::dice::Paths::END)
            }
        }
    }
}

/// Hit points as a narration names them: "12 hit points", or "hit points rolled on 3d8".
impl std::fmt::Display for HitPoints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HitPoints::Fixed(n) => write!(f, "{n} hit points"),
            HitPoints::Rolled(dice) => write!(f, "hit points rolled on {dice}"),
        }
    }
}

/// Armor class in parts, so that rules can strip the shield or Dexterity (docs/rules.md §1 "Armor class").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArmorClass {
    /// The armor's AC (10 without armor; a monster's whole AC).
    pub armor: i32,
    /// The shield's bonus (subtracted).
    pub shield: i32,
    /// The Dexterity defensive adjustment (added: negative is a bonus).
    pub dexterity: i32,
    /// Magical protection (subtracted, even when a rule sets AC 10).
    pub magic: i32,
}

impl ArmorClass {
    /// The AC every ordinary attack is made against.
    pub fn normal(&self) -> i32 {
        self.armor - self.shield + self.dexterity - self.magic
    }
}

/// What kind of creature a combatant is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A character of a class, level and race.
    Character {
        /// The class.
        class: &'static Class,
        /// Level 0-20.
        level: u32,
        /// The race.
        race: &'static catalog::Race,
    },
    /// A monster.
    Monster {
        /// Hit Dice.
        hit_dice: HitDice,
        /// False for creatures with no intelligence (save halving).
        intelligent: bool,
    },
}

/// A fully resolved combatant: every number a rule needs, looked up once.
#[derive(Debug, Clone, PartialEq)]
pub struct Combatant {
    /// A label for outputs.
    pub name: String,
    /// Character or monster.
    pub kind: Kind,
    /// THAC0.
    pub thac0: i32,
    /// Save numbers per category.
    pub saves: SaveNumbers,
    /// Strength; `None` for a monster without one (no Strength adjustment).
    pub strength: Option<Strength>,
    /// A monster's rough Strength (docs/rules.md §5) from its catalog attacks; `None` for characters.
    pub monster_strength: Option<i32>,
    /// Dexterity.
    pub dexterity: u8,
    /// Armor class in parts.
    pub ac: ArmorClass,
    /// Wears a helmet.
    pub helmet: bool,
    /// Armor worn (wrestler's penalty).
    pub armor_type: ArmorType,
    /// Size category.
    pub size: Size,
    /// Height in feet.
    pub height_ft: f64,
    /// The weapon in hand (the fist when none).
    pub weapon: Weapon,
    /// A melee weapon drawn when the main one is a missile weapon, or in a wrestling bout (if size S).
    pub backup_weapon: Option<Weapon>,
    /// The melee weapon of a fight's opening, drawn before `weapon` (`None`: the opening uses `weapon`).
    pub opening_weapon: Option<Weapon>,
    /// Natural attacks used in fights (empty for weapon users).
    pub attacks: Vec<Dice>,
    /// Hit points.
    pub hp: HitPoints,
    /// A weight-carrying animal.
    pub carrier: bool,
    /// Legs.
    pub legs: u32,
    /// Has a back.
    pub has_back: bool,
    /// Hands free.
    pub hands_free: u32,
    /// Awake, asleep or held.
    pub state: State,
    /// Aware of the attacker (never while asleep or held).
    pub aware: bool,
    /// Where it stands.
    pub position: Position,
    /// Training in martial arts.
    pub martial_arts: MartialArtsSkill,
    /// Of humanoid anatomy (every character; monsters by the catalog).
    pub humanoid: bool,
    /// Armored by its own hide (the helmet rule spares its head).
    pub natural_armor: bool,
}

impl Combatant {
    /// The "level" a rule compares: a character's level, a monster's whole Hit Dice (docs/rules.md §1).
    pub fn level(&self) -> u32 {
        match self.kind {
            Kind::Character { level, .. } => level,
            Kind::Monster { hit_dice, .. } => hit_dice.level(),
        }
    }

    /// The level behind the save number of one category (a monster's save level, halved for the
    /// unintelligent except vs PPD).
    pub fn save_level(&self, category: SaveCategory) -> u32 {
        match self.kind {
            Kind::Character { level, .. } => level,
            Kind::Monster {
                hit_dice,
                intelligent,
            } => tables::monster_save_level(hit_dice, intelligent, category),
        }
    }

    /// The class, for characters.
    pub fn class(&self) -> Option<&'static Class> {
        match self.kind {
            Kind::Character { class, .. } => Some(class),
            Kind::Monster { .. } => None,
        }
    }

    /// Attacks in a round with a weapon, indexed by `round % 2` (even rounds first): warriors 3/2 at levels
    /// 7-12 (two in every second round, from the second) and 2 from 13, everyone else one (docs/rules.md §6
    /// "Attacks per round"). A monster with natural attacks makes all of them instead.
    pub fn weapon_attacks(&self) -> [u32; 2] {
        let warrior_level = self
            .class()
            .filter(|c| c.group == Group::Warrior)
            .map(|_| self.level());
        match warrior_level {
            Some(13..) => [2, 2],
            Some(7..=12) => [2, 1],
            Some(_) | None => [1, 1],
        }
    }

    /// A character rather than a monster: only a character's Strength is moved by the grab size rule.
    pub fn is_character(&self) -> bool {
        matches!(self.kind, Kind::Character { .. })
    }

    /// Of a PC race (every character is): the grab size modifier is halved against it.
    pub fn is_pc_race(&self) -> bool {
        matches!(self.kind, Kind::Character { .. })
    }

    /// What this combatant holds in melee, the weapon he strikes with and his backup (docs/rules.md §1): a
    /// missile weapon does not strike in melee, so its holder fights with his backup weapon if it is a melee
    /// one (and has no backup left), else with his fists (`None`). A missile backup is no backup.
    pub fn in_melee(&self) -> (Option<&Weapon>, Option<&Weapon>) {
        let backup = self.backup_weapon.as_ref().filter(|b| !b.missile);
        if self.weapon.missile {
            (backup, None)
        } else {
            (Some(&self.weapon), backup)
        }
    }

    /// The weapon this combatant strikes with in melee, if it is not his fists: only such a weapon makes
    /// an armed defender.
    pub fn melee_weapon(&self) -> Option<&Weapon> {
        self.in_melee().0.filter(|w| !w.is_fist())
    }

    /// Strength's to-hit adjustment (0 without a Strength score).
    pub fn hit_adjustment(&self) -> i32 {
        self.strength.map_or(0, |s| s.hit_adjustment())
    }

    /// Strength's damage adjustment (0 without a Strength score).
    pub fn damage_adjustment(&self) -> i32 {
        self.strength.map_or(0, |s| s.damage_adjustment())
    }

    /// The score this combatant rolls against in a grab contest: its Strength, or a monster's rough
    /// Strength when it has none.
    pub fn contest_score(&self) -> ContestScore {
        match (self.strength, self.monster_strength) {
            (Some(s), _) => ContestScore::from(s),
            (None, Some(m)) => ContestScore::plain(m),
            (None, None) => ContestScore::plain(10),
        }
    }

    /// The contest score while grabbing with one hand (docs/rules.md §5): the text's drop table for a Strength
    /// score, three less for a monster's rough Strength.
    pub fn one_hand_contest_score(&self) -> ContestScore {
        match self.strength {
            Some(s) => ContestScore::from(s.one_hand()),
            None => {
                let whole = self.contest_score();
                ContestScore::plain((whole.score - crate::rules::grab::ONE_HAND_DROP).max(1))
            }
        }
    }
}

/// A character's hit points as dice (docs/scenarios.md): warriors d10 and priests d8 a level up to 9th, then +3
/// and +2 a level; rogues d6 and wizards d4 up to 10th, then +2 and +1 a level; level 0: 1d4.
pub fn character_hit_dice(group: Group, level: u32) -> Dice {
    let (sides, last_rolled, per_level_after) = match group {
        Group::Warrior => (10, 9, 3),
        Group::Priest => (8, 9, 2),
        Group::Rogue => (6, 10, 2),
        Group::Wizard => (4, 10, 1),
    };
    if level == 0 {
        return Dice::of(1, 4, 0);
    }
    let rolled = level.min(last_rolled);
    let after = level.saturating_sub(last_rolled) as i32 * per_level_after;
    Dice::of(rolled, sides, after)
}

/// A monster's hit points as dice: d8 per whole Hit Die plus its bonus; a 1/2 HD monster 1d4.
pub fn monster_hit_dice(hd: HitDice) -> Dice {
    if hd.whole == 0 {
        Dice::of(1, 4, 0)
    } else {
        Dice::of(hd.whole, 8, hd.modifier)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolled_hit_points_below_one_count_as_one_in_their_ways() {
        // 1d4−2: −1, 0 and 1 give 1 hit point (three ways), 2 gives 2.
        let ways = HitPoints::Rolled(crate::dice::Dice::of(1, 4, -2)).ways();
        assert_eq!(ways, Some(vec![(1, 3), (2, 1)]));
        assert_eq!(HitPoints::Fixed(7).ways(), Some(vec![(7, 1)]));
    }

    #[test]
    fn hit_points_follow_the_2e_dice_by_group() {
        assert_eq!(character_hit_dice(Group::Warrior, 0).to_string(), "1d4");
        assert_eq!(character_hit_dice(Group::Warrior, 9).to_string(), "9d10");
        assert_eq!(character_hit_dice(Group::Warrior, 12).to_string(), "9d10+9");
        assert_eq!(character_hit_dice(Group::Priest, 11).to_string(), "9d8+4");
        assert_eq!(character_hit_dice(Group::Rogue, 12).to_string(), "10d6+4");
        assert_eq!(character_hit_dice(Group::Wizard, 13).to_string(), "10d4+3");
        assert_eq!(monster_hit_dice("1/2".parse().unwrap()).to_string(), "1d4");
        assert_eq!(
            monster_hit_dice("1-1".parse().unwrap()).to_string(),
            "1d8-1"
        );
    }

    #[test]
    fn rolled_hit_points_are_narrated_and_fixed_ones_are_not() {
        let rolled = HitPoints::Rolled(Dice::of(3, 8, 0));
        let (hp, steps) = crate::rules::told::steps([2, 3, 4], |d| rolled.roll(d));
        assert_eq!(hp, 9);
        assert_eq!(
            steps,
            [
                "Hit points are rolled on 3d8 (at least 1).",
                "9 hit points."
            ]
        );
        let (hp, steps) = crate::rules::told::steps([], |d| HitPoints::Fixed(12).roll(d));
        assert_eq!((hp, steps.len()), (12, 0));
    }
}
