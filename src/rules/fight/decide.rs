//! The decisions of a fight's round, each a small named function or constant beside the sentence of the rules
//! it states (docs/rules.md §3, §6): what each side strikes with, whether the armed-defender rule applies, how
//! many attacks a side makes, the situational modifiers of an attack roll, who acts first, and which weapon
//! serves after a wrestling bout's first round. The folding (`fold.rs`) and the rounds (`round.rs`,
//! `plain.rs`) ask these and decide nothing of their own.

use std::cmp::Ordering;

use crate::rules::armed_defender::armed_with;
use crate::rules::combatant::{Combatant, MartialArtsSkill};
use crate::rules::fight::fighter::Slot;
use crate::rules::fight::{FightKind, Intent, Style, Then};
use crate::rules::options::{ArmedDefenderSides, HeldResponse, MultipleAttacks};
use crate::rules::strike::can_hold_back;
use crate::rules::tables::Size;
use crate::rules::{Ineligible, Matchup, RuleOptions};

/// How a blow is struck: decided per side (and per slot in hand) once per point, read per attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BlowKind {
    /// No attack at all: a weapon slot with nothing in it, or a monster without attacks.
    Idle,
    /// With a weapon's damage dice, at full force or held back.
    Weapon {
        /// Held back (docs/rules.md §3): −4 to hit, half damage, half of it temporary.
        held_back: bool,
    },
    /// With a monster's natural attacks, at full force or held back.
    Natural {
        /// Held back, as a weapon is.
        held_back: bool,
    },
    /// Punching (docs/rules.md §6).
    Punch,
    /// Wrestling.
    Wrestle,
    /// Overbearing.
    Overbear,
    /// Martial arts (the CFH column, docs/rules.md §6), by a proficient or specialized fighter.
    MartialArts {
        /// Specialized: +1 to hit, +1 damage, +1 to the row, one more attack a round.
        specialized: bool,
    },
    /// A sap (docs/rules.md §4) with the weapon in hand or bare hands: a called shot at `sap_penalty`, magic
    /// stripped, a quarter of the damage real, and a knockout that puts the victim out for the fight.
    Sap,
    /// A grab of the victim's weapon (docs/rules.md §5): a called shot at −4, then the Strength contest for
    /// control; won, the victim is disarmed and the attacker fights on with `then`.
    Disarm,
}

impl BlowKind {
    /// Held back: its damage is split as a held-back blow's.
    pub(super) fn held_back(self) -> bool {
        match self {
            BlowKind::Weapon { held_back } | BlowKind::Natural { held_back } => held_back,
            BlowKind::Idle
            | BlowKind::Punch
            | BlowKind::Wrestle
            | BlowKind::Overbear
            | BlowKind::MartialArts { .. }
            | BlowKind::Sap
            | BlowKind::Disarm => false,
        }
    }

    /// A blow whose damage is its dice plus what is added, split as full or held back (a weapon's, or a
    /// monster's natural attack): `Some(natural)`. Every other blow reads a column, or rolls its own.
    pub(super) fn damage_dice(self) -> Option<bool> {
        match self {
            BlowKind::Weapon { .. } => Some(false),
            BlowKind::Natural { .. } => Some(true),
            BlowKind::Idle
            | BlowKind::Punch
            | BlowKind::Wrestle
            | BlowKind::Overbear
            | BlowKind::MartialArts { .. }
            | BlowKind::Sap
            | BlowKind::Disarm => None,
        }
    }

    /// A blow struck with empty hands, whatever the fighter carries: a brawler's punch, wrestling,
    /// overbearing, martial arts, or the grab of a disarm. Every other blow is struck with the weapon in hand
    /// (a sap with it, or with bare hands when there is none).
    pub(super) fn empty_handed(self) -> bool {
        match self {
            BlowKind::Punch
            | BlowKind::Wrestle
            | BlowKind::Overbear
            | BlowKind::MartialArts { .. }
            | BlowKind::Disarm => true,
            BlowKind::Idle | BlowKind::Weapon { .. } | BlowKind::Natural { .. } | BlowKind::Sap => {
                false
            }
        }
    }
}

/// Which side of the armed-defender rule a blow stands on (docs/rules.md §3, §6 "The armed defender, both
/// ways"), decided per blow once per point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Armament {
    /// Struck with a melee weapon in hand: a weapon's blow, at full force or held back, or a sap with one.
    Armed,
    /// An unarmed attack, the kind an armed foe strikes first against: punching, wrestling, overbearing,
    /// martial arts, a bare-handed sap (a punch or a martial-arts blow), and the grab of a disarm (it must
    /// get very close) unless `armed_defender_vs_grabs` is off.
    Unarmed,
    /// Outside the rule: natural attacks, or no attack at all.
    Neither,
}

