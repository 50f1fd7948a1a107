//! Narrated fights of several (`subdual explain`): a scripted trial of three thugs on a guard whose story
//! holds the expected steps in order, each die recorded with the member who rolled it, and seeded trials
//! whose narrated outcome is the plain run's.

use super::*;
use crate::dice::{Event, Narrator, Recording, Roller};
use crate::engine::trial_dice;
use crate::rules::maneuver::Maneuver;

use super::super::RecordedStreams;
use crate::rules::fight::tests::narration::{in_order, lines};

const NAMED_THUG: &str = "name = \"thug\"\nclass = \"fighter\"\nlevel = 1\nhp = 10";
const NAMED_GUARD: &str =
    "name = \"guard\"\nclass = \"fighter\"\nlevel = 1\nhp = 10\nweapon = \"long sword\"";

#[test]
fn three_thugs_on_a_guard_tell_initiative_targets_the_first_strike_and_the_rear_each_die_by_its_member()
 {
    let p = plan(
        vec![entry(NAMED_THUG, 3, Target::Focus)],
        vec![entry(NAMED_GUARD, 1, Target::Focus)],
        Style::Punch,
        &RuleOptions::default(),
        1,
    );
    let narrator = Narrator::new();
    let scripts = [
        vec![vec![1], vec![12, 50], vec![20, 50]],
        vec![vec![9, 6, 8]],
    ]
    .map(|side| side.into_iter().map(Scripted::new).collect::<Vec<_>>());
    let mut d = RecordedStreams::new(scripts, &narrator);
    let out = p.fight(&mut d);
    let plain = p.fight(&mut dice(
        vec![vec![1], vec![12, 50], vec![20, 50]],
        vec![vec![9, 6, 8]],
    ));
    assert_eq!(out, plain);
    let story = lines(&narrator.events());
    let sides = "[§6 Several combatants a side] ";
    let fights = "[§6 Punching, wrestling, overbearing and fights] ";
    let expected = [
        "[§1 Core procedures] The fight begins: every member rolls his hit points from his own dice, attackers first.".to_string(),
        "= thug 1 10/10 hp; thug 2 10/10 hp; thug 3 10/10 hp; the guard 10/10 hp.".into(),
        format!("{sides}Round 1."),
        format!("{sides}Initiative: a d10 a side, rolled by its first member; the lower acts first, a called shot adding 1."),
        "d10: 1 (0, 0)".into(),
        "d10: 9 (1, 0)".into(),
        format!("{sides}The order: thug 1 (1), thug 2 (1), thug 3 (1), the guard (9)."),
        format!("{sides}Thug 1 goes for the guard (he picks his side's first foe standing)."),
        format!("{sides}The guard goes for thug 1 (he picks his side's first foe standing)."),
        "[§3 The armed defender] The guard is armed and thug 1 closes on him unarmed: he strikes first, at +4.".into(),
        format!("{fights}The guard swings at thug 1: 6 or more on the d20 (THAC0 against armor class, modifier +4 the armed man)."),
        "d20: 6 (1, 0)".into(),
        format!("{fights}Natural 6: a hit."),
        "d8: 8 (1, 0)".into(),
        format!("{fights}Thug 1 takes 12 real and 0 temporary damage."),
        // Thug 1 fell: thug 2 now stands first on the guard, in front, and thug 3 behind him.
        format!("{fights}Thug 2 punches the guard: 10 or more on the d20 (THAC0 against armor class, modifier none)."),
        "d20: 12 (0, 1)".into(),
        format!("{fights}Natural 12: a hit; the row of 12 does 0 real and 1 temporary damage, with a 5 % chance of a knockout."),
        "d100: 50 (0, 1)".into(),
        format!("{fights}Thug 3 punches the guard: 8 or more on the d20 (THAC0 against armor class, modifier +2 from the rear)."),
        "d20: 20 (0, 2)".into(),
        "d100: 50 (0, 2)".into(),
        "= thug 1 -2/10 hp, dead; thug 2 10/10 hp; thug 3 10/10 hp; the guard 7/10 hp (3 temporary damage).".into(),
        format!("{sides}Both sides still stand after 1 rounds: a timeout. Attackers down: 1, killed: 1; victims killed: 0."),
    ];
    in_order(
        &story,
        &expected.iter().map(String::as_str).collect::<Vec<_>>(),
    );
}

