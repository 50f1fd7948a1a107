//! Fights as the table plays them (docs/rules.md §6 "Fights as the table plays them"): a scripted fight for
//! each reading (the armed man first on either side, no blows on the fallen and the lethal finish, staggered
//! multiple attacks, openings that keep the sleeper asleep, quarter points), a mirror test that swaps who is
//! called the attacker where the rules are symmetric, and exact one-round enumerations that each new branch
//! of the round must sample. Why a file of its own: these readings change together and are switched
//! together, and `tests.rs` holds the helpers they share.

use super::*;
use crate::rules::options::{ArmedDefenderSides, MultipleAttacks};

/// A fight prepared with `options` rather than the defaults.
fn plan_with(
    options: &RuleOptions,
    attacker: &str,
    victim: &str,
    kind: FightKind,
    intent: Intent,
    max_rounds: u32,
) -> FightPlan {
    FightPlan::prepare(
        &matchup(attacker, victim),
        options,
        kind,
        intent,
        max_rounds,
    )
    .unwrap()
}

fn subdue() -> FightKind {
    FightKind::Subdue(Style::Punch)
}

/// A subduer of level 1 with a long sword, and a fighter of level 1 with bare hands.
const SUBDUER: &str = "class = \"fighter\"\nlevel = 1\nhp = 20\nweapon = \"long sword\"";
const PUNCHER: &str = "class = \"fighter\"\nlevel = 1\nhp = 3";

/// "Whoever punches ... against an armed foe meets that foe's first strike at +4, whether the armed man is the
/// attacker (a subduer's blade ...) or the victim. His damage stays held back if he holds back."
/// The punching victim rolls 1 against the subduer's 9: he would act first, but the blade comes first.
/// THAC0 20 against AC 10, −4 held back, +4 armed: a 10 hits. 1d8 = 2, +4 = 6, held back: 3 (6 halved),
/// its odd point temporary: 1 real, 2 temporary, and the victim of 3 falls (alive) before he swings.
/// With `armed_defender_sides = "victim"` initiative decides: the victim swings first (a 2 misses), and the
/// subduer's 10, without the +4, misses (he needs 14).
#[test]
fn a_punching_victim_meets_the_subduers_blade_first_at_plus_4() {
    let p = plan(SUBDUER, PUNCHER, None, Intent::Lethal, 1);
    assert!(p.armed_defender);
    let mut dice = Scripted::new([9, 1, 10, 2]);
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
    assert_eq!(dice.requests(), &[10, 10, 20, 8], "the victim never swung");
    let victim_only = RuleOptions {
        armed_defender_sides: ArmedDefenderSides::Victim,
        ..RuleOptions::default()
    };
    let p = plan_with(&victim_only, SUBDUER, PUNCHER, subdue(), Intent::Lethal, 1);
    assert!(!p.armed_defender, "only a victim may be the armed man");
    let mut dice = Scripted::new([9, 1, 2, 10]);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!(out.ending, Ending::Timeout);
    assert_eq!(f[VICTIM].real + f[VICTIM].temporary, 0);
    assert_eq!(
        dice.requests(),
        &[10, 10, 20, 20],
        "the victim's punch, then the subduer's miss"
    );
}

/// "... a bare-handed sap too: it is a punch or a martial-arts blow." The bare-handed sapper (1 hit point)
/// rolls 1 (+1 for the called shot: 2) against the guard's 9, yet the guard strikes first: THAC0 18 against
/// AC 10, +4: a 4 hits; 1d8 = 1, +4 = 5, and the sapper dies before his d20 is asked.
#[test]
fn a_bare_handed_sapper_meets_the_armed_guards_first_strike() {
    let p = plan(BARE_SAPPER, GUARD, Some(Style::Sap), Intent::Lethal, 1);
    assert!(p.armed_defender);
    let mut dice = Scripted::new([1, 9, 4, 1]);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!(
        (out.ending, out.rounds, out.killed),
        (Ending::VictimWins, 1, [true, false])
    );
    assert_eq!(f[ATTACKER].real, 5);
    assert_eq!(dice.requests(), &[10, 10, 20, 8]);
}

