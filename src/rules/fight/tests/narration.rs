//! Narrated fights one on one (`subdual explain`): scripted trials whose story holds the expected steps in
//! order, and seeded trials whose narrated outcome and dice are those of the plain run.

use super::*;
use crate::dice::{Event, Narrator, Recording};
use crate::engine::trial_dice;

const BRAWLER: &str = "name = \"brawler\"\nclass = \"fighter\"\nlevel = 1\nhp = 3";
const GUARD: &str =
    "name = \"guard\"\nclass = \"fighter\"\nlevel = 3\nhp = 30\nweapon = \"long sword\"";

/// A fight told on scripted dice: its outcome and its story.
fn told(p: &FightPlan, faces: &[u32]) -> (FightOutcome, Vec<Event>) {
    let narrator = Narrator::new();
    let mut rng = Recording::new(Scripted::new(faces.iter().copied()), narrator.clone());
    let out = p.resolve(&mut rng);
    (out, narrator.events())
}

/// The story in lines: "[rule] text" for a step, "= text" for a state, "dN: face" for a die, followed by
/// "(side, index)" for a member's die in a fight of several.
pub(in crate::rules::fight) fn lines(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| match e {
            Event::Step { rule, text } => format!("[{rule}] {text}"),
            Event::State { text } => format!("= {text}"),
            Event::Die { sides, face, who } => match who {
                Some((s, i)) => format!("d{sides}: {face} ({s}, {i})"),
                None => format!("d{sides}: {face}"),
            },
        })
        .collect()
}

/// `expected` appears in `story` in order (other lines, such as those of the single actions' own
/// narration, may come between).
pub(in crate::rules::fight) fn in_order(story: &[String], expected: &[&str]) {
    let mut at = 0;
    for line in expected {
        match story[at..].iter().position(|l| l == line) {
            Some(k) => at += k + 1,
            None => panic!(
                "missing, or out of order: {line}\nstory:\n{}",
                story.join("\n")
            ),
        }
    }
}

#[test]
fn a_brawl_tells_the_armed_guards_first_strike_die_by_die() {
    let p = plan(BRAWLER, GUARD, Some(Style::Punch), Intent::Lethal, 10);
    let (out, events) = told(&p, &[1, 9, 4, 1]);
    assert_eq!(out.ending, Ending::VictimWins);
    let story = lines(&events);
    in_order(
        &story,
        &[
            "[§1 Core procedures] The fight begins: hit points of the brawler, then of the guard.",
            "= the brawler 3/3 hp; the guard 30/30 hp.",
            "[§6 Punching, wrestling, overbearing and fights] Round 1.",
            "[§1 Core procedures] Initiative: a d10 each, the brawler first; the lower acts first.",
            "d10: 1",
            "d10: 9",
            "[§1 Core procedures] The brawler 1, the guard 9: the brawler acts first.",
            "[§3 The armed defender] The guard is armed against a foe closing on him unarmed: he makes all his attacks first, at +4 to hit and damage.",
            "[§6 Punching, wrestling, overbearing and fights] The guard swings at the brawler: 4 or more on the d20 (THAC0 against armor class, modifier +4 the armed man).",
            "d20: 4",
            "[§6 Punching, wrestling, overbearing and fights] Natural 4: a hit.",
            "[§6 Punching, wrestling, overbearing and fights] Damage: 1d8 +4 (with the armed man's bonus), all of it real.",
            "d8: 1",
            "[§6 Punching, wrestling, overbearing and fights] The brawler takes 5 real and 0 temporary damage.",
            "= the brawler -2/3 hp, dead; the guard 30/30 hp.",
            "[§6 Punching, wrestling, overbearing and fights] The guard wins in round 1: the brawler is dead.",
        ],
    );
}

const WRESTLER: &str = "name = \"wrestler\"\nclass = \"fighter\"\nlevel = 1\nhp = 50";
const DAGGER_GUARD: &str =
    "name = \"guard\"\nclass = \"fighter\"\nlevel = 1\nhp = 50\nweapon = \"dagger\"";
