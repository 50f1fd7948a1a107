//! The exact fight (`chain.rs`) against hand-computed fights, the general round's own enumeration, and the
//! simulation.

use super::*;

const KNIGHT: &str =
    "class = \"fighter\"\nstrength = \"18/50\"\nweapon = \"long sword\"\nac = 3\nshield = 1";

#[test]
#[ignore]
fn probe_sizes() {
    for level in [1, 6, 12] {
        let p = plan(
            &format!("{KNIGHT}\nlevel = {level}"),
            "monster = \"ogre\"",
            None,
            Intent::Lethal,
            100,
        );
        let t = std::time::Instant::now();
        let x = p.exact().unwrap();
        let total: f64 = x.outcomes.iter().map(|o| o.1).sum();
        eprintln!(
            "level {level}: states {} transitions {} paths {} outcomes {} total {total} dropped {:e} in {:?}",
            x.states,
            x.transitions,
            x.paths,
            x.outcomes.len(),
            x.dropped,
            t.elapsed()
        );
    }
}

/// The probability of each ending (attacker wins, victim wins, both down, timeout) and the mean rounds.
fn endings(x: &ExactFight) -> ([f64; 4], f64) {
    let mut p = [0.0; 4];
    let mut rounds = 0.0;
    for (o, q) in &x.outcomes {
        p[o.ending as usize] += q;
        rounds += f64::from(o.rounds) * q;
    }
    (p, rounds)
}

/// What a d20 must show for side `s`'s main blow to hit (no situation), as the plan folded it.
fn chance(p: &FightPlan, s: usize) -> f64 {
    let needed = p.sides[s].blows[0].rolls[0].needed().clamp(2, 20);
    f64::from(21 - needed) / 20.0
}

/// Two swordsmen who fall to any hit (1 hit point): one round, counted by hand. Initiative: the attacker
/// first in 45 pairs of d10s out of 100, the victim first in 45, together in 10.
#[test]
fn a_one_round_fight_has_its_hand_counted_odds() {
    let side = "class = \"fighter\"\nhp = 1\nweapon = \"dagger\"";
    let p = plan(side, side, None, Intent::Lethal, 1);
    let (a, v) = (chance(&p, ATTACKER), chance(&p, VICTIM));
    let x = p.exact().unwrap();
    let (got, rounds) = endings(&x);
    let want = [
        0.45 * a + 0.45 * (1.0 - v) * a + 0.10 * a * (1.0 - v),
        0.45 * v + 0.45 * (1.0 - a) * v + 0.10 * v * (1.0 - a),
        0.10 * a * v,
        0.45 * (1.0 - a) * (1.0 - v) * 2.0 + 0.10 * (1.0 - a) * (1.0 - v),
    ];
    for k in 0..4 {
        assert!(
            (got[k] - want[k]).abs() < 1e-12,
            "ending {k}: {got:?} against {want:?}"
        );
    }
    assert!((rounds - 1.0).abs() < 1e-12);
}

