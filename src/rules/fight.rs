//! Fights round by round (docs/rules.md §3, §6 "The round of a fight"): `brawl`, an unarmed attacker against a
//! usually armed defender, and `subdue`, an attacker holding his blade back round after round.
//!
//! [`FightPlan::prepare`] folds both sides into numbers once per point; [`FightPlan::resolve`] fights one
//! fight with all its state on the stack. The order of dice is fixed, so a seed replays a fight exactly and
//! scripted dice drive every branch in the tests:
//! - Every round begins with both initiatives, the attacker's d10 first.
//! - A plain fight (weapons and natural attacks only, see `FightPlan::plain`) then rolls the attacker's
//!   attacks and then the victim's, each attack its d20 and its damage dice, hit or miss, and whether its
//!   side will still stand to strike or not. Initiative only orders the effects. Why: such a round runs
//!   without a branch on who acts first or on hit or miss (1.4 times as fast as the general round when it
//!   was introduced, more since its attacks are folded into `PlainStrike`s), and rule variants that change
//!   only who hits meet the same damage dice.
//! - Any other fight rolls each attack as it is made, in the order of play: its d20, then what a hit needs
//!   (damage dice, a punch's knockout d100 and a knockout's d10), and a held fighter's contest in place of
//!   his first attack. Holds, stuns and knock-downs change who acts and what is rolled mid-round, so
//!   rolling ahead would mean storing and discarding dice, which measured slower.

use crate::dice::{Dice, Roller};
use crate::rules::action::{Intent, Style};
use crate::rules::attack::{AttackRoll, ContestScore, contest};
use crate::rules::brawl::{knockout, overbear_modifier, punch, wrestle, wrestling_damage};
use crate::rules::catalog::Weapon;
use crate::rules::combatant::{Combatant, HitPoints};
use crate::rules::grab::size_modifier;
use crate::rules::options::{OddPoint, Rounding};
use crate::rules::strike::HELD_BACK_PENALTY;
use crate::rules::tables::{Size, wrestling_armor_penalty};
use crate::rules::{Damage, Ineligible, Matchup, RuleOptions, StateName};

/// The attacker's side index.
pub const ATTACKER: usize = 0;
/// The victim's side index.
pub const VICTIM: usize = 1;

/// How a side attacks, as `prepare` decides it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// With the weapon in hand, at full force or held back.
    Weapon { held_back: bool },
    /// With a monster's natural attacks.
    Natural { held_back: bool },
    /// Punching.
    Punch,
    /// Wrestling.
    Wrestle,
    /// Overbearing.
    Overbear,
}

/// What one attack does once it is rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// No attack at all (a weapon slot with nothing in it).
    Idle,
    /// A weapon's or a natural attack's damage dice, at full force or held back.
    Dice { held_back: bool, natural: bool },
    /// Punching.
    Punch,
    /// Wrestling.
    Wrestle,
    /// Overbearing.
    Overbear,
}

/// The situations that change an attack roll, as bits of an index into [`Blow::rolls`] and [`Blow::faces`].
const ARMED_BONUS: usize = 1;
const TARGET_STUNNED: usize = 2;
const TARGET_PRONE: usize = 4;
const HELD: usize = 8;
const SITUATIONS: usize = 16;

/// The situational modifier of an attack roll (docs/rules.md §6): the armed defender's bonus, +4 against a
/// stunned or prone target (prone does not help the overbearer, who must pin him), −4 while held (a
/// wrestler attacks the holder normally).
fn situational_modifier(kind: Kind, situation: usize, armed_bonus: i32) -> i32 {
    let mut modifier = 0;
    if situation & ARMED_BONUS != 0 {
        modifier += armed_bonus;
    }
    let prone = situation & TARGET_PRONE != 0 && kind != Kind::Overbear;
    if situation & TARGET_STUNNED != 0 || prone {
        modifier += 4;
    }
    if situation & HELD != 0 && kind != Kind::Wrestle {
        modifier -= 4;
    }
    modifier
}

/// What one natural d20 face does for a blow in one situation: whether it hits and, for punching and
/// wrestling, what the row of its modified roll does (nothing on a miss). Why: a round then reads one entry
/// where it would add the modifier, compare, clamp, look the row up and split its damage into quarters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Face {
    hit: bool,
    /// A wrestling hold.
    hold: bool,
    /// A punch's knockout chance in percent.
    ko_percent: u8,
    /// A punch's or wrestling move's real and temporary damage (weapons roll theirs).
    damage: [i16; 2],
}