/// "The disarm obeys `armed_defender_vs_grabs`." The grabber rolls 3 (+1, a called shot: 4) against the
/// guard's 9. By default the grab must get very close: the guard strikes first at +4 (a 20, 1d8 = 1, +4: 5
/// real), then the grab misses (2; it needs 11). With `armed_defender_vs_grabs = false` nobody is the armed
/// man: the grab comes first on initiative (the 2 misses), then the guard's 20 for 1d8 = 1 and no bonus.
#[test]
fn a_disarm_meets_the_first_strike_unless_grabs_are_exempt() {
    let grabber = "class = \"fighter\"\nlevel = 3\nhp = 30\nstrength = 17";
    let guard = "class = \"fighter\"\nlevel = 1\nhp = 30\nstrength = 10\nweapon = \"long sword\"";
    let disarm = FightKind::Brawl(Style::Disarm);
    let p = plan_with(
        &RuleOptions::default(),
        grabber,
        guard,
        disarm,
        Intent::Lethal,
        1,
    );
    assert!(p.armed_defender);
    let mut dice = Scripted::new([3, 9, 20, 1, 2]);
    let (_, f) = fight(&p, &mut dice);
    assert_eq!(dice.requests(), &[10, 10, 20, 8, 20]);
    assert_eq!(f[ATTACKER].real, 1 + 4);
    let exempt = RuleOptions {
        armed_defender_vs_grabs: false,
        ..RuleOptions::default()
    };
    let p = plan_with(&exempt, grabber, guard, disarm, Intent::Lethal, 1);
    assert!(!p.armed_defender);
    let mut dice = Scripted::new([3, 9, 2, 20, 1]);
    let (_, f) = fight(&p, &mut dice);
    assert_eq!(dice.requests(), &[10, 10, 20, 20, 8]);
    assert_eq!(f[ATTACKER].real, 1);
}

/// "A fighter who holds back, and every `brawl` or `subdue` attacker, never strikes a foe who is down." A
/// level-13 subduer (THAC0 8) strikes twice a round. Against a victim of 3 hit points with a dagger (no armed
/// man): he wins initiative, his first blow (needs 2 at −4: a 10; 1d8 = 8 held back: 2 real, 2 temporary)
/// drops the victim, who cannot answer, and his second attack's d20 is never asked, staggered or together.
/// Against an unarmed victim he is the armed man and makes both attacks first, at +4: 1d8 = 2, +4 = 6, held
/// back 1 real and 2 temporary drops him just the same, and the second attack is withheld too.
#[test]
fn a_second_attack_is_withheld_from_a_fallen_foe() {
    let lord = "class = \"fighter\"\nlevel = 13\nhp = 30\nweapon = \"long sword\"";
    let armed = "class = \"fighter\"\nhp = 3\nweapon = \"dagger\"";
    for multiple in [MultipleAttacks::Staggered, MultipleAttacks::Together] {
        let options = RuleOptions {
            multiple_attacks: multiple,
            ..RuleOptions::default()
        };
        let p = plan_with(&options, lord, armed, subdue(), Intent::Lethal, 1);
        let mut dice = Scripted::new([1, 5, 10, 8]);
        let (out, f) = fight(&p, &mut dice);
        assert_eq!(
            out,
            FightOutcome {
                ending: Ending::AttackerWins,
                rounds: 1,
                killed: [false, false],
                won_by_opening: false,
                rounds_out: Some(10),
                woke_before_bound: false,
            },
            "{multiple:?}"
        );
        assert_eq!((f[VICTIM].real, f[VICTIM].temporary), (2, 2));
        assert_eq!(dice.requests(), &[10, 10, 20, 8], "{multiple:?}");
    }
    let p = plan(lord, PUNCHER, None, Intent::Lethal, 1);
    assert!(p.armed_defender);
    let mut dice = Scripted::new([9, 1, 10, 2]);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!(
        (out.ending, out.killed),
        (Ending::AttackerWins, [false, false])
    );
    assert_eq!((f[VICTIM].real, f[VICTIM].temporary), (1, 2));
    assert_eq!(dice.requests(), &[10, 10, 20, 8]);
}

/// "A victim with `victim_intent = "lethal"` whose foe is down but alive spends his remaining attacks and the
/// following rounds finishing him; attacks on a helpless foe hit automatically." With `death_at = -10`, a
/// knight of 3 hit points subdues an ogre fighting to kill. Round 1 is plain: the knight's 2 misses (he
/// needs 19), the ogre's 20 hits for 1d10 = 4: the knight is at −1, unconscious. Round 2: the ogre's d20
/// shows 1 and hits anyway, 1d10 = 5: −6 (only he acts, so nobody rolls initiative). Round 3: a 1 again, 4
/// more: −10, dead. The fight lasted 3 rounds.
/// Stopped at `max_rounds = 2` the ogre is still finishing him: the standing side wins, the knight alive.
/// With `finish_downed = "never"` the fight ends in round 1 with the knight alive.
#[test]
fn a_lethal_ogre_finishes_the_fallen_knight() {
    let knight = "class = \"fighter\"\nlevel = 1\nhp = 3\nweapon = \"long sword\"";
    let ogre = "monster = \"ogre\"\nhp = 30";
    let dying = RuleOptions {
        death_at: -10,
        ..RuleOptions::default()
    };
    let rounds = [5, 1, 2, 1, 20, 4, 1, 5, 1, 4];
    let p = plan_with(&dying, knight, ogre, subdue(), Intent::Lethal, 10);
    assert!(p.plain.is_some(), "the plain round hands the finish over");
    let mut dice = Scripted::new(rounds);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!(
        out,
        FightOutcome {
            ending: Ending::VictimWins,
            rounds: 3,
            killed: [true, false],
            won_by_opening: false,
            rounds_out: None,
            woke_before_bound: false,
        }
    );
    assert_eq!(f[ATTACKER].left, -10);
    assert_eq!(dice.requests(), &[10, 10, 20, 12, 20, 10, 20, 10, 20, 10]);
    let short = plan_with(&dying, knight, ogre, subdue(), Intent::Lethal, 2);
    let mut dice = Scripted::new(rounds);
    let (out, f) = fight(&short, &mut dice);
    assert_eq!(
        (out.ending, out.rounds, out.killed),
        (Ending::VictimWins, 2, [false, false])
    );
    assert_eq!(f[ATTACKER].left, -6);
    let never = RuleOptions {
        finish_downed: FinishDowned::Never,
        ..dying
    };
    let p = plan_with(&never, knight, ogre, subdue(), Intent::Lethal, 10);
    let mut dice = Scripted::new(rounds);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!(
        (out.ending, out.rounds, out.killed),
        (Ending::VictimWins, 1, [false, false])
    );
    assert_eq!(f[ATTACKER].left, -1);
    assert_eq!(dice.remaining(), 4, "nothing after round 1");
}

