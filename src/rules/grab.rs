//! GRAB: grabbing an object (a called shot, then the Strength contest for control), a person (a wrestling
//! attack with two hands, a called shot at reduced Strength with one) and a monster (Strength moved by size)
//! (docs/rules.md §5).
//!
//! Every grab is an unarmed maneuver: Strength's to-hit adjustment counts, a weapon's magic does not, and an
//! armed victim strikes first at +4, as at any man who comes close bare-handed ([`crate::rules::
//! armed_defender`]): a grabber it drops grabs nothing, one who stands grabs as if unhurt. The grabs of
//! persons and monsters read the wrestling column: a hold row is a hold, which the victim then tries to
//! break with the contest. Their headline is the hold kept, not the hold: the size rule acts on the
//! contest, so only the kept hold shows it.

use crate::dice::{Paths, Roller, narrate};
use crate::rules::action::Fixed;
use crate::rules::armed_defender::{
    FirstStrike, GRABBER_DOWN, GRABBER_KILLED, STRUCK, STRUCK_DAMAGE, Struck, armed_with,
    strike_first, strike_first_paths, struck_range,
};
use crate::rules::attack::{AttackRoll, ContestScore, contest, contest_paths, tied_pairs};
use crate::rules::maneuver::{
    Counter, Distributions, Hist, Maneuver, Metrics, Record, Sink, Source,
};
use crate::rules::options::{GrabContest, RuleOptions};
use crate::rules::rear;
use crate::rules::section::{Section, Terms};
use crate::rules::tables::{brawl_row, wrestling_armor_penalty};
use crate::rules::{Combatant, Ineligible, Matchup, StateName};

/// The penalty of a called shot.
pub const CALLED_SHOT_PENALTY: i32 = -4;

/// The to-hit modifier of a grab of an object: the called shot's penalty and Strength's adjustment, no
/// magic (docs/rules.md §5). A disarm inside a fight is rolled with it too.
pub fn object_grab_modifier(grabber: &Combatant) -> i32 {
    object_grab_terms(grabber).total()
}

/// The terms of [`object_grab_modifier`], named.
pub fn object_grab_terms(grabber: &Combatant) -> Terms {
    Terms::new()
        .with("called shot", CALLED_SHOT_PENALTY)
        .with("Strength", grabber.hit_adjustment())
}

/// What grabbing with one hand takes off a Strength score (docs/rules.md §5): the text's drop table for
/// 18/xx, three points for any other score and for a monster's rough Strength.
pub const ONE_HAND_DROP: i32 = 3;

/// One or two hands on the victim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hands {
    /// A called shot at −4 with the one-hand Strength drop.
    One,
    /// An ordinary wrestling attack at full Strength.
    Two,
}

impl Hands {
    /// How many hands.
    pub fn count(self) -> u32 {
        match self {
            Hands::One => 1,
            Hands::Two => 2,
        }
    }
}

/// A contest needs an awake opponent, and the grabber needs the hands.
fn common_eligibility(m: &Matchup, hands: u32) -> Result<(), Ineligible> {
    if m.victim.state.is_helpless() {
        return Err(Ineligible::VictimHelpless(StateName(m.victim.state)));
    }
    if m.attacker.hands_free < hands {
        return Err(Ineligible::HandsNotFree {
            needed: hands,
            free: m.attacker.hands_free,
        });
    }
    Ok(())
}

/// Grabbing an object prepared for one matchup: the object is the weapon in the victim's hand.
#[derive(Debug, Clone, PartialEq)]
pub struct GrabObject {
    /// The −4 called shot against the holder's normal armor class.
    pub attack: AttackRoll,
    /// The grabber's contest score.
    pub grabber: ContestScore,
    /// The holder's contest score.
    pub holder: ContestScore,
    /// How the contest is judged.
    pub mode: GrabContest,
    /// The holder's strike before the grab: the object is his weapon.
    pub first_strike: Option<FirstStrike>,
    /// The terms of the attack's modifier, named for a narration.
    pub to_hit: Terms,
}

/// One attempt to grab an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GrabObjectOutcome {
    /// The grab touched the object.
    pub hit: bool,
    /// The grabber won control of it.
    pub control: bool,
    /// Pairs of contest dice rolled, ties included (0 on a miss).
    pub contest_rolls: u32,
    /// The holder's first strike at the grabber.
    pub struck: Struck,
}

impl GrabObject {
    /// Checks eligibility (a free hand, an awake holder with a weapon) and prepares the roll and contest.
    pub fn prepare(m: &Matchup, options: &RuleOptions) -> Result<GrabObject, Ineligible> {
        common_eligibility(m, 1)?;
        if m.victim.weapon.is_fist() {
            return Err(Ineligible::NothingToGrab);
        }
        let grabber = &m.attacker;
        // The object is the holder's weapon: a melee one he strikes with first (a bow in both hands
        // strikes nobody).
        let object = &m.victim.weapon;
        let first_strike = object
            .is_melee()
            .then(|| FirstStrike::prepare(&m.victim, object, grabber, options))
            .flatten();
        let (attack, to_hit) =
            rear::attack_roll(grabber, &m.victim, object_grab_terms(grabber), options);
        Ok(GrabObject {
            attack,
            grabber: grabber.contest_score(),
            holder: m.victim.contest_score(),
            mode: options.grab_contest,
            first_strike,
            to_hit,
        })
    }

    /// The paths of [`GrabObject::resolve`] for the exact count.
    pub fn paths(&self) -> Paths {
        strike_first_paths(
            &self.first_strike,
            self.attack.paths(|swing| {
                if swing.hit {
                    contest_paths()
                } else {
                    Paths::END
                }
            }),
        )
    }

    /// One attempt: the holder's first strike, then, if the grabber still stands, the called shot, and on a
    /// hit the contest.
    #[inline]
    pub fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> GrabObjectOutcome {
        let struck = strike_first(&self.first_strike, rng);
        let missed = GrabObjectOutcome {
            hit: false,
            control: false,
            contest_rolls: 0,
            struck,
        };
        if struck.wound.down {
            narrate!(rng, Section::Grab, "{}", missed.words());
            return missed;
        }
        narrate!(
            rng,
            Section::Grab,
            "The grabber reaches for the weapon in the holder's hand, a called shot; to hit: {}.",
            self.to_hit.words()
        );
        if !self.attack.roll(rng).hit {
            narrate!(rng, Section::Grab, "{}", missed.words());
            return missed;
        }
        narrate!(
            rng,
            Section::Grab,
            "He has a hand on it: the grabber (first, Strength {}) and the holder (second, Strength {}) contest control.",
            self.grabber,
            self.holder
        );
        let c = contest(self.grabber, self.holder, self.mode, rng);
        let out = GrabObjectOutcome {
            hit: true,
            control: c.first_wins,
            contest_rolls: c.rolls,
            struck,
        };
        narrate!(rng, Section::Grab, "{}", out.words());
        out
    }
}

