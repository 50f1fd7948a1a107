//! The honest limit of a single action, and how close subdual comes to it.
//!
//! `hand_mugging` is the cheapest mugging trial that keeps subdual's contract: every trial on its own
//! SplitMix64 stream (exact common random numbers), two dice per 64-bit word by the same unbiased Lemire
//! method, the attack d20, the save d20 and the knockout's 2d8 into the same counters and histogram. It
//! takes no shortcut subdual could not take (it rolls every die the rules roll, in their order), and before
//! anything is timed its tally is checked equal to the engine's, trial for trial, on the same seed.
//!
//! Then, alternating so that a slow spell of the machine hurts both alike, it times the loop and two whole
//! `subdual run` processes on one thread: the one-point mugging of `benches/mugging-one-point.toml` at
//! 50 M trials, and the shipped `scenarios/mugging-level-gap.toml` (two variants paired, 40 points) at 5 M
//! trials a point. It prints each run and the medians as trials per second and as ratios to the loop.
//!
//! `cargo bench --bench limit` (runs: `LIMIT_RUNS`, default 5; `LIMIT_HAND=N` runs the loop alone for N
//! trials, for an instruction counter; `LIMIT_THREADS=1` times a 20-point study on one thread and on two
//! instead). No timing is asserted anywhere.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use subdual::engine;
use subdual::rules::action::Prepared;
use subdual::scenario::Scenario;

/// SplitMix64's increment.
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;
/// The words each trial's stream owns.
const WORDS_PER_TRIAL: u64 = 1 << 24;

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One trial's dice: its SplitMix64 state and the unused high half of its last word.
struct Stream {
    state: u64,
    spare: Option<u32>,
}

impl Stream {
    #[inline(always)]
    fn word(&mut self) -> u32 {
        match self.spare.take() {
            Some(high) => high,
            None => {
                self.state = self.state.wrapping_add(GAMMA);
                let both = mix(self.state);
                self.spare = Some((both >> 32) as u32);
                both as u32
            }
        }
    }

    /// A face of 1..=sides, unbiased (Lemire, rejecting the surplus words).
    #[inline(always)]
    fn die(&mut self, sides: u32) -> u32 {
        let mut product = u64::from(self.word()) * u64::from(sides);
        if (product as u32) < sides {
            let threshold = sides.wrapping_neg() % sides;
            while (product as u32) < threshold {
                product = u64::from(self.word()) * u64::from(sides);
            }
        }
        (product >> 32) as u32 + 1
    }
}

/// A mugging's tally: the counters and the knockout histogram subdual keeps.
#[derive(Debug, Default, PartialEq, Eq)]
struct HandTally {
    trials: u64,
    hits: u64,
    knockouts: u64,
    woke_before_bound: u64,
    ko_rounds: [u64; 17],
}

/// What the loop needs of a prepared mugging: the faces that hit and save (bit k for a natural k) and the
/// knockout dice (count of d`sides`).
#[derive(Debug, Clone, Copy)]
struct HandMugging {
    hit_faces: u32,
    save_faces: u32,
    ko_count: u32,
    ko_sides: u32,
    bind_rounds: u32,
}

impl HandMugging {
    fn of(p: &Prepared) -> HandMugging {
        let Prepared::Mug(m) = p else {
            panic!("a mugging")
        };
        let faces =
            |ok: &dyn Fn(u32) -> bool| (1..=20).filter(|&k| ok(k)).fold(0, |f, k| f | 1 << k);
        assert_eq!(m.ko_rounds.bonus(), 0, "knockout dice without a bonus");
        assert!(!m.attack.is_automatic(), "an attack die is rolled");
        assert!(
            m.ko_rounds.max() <= 16,
            "knockout lengths within the histogram"
        );
        HandMugging {
            hit_faces: faces(&|k| m.attack.hits(k)),
            save_faces: faces(&|k| m.save.saves(k)),
            ko_count: m.ko_rounds.count(),
            ko_sides: m.ko_rounds.sides(),
            bind_rounds: m.bind_rounds,
        }
    }
}