/// "... spends his remaining attacks ... finishing him." A level-13 victim fighting to kill (death_at −10)
/// wins initiative (1 against 5): his first blow (a 20, 1d8 = 4) drops the subduer of 3 to −1; his second,
/// staggered after the fallen subduer's (none), shows 1 and hits the helpless man anyway (1d8 = 5: −6). In
/// round 2, where only he acts (no initiative), his first blow (a 1, 4 more) kills at −10, and his second
/// is never rolled.
#[test]
fn a_lethal_victims_second_attack_finishes_the_foe_his_first_dropped() {
    let dying = RuleOptions {
        death_at: -10,
        ..RuleOptions::default()
    };
    let p = plan_with(
        &dying,
        "class = \"fighter\"\nlevel = 1\nhp = 3\nweapon = \"long sword\"",
        "class = \"fighter\"\nlevel = 13\nhp = 30\nweapon = \"long sword\"",
        subdue(),
        Intent::Lethal,
        10,
    );
    let mut dice = Scripted::new([5, 1, 20, 4, 1, 5, 1, 4]);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!(
        (out.ending, out.rounds, out.killed),
        (Ending::VictimWins, 2, [true, false])
    );
    assert_eq!(f[ATTACKER].left, -10);
    assert_eq!(dice.requests(), &[10, 10, 20, 8, 20, 8, 20, 8]);
}

/// "Every fighter's first attack in initiative order, then every second attack ... after all first ones, in
/// initiative order again." A level-13 subduer (long sword, d8) against a fighter with a dagger (d4), every
/// attack hitting (20s) on 50 hit points. Staggered, with the subduer first on initiative: his first, the
/// victim's, his second; the victim first: the victim's, then the subduer's two. With `multiple_attacks =
/// "together"` the subduer first makes both before the victim's.
#[test]
fn a_staggered_second_attack_comes_after_the_foes_first() {
    let lord = "class = \"fighter\"\nlevel = 13\nhp = 50\nweapon = \"long sword\"";
    let guard = "class = \"fighter\"\nhp = 50\nweapon = \"dagger\"";
    let p = plan(lord, guard, None, Intent::Lethal, 1);
    assert!(p.staggers && p.plain.is_none());
    let mut dice = Scripted::new([1, 5, 20, 1, 20, 1, 20, 1]);
    fight(&p, &mut dice);
    assert_eq!(
        dice.requests(),
        &[10, 10, 20, 8, 20, 4, 20, 8],
        "subduer, victim, subduer"
    );
    let mut dice = Scripted::new([5, 1, 20, 1, 20, 1, 20, 1]);
    fight(&p, &mut dice);
    assert_eq!(
        dice.requests(),
        &[10, 10, 20, 4, 20, 8, 20, 8],
        "victim, subduer, subduer"
    );
    let together = RuleOptions {
        multiple_attacks: MultipleAttacks::Together,
        ..RuleOptions::default()
    };
    let p = plan_with(&together, lord, guard, subdue(), Intent::Lethal, 1);
    assert!(!p.staggers);
    let mut dice = Scripted::new([1, 5, 20, 1, 20, 1, 20, 1]);
    fight(&p, &mut dice);
    assert_eq!(
        dice.requests(),
        &[10, 10, 20, 8, 20, 8, 20, 4],
        "subduer, subduer, victim"
    );
}