/// Two fighters of 2 hit points whose rods deal exactly 1: two hits to drop. Two rounds, against a model
/// written here from the text alone (the faster strikes first; a fallen man strikes no more; a tie lands
/// together).
#[test]
fn a_two_round_fight_has_its_hand_counted_odds() {
    let rod = "weapon = { name = \"rod\", damage = \"1d1\", controllable = true, size = \"M\", type = \"B\" }";
    let side = format!("class = \"fighter\"\nhp = 2\n{rod}");
    let p = plan(&side, &side, None, Intent::Lethal, 2);
    let (a, v) = (chance(&p, ATTACKER), chance(&p, VICTIM));
    // (hp of the attacker, hp of the victim) with its probability, and the endings so far with rounds.
    let mut live = vec![((2, 2), 1.0)];
    let mut ended = [0.0; 4];
    let mut rounds = 0.0;
    for round in 1..=2 {
        let mut next = Vec::new();
        for ((ha, hv), q) in live {
            for (first, pf) in [
                (decide::Order::AttackerFirst, 0.45),
                (decide::Order::VictimFirst, 0.45),
                (decide::Order::Together, 0.10),
            ] {
                for (hit_a, pa) in [(true, a), (false, 1.0 - a)] {
                    for (hit_v, pv) in [(true, v), (false, 1.0 - v)] {
                        let (mut ha2, mut hv2) = (ha, hv);
                        match first {
                            decide::Order::AttackerFirst => {
                                hv2 -= i32::from(hit_a);
                                if hv2 > 0 {
                                    ha2 -= i32::from(hit_v);
                                }
                            }
                            decide::Order::VictimFirst => {
                                ha2 -= i32::from(hit_v);
                                if ha2 > 0 {
                                    hv2 -= i32::from(hit_a);
                                }
                            }
                            decide::Order::Together => {
                                hv2 -= i32::from(hit_a);
                                ha2 -= i32::from(hit_v);
                            }
                        }
                        let w = q * pf * pa * pv;
                        let ending = match (ha2 <= 0, hv2 <= 0) {
                            (false, true) => Some(0),
                            (true, false) => Some(1),
                            (true, true) => Some(2),
                            (false, false) => None,
                        };
                        match ending {
                            Some(k) => {
                                ended[k] += w;
                                rounds += w * f64::from(round);
                            }
                            None => next.push(((ha2, hv2), w)),
                        }
                    }
                }
            }
        }
        live = next;
    }
    for (_, w) in &live {
        ended[3] += w;
        rounds += w * 2.0;
    }
    let x = p.exact().unwrap();
    let (got, got_rounds) = endings(&x);
    for k in 0..4 {
        assert!(
            (got[k] - ended[k]).abs() < 1e-12,
            "ending {k}: {got:?} against {ended:?}"
        );
    }
    assert!((got_rounds - rounds).abs() < 1e-12);
    // The victim's rod deals real damage, and at 0 hit points a man is dead: the attacker falls dead.
    // The attacker holds his back: a fallen victim is alive.
    let killed = |s: usize| -> f64 {
        x.outcomes
            .iter()
            .filter(|(o, _)| o.killed[s])
            .map(|o| o.1)
            .sum()
    };
    assert!((killed(ATTACKER) - ended[1] - ended[2]).abs() < 1e-12);
    assert_eq!(killed(VICTIM), 0.0);
}

/// One round's ends as the chain finds them from `start` (its own round number, its rolls grouped), in the
/// shape `every_round` gives: a round that ends the fight by its ending and deaths, one that does not by
/// each side's real and temporary damage too.
fn chain_round(
    p: &FightPlan,
    start: [Fighter; 2],
    hp: [i32; 2],
    clock: Clock,
    plain: bool,
) -> Vec<(RoundEnd, f64)> {
    let s = chain::State::after(&start, clock.round - 1, clock.heal_in, fighter::NO_BOUT);
    let parity = clock.round % 2;
    let mut w = chain::Walker::default();
    let results = if plain {
        let plains = p.plain.as_ref().unwrap();
        let rolls = p.plain_rolls(plains, parity, &mut w).unwrap();
        p.plain_landings(&s, &rolls, parity, &mut w)
            .unwrap()
            .results
    } else {
        p.general_round(&s, parity, &mut w).unwrap().results
    };
    results
        .iter()
        .map(|(next, q)| match next {
            // A fight that goes on past a fall (a lethal victim finishing his foe) ends where `every_round`
            // stops it, after its one round.
            chain::Next::Goes(s) => {
                let (f, heal_in, _) = s.before(clock.round + 1);
                let over = p.ending(&f, clock.round, heal_in);
                (
                    (
                        over.ending as u8,
                        over.killed,
                        [0, 1].map(|k| (hp[k] - s.f[k].left - s.f[k].temporary, s.f[k].temporary)),
                    ),
                    *q,
                )
            }
            chain::Next::Ends(o) => ((o.ending as u8, o.killed, [(0, 0); 2]), *q),
        })
        .collect()
}

/// Sums probabilities by round end, forgetting the damage of a round that ended the fight.
fn by_end(
    ends: impl IntoIterator<Item = (RoundEnd, f64)>,
) -> std::collections::BTreeMap<RoundEnd, f64> {
    let mut sums = std::collections::BTreeMap::new();
    for ((ending, killed, damage), q) in ends {
        let damage = if ending == Ending::Timeout as u8 {
            damage
        } else {
            [(0, 0); 2]
        };
        *sums.entry((ending, killed, damage)).or_insert(0.0) += q;
    }
    sums
}