impl Face {
    /// The face `natural` of `roll`, for a blow of `kind` by a side whose Strength adjusts damage by
    /// `damage_adjustment`.
    fn new(
        kind: Kind,
        roll: &AttackRoll,
        natural: u32,
        damage_adjustment: i32,
        rounding: Rounding,
    ) -> Face {
        let hit = roll.hits(natural);
        let modified = natural as i32 + roll.modifier;
        let row = match kind {
            Kind::Punch if hit => punch(modified, damage_adjustment, rounding),
            Kind::Wrestle if hit => wrestle(modified, damage_adjustment, rounding),
            // A miss does nothing.
            _ => crate::rules::brawl::Blow::default(),
        };
        // Row damage is at most a few points plus Strength's adjustment, and chances are percentages: the
        // narrowing keeps every value.
        let narrow = |x: u32| i16::try_from(x).unwrap_or(i16::MAX);
        Face {
            hit,
            hold: row.hold,
            ko_percent: u8::try_from(row.ko_percent).unwrap_or(u8::MAX),
            damage: [narrow(row.damage.real), narrow(row.damage.temporary)],
        }
    }

    #[inline(always)]
    fn damage(&self) -> [i32; 2] {
        self.damage.map(i32::from)
    }
}

/// One way a side attacks, folded into numbers once per point: the attack roll for every situation, what
/// each d20 face does in it, the damage dice and what is added to them. A fight then only indexes tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Blow {
    kind: Kind,
    /// The attack roll in each situation, indexed by the `ARMED_BONUS | TARGET_* | HELD` bits.
    rolls: [AttackRoll; SITUATIONS],
    /// What each d20 face does in each situation: `faces[situation][natural]` (index 0 unused).
    faces: [[Face; 21]; SITUATIONS],
    /// The weapon's damage dice, or the first natural attack's.
    dice: Dice,
    /// Added to the damage dice: Strength and magic, plus the armed defender's bonus at index 1.
    damage_add: [i32; 2],
    /// How the damage splits into real and temporary.
    split: Split,
}

/// How the damage of a weapon or natural attack (its dice plus everything added) becomes real and temporary
/// damage (docs/rules.md §3): all real (at least 1) at full force; held back, half of it (by the rule's rounding,
/// at least 1), of which half (rounded down) is temporary. Folded into a shift and an addend, so that a round
/// computes it with no branch and no division; a test holds it to [`crate::rules::strike::held_back`] for
/// every rounding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Split {
    /// 1 when held back, else 0.
    held_back: u32,
    /// 1 when a held-back half rounds up, else 0: `(x + up) >> 1` is half of `x` by the rule's rounding.
    up: i32,
    /// 1 when the odd point of a held-back total is temporary, else 0: `(total + odd) >> 1` is then the
    /// temporary share.
    odd: i32,
}

impl Split {
    fn new(held_back: bool, rounding: Rounding, odd_point: OddPoint) -> Split {
        Split {
            held_back: u32::from(held_back),
            up: rounding.divide(1, 2),
            odd: odd_point.odd(),
        }
    }

    /// The real and temporary damage of `rolled`.
    #[inline(always)]
    fn damage(&self, rolled: i32) -> [i32; 2] {
        // No need for "at least 1" before halving: a sum below 1 halves to below 1 as well.
        let total = ((rolled + self.up * self.held_back as i32) >> self.held_back).max(1);
        let temporary = ((total + self.odd) >> 1) * self.held_back as i32;
        [total - temporary, temporary]
    }
}

impl Blow {
    /// Rolls the damage of a weapon or natural attack, attack `i` of its turn (a monster strikes with its
    /// i-th natural attack's dice): the dice plus what is added (`armed`: with the armed defender's bonus),
    /// split into real and temporary. Other kinds of blow do no damage here.
    #[inline(always)]
    fn roll_damage<R: Roller + ?Sized>(
        &self,
        natural_dice: &[Dice],
        i: usize,
        armed: bool,
        rng: &mut R,
    ) -> [i32; 2] {
        let Kind::Dice { natural, .. } = self.kind else {
            return [0, 0];
        };
        let rolled = self.dice(natural, natural_dice, i).roll(rng);
        self.split
            .damage(rolled + self.damage_add[usize::from(armed)])
    }

    /// The damage dice of attack `i` of a turn: a monster strikes with its i-th natural attack's dice.
    #[inline(always)]
    fn dice<'a>(&'a self, natural: bool, natural_dice: &'a [Dice], i: usize) -> &'a Dice {
        match natural {
            true => natural_dice.get(i).unwrap_or(&self.dice),
            false => &self.dice,
        }
    }
}

/// No wrestling bout yet: the last round a `u32` holds, after which no round follows, so that starting a
/// bout is a `min` and "after the bout's first round" is never true before it starts.
const NO_BOUT: u32 = u32::MAX;

/// A side's blows by [`Slot`]: the main weapon, the backup, the bare hands.
const SLOTS: usize = 3;

