//! SAP: a called shot at −8 meant to knock out rather than wound; 5% knockout per point of damage up to 40%,
//! or against a sleeping or held victim an automatic hit with 10% per point up to 80% and a chance to wake
//! him (docs/rules.md §4). The blow's damage also meets the victim's hit points: a heavy sap can drop or
//! kill the sentry it meant to put to sleep, and `p_out` counts every way he is out.

use crate::dice::{Dice, Paths, Roller, narrate};
use crate::rules::action::Fixed;
use crate::rules::attack::AttackRoll;
use crate::rules::catalog::Weapon;
use crate::rules::maneuver::{
    Counter, Distributions, Hist, Maneuver, Metrics, Record, Sink, Source,
};
use crate::rules::options::{Rounding, RuleOptions};
use crate::rules::rear;
use crate::rules::section::{Section, Terms};
use crate::rules::strike::{DAMAGE, DOWN, HIT, KILLED, record_blow};
use crate::rules::tables::Size;
use crate::rules::{Combatant, Damage, Ineligible, Matchup, Vitals, Wound};

/// The knockout roll.
const D100: Dice = Dice::of(1, 100, 0);

/// How the knockout d100 is read for one kind of victim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnockoutChance {
    /// Percent per point of damage.
    pub per_point: u32,
    /// Largest chance, percent.
    pub cap: u32,
    /// A d100 at or above this wakes the victim (101: never).
    pub wake_at: u32,
}

impl KnockoutChance {
    /// The chance against an awake victim: `sap_ko_per_point` percent a point up to `sap_ko_cap`, and
    /// nobody to wake. A sap inside a fight reads its knockout d100 by this too.
    pub fn awake(options: &RuleOptions) -> KnockoutChance {
        KnockoutChance {
            per_point: options.sap_ko_per_point,
            cap: options.sap_ko_cap,
            wake_at: 101,
        }
    }

    /// The chance, in percent, for a blow of `damage` points.
    #[inline]
    pub fn percent(&self, damage: u32) -> u32 {
        self.per_point.saturating_mul(damage).min(self.cap)
    }

    /// The knockout d100 for a blow of `damage` points: `Some(true)` knocks out (at most the chance),
    /// `Some(false)` wakes a sleeper (at `wake_at` or more and not a knockout), `None` neither. Asked as a
    /// region of the d100, so that the exact enumerator walks three branches rather than a hundred.
    #[inline]
    pub fn roll<R: Roller + ?Sized>(&self, damage: u32, rng: &mut R) -> Option<bool> {
        let chance = self.percent(damage) as i32;
        narrate!(
            rng,
            Section::Sap,
            "Knockout roll: {}% a point of damage, at most {}%: {damage} points give {chance}%, so a d100 of {chance} or less knocks out{}.",
            self.per_point,
            self.cap,
            if self.wake_at <= 100 {
                format!(", and {} or more wakes the sleeper", self.wake_at)
            } else {
                String::new()
            }
        );
        // Not a knockout and at least `wake_at`: above both the chance and `wake_at - 1`.
        let quiet_to = chance.max(self.wake_at as i32 - 1);
        // The region: 0 a knockout, 1 nothing, 2 the sleeper wakes.
        let region = rng.region(&D100, &[chance, quiet_to]);
        let reading = KnockoutChance::read(region);
        narrate!(
            rng,
            Section::Sap,
            "{}",
            match reading {
                Some(true) => "A knockout.",
                Some(false) => "No knockout, and the blow wakes the sleeper.",
                None => "No knockout.",
            }
        );
        reading
    }

    /// The paths of [`KnockoutChance::roll`], each reading followed by `after(reading)`.
    pub fn paths(&self, after: impl Fn(Option<bool>) -> Paths) -> Paths {
        Paths::region(&D100, 3, |region| after(KnockoutChance::read(region)))
    }

    /// What a region of the knockout d100 means: 0 a knockout, 1 nothing, 2 the sleeper wakes.
    #[inline]
    fn read(region: usize) -> Option<bool> {
        if region == 0 {
            Some(true)
        } else if region == 1 {
            None
        } else {
            Some(false)
        }
    }
}

