use super::*;
use crate::dice::Scripted;
use crate::rules::action::{Action, ActionOptions, Prepared};
use crate::rules::matchup;

mod exact;
pub(super) mod narration;
mod table;

/// A brawl with `Some(style)`, a subdual fight with `None` (punching, should the subduer be bare-handed).
fn kind(style: Option<Style>) -> FightKind {
    style.map_or(FightKind::Subdue(Style::Punch), FightKind::Brawl)
}

fn plan(
    attacker: &str,
    victim: &str,
    style: Option<Style>,
    intent: Intent,
    max_rounds: u32,
) -> FightPlan {
    FightPlan::prepare(
        &matchup(attacker, victim),
        &RuleOptions::default(),
        kind(style),
        intent,
        max_rounds,
    )
    .unwrap()
}

/// Fights with fixed hit points (no dice for them) and returns the outcome and both fighters at the end.
fn fight(p: &FightPlan, dice: &mut Scripted) -> (FightOutcome, [Fighter; 2]) {
    let mut f = p.start(dice);
    let out = p.fight(&mut f, p.clock(), dice);
    (out, f)
}

const BRAWLER: &str = "class = \"fighter\"\nlevel = 1\nhp = 3";
const GUARD: &str = "class = \"fighter\"\nlevel = 3\nhp = 30\nweapon = \"long sword\"";

#[test]
fn the_armed_defender_strikes_first_at_plus_4_and_the_brawler_dies_before_he_swings() {
    let p = plan(BRAWLER, GUARD, Some(Style::Punch), Intent::Lethal, 10);
    // Initiative 1 against 9 would favour the brawler; the guard strikes first anyway. THAC0 18 against
    // AC 10 with +4 needs 4: a 4 hits; 1d8 = 1, +4 damage = 5 ≥ 3 hit points.
    let mut dice = Scripted::new([1, 9, 4, 1]);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!(
        out,
        FightOutcome {
            ending: Ending::VictimWins,
            rounds: 1,
            killed: [true, false],
            won_by_opening: false,
            rounds_out: None,
            woke_before_bound: false,
        }
    );
    assert_eq!(f[ATTACKER].real, 5);
    assert_eq!(
        dice.requests(),
        &[10, 10, 20, 8],
        "the brawler never rolled"
    );
    // Without the +4 the same 4 misses.
    let o = RuleOptions {
        armed_defender_bonus: 0,
        ..RuleOptions::default()
    };
    let plain = FightPlan::prepare(
        &matchup(BRAWLER, GUARD),
        &o,
        FightKind::Brawl(Style::Punch),
        Intent::Lethal,
        1,
    )
    .unwrap();
    let mut dice = Scripted::new([1, 9, 4, 1]);
    let (out, _) = fight(&plain, &mut dice);
    assert_eq!(out.ending, Ending::Timeout);
}

#[test]
fn an_extra_attack_leaves_the_normal_one_to_initiative() {
    let o = RuleOptions {
        armed_defender_extra_attack: true,
        ..RuleOptions::default()
    };
    let brawler = "class = \"fighter\"\nlevel = 1\nhp = 30";
    let p = FightPlan::prepare(
        &matchup(brawler, GUARD),
        &o,
        FightKind::Brawl(Style::Punch),
        Intent::Lethal,
        1,
    )
    .unwrap();
    // Extra attack misses (d20 1); brawler first on initiative misses (d20 2); guard's normal attack misses (1).
    let mut dice = Scripted::new([1, 9, 1, 2, 1]);
    let (out, _) = fight(&p, &mut dice);
    assert_eq!(out.ending, Ending::Timeout);
    assert_eq!(dice.requests(), &[10, 10, 20, 20, 20]);
}

#[test]
fn a_held_defender_with_an_extra_attack_still_makes_it_at_minus_4_and_breaks_free_once() {
    let o = RuleOptions {
        armed_defender_extra_attack: true,
        ..RuleOptions::default()
    };
    let wrestler = "class = \"fighter\"\nlevel = 1\nhp = 50";
    let dagger_guard = "class = \"fighter\"\nlevel = 1\nhp = 50\nweapon = \"dagger\"";
    let p = FightPlan::prepare(
        &matchup(wrestler, dagger_guard),
        &o,
        FightKind::Brawl(Style::Wrestle),
        Intent::Lethal,
        2,
    )
    .unwrap();
    let mut dice = Scripted::new([
        1, 2, 1, 15, 15,
        5, // round 1: the extra attack misses; the wrestler (first) takes an arm lock;
        // the guard's normal attack is his contest, lost
        1, 2, 10, 3, 15,
        5, // round 2: the extra dagger attack (+4, −4 held) hits for 3 + 4; one contest, lost
    ]);
    let (_, f) = fight(&p, &mut dice);
    assert_eq!(
        dice.requests(),
        &[10, 10, 20, 20, 20, 20, 10, 10, 20, 4, 20, 20]
    );
    assert_eq!(f[ATTACKER].real, 3 + 4, "the extra attack's +4 damage");
    assert_eq!(dice.remaining(), 0);
    assert!(f[VICTIM].held);
    // The same fight with a 9 for the extra attack in round 2: the guard needs 10 (THAC0 20 against AC
    // 10), so it hits with the armed defender's +4 alone and misses with the hold's −4 as well.
    let mut dice = Scripted::new([1, 2, 1, 15, 15, 5, 1, 2, 9, 15, 5]);
    let (_, f) = fight(&p, &mut dice);
    assert_eq!(
        dice.requests(),
        &[10, 10, 20, 20, 20, 20, 10, 10, 20, 20, 20]
    );
    assert_eq!(f[ATTACKER].real, 0);
    assert_eq!(dice.remaining(), 0);
}

#[test]
fn a_hold_kept_three_rounds_does_1_then_2_then_3() {
    let wrestler = "class = \"fighter\"\nlevel = 1\nhp = 50";
    let dagger_guard = "class = \"fighter\"\nlevel = 1\nhp = 50\nweapon = \"dagger\"";
    let p = plan(
        wrestler,
        dagger_guard,
        Some(Style::Wrestle),
        Intent::Lethal,
        3,
    );
    let mut dice = Scripted::new([
        1, 2, 1,
        15, // round 1: the guard misses (a natural 1); the wrestler rolls 15: arm lock, a hold
        1, 2, 15,
        5, // round 2: the held guard's contest, 10 rolling 15 against 10 rolling 5: he stays held
        1, 2, 15, 5, // round 3: the same
    ]);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!(out.ending, Ending::Timeout);
    assert_eq!(f[VICTIM].real + f[VICTIM].temporary, 1 + 2 + 3);
    assert_eq!(f[ATTACKER].holding, 3);
    assert_eq!(dice.remaining(), 0);
}

#[test]
fn breaking_free_ends_the_hold_and_the_holder_attacks_normally() {
    let wrestler = "class = \"fighter\"\nlevel = 1\nhp = 50";
    let dagger_guard = "class = \"fighter\"\nlevel = 1\nhp = 50\nweapon = \"dagger\"";
    let p = plan(
        wrestler,
        dagger_guard,
        Some(Style::Wrestle),
        Intent::Lethal,
        2,
    );
    // Round 2: the guard rolls 5 against the wrestler's 15 and breaks free; the wrestler then rolls a new
    // wrestling attack (15: arm lock, a new hold).
    let mut dice = Scripted::new([1, 2, 1, 15, 1, 2, 5, 15, 15]);
    let (_, f) = fight(&p, &mut dice);
    assert_eq!(
        (f[ATTACKER].holding, f[ATTACKER].hold_began, f[VICTIM].held),
        (1, 2, true)
    );
    assert_eq!(f[VICTIM].real + f[VICTIM].temporary, 2);
}

#[test]
fn after_the_first_round_of_a_bout_only_size_s_weapons_serve() {
    let wrestler = "class = \"fighter\"\nlevel = 1\nhp = 50";
    let backed = "class = \"fighter\"\nlevel = 3\nhp = 50\nweapon = \"long sword\"\nbackup_weapon = \"dagger\"";
    let p = plan(wrestler, backed, Some(Style::Wrestle), Intent::Lethal, 2);
    // Round 1: long sword (d8) at +4; round 2: the dagger (d4), still armed, still first.
    let mut dice = Scripted::new([5, 5, 10, 3, 2, 5, 5, 10, 3, 2]);
    fight(&p, &mut dice);
    assert_eq!(dice.requests(), &[10, 10, 20, 8, 20, 10, 10, 20, 4, 20]);
    // Without a backup he is reduced to his fists: he punches, and initiative decides again.
    let p = plan(
        wrestler,
        GUARD.replace("hp = 30", "hp = 50").as_str(),
        Some(Style::Wrestle),
        Intent::Lethal,
        2,
    );
    let mut dice = Scripted::new([5, 5, 10, 3, 2, 1, 9, 2, 2]);
    fight(&p, &mut dice);
    assert_eq!(
        dice.requests(),
        &[10, 10, 20, 8, 20, 10, 10, 20, 20],
        "round 2: wrestler first, then a punch"
    );
}

#[test]
fn a_stunned_fighter_loses_his_actions_and_is_easier_to_hit() {
    let puncher = "class = \"fighter\"\nlevel = 1\nhp = 50";
    let bare = "class = \"fighter\"\nlevel = 1\nhp = 50";
    let p = plan(puncher, bare, Some(Style::Punch), Intent::Lethal, 3);
    let mut dice = Scripted::new([
        1, 5, 20, 5,
        1, // round 1: a haymaker, 10 % knockout: d100 5 stuns for 1d10 = 1 round; he loses round 1
        1, 5, 6,
        50, // round 2: still stunned; 6 + 4 = 10 hits (a glancing blow, 1 point), no knockout (3 %)
        1, 5, 2,
        2, // round 3: the brawler misses, the stunned-no-longer victim swings and misses
    ]);
    let (_, f) = fight(&p, &mut dice);
    assert_eq!(f[VICTIM].stunned_through, 2);
    // 2 for the haymaker and 1 for the glancing blow: the row read with the +4 (a bare 6 is a 2-point jab).
    assert_eq!(f[VICTIM].real + f[VICTIM].temporary, 3);
    assert_eq!(
        dice.requests(),
        &[10, 10, 20, 100, 10, 10, 10, 20, 100, 10, 10, 20, 20]
    );
}