/// One side, folded into numbers.
#[derive(Debug, Clone, PartialEq)]
struct Side {
    hp: HitPoints,
    damage_adjustment: i32,
    /// Attacks in a round, indexed by `round % 2` (even rounds first): a monster every natural attack, a
    /// warrior 3/2 at levels 7-12 (two in every second round, from the second) and 2 from 13, everyone
    /// else one.
    attacks: [u32; 2],
    /// One attack in every round: such a side's turn, with no hold in play, is that attack alone (see
    /// `FightPlan::turn`), so the common turn skips the count and the loop.
    single: bool,
    /// Every natural attack's dice, in order.
    natural: Vec<Dice>,
    /// The blow struck from each slot.
    blows: [Blow; SLOTS],
    /// The slot held as the fight starts.
    first_slot: Slot,
    /// The slot the main weapon gives way to after the first round of a wrestling bout (only size S
    /// weapons serve): the backup, else the fists; the main slot again when the main weapon is small.
    in_bout: Slot,
    /// Contest score while holding the other side (size modifier included).
    holding: ContestScore,
    /// Contest score while breaking free.
    breaking: ContestScore,
}

/// A fight prepared for one matchup.
#[derive(Debug, Clone, PartialEq)]
pub struct FightPlan {
    sides: [Side; 2],
    options: RuleOptions,
    max_rounds: u32,
    /// A brawl against a defender with a real weapon, attacking with it: the armed-defender rule applies
    /// while he still holds a weapon.
    armed_defender: bool,
    /// `Some` only when both sides fight with weapons and natural attacks: nobody can be stunned, knocked
    /// down, pinned or held, and there is no armed defender. Such a fight runs [`FightPlan::plain_rounds`],
    /// where only damage happens, with each side's attacks folded further into [`PlainSide`]s.
    plain: Option<[PlainSide; 2]>,
}

/// A side of a plain fight: how many attacks it makes and what each one does.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PlainSide {
    /// Attacks in a round, indexed by `round % 2`, as [`Side::attacks`] (none for an idle blow).
    attacks: [u32; 2],
    /// Attack `i` of a round, for every `i` a round can have.
    strikes: Vec<PlainStrike>,
}

/// One attack of a plain round folded to plain integers: the faces that hit, the damage dice, and how
/// their sum becomes real and temporary damage. Why: the round then has no branch on the kind of blow,
/// on natural attacks or on holding back, and no division.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PlainStrike {
    roll: AttackRoll,
    dice: Dice,
    /// Strength and magic, added to the dice.
    add: i32,
    split: Split,
}

impl PlainStrike {
    /// The `i`-th attack of a round struck with `blow`, or `None` for a blow that is not a weapon's or a
    /// natural attack's.
    fn fold(blow: &Blow, natural: &[Dice], i: usize) -> Option<PlainStrike> {
        let Kind::Dice {
            natural: is_natural,
            ..
        } = blow.kind
        else {
            return None;
        };
        Some(PlainStrike {
            roll: blow.rolls[0],
            dice: *blow.dice(is_natural, natural, i),
            add: blow.damage_add[0],
            split: blow.split,
        })
    }
}

/// How a fight ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Only the victim is down.
    AttackerWins,
    /// Only the attacker is down.
    VictimWins,
    /// Both fell in the same round.
    BothDown,
    /// Neither fell within `max_rounds`.
    Timeout,
}

/// One fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FightOutcome {
    /// How it ended.
    pub ending: Ending,
    /// Rounds fought.
    pub rounds: u32,
    /// Dead at the end, attacker and victim.
    pub killed: [bool; 2],
}

/// Which weapon a fighter holds right now (an index into [`Side::blows`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Main = 0,
    Backup = 1,
    Fists = 2,
}

/// A fighter's state during one fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fighter {
    /// Hit points left once real and temporary damage are counted: kept rather than the rolled hit points,
    /// so that taking damage costs one more subtraction (no branch) and every "does he still stand" is one
    /// comparison instead of three operations.
    left: i32,
    real: i32,
    temporary: i32,
    /// Stunned through this round (0: never).
    stunned_through: u32,
    /// Knocked down by overbearing in this round.
    prone_since: Option<u32>,
    /// Down while `left` is at most this: 0, or every hit point there is once pinned. Why: "pinned or
    /// unconscious" is asked several times a round, and one comparison answers it.
    down_at: i32,
    /// Rounds the hold on the other side has lasted (0: no hold), and the round it began.
    holding: u32,
    hold_began: u32,
    held: bool,
    slot: Slot,
}

/// [`Fighter::down_at`] of a pinned fighter: down however many hit points he has left.
const PINNED: i32 = i32::MAX;

/// Where a fight stands in time: the round about to be fought and the rounds left until temporary damage
/// heals (a countdown, not a division per round). Fights start from [`FightPlan::clock`]; tests may start
/// one in any round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Clock {
    round: u32,
    heal_in: u32,
}