/// A sap prepared for one matchup.
#[derive(Debug, Clone, PartialEq)]
pub struct Sap {
    /// The −8 called shot, or an automatic hit on a sleeping or held victim.
    pub attack: AttackRoll,
    /// The weapon's dice against the victim's size.
    pub damage: Dice,
    /// Strength's damage adjustment (the weapon's magic does not count).
    pub damage_bonus: i32,
    /// The knockout and wake thresholds.
    pub chance: KnockoutChance,
    /// How long a knockout lasts.
    pub ko_rounds: Dice,
    /// How the 25% real share is rounded.
    pub rounding: Rounding,
    /// The victim's hit points.
    pub vitals: Vitals,
    /// The victim sleeps or is held as the sap lands (and may sleep on).
    pub sleeper: bool,
    /// The terms of the attack's modifier, named for a narration.
    pub to_hit: Terms,
    /// Rounds the sapper needs to tie his victim up (`bind_rounds`; 0: at once).
    pub bind_rounds: u32,
    /// Temporary damage heals a point every this many rounds.
    pub temp_heal_rounds: u32,
    /// The heals of temporary damage that come before he is tied (`(bind_rounds − 1) / temp_heal_rounds`,
    /// folded once per point): heal `n` comes `n × temp_heal_rounds` rounds after the sap, and he wakes
    /// first when that is fewer than `bind_rounds`, as a fight's loser does.
    pub heals_before_bound: u32,
}

/// One sap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SapOutcome {
    /// The blow landed.
    pub hit: bool,
    /// Its damage (zero on a miss).
    pub damage: Damage,
    /// Knocked out, for this many rounds.
    pub ko_rounds: Option<u32>,
    /// A sleeping or held victim's knockout d100 woke him instead (he may still have dropped from the
    /// damage: see [`SapOutcome::woken`]).
    pub woke: bool,
    /// The victim slept, or was held, as the sap landed.
    pub sleeper: bool,
    /// What the damage did to his hit points (nothing on a miss).
    pub wound: Wound,
    /// Out and alive, and awake again before the sapper had him tied (docs/rules.md §6 "After the blow").
    pub woke_before_bound: bool,
}

impl SapOutcome {
    /// Woken and still standing: the sleeper the sap roused, who can now raise the alarm (the `p_wake`
    /// metric; a wake the damage itself undid is not one, docs/rules.md §4).
    pub fn woken(&self) -> bool {
        self.woke && !self.wound.down
    }

    /// A sleeping or held victim whom the sap hit and neither knocked out, nor woke, nor dropped: he sleeps
    /// on (the `p_sleeps_on` metric).
    pub fn sleeps_on(&self) -> bool {
        self.sleeper && self.hit && self.ko_rounds.is_none() && !self.woke && !self.wound.down
    }

    /// No alarm: out by either way, or still asleep or held (the `p_silent` metric).
    pub fn silent(&self) -> bool {
        self.out() || self.sleeps_on()
    }

    /// Out of the fight by either way: knocked out by the rule, or down by the damage (the `p_out`
    /// metric, the sap's headline).
    pub fn out(&self) -> bool {
        self.ko_rounds.is_some() || self.wound.down
    }

    /// The sap's result in words, the last step of a narrated sap.
    pub fn words(&self) -> String {
        let result = if !self.hit {
            "The sap misses: the victim is untouched".to_string()
        } else if self.wound.killed {
            "The sap kills the victim".to_string()
        } else if let Some(rounds) = self.ko_rounds {
            format!("The victim is out for {rounds} rounds")
        } else if self.wound.down {
            "The victim is down from the damage".to_string()
        } else if self.woken() {
            "The victim wakes and can raise the alarm".to_string()
        } else if self.sleeps_on() {
            "The victim sleeps on".to_string()
        } else {
            format!("The victim stands, {} points the worse", self.damage.total)
        };
        if self.woke_before_bound {
            format!("{result}, and wakes before he is tied.")
        } else {
            format!("{result}.")
        }
    }
}

/// Whether a sap is allowed: victims of size T, S or M only, and never with a missile weapon (a missile
/// holder saps with his melee `backup_weapon` if he has one).
pub fn eligibility(m: &Matchup) -> Result<(), Ineligible> {
    if m.victim.size > Size::M {
        return Err(Ineligible::TooLarge(m.victim.size));
    }
    sapping_weapon(&m.attacker).map(|_| ())
}

/// The weapon a sap is struck with: the one in hand, or a missile holder's melee backup, or his fists.
fn sapping_weapon(attacker: &Combatant) -> Result<&Weapon, Ineligible> {
    attacker
        .in_melee()
        .0
        .ok_or_else(|| Ineligible::Missile(attacker.weapon.name.clone()))
}

/// The sap's damage split: 25% real, the rest temporary, as for punching ([`Damage::quarter_real`]).
pub fn sap_damage(total: u32, rounding: Rounding) -> Damage {
    Damage::quarter_real(total, rounding)
}

/// The sap's to-hit modifier: the called shot's `sap_penalty` and Strength's adjustment, the weapon's magic
/// left out (docs/rules.md §4). A sap inside a fight is rolled with it too.
pub fn to_hit_modifier(attacker: &Combatant, options: &RuleOptions) -> i32 {
    to_hit_terms(attacker, options).total()
}

/// The terms of [`to_hit_modifier`], named.
pub fn to_hit_terms(attacker: &Combatant, options: &RuleOptions) -> Terms {
    Terms::new()
        .with("called shot", options.sap_penalty)
        .with("Strength", attacker.hit_adjustment())
}