#[test]
fn the_chains_round_is_the_enumerated_round_exactly() {
    // The cases of the plain round's proof (weapons and natural attacks, several attacks a round, healing
    // every round) and brawls (punching, wrestling, overbearing against an armed man): from fresh and hurt
    // fighters, in an odd round and an even one, the chain's round from its kept state (counted in rounds
    // relative to the round just fought, its dice grouped by what they do) has every end of the round die
    // by die, with the same probability.
    let dagger = "class = \"fighter\"\nweapon = \"dagger\"";
    let guard = "class = \"fighter\"\nlevel = 3\nweapon = \"long sword\"";
    let brawler = "class = \"fighter\"\nlevel = 2\nstrength = 17";
    let warrior = "class = \"fighter\"\nlevel = 7\nweapon = \"dagger\"";
    let cases: [(&str, &str, Option<Style>, Intent); 6] = [
        (dagger, dagger, None, Intent::Lethal),
        (dagger, "monster = \"horse\"", None, Intent::Subdue),
        (warrior, dagger, None, Intent::Lethal),
        (brawler, guard, Some(Style::Punch), Intent::Lethal),
        (brawler, guard, Some(Style::Wrestle), Intent::Lethal),
        (brawler, dagger, Some(Style::Overbear), Intent::Subdue),
    ];
    let mut compared = 0;
    for (a, v, style, intent) in cases {
        for round in [1, 2] {
            let p = plan(a, v, style, intent, round);
            let clock = Clock {
                round,
                heal_in: if round == 1 {
                    p.options.temp_heal_rounds
                } else {
                    1
                },
            };
            for hurt in [[(6, 0, 0), (6, 0, 0)], [(5, 1, 2), (4, 2, 1)]] {
                let start = [ATTACKER, VICTIM].map(|s| {
                    let (hp, real, temporary) = hurt[s];
                    p.fresh([1, 1])[s].hurt(hp * p.unit, real * p.unit, temporary * p.unit)
                });
                let hp = [hurt[0].0 * p.unit, hurt[1].0 * p.unit];
                let general = every_round(&p, start, clock, false)
                    .into_iter()
                    .map(|(end, n, d)| (end, n as f64 / d as f64));
                let want = by_end(general);
                let got = by_end(chain_round(&p, start, hp, clock, false));
                assert_eq!(
                    want.keys().collect::<Vec<_>>(),
                    got.keys().collect::<Vec<_>>(),
                    "{a} / {v}"
                );
                for (end, q) in &want {
                    assert!(
                        (q - got[end]).abs() < 1e-14,
                        "{a} / {v}: {end:?} {q} against {}",
                        got[end]
                    );
                }
                if p.plain.is_some() {
                    let plain = by_end(chain_round(&p, start, hp, clock, true));
                    for (end, q) in &want {
                        assert!((q - plain[end]).abs() < 1e-14, "plain {a} / {v}: {end:?}");
                    }
                    assert_eq!(plain.len(), want.len());
                }
                compared += want.len();
            }
        }
    }
    assert!(compared >= 150, "only {compared} round ends compared");
}

#[test]
fn a_side_that_cannot_fall_this_round_is_walked_once_for_all_his_hit_points() {
    // The shortcut of `FightPlan::transition` against every state walked with its own numbers: a subdual
    // fight of weapons (the plain round), brawls with stuns, holds and knock-downs, and a swordsman of two
    // attacks in even rounds; every outcome with the same probability.
    let knight =
        "class = \"fighter\"\nlevel = 2\nstrength = \"18/50\"\nweapon = \"long sword\"\nhp = 30";
    let warrior = "class = \"fighter\"\nlevel = 7\nweapon = \"dagger\"\nhp = 24";
    let guard = "class = \"fighter\"\nlevel = 3\nweapon = \"long sword\"\nhp = 20";
    let brawler = "class = \"fighter\"\nlevel = 2\nstrength = 17\nhp = 24";
    let cases: [(&str, &str, Option<Style>, Intent); 5] = [
        (knight, "monster = \"orc\"\nhp = 20", None, Intent::Lethal),
        (warrior, guard, None, Intent::Lethal),
        (brawler, guard, Some(Style::Punch), Intent::Lethal),
        (brawler, guard, Some(Style::Wrestle), Intent::Subdue),
        (brawler, guard, Some(Style::Overbear), Intent::Lethal),
    ];
    for (a, v, style, intent) in cases {
        let p = plan(a, v, style, intent, 8);
        let direct = chain::Walking {
            shortcut: false,
            ..chain::Walking::FAST
        };
        let (fast, direct) = (p.exact().unwrap(), p.exact_walking(direct).unwrap());
        assert!(
            fast.transitions < direct.transitions,
            "{a} / {v}: no shortcut taken"
        );
        same_outcomes(&fast, &direct, &format!("{a} / {v}"));
    }
}

/// Holds two chains' outcomes equal within 10^-13.
fn same_outcomes(x: &ExactFight, y: &ExactFight, what: &str) {
    let y: std::collections::HashMap<_, _> = y.outcomes.iter().copied().collect();
    assert_eq!(x.outcomes.len(), y.len(), "{what}");
    for (o, q) in &x.outcomes {
        assert!(
            (q - y[o]).abs() < 1e-13,
            "{what}: {o:?} {q} against {}",
            y[o]
        );
    }
}