/// "A monster's different attack forms all come at its initiative." A level-13 subduer wins initiative
/// against a nightmare (2d4+2, 2d4+2, 2d4): his first attack (a 1, a miss), the nightmare's three forms one
/// after the other (20s, every damage die 1), then his second attack (a miss). Together, his two come first.
#[test]
fn a_monsters_forms_all_come_at_its_initiative_when_staggered() {
    let lord = "class = \"fighter\"\nlevel = 13\nhp = 50\nweapon = \"long sword\"";
    let nightmare = "monster = \"nightmare\"\nhp = 50";
    let forms = [20, 4, 4, 20, 4, 4, 20, 4, 4];
    let p = plan(lord, nightmare, None, Intent::Lethal, 1);
    let mut dice = Scripted::new([1, 5, 1, 20, 1, 1, 20, 1, 1, 20, 1, 1, 1]);
    let (_, f) = fight(&p, &mut dice);
    let mut want = vec![10, 10, 20];
    want.extend(forms);
    want.push(20);
    assert_eq!(dice.requests(), want.as_slice());
    assert_eq!(f[ATTACKER].real, 4 + 4 + 2);
    let together = RuleOptions {
        multiple_attacks: MultipleAttacks::Together,
        ..RuleOptions::default()
    };
    let p = plan_with(&together, lord, nightmare, subdue(), Intent::Lethal, 1);
    let mut dice = Scripted::new([1, 5, 1, 1, 20, 1, 1, 20, 1, 1, 20, 1, 1]);
    fight(&p, &mut dice);
    let mut want = vec![10, 10, 20, 20];
    want.extend(forms);
    assert_eq!(dice.requests(), want.as_slice());
}

const SLEEPER: &str = "class = \"fighter\"\nhp = 20\nstate = \"asleep\"";

/// "A sleeping or held victim whom an opening sap neither knocks out, nor wakes (d100 below `sap_wake_at`),
/// nor drops stays asleep or held: the attacker saps again next round (hitting automatically) until one of
/// those happens." The thief's club (1d6) hits the sleeper without a roll: 2 points, 20 % to knock out, a
/// d100 of 50 neither knocks him out nor wakes him (81 or more). Round 1: 6 points, 60 %; a d100 of 30 knocks
/// him out (2d8 rounds): the opening won the fight in round 1.
#[test]
fn a_sleeper_is_sapped_again_in_round_1() {
    let p = opened(MUGGER, SLEEPER, Style::Punch, Opening::Sap).unwrap();
    let mut dice = Scripted::new([2, 50, 6, 30, 3, 4]);
    let out = p.resolve(&mut dice);
    assert_eq!(
        out,
        FightOutcome {
            ending: Ending::AttackerWins,
            rounds: 1,
            killed: [false, false],
            won_by_opening: true,
            rounds_out: Some(7),
            woke_before_bound: false,
        }
    );
    assert_eq!(dice.requests(), &[6, 100, 6, 100, 8, 8]);
    assert!(out.taken_alive());
    // The same for a held victim.
    let held = SLEEPER.replace("asleep", "held");
    let p = opened(MUGGER, &held, Style::Punch, Opening::Sap).unwrap();
    let mut dice = Scripted::new([2, 50, 6, 30, 3, 4]);
    assert_eq!(p.resolve(&mut dice), out);
}

/// The sleeper of [`a_sleeper_is_sapped_again_in_round_1`] woken by the second sap (3 points, a d100 of 90):
/// the fight starts in round 2, with both saps' 5 points on him (1 real: a quarter of 3, .75, rounds to 1;
/// a quarter of 2 to 0). With `max_rounds = 2` that fight is one round: both miss, a timeout after round 2.
#[test]
fn a_sleeper_woken_by_a_later_sap_fights_from_the_next_round_with_the_damage_kept() {
    let p = opened(MUGGER, SLEEPER, Style::Punch, Opening::Sap).unwrap();
    let mut dice = Scripted::new([2, 50, 3, 90]);
    let mut f = p.start(&mut dice);
    let opening = p.opening.as_ref().unwrap();
    let clock = p.open(opening, &mut f, &mut dice).unwrap_err();
    assert_eq!(clock.round, 2);
    assert_eq!(dice.remaining(), 0);
    assert_eq!(
        (f[VICTIM].real, f[VICTIM].temporary, f[VICTIM].left),
        (1, 4, 15)
    );
    let mut two = p.clone();
    two.max_rounds = 2;
    let mut dice = Scripted::new([1, 5, 2, 2]);
    let out = two.fight(&mut f, clock, &mut dice);
    assert_eq!((out.ending, out.rounds), (Ending::Timeout, 2));
    assert_eq!(dice.requests(), &[10, 10, 20, 20]);
}

/// "Openings need the victim unaware, asleep or held (else the point is ineligible)."
#[test]
fn an_aware_victims_opening_is_refused_and_an_unaware_ones_accepted() {
    let aware = "class = \"fighter\"\nhp = 20";
    for opening in [Opening::Sap, Opening::Mug] {
        assert_eq!(
            opened(MUGGER, aware, Style::Punch, opening),
            Err(Ineligible::OpeningOnAware),
            "{opening:?}"
        );
        let unaware = format!("{aware}\naware = false");
        assert!(
            opened(MUGGER, &unaware, Style::Punch, opening).is_ok(),
            "{opening:?}"
        );
    }
    // A sleeper cannot be aware.
    assert!(opened(MUGGER, SLEEPER, Style::Punch, Opening::Sap).is_ok());
}

