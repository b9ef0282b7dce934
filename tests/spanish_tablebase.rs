//! Spanish draughts endgame tables: the values of the generated tables up
//! to four pieces against independent solves and hand-checked positions,
//! the 80-ply rule, conversion against a perfect defender, files and
//! verification. The five-piece build is an ignored test (and a bench).

#[path = "support/tablebase_solve.rs"]
mod tablebase_solve;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use damas::search::SearchLimits;
use damas::spanish::tablebase::{
    compare, compress, generate, verify, CompressOptions, GameValue, Material, Tablebase, Wdl,
};
use damas::spanish::{Draughts, Engine, GameStatus, Position};
use damas::{Game, Search};
use tablebase_solve::{prove, sample, solve, Lcg};

/// Tables of up to four pieces, built once per test run.
fn tables_arc() -> &'static Arc<Tablebase> {
    static TB: OnceLock<Arc<Tablebase>> = OnceLock::new();
    TB.get_or_init(|| {
        // Shared by every test and never removed by one, so it lives in
        // the target's scratch directory under a fixed name (rebuilt at each
        // run) rather than piling up in /tmp.
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("damas-tb-four");
        let _ = std::fs::remove_dir_all(&dir);
        generate(&dir, 4, 0, &|_| {}).unwrap();
        Arc::new(Tablebase::open(&dir).unwrap())
    })
}

fn tables() -> &'static Tablebase {
    tables_arc()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damas-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn pos(fen: &str) -> Position {
    fen.parse().unwrap()
}

fn value(fen: &str, counter: u32) -> GameValue {
    tables().probe(&pos(fen)).unwrap().value_at(counter)
}

#[test]
fn hand_checked_positions() {
    let tb = tables();
    // Lone king against king on the long diagonal's corners: the side to
    // move can only step onto the diagonal 1-32 and is taken (distance 2:
    // its move, then the capture that ends the game).
    for fen in ["W:WK1:BK32", "B:WK1:BK32"] {
        let p = tb.probe(&pos(fen)).unwrap();
        assert_eq!((p.wdl, p.distance), (Wdl::Loss, 2), "{fen}");
    }
    // Kings apart, nothing forced: a draw.
    assert_eq!(tb.probe(&pos("W:WK5:BK27")).unwrap().wdl, Wdl::Draw);
    // A king against a man on its start square, White to move: the king
    // flies 14-19 and takes 23 (landing on 28 or 32), the game ends.
    let p = tb.probe(&pos("W:WK14:B23")).unwrap();
    assert_eq!((p.wdl, p.distance), (Wdl::Win, 1));
    // Black to move: 23-19 is taken at once; 23-20 is lost too, which the
    // table-free proof confirms within a few plies.
    assert_eq!(value("B:WK14:B23", 0), GameValue::Loss);
    assert_eq!(prove(&pos("B:WK14:B23"), 0, 9), Some(GameValue::Loss));
    // A king on 17 (h5) against men on 26 and 27 (f7, d7), both on their
    // start squares, White to move: the king jumps 26 from 17 (over 21,
    // empty) to 30, then 27 to 23, 20 or 16, and Black has nothing left.
    let p = pos("W:WK17:B26,27");
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 3);
    assert!(moves.iter().all(|m| m.capture_count() == 2));
    let probe = tb.probe(&p).unwrap();
    assert_eq!((probe.wdl, probe.distance), (Wdl::Win, 1));
    // Black to move there: 26-21 and 27-23 are met by a capture of both
    // men, 27-22 by the capture of 26; only 26-22 leaves the king without
    // a capture (the tables say it loses too).
    assert_eq!(value("B:WK17:B26,27", 0), GameValue::Loss);
    for (after, taken) in [
        ("W:WK17:B21,27", 2),
        ("W:WK17:B23,26", 2),
        ("W:WK17:B22,26", 1),
        ("W:WK17:B22,27", 0),
    ] {
        let moves = pos(after).legal_moves();
        assert!(moves.iter().all(|m| m.capture_count() == taken), "{after}");
        assert_eq!(value(after, 0), GameValue::Win, "{after}");
    }
}

#[test]
fn maximum_capture_decides() {
    // Black king 32 against white men 8, 15, 23, Black to move. Taking
    // only 23 (landing on 14, 10, 5 or 1) would win: White, with men 8
    // and 15 against a king, is lost there. But the king must take the
    // most pieces, 23 and 15, and can only land on 12 (8 is occupied),
    // where the man on 8 takes it: Black loses.
    let tb = tables();
    let p = pos("B:W8,15,23:BK32");
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].capture_count(), 2);
    let probe = tb.probe(&p).unwrap();
    assert_eq!((probe.wdl, probe.distance), (Wdl::Loss, 1));
    for after_single in ["W:W8,15:BK14", "W:W8,15:BK10", "W:W8,15:BK5", "W:W8,15:BK1"] {
        assert_eq!(value(after_single, 0), GameValue::Loss, "{after_single}");
    }
    assert_eq!(prove(&p, 0, 2), Some(GameValue::Loss));
}

