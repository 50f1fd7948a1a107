//! Fights round by round (RULES.md §3, §6 "The round of a fight"): `brawl`, an unarmed attacker against a
//! usually armed defender, and `subdue`, an attacker holding his blade back round after round.
//!
//! [`FightPlan::prepare`] folds both sides into numbers once per point; [`FightPlan::resolve`] fights one
//! fight with all its state on the stack. The order of dice is fixed (both initiatives every round, then each
//! attack in turn), so a seed replays a fight exactly and scripted dice drive every branch in the tests.

use crate::dice::{Dice, Roller};
use crate::rules::action::{Intent, Style};
use crate::rules::attack::{AttackRoll, ContestScore, contest};
use crate::rules::brawl::{overbear_modifier, punch, wrestle, wrestling_damage};
use crate::rules::combatant::{Combatant, HitPoints};
use crate::rules::grab::size_modifier;
use crate::rules::strike::{HELD_BACK_PENALTY, held_back};
use crate::rules::tables::{Group, Size, wrestling_armor_penalty};
use crate::rules::{Damage, Ineligible, Matchup, RuleOptions, StateName};

/// The attacker's side index.
pub const ATTACKER: usize = 0;
/// The victim's side index.
pub const VICTIM: usize = 1;

/// How a side attacks.
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

/// A weapon's numbers against the other side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Arm {
    dice: Dice,
    magic: i32,
    size: Size,
}

/// One side, folded into numbers.
#[derive(Debug, Clone, PartialEq)]
struct Side {
    thac0: i32,
    ac: i32,
    hit_adjustment: i32,
    damage_adjustment: i32,
    hp: HitPoints,
    size: Size,
    legs: u32,
    /// Level of a warrior (3/2 attacks at 7-12, 2 at 13+); `None` for everyone else.
    warrior_level: Option<u32>,
    natural: Vec<Dice>,
    mode: Mode,
    /// The weapon in hand (the fist's numbers for bare hands).
    weapon: Option<Arm>,
    /// Holds a real weapon, not the fist: the armed-defender rule needs one.
    armed: bool,
    /// A size S weapon drawn when a wrestling bout makes the main one useless.
    backup: Option<Arm>,
    armor_penalty: i32,
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
    brawl: bool,
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

/// Which weapon a fighter holds right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Main,
    Backup,
    Fists,
}

/// A fighter's state during one fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fighter {
    hp: i32,
    real: i32,
    temporary: i32,
    /// Stunned through this round (0: never).
    stunned_through: u32,
    /// Knocked down by overbearing in this round.
    prone_since: Option<u32>,
    pinned: bool,
    /// Rounds the hold on the other side has lasted (0: no hold), and the round it began.
    holding: u32,
    hold_began: u32,
    held: bool,
    slot: Slot,
}

impl Fighter {
    fn dead(&self, death_at: i32) -> bool {
        self.hp - self.real <= death_at
    }

    fn down(&self, death_at: i32) -> bool {
        self.pinned || self.dead(death_at) || self.hp - self.real - self.temporary <= 0
    }

    fn stunned(&self, round: u32) -> bool {
        self.stunned_through >= round
    }

    fn can_act(&self, round: u32, death_at: i32) -> bool {
        !self.down(death_at) && !self.stunned(round)
    }

    fn take(&mut self, d: Damage) {
        self.real += d.real as i32;
        self.temporary += d.temporary as i32;
    }
}

fn arm(weapon: &crate::rules::catalog::Weapon, against: Size) -> Arm {
    Arm {
        dice: weapon.damage_against(against),
        magic: weapon.magic,
        size: weapon.size,
    }
}

fn side(me: &Combatant, other: &Combatant, mode: Mode, options: &RuleOptions) -> Side {
    Side {
        thac0: me.thac0,
        ac: me.ac.normal(),
        hit_adjustment: me.hit_adjustment(),
        damage_adjustment: me.damage_adjustment(),
        hp: me.hp,
        size: me.size,
        legs: me.legs,
        warrior_level: me
            .class()
            .filter(|c| c.group == Group::Warrior)
            .map(|_| me.level()),
        natural: me.attacks.clone(),
        mode,
        weapon: Some(arm(&me.weapon, other.size)),
        armed: !me.weapon.is_fist(),
        backup: me.backup_weapon.as_ref().map(|b| arm(b, other.size)),
        armor_penalty: wrestling_armor_penalty(me.armor_type),
        holding: me
            .contest_score()
            .modified(size_modifier(me, other, options)),
        breaking: me.contest_score(),
    }
}