/// "`held_back_rounding = "exact"` (damage in quarter points: exactly 25 % real)." A held-back blow of 5 is
/// half of 5, 2.5, half of it real: 1.25 real and 1.25 temporary, 5 quarters each. Per blow (the default,
/// rounding half down) the half is 2, 1 real and 1 temporary; rounding up, 3: 1 real, 2 temporary. A blow's
/// damage is never below a point, so a held-back 1 is 2 quarters real and 2 temporary; full force, all of
/// it real, in quarters. In a fight hit points are kept in quarters: 20 hit points are 80. The subduer
/// (first, a 20, 1d8 = 5) and the victim's dagger at full force (a 20, 1d4 = 3: 12 quarters) in one round.
#[test]
fn exact_rounding_keeps_a_held_back_blow_in_quarter_points() {
    use crate::rules::options::HeldBackRounding::{Exact, PerBlow};
    let split =
        |held_back, rounding, exact| Split::new(held_back, rounding, OddPoint::Temporary, exact);
    assert_eq!(split(true, Rounding::HalfDown, Exact).damage(5), [5, 5]);
    assert_eq!(split(true, Rounding::Up, Exact).damage(5), [5, 5]);
    assert_eq!(split(true, Rounding::HalfDown, PerBlow).damage(5), [1, 1]);
    assert_eq!(split(true, Rounding::Up, PerBlow).damage(5), [1, 2]);
    assert_eq!(split(true, Rounding::HalfDown, Exact).damage(1), [2, 2]);
    assert_eq!(split(true, Rounding::HalfDown, Exact).damage(-3), [2, 2]);
    assert_eq!(split(false, Rounding::HalfDown, Exact).damage(5), [20, 0]);
    assert_eq!(split(false, Rounding::HalfDown, Exact).damage(0), [4, 0]);
    let guard = "class = \"thief\"\nhp = 20\nweapon = \"dagger\"";
    let exact = RuleOptions {
        held_back_rounding: Exact,
        ..RuleOptions::default()
    };
    let p = plan_with(&exact, SUBDUER, guard, subdue(), Intent::Lethal, 1);
    assert_eq!((p.unit, p.death_at), (4, 0));
    assert!(p.plain.is_some());
    let dice = [1, 5, 20, 5, 20, 3];
    let mut script = Scripted::new(dice);
    let (out, f) = fight(&p, &mut script);
    assert_eq!(out.ending, Ending::Timeout);
    assert_eq!(
        (f[VICTIM].real, f[VICTIM].temporary, f[VICTIM].left),
        (5, 5, 80 - 10)
    );
    assert_eq!((f[ATTACKER].real, f[ATTACKER].left), (12, 80 - 12));
    // The same blows per blow, in whole points.
    let p = plan(SUBDUER, guard, None, Intent::Lethal, 1);
    assert_eq!(p.unit, 1);
    let (_, f) = fight(&p, &mut Scripted::new(dice));
    assert_eq!(
        (f[VICTIM].real, f[VICTIM].temporary, f[VICTIM].left),
        (1, 1, 18)
    );
    assert_eq!((f[ATTACKER].real, f[ATTACKER].left), (3, 17));
    // `death_at = -10` is −40 quarters.
    let dying = RuleOptions {
        death_at: -10,
        ..exact
    };
    let p = plan_with(&dying, SUBDUER, guard, subdue(), Intent::Lethal, 1);
    assert_eq!(p.death_at, -40);
}

/// "New fight metric `p_taken_alive`: the attacker wins and the victim is alive."
#[test]
fn taken_alive_is_an_attackers_win_over_a_living_victim() {
    let outcome = |ending, killed| FightOutcome {
        ending,
        rounds: 1,
        killed,
        won_by_opening: false,
        rounds_out: None,
        woke_before_bound: false,
    };
    assert!(outcome(Ending::AttackerWins, [false, false]).taken_alive());
    assert!(!outcome(Ending::AttackerWins, [false, true]).taken_alive());
    assert!(!outcome(Ending::VictimWins, [false, false]).taken_alive());
    assert!(!outcome(Ending::BothDown, [false, false]).taken_alive());
    assert!(!outcome(Ending::Timeout, [false, false]).taken_alive());
}

/// Two level-3 fighters: one holds back a blade, the other punches. Under `armed_defender_sides = "both"`,
/// with the blade held back on either side (a subduer, or a victim with intent `subdue`, who never finishes
/// anyone), the rules do not care who is called the attacker. One-sided dice (1d1+2) keep the walk small.
const BLADE: &str = "class = \"fighter\"\nlevel = 3\nhp = 4\nweapon = { name = \"rod\", damage = \"1d1+2\", controllable = true, size = \"M\", type = \"B\" }";
const FISTS: &str = "class = \"fighter\"\nlevel = 3\nhp = 4";

