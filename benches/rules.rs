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

criterion_group!(benches, single_actions, fights);
criterion_main!(benches);
