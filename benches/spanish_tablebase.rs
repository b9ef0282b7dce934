//! Criterion benchmarks of the Spanish draughts endgame tables: building
//! every slice up to 4 pieces, verifying them, and probing. The 5-piece
//! build and verification, minutes long, is timed once by the
//! `spanish_tablebase_build` bench (and checked by the ignored test
//! `five_pieces_build_and_verify`).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use damas::spanish::tablebase::{generate, verify, Tablebase};
use damas::spanish::Position;

fn benches(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("damas-tb-bench-{}", std::process::id()));
    c.bench_function("tablebase generate up to 4 pieces", |b| {
        b.iter(|| {
            let _ = std::fs::remove_dir_all(&dir);
            generate(&dir, 4, 0, &|_| {}).unwrap()
        })
    });
    c.bench_function("tablebase verify up to 4 pieces", |b| {
        b.iter(|| verify(&dir, &|_| {}).unwrap())
    });
    let tb = Tablebase::open(&dir).unwrap();
    let positions: Vec<Position> = [
        "W:WK1,K10:BK32,K29",
        "B:W8,15,23:BK32",
        "W:W5,6,K20:B30,K14",
        "B:WK14:B23,27,28",
    ]
    .iter()
    .map(|f| f.parse().unwrap())
    .collect();
    for p in &positions {
        tb.probe(p).unwrap();
    }
    c.bench_function("tablebase probe (4 positions, loaded)", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(tb.probe(black_box(p)));
            }
        })
    });
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group! {
    name = spanish_tablebase;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(spanish_tablebase);
