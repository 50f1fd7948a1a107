//! The engine end to end: a 20-point sweep of the mugging study (the "as written" variant, thief levels
//! 1-20), 10^6 trials a point, on one thread and on all of them. Reported as trials per second.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use subdual::engine;
use subdual::scenario::Scenario;

const TRIALS: u64 = 1_000_000;

fn mugging_sweep(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/mugging-level-gap.toml");
    let scenario = Scenario::load(&path).expect("the shipped study loads");
    let prepared: Vec<_> = scenario
        .points
        .iter()
        .filter(|p| p.variant == 0)
        .map(|p| p.prepare().ok())
        .collect();
    let points: Vec<_> = prepared.iter().map(Option::as_deref).collect();
    assert_eq!(points.len(), 20);
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut group = c.benchmark_group("engine_mugging_20_points");
    group.sample_size(10);
    group.throughput(Throughput::Elements(TRIALS * points.len() as u64));
    for threads in [1, all] {
        group.bench_function(format!("{threads}_threads"), |b| {
            b.iter(|| {
                engine::with_threads(threads, || {
                    black_box(engine::run(&points, TRIALS, 7376, &|_| {}))
                })
                .expect("a thread pool")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, mugging_sweep);
criterion_main!(benches);
