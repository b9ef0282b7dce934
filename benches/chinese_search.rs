//! Criterion benchmarks of the Chinese checkers search: the solitaire beam
//! (positions scored per second, and the 27-move transfer) and a fixed-depth
//! two-player search.
//!
//! `cargo bench -p damas --bench chinese_search`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use damas::chinese::{solve_solitaire, Checkers, Engine, Rules};
use damas::search::SearchLimits;
use damas::Search;
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn benches(c: &mut Criterion) {
    let rules = Rules::for_players(1);
    let mut g = c.benchmark_group("chinese_search");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    let nodes = solve_solitaire(&rules, 1000).nodes;
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("beam/solitaire_w1000", |b| {
        b.iter(|| {
            black_box(solve_solitaire(black_box(&rules), 1000))
                .moves
                .len()
        })
    });
    let nodes = solve_solitaire(&rules, 10_000).nodes;
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("beam/solitaire_27_w10000", |b| {
        b.iter(|| {
            let plan = solve_solitaire(black_box(&rules), 10_000);
            assert_eq!(plan.moves.len(), 27);
        })
    });
    let game = Checkers::new(Rules::default());
    let limits = SearchLimits {
        depth: Some(6),
        ..SearchLimits::default()
    };
    g.throughput(Throughput::Elements(1));
    let mut engine = Engine::new(4);
    g.bench_function("tree/2p_start_depth6", |b| {
        b.iter(|| {
            engine.clear();
            engine
                .search(
                    black_box(&game),
                    &limits,
                    &AtomicBool::new(false),
                    &mut |_| {},
                )
                .nodes
        })
    });
    g.finish();
}

criterion_group!(chinese_search, benches);
criterion_main!(chinese_search);