#[test]
fn temporary_damage_knocks_out_where_real_damage_kills() {
    let subduer = "class = \"fighter\"\nlevel = 1\nhp = 20\nweapon = \"long sword\"";
    // The victim punches at a blade: the subduer strikes first at +4. Held back: 2 rolled + 4 → 3 applied,
    // 1 real and 2 temporary: 3 hit points are gone, 1 is real... unconscious.
    let p = plan(
        subduer,
        "class = \"fighter\"\nhp = 3",
        None,
        Intent::Lethal,
        5,
    );
    let mut dice = Scripted::new([9, 5, 18, 2]);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!(
        out,
        FightOutcome {
            ending: Ending::AttackerWins,
            rounds: 1,
            killed: [false, false],
            won_by_opening: false,
            rounds_out: Some(5),
            woke_before_bound: false,
        }
    );
    assert_eq!((f[VICTIM].real, f[VICTIM].temporary), (1, 2));
    // The victim answers at full force: 5 real points kill a subduer of 3. Both carry blades, so the fight
    // is plain: the subduer's 20 and 8 are rolled first, but he falls before he can strike.
    let p = plan(
        "class = \"fighter\"\nhp = 3\nweapon = \"long sword\"",
        "class = \"fighter\"\nhp = 20\nweapon = \"long sword\"",
        None,
        Intent::Lethal,
        5,
    );
    let mut dice = Scripted::new([5, 1, 20, 8, 15, 5]);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!(
        out,
        FightOutcome {
            ending: Ending::VictimWins,
            rounds: 1,
            killed: [true, false],
            won_by_opening: false,
            rounds_out: None,
            woke_before_bound: false,
        }
    );
    assert_eq!((f[VICTIM].real, f[VICTIM].temporary), (0, 0));
    assert_eq!(dice.requests(), &[10, 10, 20, 8, 20, 8]);
}

#[test]
fn death_at_minus_10_leaves_the_dying_unconscious() {
    let o = RuleOptions {
        death_at: -10,
        ..RuleOptions::default()
    };
    let m = matchup(
        "class = \"fighter\"\nhp = 3\nweapon = \"long sword\"",
        "class = \"fighter\"\nhp = 20\nweapon = \"long sword\"",
    );
    // A plain fight: the subduer's missed attack is rolled before the victim's blow of 5, which leaves him
    // at -2: dying, not dead. The victim, who fights to kill, finishes him in round 2, where only he acts
    // (no initiative): the d20 hits whatever it shows (PHB Table 51: a helpless foe), and 8 more real
    // points reach -10.
    let p = FightPlan::prepare(&m, &o, kind(None), Intent::Lethal, 5).unwrap();
    let mut dice = Scripted::new([5, 1, 2, 8, 15, 5, 1, 8]);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!(
        out,
        FightOutcome {
            ending: Ending::VictimWins,
            rounds: 2,
            killed: [true, false],
            won_by_opening: false,
            rounds_out: None,
            woke_before_bound: false,
        }
    );
    assert_eq!(f[ATTACKER].left, -10);
    assert_eq!(dice.remaining(), 0);
    // With `finish_downed = "never"`, or a victim who holds back (an 8 held back is 2 real and 2
    // temporary), the fight ends as he falls.
    for (options, intent, damage) in [
        (
            RuleOptions {
                finish_downed: FinishDowned::Never,
                ..o.clone()
            },
            Intent::Lethal,
            5,
        ),
        (o.clone(), Intent::Subdue, 8),
    ] {
        let p = FightPlan::prepare(&m, &options, kind(None), intent, 5).unwrap();
        let mut dice = Scripted::new([5, 1, 2, 8, 15, damage]);
        let (out, f) = fight(&p, &mut dice);
        assert_eq!(
            (out.ending, out.rounds, out.killed),
            (Ending::VictimWins, 1, [false, false]),
            "{intent:?}"
        );
        assert!(f[ATTACKER].left <= 0);
    }
}

#[test]
fn a_fight_that_nobody_wins_times_out() {
    let p = plan(
        "class = \"fighter\"\nhp = 10",
        "class = \"fighter\"\nhp = 10",
        Some(Style::Punch),
        Intent::Lethal,
        2,
    );
    let mut dice = Scripted::new([3, 3, 2, 2, 3, 3, 2, 2]);
    let (out, _) = fight(&p, &mut dice);
    assert_eq!(
        out,
        FightOutcome {
            ending: Ending::Timeout,
            rounds: 2,
            killed: [false, false],
            won_by_opening: false,
            rounds_out: None,
            woke_before_bound: false,
        }
    );
}

#[test]
fn a_tie_on_initiative_lets_both_fall_together() {
    let a = "class = \"fighter\"\nhp = 1\nweapon = \"long sword\"";
    let v = "class = \"fighter\"\nhp = 2\nweapon = \"long sword\"";
    let p = plan(a, v, None, Intent::Lethal, 3);
    // Both roll 4 and both hit. The subduer's 4 held back is 1 real and 1 temporary: his 2-hit-point victim
    // falls unconscious; the victim's 2 at full force kill the 1-hit-point subduer.
    let mut dice = Scripted::new([4, 4, 19, 4, 19, 2]);
    let (out, _) = fight(&p, &mut dice);
    assert_eq!(out.ending, Ending::BothDown);
    assert_eq!(
        out.killed,
        [true, false],
        "the victim's blow was lethal, the subduer's held back"
    );
}

#[test]
fn overbearing_knocks_down_then_pins() {
    let big = "class = \"fighter\"\nhp = 50";
    let p = plan(
        big,
        "class = \"thief\"\nhp = 50",
        Some(Style::Overbear),
        Intent::Lethal,
        5,
    );
    // The unarmed victim punches against overbearing. Round 1: knocked down (15); the victim misses (2).
    // Round 2: 15 again pins him.
    let mut dice = Scripted::new([1, 5, 15, 2, 1, 5, 15]);
    let (out, f) = fight(&p, &mut dice);
    assert!(f[VICTIM].pinned());
    assert_eq!(
        out,
        FightOutcome {
            ending: Ending::AttackerWins,
            rounds: 2,
            killed: [false, false],
            won_by_opening: false,
            rounds_out: None,
            woke_before_bound: false,
        }
    );
}

#[test]
fn monsters_make_every_attack_of_their_list() {
    let p = plan(
        "class = \"fighter\"\nhp = 50\nweapon = \"long sword\"",
        "monster = \"nightmare\"\nhp = 50",
        None,
        Intent::Lethal,
        1,
    );
    // The nightmare acts first (1 against 5) and makes all three attacks at its initiative, even staggered
    // (different attack forms), each with its own dice: 2d4+2, 2d4+2, 2d4. All hit with every die on 1.
    // Then the subduer's attack, a miss.
    assert!(
        p.plain.is_none(),
        "several attacks a round: the general round"
    );
    let mut dice = Scripted::new([5, 1, 20, 1, 1, 20, 1, 1, 20, 1, 1, 2]);
    let (_, f) = fight(&p, &mut dice);
    assert_eq!(
        dice.requests(),
        &[10, 10, 20, 4, 4, 20, 4, 4, 20, 4, 4, 20],
        "three natural attacks, then the subduer's"
    );
    assert_eq!(f[ATTACKER].real, 4 + 4 + 2);
    assert_eq!(f[VICTIM].real + f[VICTIM].temporary, 0);
}

#[test]
fn a_subduing_monster_holds_back_its_natural_attacks() {
    let p = plan(
        "monster = \"ogre\"\nhp = 50",
        "class = \"fighter\"\nhp = 50",
        None,
        Intent::Lethal,
        1,
    );
    // Ogre THAC0 17 against AC 10 at −4: needs 11. A 1d10 of 9 held back is 4 and a half, rounded down to
    // 4: 2 real, 2 temporary. The fighter (fists: he punches) then misses.
    let mut dice = Scripted::new([1, 5, 11, 9, 2]);
    let (_, f) = fight(&p, &mut dice);
    assert_eq!(dice.requests(), &[10, 10, 20, 10, 20]);
    assert_eq!((f[VICTIM].real, f[VICTIM].temporary), (2, 2));
    let mut dice = Scripted::new([1, 5, 10, 2]);
    fight(&p, &mut dice);
    assert_eq!(dice.requests(), &[10, 10, 20, 20], "10 misses at −4");
}

#[test]
fn warriors_of_7_to_12_attack_twice_every_second_round() {
    let p = plan(
        "class = \"fighter\"\nlevel = 7\nhp = 50\nweapon = \"long sword\"",
        "class = \"thief\"\nhp = 50\nac = -10",
        None,
        Intent::Lethal,
        2,
    );
    assert_eq!((p.attacks(ATTACKER, 1), p.attacks(ATTACKER, 2)), (1, 2));
    let high = plan(
        "class = \"fighter\"\nlevel = 13\nhp = 50\nweapon = \"long sword\"",
        "class = \"thief\"\nhp = 50",
        None,
        Intent::Lethal,
        2,
    );
    assert_eq!(
        (high.attacks(ATTACKER, 1), high.attacks(ATTACKER, 2)),
        (2, 2)
    );
    assert_eq!((high.attacks(VICTIM, 1), high.attacks(VICTIM, 2)), (1, 1));
}

#[test]
fn temporary_damage_heals_every_fifth_round() {
    let p = plan(
        "class = \"fighter\"\nhp = 50",
        "class = \"fighter\"\nhp = 50",
        Some(Style::Punch),
        Intent::Lethal,
        5,
    );
    // Round 1: a 15 is a jab, 2 points, and d100 99 no knockout; then nobody hits until round 5.
    let mut faces = vec![1, 5, 15, 99, 2];
    for _ in 2..=5 {
        faces.extend([1, 5, 2, 2]);
    }
    let mut dice = Scripted::new(faces);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!(out.ending, Ending::Timeout);
    // The jab's 2 points: 0 real, 2 temporary; one healed at the end of round 5.
    assert_eq!((f[VICTIM].real, f[VICTIM].temporary), (0, 1));
}