/// The blade against the fists, `blade_attacks` saying which is called the attacker.
fn blade_against_fists(options: &RuleOptions, blade_attacks: bool, max_rounds: u32) -> FightPlan {
    if blade_attacks {
        plan_with(options, BLADE, FISTS, subdue(), Intent::Subdue, max_rounds)
    } else {
        plan_with(options, FISTS, BLADE, subdue(), Intent::Subdue, max_rounds)
    }
}

/// A round end seen from the other side: the winner and the loser swapped, and each side's state.
fn mirrored(end: RoundEnd) -> RoundEnd {
    let (ending, killed, damage) = end;
    let ending = match ending {
        e if e == Ending::AttackerWins as u8 => Ending::VictimWins as u8,
        e if e == Ending::VictimWins as u8 => Ending::AttackerWins as u8,
        e => e,
    };
    (ending, [killed[1], killed[0]], [damage[1], damage[0]])
}

/// The exact one-round distribution of [`blade_against_fists`], seen with the blade as the attacker.
fn blade_round(options: &RuleOptions, blade_attacks: bool) -> Vec<(RoundEnd, u128, u128)> {
    let p = blade_against_fists(options, blade_attacks, 1);
    let start = p.start(&mut Scripted::new([]));
    let ends = every_round(&p, start, p.clock(), false);
    if blade_attacks {
        ends
    } else {
        ends.into_iter()
            .map(|(end, n, d)| (mirrored(end), n, d))
            .collect()
    }
}

/// Whether two lists of round ends have exactly the same distribution.
fn same_distribution(a: &[(RoundEnd, u128, u128)], b: &[(RoundEnd, u128, u128)]) -> bool {
    let common = a
        .iter()
        .chain(b)
        .map(|&(_, _, d)| d)
        .fold(1, |l, d| l / gcd(l, d) * d);
    exact_distribution(a, common) == exact_distribution(b, common)
}

/// "The armed defender, both ways": the same two fighters give the same one round, exactly, whichever is
/// called the attacker; under the old reading (`"victim"`) they do not, the blade striking first at +4 only
/// as the victim.
#[test]
fn a_round_is_the_same_whichever_fighter_is_called_the_attacker() {
    let both = RuleOptions::default();
    let a = blade_round(&both, true);
    assert!(a.len() > 5, "a round of several endings: {}", a.len());
    assert!(same_distribution(&a, &blade_round(&both, false)));
    let victim_only = RuleOptions {
        armed_defender_sides: ArmedDefenderSides::Victim,
        ..RuleOptions::default()
    };
    assert!(!same_distribution(
        &blade_round(&victim_only, true),
        &blade_round(&victim_only, false)
    ));
}

/// The mirror over whole fights (stuns that outlast a round, healing, up to 100 rounds): 40,000 fights each
/// way, each ending's share and the mean rounds within 5 standard errors of their difference. Stronger
/// fighters, so that fights last several rounds and either may win: a short sword (1d6) on 6 hit points, fists
/// on 16.
#[test]
fn whole_fights_are_the_same_whichever_fighter_is_called_the_attacker() {
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::SeedableRng;
    let blade = "class = \"fighter\"\nlevel = 3\nhp = 6\nweapon = \"short sword\"";
    let fists = "class = \"fighter\"\nlevel = 3\nhp = 16";
    let o = RuleOptions::default();
    let trials = 40_000u32;
    // Endings as the blade sees them: he wins, he loses, both down, timeout; and the rounds.
    let tally = |blade_attacks: bool, seed: u64| {
        let p = if blade_attacks {
            plan_with(&o, blade, fists, subdue(), Intent::Subdue, 100)
        } else {
            plan_with(&o, fists, blade, subdue(), Intent::Subdue, 100)
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut endings = [0u32; 4];
        let mut rounds = Vec::with_capacity(trials as usize);
        for _ in 0..trials {
            let out = p.resolve(&mut rng);
            let blade_ending = match (out.ending, blade_attacks) {
                (Ending::AttackerWins, true) | (Ending::VictimWins, false) => 0,
                (Ending::VictimWins, true) | (Ending::AttackerWins, false) => 1,
                (Ending::BothDown, _) => 2,
                (Ending::Timeout, _) => 3,
            };
            endings[blade_ending] += 1;
            rounds.push(f64::from(out.rounds));
        }
        (endings, rounds)
    };
    let (a, a_rounds) = tally(true, 29);
    let (b, b_rounds) = tally(false, 92);
    let n = f64::from(trials);
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        let (p, q) = (f64::from(*x) / n, f64::from(*y) / n);
        let pooled = (p + q) / 2.0;
        let se = (2.0 * pooled * (1.0 - pooled) / n).sqrt();
        assert!(
            (p - q).abs() <= 5.0 * se + 1e-12,
            "ending {i}: {p} against {q}"
        );
    }
    assert!(
        a[0] > trials / 20 && a[1] > trials / 20,
        "both sides win: {a:?}"
    );
    let moments = |r: &[f64]| {
        let mean = r.iter().sum::<f64>() / n;
        let var = r.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (mean, var)
    };
    let ((ma, va), (mb, vb)) = (moments(&a_rounds), moments(&b_rounds));
    assert!(ma > 2.0, "fights of several rounds: {ma}");
    assert!(
        (ma - mb).abs() <= 5.0 * ((va + vb) / n).sqrt(),
        "rounds: {ma} against {mb}"
    );
}

