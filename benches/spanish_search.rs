//! Criterion benchmarks of the Spanish draughts search: evaluation speed
//! and fixed-depth searches from the start and a middle game.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, Criterion};
use damas::search::SearchLimits;
use damas::spanish::search::{evaluate, search, SearchParams, TranspositionTable};
use damas::spanish::{Game, Position};

fn benches(c: &mut Criterion) {
    let mid = Position::from_fen("W:W1-4,6-8,10,11,13,14,16:B17,19,21-24,26,27,29-32").unwrap();
    c.bench_function("evaluate, middle game", |b| {
        b.iter(|| evaluate(black_box(&mid)))
    });
    let stop = AtomicBool::new(false);
    for (name, pos, depth) in [
        ("search depth 10, start", Position::start(), 10),
        ("search depth 10, middle game", mid, 10),
    ] {
        c.bench_function(name, |b| {
            b.iter(|| {
                let tt = TranspositionTable::new(4);
                let limits = SearchLimits {
                    depth: Some(depth),
                    ..SearchLimits::default()
                };
                search(
                    &Game::new(pos),
                    &limits,
                    &tt,
                    &SearchParams::default(),
                    &stop,
                    &mut |_| {},
                )
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
