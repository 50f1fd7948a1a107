//! Scripted fights of several a side: each member's dice scripted on his own, so a test reads which member
//! rolled what, in which order.

mod narration;

use super::streams::ScriptedMembers;
use super::*;
use crate::dice::Scripted;
use crate::rules::fight::{FightKind, Intent, Style, Then};
use crate::rules::{RuleOptions, matchup};

/// A combatant from TOML.
fn who(text: &str) -> Combatant {
    matchup(text, text).attacker
}

fn entry(text: &str, count: u32, target: Target) -> Entry {
    Entry {
        combatant: who(text),
        count,
        target,
    }
}

fn plan(
    attackers: Vec<Entry>,
    victims: Vec<Entry>,
    style: Style,
    o: &RuleOptions,
    rounds: u32,
) -> GangPlan {
    GangPlan::prepare(
        &Sides {
            sides: [attackers.into(), victims.into()],
        },
        o,
        FightKind::Brawl(style),
        Intent::Lethal,
        rounds,
        Then::Punch,
    )
    .unwrap()
}

fn dice(attackers: Vec<Vec<u32>>, victims: Vec<Vec<u32>>) -> ScriptedMembers {
    ScriptedMembers {
        rollers: [attackers, victims].map(|side| side.into_iter().map(Scripted::new).collect()),
        calls: Vec::new(),
    }
}

/// Every scripted face was used.
fn all_used(d: &ScriptedMembers) {
    for (s, side) in d.rollers.iter().enumerate() {
        for (i, r) in side.iter().enumerate() {
            assert_eq!(
                r.remaining(),
                0,
                "member {i} of side {s} left faces: asked {:?}",
                r.requests()
            );
        }
    }
}

const THUG: &str = "class = \"fighter\"\nlevel = 1\nhp = 10";
const GUARD: &str = "class = \"fighter\"\nlevel = 1\nhp = 10\nweapon = \"long sword\"";
const FIST_GUARD: &str = "class = \"fighter\"\nlevel = 1\nhp = 10";

#[test]
fn side_initiative_is_one_d10_a_side_from_its_first_member_and_the_lower_side_acts_first() {
    let p = plan(
        vec![entry(THUG, 2, Target::Focus)],
        vec![entry(FIST_GUARD, 1, Target::Focus)],
        Style::Punch,
        &RuleOptions::default(),
        1,
    );
    // Attackers roll 3, the guard 7: both thugs punch first (d20 1: a miss each), then the guard.
    let mut d = dice(vec![vec![3, 1], vec![1]], vec![vec![7, 1]]);
    let out = p.fight(&mut d);
    assert_eq!(out.ending, GangEnding::Timeout);
    all_used(&d);
    assert_eq!(
        d.rollers[0][0].requests(),
        &[10, 20],
        "thug 1 rolls the side's d10"
    );
    assert_eq!(
        d.rollers[0][1].requests(),
        &[20],
        "thug 2 rolls no initiative"
    );
}

#[test]
fn individual_initiative_is_a_d10_each() {
    let o = RuleOptions {
        initiative: crate::rules::options::Initiative::Individual,
        ..RuleOptions::default()
    };
    let p = plan(
        vec![entry(THUG, 2, Target::Focus)],
        vec![entry(FIST_GUARD, 1, Target::Focus)],
        Style::Punch,
        &o,
        1,
    );
    let mut d = dice(vec![vec![3, 1], vec![9, 1]], vec![vec![5, 1]]);
    p.fight(&mut d);
    all_used(&d);
    assert_eq!(d.rollers[0][1].requests(), &[10, 20]);
}

#[test]
fn a_lone_armed_guard_strikes_first_at_the_first_unarmed_foe_to_close_and_only_him() {
    // One attack: the guard's first strike goes at thug 1 (first in order), at +4: THAC0 20 against AC 10
    // needs 10, −4: a 6 hits; 1d8 = 8, +4 = 12 kills thug 1 (10 hp). Thug 2 punches on (d20 1, a miss).
    let p = plan(
        vec![entry(THUG, 2, Target::Focus)],
        vec![entry(GUARD, 1, Target::Focus)],
        Style::Punch,
        &RuleOptions::default(),
        1,
    );
    let mut d = dice(vec![vec![1], vec![1]], vec![vec![9, 6, 8]]);
    let out = p.fight(&mut d);
    all_used(&d);
    assert_eq!(out.attackers_killed, 1);
    assert_eq!(out.attackers_down, 1);
    assert_eq!(out.ending, GangEnding::Timeout);
    assert_eq!(d.rollers[1][0].requests(), &[10, 20, 8], "one strike only");
}