impl GrabObjectOutcome {
    /// The grab's result in words, the last step of a narrated grab of an object.
    pub fn words(&self) -> String {
        let pairs = |n: u32| if n == 1 { "pair" } else { "pairs" };
        if self.struck.wound.down {
            "The grabber falls to the holder's blows before he can grab.".to_string()
        } else if !self.hit {
            "The grab misses: the holder keeps his weapon.".to_string()
        } else if self.control {
            format!(
                "The grabber wins control of the weapon after {} {} of dice.",
                self.contest_rolls,
                pairs(self.contest_rolls)
            )
        } else {
            format!(
                "The holder keeps his weapon after {} {} of dice.",
                self.contest_rolls,
                pairs(self.contest_rolls)
            )
        }
    }
}

/// A grab of a person or a monster, prepared for one matchup.
#[derive(Debug, Clone, PartialEq)]
pub struct GrabHold {
    /// The wrestling attack (called shot with one hand).
    pub attack: AttackRoll,
    /// The grabber's contest score while holding (one-hand drop and size modifier applied).
    pub grabber: ContestScore,
    /// The victim's contest score when he tries to break free.
    pub victim: ContestScore,
    /// How the contest is judged.
    pub mode: GrabContest,
    /// An armed victim's strike before the grab.
    pub first_strike: Option<FirstStrike>,
    /// The victim is a monster: his contest score is then reported as `monster_strength` too.
    pub victim_is_monster: bool,
    /// One hand or two (named in a narration).
    pub hands: Hands,
    /// The terms of the attack's modifier, named for a narration.
    pub to_hit: Terms,
}

/// One grab of a person or a monster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoldOutcome {
    /// The wrestling attack hit.
    pub hit: bool,
    /// The row of the modified roll is a hold.
    pub hold: bool,
    /// A hold, and the victim's first attempt to break it failed.
    pub kept: bool,
    /// Pairs of dice in that attempt (0 without a hold).
    pub contest_rolls: u32,
    /// An armed victim's first strike at the grabber.
    pub struck: Struck,
}

/// The wrestling attack of a grab: Strength's adjustment, −4 for one hand, the wrestler's armor penalty,
/// against the victim's normal armor class.
fn wrestling_attack(
    grabber: &Combatant,
    victim: &Combatant,
    hands: Hands,
    options: &RuleOptions,
) -> (AttackRoll, Terms) {
    let called_shot = if hands == Hands::One {
        CALLED_SHOT_PENALTY
    } else {
        0
    };
    let to_hit = Terms::new()
        .with("Strength", grabber.hit_adjustment())
        .with("one hand, a called shot", called_shot)
        .with("armor", wrestling_armor_penalty(grabber.armor_type));
    rear::attack_roll(grabber, victim, to_hit, options)
}

/// The grabber's contest score with one or two hands.
fn holding_score(grabber: &Combatant, hands: Hands) -> ContestScore {
    match hands {
        Hands::One => grabber.one_hand_contest_score(),
        Hands::Two => grabber.contest_score(),
    }
}