#[test]
fn hit_points_left_follow_damage_healing_and_pins() {
    let p = plan(BRAWLER, GUARD, Some(Style::Overbear), Intent::Lethal, 10);
    let fresh = p.start(&mut Scripted::new([1; 4]))[VICTIM];
    let mut f = fresh.hurt(10, 0, 0);
    f.suffer([2, 3], 1);
    f.suffer([7, 7], 0);
    assert_eq!((f.left, f.real, f.temporary), (5, 2, 3));
    assert!(f.stands_after([2, 2], 1) && !f.stands_after([2, 3], 1));
    f.heal(1);
    assert_eq!((f.left, f.temporary), (6, 2));
    f.heal(1);
    f.heal(1);
    f.heal(1);
    assert_eq!(
        (f.left, f.real, f.temporary),
        (8, 2, 0),
        "nothing left to heal"
    );
    assert!(!f.down() && !f.dead(0));
    // 8 temporary points knock him out: with 2 real points taken, he is alive.
    f.suffer([0, 8], 1);
    assert!(f.down() && !f.dead(0));
    // Eight more real points: 10 real damage is dead at 0 hit points, dying at −10.
    f.suffer([7, 0], 1);
    assert!(!f.dead(0));
    f.suffer([1, 0], 1);
    assert!(f.dead(0) && !f.dead(-10));
    // Ten more real points: 20 real damage on 10 hit points is dead at −10 too.
    f.suffer([10, 0], 1);
    assert!(f.dead(-10) && !f.hurt(10, 19, 0).dead(-10));
    // Pinned is down with any number of hit points.
    let mut pinned = fresh.hurt(10, 0, 0);
    pinned.down_at = PINNED;
    assert!(pinned.down() && pinned.pinned() && !pinned.dead(0));
}

#[test]
fn sleeping_fighters_and_uncontrollable_blades_are_ineligible() {
    let o = RuleOptions::default();
    let m = matchup(
        "class = \"fighter\"",
        "class = \"fighter\"\nstate = \"asleep\"",
    );
    assert!(matches!(
        FightPlan::prepare(&m, &o, FightKind::Brawl(Style::Punch), Intent::Lethal, 10),
        Err(Ineligible::VictimHelpless(_))
    ));
    let m = matchup(
        "class = \"fighter\"\nstate = \"held\"",
        "class = \"fighter\"",
    );
    assert!(matches!(
        FightPlan::prepare(&m, &o, FightKind::Brawl(Style::Punch), Intent::Lethal, 10),
        Err(Ineligible::AttackerHelpless(_))
    ));
    let m = matchup(
        "class = \"fighter\"\nweapon = \"mace\"",
        "class = \"fighter\"",
    );
    assert!(matches!(
        FightPlan::prepare(&m, &o, kind(None), Intent::Lethal, 10),
        Err(Ineligible::NotControllable(_))
    ));
}

#[test]
fn no_fight_ends_with_both_sides_standing_and_damage_is_never_negative() {
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::SeedableRng;
    let sides = [
        "class = \"fighter\"\nlevel = 1",
        "class = \"fighter\"\nlevel = 9\nstrength = \"18/50\"\nweapon = \"long sword\"\nbackup_weapon = \"dagger\"",
        "class = \"thief\"\nlevel = 4\nstrength = 6\nweapon = \"short sword\"",
        "class = \"mage\"\nlevel = 13\nstrength = 3",
        "monster = \"ogre\"",
        "monster = \"nightmare\"",
        "monster = \"kobold\"",
        "monster = \"orc\"\narmor_type = \"plate\"",
        "class = \"fighter\"\nlevel = 14\nweapon = \"two-handed sword\"",
    ];
    let styles = [
        Some(Style::Punch),
        Some(Style::Wrestle),
        Some(Style::Overbear),
        None,
    ];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(42);
    for (i, a) in sides.iter().enumerate() {
        for v in &sides {
            for (k, style) in styles.iter().enumerate() {
                for intent in [Intent::Lethal, Intent::Subdue] {
                    let options = RuleOptions {
                        death_at: if k % 2 == 0 { 0 } else { -10 },
                        ..RuleOptions::default()
                    };
                    let Ok(p) =
                        FightPlan::prepare(&matchup(a, v), &options, kind(*style), intent, 40)
                    else {
                        continue;
                    };
                    for _ in 0..30 {
                        let mut f = p.start(&mut rng);
                        let out = p.fight(&mut f, p.clock(), &mut rng);
                        let down = f.map(|x| x.down());
                        match out.ending {
                            Ending::Timeout => {
                                assert!(!down[0] && !down[1], "{i}: a timeout with someone down")
                            }
                            Ending::AttackerWins => assert!(!down[0] && down[1]),
                            Ending::VictimWins => assert!(down[0] && !down[1]),
                            Ending::BothDown => assert!(down[0] && down[1]),
                        }
                        assert!(out.rounds >= 1 && out.rounds <= 40);
                        for x in f {
                            assert!(x.real >= 0 && x.temporary >= 0, "negative damage: {x:?}");
                        }
                        assert_eq!(
                            out.killed,
                            f.map(|x| x.dead(options.death_at) && out.ending != Ending::Timeout)
                        );
                    }
                }
            }
        }
    }
}

/// How one round left a fight: its ending (a timeout when nobody fell), whether each side is dead, and each
/// side's real and temporary damage.
type RoundEnd = (u8, [bool; 2], [(i32, i32); 2]);

/// Every way round `clock.round` (the plan's last) can go from `start`, through the plain round or the
/// general one, each with its exact probability as numerator and denominator.
fn every_round(
    p: &FightPlan,
    start: [Fighter; 2],
    clock: Clock,
    plain: bool,
) -> Vec<(RoundEnd, u128, u128)> {
    assert_eq!(p.max_rounds, clock.round, "one round only");
    let mut ends = Vec::new();
    let walk = crate::dice::Enumerator::walk(
        |dice| {
            let mut f = start;
            let out = if plain {
                match p.plain_rounds(
                    p.plain.as_ref().expect("a plain fight"),
                    &mut f,
                    clock,
                    dice,
                ) {
                    Ok(out) => out,
                    // The finish goes on in the general round, as a fight does.
                    Err(finish) => p.rounds(&mut f, finish, dice),
                }
            } else {
                p.rounds(&mut f, clock, dice)
            };
            (
                out.ending as u8,
                out.killed,
                f.map(|x| (x.real, x.temporary)),
            )
        },
        |end, numerator, denominator| ends.push((end, numerator, denominator)),
    );
    assert_eq!(walk.tie_mass, 0.0);
    ends
}

/// Sums each round end's probability as a count out of one common denominator.
fn exact_distribution(
    ends: &[(RoundEnd, u128, u128)],
    common: u128,
) -> std::collections::BTreeMap<RoundEnd, u128> {
    let mut sums = std::collections::BTreeMap::new();
    for &(end, numerator, denominator) in ends {
        assert_eq!(common % denominator, 0);
        *sums.entry(end).or_insert(0) += numerator * (common / denominator);
    }
    sums
}