#[test]
fn staggered_second_attacks_come_after_every_first_attack() {
    // A level 13 warrior makes 2 attacks; staggered, his second comes after the guard's first.
    let veteran = "class = \"fighter\"\nlevel = 13\nhp = 50";
    let p = plan(
        vec![
            entry(veteran, 1, Target::Focus),
            entry(THUG, 1, Target::Focus),
        ],
        vec![entry(FIST_GUARD, 1, Target::Focus)],
        Style::Punch,
        &RuleOptions::default(),
        1,
    );
    // The attackers' side rolls 1 (first), the guard 5. Veteran punch (miss 1), thug punch (miss 1), guard
    // punch (miss 1), then the veteran's second (miss 1).
    let mut d = dice(vec![vec![1, 1, 1], vec![1]], vec![vec![5, 1]]);
    p.fight(&mut d);
    all_used(&d);
    let strikes: Vec<_> = d.calls[5..].to_vec(); // after three hit points and two initiatives
    assert_eq!(strikes, [(0, 0), (0, 1), (1, 0), (0, 0)]);
    // Together, the veteran's two attacks come at once.
    let o = RuleOptions {
        multiple_attacks: crate::rules::options::MultipleAttacks::Together,
        ..RuleOptions::default()
    };
    let p = plan(
        vec![
            entry(veteran, 1, Target::Focus),
            entry(THUG, 1, Target::Focus),
        ],
        vec![entry(FIST_GUARD, 1, Target::Focus)],
        Style::Punch,
        &o,
        1,
    );
    let mut d = dice(vec![vec![1, 1, 1], vec![1]], vec![vec![5, 1]]);
    p.fight(&mut d);
    assert_eq!(d.calls[5..], [(0, 0), (0, 0), (0, 1), (1, 0)]);
}

#[test]
fn each_policy_picks_its_documented_foe() {
    let weak = "class = \"fighter\"\nlevel = 1\nhp = 3";
    let strong = "class = \"fighter\"\nlevel = 1\nhp = 19";
    for (target, expected) in [
        (Target::Focus, 0),
        (Target::Weakest, 1),
        (Target::Strongest, 2),
        (Target::Spread, 0),
        (Target::Random, 2),
    ] {
        let p = plan(
            vec![entry(THUG, 1, target)],
            vec![
                entry(FIST_GUARD, 1, Target::Focus),
                entry(weak, 1, Target::Focus),
                entry(strong, 1, Target::Focus),
            ],
            Style::Punch,
            &RuleOptions::default(),
            1,
        );
        let script = if target == Target::Random {
            vec![3]
        } else {
            vec![]
        };
        let mut d = dice(vec![script], vec![vec![], vec![], vec![]]);
        let mut m = p.start(&mut d);
        p.choose(&mut m, (0, 0), &mut d);
        assert_eq!(m[0][0].foe, Some(expected), "{target:?}");
    }
}

#[test]
fn spread_goes_to_the_foe_with_fewest_on_him_and_no_more_than_the_room_allows() {
    let p = plan(
        vec![entry(THUG, 8, Target::Spread)],
        vec![entry(FIST_GUARD, 2, Target::Focus)],
        Style::Punch,
        &RuleOptions::default(),
        1,
    );
    let mut d = dice(vec![vec![]; 8], vec![vec![]; 2]);
    let mut m = p.start(&mut d);
    for i in 0..8 {
        p.choose(&mut m, (0, i), &mut d);
    }
    let foes: Vec<_> = m[0].iter().map(|x| x.foe).collect();
    assert_eq!(
        foes,
        [0, 1, 0, 1, 0, 1, 0, 1].map(Some),
        "alternating, four on each"
    );
    // Focus: six Medium men around one Medium foe, the seventh goes to the next.
    let p = plan(
        vec![entry(THUG, 8, Target::Focus)],
        vec![entry(FIST_GUARD, 2, Target::Focus)],
        Style::Punch,
        &RuleOptions::default(),
        1,
    );
    let mut m = p.start(&mut d);
    for i in 0..8 {
        p.choose(&mut m, (0, i), &mut d);
    }
    let foes: Vec<_> = m[0].iter().map(|x| x.foe).collect();
    assert_eq!(foes, [0, 0, 0, 0, 0, 0, 1, 1].map(Some));
}