impl FightPlan {
    /// Prepares a brawl (`style` not `None`) or a subdual fight. Both sides must be awake; a subduer's weapon
    /// must be one whose damage can be held back.
    pub fn prepare(
        m: &Matchup,
        options: &RuleOptions,
        style: Option<Style>,
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
        let attacker_mode = match style {
            Some(Style::Wrestle) => Mode::Wrestle,
            Some(Style::Overbear) => Mode::Overbear,
            Some(_) => Mode::Punch,
            // A monster fights with its natural attacks when it has them and no weapon: held back too.
            None if m.attacker.weapon.is_fist() && !m.attacker.attacks.is_empty() => {
                Mode::Natural { held_back: true }
            }
            None => {
                crate::rules::strike::eligibility(m)?;
                Mode::Weapon { held_back: true }
            }
        };
        let victim_mode = if !m.victim.weapon.is_fist() {
            Mode::Weapon { held_back }
        } else if !m.victim.attacks.is_empty() {
            Mode::Natural { held_back }
        } else {
            // Unarmed, he answers in kind; against overbearing (or a blade) he punches.
            match attacker_mode {
                Mode::Wrestle => Mode::Wrestle,
                _ => Mode::Punch,
            }
        };
        let mut attacker = side(&m.attacker, &m.victim, attacker_mode, options);
        if style.is_some() {
            // A brawler is unarmed whatever he carries.
            attacker.weapon = None;
            attacker.backup = None;
            attacker.armed = false;
        }
        Ok(FightPlan {
            sides: [attacker, side(&m.victim, &m.attacker, victim_mode, options)],
            options: options.clone(),
            max_rounds,
            brawl: style.is_some(),
        })
    }

    /// Rounds before a timeout.
    pub fn max_rounds(&self) -> u32 {
        self.max_rounds
    }

    /// Attacks a side makes in a round: a monster every natural attack, a warrior 3/2 at levels 7-12 (two in
    /// every second round, from the second) and 2 from 13, everyone else one.
    fn attacks(&self, s: usize, round: u32) -> u32 {
        let side = &self.sides[s];
        if matches!(side.mode, Mode::Natural { .. }) {
            return side.natural.len() as u32;
        }
        match side.warrior_level {
            Some(13..) => 2,
            Some(7..=12) if round.is_multiple_of(2) => 2,
            _ => 1,
        }
    }

    /// The weapon a fighter holds in `slot`.
    fn arm_in(&self, s: usize, slot: Slot) -> Option<Arm> {
        match slot {
            Slot::Main => self.sides[s].weapon,
            Slot::Backup => self.sides[s].backup,
            Slot::Fists => None,
        }
    }

    /// How a side attacks right now: a defender whose weapon gave way in a wrestling bout punches.
    fn mode_now(&self, s: usize, fighter: &Fighter) -> Mode {
        match self.sides[s].mode {
            Mode::Weapon { .. } if fighter.slot == Slot::Fists => Mode::Punch,
            m => m,
        }
    }

    /// Both fighters as a fight starts: hit points rolled (attacker first), main weapons in hand.
    fn start<R: Roller + ?Sized>(&self, rng: &mut R) -> [Fighter; 2] {
        [ATTACKER, VICTIM].map(|s| Fighter {
            hp: self.sides[s].hp.roll(rng),
            real: 0,
            temporary: 0,
            stunned_through: 0,
            prone_since: None,
            pinned: false,
            holding: 0,
            hold_began: 0,
            held: false,
            slot: if self.sides[s].weapon.is_some() {
                Slot::Main
            } else {
                Slot::Fists
            },
        })
    }

    /// One fight.
    pub fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> FightOutcome {
        let mut f = self.start(rng);
        self.fight(&mut f, rng)
    }

