//! A combatant as a scenario writes it ([`CombatantSpec`], every field optional), and its resolution into
//! the rules' [`Combatant`]: catalog defaults filled in, THAC0 and saves looked up, every range checked. The
//! rules core takes only the resolved combatant; what a file may write, how it reads and what it is called
//! lives here, beside the rest of the file's input.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

use crate::dice::Dice;
use crate::rules::action::Action;
use crate::rules::catalog::{self, Class, Weapon, WeaponType};
use crate::rules::combatant::{
    ArmorClass, Combatant, HitPoints, Kind, MartialArtsSkill, Position, State, character_hit_dice,
    monster_hit_dice,
};
use crate::rules::reads::{Read, Role};
use crate::rules::tables::{self, ArmorType, Group, HitDice, SaveCategory, Size, Strength};
use crate::rules::{Key, Unit, keys};

/// A weapon as a scenario names it: a catalog name, or an inline table.
#[derive(Debug, Clone, PartialEq)]
pub enum WeaponSpec {
    /// `weapon = "long sword"`.
    Named(String),
    /// `weapon = { name = "sap", damage = "1d4", ... }`.
    Inline(InlineWeapon),
}

/// An inline weapon. Named after a catalog weapon, it starts from that weapon's numbers (so
/// `{ name = "long sword", magic = 1 }` is a long sword +1); otherwise `damage` is required.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InlineWeapon {
    /// Its name (a catalog name inherits that weapon's numbers).
    pub name: Option<String>,
    /// Size (default: the catalog weapon's, else M); after a wrestling bout's first round only size S weapons serve.
    pub size: Option<Size>,
    /// B (bludgeoning: a blunt instrument), P (piercing) or S (slashing); default B.
    #[serde(rename = "type")]
    pub kind: Option<WeaponType>,
    /// Damage against T, S and M targets (required unless the name is a catalog weapon's).
    pub damage: Option<Dice>,
    /// Damage against L and larger targets (default: `damage`).
    pub damage_large: Option<Dice>,
    /// Whether the damage can be held back, as a sword's or an axe's can (default false).
    pub controllable: Option<bool>,
    /// A missile weapon (default false): it never strikes in melee, saps or mugs.
    pub missile: Option<bool>,
    /// Hands it takes (default: the catalog weapon's, else two for size L and one otherwise).
    #[schemars(range(max = 2))]
    pub hands: Option<u32>,
    /// Magical bonus to hit and damage (default 0); saps and grabs strip it.
    #[schemars(range(min = -10, max = 10))]
    pub magic: Option<i32>,
}

impl<'de> Deserialize<'de> for WeaponSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = WeaponSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a weapon name such as \"club\", or an inline table such as { name = \"sap\", damage = \"1d4\" }")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<WeaponSpec, E> {
                Ok(WeaponSpec::Named(v.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<WeaponSpec, A::Error> {
                InlineWeapon::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(WeaponSpec::Inline)
            }
        }
        deserializer.deserialize_any(V)
    }
}
impl<'de> Deserialize<'de> for HitPoints {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = HitPoints;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number of hit points such as 12, or dice such as \"4d8+1\"")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<HitPoints, E> {
                i32::try_from(v)
                    .ok()
                    .filter(|&n| n >= 1)
                    .map(HitPoints::Fixed)
                    .ok_or_else(|| E::custom(format!("hp {v} is out of range: expected 1 or more")))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<HitPoints, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(i64::MAX))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<HitPoints, E> {
                if let Ok(n) = v.trim().parse::<i64>() {
                    return self.visit_i64(n);
                }
                v.parse::<Dice>().map(HitPoints::Rolled).map_err(E::custom)
            }
        }
        deserializer.deserialize_any(V)
    }
}
/// Save overrides: `saves = { pp = 12 }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SavesSpec {
    /// Paralyzation, poison or death magic.
    #[schemars(range(min = -20, max = 40))]
    pub ppd: Option<i32>,
    /// Rod, staff or wand.
    #[schemars(range(min = -20, max = 40))]
    pub rsw: Option<i32>,
    /// Petrification or polymorph.
    #[schemars(range(min = -20, max = 40))]
    pub pp: Option<i32>,
    /// Breath weapon.
    #[schemars(range(min = -20, max = 40))]
    pub bw: Option<i32>,
    /// Spell.
    #[schemars(range(min = -20, max = 40))]
    pub sp: Option<i32>,
}