/// A sap's damage total: the dice rolled plus what is added, at least 1.
#[inline]
pub fn sap_total(rolled_and_added: i32) -> u32 {
    rolled_and_added.max(1) as u32
}

impl Sap {
    /// Checks eligibility and folds the tables into the attack and the knockout thresholds.
    pub fn prepare(m: &Matchup, options: &RuleOptions) -> Result<Sap, Ineligible> {
        eligibility(m)?;
        let (attacker, victim) = (&m.attacker, &m.victim);
        let to_hit = to_hit_terms(attacker, options);
        let (attack, chance, to_hit) = if victim.state.is_helpless() {
            (
                AttackRoll::automatic(to_hit.total()),
                KnockoutChance {
                    per_point: options.sap_helpless_ko_per_point,
                    cap: options.sap_helpless_ko_cap,
                    wake_at: options.sap_wake_at,
                },
                to_hit,
            )
        } else {
            let (attack, to_hit) = rear::attack_roll(attacker, victim, to_hit, options);
            (attack, KnockoutChance::awake(options), to_hit)
        };
        Ok(Sap {
            attack,
            damage: sapping_weapon(attacker)?.damage_against(victim.size),
            damage_bonus: attacker.damage_adjustment(),
            chance,
            ko_rounds: options.sap_ko_rounds,
            rounding: options.rounding,
            vitals: Vitals::of(m, options),
            sleeper: victim.state.is_helpless(),
            to_hit,
            bind_rounds: 0,
            temp_heal_rounds: options.temp_heal_rounds,
            heals_before_bound: 0,
        })
    }

    /// The sap with the rounds the sapper needs to tie up his fallen victim.
    pub fn with_bind_rounds(self, bind_rounds: u32) -> Sap {
        Sap {
            bind_rounds,
            heals_before_bound: bind_rounds.saturating_sub(1) / self.temp_heal_rounds,
            ..self
        }
    }

    /// One sap: the attack, the damage (at least 1), the knockout d100, the knockout's length, then the
    /// victim's hit points.
    #[inline]
    pub fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> SapOutcome {
        let mut out = self.blow(rng);
        if !out.hit {
            narrate!(rng, Section::Sap, "{}", out.words());
            return out;
        }
        if self.bind_rounds == 0 {
            out.wound = self.vitals.wound(out.damage, rng);
            narrate!(rng, Section::Sap, "{}", out.words());
            return out;
        }
        let (wound, healed) = self
            .vitals
            .wound_healed(out.damage, self.heals_before_bound, rng);
        out.wound = wound;
        let knockout_over = out.ko_rounds.is_none_or(|k| k < self.bind_rounds);
        let wound_over = !wound.down || healed;
        out.woke_before_bound = out.out() && !wound.killed && knockout_over && wound_over;
        narrate!(rng, Section::Sap, "{}", out.words());
        out
    }

    /// The paths of [`Sap::resolve`] for the exact count: the attack, then on a hit the damage, the
    /// knockout d100, the knockout's length on a knockout, and the victim's hit points.
    pub fn paths(&self) -> Paths {
        self.attack.paths(|swing| {
            if !swing.hit {
                return Paths::END;
            }
            let knockout = self.chance.paths(|reading| match reading {
                Some(true) => Paths::roll(&self.ko_rounds),
                Some(false) | None => Paths::END,
            });
            let vitals = if self.bind_rounds == 0 {
                self.vitals.paths()
            } else {
                self.vitals.paths_healed()
            };
            Paths::roll(&self.damage).then(knockout).then(vitals)
        })
    }

    /// The blow alone, without the victim's hit points (its `wound` is empty): a fight that opens with a sap
    /// applies the damage to the hit points it rolled itself.
    #[inline]
    pub fn blow<R: Roller + ?Sized>(&self, rng: &mut R) -> SapOutcome {
        narrate!(
            rng,
            Section::Sap,
            "The sapper swings a called shot to knock out rather than wound; to hit: {}.",
            self.to_hit.words()
        );
        if !self.attack.roll(rng).hit {
            return SapOutcome {
                hit: false,
                damage: Damage::default(),
                ko_rounds: None,
                woke: false,
                sleeper: self.sleeper,
                wound: Wound::default(),
                woke_before_bound: false,
            };
        }
        narrate!(
            rng,
            Section::Sap,
            "Damage: {}{} (at least 1), a quarter of it real and the rest temporary.",
            self.damage,
            crate::rules::added(self.damage_bonus, "Strength")
        );
        let total = sap_total(self.damage.roll(rng) + self.damage_bonus);
        // The split is made where the outcome is built, as it always was: made here, it would be held
        // across the knockout's dice on every trial, not only on a told one.
        narrate!(rng, Section::Sap, "{total} points: {}.", {
            let told = sap_damage(total, self.rounding);
            format!("{} real, {} temporary", told.real, told.temporary)
        });
        let knockout = self.chance.roll(total, rng);
        let ko_rounds = (knockout == Some(true)).then(|| {
            narrate!(
                rng,
                Section::Sap,
                "Knocked out for {} rounds (at least one).",
                self.ko_rounds
            );
            let rounds = self.ko_rounds.roll(rng).max(1) as u32;
            narrate!(rng, Section::Sap, "He lies senseless for {rounds} rounds.");
            rounds
        });
        SapOutcome {
            hit: true,
            damage: sap_damage(total, self.rounding),
            ko_rounds,
            woke: knockout == Some(false),
            sleeper: self.sleeper,
            wound: Wound::default(),
            woke_before_bound: false,
        }
    }
}