const PUNCHER: &str = "name = \"thug\"\nclass = \"fighter\"\nlevel = 1\nhp = 50";
const BARE: &str = "name = \"porter\"\nclass = \"fighter\"\nlevel = 1\nhp = 50";
const SUBDUER: &str =
    "name = \"knight\"\nclass = \"fighter\"\nlevel = 1\nhp = 10\nweapon = \"long sword\"";
const SWORD_GUARD: &str =
    "name = \"guard\"\nclass = \"fighter\"\nlevel = 1\nhp = 10\nweapon = \"long sword\"";
const BIG: &str = "name = \"ogre\"\nclass = \"fighter\"\nhp = 50";
const THIEF: &str = "name = \"thief\"\nclass = \"thief\"\nhp = 50";

/// The section every step of a fight's round cites.
const F: &str = "[§6 Punching, wrestling, overbearing and fights] ";
/// The section of hit points and initiative.
const C: &str = "[§1 Core procedures] ";

fn at(rule: &str, text: &str) -> String {
    format!("{rule}{text}")
}

#[test]
fn a_wrestler_takes_a_hold_and_keeps_it_while_the_held_guard_spends_his_attack_on_the_contest() {
    let p = plan(
        WRESTLER,
        DAGGER_GUARD,
        Some(Style::Wrestle),
        Intent::Lethal,
        2,
    );
    let (out, events) = told(&p, &[1, 2, 1, 15, 1, 2, 15, 5]);
    assert_eq!(out.ending, Ending::Timeout);
    let story = lines(&events);
    let expected = [
        at(F, "The guard swings at the wrestler: 6 or more on the d20 (THAC0 against armor class, modifier +4 the armed man)."),
        "d20: 1".into(),
        at(F, "Natural 1: a miss."),
        "= the wrestler 50/50 hp; the guard 50/50 hp.".into(),
        at(F, "The wrestler wrestles the guard: 10 or more on the d20 (THAC0 against armor class, modifier none)."),
        "d20: 15".into(),
        at(F, "Natural 15: a hit; the wrestling row of 15 does 0 real and 1 temporary damage and is a hold."),
        at(F, "The wrestler holds the guard."),
        "= the wrestler 50/50 hp, holding his foe (round 1 of the hold); the guard 49/50 hp (1 temporary damage), held.".into(),
        at(F, "Round 2."),
        at(F, "The guard is held: his first attack is a Strength contest to break free."),
        "d20: 15".into(),
        "d20: 5".into(),
        at(F, "The guard stays held."),
        at(F, "The wrestler keeps his hold on the guard (its round 2), his attack: 0 real and 2 temporary damage."),
        "= the wrestler 50/50 hp, holding his foe (round 2 of the hold); the guard 47/50 hp (3 temporary damage), held.".into(),
        at(F, "Nobody falls within 2 rounds: a timeout."),
    ];
    in_order(
        &story,
        &expected.iter().map(String::as_str).collect::<Vec<_>>(),
    );
}