impl Fighter {
    /// A fighter with `hp` hit points who has taken `real` and `temporary` damage.
    #[cfg(test)]
    fn hurt(self, hp: i32, real: i32, temporary: i32) -> Fighter {
        Fighter {
            left: hp - real - temporary,
            real,
            temporary,
            ..self
        }
    }

    fn dead(&self, death_at: i32) -> bool {
        self.left + self.temporary <= death_at
    }

    /// Pinned, dead or knocked out (at most 0 hit points left once temporary damage is counted). `death_at`
    /// is 0 or −10 and temporary damage is never negative, so the dead are always below 1 hit point as well:
    /// one comparison covers all three.
    fn down(&self) -> bool {
        self.left <= self.down_at
    }

    #[cfg(test)]
    fn pinned(&self) -> bool {
        self.down_at == PINNED
    }

    fn stunned(&self, round: u32) -> bool {
        self.stunned_through >= round
    }

    /// Able to act this round.
    fn can_act(&self, round: u32) -> bool {
        !self.down() && !self.stunned(round)
    }

    fn take(&mut self, d: Damage) {
        self.suffer([d.real as i32, d.temporary as i32], 1);
    }

    /// Still conscious after taking the real and temporary damage `dealt`, `times` (1 or 0) over.
    #[inline(always)]
    fn stands_after(&self, dealt: [i32; 2], times: i32) -> bool {
        self.left - (dealt[0] + dealt[1]) * times > 0
    }

    /// Heals a point of temporary damage, if any: `left` gains only what `temporary` loses, so the two stay
    /// in step (temporary damage is never negative).
    #[inline(always)]
    fn heal(&mut self) {
        let point = i32::from(self.temporary > 0);
        self.temporary -= point;
        self.left += point;
    }

    /// Takes the real and temporary damage `dealt`, `times` (1 or 0) over: `times` lets a plain round skip
    /// it without a branch.
    #[inline(always)]
    fn suffer(&mut self, dealt: [i32; 2], times: i32) {
        self.real += dealt[0] * times;
        self.temporary += dealt[1] * times;
        self.left -= (dealt[0] + dealt[1]) * times;
    }
}

/// What a fight is: a brawl, the attacker unarmed with his style every round, or a subdual fight, the
/// attacker holding his blow back (and with bare hands using the style, since fists are not held back).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FightKind {
    /// `brawl`.
    Brawl(Style),
    /// `subdue`; the style serves a bare-handed subduer.
    Subdue(Style),
}

/// A weapon's numbers against the other side.
struct Arm {
    dice: Dice,
    magic: i32,
    size: Size,
}

fn arm(weapon: &Weapon, against: Size) -> Arm {
    Arm {
        dice: weapon.damage_against(against),
        magic: weapon.magic,
        size: weapon.size,
    }
}

/// Builds the blow a fighter strikes in `kind`, with `modifier` (everything but the situation) added to
/// every roll.
fn blow(
    me: &Combatant,
    them: &Combatant,
    kind: Kind,
    modifier: i32,
    dice: Dice,
    damage_add: i32,
    options: &RuleOptions,
) -> Blow {
    let bonus = options.armed_defender_bonus;
    let rolls: [AttackRoll; SITUATIONS] = std::array::from_fn(|situation| {
        let situational = situational_modifier(kind, situation, bonus);
        AttackRoll::new(me.thac0, them.ac.normal(), modifier + situational, options)
    });
    let adjustment = me.damage_adjustment();
    Blow {
        kind,
        rolls,
        faces: rolls.map(|roll| {
            std::array::from_fn(|natural| {
                Face::new(kind, &roll, natural as u32, adjustment, options.rounding)
            })
        }),
        dice,
        damage_add: [damage_add, damage_add + bonus],
        split: Split::new(
            matches!(
                kind,
                Kind::Dice {
                    held_back: true,
                    ..
                }
            ),
            options.rounding,
            options.held_back_odd_point,
        ),
    }
}

/// The blow struck in `mode` with `weapon` in hand (`None`: the slot is empty).
fn blow_in(
    me: &Combatant,
    them: &Combatant,
    mode: Mode,
    weapon: Option<&Arm>,
    options: &RuleOptions,
) -> Blow {
    let penalty = |held_back: bool| if held_back { HELD_BACK_PENALTY } else { 0 };
    let hit = me.hit_adjustment();
    let strength = me.damage_adjustment();
    // The punching column ignores the damage dice: any will do.
    let fist = Dice::of(1, 2, 0);
    let make = |kind, modifier, dice, damage_add| {
        blow(me, them, kind, modifier, dice, damage_add, options)
    };
    match mode {
        Mode::Weapon { held_back } => match weapon {
            Some(w) => make(
                Kind::Dice {
                    held_back,
                    natural: false,
                },
                hit + w.magic + penalty(held_back),
                w.dice,
                strength + w.magic,
            ),
            None => make(Kind::Idle, 0, fist, 0),
        },
        // Natural attacks: a plain d20, no Strength or magic; −4 when held back.
        Mode::Natural { held_back } => match me.attacks.first() {
            Some(&dice) => make(
                Kind::Dice {
                    held_back,
                    natural: true,
                },
                penalty(held_back),
                dice,
                0,
            ),
            None => make(Kind::Idle, 0, fist, 0),
        },
        Mode::Punch => make(Kind::Punch, hit, fist, 0),
        Mode::Wrestle => make(
            Kind::Wrestle,
            hit + wrestling_armor_penalty(me.armor_type),
            fist,
            0,
        ),
        Mode::Overbear => make(
            Kind::Overbear,
            hit + overbear_modifier(me.size, them.size, them.legs),
            fist,
            0,
        ),
    }
}