#[test]
fn a_round_whose_parity_changes_nothing_is_walked_once_and_rows_past_the_bound_land_the_same() {
    // A fight where no side strikes 3/2 walks every round as an even one; against one that walks odd and
    // even rounds apart, and against one that keeps no row of leads (each state's round walked whenever it
    // is carried), every outcome has the same probability. A warrior of 3/2 attacks is walked by parity.
    let brawler = "class = \"fighter\"\nlevel = 2\nstrength = 17\nhp = 12";
    let guard = "class = \"fighter\"\nlevel = 3\nweapon = \"long sword\"\nhp = 10";
    let warrior = "class = \"fighter\"\nlevel = 7\nweapon = \"dagger\"\nhp = 16";
    let cases: [(&str, &str, Option<Style>, Intent, bool); 4] = [
        (
            KNIGHT,
            "monster = \"orc\"\nhp = 9",
            None,
            Intent::Subdue,
            false,
        ),
        (brawler, guard, Some(Style::Punch), Intent::Lethal, false),
        (brawler, guard, Some(Style::Wrestle), Intent::Subdue, false),
        (warrior, guard, None, Intent::Lethal, true),
    ];
    for (a, v, style, intent, three_halves) in cases {
        let p = plan(a, v, style, intent, 12);
        let what = format!("{a} / {v}");
        let fast = p.exact().unwrap();
        let by_parity = p
            .exact_walking(chain::Walking {
                by_parity: true,
                ..chain::Walking::FAST
            })
            .unwrap();
        let unkept = p
            .exact_walking(chain::Walking {
                max_leads: 0,
                ..chain::Walking::FAST
            })
            .unwrap();
        assert_eq!(
            fast.transitions < by_parity.transitions,
            !three_halves,
            "{what}: walked by parity {} against {}",
            fast.transitions,
            by_parity.transitions
        );
        assert!(fast.leads > 0 && unkept.leads == 0, "{what}");
        same_outcomes(&fast, &by_parity, &what);
        same_outcomes(&fast, &unkept, &what);
    }
}

#[test]
fn an_opening_carried_round_by_round_is_the_whole_fight_enumerated() {
    // A sleeper sapped round after round (the opening a phase of the chain), an unaware victim sapped
    // once, and a mugging: fights short enough (one round, fixed hit points, no contest) to enumerate die
    // by die through `resolve` itself. Every outcome has the enumeration's probability.
    let sleeper = "class = \"fighter\"\nhp = 9\nstate = \"asleep\"";
    let unaware = "class = \"fighter\"\nhp = 9\naware = false";
    let cases = [
        (sleeper, Opening::Sap),
        (unaware, Opening::Sap),
        (SENTRY, Opening::Mug),
    ];
    for (victim, opening) in cases {
        let mut p = opened(MUGGER, victim, Style::Punch, opening).unwrap();
        p.max_rounds = 1;
        let x = p.exact().unwrap();
        // Sums kept compensated (Neumaier): millions of paths, each added as a double.
        let mut sums: std::collections::HashMap<FightOutcome, (f64, f64)> = Default::default();
        let walk = crate::dice::Enumerator::walk(
            |e| p.resolve(e),
            |o, n, d| {
                let (sum, carry) = sums.entry(o).or_insert((0.0, 0.0));
                let x = n as f64 / d as f64;
                let t = *sum + x;
                *carry += if sum.abs() >= x {
                    (*sum - t) + x
                } else {
                    (x - t) + *sum
                };
                *sum = t;
            },
        );
        let whole: std::collections::HashMap<FightOutcome, f64> =
            sums.into_iter().map(|(o, (s, c))| (o, s + c)).collect();
        assert_eq!(walk.cut, 0, "{victim}: a contest");
        assert_eq!(x.outcomes.len(), whole.len(), "{victim}: {:?}", x.outcomes);
        for (o, q) in &x.outcomes {
            let want = whole.get(o).copied().unwrap_or(f64::NAN);
            assert!(
                (q - want).abs() < 1e-13,
                "{victim}: {o:?} {q} against {want}"
            );
        }
    }
    // The sleeper does sleep on and is sapped again: some fight is won by the opening after round 0.
    let mut p = opened(MUGGER, sleeper, Style::Punch, Opening::Sap).unwrap();
    p.max_rounds = 1;
    let later = p
        .exact()
        .unwrap()
        .outcomes
        .iter()
        .any(|(o, q)| o.won_by_opening && o.rounds > 0 && *q > 0.0);
    assert!(later, "no sleeper sapped twice");
}