/// Trials `first..first + n` of a mugging under `seed`, each on its own stream, as subdual defines them.
///
/// A trial's dice are the halves of its first words in order: the attack the low half of word 1, the
/// save its high half, the knockout dice those of word 2 (and 3). A die that would need Lemire's
/// rejection test (a low product under `sides`: about 1 in 2^28 for a d20) sends the trial to the
/// general [`Stream`], which rolls the same dice exactly.
fn hand_mugging(m: HandMugging, seed: u64, first: u64, n: u64) -> HandTally {
    let stride = WORDS_PER_TRIAL.wrapping_mul(GAMMA);
    let mut next = mix(seed ^ GAMMA).wrapping_add(first.wrapping_mul(stride));
    let mut t = HandTally {
        trials: n,
        ..HandTally::default()
    };
    if m.ko_count != 2 {
        for _ in 0..n {
            general_trial(m, next, &mut t);
            next = next.wrapping_add(stride);
        }
        return t;
    }
    // The three counters in 21-bit lanes of one word, one addition a trial, emptied every 2^20 trials.
    let (mut lanes, mut in_lanes) = (0u64, 0u32);
    for _ in 0..n {
        let state = next;
        next = next.wrapping_add(stride);
        // Both words are mixed whether or not the trial reaches its knockout dice: no branch to mispredict.
        let w1 = mix(state.wrapping_add(GAMMA));
        let w2 = mix(state.wrapping_add(GAMMA.wrapping_mul(2)));
        let sides = u64::from(m.ko_sides);
        let products = [
            u64::from(w1 as u32) * 20,
            (w1 >> 32) * 20,
            u64::from(w2 as u32) * sides,
            (w2 >> 32) * sides,
        ];
        let clean = (products[0] as u32 >= 20)
            & (products[1] as u32 >= 20)
            & (products[2] as u32 >= m.ko_sides)
            & (products[3] as u32 >= m.ko_sides);
        if clean {
            let hit = u64::from(m.hit_faces >> ((products[0] >> 32) + 1)) & 1;
            let saved = u64::from(m.save_faces >> ((products[1] >> 32) + 1)) & 1;
            let out = hit & !saved;
            let rounds = ((products[2] >> 32) + (products[3] >> 32) + 2) as usize;
            let woke = out & u64::from((rounds as u32) < m.bind_rounds);
            lanes += hit | out << 21 | woke << 42;
            t.ko_rounds[rounds] += out;
        } else {
            general_trial(m, state, &mut t);
        }
        in_lanes += 1;
        if in_lanes == 1 << 20 {
            empty_lanes(&mut t, &mut lanes);
            in_lanes = 0;
        }
    }
    empty_lanes(&mut t, &mut lanes);
    t
}

fn empty_lanes(t: &mut HandTally, lanes: &mut u64) {
    let mask = (1 << 21) - 1;
    t.hits += *lanes & mask;
    t.knockouts += (*lanes >> 21) & mask;
    t.woke_before_bound += *lanes >> 42;
    *lanes = 0;
}

/// One trial rolled die by die through [`Stream`].
fn general_trial(m: HandMugging, state: u64, t: &mut HandTally) {
    let mut dice = Stream { state, spare: None };
    let attack = dice.die(20);
    if (m.hit_faces >> attack) & 1 == 0 {
        return;
    }
    t.hits += 1;
    let save = dice.die(20);
    if (m.save_faces >> save) & 1 == 1 {
        return;
    }
    let mut rounds = 0;
    for _ in 0..m.ko_count {
        rounds += dice.die(m.ko_sides);
    }
    let rounds = rounds.max(1);
    t.knockouts += 1;
    t.woke_before_bound += u64::from(rounds < m.bind_rounds);
    t.ko_rounds[rounds as usize] += 1;
}