#[test]
fn a_plain_round_has_exactly_the_general_rounds_outcomes() {
    // The plain round rolls its dice in another order and rolls damage for misses too, so the same dice do
    // not give the same fight; the probability of every way a round can end must still be the same,
    // exactly. A fight is a chain of rounds whose only state is the fighters' damage, the round (odd or
    // even: warriors of 7-12 strike twice in even rounds) and the healing countdown, so this samples both
    // parities, a round where temporary damage heals, fresh and hurt fighters, weapons and natural attacks,
    // and the switches that change damage. (A side of several attacks a round is never plain: it stops
    // striking a fallen foe, or finishes him, mid-turn.)
    let dagger = "class = \"fighter\"\nweapon = \"dagger\"";
    // One-sided dice keep the walk small where a side attacks twice: only the d20s and initiative branch.
    let rod = "weapon = { name = \"rod\", damage = \"1d1+1\", controllable = true, size = \"M\", type = \"B\" }";
    let warrior = format!("class = \"fighter\"\nlevel = 5\n{rod}");
    let beast = "monster = \"horse\"\nattacks = [\"1d1+3\"]";
    let thief = format!("class = \"thief\"\n{rod}");
    let heal_every_round = RuleOptions {
        temp_heal_rounds: 1,
        ..RuleOptions::default()
    };
    let cases = [
        (
            dagger,
            dagger.to_string(),
            Intent::Lethal,
            RuleOptions::default(),
        ),
        (
            "class = \"thief\"\nlevel = 4\nweapon = \"dagger\"",
            "monster = \"horse\"".to_string(),
            Intent::Subdue,
            heal_every_round.clone(),
        ),
        (
            "class = \"fighter\"\nlevel = 5\nstrength = 17\nweapon = \"dagger\"",
            "class = \"thief\"\nweapon = \"dagger\"\nac = 4".to_string(),
            Intent::Subdue,
            RuleOptions {
                death_at: -10,
                rounding: crate::rules::options::Rounding::Up,
                ..RuleOptions::default()
            },
        ),
        (&warrior, thief.clone(), Intent::Lethal, heal_every_round),
        (
            beast,
            thief,
            Intent::Subdue,
            RuleOptions {
                rounding: crate::rules::options::Rounding::Up,
                ..RuleOptions::default()
            },
        ),
    ];
    // Fresh and hurt: hit points, real and temporary damage of each side.
    let states = [[(6, 0, 0), (6, 0, 0)], [(5, 1, 2), (4, 2, 1)]];
    let mut compared = 0;
    for (a, v, intent, options) in &cases {
        for clock in [
            Clock {
                round: 1,
                heal_in: options.temp_heal_rounds,
            },
            Clock {
                round: 2,
                heal_in: 1,
            },
        ] {
            let m = matchup(a, v);
            let p = FightPlan::prepare(&m, options, kind(None), *intent, clock.round).unwrap();
            assert!(p.plain.is_some(), "{a} / {v}");
            for state in states {
                let start = [ATTACKER, VICTIM].map(|s| {
                    let (hp, real, temporary) = state[s];
                    p.start(&mut Scripted::new([1; 20]))[s].hurt(hp, real, temporary)
                });
                let plain = every_round(&p, start, clock, true);
                let general = every_round(&p, start, clock, false);
                let common = plain
                    .iter()
                    .chain(&general)
                    .map(|&(_, _, d)| d)
                    .fold(1, |l, d| l / gcd(l, d) * d);
                let (plain, general) = (
                    exact_distribution(&plain, common),
                    exact_distribution(&general, common),
                );
                assert_eq!(plain, general, "{a} / {v} from {state:?} in {clock:?}");
                compared += plain.len();
            }
        }
    }
    assert!(compared >= 100, "only {compared} round ends compared");
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[test]
fn a_plain_round_rolls_every_attack_before_anyone_strikes() {
    let p = plan(
        "class = \"fighter\"\nlevel = 1\nhp = 50\nweapon = \"long sword\"",
        "class = \"thief\"\nhp = 5\nweapon = \"long sword\"",
        None,
        Intent::Lethal,
        2,
    );
    assert!(p.plain.is_some());
    // Each round: initiative 1 against 5 (the fighter first), his attack, then the thief's; every d20 a
    // 20, every d8 an 8 but the first. Round 1: a held-back 1 is 1 temporary point (the odd point of a
    // held-back blow is gentle); the thief answers with 8. Round 2: a held-back 8 (2 real and 2 temporary)
    // drops the thief of 5 less 1 before he strikes, so his rolled hit does nothing.
    let mut dice = Scripted::new([1, 5, 20, 1, 20, 8, 1, 5, 20, 8, 20, 8]);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!(
        dice.requests(),
        &[10, 10, 20, 8, 20, 8, 10, 10, 20, 8, 20, 8]
    );
    assert_eq!(
        out,
        FightOutcome {
            ending: Ending::AttackerWins,
            rounds: 2,
            killed: [false, false],
            won_by_opening: false,
            rounds_out: Some(4),
            woke_before_bound: false,
        }
    );
    assert_eq!((f[VICTIM].real, f[VICTIM].temporary), (2, 3));
    assert_eq!((f[ATTACKER].real, f[ATTACKER].temporary), (8, 0));
    // A warrior of level 7 strikes twice in every second round: his second attack is staggered after the
    // thief's first, so the round is the general one.
    let warrior = plan(
        "class = \"fighter\"\nlevel = 7\nhp = 50\nweapon = \"long sword\"",
        "class = \"thief\"\nhp = 5\nweapon = \"long sword\"",
        None,
        Intent::Lethal,
        2,
    );
    assert!(warrior.plain.is_none());
}

#[test]
fn only_weapons_and_natural_attacks_make_a_plain_fight() {
    let knight = "class = \"fighter\"\nlevel = 6\nweapon = \"long sword\"";
    let plain = |a: &str, v: &str, style| plan(a, v, style, Intent::Lethal, 10).plain.is_some();
    assert!(plain(knight, "monster = \"ogre\"", None));
    assert!(plain(knight, GUARD, None));
    // An unarmed victim punches back: stuns are possible.
    assert!(!plain(knight, "class = \"fighter\"", None));
    // Every brawl punches, wrestles or overbears.
    assert!(!plain(BRAWLER, GUARD, Some(Style::Punch)));
    assert!(!plain(BRAWLER, "monster = \"ogre\"", Some(Style::Overbear)));
}

#[test]
fn a_missed_punch_rolls_only_its_d20() {
    let p = plan(
        "class = \"fighter\"\nlevel = 1\nhp = 50",
        "class = \"fighter\"\nhp = 50",
        Some(Style::Punch),
        Intent::Lethal,
        1,
    );
    // Initiative 1 against 5: the brawler first; both need a 10 and roll 2.
    let mut dice = Scripted::new([1, 5, 2, 2]);
    fight(&p, &mut dice);
    assert_eq!(dice.requests(), &[10, 10, 20, 20]);
    // A 15 lands: its knockout d100 follows (50: none), then the defender's missed punch.
    let mut dice = Scripted::new([1, 5, 15, 50, 2]);
    fight(&p, &mut dice);
    assert_eq!(dice.requests(), &[10, 10, 20, 100, 20]);
}

#[test]
fn the_folded_split_is_the_held_back_rule_for_every_rounding() {
    // `Split::damage` restates `strike::held_back` without a division or a branch: every rounding, every
    // damage a roll and its bonuses can make, must agree. At full force all of it is real, at least 1.
    use crate::rules::strike::held_back;
    for rounding in [Rounding::HalfDown, Rounding::Down, Rounding::Up] {
        // A new rounding must be added to the list above: `up` only works for roundings that look at the
        // remainder alone.
        match rounding {
            Rounding::HalfDown | Rounding::Down | Rounding::Up => {}
        }
        for rolled in -30..=60 {
            for odd in [OddPoint::Temporary, OddPoint::Real] {
                let d = held_back(rolled, rounding, odd);
                assert_eq!(
                    Split::new(true, rounding, odd, HeldBackRounding::PerBlow).damage(rolled),
                    [d.real as i32, d.temporary as i32],
                    "held back, {rounding:?}, {odd:?}, {rolled}"
                );
                assert_eq!(
                    Split::new(false, rounding, odd, HeldBackRounding::PerBlow).damage(rolled),
                    [rolled.max(1), 0],
                    "full force, {rounding:?}, {rolled}"
                );
            }
        }
    }
}

#[test]
fn only_blows_with_dice_held_back_split_their_damage() {
    let knight = "class = \"fighter\"\nlevel = 6\nweapon = \"long sword\"";
    for (intent, victim_held_back) in [(Intent::Subdue, 1), (Intent::Lethal, 0)] {
        let p = plan(knight, "monster = \"ogre\"", None, intent, 10);
        // The subduer always holds back; the ogre's natural attacks only with the subdue intent.
        let held = p
            .sides
            .each_ref()
            .map(|side| side.blows[Slot::Main as usize].split.held_back);
        assert_eq!(held, [1, victim_held_back], "{intent:?}");
    }
    // An armed defender holding back (a brawl, so the general round) splits his sword's damage too.
    for (intent, held_back) in [(Intent::Subdue, 1), (Intent::Lethal, 0)] {
        let p = plan(BRAWLER, GUARD, Some(Style::Punch), intent, 10);
        assert!(p.plain.is_none());
        let sword = &p.sides[VICTIM].blows[Slot::Main as usize];
        assert_eq!(sword.split.held_back, held_back, "{intent:?}");
    }
}

#[test]
fn every_folded_face_is_the_attack_roll_and_the_column_for_its_modified_roll() {
    // `Face` restates, for each d20 face and situation, whether the roll hits and what the punching and
    // wrestling column does with the modified roll. A strong and a weak fighter, to meet every row and the
    // floor of 0 damage, each answered by a guard with a sword and a brawler in kind; every rounding of the
    // quarters; every slot of both sides. A miss does nothing, which the wrestling move relies on to skip its
    // hit branch.
    let brawlers = [
        "class = \"fighter\"\nlevel = 9\nstrength = \"18/00\"\nmartial_arts = \"specialized\"",
        "class = \"mage\"\nlevel = 1\nstrength = 3\nmartial_arts = \"proficient\"",
    ];
    let unarmed = "class = \"fighter\"\nlevel = 4\nstrength = 17\nmartial_arts = \"specialized\"";
    let mut column_faces = 0;
    let readings = [MartialArtsRow::Modified, MartialArtsRow::Unmodified];
    for (rounding, martial_row) in [Rounding::HalfDown, Rounding::Down, Rounding::Up]
        .into_iter()
        .flat_map(|r| readings.map(|m| (r, m)))
    {
        let options = RuleOptions {
            rounding,
            martial_arts_row: martial_row,
            ..RuleOptions::default()
        };
        for brawler in brawlers {
            for style in [
                Style::Punch,
                Style::Wrestle,
                Style::Overbear,
                Style::MartialArts,
            ] {
                for victim in [GUARD, unarmed] {
                    let m = matchup(brawler, victim);
                    let p = FightPlan::prepare(
                        &m,
                        &options,
                        FightKind::Brawl(style),
                        Intent::Lethal,
                        10,
                    )
                    .unwrap();
                    for side in &p.sides {
                        for blow in &side.blows {
                            for situation in 0..SITUATIONS {
                                let roll = &blow.rolls[situation];
                                for natural in 1..=20u32 {
                                    let face = blow.faces[situation][natural as usize];
                                    let hit = roll.hits(natural);
                                    let modified = natural as i32 + roll.modifier;
                                    let adjustment = side.damage_adjustment;
                                    let column = match (blow.kind, hit) {
                                        (BlowKind::Punch, true) => {
                                            punch(modified, adjustment, rounding)
                                        }
                                        (BlowKind::Wrestle, true) => {
                                            wrestle(modified, adjustment, rounding)
                                        }
                                        (BlowKind::MartialArts { specialized }, true) => {
                                            // The row from the modified roll or the natural d20, then
                                            // the specialist's +1 to the row and to damage.
                                            let spec = i32::from(specialized);
                                            let read = match martial_row {
                                                MartialArtsRow::Modified => modified,
                                                MartialArtsRow::Unmodified => natural as i32,
                                            };
                                            crate::rules::brawl::martial_arts(
                                                read + spec,
                                                adjustment + spec,
                                                rounding,
                                            )
                                        }
                                        (
                                            BlowKind::Punch
                                            | BlowKind::Wrestle
                                            | BlowKind::MartialArts { .. }
                                            | BlowKind::Idle
                                            | BlowKind::Weapon { .. }
                                            | BlowKind::Natural { .. }
                                            | BlowKind::Overbear
                                            | BlowKind::Sap
                                            | BlowKind::Disarm,
                                            _,
                                        ) => crate::rules::brawl::Blow::default(),
                                    };
                                    column_faces += usize::from(column.damage.total > 0);
                                    assert_eq!(
                                        (
                                            face.hit,
                                            face.hold,
                                            u32::from(face.ko_percent),
                                            face.damage()
                                        ),
                                        (
                                            hit,
                                            column.hold,
                                            column.ko_percent,
                                            [
                                                column.damage.real as i32,
                                                column.damage.temporary as i32
                                            ]
                                        ),
                                        "{:?} {brawler:?} against {victim:?}, {rounding:?}, situation \
                                         {situation}, natural {natural}",
                                        blow.kind
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        column_faces > 1000,
        "the faces met the column {column_faces} times"
    );
}

#[test]
fn a_fight_may_last_to_the_last_round_a_counter_holds() {
    // Rounds are counted in a `u32`: a fight allowed every round of it stops after the last one rather than
    // counting past it. Everyone misses (all dice 1), from the round before the last.
    let lasting = |style| {
        plan(
            // A brawler is unarmed whatever he carries; the subduer holds his sword back.
            "class = \"fighter\"\nhp = 50\nweapon = \"long sword\"",
            "class = \"fighter\"\nhp = 50\nweapon = \"long sword\"",
            style,
            Intent::Lethal,
            u32::MAX,
        )
    };
    let clock = Clock {
        round: u32::MAX - 1,
        heal_in: 5,
    };
    let timeout = FightOutcome {
        ending: Ending::Timeout,
        rounds: u32::MAX,
        killed: [false, false],
        won_by_opening: false,
        rounds_out: None,
        woke_before_bound: false,
    };
    // The general round: a brawl against an armed guard, two rounds of 2 initiatives and 2 missed swings.
    let p = lasting(Some(Style::Punch));
    let mut dice = Scripted::new([1; 8]);
    let mut f = p.start(&mut dice);
    assert_eq!(p.rounds(&mut f, clock, &mut dice), timeout);
    assert_eq!(dice.remaining(), 0);
    // The plain round: sword against sword, each round 2 initiatives and 2 missed swings with their damage
    // dice.
    let p = lasting(None);
    let plain = p.plain.clone().expect("a plain fight");
    let mut dice = Scripted::new([1; 12]);
    let mut f = p.start(&mut dice);
    assert_eq!(
        p.plain_rounds(&plain, &mut f, clock, &mut dice),
        Ok(timeout)
    );
    assert_eq!(dice.remaining(), 0);
    // A knockout in the round before the last stuns through the last round, not past the counter: the guard
    // misses, the brawler's natural 20 knocks him out (d100 1) for 1d10 = 5 rounds; in the last round the
    // guard cannot act and the brawler misses.
    let p = lasting(Some(Style::Punch));
    let mut dice = Scripted::new([1, 1, 1, 20, 1, 5, 1, 1, 1]);
    let mut f = p.start(&mut dice);
    assert_eq!(p.rounds(&mut f, clock, &mut dice), timeout);
    assert_eq!(dice.requests(), &[10, 10, 20, 20, 100, 10, 10, 10, 20]);
    assert_eq!(f[VICTIM].stunned_through, u32::MAX);
}

#[test]
fn the_situation_adds_the_armed_bonus_4_against_the_stunned_or_prone_and_minus_4_while_held() {
    let bonus = 4;
    for kind in [
        BlowKind::Punch,
        BlowKind::Wrestle,
        BlowKind::Overbear,
        BlowKind::Weapon { held_back: false },
        BlowKind::Natural { held_back: true },
    ] {
        assert_eq!(situational_modifier(kind, 0, bonus), 0);
        assert_eq!(situational_modifier(kind, ARMED_BONUS, bonus), 4);
        assert_eq!(situational_modifier(kind, ARMED_BONUS, -3), -3);
        assert_eq!(situational_modifier(kind, TARGET_STUNNED, bonus), 4);
        // Prone helps every attack but the overbearer's roll to pin; stunned and prone add +4 once.
        let prone = if kind == BlowKind::Overbear { 0 } else { 4 };
        assert_eq!(
            situational_modifier(kind, TARGET_PRONE, bonus),
            prone,
            "{kind:?}"
        );
        assert_eq!(
            situational_modifier(kind, TARGET_STUNNED | TARGET_PRONE, bonus),
            4
        );
        // Held, a fighter attacks at −4, except with a wrestling move against the holder.
        let held = if kind == BlowKind::Wrestle { 0 } else { -4 };
        assert_eq!(situational_modifier(kind, HELD, bonus), held, "{kind:?}");
        assert_eq!(
            situational_modifier(kind, ARMED_BONUS | TARGET_STUNNED | HELD, bonus),
            4 + 4 + held
        );
    }
}

#[test]
fn bare_hands_are_never_held_back_a_fist_subdues_as_a_brawler_does() {
    let o = RuleOptions::default();
    let guard = "class = \"fighter\"\nlevel = 3\nhp = 6\nweapon = \"long sword\"";
    for style in [Style::Punch, Style::Wrestle, Style::Overbear] {
        let m = matchup("class = \"fighter\"\nlevel = 3", guard);
        let subdue = FightPlan::prepare(&m, &o, FightKind::Subdue(style), Intent::Lethal, 10);
        let brawl = FightPlan::prepare(&m, &o, FightKind::Brawl(style), Intent::Lethal, 10);
        assert_eq!(subdue, brawl, "{style:?}");
        // The swordsman gets his first strike at +4 against the bare-handed subduer.
        assert!(subdue.unwrap().armed_defender);
    }
    // Against an unarmed victim of 6 hit points the bare-handed subduer punches: a haymaker does 2 points,
    // 25 % real, and never kills him on the spot as a held-back fist once did.
    let p = plan(
        "class = \"fighter\"\nlevel = 3\nhp = 20",
        "class = \"fighter\"\nhp = 6",
        None,
        Intent::Lethal,
        1,
    );
    assert!(!p.armed_defender && p.plain.is_none());
    assert_eq!(
        p.sides[ATTACKER].blows[p.sides[ATTACKER].first_slot as usize].kind,
        BlowKind::Punch
    );
}

#[test]
fn a_missile_weapon_does_not_strike_in_melee_and_makes_no_armed_defender() {
    let o = RuleOptions::default();
    let brawl = |victim: &str| {
        FightPlan::prepare(
            &matchup("class = \"fighter\"", victim),
            &o,
            FightKind::Brawl(Style::Punch),
            Intent::Lethal,
            10,
        )
        .unwrap()
    };
    // A bowman without a melee backup fights with his fists: no first strike at +4, and he punches.
    let archer = brawl("class = \"fighter\"\nweapon = \"short bow\"");
    assert!(!archer.armed_defender);
    let victim = &archer.sides[VICTIM];
    assert_eq!(
        victim.blows[victim.first_slot as usize].kind,
        BlowKind::Punch
    );
    // With a dagger at his belt he draws it: an armed defender, striking with the dagger's dice.
    let drawn = brawl("class = \"fighter\"\nweapon = \"short bow\"\nbackup_weapon = \"dagger\"");
    assert!(drawn.armed_defender);
    let victim = &drawn.sides[VICTIM];
    let blow = &victim.blows[victim.first_slot as usize];
    assert_eq!(blow.dice.to_string(), "1d4");
    // A subduer with a bow and no melee backup subdues with his fists, as a brawler.
    let m = matchup(
        "class = \"fighter\"\nweapon = \"short bow\"",
        "class = \"fighter\"\nweapon = \"club\"",
    );
    let p =
        FightPlan::prepare(&m, &o, FightKind::Subdue(Style::Punch), Intent::Lethal, 10).unwrap();
    assert!(p.armed_defender);
}

#[test]
fn holding_back_is_for_both_sides_the_victim_needs_a_controllable_weapon_too() {
    let o = RuleOptions::default();
    let m = matchup(
        "class = \"fighter\"\nweapon = \"long sword\"",
        "class = \"fighter\"\nweapon = \"club\"",
    );
    assert_eq!(
        FightPlan::prepare(&m, &o, FightKind::Subdue(Style::Punch), Intent::Subdue, 10),
        Err(Ineligible::VictimNotControllable("club".into()))
    );
    assert_eq!(
        FightPlan::prepare(&m, &o, FightKind::Brawl(Style::Punch), Intent::Subdue, 10),
        Err(Ineligible::VictimNotControllable("club".into()))
    );
    // At full force the club is fine, and so is a held-back sword or a victim with bare hands.
    assert!(
        FightPlan::prepare(&m, &o, FightKind::Subdue(Style::Punch), Intent::Lethal, 10).is_ok()
    );
    let swords = matchup(
        "class = \"fighter\"\nweapon = \"long sword\"",
        "class = \"fighter\"\nweapon = \"long sword\"",
    );
    assert!(
        FightPlan::prepare(
            &swords,
            &o,
            FightKind::Subdue(Style::Punch),
            Intent::Subdue,
            10
        )
        .is_ok()
    );
    let unarmed = matchup(
        "class = \"fighter\"\nweapon = \"long sword\"",
        "class = \"fighter\"",
    );
    assert!(
        FightPlan::prepare(
            &unarmed,
            &o,
            FightKind::Subdue(Style::Punch),
            Intent::Subdue,
            10
        )
        .is_ok()
    );
}

#[test]
fn a_monster_that_holds_gets_no_size_modifier() {
    // An ogre (Large) wrestling a human: his rough Strength 10 stands, where a character grabbing a
    // smaller man would gain.
    let p = plan(
        "monster = \"ogre\"",
        "class = \"fighter\"",
        Some(Style::Wrestle),
        Intent::Lethal,
        10,
    );
    assert_eq!(p.sides[ATTACKER].holding, ContestScore::plain(10));
}

const MONK: &str = "class = \"fighter\"\nlevel = 3\nhp = 30\nmartial_arts = \"proficient\"";
const MASTER: &str =
    "class = \"fighter\"\nlevel = 3\nhp = 30\nstrength = 16\nmartial_arts = \"specialized\"";
const STREET_FIGHTER: &str = "class = \"fighter\"\nlevel = 3\nhp = 30";

#[test]
fn martial_arts_need_training() {
    let o = RuleOptions::default();
    let m = matchup(STREET_FIGHTER, STREET_FIGHTER);
    assert_eq!(
        FightPlan::prepare(
            &m,
            &o,
            FightKind::Brawl(Style::MartialArts),
            Intent::Lethal,
            10
        ),
        Err(Ineligible::NoMartialArts("fighter".into()))
    );
    // A bare-handed subduer fights with his style, and needs the training too.
    assert!(matches!(
        FightPlan::prepare(
            &m,
            &o,
            FightKind::Subdue(Style::MartialArts),
            Intent::Lethal,
            10
        ),
        Err(Ineligible::NoMartialArts(_))
    ));
    let trained = matchup(MONK, STREET_FIGHTER);
    assert!(
        FightPlan::prepare(
            &trained,
            &o,
            FightKind::Subdue(Style::MartialArts),
            Intent::Lethal,
            10
        )
        .is_ok()
    );
}

#[test]
fn a_martial_artist_reads_the_cfh_column_from_the_modified_roll() {
    // A proficient fighter of level 3 (THAC0 18) against AC 10 needs 8; a natural 11 is a modified 11:
    // Graze, 0 damage, 1 % knockout. A natural 20 is Head punch: 3 points, 15 %.
    let p = plan(
        MONK,
        STREET_FIGHTER,
        Some(Style::MartialArts),
        Intent::Lethal,
        1,
    );
    let me = &p.sides[ATTACKER];
    let blow = &me.blows[me.first_slot as usize];
    assert_eq!(blow.kind, BlowKind::MartialArts { specialized: false });
    assert_eq!(me.attacks, [1, 1]);
    let graze = blow.faces[0][11];
    assert!(graze.hit && graze.damage() == [0, 0] && graze.ko_percent == 1);
    let head = blow.faces[0][20];
    // 3 points: a quarter (.75) rounds up to 1 real, 2 temporary.
    assert_eq!((head.damage(), head.ko_percent), ([1, 2], 15));
    assert!(!blow.faces[0][7].hit);
    // Read from the natural d20 instead, a stunned target's +4 no longer moves the row.
    let natural = RuleOptions {
        martial_arts_row: MartialArtsRow::Unmodified,
        ..RuleOptions::default()
    };
    let q = FightPlan::prepare(
        &matchup(MONK, STREET_FIGHTER),
        &natural,
        FightKind::Brawl(Style::MartialArts),
        Intent::Lethal,
        1,
    )
    .unwrap();
    let qb = &q.sides[ATTACKER].blows[q.sides[ATTACKER].first_slot as usize];
    assert_eq!(
        qb.faces[TARGET_STUNNED][11].ko_percent, 1,
        "natural 11: Graze"
    );
    // From the modified roll, 11 + 4 against a stunned target is 15: Side kick, 3 %.
    assert_eq!(blow.faces[TARGET_STUNNED][11].ko_percent, 3);
}

#[test]
fn a_specialist_gets_plus_1_to_hit_damage_and_row_and_one_more_attack() {
    let p = plan(
        MASTER,
        STREET_FIGHTER,
        Some(Style::MartialArts),
        Intent::Lethal,
        1,
    );
    let me = &p.sides[ATTACKER];
    let blow = &me.blows[me.first_slot as usize];
    assert_eq!(blow.kind, BlowKind::MartialArts { specialized: true });
    // Strength 16: no hit bonus; +1 for the specialist.
    assert_eq!(blow.rolls[0].modifier, 1);
    assert_eq!(me.attacks, [2, 2], "one attack more a round");
    // A natural 9 is a modified 10, read on the row of 11: Graze, 0 + 1 (Strength) + 1 = 2 points.
    let face = blow.faces[0][9];
    assert_eq!((face.ko_percent, face.damage()), (1, [0, 2]));
}

#[test]
fn an_armed_defender_strikes_first_at_a_martial_artist_and_an_unarmed_victim_answers_in_kind() {
    let p = plan(MONK, GUARD, Some(Style::MartialArts), Intent::Lethal, 10);
    assert!(p.armed_defender);
    let trained_victim = plan(MONK, MASTER, Some(Style::MartialArts), Intent::Lethal, 10);
    let v = &trained_victim.sides[VICTIM];
    assert_eq!(
        v.blows[v.first_slot as usize].kind,
        BlowKind::MartialArts { specialized: true }
    );
    let untrained = plan(
        MONK,
        STREET_FIGHTER,
        Some(Style::MartialArts),
        Intent::Lethal,
        10,
    );
    let v = &untrained.sides[VICTIM];
    assert_eq!(v.blows[v.first_slot as usize].kind, BlowKind::Punch);
}

#[test]
fn a_martial_arts_knockout_stuns_the_target_as_a_punch_does() {
    let p = plan(
        MONK,
        STREET_FIGHTER,
        Some(Style::MartialArts),
        Intent::Lethal,
        1,
    );
    // Initiative 1 against 5; a natural 20: Head punch, 15 %: the d100 of 15 knocks out, 1d10 = 4 rounds
    // stunned from this round on, so the victim does not strike back.
    let mut dice = Scripted::new([1, 5, 20, 15, 4]);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!(out.ending, Ending::Timeout);
    assert_eq!(f[VICTIM].stunned_through, 1 + 4);
    assert_eq!(dice.remaining(), 0);
    assert_eq!((f[VICTIM].real, f[VICTIM].temporary), (1, 2));
}

#[test]
fn a_one_round_martial_arts_brawl_samples_its_exact_distribution() {
    // The victim starts stunned, so the round is the artist's attack alone: initiative, the d20, and on a
    // hit the knockout d100 (two branches) and its d10. Every way it ends is enumerated exactly, then
    // 200,000 simulated rounds must land within 4.5 standard errors of each probability.
    let p = plan(
        MASTER,
        "class = \"fighter\"\nlevel = 1\nhp = 4",
        Some(Style::MartialArts),
        Intent::Lethal,
        1,
    );
    samples_its_exact_round(&p, 2026);
}

/// A fight with an opening, prepared as a scenario prepares it.
fn opened(
    attacker: &str,
    victim: &str,
    style: Style,
    opening: Opening,
) -> Result<FightPlan, Ineligible> {
    let options = ActionOptions {
        style,
        max_rounds: 5,
        opening: Some(opening),
        ..ActionOptions::default()
    };
    prepared_fight(Action::Brawl, attacker, victim, &options)
}

/// A fight prepared as a scenario prepares it, through `Prepared::new` and its action options.
fn prepared_fight(
    action: Action,
    attacker: &str,
    victim: &str,
    options: &ActionOptions,
) -> Result<FightPlan, Ineligible> {
    let m = matchup(attacker, victim);
    let prepared = Prepared::new(action, &m, &RuleOptions::default(), options)?;
    let Prepared::Fight(plan) = prepared else {
        panic!("not a fight: {prepared:?}");
    };
    Ok(*plan)
}

const MUGGER: &str =
    "class = \"thief\"\nlevel = 9\nhp = 20\nweapon = \"club\"\nposition = \"behind\"";
const SENTRY: &str = "monster = \"ogre\"\nhp = 20\naware = false";

#[test]
fn an_opening_knockout_ends_the_fight_in_round_0() {
    let p = opened(MUGGER, SENTRY, Style::Wrestle, Opening::Mug).unwrap();
    // The mugging: a hit on 7, the ogre fails his save of 17 with a 16, 2d8 rounds: the attacker wins
    // before round 1, and no initiative is rolled.
    let mut dice = Scripted::new([7, 16, 3, 4]);
    let out = p.resolve(&mut dice);
    assert_eq!(
        out,
        FightOutcome {
            ending: Ending::AttackerWins,
            rounds: 0,
            killed: [false, false],
            won_by_opening: true,
            rounds_out: Some(7),
            woke_before_bound: false,
        }
    );
    assert_eq!(dice.remaining(), 0);
    // A missed mugging: round 1 starts, the ogre awake and aware; both initiatives come next.
    let mut dice = Scripted::new([6, 1, 5, 1, 1]);
    let mut f = p.start(&mut dice);
    let opening = p.opening.as_ref().unwrap();
    assert_eq!(p.open(opening, &mut f, &mut dice), Err(p.clock()));
    assert_eq!(dice.requests(), &[20]);
}

#[test]
fn an_opening_the_single_action_forbids_makes_the_point_ineligible() {
    let front = "class = \"thief\"\nlevel = 9\nweapon = \"club\"";
    assert_eq!(
        opened(front, SENTRY, Style::Punch, Opening::Mug),
        Err(Ineligible::NotBehind)
    );
    // A sap on a Large ogre.
    assert_eq!(
        opened(MUGGER, SENTRY, Style::Punch, Opening::Sap),
        Err(Ineligible::TooLarge(Size::L))
    );
    // Without an opening a sleeping victim is no fight; with one he is sapped asleep and fights awake.
    let sleeper = "class = \"fighter\"\nhp = 20\nstate = \"asleep\"";
    assert!(opened(MUGGER, sleeper, Style::Punch, Opening::Sap).is_ok());
}

#[test]
fn a_woken_sleeper_fights_back_in_round_1_and_the_saps_damage_stays() {
    let sleeper = "class = \"fighter\"\nhp = 20\nstate = \"asleep\"";
    let p = opened(MUGGER, sleeper, Style::Punch, Opening::Sap).unwrap();
    // The sap hits a sleeper without a roll: club 1d6 = 6, 6 points (10 % a point: 60 %); a d100 of 90
    // wakes him. 6 points: 1 real (a quarter, .5 down), 5 temporary stay on him as round 1 begins.
    let mut dice = Scripted::new([6, 90]);
    let mut f = p.start(&mut dice);
    let opening = p.opening.as_ref().unwrap();
    assert_eq!(p.open(opening, &mut f, &mut dice), Err(p.clock()));
    assert_eq!(
        (f[VICTIM].real, f[VICTIM].temporary, f[VICTIM].left),
        (1, 5, 14)
    );
    // In round 1 the woken victim punches back: a natural 20, a haymaker, no knockout on the d100.
    let mut g = f;
    let mut bout = NO_BOUT;
    let mut round = Scripted::new([20, 100]);
    p.turn::<VICTIM, Scripted>(&mut g, 1, Pass::All, false, &mut bout, &mut round);
    assert!(g[ATTACKER].temporary > 0, "the woken victim's punch landed");
    // A sap whose damage drops the victim ends the fight in round 0.
    let frail = "class = \"fighter\"\nhp = 4\nstate = \"asleep\"";
    let p = opened(MUGGER, frail, Style::Punch, Opening::Sap).unwrap();
    let mut dice = Scripted::new([6, 90]);
    let out = p.resolve(&mut dice);
    assert!(out.won_by_opening && out.rounds == 0 && out.ending == Ending::AttackerWins);
}

#[test]
fn a_held_fighter_who_attacks_never_tries_the_contest() {
    let attack = RuleOptions {
        held_response: crate::rules::options::HeldResponse::Attack,
        ..RuleOptions::default()
    };
    let m = matchup(BRAWLER, "class = \"fighter\"\nlevel = 1\nhp = 30");
    let p = FightPlan::prepare(
        &m,
        &attack,
        FightKind::Brawl(Style::Wrestle),
        Intent::Lethal,
        10,
    )
    .unwrap();
    // The attacker holds the victim from round 1; in round 2 the victim, held, attacks at -4 with his
    // wrestling (no penalty while wrestling) instead of rolling the contest: his d20 is asked, no pair.
    let mut f = p.start(&mut Scripted::new([]));
    f[ATTACKER].holding = 1;
    f[ATTACKER].hold_began = 1;
    f[VICTIM].held = true;
    let mut dice = Scripted::new([5, 1, 1]);
    let mut bout = 1;
    p.turn::<VICTIM, Scripted>(&mut f, 2, Pass::All, false, &mut bout, &mut dice);
    assert_eq!(dice.requests(), &[20], "one attack roll, no contest");
    assert!(f[VICTIM].held, "he never breaks free this way");
    // By default the same turn is the contest: a pair of d20s.
    let p = FightPlan::prepare(
        &m,
        &RuleOptions::default(),
        FightKind::Brawl(Style::Wrestle),
        Intent::Lethal,
        10,
    )
    .unwrap();
    let mut dice = Scripted::new([20, 1]);
    p.turn::<VICTIM, Scripted>(&mut f, 2, Pass::All, false, &mut bout, &mut dice);
    assert_eq!(dice.requests(), &[20, 20]);
}

const SAPPER: &str = "class = \"thief\"\nlevel = 5\nhp = 1\nstrength = 16\nweapon = \"club\"";
/// A sapper with bare hands: an unarmed attack, so nobody is the armed man against an unarmed guard.
const BARE_SAPPER: &str = "class = \"thief\"\nlevel = 5\nhp = 1\nstrength = 16";

#[test]
fn a_saps_plus_1_initiative_lets_the_victim_act_first_on_a_tie_he_would_have_shared() {
    let guard = "class = \"fighter\"\nlevel = 1\nhp = 20";
    let p = plan(BARE_SAPPER, guard, Some(Style::Sap), Intent::Lethal, 1);
    assert_eq!(called_shot_initiative(BlowKind::Sap), 1);
    // Both roll 5: the sapper's 6 loses. The guard's punch hits on 20 (a haymaker, 2 points, no knockout
    // on the d100) and drops the sapper of 1 hit point before he swings: his d20 is never asked.
    let mut dice = Scripted::new([5, 5, 20, 100]);
    let (out, _) = fight(&p, &mut dice);
    assert_eq!(out.ending, Ending::VictimWins);
    assert_eq!(dice.requests(), &[10, 10, 20, 100]);
    // Without the called shot (a punch), the same tie is simultaneous: both swing.
    let punch = plan(BARE_SAPPER, guard, Some(Style::Punch), Intent::Lethal, 1);
    assert_eq!(called_shot_initiative(BlowKind::Punch), 0);
    let mut dice = Scripted::new([5, 5, 1, 20, 100]);
    fight(&punch, &mut dice);
    assert_eq!(dice.requests(), &[10, 10, 20, 20, 100]);
}

#[test]
fn a_sap_knockout_puts_the_victim_out_for_the_fight() {
    let p = plan(
        "class = \"thief\"\nlevel = 5\nhp = 20\nstrength = 16\nweapon = \"club\"",
        "class = \"fighter\"\nlevel = 1\nhp = 20",
        Some(Style::Sap),
        Intent::Lethal,
        5,
    );
    // The thief's club against the fighter's fists: the armed sapper strikes first, whatever the
    // initiative, at +4. Thief THAC0 18, −8, +4, against AC 10: needs 12; a 12 hits for 1d6 + 1 + 4 = 6: 1
    // real, 5 temporary, 30 %: a d100 of 30 knocks him out, and the fight ends. His knockout lasts
    // `sap_ko_rounds`, 2d8 = 2 + 1: out through round 4, he wakes as round 5 begins (docs/rules.md §6 "After
    // the blow").
    let mut dice = Scripted::new([9, 1, 12, 1, 30]);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!((out.ending, out.rounds), (Ending::AttackerWins, 1));
    assert_eq!((f[VICTIM].real, f[VICTIM].temporary), (1, 5));
    assert_eq!(dice.remaining(), 0, "the knocked-out victim does not swing");
    // The knockout's length is rolled once the fight is over.
    let mut dice = Scripted::new([9, 1, 12, 1, 30, 2, 1]);
    assert_eq!(p.resolve(&mut dice).rounds_out, Some(3));
    assert_eq!(dice.remaining(), 0);
    // A sap style against a Large ogre is ineligible, as a sap is.
    let m = matchup(SAPPER, "monster = \"ogre\"");
    assert_eq!(
        FightPlan::prepare(
            &m,
            &RuleOptions::default(),
            FightKind::Brawl(Style::Sap),
            Intent::Lethal,
            5
        ),
        Err(Ineligible::TooLarge(Size::L))
    );
}

#[test]
fn a_one_round_sap_fight_samples_its_exact_distribution() {
    // The victim starts stunned: the round is the sapper's blow alone (initiative, d20, damage, the knockout
    // d100 as two branches). Exact against 200,000 simulated rounds, within 4.5 standard errors each.
    let p = plan(
        "class = \"fighter\"\nlevel = 7\nhp = 20\nstrength = \"18/00\"\nweapon = \"club\"",
        "class = \"fighter\"\nlevel = 1\nhp = 7",
        Some(Style::Sap),
        Intent::Lethal,
        1,
    );
    samples_its_exact_round(&p, 404);
}

/// One round of `p` from its start with the victim stunned (so the round is the attacker's blows alone):
/// every way it can end is enumerated exactly, then 200,000 simulated rounds must land within 4.5 standard
/// errors of each probability, and no simulated ending may be one the walk missed.
fn samples_its_exact_round(p: &FightPlan, seed: u64) {
    let mut start = p.start(&mut Scripted::new([]));
    start[VICTIM].stunned_through = 1;
    samples_its_exact_round_from(p, start, p.clock(), seed);
}

/// [`samples_its_exact_round`] from any fighters and clock: round `clock.round`, the plan's last, enumerated
/// exactly and sampled 200,000 times.
fn samples_its_exact_round_from(p: &FightPlan, start: [Fighter; 2], clock: Clock, seed: u64) {
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::SeedableRng;
    let ends = every_round(p, start, clock, false);
    let common = ends
        .iter()
        .map(|&(_, _, d)| d)
        .fold(1, |l, d| l / gcd(l, d) * d);
    let exact = exact_distribution(&ends, common);
    let trials = 200_000u32;
    let mut counts = std::collections::BTreeMap::new();
    let mut rng = crate::dice::Pooled::new(Xoshiro256PlusPlus::seed_from_u64(seed));
    for _ in 0..trials {
        let mut f = start;
        let out = p.rounds(&mut f, clock, &mut rng);
        *counts
            .entry((
                out.ending as u8,
                out.killed,
                f.map(|x| (x.real, x.temporary)),
            ))
            .or_insert(0u32) += 1;
    }
    assert!(
        exact.len() > 5,
        "a round with several endings: {}",
        exact.len()
    );
    for (end, ways) in &exact {
        let p_exact = *ways as f64 / common as f64;
        let seen = f64::from(counts.get(end).copied().unwrap_or(0)) / f64::from(trials);
        let se = (p_exact * (1.0 - p_exact) / f64::from(trials)).sqrt();
        assert!(
            (seen - p_exact).abs() <= 4.5 * se + 1e-12,
            "{end:?}: {seen} against {p_exact}"
        );
    }
    assert!(
        counts.keys().all(|k| exact.contains_key(k)),
        "no simulated ending the walk missed"
    );
}

/// A disarming fight prepared as a scenario prepares it, with `then`.
fn disarming(
    attacker: &str,
    victim: &str,
    then: Then,
    subdue: bool,
) -> Result<FightPlan, Ineligible> {
    let options = ActionOptions {
        style: Style::Disarm,
        max_rounds: 2,
        then,
        ..ActionOptions::default()
    };
    let action = if subdue {
        Action::Subdue
    } else {
        Action::Brawl
    };
    prepared_fight(action, attacker, victim, &options)
}

#[test]
fn a_disarmed_victim_punches_and_the_disarmer_fights_on_with_then() {
    let grabber = "class = \"fighter\"\nlevel = 3\nhp = 30\nstrength = 17";
    let guard = "class = \"fighter\"\nlevel = 1\nhp = 30\nstrength = 10\nweapon = \"long sword\"";
    let p = disarming(grabber, guard, Then::Punch, false).unwrap();
    assert!(p.armed_defender, "a grab must get very close");
    // Round 1: initiatives 3 and 9; the armed guard strikes first, at +4, and misses on a 1. The grab
    // (needs 18 − 10 + 4 − 1 = 11) hits on 15; the contest: 17 rolls 5 (by 12) against 10 rolling 9 (by 1).
    let mut dice = Scripted::new([3, 9, 1, 15, 5, 9]);
    let mut f = p.start(&mut Scripted::new([]));
    let round = |f: &mut [Fighter; 2], dice: &mut Scripted, r: u32| {
        let mut one = p.clone();
        one.max_rounds = r;
        one.rounds(
            f,
            Clock {
                round: r,
                heal_in: 5,
            },
            dice,
        )
    };
    round(&mut f, &mut dice, 1);
    assert_eq!(dice.remaining(), 0);
    assert_eq!(
        (f[VICTIM].slot, f[ATTACKER].slot),
        (Slot::Fists, Slot::Backup)
    );
    // Round 2: no called shot now, no armed defender: a tie on initiative is simultaneous. The attacker
    // punches (a miss on 1), the disarmed guard punches (a haymaker on 20, no knockout on the d100).
    let mut dice = Scripted::new([5, 5, 1, 20, 100]);
    round(&mut f, &mut dice, 2);
    assert_eq!(dice.requests(), &[10, 10, 20, 20, 100]);
    assert!(
        f[ATTACKER].temporary > 0,
        "the disarmed guard's punch landed"
    );
}

#[test]
fn a_disarmer_who_takes_the_weapon_holds_it_back_when_subduing() {
    let grabber = "class = \"fighter\"\nlevel = 3\nhp = 30";
    let guard = "class = \"fighter\"\nhp = 30\nweapon = \"long sword\"\nbackup_weapon = \"dagger\"";
    let p = disarming(grabber, guard, Then::Weapon, true).unwrap();
    let me = &p.sides[ATTACKER];
    let taken = &me.blows[Slot::Backup as usize];
    assert_eq!(taken.kind, BlowKind::Weapon { held_back: true });
    assert_eq!(taken.dice.to_string(), "1d8");
    // The guard falls back on his dagger.
    assert_eq!(p.sides[VICTIM].disarmed, Slot::Backup);
    // A brawler strikes with it at full force.
    let q = disarming(grabber, guard, Then::Weapon, false).unwrap();
    assert_eq!(
        q.sides[ATTACKER].blows[Slot::Backup as usize].kind,
        BlowKind::Weapon { held_back: false }
    );
    // Nothing to grab from an unarmed victim; no hand free to grab with.
    assert_eq!(
        disarming(grabber, "class = \"fighter\"", Then::Punch, false),
        Err(Ineligible::NothingToGrab)
    );
    let full = "class = \"fighter\"\nhands_free = 0";
    assert_eq!(
        disarming(full, guard, Then::Punch, false),
        Err(Ineligible::HandsNotFree { needed: 1, free: 0 })
    );
    // A club cannot be held back: `then = "weapon"` in a subdual fight with one is ineligible.
    let clubbed = "class = \"fighter\"\nweapon = \"club\"";
    assert!(disarming(grabber, clubbed, Then::Weapon, true).is_err());
}

#[test]
fn a_held_fighter_who_attacks_does_so_at_minus_4_unless_he_wrestles() {
    let attack = RuleOptions {
        held_response: crate::rules::options::HeldResponse::Attack,
        ..RuleOptions::default()
    };
    // A dagger guard (THAC0 20) against the wrestler's AC 10 needs 10, or 14 while held.
    let m = matchup(
        BRAWLER,
        "class = \"fighter\"\nlevel = 1\nhp = 30\nweapon = \"dagger\"",
    );
    let p = FightPlan::prepare(
        &m,
        &attack,
        FightKind::Brawl(Style::Wrestle),
        Intent::Lethal,
        10,
    )
    .unwrap();
    let mut f = p.start(&mut Scripted::new([]));
    f[ATTACKER].holding = 1;
    f[ATTACKER].hold_began = 1;
    f[VICTIM].held = true;
    let mut bout = 1;
    // A 12 would hit him free; held, it misses: no damage die follows.
    let mut dice = Scripted::new([12]);
    p.turn::<VICTIM, Scripted>(&mut f, 2, Pass::All, false, &mut bout, &mut dice);
    assert_eq!(dice.requests(), &[20]);
    // A 14 hits even while held: the dagger's d4 follows.
    let mut dice = Scripted::new([14, 2]);
    p.turn::<VICTIM, Scripted>(&mut f, 2, Pass::All, false, &mut bout, &mut dice);
    assert_eq!(dice.requests(), &[20, 4]);
}

/// The fight's armed defender and a grab's first strike read one bonus: the guard's folded blow in the armed
/// situation is exactly the first strike he makes at a grabber, to hit and to damage, whatever the bonus,
/// his Strength or his weapon's magic.
#[test]
fn the_fights_armed_defender_strikes_as_a_grabs_first_strike() {
    use crate::rules::armed_defender::{FirstStrike, armed_with};
    let guards = [
        GUARD,
        "class = \"fighter\"\nlevel = 7\nstrength = \"18/50\"\nweapon = \"long sword\"",
        "class = \"fighter\"\nstrength = 5\nweapon = { name = \"blade\", damage = \"1d6\", magic = 2 }",
    ];
    for bonus in [-3, 0, 4, 7] {
        let options = RuleOptions {
            armed_defender_bonus: bonus,
            ..RuleOptions::default()
        };
        for guard in guards {
            let m = matchup(BRAWLER, guard);
            let p = FightPlan::prepare(
                &m,
                &options,
                FightKind::Brawl(Style::Punch),
                Intent::Lethal,
                10,
            )
            .unwrap();
            let weapon = armed_with(&m.victim).unwrap();
            let first = FirstStrike::prepare(&m.victim, weapon, &m.attacker, &options).unwrap();
            let blow = &p.sides[VICTIM].blows[Slot::Main as usize];
            assert_eq!(
                blow.rolls[ARMED_BONUS], first.roll,
                "{guard}, bonus {bonus}"
            );
            assert_eq!(blow.damage_add[1], first.add, "{guard}, bonus {bonus}");
            assert_eq!(blow.dice, first.dice, "{guard}");
        }
    }
}

/// The situational modifiers are the named rules, in every situation: the armed bonus, +4 against a stunned
/// or prone target (not for the overbearer against the prone), −4 while held (not for a wrestler).
#[test]
fn every_situation_adds_the_named_modifiers() {
    use decide::{HELD_PENALTY, STUNNED_OR_PRONE_BONUS};
    assert_eq!((STUNNED_OR_PRONE_BONUS, HELD_PENALTY), (4, -4));
    let kinds = [
        BlowKind::Punch,
        BlowKind::Wrestle,
        BlowKind::Overbear,
        BlowKind::Weapon { held_back: true },
        BlowKind::Sap,
    ];
    for kind in kinds {
        for situation in 0..SITUATIONS {
            let armed = situation & ARMED_BONUS != 0;
            let stunned = situation & TARGET_STUNNED != 0;
            let prone = situation & TARGET_PRONE != 0 && kind != BlowKind::Overbear;
            let held = situation & HELD != 0 && kind != BlowKind::Wrestle;
            let want = if armed { 5 } else { 0 }
                + if stunned || prone {
                    STUNNED_OR_PRONE_BONUS
                } else {
                    0
                }
                + if held { HELD_PENALTY } else { 0 };
            assert_eq!(
                situational_modifier(kind, situation, 5),
                want,
                "{kind:?}, {situation}"
            );
        }
    }
}

/// "A knocked-out fighter whose clock runs out ... wakes" (docs/rules.md §6 "After the blow"): the sap's
/// knockout of 3 rounds in round 1 keeps him out through round 4; he wakes as round 5 begins. A winner who
/// needs 4 rounds to tie him (rounds 2-5) finds him awake; one who needs 3 has him tied at the end of round
/// 4. The fight itself is the same either way.
#[test]
fn a_sap_knockout_of_3_rounds_wakes_before_a_binding_of_4_but_not_of_3() {
    let p = plan(
        "class = \"thief\"\nlevel = 5\nhp = 20\nstrength = 16\nweapon = \"club\"",
        "class = \"fighter\"\nlevel = 1\nhp = 20",
        Some(Style::Sap),
        Intent::Lethal,
        5,
    );
    let script = [9, 1, 12, 1, 30, 2, 1];
    let bound = |b: u32| {
        p.clone()
            .with_bind_rounds(b)
            .resolve(&mut Scripted::new(script))
    };
    for b in [0, 1, 3] {
        let out = bound(b);
        assert_eq!(out.rounds_out, Some(3));
        assert!(!out.woke_before_bound && out.taken_alive(), "bind {b}");
    }
    for b in [4, 10] {
        let out = bound(b);
        assert!(out.woke_before_bound && !out.taken_alive(), "bind {b}");
        assert_eq!((out.ending, out.rounds), (Ending::AttackerWins, 1));
    }
}

/// "Unconsciousness by temporary damage lasts until healing (a point every `temp_heal_rounds`) brings the
/// total damage below the hit points": one point below needs one heal, two points below two; real damage
/// that alone keeps him down, a pin without a knockout and death run no clock; a knockout and a wound
/// together run the longer.
#[test]
fn temporary_damage_heals_to_one_point_below_the_hit_points_and_wakes() {
    let p = plan(BRAWLER, GUARD, Some(Style::Punch), Intent::Lethal, 10);
    let start = p.start(&mut Scripted::new([]))[VICTIM];
    // 10 hit points. Exactly 0 left: the next heal (3 rounds on) wakes him.
    let zero = start.hurt(10, 2, 8);
    assert_eq!(p.rounds_out(&zero, 7, 3), Some(3));
    // 1 below: two heals, 3 and then 5 more rounds.
    let below = start.hurt(10, 2, 9);
    assert_eq!(p.rounds_out(&below, 7, 3), Some(3 + 5));
    // Standing: no clock. Real damage alone at 0: dead (death at 0).
    assert_eq!(p.rounds_out(&start.hurt(10, 2, 2), 7, 3), None);
    assert_eq!(p.rounds_out(&start.hurt(10, 10, 0), 7, 3), None);
    // Pinned, conscious: held, no clock. Knocked out through round 9 in round 7: 2 rounds; with the wound
    // above, the longer (8).
    let pinned = Fighter {
        down_at: PINNED,
        ..start
    };
    assert_eq!(p.rounds_out(&pinned, 7, 3), None);
    let out = Fighter {
        out_through: 9,
        ..pinned
    };
    assert_eq!(p.rounds_out(&out, 7, 3), Some(2));
    let both = Fighter {
        out_through: 9,
        down_at: PINNED,
        ..below
    };
    assert_eq!(p.rounds_out(&both, 7, 3), Some(8));
    // At death −10, real damage alone leaving him at −2 keeps him down without a clock: healing temporary
    // damage never lifts him.
    let dying = FightPlan::prepare(
        &matchup(BRAWLER, GUARD),
        &RuleOptions {
            death_at: -10,
            ..RuleOptions::default()
        },
        kind(Some(Style::Punch)),
        Intent::Lethal,
        10,
    )
    .unwrap();
    assert_eq!(dying.rounds_out(&start.hurt(10, 12, 0), 7, 3), None);
    assert_eq!(dying.rounds_out(&start.hurt(10, 9, 1), 7, 3), Some(3));
}

/// In quarter points (`held_back_rounding = "exact"`, unit 4) a heal is 4 quarter points: 5 quarters
/// below 1 hit point take two heals.
#[test]
fn healing_counts_in_the_fights_unit() {
    let p = FightPlan::prepare(
        &matchup(BRAWLER, GUARD),
        &RuleOptions {
            held_back_rounding: HeldBackRounding::Exact,
            ..RuleOptions::default()
        },
        kind(Some(Style::Punch)),
        Intent::Lethal,
        10,
    )
    .unwrap();
    let start = p.start(&mut Scripted::new([]))[VICTIM];
    // 40 quarters; 44 taken, 20 temporary: −4 left, 5 below 1: two heals.
    let down = start.hurt(40, 24, 20);
    assert_eq!(p.rounds_out(&down, 2, 1), Some(1 + 5));
    // −3: 4 below, one heal.
    assert_eq!(p.rounds_out(&start.hurt(40, 23, 20), 2, 1), Some(1));
}