/// A combatant as a scenario writes it (docs/scenarios.md "Combatant fields"). Every field is optional; what is
/// missing comes from the race, class or monster, then from the documented defaults.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CombatantSpec {
    /// A label for messages, such as an ineligible point's reason (default: the class or monster).
    pub name: Option<String>,
    /// A character's class; a combatant is a character (`class`) or a monster (`monster`, or `hit_dice`).
    #[serde(default)]
    #[schemars(schema_with = "crate::scenario::schema::class_name")]
    pub class: Option<String>,
    /// A character's level, 0 to 20 (default 1). A monster's level is its whole Hit Dice.
    #[schemars(range(max = 20))]
    pub level: Option<u32>,
    /// A character's race (default human): size, height, and exceptional Strength (not halflings).
    #[serde(default)]
    #[schemars(schema_with = "crate::scenario::schema::race_name")]
    pub race: Option<String>,
    /// A monster of the catalog; any other field overrides its numbers.
    #[serde(default)]
    #[schemars(schema_with = "crate::scenario::schema::monster_name")]
    pub monster: Option<String>,
    /// Hit Dice; without `class` or `monster`, makes a monster of the scenario's own.
    pub hit_dice: Option<HitDice>,
    /// A monster with no intelligence at all saves at half its level (default true).
    pub intelligent: Option<bool>,
    /// Size category (default: the race's or monster's, else M).
    pub size: Option<Size>,
    /// Height in feet (default: the race's or monster's, else the middle of its size band).
    #[schemars(extend("exclusiveMinimum" = 0, "maximum" = 1000))]
    pub height_ft: Option<f64>,
    /// Strength (a character's default 10; a monster without one has no Strength adjustment).
    pub strength: Option<Strength>,
    /// Dexterity (default 10): its defensive adjustment counts in armor class.
    #[schemars(range(min = 1, max = 25))]
    pub dexterity: Option<u8>,
    /// The armor's armor class, without shield, Dexterity and magic (default 10; a monster's catalog AC).
    #[schemars(range(min = -20, max = 20))]
    pub ac: Option<i32>,
    /// The shield's bonus to armor class (default 0; a small shield is 1). A shield takes a hand.
    #[schemars(range(min = -20, max = 20))]
    pub shield: Option<i32>,
    /// Magical protection: rings, cloaks (default 0); it counts even when a rule sets AC 10.
    #[schemars(range(min = -20, max = 20))]
    pub magic_ac: Option<i32>,
    /// Wears a helmet: with the helmet rule, a mugging strikes a bare head at AC 10 (default false).
    pub helmet: Option<bool>,
    /// The armor worn, for a wrestler's penalty (default none).
    pub armor_type: Option<ArmorType>,
    /// Hit points, fixed or rolled per trial (default: rolled by class and level, or by Hit Dice).
    pub hp: Option<HitPoints>,
    /// THAC0, instead of the table's.
    #[schemars(range(min = -20, max = 40))]
    pub thac0: Option<i32>,
    /// Saving throw numbers, instead of the table's: `{ pp = 12 }`.
    pub saves: Option<SavesSpec>,
    /// The weapon in hand (default: the fist, or the monster's).
    pub weapon: Option<WeaponSpec>,
    /// A melee weapon drawn when the main one is a missile weapon, or when a wrestling bout makes the main one useless (only a size S one serves there).
    pub backup_weapon: Option<WeaponSpec>,
    /// The melee weapon of a fight's opening (a club for the mugging), drawn before the fight's own `weapon`; the switch costs nothing (default: `weapon`).
    pub opening_weapon: Option<WeaponSpec>,
    /// A monster's natural attacks, one dice expression each (a given `weapon` replaces the catalog's).
    pub attacks: Option<Vec<Dice>>,
    /// A weight-carrying animal, or made partly of one: +8 to a monster's rough Strength.
    pub carrier: Option<bool>,
    /// Legs (default 2): overbearing is −2 per leg beyond two.
    #[schemars(range(max = 100))]
    pub legs: Option<u32>,
    /// Has a back to strike (default true; not oozes and jellies): a mugging needs one.
    pub has_back: Option<bool>,
    /// Hands free for a grab (default: two, less the weapon's hands, less one for a shield).
    #[schemars(range(max = 2))]
    pub hands_free: Option<u32>,
    /// Awake (default), asleep, or magically held: attacks on the asleep or held hit automatically.
    pub state: Option<State>,
    /// Aware of the attacker (default true; never while asleep or held): only a mugging needs him unaware.
    pub aware: Option<bool>,
    /// Where the attacker stands: front (default) or behind, which a mugging needs.
    pub position: Option<Position>,
    /// Training in martial arts, which `style = "martial_arts"` needs (default none).
    pub martial_arts: Option<MartialArtsSkill>,
    /// A monster of humanoid anatomy, which a mugging needs (default: the catalog's, else true).
    pub humanoid: Option<bool>,
    /// A monster whose armor class is its own hide or scales, so the helmet rule spares it (default: the catalog's, else false).
    pub natural_armor: Option<bool>,
}