    fn fight<R: Roller + ?Sized>(&self, f: &mut [Fighter; 2], rng: &mut R) -> FightOutcome {
        let death_at = self.options.death_at;
        let mut bout_began: Option<u32> = None;
        // Rounds left until temporary damage heals (a countdown, not a division per round).
        let mut heal_in = self.options.temp_heal_rounds;
        for round in 1..=self.max_rounds {
            // After the first round of a wrestling bout only size S weapons can be used.
            if bout_began.is_some_and(|b| round > b) {
                for s in [ATTACKER, VICTIM] {
                    if f[s].slot == Slot::Main
                        && self.sides[s].weapon.is_some_and(|a| a.size > Size::S)
                    {
                        f[s].slot = if self.sides[s].backup.is_some() {
                            Slot::Backup
                        } else {
                            Slot::Fists
                        };
                    }
                }
            }
            let initiative = [rng.die(10), rng.die(10)];
            let attacker_tries = f[ATTACKER].can_act(round, death_at);
            let armed = self.brawl
                && attacker_tries
                && self.sides[VICTIM].armed
                && matches!(self.sides[VICTIM].mode, Mode::Weapon { .. })
                && f[VICTIM].slot != Slot::Fists;
            let bonus = self.options.armed_defender_bonus;
            if armed && !self.options.armed_defender_extra_attack {
                // The armed defender resolves all his attacks first, at +4 to hit and damage.
                if f[VICTIM].can_act(round, death_at) {
                    let n = self.attacks(VICTIM, round);
                    self.turn(VICTIM, f, round, n, bonus, &mut bout_began, rng);
                }
                if f[ATTACKER].can_act(round, death_at) {
                    let n = self.attacks(ATTACKER, round);
                    self.turn(ATTACKER, f, round, n, 0, &mut bout_began, rng);
                }
            } else {
                if armed && f[VICTIM].can_act(round, death_at) {
                    // One extra attack at +4 before the round; his normal attacks follow initiative. It is
                    // an attack, not his turn: a held defender still spends his first normal attack on the
                    // contest, not this one.
                    self.attack(VICTIM, f, round, bonus, None, &mut bout_began, rng);
                }
                let order = match initiative[ATTACKER].cmp(&initiative[VICTIM]) {
                    std::cmp::Ordering::Less => [Some(ATTACKER), Some(VICTIM)],
                    std::cmp::Ordering::Greater => [Some(VICTIM), Some(ATTACKER)],
                    std::cmp::Ordering::Equal => [None, None],
                };
                if let [Some(first), Some(second)] = order {
                    for s in [first, second] {
                        if f[s].can_act(round, death_at) {
                            let n = self.attacks(s, round);
                            self.turn(s, f, round, n, 0, &mut bout_began, rng);
                        }
                    }
                } else {
                    // Simultaneous: both sides' attacks are rolled and all their effects apply together.
                    let able = [
                        f[ATTACKER].can_act(round, death_at),
                        f[VICTIM].can_act(round, death_at),
                    ];
                    for s in [ATTACKER, VICTIM] {
                        if able[s] {
                            let n = self.attacks(s, round);
                            self.turn(s, f, round, n, 0, &mut bout_began, rng);
                        }
                    }
                }
            }
            let down = [f[ATTACKER].down(death_at), f[VICTIM].down(death_at)];
            if down[ATTACKER] || down[VICTIM] {
                let ending = match down {
                    [true, true] => Ending::BothDown,
                    [false, true] => Ending::AttackerWins,
                    _ => Ending::VictimWins,
                };
                return FightOutcome {
                    ending,
                    rounds: round,
                    killed: [f[ATTACKER].dead(death_at), f[VICTIM].dead(death_at)],
                };
            }
            heal_in -= 1;
            if heal_in == 0 {
                heal_in = self.options.temp_heal_rounds;
                for fighter in f.iter_mut() {
                    fighter.temporary = (fighter.temporary - 1).max(0);
                }
            }
        }
        FightOutcome {
            ending: Ending::Timeout,
            rounds: self.max_rounds,
            killed: [false, false],
        }
    }

