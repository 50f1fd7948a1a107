//! The per-point folding of a fight: each side's blows turned into numbers once, so that a round only indexes
//! tables. For every situation of an attack roll (armed bonus, target stunned, target prone, held) and every
//! d20 face, a blow knows whether it hits and what the row of the column does; a plain side's attacks are
//! folded further into strikes. Every fold is held to the plain rule by a test in `tests.rs`.

use crate::dice::{Dice, Roller};
use crate::rules::RuleOptions;
use crate::rules::armed_defender::armed_bonus;
use crate::rules::attack::{AttackRoll, ContestScore};
use crate::rules::brawl::{martial_arts, overbear_modifier, punch, wrestle};
use crate::rules::catalog::Weapon;
use crate::rules::combatant::{Combatant, HitPoints};
use crate::rules::fight::decide::{
    Armament, BlowKind, SITUATIONS, Stand, armament, attacks_per_round, bare,
    called_shot_initiative, first_pass, situational_modifier, slot_in_bout,
};
use crate::rules::fight::fighter::{SLOTS, Slot};
use crate::rules::grab::size_modifier;
use crate::rules::options::{HeldBackRounding, MartialArtsRow, OddPoint, Rounding};
use crate::rules::section::Terms;
use crate::rules::strike::HELD_BACK_PENALTY;
use crate::rules::tables::{Size, wrestling_armor_penalty};

/// What one natural d20 face does for a blow in one situation: whether it hits and, for punching and
/// wrestling, what the row of its modified roll does (nothing on a miss). Why: a round then reads one entry
/// where it would add the modifier, compare, clamp, look the row up and split its damage into quarters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Face {
    pub(super) hit: bool,
    /// A wrestling hold.
    pub(super) hold: bool,
    /// A punch's knockout chance in percent.
    pub(super) ko_percent: u8,
    /// A punch's or wrestling move's real and temporary damage (weapons roll theirs).
    pub(super) damage: [i16; 2],
}

impl Face {
    /// The face `natural` of `roll`, for a blow of `kind` by a side whose Strength adjusts damage by
    /// `damage_adjustment`.
    pub(super) fn new(
        kind: BlowKind,
        roll: &AttackRoll,
        natural: u32,
        damage_adjustment: i32,
        rounding: Rounding,
        martial_row: MartialArtsRow,
        unit: i32,
    ) -> Face {
        let hit = roll.hits(natural);
        let modified = natural as i32 + roll.modifier;
        let row = match kind {
            BlowKind::Punch if hit => punch(modified, damage_adjustment, rounding),
            BlowKind::Wrestle if hit => wrestle(modified, damage_adjustment, rounding),
            BlowKind::MartialArts { specialized } if hit => {
                // The row from the modified roll (or the natural d20), a specialist's +1 to the row on top.
                let spec = i32::from(specialized);
                let read = match martial_row {
                    MartialArtsRow::Modified => modified,
                    MartialArtsRow::Unmodified => natural as i32,
                };
                martial_arts(read + spec, damage_adjustment + spec, rounding)
            }
            // A miss does nothing; other blows read no column.
            BlowKind::Punch
            | BlowKind::Wrestle
            | BlowKind::MartialArts { .. }
            | BlowKind::Idle
            | BlowKind::Weapon { .. }
            | BlowKind::Natural { .. }
            | BlowKind::Overbear
            | BlowKind::Sap
            | BlowKind::Disarm => crate::rules::brawl::Blow::default(),
        };
        // Row damage is at most a few points plus Strength's adjustment, and chances are percentages: the
        // narrowing keeps every value.
        let narrow = |x: u32| i16::try_from(x as i32 * unit).unwrap_or(i16::MAX);
        Face {
            hit,
            hold: row.hold,
            ko_percent: u8::try_from(row.ko_percent).unwrap_or(u8::MAX),
            damage: [narrow(row.damage.real), narrow(row.damage.temporary)],
        }
    }

    #[inline(always)]
    pub(super) fn damage(&self) -> [i32; 2] {
        self.damage.map(i32::from)
    }
}

