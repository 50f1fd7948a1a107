//! One trial of each single action through the public rules API, as trials per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;
use subdual::dice::Pooled;
use subdual::rules::fight::{FightKind, FightPlan};
use subdual::rules::fight::{Intent, Style};
use subdual::rules::grab::{GrabHold, GrabObject, Hands};
use subdual::rules::mugging::Mugging;
use subdual::rules::sap::Sap;
use subdual::rules::strike::Strike;
use subdual::rules::{Matchup, RuleOptions};
use subdual::scenario::CombatantSpec;

fn matchup(attacker: &str, victim: &str) -> Matchup {
    let resolve = |text: &str| {
        let spec: CombatantSpec = toml::from_str(text).expect("bench combatant");
        spec.resolve().expect("bench combatant resolves")
    };
    Matchup {
        attacker: resolve(attacker),
        victim: resolve(victim),
    }
}

fn single_actions(c: &mut Criterion) {
    let o = RuleOptions::default();
    let thief = "class = \"thief\"\nlevel = 9\nweapon = \"club\"\nposition = \"behind\"";
    let fighter = "class = \"fighter\"\nlevel = 5\nstrength = 17\nweapon = \"long sword\"";
    let guard = "class = \"fighter\"\nlevel = 3\nac = 5\nstrength = 15\nweapon = \"long sword\"";
    let mug = Mugging::prepare(&matchup(thief, "monster = \"ogre\"\naware = false"), &o)
        .expect("eligible");
    let sap = Sap::prepare(&matchup(fighter, guard), &o).expect("eligible");
    let strike = Strike::prepare(&matchup(fighter, "monster = \"ogre\""), &o).expect("eligible");
    // A grab needs free hands: the grabber carries nothing. The guard strikes first at +4.
    let grabber = "class = \"fighter\"\nlevel = 5\nstrength = 17";
    let grab_object = GrabObject::prepare(&matchup(grabber, guard), &o).expect("eligible");
    let grab_person = GrabHold::person(&matchup(grabber, guard), &o, Hands::Two).expect("eligible");
    let grab_monster = GrabHold::monster(&matchup(grabber, "monster = \"ogre\""), &o, Hands::Two)
        .expect("eligible");

    let mut group = c.benchmark_group("single_action");
    group.throughput(Throughput::Elements(1));
    // The engine's dice: every 64-bit draw serves two dice.
    let mut rng = Pooled::new(Xoshiro256PlusPlus::seed_from_u64(1));
    group.bench_function("mug", |b| b.iter(|| black_box(mug.resolve(&mut rng))));
    group.bench_function("sap", |b| b.iter(|| black_box(sap.resolve(&mut rng))));
    group.bench_function("strike", |b| b.iter(|| black_box(strike.resolve(&mut rng))));
    group.bench_function("grab_object", |b| {
        b.iter(|| black_box(grab_object.resolve(&mut rng)))
    });
    group.bench_function("grab_person", |b| {
        b.iter(|| black_box(grab_person.resolve(&mut rng)))
    });
    group.bench_function("grab_monster", |b| {
        b.iter(|| black_box(grab_monster.resolve(&mut rng)))
    });
    group.finish();
}

fn fights(c: &mut Criterion) {
    let o = RuleOptions::default();
    let brawler = "class = \"fighter\"\nlevel = 5\nstrength = 17\nac = 7";
    let guard = "class = \"fighter\"\nlevel = 3\nstrength = 15\nweapon = \"long sword\"\nac = 5";
    let knight = "class = \"fighter\"\nlevel = 6\nstrength = \"18/50\"\nweapon = \"long sword\"\nac = 3\nshield = 1";
    let brawl = FightPlan::prepare(
        &matchup(brawler, guard),
        &o,
        FightKind::Brawl(Style::Punch),
        Intent::Lethal,
        100,
    )
    .expect("eligible");
    let wrestle = FightPlan::prepare(
        &matchup(brawler, guard),
        &o,
        FightKind::Brawl(Style::Wrestle),
        Intent::Lethal,
        100,
    )
    .expect("eligible");
    let subdue = FightPlan::prepare(
        &matchup(knight, "monster = \"ogre\""),
        &o,
        FightKind::Subdue(Style::Punch),
        Intent::Lethal,
        100,
    )
    .expect("eligible");
    let artist =
        "class = \"fighter\"\nlevel = 5\nstrength = 17\nac = 7\nmartial_arts = \"specialized\"";
    let martial_arts = FightPlan::prepare(
        &matchup(artist, guard),
        &o,
        FightKind::Brawl(Style::MartialArts),
        Intent::Lethal,
        100,
    )
    .expect("eligible");
    let sapper = "class = \"thief\"\nlevel = 5\nstrength = 16\nweapon = \"club\"\nac = 7";
    let sap = FightPlan::prepare(
        &matchup(sapper, guard),
        &o,
        FightKind::Brawl(Style::Sap),
        Intent::Lethal,
        100,
    )
    .expect("eligible");
    let mut group = c.benchmark_group("fight");
    group.throughput(Throughput::Elements(1));
    let mut rng = Pooled::new(Xoshiro256PlusPlus::seed_from_u64(2));
    group.bench_function("brawl_punch", |b| {
        b.iter(|| black_box(brawl.resolve(&mut rng)))
    });
    group.bench_function("brawl_wrestle", |b| {
        b.iter(|| black_box(wrestle.resolve(&mut rng)))
    });
    group.bench_function("brawl_martial_arts", |b| {
        b.iter(|| black_box(martial_arts.resolve(&mut rng)))
    });
    group.bench_function("brawl_sap", |b| b.iter(|| black_box(sap.resolve(&mut rng))));
    group.bench_function("subdue_ogre", |b| {
        b.iter(|| black_box(subdue.resolve(&mut rng)))
    });
    group.finish();
}