    /// One side's turn: `n` attacks (the first spent breaking a hold, or keeping one), each resolving even
    /// after the target has fallen. `bonus` is the armed defender's +4 to hit and damage.
    #[allow(clippy::too_many_arguments)]
    fn turn<R: Roller + ?Sized>(
        &self,
        s: usize,
        f: &mut [Fighter; 2],
        round: u32,
        n: u32,
        bonus: i32,
        bout_began: &mut Option<u32>,
        rng: &mut R,
    ) {
        let o = 1 - s;
        for i in 0..n {
            if i == 0 && f[s].held {
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
                continue;
            }
            if i == 0 && f[s].holding > 0 && f[s].hold_began < round {
                // Keeping the hold is the holder's attack: k + Strength in its k-th round.
                f[s].holding += 1;
                let d = wrestling_damage(
                    f[s].holding,
                    self.sides[s].damage_adjustment,
                    self.options.rounding,
                );
                f[o].take(d);
                continue;
            }
            let natural = self.sides[s].natural.get(i as usize).copied();
            self.attack(s, f, round, bonus, natural, bout_began, rng);
        }
    }

    /// One attack by side `s` in its current mode.
    #[allow(clippy::too_many_arguments)]
    fn attack<R: Roller + ?Sized>(
        &self,
        s: usize,
        f: &mut [Fighter; 2],
        round: u32,
        bonus: i32,
        natural: Option<Dice>,
        bout_began: &mut Option<u32>,
        rng: &mut R,
    ) {
        let o = 1 - s;
        let me = &self.sides[s];
        let them = &self.sides[o];
        let mode = self.mode_now(s, &f[s]);
        let target_helpless = f[o].stunned(round);
        let prone = f[o].prone_since.is_some();
        let mut modifier = bonus;
        if target_helpless || (prone && mode != Mode::Overbear) {
            modifier += 4;
        }
        if f[s].held && mode != Mode::Wrestle {
            modifier -= 4;
        }
        let rounding = self.options.rounding;
        let roll = |modifier: i32| AttackRoll::new(me.thac0, them.ac, modifier, &self.options);
        match mode {
            Mode::Weapon {
                held_back: holding_back,
            } => {
                let Some(weapon) = self.arm_in(s, f[s].slot) else {
                    return;
                };
                let penalty = if holding_back { HELD_BACK_PENALTY } else { 0 };
                let attack = roll(modifier + me.hit_adjustment + weapon.magic + penalty);
                if attack.roll(rng).hit {
                    let rolled =
                        (weapon.dice.roll(rng) + me.damage_adjustment + weapon.magic + bonus)
                            .max(1);
                    f[o].take(blow_damage(rolled, holding_back, rounding));
                }
            }
            Mode::Natural {
                held_back: holding_back,
            } => {
                let dice = natural.or_else(|| me.natural.first().copied());
                let Some(dice) = dice else { return };
                // Natural attacks: a plain d20, no Strength or magic; −4 when held back.
                let penalty = if holding_back { HELD_BACK_PENALTY } else { 0 };
                if roll(modifier + penalty).roll(rng).hit {
                    f[o].take(blow_damage(dice.roll(rng).max(1), holding_back, rounding));
                }
            }
            Mode::Punch => {
                let blow = punch(
                    &roll(modifier + me.hit_adjustment),
                    me.damage_adjustment,
                    rounding,
                    rng,
                );
                f[o].take(blow.damage);
                if let Some(k) = blow.stun {
                    f[o].stunned_through = f[o].stunned_through.max(round + k);
                }
            }
            Mode::Wrestle => {
                bout_began.get_or_insert(round);
                let blow = wrestle(
                    &roll(modifier + me.hit_adjustment + me.armor_penalty),
                    me.damage_adjustment,
                    rounding,
                    rng,
                );
                f[o].take(blow.damage);
                if blow.hold && f[s].holding == 0 {
                    f[s].holding = 1;
                    f[s].hold_began = round;
                    f[o].held = true;
                }
            }
            Mode::Overbear => {
                let attack = roll(
                    modifier + me.hit_adjustment + overbear_modifier(me.size, them.size, them.legs),
                );
                if attack.roll(rng).hit {
                    match f[o].prone_since {
                        Some(r) if r < round => f[o].pinned = true,
                        Some(_) => {}
                        None => f[o].prone_since = Some(round),
                    }
                }
            }
        }
    }
}

/// A weapon's or a natural attack's damage: all real at full force, the held-back split otherwise.
fn blow_damage(
    rolled: i32,
    held_back_blow: bool,
    rounding: crate::rules::options::Rounding,
) -> Damage {
    if held_back_blow {
        held_back(rolled, rounding)
    } else {
        let total = rolled.max(1) as u32;
        Damage {
            total,
            real: total,
            temporary: 0,
        }
    }
}

#[cfg(test)]
mod tests;