#[test]
fn the_first_members_roll_the_same_dice_whatever_the_gang_size() {
    use crate::dice::Roller;
    let mut first = crate::engine::trial_dice(7, 12);
    let mut second = crate::engine::trial_dice(7, 12);
    let mut three = MemberStreams::new(&mut first, [3, 1]);
    let mut four = MemberStreams::new(&mut second, [4, 1]);
    for i in 0..3 {
        let a: Vec<u32> = (0..50).map(|_| three.member(0, i).die(20)).collect();
        let b: Vec<u32> = (0..50).map(|_| four.member(0, i).die(20)).collect();
        assert_eq!(a, b, "member {i}");
    }
    let a: Vec<u32> = (0..50).map(|_| three.member(1, 0).die(20)).collect();
    let b: Vec<u32> = (0..50).map(|_| four.member(1, 0).die(20)).collect();
    assert_eq!(a, b, "the victim");
    let c: Vec<u32> = (0..50).map(|_| four.member(0, 3).die(20)).collect();
    assert_ne!(a, c, "the new member has dice of his own");
}

const PIXIE: &str = "class = \"fighter\"\nlevel = 1\nhp = 10\nrace = \"halfling\"";

#[test]
fn a_pile_rolls_once_at_the_weakest_to_hit_with_the_largest_size_and_one_per_extra_member() {
    // Three level 1 fighters (THAC0 20) and one level 7 (THAC0 14) overbear a man, AC 10: the weakest needs
    // 10; no size modifier (all Medium); +3 for three extra members: the pile needs 7.
    let hero = "class = \"fighter\"\nlevel = 7\nhp = 10";
    let p = plan(
        vec![entry(hero, 1, Target::Focus), entry(THUG, 3, Target::Focus)],
        vec![entry(FIST_GUARD, 1, Target::Focus)],
        Style::Overbear,
        &RuleOptions::default(),
        1,
    );
    let mut d = dice(vec![vec![1, 7], vec![], vec![], vec![]], vec![vec![9, 1]]);
    let mut m = p.start(&mut d);
    for i in 0..4 {
        p.choose(&mut m, (0, i), &mut d);
    }
    assert_eq!(p.phb_needed(&m, 0, &[0, 1, 2, 3], 0, 1), 7);
    // The fight: the side's d10 (1), then one d20 for the whole pile (7: it lands, the guard is knocked
    // down), then the guard punches (d20 1: a miss). Nobody else rolls.
    let mut d = dice(vec![vec![1, 7], vec![], vec![], vec![]], vec![vec![9, 1]]);
    let out = p.fight(&mut d);
    all_used(&d);
    assert_eq!(out.ending, GangEnding::Timeout);
    // A 6 fails.
    let mut d = dice(vec![vec![1, 6], vec![], vec![], vec![]], vec![vec![9, 1]]);
    let mut m = p.start(&mut d);
    p.round_for_tests(&mut m, 1, &mut d);
    assert_eq!(m[1][0].f.prone_since, None);
    let mut d = dice(vec![vec![1, 7], vec![], vec![], vec![]], vec![vec![9, 1]]);
    let mut m = p.start(&mut d);
    p.round_for_tests(&mut m, 1, &mut d);
    assert_eq!(m[1][0].f.prone_since, Some(1));
    // Halflings are Small: against a man each is −4; the largest (a man) gives 0, so the pile of a man and
    // a halfling needs the weaker's 10 (the halfling's, size taken out), 0, −1: 9.
    let p = plan(
        vec![
            entry(THUG, 1, Target::Focus),
            entry(PIXIE, 1, Target::Focus),
        ],
        vec![entry(FIST_GUARD, 1, Target::Focus)],
        Style::Overbear,
        &RuleOptions::default(),
        1,
    );
    let mut d = dice(vec![vec![], vec![]], vec![vec![]]);
    let mut m = p.start(&mut d);
    for i in 0..2 {
        p.choose(&mut m, (0, i), &mut d);
    }
    assert_eq!(p.phb_needed(&m, 0, &[0, 1], 0, 1), 9);
    // A halfling alone needs what he needs one on one: 10, +4 for his size.
    assert_eq!(p.phb_needed(&m, 0, &[1], 0, 1), 14);
}

