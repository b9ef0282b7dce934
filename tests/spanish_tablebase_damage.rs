//! Damaged and odd tablebase files: a slice whose checksum is wrong is
//! never probed, by a search on the clock (before or after its background
//! read) or by one that waits, and is named as damaged; a wrong header is
//! found when the tables are opened; a FIFO in place of a slice file is
//! never opened; a damaged block of a compressed (version 2) slice makes
//! only its own positions unknown.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use damas::search::{Score, SearchLimits};
use damas::spanish::tablebase::{
    compress, generate, verify, CompressOptions, DamagedSlice, Material, ProbeError, Tablebase,
};
use damas::spanish::{Draughts, Engine, Position};
use damas::{Game, Search};

#[path = "support/damaged_tables.rs"]
mod damaged_tables;
use damaged_tables::invert_values;

/// Black to move: 10-6 draws, 10-5 loses the man (and the game).
const MAN_TO_SAVE: &str = "B:WK29,K19:B10";

/// Tables of up to three pieces in a fresh directory.
fn three_piece_tables(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damas-tb-damage-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    generate(&dir, 3, 1, &|_| {}).unwrap();
    dir
}

fn pos(fen: &str) -> Position {
    fen.parse().unwrap()
}

fn kings_against_man() -> Material {
    "2k0m-0k1m".parse().unwrap()
}

/// The move a search of `MAN_TO_SAVE` plays with `tables`, and its score.
fn search_with(tables: &std::sync::Arc<Tablebase>, limits: &SearchLimits) -> (String, Score) {
    let game: Draughts = MAN_TO_SAVE.parse().unwrap();
    let mut engine = Engine::new(1);
    engine.set_tablebase(Some(std::sync::Arc::clone(tables)));
    let result = engine.search(&game, limits, &AtomicBool::new(false), &mut |_| {});
    (game.move_text(&result.best.unwrap()), result.score)
}