// The tally of a sap: a strike's (HIT, DOWN, KILLED, DAMAGE), and the knockout's.
const KNOCKOUT: Counter = Counter(1);
const WOKE: Counter = Counter(2);
const OUT: Counter = Counter(5);
const SLEEPS_ON: Counter = Counter(6);
const SILENT: Counter = Counter(7);
const WOKE_BEFORE_BOUND: Counter = Counter(8);
const KO_ROUNDS: Hist = Hist(1);

/// A sap's summary metrics, headline first (docs/scenarios.md "Metrics").
pub const METRICS: Metrics = &[
    ("p_out", Source::Count(OUT)),
    ("p_knockout", Source::Count(KNOCKOUT)),
    ("p_hit", Source::Count(HIT)),
    ("p_wake", Source::Count(WOKE)),
    ("p_sleeps_on", Source::Count(SLEEPS_ON)),
    ("p_silent", Source::Count(SILENT)),
    ("p_down", Source::Count(DOWN)),
    ("p_killed", Source::Count(KILLED)),
    ("p_woke_before_bound", Source::Count(WOKE_BEFORE_BOUND)),
    ("damage", Source::Mean(DAMAGE)),
    ("damage_real", Source::RealPart(DAMAGE)),
    ("damage_temporary", Source::TemporaryPart(DAMAGE)),
    ("ko_rounds", Source::Mean(KO_ROUNDS)),
    ("roll_needed", Source::RollNeeded),
];

/// A sap's distributions.
pub const DISTRIBUTIONS: Distributions = &[("damage", DAMAGE), ("ko_rounds", KO_ROUNDS)];

impl Record for SapOutcome {
    #[inline]
    fn record<S: Sink>(&self, s: &mut S) {
        if self.hit {
            record_blow(self.damage, self.wound, s);
        }
        s.count(WOKE, self.woken());
        s.count(SLEEPS_ON, self.sleeps_on());
        s.count(SILENT, self.silent());
        s.count(OUT, self.out());
        s.count(WOKE_BEFORE_BOUND, self.woke_before_bound);
        if let Some(rounds) = self.ko_rounds {
            s.count(KNOCKOUT, true);
            s.observe(KO_ROUNDS, i64::from(rounds));
        }
    }
}

impl Maneuver for Sap {
    type Outcome = SapOutcome;

    #[inline]
    fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> SapOutcome {
        Sap::resolve(self, rng)
    }

    fn paths(&self) -> Option<Paths> {
        Some(Sap::paths(self))
    }

    fn fixed(&self) -> Fixed {
        Fixed {
            roll_needed: Some(self.attack.needed()),
            ..Fixed::default()
        }
    }

    fn range(&self, hist: Hist) -> Option<(i64, i64)> {
        if hist == DAMAGE {
            Some((1, i64::from(self.damage.max() + self.damage_bonus)))
        } else if hist == KO_ROUNDS {
            Some((1, i64::from(self.ko_rounds.max())))
        } else {
            None
        }
    }