/// The engine's tally of the same trials, in the loop's shape.
fn engine_mugging(p: &Prepared, seed: u64, n: u64) -> HandTally {
    let tally = engine::run(&[Some(p)], n, seed, &|_| {})
        .pop()
        .flatten()
        .expect("an eligible point");
    let mut ko_rounds = [0; 17];
    for (value, count) in tally.hists[0].iter() {
        ko_rounds[usize::try_from(value).expect("rounds")] += count;
    }
    HandTally {
        trials: tally.trials,
        hits: tally.counts[0],
        knockouts: tally.counts[1],
        woke_before_bound: tally.counts[2],
        ko_rounds,
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Seconds a whole `subdual run` of `scenario` takes on one thread at `trials` a point.
fn subdual_run(scenario: &Path, trials: u64, out: &Path) -> f64 {
    subdual_run_on(scenario, trials, out, 1)
}

/// Seconds a whole `subdual run` of `scenario` takes on `threads` threads at `trials` a point.
fn subdual_run_on(scenario: &Path, trials: u64, out: &Path, threads: usize) -> f64 {
    let start = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_subdual"))
        .arg("run")
        .arg(scenario)
        .args(["--threads", &threads.to_string()])
        .args(["--no-charts", "--quiet", "--trials"])
        .arg(trials.to_string())
        .arg("--out")
        .arg(out)
        .status()
        .expect("subdual runs");
    let seconds = start.elapsed().as_secs_f64();
    assert!(status.success(), "subdual run {}", scenario.display());
    seconds
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this once in test mode: check only.
    let timing = std::env::args().any(|a| a == "--bench");
    let one_point: PathBuf = root().join("benches/mugging-one-point.toml");
    let level_gap: PathBuf = root().join("scenarios/mugging-level-gap.toml");
    let scenario = Scenario::load(&one_point).expect("the bench's scenario loads");
    let p = &scenario.points[0].prepare().expect("an eligible mugging");
    let m = HandMugging::of(p);
    let seed = scenario.seed;

    // The loop is subdual's mugging, trial for trial: the same tally on the same seed.
    let checked = 3 * engine::BLOCK_SIZE + 17;
    assert_eq!(
        hand_mugging(m, seed, 0, checked),
        engine_mugging(p, seed, checked),
        "the hand loop and the engine disagree"
    );
    println!(
        "hand loop = engine on {checked} trials of {}",
        one_point.display()
    );
    // `LIMIT_HAND=N`: the loop alone for N trials, so that an instruction counter can be run over it.
    if let Some(n) = std::env::var("LIMIT_HAND")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        println!("{:?}", hand_mugging(m, seed, 0, n));
        return;
    }
    if !timing {
        return;
    }

    let runs: usize = std::env::var("LIMIT_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let out = std::env::temp_dir().join(format!("subdual-limit-{}", std::process::id()));
    if std::env::var("LIMIT_THREADS").is_ok() {
        threads(runs, &out);
        return;
    }
    const ONE: u64 = 50_000_000;
    const PER_POINT: u64 = 5_000_000;
    let gap_trials = 40 * PER_POINT;
    let (mut hand, mut single, mut paired) = (Vec::new(), Vec::new(), Vec::new());
    for run in 0..runs {
        let start = Instant::now();
        let t = hand_mugging(m, seed, 0, ONE);
        let h = ONE as f64 / start.elapsed().as_secs_f64();
        std::hint::black_box(t);
        let s = ONE as f64 / subdual_run(&one_point, ONE, &out);
        let g = gap_trials as f64 / subdual_run(&level_gap, PER_POINT, &out);
        println!(
            "run {run}: hand loop {:.1} M/s, one-point mugging {:.1} M/s ({:.2}x), level gap {:.1} M/s ({:.2}x)",
            h / 1e6,
            s / 1e6,
            s / h,
            g / 1e6,
            g / h
        );
        hand.push(h);
        single.push(s / h);
        paired.push(g / h);
    }
    let _ = std::fs::remove_dir_all(&out);
    println!(
        "medians of {runs}: hand loop {:.1} M trials/s; one-point mugging {:.2}x of it (target 0.8); level gap {:.2}x (target 0.7)",
        median(hand) / 1e6,
        median(single),
        median(paired)
    );
}

/// `LIMIT_THREADS=1`: the 20-point study of `benches/mugging-20-points.toml` at 5 M trials a point on one
/// thread and on two, alternated; and, as the machine's own ceiling in the same runs, two one-thread runs
/// side by side (the work of two in the time they take, against one alone).
fn threads(runs: usize, out: &Path) {
    const PER_POINT: u64 = 5_000_000;
    let study = root().join("benches/mugging-20-points.toml");
    let (mut scaling, mut ceiling) = (Vec::new(), Vec::new());
    for run in 0..runs {
        let one = subdual_run_on(&study, PER_POINT, out, 1);
        let two = subdual_run_on(&study, PER_POINT, out, 2);
        let start = Instant::now();
        std::thread::scope(|s| {
            for k in 0..2 {
                let out = out.join(format!("side-{k}"));
                let study = &study;
                s.spawn(move || subdual_run_on(study, PER_POINT, &out, 1));
            }
        });
        let side_by_side = 2.0 * one / start.elapsed().as_secs_f64();
        println!(
            "run {run}: 1 thread {one:.3} s, 2 threads {two:.3} s ({:.2}x); two 1-thread runs side by side {side_by_side:.2}x",
            one / two
        );
        scaling.push(one / two);
        ceiling.push(side_by_side);
    }
    let _ = std::fs::remove_dir_all(out);
    println!(
        "medians of {runs}: 2 threads {:.2}x one (target 1.8); two 1-thread runs side by side {:.2}x",
        median(scaling),
        median(ceiling)
    );
}