#[test]
fn a_slice_with_a_wrong_checksum_never_decides_a_search() {
    let dir = three_piece_tables("checksum");
    let good = Tablebase::open(&dir).unwrap();
    let p = pos(MAN_TO_SAVE);
    let ranked = good.rank_moves(&p, 0).unwrap();
    assert_eq!(ranked.len(), 2);
    assert_eq!(Draughts::new(p).move_text(&ranked[0].mv), "10-6");
    invert_values(&dir.join("2k0m-0k1m.dtb"));

    // On the clock: unknown before the background read and after it.
    let tables = std::sync::Arc::new(Tablebase::open(&dir).unwrap());
    assert_eq!(tables.damaged_slices(), []);
    assert_eq!(tables.probe_without_waiting(&p), None);
    assert_eq!(tables.rank_moves_without_waiting(&p, 0), None);
    let asked = Instant::now();
    while !tables.is_in_memory(kings_against_man()) {
        assert!(asked.elapsed().as_secs() < 30, "the slice was never read");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(tables.probe_without_waiting(&p), None);
    let damaged = DamagedSlice {
        material: kings_against_man(),
        why: "checksum mismatch".into(),
    };
    assert_eq!(tables.damaged_slices(), std::slice::from_ref(&damaged));
    assert_eq!(
        tables.try_probe(&p),
        Err(ProbeError::Damaged(damaged.clone()))
    );
    assert_eq!(
        tables.try_rank_moves(&p, 0),
        Err(ProbeError::Damaged(damaged.clone()))
    );
    assert_eq!(
        damaged.to_string(),
        "slice 2k0m-0k1m is damaged (checksum mismatch)"
    );

    // A timed search from fresh tables searches instead of trusting the
    // entries (which call 10-5 a win).
    let fresh = std::sync::Arc::new(Tablebase::open(&dir).unwrap());
    let timed = SearchLimits {
        movetime: Some(Duration::from_millis(100)),
        ..SearchLimits::default()
    };
    let (mv, score) = search_with(&fresh, &timed);
    assert_eq!(mv, "10-6", "{score:?}");
    assert!(!matches!(score, Score::Win(_)), "{score:?}");
    if let Score::Centi(cp) = score {
        assert!(cp.abs() < 10_000, "a table score: {score:?}");
    }
    // A search that waits for the slice finds it damaged too.
    let waiting = std::sync::Arc::new(Tablebase::open(&dir).unwrap());
    let deep = SearchLimits {
        depth: Some(4),
        ..SearchLimits::default()
    };
    assert_eq!(search_with(&waiting, &deep).0, "10-6");
    assert_eq!(waiting.damaged_slices(), [damaged]);

    // A slice that needs the damaged one cannot be verified.
    let why = verify(&dir, &|_| {}).unwrap_err().to_string();
    assert!(why.ends_with("2k0m-0k1m.dtb: checksum mismatch"), "{why}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Positions per block of the compressed tables of the block test.
const BLOCK: u64 = 64;

#[test]
fn a_damaged_block_makes_only_its_positions_unknown() {
    let plain = three_piece_tables("block-v1");
    let dir = std::env::temp_dir().join(format!("damas-tb-damage-block-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = CompressOptions {
        block_positions: BLOCK,
        measure_values: false,
        // Format version 2, every position stored: a damaged block makes
        // each of its positions unknown.
        captures_stored: true,
    };
    compress(&plain, &dir, options, &|_| {}).unwrap();
    // Damage the block of the position after 10-6, the drawing move.
    let m = kings_against_man();
    let drawn = pos("W:WK29,K19:B6");
    let index = (0..m.positions())
        .find(|&i| m.position_at(i) == Some(drawn))
        .unwrap();
    let block = index / BLOCK;
    let blocks = m.positions().div_ceil(BLOCK);
    let file = dir.join("2k0m-0k1m.dtb");
    let mut bytes = std::fs::read(&file).unwrap();
    let pairs = u32::from_le_bytes(bytes[36..40].try_into().unwrap()) as usize;
    let at = 48 + 4 * pairs + 16 * block as usize;
    let start = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    bytes[start] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    let first = block * BLOCK;
    let damaged = DamagedSlice {
        material: m,
        why: format!(
            "block {block} of {blocks}, positions {first}-{}: checksum mismatch",
            first + BLOCK - 1
        ),
    };

    let good = Tablebase::open(&plain).unwrap();
    let tables = std::sync::Arc::new(Tablebase::open(&dir).unwrap());
    assert_eq!(tables.damaged_slices(), []);
    for i in 0..m.positions() {
        let Some(p) = m.position_at(i) else { continue };
        if i / BLOCK == block {
            assert_eq!(
                tables.try_probe(&p),
                Err(ProbeError::Damaged(damaged.clone()))
            );
            assert_eq!(tables.probe_without_waiting(&p), None);
        } else {
            assert_eq!(tables.probe(&p), good.probe(&p), "{}", p.to_fen());
        }
    }
    assert_eq!(tables.damaged_slices(), std::slice::from_ref(&damaged));
    let p = pos(MAN_TO_SAVE);
    assert_eq!(
        tables.try_rank_moves(&p, 0),
        Err(ProbeError::Damaged(damaged.clone()))
    );
    assert_eq!(tables.rank_moves_without_waiting(&p, 0), None);
    assert_eq!(
        damaged.to_string(),
        format!("slice 2k0m-0k1m is damaged ({})", damaged.why)
    );

    // Searches on the clock and without it search instead of trusting the
    // tables: 10-5's target is known (lost), 10-6's is not.
    let timed = SearchLimits {
        movetime: Some(Duration::from_millis(100)),
        ..SearchLimits::default()
    };
    let fresh = std::sync::Arc::new(Tablebase::open(&dir).unwrap());
    let (mv, score) = search_with(&fresh, &timed);
    assert_eq!(mv, "10-6", "{score:?}");
    assert!(
        !matches!(score, Score::Win(_) | Score::Loss(_)),
        "{score:?}"
    );
    let deep = SearchLimits {
        depth: Some(4),
        ..SearchLimits::default()
    };
    assert_eq!(search_with(&tables, &deep).0, "10-6");

    // The verifier names the block.
    let why = verify(&dir, &|_| {}).unwrap_err().to_string();
    assert!(
        why.ends_with(&format!("2k0m-0k1m.dtb: {}", damaged.why)),
        "{why}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&plain).unwrap();
}

#[test]
fn a_wrong_header_is_found_when_the_tables_open() {
    let dir = three_piece_tables("header");
    let victim = dir.join("2k0m-0k1m.dtb");
    let bytes = std::fs::read(&victim).unwrap();
    std::fs::write(&victim, &bytes[..bytes.len() - 1]).unwrap();
    let tables = Tablebase::open(&dir).unwrap();
    assert_eq!(tables.max_pieces(), 3);
    let damaged = DamagedSlice {
        material: kings_against_man(),
        why: "truncated or too long".into(),
    };
    assert_eq!(tables.damaged_slices(), std::slice::from_ref(&damaged));
    let p = pos(MAN_TO_SAVE);
    assert_eq!(tables.probe_without_waiting(&p), None);
    assert_eq!(tables.try_probe(&p), Err(ProbeError::Damaged(damaged)));
    // The other slices still answer.
    assert!(tables.probe(&pos("W:WK14:B23")).is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `work` on a thread and fails the test if it has not finished
/// within 30 seconds (opening a FIFO for reading waits for a writer).
fn within_30_s<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(work());
    });
    receive
        .recv_timeout(Duration::from_secs(30))
        .expect("finished instead of waiting on the FIFO")
}

#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_a_slice_is_never_opened() {
    let dir = three_piece_tables("fifo");
    let slice = dir.join("1k0m-2k0m.dtb");
    std::fs::remove_file(&slice).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&slice)
        .status()
        .unwrap();
    assert!(made.success());
    // Not a slice file: the tables cover two pieces only.
    let opened = dir.clone();
    let tables = within_30_s(move || Tablebase::open(&opened).unwrap());
    assert_eq!(tables.max_pieces(), 2);
    // The verifier skips it, and a slice that needs it is an error.
    let verified = dir.clone();
    let skipped = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let heard = std::sync::Arc::clone(&skipped);
    let result = within_30_s(move || {
        verify(&verified, &|step| {
            if let damas::spanish::tablebase::VerifyStep::Skipped(why) = step {
                heard.lock().unwrap().push(why.to_string());
            }
        })
        .map_err(|e| e.to_string())
    });
    assert_eq!(
        *skipped.lock().unwrap(),
        ["1k0m-2k0m.dtb: not a regular file (a FIFO)"]
    );
    let why = result.unwrap_err();
    assert!(
        why.ends_with("1k0m-2k0m.dtb: not a regular file (a FIFO)"),
        "{why}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