/// The armament of a blow of `kind`, struck with a weapon in hand when `weapon` (not the fists).
pub(super) fn armament(kind: BlowKind, weapon: bool, vs_grabs: bool) -> Armament {
    match kind {
        BlowKind::Weapon { .. } if weapon => Armament::Armed,
        BlowKind::Sap if weapon => Armament::Armed,
        BlowKind::Punch
        | BlowKind::Wrestle
        | BlowKind::Overbear
        | BlowKind::MartialArts { .. }
        | BlowKind::Sap => Armament::Unarmed,
        BlowKind::Disarm if vs_grabs => Armament::Unarmed,
        BlowKind::Weapon { .. } | BlowKind::Disarm | BlowKind::Natural { .. } | BlowKind::Idle => {
            Armament::Neither
        }
    }
}

/// The armed-defender rule favours a fighter whose blow in hand is armed against a foe whose blow is
/// unarmed: on either side by default, only the victim with `armed_defender_sides = "victim"`.
pub(super) fn armed_against(
    mine: Armament,
    theirs: Armament,
    victim: bool,
    sides: ArmedDefenderSides,
) -> bool {
    let side_counts = match sides {
        ArmedDefenderSides::Both => true,
        ArmedDefenderSides::Victim => victim,
    };
    side_counts && mine == Armament::Armed && theirs == Armament::Unarmed
}

/// The attacker's style's blow: punching, wrestling, overbearing; martial arts, which only a trained fighter
/// may use (docs/rules.md §6 "Martial arts"); or a sap at every attack, only against a T, S or M victim and
/// never with a missile weapon (§4). The point is ineligible otherwise.
pub(super) fn brawling(style: Style, m: &Matchup) -> Result<BlowKind, Ineligible> {
    let me = &m.attacker;
    Ok(match style {
        Style::Punch => BlowKind::Punch,
        Style::Wrestle => BlowKind::Wrestle,
        Style::Overbear => BlowKind::Overbear,
        Style::Sap => {
            crate::rules::sap::eligibility(m)?;
            BlowKind::Sap
        }
        Style::MartialArts => match trained(me) {
            Some(kind) => kind,
            None => return Err(Ineligible::NoMartialArts(me.name.clone())),
        },
        // A grab of the weapon in the victim's hand, with a free hand of the attacker's.
        Style::Disarm => {
            if armed_with(&m.victim).is_none() {
                return Err(Ineligible::NothingToGrab);
            }
            if me.hands_free < 1 {
                return Err(Ineligible::HandsNotFree {
                    needed: 1,
                    free: me.hands_free,
                });
            }
            BlowKind::Disarm
        }
    })
}

/// What a disarmer fights with once he holds the victim's weapon (`then`): a style's blow, or the weapon he
/// took, held back in a subdual fight.
pub(super) fn then_blow(then: Then, m: &Matchup, subdue: bool) -> Result<BlowKind, Ineligible> {
    Ok(match then {
        Then::Punch => BlowKind::Punch,
        Then::Wrestle => BlowKind::Wrestle,
        Then::Overbear => BlowKind::Overbear,
        Then::MartialArts => brawling(Style::MartialArts, m)?,
        Then::Weapon => {
            if subdue && let Some(weapon) = armed_with(&m.victim) {
                can_hold_back(weapon)?;
            }
            BlowKind::Weapon { held_back: subdue }
        }
    })
}

/// The martial arts blow of a fighter trained in them, if he is.
fn trained(me: &Combatant) -> Option<BlowKind> {
    match me.martial_arts {
        MartialArtsSkill::None => None,
        MartialArtsSkill::Proficient => Some(BlowKind::MartialArts { specialized: false }),
        MartialArtsSkill::Specialized => Some(BlowKind::MartialArts { specialized: true }),
    }
}

/// What the attacker strikes with (docs/rules.md §6 "Who does what"): a brawler his style; a subduer who saps
/// a sap with whatever melee weapon he holds; any other subduer his melee weapon held back (one that cannot be held back makes the point ineligible), a monster its natural
/// attacks held back, and bare hands the style, since fists are not held back.
pub(super) fn attacker_blow(kind: FightKind, m: &Matchup) -> Result<BlowKind, Ineligible> {
    let a = &m.attacker;
    Ok(match kind {
        FightKind::Brawl(style) => brawling(style, m)?,
        // A sap's damage is already mostly temporary: a subduer saps with any melee weapon (§6).
        FightKind::Subdue(Style::Sap) => brawling(Style::Sap, m)?,
        FightKind::Subdue(_) if a.weapon.is_fist() && !a.attacks.is_empty() => {
            BlowKind::Natural { held_back: true }
        }
        FightKind::Subdue(style) => match a.melee_weapon() {
            Some(weapon) => {
                can_hold_back(weapon)?;
                BlowKind::Weapon { held_back: true }
            }
            None => brawling(style, m)?,
        },
    })
}