impl CombatantSpec {
    /// Every field with its name on charts, in declaration order.
    pub const KEYS: [Key; 33] = [
        Key::new("name", "name", Unit::None),
        Key::new("class", "class", Unit::None),
        Key::new("level", "level", Unit::None),
        Key::new("race", "race", Unit::None),
        Key::new("monster", "monster", Unit::None),
        Key::new("hit_dice", "Hit Dice", Unit::None),
        Key::new("intelligent", "intelligent", Unit::None),
        Key::new("size", "size", Unit::None),
        Key::new("height_ft", "height", Unit::Feet),
        Key::new("strength", "Strength", Unit::Score),
        Key::new("dexterity", "Dexterity", Unit::Score),
        Key::new("ac", "armor class", Unit::ArmorClass),
        Key::new("shield", "shield bonus", Unit::ArmorClass),
        Key::new("magic_ac", "magical protection", Unit::ArmorClass),
        Key::new("helmet", "helmet", Unit::None),
        Key::new("armor_type", "armor", Unit::None),
        Key::new("hp", "hit points", Unit::HitPoints),
        Key::new("thac0", "THAC0", Unit::None),
        Key::new("saves", "saving throws", Unit::D20),
        Key::new("weapon", "weapon", Unit::None),
        Key::new("backup_weapon", "backup weapon", Unit::None),
        Key::new("opening_weapon", "opening weapon", Unit::None),
        Key::new("attacks", "attacks", Unit::None),
        Key::new("carrier", "weight carrier", Unit::None),
        Key::new("legs", "legs", Unit::None),
        Key::new("has_back", "has a back", Unit::None),
        Key::new("hands_free", "hands free", Unit::None),
        Key::new("state", "state", Unit::None),
        Key::new("aware", "aware", Unit::None),
        Key::new("position", "position", Unit::None),
        Key::new("martial_arts", "martial arts", Unit::None),
        Key::new("humanoid", "humanoid", Unit::None),
        Key::new("natural_armor", "natural armor", Unit::None),
    ];

    /// The field names a scenario may use, in declaration order (for suggestions on a misspelt one).
    pub const FIELDS: [&'static str; 33] = keys(&CombatantSpec::KEYS);
}

/// A field whose value the rules cannot accept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct SpecError {
    /// The combatant field at fault.
    pub field: &'static str,
    /// What is wrong and what was expected.
    pub message: String,
}

fn spec_error(field: &'static str, message: impl Into<String>) -> SpecError {
    SpecError {
        field,
        message: message.into(),
    }
}

impl CombatantSpec {
    /// Resolves this combatant against the catalog and the tables: what is missing comes from the race,
    /// class or monster, then from the documented defaults.
    pub fn resolve(&self) -> Result<Combatant, SpecError> {
        let spec = self;
        let monster = match &spec.monster {
            Some(name) => Some(catalog::monster_named(name).ok_or_else(|| {
                spec_error(
                    "monster",
                    unknown("monster", name, catalog::monsters().iter().map(|m| m.name)),
                )
            })?),
            None => None,
        };
        let class = match &spec.class {
            Some(name) => Some(catalog::class_named(name).ok_or_else(|| {
                spec_error(
                    "class",
                    unknown("class", name, catalog::classes().iter().map(|c| c.name)),
                )
            })?),
            None => None,
        };
        if monster.is_some() && class.is_some() {
            return Err(spec_error(
                "class",
                "a combatant is either a character (class) or a monster (monster), not both",
            ));
        }
        let is_monster = monster.is_some() || (class.is_none() && spec.hit_dice.is_some());
        let weapon = match &spec.weapon {
            Some(w) => Some(resolve_weapon(w, "weapon")?),
            None => None,
        };
        let backup_weapon = match &spec.backup_weapon {
            Some(w) => Some(resolve_melee_weapon(w, "backup_weapon", "a backup weapon")?),
            None => None,
        };
        let opening_weapon = match &spec.opening_weapon {
            Some(w) => Some(resolve_melee_weapon(
                w,
                "opening_weapon",
                "an opening's weapon",
            )?),
            None => None,
        };
        let dexterity = spec.dexterity.unwrap_or(10);
        if !(1..=25).contains(&dexterity) {
            return Err(spec_error(
                "dexterity",
                format!("{dexterity} is out of range: expected 1 to 25"),
            ));
        }
        if let Some(h) = spec.height_ft
            && !(h.is_finite() && h > 0.0 && h <= 1000.0)
        {
            return Err(spec_error(
                "height_ft",
                format!("{h} is out of range: expected a height in feet above 0"),
            ));
        }
        if let Some(hands_free) = spec.hands_free
            && hands_free > 2
        {
            return Err(spec_error(
                "hands_free",
                format!("{hands_free} is out of range: expected 0, 1 or 2"),
            ));
        }
        let legs = spec.legs.or(monster.map(|m| m.legs)).unwrap_or(2);
        if legs > 100 {
            return Err(spec_error(
                "legs",
                format!("{legs} is out of range: expected 0 to 100"),
            ));
        }
        let state = spec.state.unwrap_or_default();
        let mut c = if is_monster {
            resolve_monster(spec, monster, weapon)?
        } else {
            resolve_character(spec, class, weapon)?
        };
        // Hands free unless given (he let go of something): two, less the weapon's hands, less one for a
        // shield (docs/rules.md §5 "Hands").
        let hands_free = spec.hands_free.unwrap_or_else(|| {
            let shield = u32::from(spec.shield.is_some_and(|s| s > 0));
            2u32.saturating_sub(c.weapon.hands + shield)
        });
        let mut saves = c.saves;
        if let Some(o) = spec.saves {
            let overrides = [
                (SaveCategory::Ppd, o.ppd),
                (SaveCategory::Rsw, o.rsw),
                (SaveCategory::Pp, o.pp),
                (SaveCategory::Bw, o.bw),
                (SaveCategory::Spell, o.sp),
            ];
            for (category, value) in overrides {
                if let Some(v) = value {
                    if !(-20..=40).contains(&v) {
                        return Err(spec_error(
                            "saves",
                            format!("{v} is out of range: expected a save number from -20 to 40"),
                        ));
                    }
                    saves.set(category, v);
                }
            }
        }
        if let Some(t) = spec.thac0 {
            if !(-20..=40).contains(&t) {
                return Err(spec_error(
                    "thac0",
                    format!("{t} is out of range: expected -20 to 40"),
                ));
            }
            c.thac0 = t;
        }
        c.saves = saves;
        c.dexterity = dexterity;
        c.ac.shield = spec.shield.unwrap_or(0);
        c.ac.magic = spec.magic_ac.unwrap_or(0);
        c.ac.dexterity = tables::dexterity_defense(dexterity);
        c.helmet = spec.helmet.unwrap_or(false);
        c.armor_type = spec.armor_type.unwrap_or(ArmorType::None);
        c.backup_weapon = backup_weapon;
        c.opening_weapon = opening_weapon;
        c.carrier = spec.carrier.or(monster.map(|m| m.carrier)).unwrap_or(false);
        c.legs = legs;
        c.has_back = spec.has_back.unwrap_or(true);
        c.hands_free = hands_free;
        c.state = state;
        c.aware = spec.aware.unwrap_or(true) && !state.is_helpless();
        c.position = spec.position.unwrap_or_default();
        if let Some(humanoid) = spec.humanoid {
            c.humanoid = humanoid;
        }
        c.martial_arts = spec.martial_arts.unwrap_or_default();
        if let Some(natural_armor) = spec.natural_armor {
            c.natural_armor = natural_armor;
        }
        if let Some(size) = spec.size {
            c.size = size;
            if spec.height_ft.is_none() && spec.race.is_none() && monster.is_none() {
                c.height_ft = size.middle_height_ft();
            }
        }
        if let Some(h) = spec.height_ft {
            c.height_ft = h;
        }
        if let Some(name) = &spec.name {
            c.name = name.clone();
        }
        if let Some(hp) = spec.hp {
            c.hp = hp;
        }
        for (field, value) in [
            ("ac", spec.ac),
            ("shield", spec.shield),
            ("magic_ac", spec.magic_ac),
        ] {
            if let Some(v) = value
                && !(-20..=20).contains(&v)
            {
                return Err(spec_error(
                    field,
                    format!("{v} is out of range: expected -20 to 20"),
                ));
            }
        }
        Ok(c)
    }
}