/// Fights of several of every kind the round knows: punches on an armed guard with side and individual
/// initiative, a pile by each rule, wrestling holds and friends breaking them, a lethal guard.
fn every_kind() -> Vec<GangPlan> {
    let individual = RuleOptions {
        initiative: crate::rules::options::Initiative::Individual,
        ..RuleOptions::default()
    };
    let combat_and_tactics = RuleOptions {
        pile: crate::rules::options::Pile::CombatAndTactics,
        ..RuleOptions::default()
    };
    let three = |target| vec![entry(NAMED_THUG, 3, target)];
    let guard = || vec![entry(NAMED_GUARD, 1, Target::Focus)];
    let bare = || vec![entry(FIST_GUARD, 2, Target::Weakest)];
    [
        (Target::Focus, guard(), Style::Punch, RuleOptions::default()),
        (Target::Random, guard(), Style::Punch, individual),
        (
            Target::Spread,
            bare(),
            Style::Wrestle,
            RuleOptions::default(),
        ),
        (
            Target::Focus,
            guard(),
            Style::Overbear,
            RuleOptions::default(),
        ),
        (Target::Focus, guard(), Style::Overbear, combat_and_tactics),
        (
            Target::Strongest,
            bare(),
            Style::Sap,
            RuleOptions::default(),
        ),
    ]
    .into_iter()
    .map(|(target, victims, style, o)| plan(three(target), victims, style, &o, 20))
    .collect()
}

#[test]
fn a_narrated_fight_of_several_has_the_plain_fights_outcome_and_records_each_members_dice() {
    for (k, p) in every_kind().iter().enumerate() {
        for t in 0..300 {
            let mut plain = trial_dice(33, t);
            let narrator = Narrator::new();
            let mut recorded = Recording::new(trial_dice(33, t), narrator.clone());
            assert_eq!(
                p.resolve(&mut plain),
                p.resolve(&mut recorded),
                "plan {k}, trial {t}"
            );
            assert_eq!(
                plain.die(1 << 30),
                recorded.die(1 << 30),
                "plan {k}, trial {t}"
            );
            let dice: Vec<Option<(usize, usize)>> = narrator
                .events()
                .iter()
                .filter_map(|e| match e {
                    Event::Die { who, .. } => Some(*who),
                    Event::Step { .. } | Event::State { .. } => None,
                })
                .collect();
            // The trial's stream gives the two key words, which seed streams and are no dice of the story,
            // and, here, the check's die; every other die is a member's, recorded with his side and index.
            let n = dice.len();
            assert!(n > 2, "plan {k}, trial {t}: the members rolled");
            assert!(dice[n - 1].is_none());
            assert!(
                dice[..n - 1].iter().all(Option::is_some),
                "plan {k}, trial {t}: a member's die recorded without its member"
            );
            assert!(
                narrator
                    .events()
                    .iter()
                    .any(|e| matches!(e, Event::State { .. })),
                "plan {k}, trial {t}: no state told"
            );
        }
    }
}

#[test]
fn a_combat_and_tactics_pile_tells_the_free_attacks_the_roll_against_ac_10_and_the_strength_contest()
 {
    let o = RuleOptions {
        pile: crate::rules::options::Pile::CombatAndTactics,
        ..RuleOptions::default()
    };
    let p = plan(
        vec![entry(NAMED_THUG, 2, Target::Focus)],
        vec![entry(
            NAMED_GUARD
                .replace("\nweapon = \"long sword\"", "")
                .as_str(),
            1,
            Target::Focus,
        )],
        Style::Overbear,
        &o,
        1,
    );
    let narrator = Narrator::new();
    let scripts = [vec![vec![1, 10, 5, 15], vec![]], vec![vec![9, 1, 1, 1]]]
        .map(|side| side.into_iter().map(Scripted::new).collect::<Vec<_>>());
    p.fight(&mut RecordedStreams::new(scripts, &narrator));
    let story = lines(&narrator.events());
    let sides = "[§6 Several combatants a side] ";
    let expected = [
        format!("{sides}Thug 1 and thug 2 pile on the guard: one roll for all, by thug 1."),
        format!("{sides}The Combat & Tactics pile: the guard takes a free attack at each member as it forms."),
        "[§6 Punching, wrestling, overbearing and fights] The guard punches thug 1: 10 or more on the d20 (THAC0 against armor class, modifier none).".into(),
        "d20: 1 (1, 0)".into(),
        "[§6 Punching, wrestling, overbearing and fights] The guard punches thug 2: 10 or more on the d20 (THAC0 against armor class, modifier none).".into(),
        "d20: 1 (1, 0)".into(),
        format!("{sides}The pile's attack roll: the best member's THAC0 against armor class 10 (10, the foe's Dexterity and magic): 10 or more on the d20."),
        "d20: 10 (0, 0)".into(),
        format!("{sides}Natural 10: a hit. The opposed Strength roll: the largest member's Strength, +1 for size and numbers, against the guard's."),
        "d20: 5 (0, 0)".into(),
        "d20: 15 (0, 0)".into(),
        format!("{sides}The pile wins the Strength roll."),
        format!("{sides}The guard is knocked down."),
        "= thug 1 10/10 hp; thug 2 10/10 hp; the guard 10/10 hp, knocked down.".into(),
    ];
    in_order(
        &story,
        &expected.iter().map(String::as_str).collect::<Vec<_>>(),
    );
}