#[test]
fn a_punch_reads_its_row_then_stuns_and_the_stunned_are_easier_to_hit() {
    let p = plan(PUNCHER, BARE, Some(Style::Punch), Intent::Lethal, 2);
    let (_, events) = told(&p, &[1, 5, 20, 5, 1, 1, 5, 6, 50]);
    let story = lines(&events);
    let expected = [
        at(
            F,
            "The thug punches the porter: 10 or more on the d20 (THAC0 against armor class, modifier none).",
        ),
        "d20: 20".into(),
        at(
            F,
            "Natural 20: a hit; the row of 20 does 0 real and 2 temporary damage, with a 10 % chance of a knockout.",
        ),
        "d100: 5".into(),
        "d10: 1".into(),
        at(
            F,
            "A knockout: the porter is stunned for 1 rounds, through round 2.",
        ),
        "= the thug 50/50 hp; the porter 48/50 hp (2 temporary damage), stunned through round 2."
            .into(),
        at(F, "Round 2."),
        at(
            F,
            "The thug punches the porter: 6 or more on the d20 (THAC0 against armor class, modifier +4 a stunned or prone target).",
        ),
        "d20: 6".into(),
        at(
            F,
            "Natural 6: a hit; the row of 10 does 0 real and 1 temporary damage, with a 3 % chance of a knockout.",
        ),
        "d100: 50".into(),
        "= the thug 50/50 hp; the porter 47/50 hp (3 temporary damage), stunned through round 2."
            .into(),
    ];
    in_order(
        &story,
        &expected.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    // The stunned porter never acts: no attack of his is told.
    assert!(!story.iter().any(|l| l.contains("The porter punches")));
}

#[test]
fn a_subdual_fight_of_blades_tells_the_plain_round_with_the_held_back_split() {
    let p = plan(SUBDUER, SWORD_GUARD, None, Intent::Lethal, 1);
    assert!(p.plain.is_some(), "a fight of blades is plain");
    let (out, events) = told(&p, &[3, 5, 15, 6, 2, 3]);
    assert_eq!(out.ending, Ending::Timeout);
    let story = lines(&events);
    let expected = [
        at(
            C,
            "The fight begins: hit points of the knight, then of the guard.",
        ),
        "= the knight 10/10 hp; the guard 10/10 hp.".into(),
        at(
            F,
            "Round 1. Initiative: a d10 each, the knight first; the lower acts first.",
        ),
        "d10: 3".into(),
        "d10: 5".into(),
        at(C, "The knight 3, the guard 5: the knight acts first."),
        at(
            F,
            "The knight strikes at the guard, the damage dice rolled with each attack, counted if it hits.",
        ),
        at(
            F,
            "Attack roll: 14 or more on the d20 (modifier -4); damage 1d8 +0.",
        ),
        "d20: 15".into(),
        "d8: 6".into(),
        at(F, "A hit: 1 real and 2 temporary damage."),
        at(
            F,
            "The guard strikes at the knight, the damage dice rolled with each attack, counted if it hits.",
        ),
        at(
            F,
            "Attack roll: 10 or more on the d20 (modifier +0); damage 1d8 +0.",
        ),
        "d20: 2".into(),
        "d8: 3".into(),
        at(F, "A miss."),
        at(
            F,
            "The knight's blows land: 1 real and 2 temporary damage to the guard.",
        ),
        "= the knight 10/10 hp; the guard 7/10 hp (2 temporary damage).".into(),
        at(F, "Nobody falls within 1 rounds: a timeout."),
    ];
    in_order(
        &story,
        &expected.iter().map(String::as_str).collect::<Vec<_>>(),
    );
}

#[test]
fn overbearing_tells_the_knock_down_then_the_pin_and_the_ending() {
    let p = plan(BIG, THIEF, Some(Style::Overbear), Intent::Lethal, 5);
    let (out, events) = told(&p, &[1, 5, 15, 2, 1, 5, 15]);
    assert_eq!(out.ending, Ending::AttackerWins);
    let story = lines(&events);
    let expected = [
        at(
            F,
            "The ogre tries to overbear the thief: 10 or more on the d20 (THAC0 against armor class, modifier none).",
        ),
        "d20: 15".into(),
        at(F, "Natural 15: a hit."),
        at(
            F,
            "The thief is knocked down (pinned only by a hit in a later round).",
        ),
        "= the ogre 50/50 hp; the thief 50/50 hp, knocked down.".into(),
        at(F, "Round 2."),
        "d20: 15".into(),
        at(F, "The thief is pinned."),
        "= the ogre 50/50 hp; the thief 50/50 hp, pinned.".into(),
        at(
            F,
            "The ogre wins in round 2: the thief is alive. He is taken alive.",
        ),
    ];
    in_order(
        &story,
        &expected.iter().map(String::as_str).collect::<Vec<_>>(),
    );
}

/// Plans of every kind of one-on-one fight: brawls of each style against an armed guard, a subdual fight
/// of blades (plain), one with fists against a sword, a lethal victim who finishes the fallen, openings.
fn every_kind() -> Vec<FightPlan> {
    let mut plans = Vec::new();
    for style in [
        Style::Punch,
        Style::Wrestle,
        Style::Overbear,
        Style::MartialArts,
        Style::Sap,
        Style::Disarm,
    ] {
        let attacker =
            "name = \"brawler\"\nclass = \"fighter\"\nlevel = 8\nmartial_arts = \"specialized\"";
        if let Ok(p) = FightPlan::prepare(
            &matchup(attacker, GUARD),
            &RuleOptions::default(),
            FightKind::Brawl(style),
            Intent::Lethal,
            20,
        ) {
            plans.push(p);
        }
    }
    plans.push(plan(SUBDUER, SWORD_GUARD, None, Intent::Lethal, 20));
    plans.push(plan(SUBDUER, BARE, None, Intent::Lethal, 20));
    plans.push(plan(BRAWLER, GUARD, None, Intent::Lethal, 20));
    plans.push(opened(MUGGER, SENTRY, Style::Wrestle, Opening::Mug).unwrap());
    let sleeper = "name = \"sentry\"\nclass = \"fighter\"\nlevel = 2\nhp = 12\naware = false\nstate = \"asleep\"";
    plans.push(opened(MUGGER, sleeper, Style::Punch, Opening::Sap).unwrap());
    plans
}

#[test]
fn a_narrated_fight_has_the_plain_fights_outcome_and_dice() {
    let plans = every_kind();
    assert!(plans.len() >= 9, "only {} plans prepared", plans.len());
    for (k, p) in plans.iter().enumerate() {
        for t in 0..300 {
            let mut plain = trial_dice(33, t);
            let narrator = Narrator::new();
            let mut recorded = Recording::new(trial_dice(33, t), narrator.clone());
            assert_eq!(
                p.resolve(&mut plain),
                p.resolve(&mut recorded),
                "plan {k}, trial {t}"
            );
            // The same dice, no more and no fewer: the streams stand at the same face.
            assert_eq!(
                plain.die(1 << 30),
                recorded.die(1 << 30),
                "plan {k}, trial {t}"
            );
            let events = narrator.events();
            assert!(
                matches!(events.last(), Some(Event::Die { .. })),
                "the last event is the check's own die"
            );
            assert!(
                events
                    .iter()
                    .rev()
                    .nth(1)
                    .is_some_and(|e| matches!(e, Event::Step { .. })),
                "plan {k}, trial {t}: the story ends with the ending"
            );
        }
    }
}

#[test]
fn the_named_terms_of_every_folded_roll_add_up_to_its_modifier() {
    use crate::rules::fight::decide::{SITUATIONS, Stand};
    use crate::rules::fight::tell::terms;
    let o = RuleOptions::default();
    let mut checked = 0;
    for stand in [Stand::Front, Stand::Flank, Stand::Rear] {
        for kind in [
            FightKind::Brawl(Style::Punch),
            FightKind::Brawl(Style::Wrestle),
            FightKind::Brawl(Style::Overbear),
            FightKind::Brawl(Style::MartialArts),
            FightKind::Brawl(Style::Sap),
            FightKind::Brawl(Style::Disarm),
            FightKind::Subdue(Style::Punch),
        ] {
            let strong = "name = \"hero\"\nclass = \"fighter\"\nlevel = 8\nstrength = \"18/50\"\nmartial_arts = \"specialized\"\nweapon = \"long sword\"\narmor_type = \"plate\"";
            let Ok(p) =
                FightPlan::prepare_at(&matchup(strong, GUARD), &o, kind, Intent::Lethal, 5, stand)
            else {
                continue;
            };
            for side in &p.sides {
                for (slot, blow) in side.blows.iter().enumerate() {
                    for situation in 0..SITUATIONS {
                        let named = terms(
                            blow.kind,
                            &side.terms[slot],
                            situation,
                            crate::rules::armed_defender::armed_bonus(&o),
                            (stand, stand.bonus(&o)),
                        );
                        assert_eq!(
                            named.total(),
                            blow.rolls[situation].modifier,
                            "{kind:?} from {stand:?}, slot {slot}, situation {situation}: {}",
                            named.words()
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 500, "only {checked} rolls checked");
}
