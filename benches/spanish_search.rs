//! Criterion benchmarks of the Spanish draughts search: fixed-depth
//! searches from the start and a middle game, each from a fresh engine,
//! and the static evaluation alone (through `tuning::white_score`).

use damas::Search;
use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, Criterion};
use damas::search::SearchLimits;
use damas::spanish::tuning::white_score;
use damas::spanish::{Draughts, Engine, Position};

fn benches(c: &mut Criterion) {
    let mid = Position::from_fen("W:W1-4,6-8,10,11,13,14,16:B17,19,21-24,26,27,29-32").unwrap();
    let ending = Position::from_fen("B:W5,9,K30:BK14,24,27").unwrap();
    c.bench_function("evaluate, middle game", |b| {
        b.iter(|| white_score(black_box(&mid)))
    });
    c.bench_function("evaluate, king ending", |b| {
        b.iter(|| white_score(black_box(&ending)))
    });
    let stop = AtomicBool::new(false);
    for (name, pos, depth) in [
        ("search depth 10, start", Position::start(), 10),
        ("search depth 10, middle game", mid, 10),
    ] {
        c.bench_function(name, |b| {
            b.iter(|| {
                let mut engine = Engine::new(4);
                let limits = SearchLimits {
                    depth: Some(depth),
                    ..SearchLimits::default()
                };
                engine.search(black_box(&Draughts::new(pos)), &limits, &stop, &mut |_| {})
            })
        });
    }
}

criterion_group! {
    name = spanish_search;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(spanish_search);
