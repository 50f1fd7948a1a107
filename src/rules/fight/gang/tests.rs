//! Scripted fights of several a side: each member's dice scripted on his own, so a test reads which member
//! rolled what, in which order.

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
            sides: [attackers, victims],
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
