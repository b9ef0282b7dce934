//! Criterion benchmarks of the Chinese checkers move generator and perft.
//!
//! `cargo bench -p damas --bench chinese` (short runs: 10 samples, ~2 s each).

use criterion::{criterion_group, criterion_main, Criterion};
use damas::chinese::{perft, Checkers, Position, Rules, Variant};
use damas::Game;
use std::hint::black_box;
use std::time::Duration;

/// A 2-player middle game: 30 plies of the first legal move alternating with
/// the last, from the start.
fn midgame() -> Position {
    let mut g = Checkers::new(Rules::default());
    for i in 0..30 {
        let ms = g.legal_moves();
        let mv = if i % 2 == 0 { ms[0] } else { ms[ms.len() - 1] };
        g.play(mv).unwrap();
    }
    *g.position()
}

fn benches(c: &mut Criterion) {
    let start = Position::start(&Rules::default());
    let mid = midgame();
    let japanese = Position::start(&Rules {
        players: 3,
        variant: Variant::Japanese,
        ..Rules::default()
    });
    let six = Position::start(&Rules::for_players(6));
    let mut g = c.benchmark_group("chinese");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    g.bench_function("legal_moves/start", |b| {
        b.iter(|| black_box(&start).legal_moves().len())
    });
    g.bench_function("legal_moves/midgame", |b| {
        b.iter(|| black_box(&mid).legal_moves().len())
    });
    g.bench_function("count_moves/midgame", |b| {
        b.iter(|| black_box(&mid).count_legal_moves())
    });
    g.bench_function("legal_moves/japanese3", |b| {
        b.iter(|| black_box(&japanese).legal_moves().len())
    });
    g.bench_function("perft4/2p", |b| b.iter(|| perft(black_box(&start), 4)));
    g.bench_function("perft5/2p", |b| b.iter(|| perft(black_box(&start), 5)));
    g.bench_function("perft3/6p", |b| b.iter(|| perft(black_box(&six), 3)));
    g.bench_function("perft3/japanese3", |b| {
        b.iter(|| perft(black_box(&japanese), 3))
    });
    g.finish();
}

criterion_group!(chinese, benches);
criterion_main!(chinese);