#[test]
fn a_combat_and_tactics_pile_meets_a_free_attack_at_each_member_then_rolls_against_ac_10_and_strength()
 {
    let o = RuleOptions {
        pile: crate::rules::options::Pile::CombatAndTactics,
        ..RuleOptions::default()
    };
    let p = plan(
        vec![entry(THUG, 2, Target::Focus)],
        vec![entry(FIST_GUARD, 1, Target::Focus)],
        Style::Overbear,
        &o,
        1,
    );
    // Side d10 1 (attackers first). The guard punches each thug as the pile forms (d20 1, 1: misses). The
    // pile's d20 10 hits AC 10; the opposed Strength roll (thug 1's dice: 5 for the pile, +1 for its second
    // member, against 15 for the guard) goes to the pile and the guard is knocked down; he punches from the
    // ground and misses (d20 1).
    let mut d = dice(vec![vec![1, 10, 5, 15], vec![]], vec![vec![9, 1, 1, 1]]);
    let mut m = p.start(&mut d);
    p.round_for_tests(&mut m, 1, &mut d);
    all_used(&d);
    assert_eq!(
        d.calls[5..],
        [(1, 0), (1, 0), (0, 0), (1, 0)],
        "two free attacks, the pile, the guard"
    );
}

#[test]
fn the_second_on_a_foe_stands_behind_at_plus_2_and_the_third_at_his_flank_at_plus_1() {
    let p = plan(
        vec![entry(THUG, 3, Target::Focus)],
        vec![entry(FIST_GUARD, 1, Target::Focus)],
        Style::Punch,
        &RuleOptions::default(),
        1,
    );
    let mut d = dice(vec![vec![]; 3], vec![vec![]]);
    let mut m = p.start(&mut d);
    for i in 0..3 {
        p.choose(&mut m, (0, i), &mut d);
    }
    use crate::rules::fight::decide::Stand;
    assert_eq!(
        (0..3).map(|i| p.stand(&m, (0, i), 0)).collect::<Vec<_>>(),
        [Stand::Front, Stand::Rear, Stand::Flank]
    );
    let need = |stand| {
        let roll = &p.between_at((0, 0), 0, stand).sides[0].blows[m[0][0].f.slot as usize].rolls[0];
        roll.target - roll.modifier
    };
    assert_eq!(need(Stand::Front), 10);
    assert_eq!(need(Stand::Rear), 8);
    assert_eq!(need(Stand::Flank), 9);
    // Without flanking everyone stands in front.
    let o = RuleOptions {
        flanking: false,
        ..RuleOptions::default()
    };
    let p = plan(
        vec![entry(THUG, 3, Target::Focus)],
        vec![entry(FIST_GUARD, 1, Target::Focus)],
        Style::Punch,
        &o,
        1,
    );
    let mut m = p.start(&mut d);
    for i in 0..3 {
        p.choose(&mut m, (0, i), &mut d);
    }
    assert_eq!(p.stand(&m, (0, 1), 0), Stand::Front);
}

#[test]
fn a_shield_and_dexterity_do_not_count_from_behind() {
    let shielded = "class = \"fighter\"\nlevel = 1\nhp = 10\ndexterity = 16\nshield = 1";
    let p = plan(
        vec![entry(THUG, 2, Target::Focus)],
        vec![entry(shielded, 1, Target::Focus)],
        Style::Punch,
        &RuleOptions::default(),
        1,
    );
    use crate::rules::fight::decide::Stand;
    let need = |stand| {
        let roll = &p.between_at((0, 0), 0, stand).sides[0].blows[2].rolls[0];
        roll.target - roll.modifier
    };
    // AC 10 − 1 shield − 2 Dexterity = 7: needs 13 in front, 14 at the flank (+1 only), and from behind AC
    // 10 with +2: 8.
    assert_eq!(need(Stand::Front), 13);
    assert_eq!(need(Stand::Flank), 12);
    assert_eq!(need(Stand::Rear), 8);
}