/// What the victim answers with (docs/rules.md §6 "Who does what"): his melee weapon, at full force or held
/// back (then it must be one that can be: holding back is for both sides, §3); else his natural attacks;
/// unarmed, in kind (he punches against overbearing or a blade, and answers martial arts with his own if he is
/// trained, else with his fists).
pub(super) fn victim_blow(
    v: &Combatant,
    intent: Intent,
    attacker: BlowKind,
) -> Result<BlowKind, Ineligible> {
    let held_back = intent == Intent::Subdue;
    Ok(if let Some(weapon) = armed_with(v) {
        if held_back {
            can_hold_back(weapon)
                .map_err(|_| Ineligible::VictimNotControllable(weapon.name.clone()))?;
        }
        BlowKind::Weapon { held_back }
    } else if !v.attacks.is_empty() {
        BlowKind::Natural { held_back }
    } else {
        match attacker {
            BlowKind::Wrestle => BlowKind::Wrestle,
            BlowKind::MartialArts { .. } => trained(v).unwrap_or(BlowKind::Punch),
            BlowKind::Sap | BlowKind::Disarm => BlowKind::Punch,
            BlowKind::Idle
            | BlowKind::Weapon { .. }
            | BlowKind::Natural { .. }
            | BlowKind::Punch
            | BlowKind::Overbear => BlowKind::Punch,
        }
    })
}

/// A held fighter spends his first attack of the round on the Strength contest to break free
/// (`held_response = "break_free"`, docs/rules.md §6 "Holds in a fight"); with `"attack"` he attacks the
/// holder instead, at −4 unless he wrestles (the held situation of [`situational_modifier`]).
#[inline(always)]
pub(super) fn breaks_free_first(held: bool, response: HeldResponse) -> bool {
    held && response == HeldResponse::BreakFree
}

/// Attacks in a round, indexed by `round % 2` (docs/rules.md §6 "Attacks per round"): a monster every one of
/// its natural attacks; with a weapon or bare hands, warriors 3/2 at levels 7-12 and 2 from 13, everyone
/// else one; a martial arts specialist one more.
pub(super) fn attacks_per_round(me: &Combatant, kind: BlowKind) -> [u32; 2] {
    match kind {
        BlowKind::Natural { .. } => {
            let n = me.attacks.len() as u32;
            [n, n]
        }
        BlowKind::MartialArts { specialized: true } => me.weapon_attacks().map(|n| n + 1),
        BlowKind::Idle
        | BlowKind::Weapon { .. }
        | BlowKind::Punch
        | BlowKind::Wrestle
        | BlowKind::Overbear
        | BlowKind::MartialArts { specialized: false }
        | BlowKind::Sap
        | BlowKind::Disarm => me.weapon_attacks(),
    }
}

/// How many of a round's attacks come in its first pass, indexed by `round % 2` as
/// [`attacks_per_round`] (docs/rules.md §6 "Staggered multiple attacks"): staggered, a fighter's first
/// attack, his second (a warrior's 3/2 or 2/1, a specialist's extra one) after every fighter's first; a
/// monster's different attack forms all at its initiative; with `multiple_attacks = "together"`, all of
/// them.
pub(super) fn first_pass(attacks: [u32; 2], kind: BlowKind, multiple: MultipleAttacks) -> [u32; 2] {
    let forms = matches!(kind, BlowKind::Natural { .. });
    match multiple {
        MultipleAttacks::Staggered if !forms => attacks.map(|n| n.min(1)),
        MultipleAttacks::Staggered | MultipleAttacks::Together => attacks,
    }
}

/// What a fighter strikes with once his weapon gives way in a wrestling bout: a defender punches; every
/// other blow stays what it was.
pub(super) fn bare(kind: BlowKind) -> BlowKind {
    match kind {
        BlowKind::Weapon { .. } => BlowKind::Punch,
        BlowKind::Idle
        | BlowKind::Natural { .. }
        | BlowKind::Punch
        | BlowKind::Wrestle
        | BlowKind::Overbear
        | BlowKind::MartialArts { .. }
        | BlowKind::Sap
        | BlowKind::Disarm => kind,
    }
}