/// Folds one side: `weapon` and `backup` are what it holds (`None` for a brawler's empty hands).
fn side(
    me: &Combatant,
    them: &Combatant,
    mode: Mode,
    weapon: Option<Arm>,
    backup: Option<Arm>,
    options: &RuleOptions,
) -> Side {
    let attacks = if matches!(mode, Mode::Natural { .. }) {
        let n = me.attacks.len() as u32;
        [n, n]
    } else {
        me.weapon_attacks()
    };
    // A defender whose weapon gave way in a wrestling bout punches.
    let bare = match mode {
        Mode::Weapon { .. } => Mode::Punch,
        m => m,
    };
    let in_bout = match (&weapon, &backup) {
        (Some(w), _) if w.size <= Size::S => Slot::Main,
        (_, Some(_)) => Slot::Backup,
        _ => Slot::Fists,
    };
    Side {
        hp: me.hp,
        damage_adjustment: me.damage_adjustment(),
        attacks,
        single: attacks == [1, 1],
        natural: me.attacks.clone(),
        blows: [
            blow_in(me, them, mode, weapon.as_ref(), options),
            blow_in(me, them, mode, backup.as_ref(), options),
            blow_in(me, them, bare, None, options),
        ],
        first_slot: if weapon.is_some() {
            Slot::Main
        } else {
            Slot::Fists
        },
        in_bout,
        holding: me
            .contest_score()
            .modified(size_modifier(me, them, options)),
        breaking: me.contest_score(),
    }
}