#[test]
fn a_free_friend_spends_his_attack_breaking_the_hold_on_a_held_friend() {
    // The guard wrestles; he holds thug 1. Thug 2, free, spends his first attack on the contest for him.
    let p = plan(
        vec![entry(THUG, 2, Target::Focus)],
        vec![entry(FIST_GUARD, 1, Target::Focus)],
        Style::Punch,
        &RuleOptions::default(),
        2,
    );
    let mut d = dice(vec![vec![], vec![]], vec![vec![]]);
    let mut m = p.start(&mut d);
    m[1][0].holds = Some(0);
    m[1][0].f.holding = 1;
    m[0][0].held_by = Some(0);
    m[0][0].f.held = true;
    m[0][1].foe = Some(0);
    // Thug 2 acts: the contest (his d20 3 against the guard's 18: his success margin beats the guard's
    // failure), and thug 1 is free.
    let mut d = dice(vec![vec![], vec![3, 18]], vec![vec![]]);
    p.turn_for_tests(&mut m, (0, 1), 2, &mut d);
    all_used(&d);
    assert_eq!(m[0][0].held_by, None);
    assert_eq!(m[1][0].holds, None);
    assert!(m[0][0].helped);
}

#[test]
fn a_knocked_out_member_wakes_when_his_rounds_run_out_and_fights_again() {
    let p = plan(
        vec![entry(THUG, 2, Target::Focus)],
        vec![entry(FIST_GUARD, 1, Target::Focus)],
        Style::Punch,
        &RuleOptions::default(),
        10,
    );
    let mut d = dice(vec![vec![], vec![]], vec![vec![]]);
    let mut m = p.start(&mut d);
    // Thug 1 was sapped out in round 2 for 3 rounds: out through round 5.
    m[0][0].f.down_at = crate::rules::fight::fighter::PINNED;
    m[0][0].f.out_through = 5;
    p.get_up_for_tests(&mut m, 5);
    assert!(m[0][0].f.down(), "still out in round 5");
    p.get_up_for_tests(&mut m, 6);
    assert!(!m[0][0].f.down(), "up as round 6 begins");
    // And he acts in round 6: side d10, his punch (d20 1), thug 2's, the guard's.
    let mut d = dice(vec![vec![1, 1], vec![1]], vec![vec![9, 1]]);
    p.round_for_tests(&mut m, 6, &mut d);
    all_used(&d);
}

#[test]
fn an_armed_man_with_two_attacks_strikes_the_first_two_unarmed_foes_to_close() {
    let veteran = "class = \"fighter\"\nlevel = 13\nhp = 50\nweapon = \"long sword\"";
    let p = plan(
        vec![entry(THUG, 3, Target::Focus)],
        vec![entry(veteran, 1, Target::Focus)],
        Style::Punch,
        &RuleOptions::default(),
        1,
    );
    // Initiative 5 against 9: the thugs act first, so they close in order 1, 2, 3. The guard's two strikes
    // (d20 1: misses) go at thugs 1 and 2; then all three punch (d20 1).
    let mut d = dice(vec![vec![5, 1], vec![1], vec![1]], vec![vec![9, 1, 1]]);
    let mut m = p.start(&mut d);
    p.round_for_tests(&mut m, 1, &mut d);
    all_used(&d);
    assert_eq!(
        d.calls[4..],
        [(0, 0), (1, 0), (1, 0), (1, 0), (0, 0), (0, 1), (0, 2)]
    );
    // With one thug closing, both strikes go at him.
    let p = plan(
        vec![entry(THUG, 1, Target::Focus)],
        vec![entry(veteran, 1, Target::Focus)],
        Style::Punch,
        &RuleOptions::default(),
        1,
    );
    let mut d = dice(vec![vec![5, 1]], vec![vec![9, 1, 1]]);
    let mut m = p.start(&mut d);
    p.round_for_tests(&mut m, 1, &mut d);
    all_used(&d);
}

