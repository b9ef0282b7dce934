//! Criterion benchmarks for Spanish draughts: move generation, make-move
//! and perft. Kept short by default (10 samples, about 2 s per benchmark):
//! `cargo bench -p damas --bench spanish`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use damas::spanish::{perft, Position};

/// Positions with different characters: the start, a middlegame with
/// captures pending, and an endgame with flying kings.
const FENS: [(&str, &str); 3] = [
    ("start", "W:W1-12:B21-32"),
    ("midgame", "W:W1-3,5,6,9-11,13,15:B17,19,21-24,26-28,30,32"),
    ("kings", "W:WK1,K8,10,12:BK32,K25,20,23"),
];

fn movegen(c: &mut Criterion) {
    let mut g = c.benchmark_group("spanish_movegen");
    for (name, fen) in FENS {
        let pos = Position::from_fen(fen).expect("valid FEN");
        g.bench_function(format!("legal_moves/{name}"), |b| {
            b.iter(|| black_box(&pos).legal_moves().len())
        });
        g.bench_function(format!("count/{name}"), |b| {
            b.iter(|| black_box(&pos).count_legal_moves())
        });
        let moves = pos.legal_moves();
        g.bench_function(format!("play_all/{name}"), |b| {
            b.iter(|| {
                let mut h = 0u64;
                for m in &moves {
                    h ^= black_box(&pos).played_unchecked(m).hash();
                }
                h
            })
        });
    }
    g.finish();
}

fn perft_bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("spanish_perft");
    let start = Position::start();
    g.bench_function("start/6", |b| b.iter(|| perft(black_box(&start), 6)));
    g.bench_function("start/8", |b| b.iter(|| perft(black_box(&start), 8)));
    let kings = Position::from_fen(FENS[2].1).expect("valid FEN");
    g.bench_function("kings/5", |b| b.iter(|| perft(black_box(&kings), 5)));
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = movegen, perft_bench
}
criterion_main!(benches);