/// Fights of several a side: three thugs on an armed guard, four on two. Besides criterion's fights per second,
/// the set-up prints each fight's mean rounds and combatants, so that the rate can be read per
/// combatant-round, the unit in which a fight of several compares with one on one (README, "Performance").
fn sides(c: &mut Criterion) {
    use subdual::rules::fight::Then;
    use subdual::rules::fight::gang::{Entry, GangPlan, Sides, Target};
    use subdual::rules::maneuver::Maneuver;
    let o = RuleOptions::default();
    let thug = "class = \"fighter\"\nlevel = 2\nstrength = 16\nac = 8";
    let guard = "class = \"fighter\"\nlevel = 3\nstrength = 15\nweapon = \"long sword\"\nac = 5";
    let side = |text: &str, count: u32| {
        vec![Entry {
            combatant: matchup(text, text).attacker,
            count,
            target: Target::Focus,
        }]
    };
    let gang = |attackers: u32, victims: u32| {
        GangPlan::prepare(
            &Sides {
                sides: [side(thug, attackers).into(), side(guard, victims).into()],
            },
            &o,
            FightKind::Brawl(Style::Punch),
            Intent::Lethal,
            100,
            Then::Punch,
        )
        .expect("eligible")
    };
    let one = gang(1, 1);
    let three = gang(3, 1);
    let four_two = gang(4, 2);
    let mut rng = Pooled::new(Xoshiro256PlusPlus::seed_from_u64(3));
    for (name, plan, members) in [
        ("1v1", &one, 2.0),
        ("3v1", &three, 4.0),
        ("4v2", &four_two, 6.0),
    ] {
        let n = 100_000;
        let rounds: f64 = (0..n)
            .map(|_| f64::from(plan.resolve(&mut rng).rounds))
            .sum::<f64>()
            / n as f64;
        println!(
            "sides/{name}: {rounds:.2} rounds a fight, {members} combatants: combatant-rounds per fight {:.1}",
            rounds * members
        );
    }
    let mut group = c.benchmark_group("sides");
    group.throughput(Throughput::Elements(1));
    group.bench_function("1v1", |b| b.iter(|| black_box(one.resolve(&mut rng))));
    group.bench_function("3v1", |b| b.iter(|| black_box(three.resolve(&mut rng))));
    group.bench_function("4v2", |b| b.iter(|| black_box(four_two.resolve(&mut rng))));
    group.finish();
    // The same 1v1 fight one on one, for the per combatant-round comparison.
    let plain = FightPlan::prepare(
        &matchup(thug, guard),
        &o,
        FightKind::Brawl(Style::Punch),
        Intent::Lethal,
        100,
    )
    .expect("eligible");
    let n = 100_000;
    let rounds: f64 = (0..n)
        .map(|_| f64::from(plain.resolve(&mut rng).rounds))
        .sum::<f64>()
        / n as f64;
    println!("fight/thug_vs_guard: {rounds:.2} rounds a fight, 2 combatants");
    let mut group = c.benchmark_group("fight");
    group.throughput(Throughput::Elements(1));
    group.bench_function("thug_vs_guard", |b| {
        b.iter(|| black_box(plain.resolve(&mut rng)))
    });
    group.finish();
}

criterion_group!(benches, single_actions, fights, sides);
criterion_main!(benches);