/// One way a side attacks, folded into numbers once per point: the attack roll for every situation, what
/// each d20 face does in it, the damage dice and what is added to them. A fight then only indexes tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Blow {
    pub(super) kind: BlowKind,
    /// The attack roll in each situation, indexed by the `ARMED_BONUS | TARGET_* | HELD` bits.
    pub(super) rolls: [AttackRoll; SITUATIONS],
    /// What each d20 face does in each situation: `faces[situation][natural]` (index 0 unused).
    pub(super) faces: [[Face; 21]; SITUATIONS],
    /// What each d20 face does against a helpless foe (down, about to be finished): every face hits
    /// (docs/rules.md §6 "No blows on the fallen"), a column's row still read from the modified roll.
    pub(super) helpless: [Face; 21],
    /// Which side of the armed-defender rule this blow stands on.
    pub(super) armament: Armament,
    /// Added to the striker's initiative roll in a round he strikes this blow: 1 for a called shot.
    pub(super) called_shot: u32,
    /// The weapon's damage dice, or the first natural attack's.
    pub(super) dice: Dice,
    /// Added to the damage dice: Strength and magic, plus the armed defender's bonus at index 1.
    pub(super) damage_add: [i32; 2],
    /// How the damage splits into real and temporary.
    pub(super) split: Split,
}

/// How the damage of a weapon or natural attack (its dice plus everything added) becomes real and temporary
/// damage (docs/rules.md §3): all real (at least 1) at full force; held back, half of it (by the rule's rounding,
/// at least 1), of which half (rounded down) is temporary. Folded into a shift and an addend, so that a round
/// computes it with no branch and no division; a test holds it to [`crate::rules::strike::held_back`] for
/// every rounding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Split {
    /// 1 when held back, else 0.
    pub(super) held_back: u32,
    /// 1 when a held-back half rounds up, else 0: `(x + up) >> 1` is half of `x` by the rule's rounding.
    pub(super) up: i32,
    /// 1 when the odd point of a held-back total is temporary, else 0: `(total + odd) >> 1` is then the
    /// temporary share.
    pub(super) odd: i32,
    /// The fight's unit of damage in parts of a hit point: 1, or 4 when damage is kept in quarter points
    /// (`held_back_rounding = "exact"`). The roll is counted in it before halving, so a held-back blow is
    /// exactly half its roll (nothing to round: `up` is 0) and a quarter of it real; a hit does at least a
    /// point, `unit`.
    pub(super) unit: i32,
}

impl Split {
    pub(super) fn new(
        held_back: bool,
        rounding: Rounding,
        odd_point: OddPoint,
        held_back_rounding: HeldBackRounding,
    ) -> Split {
        let unit = unit(held_back_rounding);
        Split {
            held_back: u32::from(held_back),
            // In quarter points a half never needs rounding.
            up: if unit == 1 { rounding.divide(1, 2) } else { 0 },
            odd: odd_point.odd(),
            unit,
        }
    }

    /// The damage of `rolled` in the fight's unit, halved when held back: all that its split reads.
    #[inline(always)]
    pub(super) fn total(&self, rolled: i32) -> i32 {
        // No need for "at least 1" before halving: a sum below 1 halves to below 1 as well.
        ((rolled * self.unit + self.up * self.held_back as i32) >> self.held_back).max(self.unit)
    }

    /// The real and temporary damage of `rolled`, in the fight's unit.
    #[inline(always)]
    pub(super) fn damage(&self, rolled: i32) -> [i32; 2] {
        let total = self.total(rolled);
        // In quarter points the total is even, so its halves are exact whatever `odd` says.
        let temporary = ((total + self.odd) >> 1) * self.held_back as i32;
        [total - temporary, temporary]
    }
}

/// The unit a fight keeps damage in: hit points, or quarter points when held-back blows are exact.
pub(super) fn unit(held_back_rounding: HeldBackRounding) -> i32 {
    match held_back_rounding {
        HeldBackRounding::PerBlow => 1,
        HeldBackRounding::Exact => 4,
    }
}

impl Blow {
    /// Rolls the damage of a weapon or natural attack, attack `i` of its turn (a monster strikes with its
    /// i-th natural attack's dice): the dice plus what is added (`armed`: with the armed defender's bonus),
    /// split into real and temporary. Other kinds of blow do no damage here.
    #[inline(always)]
    pub(super) fn roll_damage<R: Roller + ?Sized>(
        &self,
        natural_dice: &[Dice],
        i: usize,
        armed: bool,
        rng: &mut R,
    ) -> [i32; 2] {
        let Some(natural) = self.kind.damage_dice() else {
            return [0, 0];
        };
        let add = self.damage_add[usize::from(armed)];
        // Read only through the split's total: an exact walk sees each distinct damage once.
        let rolled = self
            .dice(natural, natural_dice, i)
            .roll_read_as(rng, &|sum| self.split.total(sum + add) as u32);
        self.split.damage(rolled + add)
    }