/// The monster rule's modifier before halving: +3 against a smaller creature, −6 against a larger one.
fn full_size_modifier(grabber: &Combatant, creature: &Combatant) -> i32 {
    match creature.size.cmp(&grabber.size) {
        std::cmp::Ordering::Less => 3,
        std::cmp::Ordering::Greater => -6,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The grabber's Strength modifier against a creature of another size (docs/rules.md §5 "Grabbing a
/// monster"): +3 against a smaller one, −6 against a larger one, halved (by `grab_size_rounding`) when the
/// creature is of a PC race. The text speaks of "a character's strength": a monster that grabs gets none.
pub fn size_modifier(grabber: &Combatant, creature: &Combatant, options: &RuleOptions) -> i32 {
    if !grabber.is_character() {
        return 0;
    }
    let full = full_size_modifier(grabber, creature);
    if creature.is_pc_race() {
        options.grab_size_rounding.half(full)
    } else {
        full
    }
}

/// The size modifier of a grab of a person (docs/rules.md §5 "Grabbing a person"): persons are the PC
/// races and demi-human NPCs the text halves the monster rule for, so a person of another size is grabbed
/// with the halved modifier (a human grabbing a halfling: +2), unless `grab_person_size = false`.
pub fn person_size_modifier(grabber: &Combatant, person: &Combatant, options: &RuleOptions) -> i32 {
    if !options.grab_person_size || !grabber.is_character() {
        return 0;
    }
    options
        .grab_size_rounding
        .half(full_size_modifier(grabber, person))
}

impl GrabHold {
    /// A grab with one or two hands, the grabber's score moved by `size`.
    fn with_size(
        m: &Matchup,
        options: &RuleOptions,
        hands: Hands,
        size: i32,
    ) -> Result<GrabHold, Ineligible> {
        common_eligibility(m, hands.count())?;
        let first_strike = armed_with(&m.victim)
            .and_then(|weapon| FirstStrike::prepare(&m.victim, weapon, &m.attacker, options));
        let (attack, to_hit) = wrestling_attack(&m.attacker, &m.victim, hands, options);
        Ok(GrabHold {
            attack,
            hands,
            to_hit,
            grabber: holding_score(&m.attacker, hands).modified(size),
            victim: m.victim.contest_score(),
            mode: options.grab_contest,
            first_strike,
            victim_is_monster: !m.victim.is_character(),
        })
    }

    /// Grabbing a person: full Strength with two hands, the text's drop table with one; a person of
    /// another size by the halved size modifier.
    pub fn person(
        m: &Matchup,
        options: &RuleOptions,
        hands: Hands,
    ) -> Result<GrabHold, Ineligible> {
        let size = person_size_modifier(&m.attacker, &m.victim, options);
        GrabHold::with_size(m, options, hands, size)
    }

    /// Grabbing a monster: as a person, the grabber's score moved by the monster rule's size modifier.
    pub fn monster(
        m: &Matchup,
        options: &RuleOptions,
        hands: Hands,
    ) -> Result<GrabHold, Ineligible> {
        let size = size_modifier(&m.attacker, &m.victim, options);
        GrabHold::with_size(m, options, hands, size)
    }

    /// The paths of [`GrabHold::resolve`] for the exact count.
    pub fn paths(&self) -> Paths {
        strike_first_paths(
            &self.first_strike,
            self.attack.paths(|swing| {
                if swing.hit && brawl_row(swing.modified).hold {
                    contest_paths()
                } else {
                    Paths::END
                }
            }),
        )
    }

    /// One grab: an armed victim's first strike, then, if the grabber still stands, the wrestling attack,
    /// its row, and on a hold the victim's first attempt to break free.
    #[inline]
    pub fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> HoldOutcome {
        let struck = strike_first(&self.first_strike, rng);
        if struck.wound.down {
            let out = HoldOutcome {
                hit: false,
                hold: false,
                kept: false,
                contest_rolls: 0,
                struck,
            };
            narrate!(rng, Section::Grab, "{}", out.words());
            return out;
        }
        narrate!(
            rng,
            Section::Grab,
            "The grabber wrestles for a hold with {}; to hit: {}.",
            match self.hands {
                Hands::One => "one hand",
                Hands::Two => "both hands",
            },
            self.to_hit.words()
        );
        let swing = self.attack.roll(rng);
        if swing.hit {
            narrate!(rng, Section::Grab, "{}", {
                let row = brawl_row(swing.modified);
                format!(
                    "The modified roll {} reads the wrestling column: {}, {}.",
                    swing.modified,
                    row.wrestle,
                    if row.hold { "a hold" } else { "not a hold" }
                )
            });
        }
        if !(swing.hit && brawl_row(swing.modified).hold) {
            let out = HoldOutcome {
                hit: swing.hit,
                hold: false,
                kept: false,
                contest_rolls: 0,
                struck,
            };
            narrate!(rng, Section::Grab, "{}", out.words());
            return out;
        }
        narrate!(
            rng,
            Section::Grab,
            "The victim tries to break free: the victim (first, Strength {}) against the grabber (second, Strength {}).",
            self.victim,
            self.grabber
        );
        let breaking = contest(self.victim, self.grabber, self.mode, rng);
        let out = HoldOutcome {
            hit: true,
            hold: true,
            kept: !breaking.first_wins,
            contest_rolls: breaking.rolls,
            struck,
        };
        narrate!(rng, Section::Grab, "{}", out.words());
        out
    }
}

impl HoldOutcome {
    /// The grab's result in words, the last step of a narrated grab of a person or a monster.
    pub fn words(&self) -> String {
        if self.struck.wound.down {
            "The grabber falls to the victim's blows before he can grab.".to_string()
        } else if !self.hit {
            "The grab misses.".to_string()
        } else if !self.hold {
            "The grabber lands a move but no hold.".to_string()
        } else if self.kept {
            "The grabber keeps his hold: the victim's attempt to break free fails.".to_string()
        } else {
            "The victim breaks the hold.".to_string()
        }
    }
}

// The tally of a grab: its own counters, and the armed victim's first strike (STRUCK, STRUCK_DAMAGE,
// GRABBER_DOWN, GRABBER_KILLED).
const HIT: Counter = Counter(0);
/// Control of the object, or a hold.
const WON: Counter = Counter(1);
/// A hold kept past the first break.
const KEPT: Counter = Counter(2);
const CONTEST_ROLLS: Hist = Hist(0);

/// A grab of an object's summary metrics, headline first (docs/scenarios.md "Metrics").
pub const OBJECT_METRICS: Metrics = &[
    ("p_control", Source::Count(WON)),
    ("p_hit", Source::Count(HIT)),
    ("p_struck_first", Source::Count(STRUCK)),
    ("struck_damage", Source::Mean(STRUCK_DAMAGE)),
    ("p_grabber_down", Source::Count(GRABBER_DOWN)),
    ("p_grabber_killed", Source::Count(GRABBER_KILLED)),
    ("contest_rolls", Source::ContestRolls(CONTEST_ROLLS)),
    ("grabber_strength", Source::GrabberStrength),
    ("victim_strength", Source::VictimStrength),
    ("roll_needed", Source::RollNeeded),
];

/// The summary metrics of a grab of a person or a monster, headline first; a monster's Strength, when
/// given, stands before the grabber's. The headline is the hold kept: the hold itself is the wrestling
/// roll's row, the same whatever the sizes, and the size rule moves the contest that keeps it
/// (`p_kept_given_hold` shows the contest alone).
macro_rules! hold_metrics {
    ($($monster:expr)?) => {
        &[
            ("p_hold_kept", Source::Count(KEPT)),
            ("p_hold", Source::Count(WON)),
            ("p_kept_given_hold", Source::Given { count: KEPT, among: WON }),
            ("p_hit", Source::Count(HIT)),
            ("p_struck_first", Source::Count(STRUCK)),
            ("struck_damage", Source::Mean(STRUCK_DAMAGE)),
            ("p_grabber_down", Source::Count(GRABBER_DOWN)),
            ("p_grabber_killed", Source::Count(GRABBER_KILLED)),
            ("contest_rolls", Source::ContestRolls(CONTEST_ROLLS)),
            $($monster,)?
            ("grabber_strength", Source::GrabberStrength),
            ("victim_strength", Source::VictimStrength),
            ("roll_needed", Source::RollNeeded),
        ]
    };
}

/// A grab of a person's summary metrics, headline first.
pub const PERSON_METRICS: Metrics = hold_metrics!();

/// A grab of a monster's summary metrics: a person's, and the monster's Strength.
pub const MONSTER_METRICS: Metrics = hold_metrics!(("monster_strength", Source::MonsterStrength));

/// A grab of an object's distributions.
pub const OBJECT_DISTRIBUTIONS: Distributions = &[("contest_rolls", CONTEST_ROLLS)];

/// A grab of a person or monster has no distribution.
pub const HOLD_DISTRIBUTIONS: Distributions = &[];

/// A grab's histograms: contest rolls (rarely more than a few), and the first strike's damage.
fn grab_range(hist: Hist, first_strike: &Option<FirstStrike>) -> Option<(i64, i64)> {
    if hist == CONTEST_ROLLS {
        Some((1, 8))
    } else if hist == STRUCK_DAMAGE {
        struck_range(first_strike)
    } else {
        None
    }
}

impl Record for GrabObjectOutcome {
    #[inline]
    fn record<S: Sink>(&self, s: &mut S) {
        self.struck.record(s);
        if self.hit {
            s.count(HIT, true);
            s.count(WON, self.control);
            s.observe(CONTEST_ROLLS, i64::from(self.contest_rolls));
        }
    }
}

impl Record for HoldOutcome {
    #[inline]
    fn record<S: Sink>(&self, s: &mut S) {
        self.struck.record(s);
        s.count(HIT, self.hit);
        if self.hold {
            s.count(WON, true);
            s.count(KEPT, self.kept);
            s.observe(CONTEST_ROLLS, i64::from(self.contest_rolls));
        }
    }
}

impl Maneuver for GrabObject {
    type Outcome = GrabObjectOutcome;

    #[inline]
    fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> GrabObjectOutcome {
        GrabObject::resolve(self, rng)
    }

    fn paths(&self) -> Option<Paths> {
        Some(GrabObject::paths(self))
    }

    fn fixed(&self) -> Fixed {
        Fixed {
            grabber_strength: Some(self.grabber.score),
            victim_strength: Some(self.holder.score),
            roll_needed: Some(self.attack.needed()),
            ..Fixed::default()
        }
    }

    fn range(&self, hist: Hist) -> Option<(i64, i64)> {
        grab_range(hist, &self.first_strike)
    }

    fn contest_ties(&self) -> Option<u32> {
        Some(tied_pairs(self.grabber, self.holder, self.mode))
    }

    fn past_contest(outcome: &GrabObjectOutcome) -> bool {
        outcome.hit
    }
}

impl Maneuver for GrabHold {
    type Outcome = HoldOutcome;

    #[inline]
    fn resolve<R: Roller + ?Sized>(&self, rng: &mut R) -> HoldOutcome {
        GrabHold::resolve(self, rng)
    }

    fn paths(&self) -> Option<Paths> {
        Some(GrabHold::paths(self))
    }

    fn fixed(&self) -> Fixed {
        Fixed {
            monster_strength: self.victim_is_monster.then_some(self.victim.score),
            grabber_strength: Some(self.grabber.score),
            victim_strength: Some(self.victim.score),
            roll_needed: Some(self.attack.needed()),
            ..Fixed::default()
        }
    }

    fn range(&self, hist: Hist) -> Option<(i64, i64)> {
        grab_range(hist, &self.first_strike)
    }

    fn contest_ties(&self) -> Option<u32> {
        Some(tied_pairs(self.victim, self.grabber, self.mode))
    }

    fn past_contest(outcome: &HoldOutcome) -> bool {
        outcome.hold
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::rules::{Wound, matchup};

    const GRABBER: &str = "class = \"fighter\"\nlevel = 1\nstrength = 17\nhp = 20";
    const HOLDER: &str =
        "class = \"fighter\"\nlevel = 1\nac = 5\nstrength = 15\nweapon = \"long sword\"";

    /// `roll_needed` of every grab by [`GRABBER`] on `victim`, in front and from behind: the object, a
    /// person with two hands, a person with one.
    fn grabs_front_and_rear(victim: &str, options: &RuleOptions) -> [(i32, i32); 3] {
        let behind = format!("{GRABBER}\nposition = \"behind\"");
        let needed = |attacker: &str| {
            let m = matchup(attacker, victim);
            [
                GrabObject::prepare(&m, options).unwrap().attack.needed(),
                GrabHold::person(&m, options, Hands::Two)
                    .unwrap()
                    .attack
                    .needed(),
                GrabHold::person(&m, options, Hands::One)
                    .unwrap()
                    .attack
                    .needed(),
            ]
        };
        let (front, rear) = (needed(GRABBER), needed(&behind));
        [0, 1, 2].map(|i| (front[i], rear[i]))
    }

    #[test]
    fn a_grab_from_behind_needs_2_less_and_ignores_the_shield_and_dexterity_bonus() {
        // THAC0 20, +1 Strength against AC 5: the object at −4 needs 18, two hands 14, one hand 18.
        let o = RuleOptions::default();
        assert_eq!(
            grabs_front_and_rear(HOLDER, &o),
            [(18, 16), (14, 12), (18, 16)]
        );
        // A shield and Dexterity 16 make it AC 2 in front (3 more); behind, AC 5 again.
        let shielded = format!("{HOLDER}\nshield = 1\ndexterity = 16");
        assert_eq!(
            grabs_front_and_rear(&shielded, &o),
            [(21, 16), (17, 12), (21, 16)]
        );
        let off = RuleOptions {
            rear_attack_bonus: 0,
            ..RuleOptions::default()
        };
        assert_eq!(
            grabs_front_and_rear(&shielded, &off),
            [(21, 21), (17, 17), (21, 21)]
        );
    }

    /// A monster's rough Strength drops by [`ONE_HAND_DROP`] for a one-handed grab, as every plain score does
    /// in the text's table (`Strength::one_hand`): one drop, pinned here for every score.
    #[test]
    fn one_hand_drop_is_the_tables_drop_for_every_plain_score() {
        for score in 1..=25 {
            let s: crate::rules::tables::Strength = score.to_string().parse().unwrap();
            assert_eq!(
                i32::from(s.one_hand().score()),
                (score - ONE_HAND_DROP).max(1),
                "{score}"
            );
        }
    }
    #[test]
    fn grabbing_an_object_is_a_called_shot_at_minus_4_with_strength() {
        let g = GrabObject::prepare(&matchup(GRABBER, HOLDER), &RuleOptions::default()).unwrap();
        assert_eq!(g.attack.modifier, -4 + 1);
        assert_eq!(g.attack.target, 20 - 5);
        let magic = GrabObject::prepare(
            &matchup(
                "class = \"fighter\"\nstrength = 17\nweapon = { name = \"long sword\", magic = 3 }",
                HOLDER,
            ),
            &RuleOptions::default(),
        )
        .unwrap();
        assert_eq!(
            magic.attack.modifier, -3,
            "a weapon's magic does not help a grab"
        );
    }

    #[test]
    fn the_contest_decides_control_after_a_hit() {
        let g = GrabObject::prepare(&matchup(GRABBER, HOLDER), &RuleOptions::default()).unwrap();
        // Every script starts with the holder's first strike at the grabber: a natural 1 misses.
        // Hit on 18; contest 17 rolls 10 (by 7) against 15 rolling 9 (by 6).
        let mut dice = Scripted::new([1, 18, 10, 9]);
        assert_eq!(
            g.resolve(&mut dice),
            GrabObjectOutcome {
                hit: true,
                control: true,
                contest_rolls: 1,
                struck: Struck::default(),
            }
        );
        // A tie (both by 5) is rolled again, counting two rolls.
        let mut dice = Scripted::new([1, 18, 12, 10, 15, 3]);
        assert_eq!(
            g.resolve(&mut dice),
            GrabObjectOutcome {
                hit: true,
                control: false,
                contest_rolls: 2,
                struck: Struck::default(),
            }
        );
        let mut miss = Scripted::new([1, 17]);
        assert_eq!(
            g.resolve(&mut miss),
            GrabObjectOutcome {
                hit: false,
                control: false,
                contest_rolls: 0,
                struck: Struck::default(),
            }
        );
    }

    #[test]
    fn grabs_need_free_hands_an_awake_victim_and_something_to_grab() {
        let o = RuleOptions::default();
        let no_hands = "class = \"fighter\"\nhands_free = 0";
        assert_eq!(
            GrabObject::prepare(&matchup(no_hands, HOLDER), &o),
            Err(Ineligible::HandsNotFree { needed: 1, free: 0 })
        );
        let one_hand = "class = \"fighter\"\nhands_free = 1";
        assert!(GrabObject::prepare(&matchup(one_hand, HOLDER), &o).is_ok());
        assert!(GrabHold::person(&matchup(one_hand, HOLDER), &o, Hands::Two).is_err());
        assert!(GrabHold::person(&matchup(one_hand, HOLDER), &o, Hands::One).is_ok());
        let asleep = "class = \"fighter\"\nstate = \"asleep\"\nweapon = \"club\"";
        assert!(matches!(
            GrabObject::prepare(&matchup(GRABBER, asleep), &o),
            Err(Ineligible::VictimHelpless(_))
        ));
        assert_eq!(
            GrabObject::prepare(&matchup(GRABBER, "class = \"fighter\""), &o),
            Err(Ineligible::NothingToGrab)
        );
    }

    #[test]
    fn one_hand_is_a_called_shot_with_less_strength() {
        let o = RuleOptions::default();
        let strong = "class = \"fighter\"\nstrength = \"18/80\"\narmor_type = \"chain\"";
        let two = GrabHold::person(&matchup(strong, HOLDER), &o, Hands::Two).unwrap();
        let one = GrabHold::person(&matchup(strong, HOLDER), &o, Hands::One).unwrap();
        // 18/80: +2 to hit; chain mail −2 for a wrestler.
        assert_eq!(two.attack.modifier, 2 - 2);
        assert_eq!(one.attack.modifier, 2 - 4 - 2);
        assert_eq!(
            two.grabber,
            ContestScore {
                score: 18,
                percentile: 80
            }
        );
        assert_eq!(one.grabber, ContestScore::plain(18));
        let seventeen = GrabHold::person(&matchup(GRABBER, HOLDER), &o, Hands::One).unwrap();
        assert_eq!(seventeen.grabber, ContestScore::plain(14));
    }

    #[test]
    fn a_hold_comes_from_the_hold_rows_of_the_modified_roll() {
        let o = RuleOptions::default();
        // Strength 17 (+1) against AC 5 with THAC0 20: needs 14 on the die for a modified 15.
        let g = GrabHold::person(&matchup(GRABBER, HOLDER), &o, Hands::Two).unwrap();
        // Modified 15: arm lock, a hold. Victim 15 rolls 12 (by 3) against 17 rolling 5 (by 12): kept.
        let mut dice = Scripted::new([1, 14, 12, 5]);
        assert_eq!(
            g.resolve(&mut dice),
            HoldOutcome {
                hit: true,
                hold: true,
                kept: true,
                contest_rolls: 1,
                struck: Struck::default(),
            }
        );
        // Modified 14: leg twist, no hold.
        let mut dice = Scripted::new([1, 13]);
        assert_eq!(
            g.resolve(&mut dice),
            HoldOutcome {
                hit: false,
                hold: false,
                kept: false,
                contest_rolls: 0,
                struck: Struck::default(),
            }
        );
        // Modified 17: trip, a hit without a hold.
        let mut dice = Scripted::new([1, 16]);
        assert_eq!(
            g.resolve(&mut dice),
            HoldOutcome {
                hit: true,
                hold: false,
                kept: false,
                contest_rolls: 0,
                struck: Struck::default(),
            }
        );
        // Modified 21: bear hug; the victim breaks free (15 rolls 2, by 13, against 17 rolling 10).
        let mut dice = Scripted::new([1, 20, 2, 10]);
        assert_eq!(
            g.resolve(&mut dice),
            HoldOutcome {
                hit: true,
                hold: true,
                kept: false,
                contest_rolls: 1,
                struck: Struck::default(),
            }
        );
    }

    #[test]
    fn a_natural_20_hold_reads_the_bear_hug_even_against_good_armor() {
        let o = RuleOptions::default();
        let g = GrabHold::person(
            &matchup(GRABBER, "class = \"fighter\"\nac = -10"),
            &o,
            Hands::Two,
        )
        .unwrap();
        let mut dice = Scripted::new([20, 1, 20]);
        let out = g.resolve(&mut dice);
        assert!(out.hit && out.hold && !out.kept);
    }

    #[test]
    fn monster_strength_plus_3_smaller_minus_6_larger_halved_for_pc_races() {
        let o = RuleOptions::default();
        let human = "class = \"fighter\"\nstrength = 16";
        let ogre =
            GrabHold::monster(&matchup(human, "monster = \"ogre\""), &o, Hands::Two).unwrap();
        assert_eq!(ogre.grabber, ContestScore::plain(10));
        assert_eq!(ogre.victim, ContestScore::plain(10));
        let kobold =
            GrabHold::monster(&matchup(human, "monster = \"kobold\""), &o, Hands::Two).unwrap();
        assert_eq!(kobold.grabber, ContestScore::plain(19));
        let orc = GrabHold::monster(&matchup(human, "monster = \"orc\""), &o, Hands::Two).unwrap();
        assert_eq!(orc.grabber, ContestScore::plain(16));
        // A halfling is of a PC race: +3 halves to +2 (half away from zero), or +1 rounding down.
        let halfling = "class = \"thief\"\nrace = \"halfling\"";
        let g = GrabHold::monster(&matchup(human, halfling), &o, Hands::Two).unwrap();
        assert_eq!(g.grabber, ContestScore::plain(18));
        let down = RuleOptions {
            grab_size_rounding: crate::rules::options::SizeRounding::Down,
            ..RuleOptions::default()
        };
        let g = GrabHold::monster(&matchup(human, halfling), &down, Hands::Two).unwrap();
        assert_eq!(g.grabber, ContestScore::plain(17));
        // A halfling grabbing a human: −6 halved to −3.
        let g = GrabHold::monster(
            &matchup(
                "class = \"thief\"\nrace = \"halfling\"\nstrength = 12",
                human,
            ),
            &o,
            Hands::Two,
        )
        .unwrap();
        assert_eq!(g.grabber, ContestScore::plain(9));
    }

    #[test]
    fn the_size_modifier_applies_after_the_one_hand_drop_and_erases_the_percentile() {
        let o = RuleOptions::default();
        let strong = "class = \"fighter\"\nstrength = \"18/00\"";
        // 18/00 one-handed is 18/51; against a smaller kobold +3 → 21, no percentile.
        let g =
            GrabHold::monster(&matchup(strong, "monster = \"kobold\""), &o, Hands::One).unwrap();
        assert_eq!(g.grabber, ContestScore::plain(21));
        // Same size: no modifier, the percentile survives.
        let g = GrabHold::monster(&matchup(strong, "monster = \"orc\""), &o, Hands::One).unwrap();
        assert_eq!(
            g.grabber,
            ContestScore {
                score: 18,
                percentile: 51
            }
        );
    }

    #[test]
    fn the_nightmare_breaks_free_with_strength_20() {
        let o = RuleOptions::default();
        let g = GrabHold::monster(
            &matchup(
                "class = \"fighter\"\nstrength = 18",
                "monster = \"nightmare\"",
            ),
            &o,
            Hands::Two,
        )
        .unwrap();
        assert_eq!(g.victim, ContestScore::plain(20));
        assert_eq!(g.grabber, ContestScore::plain(12));
    }

    #[test]
    fn an_armed_victim_strikes_a_grabber_first_at_plus_4() {
        let o = RuleOptions::default();
        // The holder (THAC0 20, long sword) against the grabber's AC 10: +4 to hit, needs 6.
        let g = GrabObject::prepare(&matchup(GRABBER, HOLDER), &o).unwrap();
        let strike = g.first_strike.unwrap();
        assert_eq!((strike.attacks, strike.roll.needed()), (1, 6));
        // He hits on 6 for 1d8 = 5 + 4; the grab still goes ahead: hit on 18, the grabber wins control.
        let mut dice = Scripted::new([6, 5, 18, 10, 9]);
        let out = g.resolve(&mut dice);
        assert_eq!(
            out.struck,
            Struck {
                hit: true,
                damage: 9,
                wound: Wound::default(),
            }
        );
        assert!(out.hit && out.control);
        // The grabs of persons and monsters meet the same strike; natural attacks are no weapon.
        let person = GrabHold::person(&matchup(GRABBER, HOLDER), &o, Hands::Two).unwrap();
        assert_eq!(person.first_strike, Some(strike));
        let ogre =
            GrabHold::monster(&matchup(GRABBER, "monster = \"ogre\""), &o, Hands::Two).unwrap();
        assert_eq!(ogre.first_strike, None);
        let orc =
            GrabHold::monster(&matchup(GRABBER, "monster = \"orc\""), &o, Hands::Two).unwrap();
        assert!(orc.first_strike.is_some());
        // Switched off, the grab is resolved as before the rule.
        let off = RuleOptions {
            armed_defender_vs_grabs: false,
            ..RuleOptions::default()
        };
        assert_eq!(
            GrabObject::prepare(&matchup(GRABBER, HOLDER), &off)
                .unwrap()
                .first_strike,
            None
        );
        // A bow in the holder's hands strikes nobody.
        let archer = "class = \"fighter\"\nweapon = \"short bow\"";
        assert_eq!(
            GrabObject::prepare(&matchup(GRABBER, archer), &o)
                .unwrap()
                .first_strike,
            None
        );
    }

    /// "A grabber who is down grabs nothing" (docs/rules.md §5): the holder's first strike meets the
    /// grabber's hit points, and a grabber it drops rolls no grab at all.
    #[test]
    fn a_grabber_the_first_strike_drops_grabs_nothing() {
        let o = RuleOptions::default();
        let frail = "class = \"fighter\"\nlevel = 1\nstrength = 17\nhp = 7";
        // The holder hits on 6 for 1d8 = 3 + 4 = 7: the grabber of 7 is at 0, down and (death at 0) dead.
        // No further die is asked for: the script has none left.
        let dropped = Struck {
            hit: true,
            damage: 7,
            wound: Wound {
                down: true,
                killed: true,
            },
        };
        let g = GrabObject::prepare(&matchup(frail, HOLDER), &o).unwrap();
        let out = g.resolve(&mut Scripted::new([6, 3]));
        assert_eq!(out.struck, dropped);
        assert!(!out.hit && !out.control);
        for grab in [
            GrabHold::person(&matchup(frail, HOLDER), &o, Hands::Two).unwrap(),
            GrabHold::monster(&matchup(frail, "monster = \"orc\""), &o, Hands::Two).unwrap(),
        ] {
            let out = grab.resolve(&mut Scripted::new([20, 3]));
            assert_eq!(out.struck.wound, dropped.wound);
            assert!(!out.hit && !out.hold && !out.kept);
        }
        // 2 = 6 points: he stands at 1 and grabs (the called shot hits on 18, he wins the contest).
        let out = g.resolve(&mut Scripted::new([6, 2, 18, 10, 9]));
        assert_eq!(out.struck.wound, Wound::default());
        assert!(out.hit && out.control);
        // With death at −10, 7 points drop him but do not kill him.
        let dying = RuleOptions {
            death_at: -10,
            ..RuleOptions::default()
        };
        let g = GrabObject::prepare(&matchup(frail, HOLDER), &dying).unwrap();
        let out = g.resolve(&mut Scripted::new([6, 3]));
        assert!(out.struck.wound.down && !out.struck.wound.killed && !out.hit);
    }

    /// Rolled hit points are rolled only when the strike lands, once, after its damage: a level-1
    /// fighter's 1d10 against 1d8 + 4.
    #[test]
    fn a_grabbers_hit_dice_are_rolled_per_trial_when_the_strike_lands() {
        let o = RuleOptions::default();
        let rolled = "class = \"fighter\"\nlevel = 1\nstrength = 17";
        let g = GrabHold::person(&matchup(rolled, HOLDER), &o, Hands::Two).unwrap();
        // A miss (5): no hit points rolled; the grab's d20 comes next (a 1 misses).
        let mut miss = Scripted::new([5, 1]);
        let out = g.resolve(&mut miss);
        assert!(!out.struck.hit && !out.hit);
        assert_eq!(miss.requests(), [20, 20]);
        // A hit for 8 + 4 against 1d10 = 9: down, and no grab is rolled. Against 5 + 4 and 1d10 = 10 he
        // stands, and the grab's d20 is rolled.
        let mut hit = Scripted::new([6, 8, 9]);
        assert!(g.resolve(&mut hit).struck.wound.down);
        assert_eq!(hit.requests(), [20, 8, 10]);
        let mut stands = Scripted::new([6, 5, 10, 1]);
        assert!(!g.resolve(&mut stands).struck.wound.down);
        assert_eq!(stands.requests(), [20, 8, 10, 20]);
    }

    /// The outcome's counters: `p_kept_given_hold` is the kept holds over the holds; a dropped grabber
    /// counts in `p_grabber_down` and `p_grabber_killed` and in no grab.
    #[test]
    fn kept_given_hold_is_a_share_of_the_holds_and_the_dropped_count_apart() {
        use crate::rules::action::Action;
        use crate::rules::maneuver::Record;
        use crate::stats::tally::Tally;
        let mut t = Tally::default();
        let struck = |down| Struck {
            hit: down,
            damage: u32::from(down) * 9,
            wound: Wound { down, killed: down },
        };
        let outcome = |hit, hold, kept, down| HoldOutcome {
            hit,
            hold,
            kept,
            contest_rolls: u32::from(hold),
            struck: struck(down),
        };
        for o in [
            outcome(true, true, true, false),
            outcome(true, true, false, false),
            outcome(true, true, true, false),
            outcome(true, false, false, false),
            outcome(false, false, false, true),
        ] {
            t.trials += 1;
            o.record(&mut t);
        }
        let p = crate::rules::action::Prepared::new(
            Action::GrabPerson,
            &matchup(GRABBER, HOLDER),
            &RuleOptions::default(),
            &crate::rules::action::ActionOptions::default(),
        )
        .unwrap();
        let summary = crate::stats::metrics::summarize(&p, Action::GrabPerson, &t, 0.95);
        let m = |name: &str| {
            summary
                .iter()
                .find(|m| m.metric == name)
                .and_then(|m| m.value.estimate)
        };
        assert_eq!(m("p_hold_kept"), Some(2.0 / 5.0));
        assert_eq!(m("p_hold"), Some(3.0 / 5.0));
        assert_eq!(m("p_kept_given_hold"), Some(2.0 / 3.0));
        assert_eq!(m("p_hit"), Some(4.0 / 5.0));
        assert_eq!(m("p_grabber_down"), Some(1.0 / 5.0));
        assert_eq!(m("p_grabber_killed"), Some(1.0 / 5.0));
        // The share's own interval is over the 3 holds.
        let given = summary.iter().find(|m| m.metric == "p_kept_given_hold");
        assert_eq!(given.map(|m| m.value.trials), Some(3));
    }

    #[test]
    fn a_person_of_another_size_is_grabbed_with_the_halved_modifier() {
        let o = RuleOptions::default();
        let human = "class = \"fighter\"\nstrength = 16";
        let halfling = "class = \"thief\"\nrace = \"halfling\"";
        let small = "class = \"thief\"\nrace = \"halfling\"\nstrength = 12";
        // A human grabbing a halfling: +3 halved to +2; a halfling grabbing a human: −6 halved to −3. The
        // same as the monster rule gives against a creature of a PC race.
        for (grabber, person, score) in [(human, halfling, 18), (small, human, 9)] {
            let m = matchup(grabber, person);
            let g = GrabHold::person(&m, &o, Hands::Two).unwrap();
            assert_eq!(g.grabber, ContestScore::plain(score));
            assert_eq!(
                g.grabber,
                GrabHold::monster(&m, &o, Hands::Two).unwrap().grabber
            );
        }
        // Same size: nothing; switched off: nothing.
        let g = GrabHold::person(&matchup(human, "class = \"fighter\""), &o, Hands::Two).unwrap();
        assert_eq!(g.grabber, ContestScore::plain(16));
        let off = RuleOptions {
            grab_person_size: false,
            ..RuleOptions::default()
        };
        let g = GrabHold::person(&matchup(human, halfling), &off, Hands::Two).unwrap();
        assert_eq!(g.grabber, ContestScore::plain(16));
    }

    #[test]
    fn a_monster_that_grabs_gets_no_size_modifier() {
        let o = RuleOptions::default();
        let kobold = GrabHold::monster(
            &matchup("monster = \"ogre\"", "monster = \"kobold\""),
            &o,
            Hands::Two,
        )
        .unwrap();
        assert_eq!(kobold.grabber, ContestScore::plain(10));
        let person = GrabHold::person(
            &matchup(
                "monster = \"ogre\"",
                "class = \"thief\"\nrace = \"halfling\"",
            ),
            &o,
            Hands::Two,
        )
        .unwrap();
        assert_eq!(person.grabber, ContestScore::plain(10));
    }

    #[test]
    fn hands_free_come_from_the_weapon_and_the_shield() {
        let o = RuleOptions::default();
        let free = |spec: &str| matchup(spec, HOLDER).attacker.hands_free;
        assert_eq!(free("class = \"fighter\""), 2);
        assert_eq!(free("class = \"fighter\"\nweapon = \"long sword\""), 1);
        assert_eq!(
            free("class = \"fighter\"\nweapon = \"long sword\"\nshield = 1"),
            0
        );
        assert_eq!(
            free("class = \"fighter\"\nweapon = \"two-handed sword\""),
            0
        );
        assert_eq!(free("class = \"fighter\"\nweapon = \"short bow\""), 0);
        assert_eq!(free("class = \"fighter\"\nshield = 1"), 1);
        assert_eq!(
            free("class = \"fighter\"\nweapon = \"long sword\"\nhands_free = 2"),
            2
        );
        assert_eq!(free("monster = \"orc\""), 1);
        // A swordsman with a shield has no hand for a grab.
        let knight = "class = \"fighter\"\nweapon = \"long sword\"\nshield = 1";
        assert_eq!(
            GrabObject::prepare(&matchup(knight, HOLDER), &o),
            Err(Ineligible::HandsNotFree { needed: 1, free: 0 })
        );
    }

    #[test]
    fn monster_strength_is_reported_for_monster_victims_only() {
        use crate::rules::action::{Action, ActionOptions, Prepared};
        let fixed = |victim: &str| {
            Prepared::new(
                Action::GrabMonster,
                &matchup(GRABBER, victim),
                &RuleOptions::default(),
                &ActionOptions::default(),
            )
            .unwrap()
            .fixed()
        };
        let ogre = fixed("monster = \"ogre\"");
        assert_eq!(
            (
                ogre.monster_strength,
                ogre.grabber_strength,
                ogre.victim_strength
            ),
            (Some(10), Some(17 - 6), Some(10))
        );
        let man = fixed("class = \"fighter\"\nstrength = 15");
        assert_eq!(
            (man.monster_strength, man.victim_strength),
            (None, Some(15))
        );
        // The attack needs THAC0 20 − AC 10 − Strength's +1 = 9.
        assert_eq!(man.roll_needed, Some(9));
    }

    #[test]
    fn a_narrated_grab_of_the_sword_tells_the_first_strike_the_shot_and_the_contest() {
        let m = matchup(GRABBER, HOLDER);
        let grab = GrabObject::prepare(&m, &RuleOptions::default()).unwrap();
        // The sword misses on 3; the called shot hits on 18; 17 rolls 10 (by 7) against 15 rolling 9 (by 6).
        let (out, steps) = crate::rules::told::steps([3, 18, 10, 9], |d| grab.resolve(d));
        assert!(out.control);
        assert_eq!(
            steps,
            [
                "The armed defender strikes first, whatever the initiative: 1 attack at full force, his bonus as an armed defender counted in to hit and damage.",
                "Attack roll: a d20 +4 must reach 10 (THAC0 minus armor class), so 6 or more on the die.",
                "3 +4 = 7: a miss.",
                "The armed defender's blows all miss.",
                "The grabber reaches for the weapon in the holder's hand, a called shot; to hit: -4 called shot, +1 Strength.",
                "Attack roll: a d20 -3 must reach 15 (THAC0 minus armor class), so 18 or more on the die.",
                "18 -3 = 15: a hit.",
                "He has a hand on it: the grabber (first, Strength 17) and the holder (second, Strength 15) contest control.",
                "The Strength contest: each side rolls a d20 against his Strength, the first 17, the second 15; the larger margin (Strength minus the die) wins, and a tie is rolled again.",
                "The first rolls 10 against 17 (margin +7), the second 9 against 15 (margin +6): the first wins.",
                "The grabber wins control of the weapon after 1 pair of dice.",
            ]
        );
    }

    #[test]
    fn a_narrated_grab_of_a_person_tells_the_row_and_the_attempt_to_break_free() {
        let m = matchup(GRABBER, HOLDER);
        let grab = GrabHold::person(&m, &RuleOptions::default(), Hands::Two).unwrap();
        // The sword misses on 3; 20 + 1 = 21 reads the hold row; 15 rolls 15 (by 0) against 17 rolling 3.
        let (out, steps) = crate::rules::told::steps([3, 20, 15, 3], |d| grab.resolve(d));
        assert!(out.kept);
        assert_eq!(
            steps[4..],
            [
                "The grabber wrestles for a hold with both hands; to hit: +1 Strength.",
                "Attack roll: a d20 +1 must reach 15 (THAC0 minus armor class), so 14 or more on the die.",
                "20 +1 = 21: a hit.",
                "The modified roll 21 reads the wrestling column: Bear hug, a hold.",
                "The victim tries to break free: the victim (first, Strength 15) against the grabber (second, Strength 17).",
                "The Strength contest: each side rolls a d20 against his Strength, the first 15, the second 17; the larger margin (Strength minus the die) wins, and a tie is rolled again.",
                "The first rolls 15 against 15 (margin +0), the second 3 against 17 (margin +14): the second wins.",
                "The grabber keeps his hold: the victim's attempt to break free fails.",
            ]
        );
        let (_, missed) = crate::rules::told::steps([3, 2], |d| grab.resolve(d));
        assert_eq!(missed.last().unwrap(), "The grab misses.");
    }

    #[test]
    fn a_narrated_grab_tells_a_grabber_the_sword_drops() {
        let frail = "class = \"fighter\"\nlevel = 1\nstrength = 17\nhp = 2";
        let grab =
            GrabHold::person(&matchup(frail, HOLDER), &RuleOptions::default(), Hands::One).unwrap();
        let (out, steps) = crate::rules::told::steps([20, 8], |d| grab.resolve(d));
        assert!(out.struck.wound.killed);
        assert_eq!(
            steps.last().unwrap(),
            "The grabber falls to the victim's blows before he can grab."
        );
    }

    #[test]
    fn narrated_grabs_come_out_as_plain_ones() {
        let o = RuleOptions::default();
        let grabber = "class = \"fighter\"\nlevel = 1\nstrength = 17";
        let m = matchup(grabber, HOLDER);
        let object = GrabObject::prepare(&m, &o).unwrap();
        let outs = crate::rules::told::same_as_plain(|d| object.resolve(d), |d| object.resolve(d));
        assert!(outs.iter().any(|o| o.control) && outs.iter().any(|o| o.hit && !o.control));
        for hold in [
            GrabHold::person(&m, &o, Hands::One).unwrap(),
            GrabHold::monster(&matchup(grabber, "monster = \"ogre\""), &o, Hands::Two).unwrap(),
        ] {
            let outs = crate::rules::told::same_as_plain(|d| hold.resolve(d), |d| hold.resolve(d));
            assert!(outs.iter().any(|o| o.kept) && outs.iter().any(|o| !o.hold));
        }
    }
}