#[test]
fn the_counter_decides_late_wins() {
    // A win with distance d is a win at count 80 - d and a draw one ply
    // later; the memoised minimax over the count agrees.
    let tb = tables();
    let mut rng = Lcg(7);
    let m: Material = "3k0m-1k0m".parse().unwrap();
    let mut checked = 0;
    while checked < 10 {
        let p = sample(&mut rng, m);
        let probe = tb.probe(&p).unwrap();
        if probe.wdl != Wdl::Win || !(5..=9).contains(&probe.distance) {
            continue;
        }
        let d = probe.distance;
        assert_eq!(probe.value_at(80 - d), GameValue::Win);
        assert_eq!(probe.value_at(81 - d), GameValue::Draw);
        let mut memo = HashMap::new();
        assert_eq!(solve(tb, &p, 80 - d, &mut memo), GameValue::Win, "{p:?}");
        assert_eq!(solve(tb, &p, 81 - d, &mut memo), GameValue::Draw, "{p:?}");
        checked += 1;
    }
}

#[test]
fn sampled_positions_agree_with_plain_solves() {
    let tb = tables();
    let mut rng = Lcg(2026);
    let (mut proved, mut solved) = (0, 0);
    for n in 2..=4 {
        for m in Material::all_with(n) {
            for _ in 0..6 {
                let p = sample(&mut rng, m);
                let probe = tb.probe(&p).unwrap();
                // The minimax over the count near its end (short trees).
                let counter = 70 + rng.below(11) as u32;
                let mut memo = HashMap::new();
                assert_eq!(
                    solve(tb, &p, counter, &mut memo),
                    probe.value_at(counter),
                    "{p:?} at count {counter}"
                );
                solved += 1;
                // Table-free proof to the end of the game.
                if let Some(v) = prove(&p, 0, 5) {
                    assert_eq!(v, probe.value_at(0), "{p:?}");
                    proved += 1;
                }
            }
        }
    }
    assert!(
        solved == 41 * 6 && proved > 80,
        "{solved} solved, {proved} proved"
    );
}

#[test]
fn a_tablebase_perfect_defender_is_beaten_in_time() {
    // Every sampled won position of up to four pieces, played out with
    // the tables' ranking for both sides in a real game (80-ply rule,
    // repetitions), ends in a win for the side that was winning.
    let tb = tables();
    let mut rng = Lcg(99);
    let mut games = 0;
    for m in Material::all_with(4) {
        for _ in 0..3 {
            let p = sample(&mut rng, m);
            if tb.probe(&p).unwrap().value_at(0) != GameValue::Win {
                continue;
            }
            let winner = p.to_move();
            let mut game = Draughts::new(p);
            for _ in 0..400 {
                if game.status().is_over() {
                    break;
                }
                let counter = game.plies_without_progress();
                let best = tb.rank_moves(game.position(), counter).unwrap()[0];
                game.play(best.mv).unwrap();
            }
            match game.status() {
                GameStatus::Win { winner: w, .. } => assert_eq!(w, winner, "{p:?}"),
                s => panic!("{p:?} ended {s:?}"),
            }
            games += 1;
        }
    }
    assert!(games > 20, "{games}");
}

/// Plays `start` out: the engine (with `engine_tables`, searching `depth`
/// plies) for the side to move, the tables' best defence for the other.
/// Whether the engine's side won within the rules (80-ply rule and
/// repetitions applied by the game).
fn engine_converts(
    engine_tables: Option<Arc<Tablebase>>,
    defender: &Tablebase,
    start: Position,
    depth: u32,
) -> bool {
    let winner = start.to_move();
    let mut engine = Engine::new(8);
    engine.set_tablebase(engine_tables);
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let stop = AtomicBool::new(false);
    let mut game = Draughts::new(start);
    while !game.status().is_over() {
        let mv = if game.position().to_move() == winner {
            engine
                .search(&game, &limits, &stop, &mut |_| {})
                .best
                .unwrap()
        } else {
            let counter = game.plies_without_progress();
            defender.rank_moves(game.position(), counter).unwrap()[0].mv
        };
        game.play(mv).unwrap();
    }
    matches!(game.status(), GameStatus::Win { winner: w, .. } if w == winner)
}