/// The warning for a combatant field of `role` that no point reads (docs/scenarios.md "Fields an action does
/// not read"): each action that leaves it unread, with the part of the action that would read it (`None`: no
/// part does), and a suggestion: what the field is for, or how to make the action read it.
pub fn unread_warning(
    role: Role,
    field: &str,
    unread: &[(Action, Option<Read>)],
) -> (String, Option<String>) {
    // The actions grouped by why they leave it unread, in order.
    let mut groups: Vec<(Option<Read>, Vec<Action>)> = Vec::new();
    for &(action, only) in unread {
        let only = only.filter(|o| *o != Read::Always);
        match groups.iter_mut().find(|(o, _)| *o == only) {
            Some((_, actions)) => actions.push(action),
            None => groups.push((only, vec![action])),
        }
    }
    let reasons: Vec<String> = groups
        .iter()
        .map(|(only, actions)| {
            let names: Vec<String> = actions.iter().map(|a| format!("`{a}`")).collect();
            let one = actions.len() == 1;
            let (who, does, reads) = if one {
                ("action", "does not read", "reads")
            } else {
                ("actions", "do not read", "read")
            };
            let why = match only {
                None | Some(Read::Always) => format!("{does} it"),
                Some(Read::RoughStrength) => format!(
                    "{does} it here: it counts only toward a monster's rough Strength, which a given `strength`, or a character's, replaces"
                ),
                Some(Read::Opening) => {
                    format!("{reads} it only in an opening (`action_options.opening`)")
                }
                Some(Read::MugOpening) => format!(
                    "{reads} it only in a mugging opening (`action_options.opening = \"mug\"`)"
                ),
            };
            format!("{who} {} {why}", names.join(", "))
        })
        .collect();
    let brawler = role == Role::Attacker && unread.iter().any(|(a, _)| *a == Action::Brawl);
    let help = match field {
        "aware" => {
            "only a mugging, and a fight's opening, need the victim unaware; a sleeping or held victim is `state`"
        }
        "position" => "only a mugging (alone, or as a fight's opening) strikes from behind",
        "opening_weapon" => {
            "only the opening of a `brawl` or `subdue` (`action_options.opening`) draws it; the action's own weapon is `weapon`"
        }
        "attacks" if brawler => {
            "a brawler fights with his `style`; a monster strikes with its natural attacks as a `subdue` attacker"
        }
        _ => "remove it, or change `action`",
    };
    (
        format!(
            "`{}.{field}` is set, but {}",
            role.name(),
            reasons.join("; ")
        ),
        Some(help.to_string()),
    )
}