/// [`samples_its_exact_round_from`] the start of a fight, nobody stunned.
fn samples_a_fresh_round(p: &FightPlan, seed: u64) {
    let start = p.start(&mut Scripted::new([]));
    samples_its_exact_round_from(p, start, p.clock(), seed);
}

/// The armed attacker's first strike (a held-back 1d3 at +4, whatever the initiative) against a punching
/// victim who answers if he still stands: exact against 200,000 simulated rounds.
#[test]
fn a_round_of_the_armed_attackers_first_strike_samples_its_exact_distribution() {
    let p = plan(
        "class = \"fighter\"\nlevel = 3\nhp = 2\nweapon = { name = \"rod\", damage = \"1d3\", controllable = true, size = \"M\", type = \"B\" }",
        "class = \"fighter\"\nlevel = 1\nhp = 3",
        None,
        Intent::Lethal,
        1,
    );
    assert!(p.armed_defender);
    samples_a_fresh_round(&p, 3);
}

/// A staggered round: a level-13 subduer's two attacks around a thief's one. A held-back 2 is 1 temporary
/// point, so the thief of 2 falls to both; his own 2 at full force leaves the subduer of 3 standing. Whether
/// the thief strikes before he falls is what staggering decides.
#[test]
fn a_staggered_round_samples_its_exact_distribution() {
    let rod = "weapon = { name = \"rod\", damage = \"1d1+1\", controllable = true, size = \"M\", type = \"B\" }";
    let p = plan(
        &format!("class = \"fighter\"\nlevel = 13\nhp = 3\n{rod}"),
        &format!("class = \"thief\"\nhp = 2\n{rod}"),
        None,
        Intent::Lethal,
        1,
    );
    assert!(p.staggers);
    samples_a_fresh_round(&p, 13);
}

/// A finishing round: the subduer starts it down but alive (death_at −10), and a lethal victim strikes him
/// automatically until he is dead: an ogre's single 1d10, and a level-13 fighter's two blows of 1d4.
#[test]
fn a_finishing_round_samples_its_exact_distribution() {
    let dying = RuleOptions {
        death_at: -10,
        ..RuleOptions::default()
    };
    let knight = "class = \"fighter\"\nlevel = 1\nhp = 10\nweapon = \"long sword\"";
    let cases = [
        ("monster = \"ogre\"\nhp = 30", 12),
        (
            "class = \"fighter\"\nlevel = 13\nhp = 30\nweapon = { name = \"rod\", damage = \"1d4\", controllable = true, size = \"M\", type = \"B\" }",
            15,
        ),
    ];
    for (victim, real) in cases {
        let p = plan_with(&dying, knight, victim, subdue(), Intent::Lethal, 1);
        let mut start = p.start(&mut Scripted::new([]));
        start[ATTACKER] = start[ATTACKER].hurt(10, real, 0);
        assert!(start[ATTACKER].down() && !start[ATTACKER].dead(p.death_at));
        assert!(p.finishing(&start));
        samples_its_exact_round_from(&p, start, p.clock(), 51);
    }
}

/// Quarter points: a held-back 1d8 on a victim of 2 hit points (8 quarters), r quarters real and r
/// temporary, down from 4, dead at 8; the victim starts stunned, so the round is the blow alone.
#[test]
fn an_exact_quarter_point_round_samples_its_exact_distribution() {
    let exact = RuleOptions {
        held_back_rounding: crate::rules::options::HeldBackRounding::Exact,
        ..RuleOptions::default()
    };
    let p = plan_with(
        &exact,
        SUBDUER,
        "class = \"fighter\"\nlevel = 1\nhp = 2",
        subdue(),
        Intent::Lethal,
        1,
    );
    samples_its_exact_round(&p, 4);
}

/// "With `armed_defender_extra_attack` the armed man's first strike is one extra attack before the round;
/// his normal attacks follow initiative", for an armed attacker too. The punching victim wins initiative (1
/// against 9); the subduer's extra attack (a 10, at +4 it hits; 1d8 = 2, +4 = 6 held back: 1 real, 2
/// temporary), then the victim's punch (a 2, a miss), then the subduer's normal attack: a 10 without the
/// +4 misses (he needs 14).
#[test]
fn an_armed_attackers_extra_attack_leaves_his_normal_one_to_initiative() {
    let extra = RuleOptions {
        armed_defender_extra_attack: true,
        ..RuleOptions::default()
    };
    let victim = "class = \"fighter\"\nlevel = 1\nhp = 30";
    let p = plan_with(&extra, SUBDUER, victim, subdue(), Intent::Lethal, 1);
    let mut dice = Scripted::new([9, 1, 10, 2, 2, 10]);
    let (out, f) = fight(&p, &mut dice);
    assert_eq!(out.ending, Ending::Timeout);
    assert_eq!(dice.requests(), &[10, 10, 20, 8, 20, 20]);
    assert_eq!((f[VICTIM].real, f[VICTIM].temporary), (1, 2));
}