/// Sampled positions of `pieces` pieces that are won for the side to move.
fn won_positions(tb: &Tablebase, pieces: u32, per_slice: usize, seed: u64) -> Vec<Position> {
    let mut rng = Lcg(seed);
    let mut out = Vec::new();
    for m in Material::all_with(pieces) {
        for _ in 0..per_slice {
            let p = sample(&mut rng, m);
            if tb.probe(&p).unwrap().value_at(0) == GameValue::Win {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn the_engine_converts_won_four_piece_positions() {
    // With the tables the engine plays the root answer; every sampled win
    // is converted against the perfect defender.
    let won = won_positions(tables(), 4, 2, 5);
    assert!(won.len() > 10, "{}", won.len());
    for p in &won {
        assert!(
            engine_converts(Some(Arc::clone(tables_arc())), tables(), *p, 4),
            "{p:?}"
        );
    }
}

#[test]
fn the_tables_verify_and_a_rerun_resumes() {
    let dir = temp_dir("three");
    let first = generate(&dir, 3, 1, &|_| {}).unwrap();
    assert!(first.slices.iter().all(|s| !s.resumed));
    let again = generate(&dir, 3, 1, &|_| {}).unwrap();
    assert!(again.slices.iter().all(|s| s.resumed));
    assert_eq!(first.slices.len(), 4 + 12);
    let report = verify(&dir, &|_| {}).unwrap();
    assert_eq!(
        (report.slices, report.errors),
        (16, 0),
        "{:?}",
        report.examples
    );
    assert_eq!(Tablebase::open(&dir).unwrap().max_pieces(), 3);
    // A slice file cut short is refused by the verifier.
    let victim = dir.join("2k0m-1k0m.dtb");
    let bytes = std::fs::read(&victim).unwrap();
    std::fs::write(&victim, &bytes[..bytes.len() / 2]).unwrap();
    assert!(verify(&dir, &|_| {}).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every slice up to four pieces in format version 3 answers every probe
/// as version 1 does; a version 3 set verifies; a directory may mix them.
#[test]
fn compressed_tables_answer_as_the_originals() {
    let packed = temp_dir("packed");
    let options = CompressOptions {
        block_positions: 1024,
        measure_values: false,
        ..CompressOptions::default()
    };
    let report = compress(tables().dir(), &packed, options, &|_| {}).unwrap();
    assert_eq!(report.slices, 4 + 12 + 25);
    assert!(report.bytes_after * 5 < report.bytes_before, "{report:?}");
    let same = compare(tables().dir(), &packed, &|_| {}).unwrap();
    assert_eq!(
        (same.slices, same.differences),
        (41, 0),
        "{:?}",
        same.examples
    );
    assert_eq!(same.positions, report.positions);
    let v2 = Tablebase::open(&packed).unwrap();
    assert_eq!(v2.max_pieces(), 4);
    // Every position of up to three pieces, every 7th of four.
    for n in 2..=4 {
        let step = if n == 4 { 7 } else { 1 };
        for m in Material::all_with(n) {
            for i in (0..m.positions()).step_by(step) {
                let Some(p) = m.position_at(i) else { continue };
                assert_eq!(v2.probe(&p), tables().probe(&p), "{}", p.to_fen());
                if i % 101 == 0 {
                    assert_eq!(v2.rank_moves(&p, 40), tables().rank_moves(&p, 40));
                }
            }
        }
    }
    // A set of up to three pieces in version 2 verifies; so does one that
    // mixes versions.
    let three = temp_dir("packed-three");
    for n in 2..=3 {
        for m in Material::all_with(n) {
            let name = format!("{m}.dtb");
            let from = if m.white_kings == 1 {
                &packed
            } else {
                tables().dir()
            };
            std::fs::copy(from.join(&name), three.join(&name))
                .or_else(|_| {
                    std::fs::create_dir_all(&three)?;
                    std::fs::copy(from.join(&name), three.join(&name))
                })
                .unwrap();
        }
    }
    let report = verify(&three, &|_| {}).unwrap();
    assert_eq!(
        (report.slices, report.errors),
        (16, 0),
        "{:?}",
        report.examples
    );
    let only_v2 = temp_dir("packed-three-v2");
    compress(&three, &only_v2, CompressOptions::default(), &|_| {}).unwrap();
    let report = verify(&only_v2, &|_| {}).unwrap();
    assert_eq!(
        (report.slices, report.errors),
        (16, 0),
        "{:?}",
        report.examples
    );
    for dir in [packed, three, only_v2] {
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn probes_outside_the_tables_are_none() {
    let tb = tables();
    assert!(tb.probe(&Position::start()).is_none());
    assert!(tb.probe(&pos("W:WK1,K2,K3:BK30,K31")).is_none());
    assert!(Tablebase::open(Path::new("/nonexistent/damas-tb")).is_err());
}

#[test]
fn probes_without_waiting_read_the_slice_in_the_background() {
    // A fresh reader of the same files: nothing is in memory yet.
    let fresh = Tablebase::open(tables().dir()).unwrap();
    let p = pos("W:WK14,K1:B23");
    let material = Material::of(&p);
    assert!(!fresh.is_in_memory(material));
    // Unknown until the slice is read and checked, and queued for reading.
    assert_eq!(fresh.probe_without_waiting(&p), None);
    let asked = std::time::Instant::now();
    while !fresh.is_in_memory(material) {
        assert!(asked.elapsed().as_secs() < 30, "the slice was never read");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(fresh.probe_without_waiting(&p), tables().probe(&p));
    // Every answer given while slices are being read agrees with the
    // loaded tables, and every slice is answered once read.
    let other = Tablebase::open(tables().dir()).unwrap();
    let mut rng = Lcg(17);
    let samples: Vec<Position> = Material::all_with(4)
        .into_iter()
        .flat_map(|m| (0..20).map(|_| sample(&mut rng, m)).collect::<Vec<_>>())
        .collect();
    for q in &samples {
        let answer = other.probe_without_waiting(q);
        assert!(answer.is_none() || answer == tables().probe(q), "{q:?}");
    }
    for q in &samples {
        let asked = std::time::Instant::now();
        while !other.is_in_memory(Material::of(q)) {
            assert!(asked.elapsed().as_secs() < 30, "never read");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(other.probe_without_waiting(q), tables().probe(q), "{q:?}");
    }
    let q = pos("W:WK1,K5:BK32");
    let _ = other.rank_moves_without_waiting(&q, 0);
    let asked = std::time::Instant::now();
    while other.rank_moves_without_waiting(&q, 0).is_none() {
        assert!(asked.elapsed().as_secs() < 30, "never read");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(
        other.rank_moves_without_waiting(&q, 0),
        tables().rank_moves(&q, 0)
    );
}

/// The five-piece build and its verification (about a minute in release
/// on two cores; `cargo test --release -- --ignored five_pieces`).
#[test]
#[ignore]
fn five_pieces_build_and_verify() {
    let dir = temp_dir("five");
    let report = generate(&dir, 5, 0, &|_| {}).unwrap();
    assert_eq!(report.slices.len(), 4 + 12 + 25 + 44);
    let v = verify(&dir, &|_| {}).unwrap();
    assert_eq!((v.slices, v.errors), (85, 0), "{:?}", v.examples);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Conversion of sampled won 4- and 5-piece positions against the
/// tablebase-perfect defender: with the full tables (must be all), and
/// with the tables of one piece fewer, so that the engine has to search
/// its way to a capture (reported). `DAMAS_TB5` names a directory with
/// the 5-piece tables (generated there if missing).
/// `cargo test --release -p damas --test spanish_tablebase -- --ignored conversion --nocapture`
#[test]
#[ignore]
fn conversion_against_a_perfect_defender() {
    let dir = std::env::var_os("DAMAS_TB5")
        .map(PathBuf::from)
        .unwrap_or_else(|| temp_dir("five-conv"));
    generate(&dir, 5, 0, &|_| {}).unwrap();
    let full = Arc::new(Tablebase::open(&dir).unwrap());
    assert_eq!(full.max_pieces(), 5);
    for (pieces, per_slice) in [(4, 4), (5, 2)] {
        let won = won_positions(&full, pieces, per_slice, 11);
        let smaller_dir = temp_dir(&format!("conv-{pieces}"));
        generate(&smaller_dir, pieces - 1, 0, &|_| {}).unwrap();
        let smaller = Arc::new(Tablebase::open(&smaller_dir).unwrap());
        let mut with_full = 0;
        let mut with_smaller = 0;
        for p in &won {
            with_full += usize::from(engine_converts(Some(Arc::clone(&full)), &full, *p, 6));
            with_smaller += usize::from(engine_converts(Some(Arc::clone(&smaller)), &full, *p, 6));
        }
        println!(
            "{pieces} pieces: {} won positions; converted with the full tables {with_full}, \
             with tables of {} pieces and depth 6 {with_smaller}",
            won.len(),
            pieces - 1
        );
        assert_eq!(with_full, won.len());
        std::fs::remove_dir_all(&smaller_dir).unwrap();
    }
}