/// "unknown monster `ogr`: did you mean `ogre`? (known: ...)".
fn unknown<'a>(what: &str, name: &str, known: impl Iterator<Item = &'a str>) -> String {
    let known: Vec<&str> = known.collect();
    let mut message = format!("unknown {what} `{name}`");
    if let Some(best) = crate::suggest::closest(&catalog::normalize(name), known.iter().copied()) {
        message.push_str(&format!(": did you mean `{best}`?"));
    }
    message.push_str(&format!(" (known: {})", known.join(", ")));
    message
}

/// A weapon that must strike in melee (`what` names its use in the message): a missile weapon is refused,
/// for it neither strikes nor saps in melee (docs/scenarios.md "Combatants").
fn resolve_melee_weapon(
    spec: &WeaponSpec,
    field: &'static str,
    what: &str,
) -> Result<Weapon, SpecError> {
    let weapon = resolve_weapon(spec, field)?;
    if weapon.missile {
        return Err(spec_error(
            field,
            format!(
                "`{}` is a missile weapon: {what} must be a melee weapon",
                weapon.name
            ),
        ));
    }
    Ok(weapon)
}

fn resolve_weapon(spec: &WeaponSpec, field: &'static str) -> Result<Weapon, SpecError> {
    let unknown_weapon =
        |name: &str| spec_error(field, unknown("weapon", name, catalog::weapon_names()));
    match spec {
        WeaponSpec::Named(name) => catalog::weapon(name).ok_or_else(|| unknown_weapon(name)),
        WeaponSpec::Inline(inline) => {
            let base = inline.name.as_deref().and_then(catalog::weapon);
            let damage = inline.damage.or(base.as_ref().map(|b| b.damage)).ok_or_else(|| {
                spec_error(
                    field,
                    "an inline weapon needs `damage` (such as \"1d4\") unless its name is a catalog weapon",
                )
            })?;
            let magic = inline.magic.or(base.as_ref().map(|b| b.magic)).unwrap_or(0);
            if !(-10..=10).contains(&magic) {
                return Err(spec_error(
                    field,
                    format!("magic {magic} is out of range: expected -10 to 10"),
                ));
            }
            let size = inline
                .size
                .or(base.as_ref().map(|b| b.size))
                .unwrap_or(Size::M);
            let hands = match inline.hands {
                Some(h) if h > 2 => {
                    return Err(spec_error(
                        field,
                        format!("hands {h} is out of range: expected 0, 1 or 2"),
                    ));
                }
                Some(h) => h,
                // The catalog weapon's own hands (a bow takes two whatever its size), two if made size L.
                None => match (&base, inline.size) {
                    (Some(b), None) => b.hands,
                    (Some(b), Some(_)) => b.hands.max(Weapon::default_hands(size)),
                    (None, _) => Weapon::default_hands(size),
                },
            };
            Ok(Weapon {
                name: inline.name.clone().unwrap_or_else(|| "weapon".to_string()),
                size,
                kind: inline
                    .kind
                    .or(base.as_ref().map(|b| b.kind))
                    .unwrap_or(WeaponType::B),
                damage,
                damage_large: inline
                    .damage_large
                    .or(base
                        .as_ref()
                        .filter(|_| inline.damage.is_none())
                        .map(|b| b.damage_large))
                    .unwrap_or(damage),
                controllable: inline
                    .controllable
                    .or(base.as_ref().map(|b| b.controllable))
                    .unwrap_or(false),
                missile: inline
                    .missile
                    .or(base.as_ref().map(|b| b.missile))
                    .unwrap_or(false),
                hands,
                magic,
            })
        }
    }
}