/// One a side, the round of sides fights the one-on-one round's fight: the same rules on other dice, so the
/// endings' frequencies and the mean length agree within 4.5 standard errors, for every kind of blow.
#[test]
fn one_a_side_the_round_of_sides_agrees_with_the_one_on_one_fight() {
    use crate::rules::fight::{Ending, FightPlan};
    use crate::rules::maneuver::Maneuver;
    let guard = "class = \"fighter\"\nlevel = 3\nhp = \"3d10\"\nweapon = \"long sword\"";
    let brawler = "class = \"fighter\"\nlevel = 3\nhp = \"3d10\"\nstrength = \"17\"";
    let swordsman = "class = \"fighter\"\nlevel = 4\nhp = \"4d10\"\nweapon = \"long sword\"";
    let thief = "class = \"thief\"\nlevel = 3\nhp = \"3d6\"\nweapon = \"club\"";
    let ogre = "monster = \"ogre\"";
    let cases: [(&str, &str, FightKind, Intent); 7] = [
        (
            brawler,
            guard,
            FightKind::Brawl(Style::Punch),
            Intent::Lethal,
        ),
        (
            brawler,
            guard,
            FightKind::Brawl(Style::Wrestle),
            Intent::Lethal,
        ),
        (
            brawler,
            FIST_GUARD,
            FightKind::Brawl(Style::Overbear),
            Intent::Lethal,
        ),
        (
            swordsman,
            guard,
            FightKind::Subdue(Style::Punch),
            Intent::Lethal,
        ),
        (
            swordsman,
            ogre,
            FightKind::Subdue(Style::Punch),
            Intent::Subdue,
        ),
        (thief, guard, FightKind::Brawl(Style::Sap), Intent::Lethal),
        (
            brawler,
            guard,
            FightKind::Brawl(Style::Disarm),
            Intent::Lethal,
        ),
    ];
    let n = 40_000u64;
    for (a, v, kind, intent) in cases {
        let m = matchup(a, v);
        let o = RuleOptions::default();
        let one = FightPlan::prepare(&m, &o, kind, intent, 30)
            .and_then(|p| p.with_then(&m, &o, kind, Then::Punch))
            .unwrap();
        let sides =
            GangPlan::prepare(&Sides::one_on_one(&m), &o, kind, intent, 30, Then::Punch).unwrap();
        let mut tallies = [[0u64; 6]; 2];
        let mut rounds = [0f64; 2];
        let mut squares = [0f64; 2];
        for t in 0..n {
            let out = one.resolve(&mut crate::engine::trial_dice(1, t));
            let e = match out.ending {
                Ending::AttackerWins => 0,
                Ending::VictimWins => 1,
                Ending::BothDown => 2,
                Ending::Timeout => 3,
            };
            tallies[0][e] += 1;
            tallies[0][4] += u64::from(out.killed[0]);
            tallies[0][5] += u64::from(out.killed[1]);
            rounds[0] += f64::from(out.rounds);
            squares[0] += f64::from(out.rounds).powi(2);
            let out = Maneuver::resolve(&sides, &mut crate::engine::trial_dice(2, t));
            let e = match out.ending {
                GangEnding::AttackersWin => 0,
                GangEnding::VictimsWin => 1,
                GangEnding::BothDown => 2,
                GangEnding::Timeout => 3,
            };
            tallies[1][e] += 1;
            tallies[1][4] += u64::from(out.attackers_killed);
            tallies[1][5] += u64::from(out.victims_killed);
            rounds[1] += f64::from(out.rounds);
            squares[1] += f64::from(out.rounds).powi(2);
        }
        let nf = n as f64;
        // The four endings, then the attacker killed, the victim killed.
        for e in 0..6 {
            let p = tallies.map(|t| t[e] as f64 / nf);
            let se = (p[0] * (1.0 - p[0]) / nf + p[1] * (1.0 - p[1]) / nf).sqrt();
            assert!(
                (p[0] - p[1]).abs() <= 4.5 * se + 1e-9,
                "{kind:?} {a} vs {v}: outcome {e}: one on one {} against sides {}",
                p[0],
                p[1]
            );
        }
        let mean = rounds.map(|r| r / nf);
        let var = [0, 1].map(|i| squares[i] / nf - mean[i] * mean[i]);
        let se = ((var[0] + var[1]) / nf).sqrt();
        assert!(
            (mean[0] - mean[1]).abs() <= 4.5 * se + 1e-9,
            "{kind:?}: rounds {} against {}",
            mean[0],
            mean[1]
        );
    }
}

/// Every member rolling from one roller: what lets the exact enumerator walk a round of sides.
struct Shared<'a, R>(&'a mut R);

impl<R: crate::dice::Roller> MemberDice for Shared<'_, R> {
    type Roller = R;
    fn member(&mut self, _side: usize, _index: usize) -> &mut R {
        self.0
    }
}