    fn split(&self, total: u32) -> Damage {
        sap_damage(total, self.rounding)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::rules::matchup;

    const FIGHTER: &str =
        "class = \"fighter\"\nlevel = 5\nweapon = { name = \"club\", magic = 2 }\nstrength = 17";
    const GUARD: &str = "class = \"fighter\"\nlevel = 1\nac = 6\nhp = 20";
    const SLEEPER: &str = "class = \"fighter\"\nlevel = 1\nac = 6\nstate = \"asleep\"\nhp = 20";

    fn sap(victim: &str, options: &RuleOptions) -> Sap {
        Sap::prepare(&matchup(FIGHTER, victim), options).unwrap()
    }

    /// `roll_needed` of a sap by [`FIGHTER`] in front and from behind, with `options`.
    fn front_and_rear(victim: &str, options: &RuleOptions) -> (i32, i32) {
        let behind = format!("{FIGHTER}\nposition = \"behind\"");
        let rear = Sap::prepare(&matchup(&behind, victim), options).unwrap();
        (sap(victim, options).attack.needed(), rear.attack.needed())
    }

    #[test]
    fn a_sap_from_behind_needs_2_less_and_ignores_the_shield_and_dexterity_bonus() {
        // THAC0 16, −8 + 1 to hit. AC 6, no shield, Dexterity 10: 16 − 6 + 7 = 17 in front, 2 less behind.
        let o = RuleOptions::default();
        assert_eq!(front_and_rear(GUARD, &o), (17, 15));
        // A shield and Dexterity 16 make it AC 3 in front (20); behind, AC 6 again and +2: 15.
        let shielded =
            "class = \"fighter\"\nlevel = 1\nac = 6\nshield = 1\ndexterity = 16\nhp = 20";
        assert_eq!(front_and_rear(shielded, &o), (20, 15));
        // No rear attack rule: today's numbers, position or not.
        let off = RuleOptions {
            rear_attack_bonus: 0,
            ..RuleOptions::default()
        };
        assert_eq!(front_and_rear(GUARD, &off), (17, 17));
        assert_eq!(front_and_rear(shielded, &off), (20, 20));
    }

    #[test]
    fn a_sap_is_at_minus_8_with_strength_but_without_magic() {
        let s = sap(GUARD, &RuleOptions::default());
        assert_eq!(s.attack.modifier, -8 + 1);
        assert_eq!(s.attack.target, 16 - 6);
        assert_eq!(s.damage_bonus, 1);
        let o = RuleOptions {
            sap_penalty: -6,
            ..RuleOptions::default()
        };
        assert_eq!(sap(GUARD, &o).attack.modifier, -6 + 1);
    }

    #[test]
    fn five_percent_a_point_capped_at_40() {
        let s = sap(GUARD, &RuleOptions::default());
        let chances: Vec<u32> = (0..=10).map(|d| s.chance.percent(d)).collect();
        assert_eq!(chances, [0, 5, 10, 15, 20, 25, 30, 35, 40, 40, 40]);
        assert_eq!(s.chance.wake_at, 101);
    }

    #[test]
    fn ten_percent_a_point_capped_at_80_against_sleepers() {
        let s = sap(SLEEPER, &RuleOptions::default());
        let chances: Vec<u32> = (0..=10).map(|d| s.chance.percent(d)).collect();
        assert_eq!(chances, [0, 10, 20, 30, 40, 50, 60, 70, 80, 80, 80]);
        assert!(s.attack.is_automatic());
        assert_eq!(s.chance.wake_at, 81);
    }

    #[test]
    fn a_quarter_of_the_damage_is_real() {
        let split = |d| {
            let x = sap_damage(d, Rounding::HalfDown);
            (x.real, x.temporary)
        };
        assert_eq!(split(1), (0, 1));
        assert_eq!(split(2), (0, 2));
        assert_eq!(split(3), (1, 2));
        assert_eq!(split(4), (1, 3));
        assert_eq!(split(6), (1, 5));
        assert_eq!(split(7), (2, 5));
        assert_eq!(split(14), (3, 11));
        assert_eq!(sap_damage(2, Rounding::Up).real, 1);
        assert_eq!(sap_damage(7, Rounding::Down).real, 1);
    }

    #[test]
    fn only_t_s_and_m_victims_and_never_missiles() {
        let o = RuleOptions::default();
        assert_eq!(
            Sap::prepare(&matchup(FIGHTER, "monster = \"ogre\""), &o),
            Err(Ineligible::TooLarge(Size::L))
        );
        assert!(Sap::prepare(&matchup(FIGHTER, "monster = \"kobold\""), &o).is_ok());
        assert!(Sap::prepare(&matchup(FIGHTER, "monster = \"orc\""), &o).is_ok());
        assert!(Sap::prepare(&matchup(FIGHTER, "class = \"thief\"\nsize = \"T\""), &o).is_ok());
        assert!(matches!(
            Sap::prepare(
                &matchup("class = \"fighter\"\nweapon = \"sling\"", GUARD),
                &o
            ),
            Err(Ineligible::Missile(_))
        ));
        assert!(Sap::prepare(&matchup("class = \"fighter\"", GUARD), &o).is_ok());
        // An archer saps with his melee backup, and its damage.
        let archer = "class = \"fighter\"\nweapon = \"short bow\"\nbackup_weapon = \"dagger\"";
        let s = Sap::prepare(&matchup(archer, GUARD), &o).unwrap();
        assert_eq!(s.damage, Dice::of(1, 4, 0));
    }

    #[test]
    fn a_miss_does_nothing() {
        // Needs 10 + 7 = 17.
        let mut dice = Scripted::new([16]);
        let out = sap(GUARD, &RuleOptions::default()).resolve(&mut dice);
        assert!(!out.hit && out.ko_rounds.is_none() && out.damage == Damage::default());
    }

    #[test]
    fn a_hit_under_the_chance_knocks_out() {
        // Hit on 17, club 5 + 1 = 6 damage: 30%; d100 = 30 knocks out for 2d8 = 2 + 7.
        let mut dice = Scripted::new([17, 5, 30, 2, 7]);
        let out = sap(GUARD, &RuleOptions::default()).resolve(&mut dice);
        assert_eq!(
            out,
            SapOutcome {
                hit: true,
                damage: Damage {
                    total: 6,
                    real: 1,
                    temporary: 5
                },
                ko_rounds: Some(9),
                woke: false,
                sleeper: false,
                wound: Wound::default(),
                woke_before_bound: false,
            }
        );
        assert_eq!(dice.requests(), &[20, 6, 100, 8, 8]);
    }

    /// "Taken means tied before he wakes" (docs/rules.md §6 "After the blow"): a knockout of 9 rounds
    /// outlasts a binding of 9 rounds but not one of 10; a victim of 5 hit points dropped by 6 points
    /// (1 real) needs two heals, 10 rounds, so he wakes first only when the binding takes 11 rounds or more.
    #[test]
    fn a_sapped_victim_wakes_before_he_is_tied_when_his_clock_is_shorter_than_the_binding() {
        let bound = |victim: &str, bind: u32, faces: &[u32]| {
            sap(victim, &RuleOptions::default())
                .with_bind_rounds(bind)
                .resolve(&mut Scripted::new(faces.iter().copied()))
        };
        let knockout = [17, 5, 30, 2, 7];
        assert!(!bound(GUARD, 9, &knockout).woke_before_bound);
        assert!(bound(GUARD, 10, &knockout).woke_before_bound);
        assert!(!bound(GUARD, 0, &knockout).woke_before_bound);
        let frail = "class = \"fighter\"\nlevel = 1\nac = 6\nhp = 5";
        let dropped = [17, 5, 99];
        let out = bound(frail, 10, &dropped);
        assert!(out.wound.down && !out.wound.killed && out.ko_rounds.is_none());
        assert!(!out.woke_before_bound);
        assert!(bound(frail, 11, &dropped).woke_before_bound);
        // One hit point less: 1 real of 4 is all he has; dead, he never wakes.
        let out = bound(
            "class = \"fighter\"\nlevel = 1\nac = 6\nhp = 1",
            50,
            &dropped,
        );
        assert!(out.wound.killed && !out.woke_before_bound);
        // A knockout and a drop together: both clocks must run out (9 rounds, and 10).
        let both = [17, 5, 30, 2, 7];
        assert!(!bound(frail, 10, &both).woke_before_bound);
        assert!(bound(frail, 11, &both).woke_before_bound);
    }

    #[test]
    fn a_hit_over_the_chance_only_hurts() {
        let mut dice = Scripted::new([20, 5, 31]);
        let out = sap(GUARD, &RuleOptions::default()).resolve(&mut dice);
        assert!(out.hit && out.ko_rounds.is_none() && !out.woke);
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn a_sleeper_is_hit_automatically_and_may_sleep_on_or_wake() {
        let s = sap(SLEEPER, &RuleOptions::default());
        // 3 + 1 = 4 damage: 40%.
        let mut ko = Scripted::new([3, 40, 8, 8]);
        assert_eq!(s.resolve(&mut ko).ko_rounds, Some(16));
        assert_eq!(ko.requests(), &[6, 100, 8, 8]);
        let mut nothing = Scripted::new([3, 80]);
        let out = s.resolve(&mut nothing);
        assert!(out.hit && out.ko_rounds.is_none() && !out.woke);
        let mut wakes = Scripted::new([3, 81]);
        assert!(s.resolve(&mut wakes).woke);
        // Past 8 points the chance stays at 80: 81 still wakes him.
        let mut strong = Scripted::new([6, 81]);
        let big = Sap::prepare(
            &matchup(
                "class = \"fighter\"\nweapon = \"club\"\nstrength = \"18/00\"",
                SLEEPER,
            ),
            &RuleOptions::default(),
        )
        .unwrap();
        let out = big.resolve(&mut strong);
        assert_eq!(out.damage.total, 12);
        assert!(out.woke && out.ko_rounds.is_none());
    }

    /// "`p_wake` is woken *and still standing*; `p_sleeps_on` (hit, no knockout, not woken, not down) and
    /// `p_silent` (out, or still asleep or held: the sentry raises no alarm)." A sleeper of 20 hit points:
    /// 3 + 1 = 4 points and a d100 of 80 (over 40, under 81): he sleeps on, silent. A d100 of 81 wakes him:
    /// not silent. A sleeper of 4 hit points whom the same 81 wakes is dropped by the 4 points: no waking
    /// counts, and he is silent (out). Against an awake victim nobody sleeps on.
    #[test]
    fn a_sleeper_who_sleeps_on_is_silent_and_a_wake_counts_only_standing() {
        let s = sap(SLEEPER, &RuleOptions::default());
        let on = s.resolve(&mut Scripted::new([3, 80]));
        assert!(on.sleeps_on() && on.silent() && !on.woken() && !on.out());
        let woke = s.resolve(&mut Scripted::new([3, 81]));
        assert!(woke.woken() && !woke.sleeps_on() && !woke.silent());
        let frail = SLEEPER.replace("hp = 20", "hp = 4");
        let dropped = sap(&frail, &RuleOptions::default()).resolve(&mut Scripted::new([3, 81]));
        assert!(dropped.woke && dropped.wound.down);
        assert!(!dropped.woken() && !dropped.sleeps_on() && dropped.silent() && dropped.out());
        // An awake guard the sap only hurts: no sleeping on, and he raises the alarm.
        let hurt = sap(GUARD, &RuleOptions::default()).resolve(&mut Scripted::new([20, 5, 31]));
        assert!(hurt.hit && !hurt.sleeps_on() && !hurt.silent());
        // The counters: p_wake, p_sleeps_on and p_silent read these.
        let mut tally = crate::stats::tally::Tally::default();
        for out in [on, woke, dropped, hurt] {
            out.record(&mut tally);
        }
        let count = |metric: &str| match METRICS.iter().find(|(m, _)| *m == metric) {
            Some((_, Source::Count(c))) => tally.counts[c.0],
            other => panic!("{metric}: {other:?}"),
        };
        assert_eq!(
            (count("p_wake"), count("p_sleeps_on"), count("p_silent")),
            (1, 1, 2)
        );
    }

    #[test]
    fn a_sap_meets_hit_points_and_p_out_counts_both_ways() {
        let o = RuleOptions::default();
        // The 18/00 sapper's club: 1d6 + 6. A roll of 6 is 12 points: 3 real (12 / 4), 9 temporary.
        let sapper = "class = \"fighter\"\nweapon = \"club\"\nstrength = \"18/00\"";
        let sentry = |hp: &str| format!("class = \"fighter\"\nlevel = 1\nac = 6\nhp = {hp}");
        let s = |hp: &str| Sap::prepare(&matchup(sapper, &sentry(hp)), &o).unwrap();
        // 12 points at 5% a point is capped at 40: a d100 of 41 does not knock out...
        let out = s("12").resolve(&mut Scripted::new([20, 6, 41]));
        assert_eq!(out.ko_rounds, None);
        // ...but 12 points leave a 12 hp sentry at 0: down, so out all the same; not killed.
        assert_eq!(
            out.wound,
            Wound {
                down: true,
                killed: false
            }
        );
        assert!(out.out());
        // 3 hp: the 3 real points alone kill him.
        let out = s("3").resolve(&mut Scripted::new([20, 6, 41]));
        assert_eq!(
            out.wound,
            Wound {
                down: true,
                killed: true
            }
        );
        // 13 hp: standing, not knocked out, not out.
        let out = s("13").resolve(&mut Scripted::new([20, 6, 41]));
        assert!(!out.wound.down && !out.out());
        // A knockout is out whatever the hit points.
        let out = s("13").resolve(&mut Scripted::new([20, 6, 40, 1, 1]));
        assert!(out.ko_rounds.is_some() && out.out());
        // Rolled hit points (a fighter's 1d10) are the last die, rolled only on a hit.
        let rolled = Sap::prepare(&matchup(sapper, "class = \"fighter\"\nac = 6"), &o).unwrap();
        let mut dice = Scripted::new([20, 6, 41, 10]);
        assert!(rolled.resolve(&mut dice).wound.down);
        assert_eq!(dice.requests(), &[20, 6, 100, 10]);
        let mut miss = Scripted::new([1]);
        assert_eq!(rolled.resolve(&mut miss).wound, Wound::default());
    }

    #[test]
    fn the_knockout_roll_reads_ko_quiet_and_wake_regions() {
        let sleeping = KnockoutChance {
            per_point: 10,
            cap: 80,
            wake_at: 81,
        };
        let read = |c: &KnockoutChance, damage, d100| c.roll(damage, &mut Scripted::new([d100]));
        assert_eq!(read(&sleeping, 4, 40), Some(true));
        assert_eq!(read(&sleeping, 4, 41), None);
        assert_eq!(read(&sleeping, 4, 80), None);
        assert_eq!(read(&sleeping, 4, 81), Some(false));
        assert_eq!(read(&sleeping, 9, 80), Some(true));
        assert_eq!(read(&sleeping, 9, 81), Some(false));
        // A wake threshold below the chance: only what is not a knockout can wake.
        let low_wake = KnockoutChance {
            wake_at: 30,
            ..sleeping
        };
        assert_eq!(read(&low_wake, 5, 50), Some(true));
        assert_eq!(read(&low_wake, 5, 51), Some(false));
        assert_eq!(read(&low_wake, 1, 29), None);
        assert_eq!(read(&low_wake, 1, 30), Some(false));
    }

    #[test]
    fn sap_wake_at_101_never_wakes() {
        let o = RuleOptions {
            sap_wake_at: 101,
            ..RuleOptions::default()
        };
        let mut dice = Scripted::new([3, 100]);
        assert!(!sap(SLEEPER, &o).resolve(&mut dice).woke);
    }

    #[test]
    fn bare_hands_sap_for_1d2_plus_strength_at_least_1() {
        let s = Sap::prepare(
            &matchup("class = \"fighter\"\nstrength = 3", GUARD),
            &RuleOptions::default(),
        )
        .unwrap();
        assert_eq!((s.damage.to_string(), s.damage_bonus), ("1d2".into(), -1));
        let mut dice = Scripted::new([20, 1, 100]);
        assert_eq!(s.resolve(&mut dice).damage.total, 1);
    }

    #[test]
    fn a_narrated_sap_tells_the_called_shot_the_damage_and_the_knockout() {
        let (out, steps) = crate::rules::told::steps([17, 5, 30, 2, 7], |d| {
            sap(GUARD, &RuleOptions::default()).resolve(d)
        });
        assert_eq!(out.ko_rounds, Some(9));
        assert_eq!(
            steps,
            [
                "The sapper swings a called shot to knock out rather than wound; to hit: -8 called shot, +1 Strength.",
                "Attack roll: a d20 -7 must reach 10 (THAC0 minus armor class), so 17 or more on the die.",
                "17 -7 = 10: a hit.",
                "Damage: 1d6 +1 Strength (at least 1), a quarter of it real and the rest temporary.",
                "6 points: 1 real, 5 temporary.",
                "Knockout roll: 5% a point of damage, at most 40%: 6 points give 30%, so a d100 of 30 or less knocks out.",
                "A knockout.",
                "Knocked out for 2d8 rounds (at least one).",
                "He lies senseless for 9 rounds.",
                "6 points of damage (1 real, 5 temporary) meet his 20 hit points: he drops if they leave him at 0 or below, and dies if the real part alone leaves him at 0 or below.",
                "He stays on his feet.",
                "The victim is out for 9 rounds.",
            ]
        );
    }

    #[test]
    fn a_narrated_sap_on_a_sleeper_tells_the_wake_threshold_and_the_waking() {
        let (out, steps) = crate::rules::told::steps([3, 81], |d| {
            sap(SLEEPER, &RuleOptions::default()).resolve(d)
        });
        assert!(out.woken());
        assert_eq!(
            steps[1],
            "The attack hits without a roll: the target is helpless."
        );
        assert!(steps.contains(&"Knockout roll: 10% a point of damage, at most 80%: 4 points give 40%, so a d100 of 40 or less knocks out, and 81 or more wakes the sleeper.".to_string()));
        assert!(steps.contains(&"No knockout, and the blow wakes the sleeper.".to_string()));
        assert_eq!(
            steps.last().unwrap(),
            "The victim wakes and can raise the alarm."
        );
        let (_, missed) =
            crate::rules::told::steps([16], |d| sap(GUARD, &RuleOptions::default()).resolve(d));
        assert_eq!(
            missed.last().unwrap(),
            "The sap misses: the victim is untouched."
        );
    }

    #[test]
    fn a_narrated_sap_tells_a_victim_tied_too_late() {
        let frail = "class = \"fighter\"\nlevel = 1\nac = 6\nhp = 5";
        let s = sap(frail, &RuleOptions::default()).with_bind_rounds(11);
        let (out, steps) = crate::rules::told::steps([17, 5, 99], |d| s.resolve(d));
        assert!(out.woke_before_bound);
        assert!(steps.contains(&"Down and unconscious, but enough temporary damage heals for him to wake before he is tied.".to_string()));
        assert_eq!(
            steps.last().unwrap(),
            "The victim is down from the damage, and wakes before he is tied."
        );
    }

    #[test]
    fn a_narrated_sap_comes_out_as_a_plain_one() {
        let o = RuleOptions::default();
        for victim in [
            "class = \"fighter\"\nlevel = 1\nac = 6",
            "class = \"fighter\"\nlevel = 1\nac = 6\nstate = \"asleep\"",
        ] {
            let s = Sap::prepare(&matchup(FIGHTER, victim), &o)
                .unwrap()
                .with_bind_rounds(6);
            let outs = crate::rules::told::same_as_plain(|d| s.resolve(d), |d| s.resolve(d));
            assert!(outs.iter().any(|o| o.ko_rounds.is_some()), "{victim}");
            assert!(outs.iter().any(|o| o.ko_rounds.is_none()), "{victim}");
        }
    }
}