/// "He finishes with a blow that can kill: his weapon ... or his natural attacks. Fists cannot." A victim
/// who punches (unarmed, fighting to kill) spares a fallen attacker, so the fight ends as he falls; a victim
/// with a blade finishes him; and one whose blade gave way to his fists in a wrestling bout takes it up
/// again for the finish, the bout being over.
#[test]
fn fists_never_finish_the_fallen_and_a_bout_ends_as_the_foe_falls() {
    let down = |p: &FightPlan| {
        let mut f = p.start(&mut Scripted::new([]));
        f[ATTACKER] = f[ATTACKER].hurt(3, 1, 3);
        f
    };
    let fists = plan(
        PUNCHER,
        "class = \"fighter\"\nhp = 20",
        Some(Style::Punch),
        Intent::Lethal,
        5,
    );
    assert!(!fists.finishing(&down(&fists)));
    let blade = plan(PUNCHER, GUARD, Some(Style::Punch), Intent::Lethal, 5);
    assert!(blade.finishing(&down(&blade)));
    // The guard wrestled down to his fists: his long sword is still his weapon outside the bout.
    let wrestled = plan(PUNCHER, GUARD, Some(Style::Wrestle), Intent::Lethal, 5);
    let mut f = down(&wrestled);
    f[VICTIM].slot = Slot::Fists;
    assert!(wrestled.finishing(&f));
    // A punching victim whose blow drops the brawler: the fight ends in that round.
    let mut dice = Scripted::new([5, 1, 20, 100]);
    let mut f = fists.start(&mut Scripted::new([]));
    f[ATTACKER] = f[ATTACKER].hurt(2, 0, 0);
    let out = fists.rounds(&mut f, fists.clock(), &mut dice);
    assert_eq!((out.ending, out.rounds), (Ending::VictimWins, 1));
}

/// "`style = "sap"` works in `subdue` with any melee weapon (the sap's damage is already 25 % real)": a
/// subduer saps with a long sword or a mace, which cannot be held back; his blow with a weapon in hand is
/// armed, so a victim who punches back meets it first.
#[test]
fn a_subduer_saps_with_any_melee_weapon() {
    for weapon in ["long sword", "mace"] {
        let sapper = format!("class = \"thief\"\nlevel = 5\nhp = 20\nweapon = \"{weapon}\"");
        let p = FightPlan::prepare(
            &matchup(&sapper, PUNCHER),
            &RuleOptions::default(),
            FightKind::Subdue(Style::Sap),
            Intent::Lethal,
            5,
        )
        .unwrap();
        let blow = &p.sides[ATTACKER].blows[p.sides[ATTACKER].first_slot as usize];
        assert_eq!(blow.kind, BlowKind::Sap, "{weapon}");
        assert_eq!(blow.armament, Armament::Armed, "{weapon}");
        assert_eq!(
            p.armed_side(&p.start(&mut Scripted::new([])), 1),
            Some(ATTACKER)
        );
    }
    // Without the sap, a mace cannot be held back.
    let mace = "class = \"thief\"\nlevel = 5\nhp = 20\nweapon = \"mace\"";
    assert!(matches!(
        FightPlan::prepare(
            &matchup(mace, PUNCHER),
            &RuleOptions::default(),
            subdue(),
            Intent::Lethal,
            5,
        ),
        Err(Ineligible::NotControllable(_))
    ));
}

/// "`opening_weapon`: the weapon of the opening (a club for the mugging), drawn before the fight's own
/// `weapon`." A thief with a long sword cannot mug (not blunt), so mug-then-subdue was ineligible with every
/// catalog weapon; with a club as his opening weapon he mugs, and subdues with the blade after.
#[test]
fn the_opening_is_struck_with_the_opening_weapon() {
    let options = ActionOptions {
        max_rounds: 5,
        opening: Some(Opening::Mug),
        ..ActionOptions::default()
    };
    let blade =
        "class = \"thief\"\nlevel = 9\nhp = 20\nweapon = \"long sword\"\nposition = \"behind\"";
    assert!(matches!(
        prepared_fight(Action::Subdue, blade, SENTRY, &options),
        Err(Ineligible::NotBlunt(_))
    ));
    let both = format!("{blade}\nopening_weapon = \"club\"");
    let p = prepared_fight(Action::Subdue, &both, SENTRY, &options).unwrap();
    assert!(matches!(p.opening, Some(OpeningPlan::Mug(_))));
    let blow = &p.sides[ATTACKER].blows[p.sides[ATTACKER].first_slot as usize];
    assert_eq!(blow.kind, BlowKind::Weapon { held_back: true });
    // The fight's blade: a long sword's 1d12 against the Large ogre.
    assert_eq!(blow.dice, crate::dice::Dice::of(1, 12, 0));
}