    /// The damage dice of attack `i` of a turn: a monster strikes with its i-th natural attack's dice.
    #[inline(always)]
    pub(super) fn dice<'a>(
        &'a self,
        natural: bool,
        natural_dice: &'a [Dice],
        i: usize,
    ) -> &'a Dice {
        match natural {
            true => natural_dice.get(i).unwrap_or(&self.dice),
            false => &self.dice,
        }
    }
}

/// One side, folded into numbers.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Side {
    pub(super) hp: HitPoints,
    pub(super) damage_adjustment: i32,
    /// Attacks in a round, indexed by `round % 2` (even rounds first): a monster every natural attack, a
    /// warrior 3/2 at levels 7-12 (two in every second round, from the second) and 2 from 13, everyone
    /// else one.
    pub(super) attacks: [u32; 2],
    /// How many of those come in the round's first pass, before anyone's second attack.
    pub(super) first_pass: [u32; 2],
    /// One attack in every round: such a side's turn, with no hold in play, is that attack alone (see
    /// `FightPlan::turn`), so the common turn skips the count and the loop.
    pub(super) single: bool,
    /// Strikes a foe who is down but alive until he is dead: a victim fighting to kill, unless
    /// `finish_downed = "never"` (docs/rules.md §6 "No blows on the fallen").
    pub(super) finishes: bool,
    /// Every natural attack's dice, in order.
    pub(super) natural: Vec<Dice>,
    /// The blow struck from each slot.
    pub(super) blows: [Blow; SLOTS],
    /// The slot held as the fight starts.
    pub(super) first_slot: Slot,
    /// The slot the main weapon gives way to after the first round of a wrestling bout (only size S
    /// weapons serve): the backup, else the fists; the main slot again when the main weapon is small.
    pub(super) in_bout: Slot,
    /// The slot a disarmed fighter falls back on: his backup weapon, else his fists.
    pub(super) disarmed: Slot,
    /// Contest score while holding the other side (size modifier included).
    pub(super) holding: ContestScore,
    /// Contest score while breaking free.
    pub(super) breaking: ContestScore,
    /// What the blow of each slot adds to its attack roll, named ([`own_terms`]): read only when narrating.
    pub(super) terms: [Terms; SLOTS],
}

/// A side of a plain fight: how many attacks it makes and what each one does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct PlainSide {
    /// Attacks in a round, indexed by `round % 2`, as [`Side::attacks`] (none for an idle blow).
    pub(super) attacks: [u32; 2],
    /// Attack `i` of a round, for every `i` a round can have.
    pub(super) strikes: Vec<PlainStrike>,
}

/// One attack of a plain round folded to plain integers: the faces that hit, the damage dice, and how
/// their sum becomes real and temporary damage. Why: the round then has no branch on the kind of blow,
/// on natural attacks or on holding back, and no division.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct PlainStrike {
    pub(super) roll: AttackRoll,
    pub(super) dice: Dice,
    /// Strength and magic, added to the dice.
    pub(super) add: i32,
    pub(super) split: Split,
}

impl PlainStrike {
    /// The `i`-th attack of a round struck with `blow`, or `None` for a blow that is not a weapon's or a
    /// natural attack's.
    pub(super) fn fold(blow: &Blow, natural: &[Dice], i: usize) -> Option<PlainStrike> {
        let is_natural = blow.kind.damage_dice()?;
        Some(PlainStrike {
            roll: blow.rolls[0],
            dice: *blow.dice(is_natural, natural, i),
            add: blow.damage_add[0],
            split: blow.split,
        })
    }
}

/// A weapon's numbers against the other side.
pub(super) struct Arm {
    dice: Dice,
    magic: i32,
    size: Size,
    /// Bare hands, carried as the catalog's fist: a sap with them is an unarmed attack.
    fist: bool,
}

pub(super) fn arm(weapon: &Weapon, against: Size) -> Arm {
    Arm {
        dice: weapon.damage_against(against),
        magic: weapon.magic,
        size: weapon.size,
        fist: weapon.is_fist(),
    }
}