/// A one-round pile of two thugs on an unarmed guard, every die walked exactly, against the rule by hand: on
/// initiative the thugs' pile needs 9 (10, +1 for the second thug); if the guard acts first and his punch
/// knocks thug 1 out (stunned, he cannot act, but stands in front of the guard), thug 2 overbears alone from
/// behind, needing 8 (10, +2 from the rear).
#[test]
fn a_one_round_pile_has_exactly_the_probability_the_rule_gives() {
    use crate::dice::Enumerator;
    let p = plan(
        vec![entry(THUG, 2, Target::Focus)],
        vec![entry(FIST_GUARD, 1, Target::Focus)],
        Style::Overbear,
        &RuleOptions::default(),
        1,
    );
    let (mut down, mut total) = (0f64, 0f64);
    Enumerator::walk(
        |e| {
            let mut d = Shared(e);
            let mut m = p.start(&mut d);
            p.round_for_tests(&mut m, 1, &mut d);
            m[1][0].f.prone_since.is_some()
        },
        |prone, numerator, denominator| {
            let w = numerator as f64 / denominator as f64;
            total += w;
            if prone {
                down += w;
            }
        },
    );
    // By hand: the guard's punch on thug 1 needs 10 (THAC0 20, AC 10, no Strength to hit); its knockout
    // chance is read from the row of the modified roll.
    let guard = who(FIST_GUARD);
    let thug = who(THUG);
    let mut stun = 0.0;
    for natural in 1..=20 {
        let modified = natural + guard.hit_adjustment();
        if natural >= 20 - 10 - guard.hit_adjustment() || natural == 20 {
            let row = crate::rules::brawl::punch(
                modified,
                guard.damage_adjustment(),
                RuleOptions::default().rounding,
            );
            stun += f64::from(row.ko_percent) / 100.0 / 20.0;
        }
    }
    let pile = f64::from(20 - (10 - thug.hit_adjustment() - 1) + 1) / 20.0;
    let alone = f64::from(20 - (10 - thug.hit_adjustment() - 2) + 1) / 20.0;
    let expected = 0.55 * pile + 0.45 * ((1.0 - stun) * pile + stun * alone);
    assert!((total - 1.0).abs() < 1e-12);
    assert!(
        (down - expected).abs() < 1e-12,
        "walked {down}, by hand {expected} (stun {stun})"
    );
}

