//! Format version 3 leaves the positions whose side to move has a capture
//! to the reader, which works them out from their captures' successors:
//! they answer as version 1 stores them, a damaged block makes the
//! positions that need it unknown, and version 2 files still read.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use damas::spanish::tablebase::{
    compare, compress, generate, CompressOptions, Material, ProbeError, Tablebase, Wdl,
};
use damas::spanish::Position;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damas-tb-captures-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn pos(fen: &str) -> Position {
    fen.parse().unwrap()
}

/// `from` compressed into a fresh directory `name`, in blocks of `block`
/// positions, in version 2 (`captures_stored`) or 3.
fn compressed(from: &Path, name: &str, block: u64, captures_stored: bool) -> PathBuf {
    let dir = temp_dir(name);
    let options = CompressOptions {
        block_positions: block,
        measure_values: false,
        captures_stored,
    };
    compress(from, &dir, options, &|_| {}).unwrap();
    dir
}

fn version(dir: &Path, m: &str) -> u8 {
    std::fs::read(dir.join(format!("{m}.dtb"))).unwrap()[8]
}

#[test]
fn positions_with_a_capture_answer_as_version_1_and_version_2_still_reads() {
    let v1 = temp_dir("v1");
    generate(&v1, 4, 2, &|_| {}).unwrap();
    let v2 = compressed(&v1, "v2", 1024, true);
    let v3 = compressed(&v1, "v3", 1024, false);
    assert_eq!(
        (version(&v2, "2k0m-1k0m"), version(&v3, "2k0m-1k0m")),
        (2, 3)
    );
    let (t1, t2, t3) = (
        Tablebase::open(&v1).unwrap(),
        Tablebase::open(&v2).unwrap(),
        Tablebase::open(&v3).unwrap(),
    );
    // Black's king must take 23 and 15, and White's man on 8 takes it
    // back: a loss at distance 1. A king takes the last man: a win at 1.
    for (fen, wdl) in [("B:W8,15,23:BK32", Wdl::Loss), ("W:WK14:B18", Wdl::Win)] {
        let p = pos(fen);
        assert!(p.has_capture(), "{fen}");
        let want = t1.probe(&p).unwrap();
        assert_eq!((want.wdl, want.distance), (wdl, 1), "{fen}");
        assert_eq!(t3.try_probe(&p), Ok(want), "{fen}");
        assert_eq!(t2.try_probe(&p), Ok(want), "{fen}");
    }
    // Every position with a capture of up to three pieces, every 5th of
    // four, and a sample of the others, in both compressed forms.
    let mut captures = 0;
    for n in 2..=4 {
        for m in Material::all_with(n) {
            for i in 0..m.positions() {
                let Some(p) = m.position_at(i) else { continue };
                let capture = p.has_capture();
                if (n == 4 && i % 5 != 0) || (!capture && i % 3 != 0) {
                    continue;
                }
                captures += u64::from(capture);
                let want = t1.probe(&p);
                assert_eq!(t3.probe(&p), want, "{}", p.to_fen());
                assert_eq!(t2.probe(&p), want, "{}", p.to_fen());
            }
        }
    }
    assert!(captures > 100_000, "{captures}");
    for dir in [&v2, &v3] {
        let same = compare(&v1, dir, &|_| {}).unwrap();
        assert_eq!((same.slices, same.differences), (41, 0));
    }
    for dir in [v1, v2, v3] {
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// The first byte of block `block` of a version 2 or 3 file and the
/// bytes it has.
fn block_bytes(bytes: &[u8], block: u64) -> (usize, usize) {
    let pairs = u32::from_le_bytes(bytes[36..40].try_into().unwrap()) as usize;
    let entry = |b: u64| 48 + 4 * pairs + 16 * b as usize;
    let start = |b: u64| u64::from_le_bytes(bytes[entry(b)..entry(b) + 8].try_into().unwrap());
    let n = u64::from_le_bytes(bytes[16..24].try_into().unwrap());
    let block_len = u64::from(u32::from_le_bytes(bytes[32..36].try_into().unwrap()));
    let end = if (block + 1) * block_len < n {
        start(block + 1)
    } else {
        bytes.len() as u64
    };
    (start(block) as usize, (end - start(block)) as usize)
}

const BLOCK: u64 = 64;

#[test]
fn a_damaged_block_makes_the_captures_that_need_it_unknown() {
    let v1 = temp_dir("damage-v1");
    generate(&v1, 3, 2, &|_| {}).unwrap();
    let v3 = compressed(&v1, "damage-v3", BLOCK, false);
    let good = Tablebase::open(&v1).unwrap();
    // A three-piece position with a capture that does not win, so that
    // every successor decides it, and a two-piece successor stored in a
    // block with bytes to damage.
    let (p, child, bytes, at) = Material::all_with(3)
        .into_iter()
        .flat_map(|m| (0..m.positions()).filter_map(move |i| m.position_at(i)))
        .filter(|p| p.has_capture() && good.probe(p).unwrap().wdl != Wdl::Win)
        .find_map(|p| {
            p.legal_moves().iter().find_map(|mv| {
                let c = p.played_unchecked(mv);
                if c.pieces(c.to_move()).is_empty() || c.has_capture() {
                    return None;
                }
                let m = Material::of(&c);
                let i = (0..m.positions()).find(|&i| m.position_at(i) == Some(c))?;
                let bytes = std::fs::read(v3.join(format!("{m}.dtb"))).unwrap();
                let (at, len) = block_bytes(&bytes, i / BLOCK);
                (len > 0).then_some((p, c, bytes, at))
            })
        })
        .unwrap();
    let cm = Material::of(&child);
    let mut bytes = bytes;
    bytes[at] ^= 0x40;
    std::fs::write(v3.join(format!("{cm}.dtb")), &bytes).unwrap();
    let tables = Tablebase::open(&v3).unwrap();
    let Err(ProbeError::Damaged(damaged)) = tables.try_probe(&child) else {
        panic!("{} answers", child.to_fen())
    };
    assert_eq!(damaged.material, cm);
    assert!(damaged.why.contains("checksum mismatch"), "{damaged:?}");
    assert_eq!(
        tables.try_probe(&p),
        Err(ProbeError::Damaged(damaged.clone())),
        "{}",
        p.to_fen()
    );
    assert_eq!(tables.probe_without_waiting(&p), None);
    // Every other position answers as version 1, or not at all when it is
    // in the damaged block or has a capture.
    let mut unknown = 0;
    for n in 2..=3 {
        for m in Material::all_with(n) {
            for i in 0..m.positions() {
                let Some(q) = m.position_at(i) else { continue };
                match tables.probe(&q) {
                    Some(got) => assert_eq!(Some(got), good.probe(&q), "{}", q.to_fen()),
                    None => {
                        unknown += 1;
                        assert!(q.has_capture() || m == cm, "{}", q.to_fen());
                    }
                }
            }
        }
    }
    assert!(unknown > 1);
    assert_eq!(tables.damaged_slices(), [damaged]);
    std::fs::remove_dir_all(&v1).unwrap();
    std::fs::remove_dir_all(&v3).unwrap();
}

#[test]
fn a_probe_that_does_not_wait_answers_a_capture_once_its_slices_are_read() {
    let v1 = temp_dir("wait-v1");
    generate(&v1, 4, 2, &|_| {}).unwrap();
    let v3 = compressed(&v1, "wait-v3", 1024, false);
    let p = pos("B:W8,15,23:BK32");
    let want = Tablebase::open(&v1).unwrap().probe(&p);
    let tables = Tablebase::open(&v3).unwrap();
    // Nothing is read yet: unknown, at once.
    assert_eq!(tables.probe_without_waiting(&p), None);
    let start = Instant::now();
    let got = loop {
        if let Some(got) = tables.probe_without_waiting(&p) {
            break Some(got);
        }
        assert!(start.elapsed() < Duration::from_secs(30), "never read");
        std::thread::sleep(Duration::from_millis(5));
    };
    assert_eq!(got, want);
    std::fs::remove_dir_all(&v1).unwrap();
    std::fs::remove_dir_all(&v3).unwrap();
}