impl Side {
    /// This side folded for a plain fight, or `None` when the blow in hand as the fight starts can stun,
    /// knock down or hold.
    fn plain(&self) -> Option<PlainSide> {
        let blow = &self.blows[self.first_slot as usize];
        match blow.kind {
            Kind::Dice { .. } => {}
            Kind::Idle => {
                return Some(PlainSide {
                    attacks: [0, 0],
                    strikes: Vec::new(),
                });
            }
            Kind::Punch | Kind::Wrestle | Kind::Overbear => return None,
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

impl FightPlan {
    /// Prepares a brawl or a subdual fight. Both sides must be awake; a subduer's weapon, and a victim's
    /// told to hold back, must be one whose damage can be held back; a bare-handed subduer fights as a
    /// brawler does, with his style (docs/rules.md §6 "Who does what").
    pub fn prepare(
        m: &Matchup,
        options: &RuleOptions,
        kind: FightKind,
        intent: Intent,
        max_rounds: u32,
    ) -> Result<FightPlan, Ineligible> {
        if m.attacker.state.is_helpless() {
            return Err(Ineligible::AttackerHelpless(StateName(m.attacker.state)));
        }
        if m.victim.state.is_helpless() {
            return Err(Ineligible::VictimHelpless(StateName(m.victim.state)));
        }
        let held_back = intent == Intent::Subdue;
        let (a, v) = (&m.attacker, &m.victim);
        let (attacker_main, attacker_backup) = a.in_melee();
        let brawling = |style: Style| match style {
            Style::Wrestle => Mode::Wrestle,
            Style::Overbear => Mode::Overbear,
            Style::Punch | Style::MartialArts => Mode::Punch,
        };
        let attacker_mode = match kind {
            FightKind::Brawl(style) => brawling(style),
            // A monster fights with its natural attacks when it has them and no weapon: held back too.
            FightKind::Subdue(_) if a.weapon.is_fist() && !a.attacks.is_empty() => {
                Mode::Natural { held_back: true }
            }
            FightKind::Subdue(style) => match attacker_main {
                Some(weapon) if !weapon.is_fist() => {
                    crate::rules::strike::can_hold_back(weapon)?;
                    Mode::Weapon { held_back: true }
                }
                // Fists are not held back: a bare-handed subduer punches, wrestles or overbears.
                _ => brawling(style),
            },
        };
        // The victim's weapon in melee: a missile weapon gives way to his backup, else to his fists.
        let (victim_main, victim_backup) = v.in_melee();
        let victim_mode = if let Some(weapon) = crate::rules::armed_defender::armed_with(v) {
            if held_back {
                crate::rules::strike::can_hold_back(weapon)
                    .map_err(|_| Ineligible::VictimNotControllable(weapon.name.clone()))?;
            }
            Mode::Weapon { held_back }
        } else if !v.attacks.is_empty() {
            Mode::Natural { held_back }
        } else {
            // Unarmed, he answers in kind; against overbearing (or a blade) he punches.
            match attacker_mode {
                Mode::Wrestle => Mode::Wrestle,
                _ => Mode::Punch,
            }
        };
        let unarmed_attacker =
            matches!(attacker_mode, Mode::Punch | Mode::Wrestle | Mode::Overbear);
        // A brawler is unarmed whatever he carries.
        let (weapon, backup) = if unarmed_attacker {
            (None, None)
        } else {
            (
                Some(arm(attacker_main.unwrap_or(&a.weapon), v.size)),
                attacker_backup.map(|b| arm(b, v.size)),
            )
        };
        let fist = crate::rules::catalog::Weapon::fist();
        let attacker = side(a, v, attacker_mode, weapon, backup, options);
        let victim = side(
            v,
            a,
            victim_mode,
            Some(arm(victim_main.unwrap_or(&fist), a.size)),
            victim_backup.map(|b| arm(b, a.size)),
            options,
        );
        // The armed-defender rule: an unarmed attacker against a defender holding a melee weapon.
        let armed_defender = unarmed_attacker && matches!(victim_mode, Mode::Weapon { .. });
        // Slots change only in a wrestling bout, so the blows in hand at the start are the only ones.
        let plain = match (armed_defender, attacker.plain(), victim.plain()) {
            (false, Some(a), Some(v)) => Some([a, v]),
            _ => None,
        };
        Ok(FightPlan {
            sides: [attacker, victim],
            options: options.clone(),
            max_rounds,
            armed_defender,
            plain,
        })
    }

    /// Rounds before a timeout.
    pub fn max_rounds(&self) -> u32 {
        self.max_rounds
    }

    /// Attacks a side makes in `round`.
    fn attacks(&self, s: usize, round: u32) -> u32 {
        self.sides[s].attacks[(round % 2) as usize]
    }

    /// Both fighters as a fight starts: hit points rolled (attacker first), main weapons in hand.
    fn start<R: Roller + ?Sized>(&self, rng: &mut R) -> [Fighter; 2] {
        [ATTACKER, VICTIM].map(|s| Fighter {
            left: self.sides[s].hp.roll(rng),
            real: 0,
            temporary: 0,
            stunned_through: 0,
            prone_since: None,
            down_at: 0,
            holding: 0,
            hold_began: 0,
            held: false,
            slot: self.sides[s].first_slot,
        })
    }

    /// One fight.
    pub fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> FightOutcome {
        let mut f = self.start(rng);
        self.fight(&mut f, rng)
    }

    // Inlined into `resolve`, with the rounds, so that both fighters live in registers rather than behind
    // a pointer (a build that left it out of line ran a plain fight about 10 % slower).
    #[inline(always)]
    fn fight<R: Roller + ?Sized>(&self, f: &mut [Fighter; 2], rng: &mut R) -> FightOutcome {
        if let Some(plain) = &self.plain {
            self.plain_rounds(plain, f, self.clock(), rng)
        } else {
            self.rounds(f, self.clock(), rng)
        }
    }

    /// Where every fight starts: round 1, temporary damage healing after `temp_heal_rounds` rounds.
    fn clock(&self) -> Clock {
        Clock {
            round: 1,
            heal_in: self.options.temp_heal_rounds,
        }
    }

    /// The end of a round: the outcome if someone is down; else temporary damage heals a point when its
    /// countdown `heal_in` (rounds left, not a division per round) runs out, and the fight goes on.
    #[inline(always)]
    fn after_round(
        &self,
        f: &mut [Fighter; 2],
        round: u32,
        heal_in: &mut u32,
    ) -> Option<FightOutcome> {
        let down = [f[ATTACKER].down(), f[VICTIM].down()];
        if down[ATTACKER] || down[VICTIM] {
            let ending = match down {
                [true, true] => Ending::BothDown,
                [false, true] => Ending::AttackerWins,
                _ => Ending::VictimWins,
            };
            let death_at = self.options.death_at;
            return Some(FightOutcome {
                ending,
                rounds: round,
                killed: [f[ATTACKER].dead(death_at), f[VICTIM].dead(death_at)],
            });
        }
        *heal_in -= 1;
        if *heal_in == 0 {
            *heal_in = self.options.temp_heal_rounds;
            for fighter in f.iter_mut() {
                fighter.heal();
            }
        }
        None
    }

    /// Nobody fell within `max_rounds`.
    fn timeout(&self) -> FightOutcome {
        FightOutcome {
            ending: Ending::Timeout,
            rounds: self.max_rounds,
            killed: [false, false],
        }
    }

    /// The rounds of a plain fight ([`FightPlan::plain`]). Only damage happens, so each side's attacks come
    /// down to the real and temporary damage of those that hit; the faster side always strikes (both stand
    /// as a round begins), and the slower one if he still stands or on a tie.
    #[inline(always)]
    fn plain_rounds<R: Roller + ?Sized>(
        &self,
        plain: &[PlainSide; 2],
        f: &mut [Fighter; 2],
        from: Clock,
        rng: &mut R,
    ) -> FightOutcome {
        let mut heal_in = from.heal_in;
        // A counter that stops after the last round a `u32` holds, not `from.round..=self.max_rounds`: the
        // inclusive range's check for exhaustion cost about 5 % of a round's instructions, here and in
        // `rounds`.
        let mut round = from.round;
        while round <= self.max_rounds {
            let (a, v) = (rng.die(10), rng.die(10));
            let by_attacker = plain[ATTACKER].attacks(round, rng);
            let by_victim = plain[VICTIM].attacks(round, rng);
            // 1 or 0, as multipliers. On a tie nothing lands before both have struck.
            let (attacker_first, victim_first) = (i32::from(a < v), i32::from(a > v));
            // Both stand as a round begins, so a side strikes exactly when the other side's faster blows
            // (none unless the other side is faster) leave him conscious.
            let attacker_strikes = i32::from(f[ATTACKER].stands_after(by_victim, victim_first));
            let victim_strikes = i32::from(f[VICTIM].stands_after(by_attacker, attacker_first));
            f[VICTIM].suffer(by_attacker, attacker_strikes);
            f[ATTACKER].suffer(by_victim, victim_strikes);
            if let Some(outcome) = self.after_round(f, round, &mut heal_in) {
                return outcome;
            }
            let Some(next) = round.checked_add(1) else {
                break;
            };
            round = next;
        }
        self.timeout()
    }

    /// The rounds of any other fight, where holds, stuns, knock-downs or an armed defender can happen.
    #[inline(always)]
    fn rounds<R: Roller + ?Sized>(
        &self,
        f: &mut [Fighter; 2],
        from: Clock,
        rng: &mut R,
    ) -> FightOutcome {
        let mut bout_began = NO_BOUT;
        let mut heal_in = from.heal_in;
        let mut round = from.round;
        while round <= self.max_rounds {
            // After the first round of a wrestling bout only size S weapons can be used.
            if round > bout_began {
                for s in [ATTACKER, VICTIM] {
                    if f[s].slot == Slot::Main {
                        f[s].slot = self.sides[s].in_bout;
                    }
                }
            }
            let initiative = [rng.die(10), rng.die(10)];
            let armed =
                self.armed_defender && f[VICTIM].slot != Slot::Fists && f[ATTACKER].can_act(round);
            if armed && !self.options.armed_defender_extra_attack {
                // The armed defender resolves all his attacks first, at +4 to hit and damage.
                if f[VICTIM].can_act(round) {
                    self.turn::<VICTIM, R>(f, round, true, &mut bout_began, rng);
                }
                if f[ATTACKER].can_act(round) {
                    self.turn::<ATTACKER, R>(f, round, false, &mut bout_began, rng);
                }
            } else {
                if armed && f[VICTIM].can_act(round) {
                    // One extra attack at +4 before the round; his normal attacks follow initiative. It is
                    // an attack, not his turn: a held defender still spends his first normal attack on the
                    // contest, not this one.
                    self.attack::<VICTIM, R>(f, round, true, 0, &mut bout_began, rng);
                }
                // Each order is spelled out with constant sides, so that both fighters stay in registers.
                match initiative[ATTACKER].cmp(&initiative[VICTIM]) {
                    std::cmp::Ordering::Less => {
                        if f[ATTACKER].can_act(round) {
                            self.turn::<ATTACKER, R>(f, round, false, &mut bout_began, rng);
                        }
                        if f[VICTIM].can_act(round) {
                            self.turn::<VICTIM, R>(f, round, false, &mut bout_began, rng);
                        }
                    }
                    std::cmp::Ordering::Greater => {
                        if f[VICTIM].can_act(round) {
                            self.turn::<VICTIM, R>(f, round, false, &mut bout_began, rng);
                        }
                        if f[ATTACKER].can_act(round) {
                            self.turn::<ATTACKER, R>(f, round, false, &mut bout_began, rng);
                        }
                    }
                    std::cmp::Ordering::Equal => {
                        // Simultaneous: both sides' attacks are rolled and all their effects apply together.
                        let victim_able = f[VICTIM].can_act(round);
                        if f[ATTACKER].can_act(round) {
                            self.turn::<ATTACKER, R>(f, round, false, &mut bout_began, rng);
                        }
                        if victim_able {
                            self.turn::<VICTIM, R>(f, round, false, &mut bout_began, rng);
                        }
                    }
                }
            }
            if let Some(outcome) = self.after_round(f, round, &mut heal_in) {
                return outcome;
            }
            let Some(next) = round.checked_add(1) else {
                break;
            };
            round = next;
        }
        self.timeout()
    }

    /// One side's turn: its attacks for the round (the first spent breaking a hold, or keeping one), each
    /// resolving even after the target has fallen. `armed` adds the armed defender's bonus to hit and damage.
    #[inline(always)]
    fn turn<const S: usize, R: Roller + ?Sized>(
        &self,
        f: &mut [Fighter; 2],
        round: u32,
        armed: bool,
        bout_began: &mut u32,
        rng: &mut R,
    ) {
        let (s, o) = (S, 1 - S);
        // Most fighters make one attack a round: unless a hold is in play, their turn is that attack.
        // Why a path of its own: it spares the common round the count and the loop (about a tenth of a
        // brawl round's instructions).
        if self.sides[s].single && !f[s].held && f[s].holding == 0 {
            self.attack::<S, R>(f, round, armed, 0, bout_began, rng);
            return;
        }
        let n = self.attacks(s, round);
        let mut first = 0;
        if n > 0 && f[s].held {
            // The held fighter's first attack is the contest to break free.
            let c = contest(
                self.sides[s].breaking,
                self.sides[o].holding,
                self.options.grab_contest,
                rng,
            );
            if c.first_wins {
                f[s].held = false;
                f[o].holding = 0;
            }
            first = 1;
        } else if n > 0 && f[s].holding > 0 && f[s].hold_began < round {
            // Keeping the hold is the holder's attack: k + Strength in its k-th round.
            f[s].holding += 1;
            let d = wrestling_damage(
                f[s].holding,
                self.sides[s].damage_adjustment,
                self.options.rounding,
            );
            f[o].take(d);
            first = 1;
        }
        for i in first..n {
            self.attack::<S, R>(f, round, armed, i as usize, bout_began, rng);
        }
    }

    /// Attack number `i` of side `s` this round, with the blow of the slot in hand.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn attack<const S: usize, R: Roller + ?Sized>(
        &self,
        f: &mut [Fighter; 2],
        round: u32,
        armed: bool,
        i: usize,
        bout_began: &mut u32,
        rng: &mut R,
    ) {
        let (s, o) = (S, 1 - S);
        let me = &self.sides[s];
        let blow = &me.blows[f[s].slot as usize];
        let situation = usize::from(armed) * ARMED_BONUS
            + usize::from(f[o].stunned(round)) * TARGET_STUNNED
            + usize::from(f[o].prone_since.is_some()) * TARGET_PRONE
            + usize::from(f[s].held) * HELD;
        if blow.kind == Kind::Wrestle {
            // A wrestling attack starts the bout, hit or miss.
            *bout_began = (*bout_began).min(round);
        }
        if blow.kind == Kind::Idle {
            return;
        }
        let face = blow.faces[situation][rng.die(20) as usize];
        // A missed face does nothing (see `Face::new`), so a wrestling move, which rolls no more dice, needs
        // no branch on hit or miss: its outcome is as random as the d20, and a branch would be mispredicted.
        f[o].suffer(face.damage(), 1);
        match blow.kind {
            Kind::Wrestle => {
                if face.hold && f[s].holding == 0 {
                    f[s].holding = 1;
                    f[s].hold_began = round;
                    f[o].held = true;
                }
            }
            _ if !face.hit => {}
            Kind::Dice { .. } => {
                f[o].suffer(blow.roll_damage(&me.natural, i, armed, rng), 1);
            }
            Kind::Punch => {
                if let Some(k) = knockout(u32::from(face.ko_percent), rng) {
                    f[o].stunned_through = f[o].stunned_through.max(round.saturating_add(k));
                }
            }
            Kind::Overbear => match f[o].prone_since {
                Some(r) if r < round => f[o].down_at = PINNED,
                Some(_) => {}
                None => f[o].prone_since = Some(round),
            },
            Kind::Idle => {}
        }
    }
}

impl PlainSide {
    /// Rolls this side's attacks in a plain round, each its d20 and its damage dice, and returns the real
    /// and temporary damage of those that hit.
    #[inline(always)]
    fn attacks<R: Roller + ?Sized>(&self, round: u32, rng: &mut R) -> [i32; 2] {
        let n = self.attacks[(round % 2) as usize] as usize;
        let mut dealt = [0, 0];
        for strike in &self.strikes[..n] {
            let hit = i32::from(strike.roll.hits(rng.die(20)));
            let [real, temporary] = strike.split.damage(strike.dice.roll(rng) + strike.add);
            dealt[0] += real * hit;
            dealt[1] += temporary * hit;
        }
        dealt
    }
}

#[cfg(test)]
mod tests;