/// Builds the blow a fighter strikes in `kind`, with `modifier` (everything but the situation) added to
/// every roll; `armed` when a weapon is in hand.
#[allow(clippy::too_many_arguments)]
fn blow(
    me: &Combatant,
    them: &Combatant,
    kind: BlowKind,
    modifier: i32,
    dice: Dice,
    damage_add: i32,
    armed: bool,
    options: &RuleOptions,
    stand: Stand,
) -> Blow {
    let bonus = armed_bonus(options);
    let (ac, from_where) = stand.against(&them.ac, options);
    let rolls: [AttackRoll; SITUATIONS] = std::array::from_fn(|situation| {
        let situational = situational_modifier(kind, situation, bonus);
        AttackRoll::new(me.thac0, ac, modifier + situational + from_where, options)
    });
    let adjustment = me.damage_adjustment();
    let unit = unit(options.held_back_rounding);
    let faces = |roll: &AttackRoll| -> [Face; 21] {
        std::array::from_fn(|natural| {
            Face::new(
                kind,
                roll,
                natural as u32,
                adjustment,
                options.rounding,
                options.martial_arts_row,
                unit,
            )
        })
    };
    Blow {
        kind,
        rolls,
        faces: rolls.map(|roll| faces(&roll)),
        helpless: faces(&AttackRoll::automatic(rolls[0].modifier)),
        armament: armament(kind, armed, options.armed_defender_vs_grabs),
        called_shot: called_shot_initiative(kind),
        dice,
        damage_add: [damage_add, damage_add + bonus],
        split: Split::new(
            kind.held_back(),
            options.rounding,
            options.held_back_odd_point,
            options.held_back_rounding,
        ),
    }
}

/// What a blow struck in `mode` with `weapon` in hand adds to its attack roll, whatever the situation, in
/// named terms: [`blow_in`] rolls with their total, and a narrated fight names them.
pub(super) fn own_terms(
    me: &Combatant,
    them: &Combatant,
    mode: BlowKind,
    weapon: Option<&Arm>,
    options: &RuleOptions,
) -> Terms {
    let penalty = |held_back: bool| if held_back { HELD_BACK_PENALTY } else { 0 };
    let strength = Terms::new().with("Strength", me.hit_adjustment());
    let armor = wrestling_armor_penalty(me.armor_type);
    match mode {
        BlowKind::Weapon { held_back } => match weapon {
            Some(w) => strength
                .with("magic", w.magic)
                .with("held back", penalty(held_back)),
            None => Terms::new(),
        },
        // Natural attacks: a plain d20, no Strength or magic; −4 when held back.
        BlowKind::Natural { held_back } => match me.attacks.first() {
            Some(_) => Terms::new().with("held back", penalty(held_back)),
            None => Terms::new(),
        },
        BlowKind::Idle => Terms::new(),
        BlowKind::Punch => strength,
        BlowKind::Wrestle => strength.with("armor, wrestling", armor),
        // The called shot's penalty, Strength counting and magic not (docs/rules.md §4).
        BlowKind::Sap => Terms::new().with(
            "the sap's called shot and Strength",
            crate::rules::sap::to_hit_modifier(me, options),
        ),
        // A grab is a called shot at −4 with Strength, no magic (docs/rules.md §5).
        BlowKind::Disarm => Terms::new().with(
            "the grab's called shot and Strength",
            crate::rules::grab::object_grab_modifier(me),
        ),
        // A wrestler's armor penalty applies to martial arts too; a specialist adds 1.
        BlowKind::MartialArts { specialized } => strength
            .with("armor, wrestling", armor)
            .with("specialist", i32::from(specialized)),
        BlowKind::Overbear => strength.with(
            "size and legs",
            overbear_modifier(me.size, them.size, them.legs),
        ),
    }
}