/// Which weapon serves after the first round of a wrestling bout (docs/rules.md §3): only size S weapons
/// can be used, so the main one if it is small, else the backup if it is small, else the fists.
pub(super) fn slot_in_bout(main: Option<Size>, backup: Option<Size>) -> Slot {
    let small = |size: Option<Size>| size.is_some_and(|s| s <= Size::S);
    if small(main) {
        Slot::Main
    } else if small(backup) {
        Slot::Backup
    } else {
        Slot::Fists
    }
}

/// A called shot adds 1 to its maker's initiative roll in every round he makes one (docs/rules.md §1
/// "Initiative"): a sapper's, every round.
pub(super) fn called_shot_initiative(attacker: BlowKind) -> u32 {
    match attacker {
        BlowKind::Sap | BlowKind::Disarm => 1,
        BlowKind::Idle
        | BlowKind::Weapon { .. }
        | BlowKind::Natural { .. }
        | BlowKind::Punch
        | BlowKind::Wrestle
        | BlowKind::Overbear
        | BlowKind::MartialArts { .. } => 0,
    }
}

/// The situations that change an attack roll, as bits of an index into the folded rolls and faces.
pub(super) const ARMED_BONUS: usize = 1;
pub(super) const TARGET_STUNNED: usize = 2;
pub(super) const TARGET_PRONE: usize = 4;
pub(super) const HELD: usize = 8;
pub(super) const SITUATIONS: usize = 16;

/// +4 to hit a stunned or prone target (docs/rules.md §6).
pub const STUNNED_OR_PRONE_BONUS: i32 = 4;

/// −4 to hit while held, unless wrestling the holder (docs/rules.md §6).
pub const HELD_PENALTY: i32 = -4;

/// The situational modifier of an attack roll (docs/rules.md §3, §6): the armed defender's bonus,
/// [`STUNNED_OR_PRONE_BONUS`] against a stunned or prone target (prone does not help the overbearer, who
/// must pin him), [`HELD_PENALTY`] while held (a wrestler attacks the holder normally).
pub(super) fn situational_modifier(kind: BlowKind, situation: usize, armed_bonus: i32) -> i32 {
    let mut modifier = 0;
    if situation & ARMED_BONUS != 0 {
        modifier += armed_bonus;
    }
    let prone = situation & TARGET_PRONE != 0 && kind != BlowKind::Overbear;
    if situation & TARGET_STUNNED != 0 || prone {
        modifier += STUNNED_OR_PRONE_BONUS;
    }
    if situation & HELD != 0 && kind != BlowKind::Wrestle {
        modifier += HELD_PENALTY;
    }
    modifier
}

/// Who resolves his attacks of the round first (docs/rules.md §1 "Initiative").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
    /// The attacker rolled lower.
    AttackerFirst,
    /// The victim rolled lower.
    VictimFirst,
    /// A tie: both sides' attacks are rolled, and all their effects apply together.
    Together,
}

/// Each side rolls a d10 (attacker first); the lower acts first, a tie is simultaneous.
#[inline(always)]
pub(super) fn order(initiative: [u32; 2]) -> Order {
    match initiative[0].cmp(&initiative[1]) {
        Ordering::Less => Order::AttackerFirst,
        Ordering::Greater => Order::VictimFirst,
        Ordering::Equal => Order::Together,
    }
}

/// Where a fighter stands against his foe (docs/rules.md §6 "Several combatants a side", rear and flank).
/// One on one he stands in front; with two or more on one foe, one stands behind him and one at his flank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stand {
    /// Face to face.
    Front,
    /// At the flank: +1 to hit (Combat & Tactics).
    Flank,
    /// Behind: `rear_attack_bonus` to hit and no shield or Dexterity bonus (PHB Table 51, the DMG), as every
    /// rear attack (docs/rules.md §1 "Rear attacks"); at 0 the rule is off and he counts as in front.
    Rear,
}

/// The to-hit bonus at the flank (Combat & Tactics).
pub(super) const FLANK_BONUS: i32 = 1;

impl Stand {
    /// The armor class a blow from here is made against, and the bonus to hit from here.
    pub(super) fn against(
        self,
        ac: &crate::rules::combatant::ArmorClass,
        options: &RuleOptions,
    ) -> (i32, i32) {
        match self {
            Stand::Rear if options.rear_attack_bonus != 0 => (
                crate::rules::rear::rear_armor_class(ac),
                self.bonus(options),
            ),
            Stand::Front | Stand::Flank | Stand::Rear => (ac.normal(), self.bonus(options)),
        }
    }

    /// The bonus to hit from here.
    pub(super) fn bonus(self, options: &RuleOptions) -> i32 {
        match self {
            Stand::Front => 0,
            Stand::Flank => FLANK_BONUS,
            Stand::Rear => options.rear_attack_bonus,
        }
    }
}