/// The round of sides is fast without changing a single die: a checksum of every field of every outcome of
/// 20,000 trials of each kind of fight of several, against the numbers the round gave before its speed
/// work. Any change to who rolls what, in which order, or to what a blow does, moves a checksum.
#[test]
fn the_outcomes_of_many_fights_of_several_are_those_recorded() {
    use crate::rules::maneuver::Maneuver;
    use crate::rules::options::{Initiative, Pile};
    let thug = "class = \"fighter\"\nlevel = 2\nstrength = 16\nac = 8";
    let guard = "class = \"fighter\"\nlevel = 3\nstrength = 15\nweapon = \"long sword\"\nac = 5";
    let veteran = "class = \"fighter\"\nlevel = 13\nhp = 50\nweapon = \"long sword\"";
    let wrestler = "class = \"fighter\"\nlevel = 3\nhp = \"3d10\"\nstrength = \"17\"";
    let thief = "class = \"thief\"\nlevel = 3\nhp = \"3d6\"\nweapon = \"club\"";
    let halfling = "class = \"thief\"\nlevel = 2\nrace = \"halfling\"";
    let ogre = "monster = \"ogre\"";
    let d = RuleOptions::default;
    let with = |f: &dyn Fn(&mut RuleOptions)| {
        let mut o = d();
        f(&mut o);
        o
    };
    let brawl = |s| (FightKind::Brawl(s), Intent::Lethal);
    /// A name, the sides, the kind of fight, the options, the recorded checksum.
    type Case = (
        &'static str,
        Vec<Entry>,
        Vec<Entry>,
        (FightKind, Intent),
        RuleOptions,
        u64,
    );
    let cases: Vec<Case> = vec![
        (
            "3v1 punch, armed guard",
            vec![entry(thug, 3, Target::Focus)],
            vec![entry(guard, 1, Target::Focus)],
            brawl(Style::Punch),
            d(),
            0x160f336f2b4ab368,
        ),
        (
            "3v1 punch, no flanking, extra attack",
            vec![entry(thug, 3, Target::Focus)],
            vec![entry(guard, 1, Target::Focus)],
            brawl(Style::Punch),
            with(&|o| {
                o.flanking = false;
                o.armed_defender_extra_attack = true;
            }),
            0x6d05cf1ae227747c,
        ),
        (
            "4v2 punch, spread and random",
            vec![
                entry(thug, 2, Target::Spread),
                entry(thug, 2, Target::Random),
            ],
            vec![
                entry(guard, 1, Target::Weakest),
                entry(veteran, 1, Target::Strongest),
            ],
            brawl(Style::Punch),
            d(),
            0x0dc907068b720526,
        ),
        (
            "4v1 overbear, PHB pile",
            vec![
                entry(thug, 3, Target::Focus),
                entry(halfling, 1, Target::Focus),
            ],
            vec![entry(FIST_GUARD, 1, Target::Focus)],
            brawl(Style::Overbear),
            d(),
            0x3054e6179b98abd7,
        ),
        (
            "4v2 overbear, Combat & Tactics pile",
            vec![entry(thug, 4, Target::Spread)],
            vec![entry(guard, 2, Target::Focus)],
            brawl(Style::Overbear),
            with(&|o| o.pile = Pile::CombatAndTactics),
            0xf849a5afc0e104cb,
        ),
        (
            "3v2 wrestle",
            vec![entry(wrestler, 3, Target::Focus)],
            vec![entry(wrestler, 2, Target::Spread)],
            brawl(Style::Wrestle),
            d(),
            0x75c9a69af5e9c34d,
        ),
        (
            "3v2 sap",
            vec![entry(thief, 3, Target::Random)],
            vec![entry(guard, 2, Target::Focus)],
            brawl(Style::Sap),
            d(),
            0x683a8fe30dfe748e,
        ),
        (
            "3v2 punch, individual initiative",
            vec![
                entry(thug, 2, Target::Weakest),
                entry(veteran, 1, Target::Strongest),
            ],
            vec![entry(guard, 2, Target::Random)],
            brawl(Style::Punch),
            with(&|o| o.initiative = Initiative::Individual),
            0xfd5680e2872c9b5b,
        ),
        (
            "8v1 crowding",
            vec![
                entry(thug, 6, Target::Spread),
                entry(halfling, 2, Target::Focus),
            ],
            vec![entry(veteran, 1, Target::Focus)],
            brawl(Style::Punch),
            d(),
            0x8646fc6033c4646d,
        ),
        (
            "8v2 crowding, no flanking",
            vec![entry(thug, 8, Target::Focus)],
            vec![entry(guard, 2, Target::Spread)],
            brawl(Style::Punch),
            with(&|o| o.flanking = false),
            0xf69d5ba7cd66c060,
        ),
        (
            "3v1 subdual of an ogre",
            vec![entry(veteran, 3, Target::Focus)],
            vec![entry(ogre, 1, Target::Focus)],
            (FightKind::Subdue(Style::Punch), Intent::Subdue),
            d(),
            0x17d4a5657e05cc57,
        ),
    ];
    let mut sums = Vec::new();
    for (name, attackers, victims, (kind, intent), o, _) in &cases {
        let p = GangPlan::prepare(
            &Sides {
                sides: [attackers.clone().into(), victims.clone().into()],
            },
            o,
            *kind,
            *intent,
            40,
            Then::Punch,
        )
        .unwrap();
        let mut sum = 0xcbf2_9ce4_8422_2325u64;
        for t in 0..20_000u64 {
            let out = Maneuver::resolve(&p, &mut crate::engine::trial_dice(5, t));
            let ending = match out.ending {
                GangEnding::AttackersWin => 0,
                GangEnding::VictimsWin => 1,
                GangEnding::BothDown => 2,
                GangEnding::Timeout => 3,
            };
            for field in [
                ending,
                out.rounds,
                out.attackers_down,
                out.attackers_killed,
                out.victims_killed,
            ] {
                sum = (sum ^ u64::from(field)).wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        sums.push((*name, sum));
    }
    let recorded: Vec<(&str, u64)> = cases.iter().map(|c| (c.0, c.5)).collect();
    assert_eq!(sums, recorded);
}