/// The blow struck in `mode` with `weapon` in hand (`None`: the slot is empty).
pub(super) fn blow_in(
    me: &Combatant,
    them: &Combatant,
    mode: BlowKind,
    weapon: Option<&Arm>,
    options: &RuleOptions,
    stand: Stand,
) -> Blow {
    let modifier = own_terms(me, them, mode, weapon, options).total();
    let strength = me.damage_adjustment();
    // The punching column ignores the damage dice: any will do.
    let fist = Dice::of(1, 2, 0);
    let armed = weapon.is_some_and(|w| !w.fist);
    let make = |kind, modifier, dice, damage_add| {
        blow(
            me, them, kind, modifier, dice, damage_add, armed, options, stand,
        )
    };
    match mode {
        BlowKind::Weapon { held_back } => match weapon {
            Some(w) => make(
                BlowKind::Weapon { held_back },
                modifier,
                w.dice,
                strength + w.magic,
            ),
            None => make(BlowKind::Idle, 0, fist, 0),
        },
        BlowKind::Natural { held_back } => match me.attacks.first() {
            Some(&dice) => make(BlowKind::Natural { held_back }, modifier, dice, 0),
            None => make(BlowKind::Idle, 0, fist, 0),
        },
        BlowKind::Idle => make(BlowKind::Idle, 0, fist, 0),
        // A sap with the weapon in hand, or bare hands (1d2); its damage is rolled when it hits.
        BlowKind::Sap => make(
            BlowKind::Sap,
            modifier,
            weapon.map_or(fist, |w| w.dice),
            strength,
        ),
        BlowKind::Punch
        | BlowKind::Wrestle
        | BlowKind::Disarm
        | BlowKind::MartialArts { .. }
        | BlowKind::Overbear => make(mode, modifier, fist, 0),
    }
}

/// Folds one side: `weapon` and `backup` are what it holds (`None` for a brawler's empty hands).
#[allow(clippy::too_many_arguments)]
pub(super) fn side(
    me: &Combatant,
    them: &Combatant,
    mode: BlowKind,
    weapon: Option<Arm>,
    backup: Option<Arm>,
    finishes: bool,
    options: &RuleOptions,
    stand: Stand,
) -> Side {
    let attacks = attacks_per_round(me, mode);
    let in_bout = slot_in_bout(
        weapon.as_ref().map(|w| w.size),
        backup.as_ref().map(|w| w.size),
    );
    Side {
        hp: me.hp,
        damage_adjustment: me.damage_adjustment(),
        attacks,
        first_pass: first_pass(attacks, mode, options.multiple_attacks),
        single: attacks == [1, 1],
        finishes,
        natural: me.attacks.clone(),
        blows: [
            blow_in(me, them, mode, weapon.as_ref(), options, stand),
            blow_in(me, them, mode, backup.as_ref(), options, stand),
            blow_in(me, them, bare(mode), None, options, stand),
        ],
        first_slot: if weapon.is_some() {
            Slot::Main
        } else {
            Slot::Fists
        },
        in_bout,
        disarmed: if backup.is_some() {
            Slot::Backup
        } else {
            Slot::Fists
        },
        holding: me
            .contest_score()
            .modified(size_modifier(me, them, options)),
        breaking: me.contest_score(),
        terms: [
            own_terms(me, them, mode, weapon.as_ref(), options),
            own_terms(me, them, mode, backup.as_ref(), options),
            own_terms(me, them, bare(mode), None, options),
        ],
    }
}

impl Side {
    /// This side folded for a plain fight, or `None` when the blow in hand as the fight starts can stun,
    /// knock down or hold.
    pub(super) fn plain(&self) -> Option<PlainSide> {
        let blow = &self.blows[self.first_slot as usize];
        match blow.kind {
            // A side of several attacks a round stops striking a fallen foe, or finishes him, mid-turn, and
            // staggers its second attacks: only the general round knows when.
            BlowKind::Weapon { .. } | BlowKind::Natural { .. } if !self.single => return None,
            BlowKind::Weapon { .. } | BlowKind::Natural { .. } => {}
            BlowKind::Idle => {
                return Some(PlainSide {
                    attacks: [0, 0],
                    strikes: Vec::new(),
                });
            }
            BlowKind::Punch
            | BlowKind::Wrestle
            | BlowKind::Overbear
            | BlowKind::MartialArts { .. }
            | BlowKind::Sap
            | BlowKind::Disarm => return None,
        }
        let most = self.attacks[0].max(self.attacks[1]) as usize;
        Some(PlainSide {
            attacks: self.attacks,
            strikes: (0..most)
                .map(|i| PlainStrike::fold(blow, &self.natural, i))
                .collect::<Option<_>>()?,
        })
    }
}