fn resolve_character(
    spec: &CombatantSpec,
    class: Option<&'static Class>,
    weapon: Option<Weapon>,
) -> Result<Combatant, SpecError> {
    let class = class.ok_or_else(|| {
        spec_error(
            "class",
            "expected a character `class` (such as \"fighter\" or \"thief\") or a `monster` (such as \"ogre\")",
        )
    })?;
    if spec.attacks.is_some() {
        return Err(spec_error(
            "attacks",
            "only monsters have natural attacks; a character uses `weapon`",
        ));
    }
    if spec.intelligent.is_some() {
        return Err(spec_error(
            "intelligent",
            "only monsters can be marked unintelligent",
        ));
    }
    for (field, given) in [
        ("humanoid", spec.humanoid.is_some()),
        ("natural_armor", spec.natural_armor.is_some()),
    ] {
        if given {
            return Err(spec_error(
                field,
                "only monsters have this mark: every character is humanoid and wears his armor",
            ));
        }
    }
    let level = spec.level.unwrap_or(1);
    if level > 20 {
        return Err(spec_error(
            "level",
            format!("{level} is out of range: expected a character level from 0 to 20"),
        ));
    }
    let race_name = spec.race.as_deref().unwrap_or("human");
    let race = catalog::race_named(race_name).ok_or_else(|| {
        spec_error(
            "race",
            unknown("race", race_name, catalog::races().iter().map(|r| r.name)),
        )
    })?;
    let strength = spec
        .strength
        .unwrap_or_else(|| Strength::new(10).unwrap_or_else(|_| unreachable!()));
    if strength.score() < 3 {
        return Err(spec_error(
            "strength",
            format!("{strength} is out of range: a character's Strength is 3 to 25"),
        ));
    }
    if strength.is_exceptional() && (class.group != Group::Warrior || !race.exceptional_strength) {
        return Err(spec_error(
            "strength",
            format!(
                "{strength}: only warriors who are not halflings have exceptional Strength (this is a {} {}); use \"18\"",
                race.name, class.name
            ),
        ));
    }
    Ok(Combatant {
        name: class.name.to_string(),
        kind: Kind::Character { class, level, race },
        thac0: tables::character_thac0(class.group, level),
        saves: tables::character_saves(class.group, level),
        strength: Some(strength),
        monster_strength: None,
        dexterity: 10,
        ac: ArmorClass {
            armor: spec.ac.unwrap_or(10),
            shield: 0,
            dexterity: 0,
            magic: 0,
        },
        helmet: false,
        armor_type: ArmorType::None,
        size: race.size,
        height_ft: race.height_ft,
        weapon: weapon.unwrap_or_else(Weapon::fist),
        backup_weapon: None,
        opening_weapon: None,
        attacks: Vec::new(),
        hp: HitPoints::Rolled(character_hit_dice(class.group, level)),
        carrier: false,
        legs: 2,
        has_back: true,
        hands_free: 2,
        state: State::Awake,
        aware: true,
        position: Position::Front,
        martial_arts: MartialArtsSkill::None,
        humanoid: true,
        natural_armor: false,
    })
}
fn resolve_monster(
    spec: &CombatantSpec,
    monster: Option<&'static catalog::Monster>,
    weapon: Option<Weapon>,
) -> Result<Combatant, SpecError> {
    if spec.level.is_some() {
        return Err(spec_error(
            "level",
            "a monster's level is its Hit Dice: set `hit_dice` instead",
        ));
    }
    if spec.race.is_some() {
        return Err(spec_error(
            "race",
            "a monster has no race; a character needs a `class`",
        ));
    }
    let hit_dice = spec
        .hit_dice
        .or(monster.map(|m| m.hit_dice))
        .ok_or_else(|| {
            spec_error(
                "hit_dice",
                "a custom monster needs `hit_dice` such as \"4+1\"",
            )
        })?;
    let intelligent = spec
        .intelligent
        .or(monster.map(|m| m.intelligent))
        .unwrap_or(true);
    let catalog_attacks: Vec<Dice> = monster.map(|m| m.attacks.to_vec()).unwrap_or_default();
    let catalog_weapon = monster.and_then(|m| m.weapon).and_then(catalog::weapon);
    let carrier = spec.carrier.or(monster.map(|m| m.carrier)).unwrap_or(false);
    let formula_attacks = spec
        .attacks
        .clone()
        .unwrap_or_else(|| catalog_attacks.clone());
    let monster_strength = catalog::monster_strength(
        &formula_attacks,
        weapon.as_ref().or(catalog_weapon.as_ref()),
        carrier,
    );
    // A scenario that gives a monster a weapon replaces its catalog attacks in fights.
    let attacks = match (&spec.attacks, &weapon) {
        (Some(a), _) => a.clone(),
        (None, Some(_)) => Vec::new(),
        (None, None) => catalog_attacks,
    };
    let size = monster.map(|m| m.size).or(spec.size).unwrap_or(Size::M);
    Ok(Combatant {
        name: monster.map_or("monster", |m| m.name).to_string(),
        kind: Kind::Monster {
            hit_dice,
            intelligent,
        },
        thac0: tables::monster_thac0(hit_dice),
        saves: tables::monster_saves(hit_dice, intelligent),
        strength: spec.strength,
        monster_strength: Some(monster_strength),
        dexterity: 10,
        ac: ArmorClass {
            armor: spec.ac.or(monster.map(|m| m.ac)).unwrap_or(10),
            shield: 0,
            dexterity: 0,
            magic: 0,
        },
        helmet: false,
        armor_type: ArmorType::None,
        size,
        height_ft: monster.map_or(size.middle_height_ft(), |m| m.height_ft),
        weapon: weapon.or(catalog_weapon).unwrap_or_else(Weapon::fist),
        backup_weapon: None,
        opening_weapon: None,
        attacks,
        hp: HitPoints::Rolled(monster_hit_dice(hit_dice)),
        carrier,
        legs: 2,
        has_back: true,
        hands_free: 2,
        state: State::Awake,
        aware: true,
        position: Position::Front,
        martial_arts: MartialArtsSkill::None,
        humanoid: monster.is_none_or(|m| m.humanoid),
        natural_armor: monster.is_some_and(|m| m.natural_armor),
    })
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::attack::ContestScore;

    fn parse(toml_text: &str) -> CombatantSpec {
        toml::from_str(toml_text).unwrap()
    }

    fn resolve(toml_text: &str) -> Combatant {
        parse(toml_text).resolve().unwrap()
    }

    fn error(toml_text: &str) -> SpecError {
        parse(toml_text).resolve().unwrap_err()
    }

    #[test]
    fn a_character_takes_its_tables_from_class_and_level() {
        let thief = resolve("class = \"thief\"\nlevel = 9");
        assert_eq!(thief.thac0, 16);
        assert_eq!(thief.saves.get(SaveCategory::Pp), 10);
        assert_eq!(thief.level(), 9);
        assert_eq!((thief.size, thief.height_ft), (Size::M, 6.0));
        assert_eq!(thief.weapon.name, "fist");
        assert_eq!(thief.strength.map(|s| s.to_string()), Some("10".into()));
        assert!(thief.is_pc_race());
    }

    #[test]
    fn the_ogre_is_4_plus_1_thac0_17_saving_12_vs_petrification_at_level_4() {
        let ogre = resolve("monster = \"ogre\"");
        assert_eq!(ogre.thac0, 17);
        assert_eq!(ogre.saves.get(SaveCategory::Pp), 12);
        assert_eq!(ogre.level(), 4);
        assert_eq!(ogre.save_level(SaveCategory::Pp), 5);
        assert_eq!(ogre.ac.normal(), 5);
        assert_eq!((ogre.size, ogre.height_ft), (Size::L, 9.0));
        assert_eq!(ogre.monster_strength, Some(10));
        assert_eq!(ogre.strength, None);
        assert_eq!(ogre.hit_adjustment(), 0);
        assert_eq!(ogre.hp, HitPoints::Rolled(Dice::of(4, 8, 1)));
        assert!(!ogre.is_pc_race());
    }

    #[test]
    fn a_monster_given_a_weapon_loses_its_catalog_attacks_but_not_its_strength() {
        let ogre = resolve("monster = \"ogre\"\nweapon = \"club\"");
        assert!(ogre.attacks.is_empty());
        assert_eq!(ogre.weapon.name, "club");
        assert_eq!(ogre.monster_strength, Some(10));
        let orc = resolve("monster = \"orc\"");
        assert_eq!(orc.weapon.name, "long sword");
    }

    #[test]
    fn armor_class_adds_shield_dexterity_and_magic() {
        let f = resolve("class = \"fighter\"\nac = 5\nshield = 1\ndexterity = 16\nmagic_ac = 2");
        assert_eq!(f.ac.normal(), 5 - 1 - 2 - 2);
    }

    #[test]
    fn exceptional_strength_is_for_warriors_who_are_not_halflings() {
        let f = resolve("class = \"fighter\"\nstrength = \"18/76\"");
        assert_eq!(f.hit_adjustment(), 2);
        assert_eq!(
            error("class = \"thief\"\nstrength = \"18/50\"").field,
            "strength"
        );
        assert_eq!(
            error("class = \"fighter\"\nrace = \"halfling\"\nstrength = \"18/50\"").field,
            "strength"
        );
        assert_eq!(
            resolve("class = \"thief\"\nstrength = 18").hit_adjustment(),
            1
        );
    }

    #[test]
    fn out_of_range_values_name_their_field() {
        assert_eq!(error("class = \"fighter\"\nlevel = 21").field, "level");
        assert_eq!(error("class = \"fighter\"\nstrength = 2").field, "strength");
        assert_eq!(
            error("class = \"fighter\"\ndexterity = 30").field,
            "dexterity"
        );
        assert_eq!(
            error("class = \"fighter\"\nhands_free = 3").field,
            "hands_free"
        );
        assert_eq!(
            error("class = \"fighter\"\nheight_ft = -1.0").field,
            "height_ft"
        );
        assert_eq!(error("class = \"fighter\"\nac = 99").field, "ac");
        assert_eq!(error("class = \"figher\"").field, "class");
        assert_eq!(
            error("monster = \"ogre\"\nclass = \"fighter\"").field,
            "class"
        );
        assert_eq!(error("monster = \"ogre\"\nlevel = 3").field, "level");
        assert_eq!(error("level = 3").field, "class");
    }

    #[test]
    fn a_backup_weapon_is_any_melee_weapon_and_never_a_missile_one() {
        let archer =
            resolve("class = \"fighter\"\nweapon = \"short bow\"\nbackup_weapon = \"long sword\"");
        assert_eq!(
            archer.backup_weapon.map(|b| (b.name, b.size)),
            Some(("long sword".to_string(), Size::M))
        );
        let e = error("class = \"fighter\"\nweapon = \"short bow\"\nbackup_weapon = \"sling\"");
        assert_eq!(e.field, "backup_weapon");
        assert!(e.message.contains("missile weapon"), "{e}");
        let e = error(
            "class = \"fighter\"\nbackup_weapon = { name = \"dart\", damage = \"1d3\", missile = true }",
        );
        assert_eq!(e.field, "backup_weapon");
    }

    #[test]
    fn an_opening_weapon_is_a_melee_weapon_written_as_a_weapon_is() {
        assert_eq!(resolve("class = \"thief\"").opening_weapon, None);
        let thief =
            resolve("class = \"thief\"\nweapon = \"short sword\"\nopening_weapon = \"club\"");
        assert_eq!(
            thief.opening_weapon.map(|w| w.name),
            Some("club".to_string())
        );
        assert_eq!(thief.weapon.name, "short sword");
        let sap = resolve(
            "class = \"thief\"\nopening_weapon = { name = \"sap\", size = \"S\", damage = \"1d4\" }",
        );
        assert_eq!(
            sap.opening_weapon.map(|w| w.damage.to_string()),
            Some("1d4".to_string())
        );
        let e = error("class = \"thief\"\nopening_weapon = \"short bow\"");
        assert_eq!(e.field, "opening_weapon");
        assert!(e.message.contains("melee weapon"), "{e}");
        assert!(
            error("class = \"thief\"\nopening_weapon = \"long swrod\"")
                .message
                .contains("did you mean `long sword`")
        );
    }

    #[test]
    fn unknown_names_suggest_the_closest_entry() {
        let e = error("monster = \"orge\"");
        assert!(e.message.contains("did you mean `ogre`"), "{e}");
        let e = error("class = \"fighter\"\nweapon = \"long swrod\"");
        assert!(e.message.contains("did you mean `long sword`"), "{e}");
    }

    #[test]
    fn inline_weapons_take_their_catalog_weapons_hands_or_two_when_large() {
        let hands = |w: &str| {
            resolve(&format!("class = \"fighter\"\nweapon = {w}"))
                .weapon
                .hands
        };
        assert_eq!(hands("{ name = \"short bow\", size = \"S\" }"), 2);
        assert_eq!(hands("{ name = \"dagger\", size = \"L\" }"), 2);
        assert_eq!(hands("{ name = \"dagger\", magic = 1 }"), 1);
        assert_eq!(
            hands("{ name = \"pike\", size = \"L\", damage = \"1d6\" }"),
            2
        );
        assert_eq!(hands("{ name = \"pike\", damage = \"1d6\", hands = 2 }"), 2);
        assert_eq!(
            hands("{ name = \"sap\", size = \"S\", damage = \"1d4\" }"),
            1
        );
    }

    #[test]
    fn inline_weapons_start_from_a_catalog_weapon_of_the_same_name() {
        let f = resolve("class = \"fighter\"\nweapon = { name = \"long sword\", magic = 1 }");
        assert_eq!(
            (
                f.weapon.damage.to_string(),
                f.weapon.damage_large.to_string()
            ),
            ("1d8".into(), "1d12".into())
        );
        assert_eq!((f.weapon.magic, f.weapon.controllable), (1, true));
        let sap = resolve(
            "class = \"thief\"\nweapon = { name = \"sap\", size = \"S\", type = \"B\", damage = \"1d4\", damage_large = \"1d3\", controllable = true }",
        );
        assert!(sap.weapon.is_blunt());
        assert_eq!(sap.weapon.damage_large.to_string(), "1d3");
        assert_eq!(
            error("class = \"thief\"\nweapon = { name = \"sap\" }").field,
            "weapon"
        );
    }

    #[test]
    fn sleeping_victims_are_never_aware() {
        let v = resolve("class = \"fighter\"\nstate = \"asleep\"\naware = true");
        assert!(!v.aware);
    }

    #[test]
    fn hit_points_are_a_number_or_dice() {
        let hp: CombatantSpec = parse("class = \"fighter\"\nhp = 12");
        assert_eq!(hp.hp, Some(HitPoints::Fixed(12)));
        let hp: CombatantSpec = parse("class = \"fighter\"\nhp = \"4d8+1\"");
        assert_eq!(hp.hp, Some(HitPoints::Rolled(Dice::of(4, 8, 1))));
        assert!(toml::from_str::<CombatantSpec>("hp = 0").is_err());
    }

    #[test]
    fn one_hand_drops_strength_by_the_texts_table_and_monsters_by_three() {
        let f = resolve("class = \"fighter\"\nstrength = \"18/00\"");
        assert_eq!(
            f.one_hand_contest_score(),
            ContestScore {
                score: 18,
                percentile: 51
            }
        );
        let ogre = resolve("monster = \"ogre\"");
        assert_eq!(ogre.one_hand_contest_score(), ContestScore::plain(7));
    }

    #[test]
    fn custom_monsters_need_hit_dice() {
        let m = resolve("hit_dice = \"3+3\"\nsize = \"L\"\nattacks = [\"1d6\", \"1d6\"]");
        assert_eq!((m.thac0, m.level(), m.size), (17, 3, Size::L));
        assert_eq!(m.monster_strength, Some(7));
        assert_eq!(m.height_ft, Size::L.middle_height_ft());
    }

    #[test]
    fn unknown_fields_are_rejected() {
        assert!(toml::from_str::<CombatantSpec>("strenght = 16").is_err());
    }
}
