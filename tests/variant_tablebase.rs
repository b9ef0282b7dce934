//! Endgame tables of every draughts variant: each solved under its own
//! moves and no-progress draw, recorded in the files' headers, verified
//! against its moves, checked against the plain solvers, and used by the
//! search for that variant's games only.

#[path = "support/tablebase_solve.rs"]
mod tablebase_solve;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use damas::search::SearchLimits;
use damas::spanish::tablebase::{
    compare, generate_with, verify, FileFormat, GameValue, GenerateOptions, Material, ProbeError,
    Tablebase, Wdl,
};
use damas::spanish::{Draughts, Engine, Position, Rules, Variant};
use damas::Search;
use tablebase_solve::{prove, sample, solve, Lcg};

/// Positions of the 2- and 3-piece slices, holes excluded.
const THREE_PIECE_POSITIONS: u64 = 399_040;

/// The tables of up to three pieces of `variant`, in format version 3
/// (the capture positions worked out by the reader under the variant's
/// moves), built once per test run, with the win, draw and loss counts of
/// the generation.
fn tables(variant: Variant) -> &'static (PathBuf, [u64; 3]) {
    static BUILT: [OnceLock<(PathBuf, [u64; 3])>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let slot = Variant::ALL.iter().position(|&v| v == variant).unwrap();
    BUILT[slot].get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("damas-tb-{variant}"));
        let _ = std::fs::remove_dir_all(&dir);
        let options = GenerateOptions {
            threads: 2,
            format: FileFormat::V3,
            variant,
            ..GenerateOptions::default()
        };
        let report = generate_with(&dir, 3, &options, &|_| {}).unwrap();
        let mut counts = [0; 3];
        for s in &report.slices {
            counts[0] += s.wins;
            counts[1] += s.draws + s.cursed_wins + s.blessed_losses;
            counts[2] += s.losses;
        }
        (dir, counts)
    })
}

fn open(variant: Variant) -> Tablebase {
    Tablebase::open(&tables(variant).0).unwrap()
}

fn pos(fen: &str, variant: Variant) -> Position {
    let p: Position = fen.parse().unwrap();
    p.with_rules(Rules::new(variant).unwrap())
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damas-tbv-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn each_variant_verifies_and_records_its_variant() {
    // Wins, draws (cursed and blessed ones too: there are none this
    // small) and losses for the side to move. Portuguese draughts equals
    // Spanish draughts here: no 3-piece win takes more than 8 plies, so
    // its 40-ply draw never comes.
    let expected = [
        (Variant::Spanish, [128_414, 207_714, 62_912]),
        (Variant::Portuguese, [128_414, 207_714, 62_912]),
        (Variant::Brazilian, [137_504, 193_330, 68_206]),
        (Variant::Russian, [137_532, 193_302, 68_206]),
    ];
    for (variant, counts) in expected {
        let (dir, got) = tables(variant);
        let report = verify(dir, &|_| {}).unwrap();
        assert_eq!(
            (
                report.variant,
                report.slices,
                report.positions,
                report.errors
            ),
            (variant, 16, THREE_PIECE_POSITIONS, 0),
            "{variant}: {:?}",
            report.examples
        );

        assert_eq!(open(variant).variant(), variant);
        assert_eq!(*got, counts, "{variant}: wins, draws, losses");
    }
}

#[test]
fn sampled_values_agree_with_plain_solves() {
    for variant in [Variant::Portuguese, Variant::Brazilian, Variant::Russian] {
        let tb = open(variant);
        let rules = Rules::new(variant).unwrap();
        let limit = rules.no_progress_plies();
        let mut rng = Lcg(2027);
        let (mut proved, mut solved) = (0, 0);
        for n in 2..=3 {
            for m in Material::all_with(n) {
                for _ in 0..6 {
                    let p = sample(&mut rng, m).with_rules(rules);
                    let probe = tb.probe(&p).unwrap();
                    // The minimax over the count near its end (short trees).
                    let counter = limit - 10 + rng.below(11) as u32;
                    let mut memo = HashMap::new();
                    assert_eq!(
                        solve(&tb, &p, counter, &mut memo),
                        probe.value_at(counter),
                        "{variant} {} at count {counter}",
                        p.to_fen()
                    );
                    solved += 1;
                    if let Some(v) = prove(&p, 0, 5) {
                        assert_eq!(v, probe.value_at(0), "{variant} {}", p.to_fen());
                        proved += 1;
                    }
                }
            }
        }
        assert!(
            solved == 16 * 6 && proved > 30,
            "{variant}: {solved} solved, {proved} proved"
        );
    }
}

#[test]
fn each_variant_counts_its_own_no_progress_draw() {
    // A win is one while the count leaves room for its distance: 80 plies
    // in Spanish and Brazilian draughts, 40 in Portuguese, 30 in Russian.
    let m: Material = "2k0m-1k0m".parse().unwrap();
    for (variant, limit) in [
        (Variant::Spanish, 80),
        (Variant::Portuguese, 40),
        (Variant::Brazilian, 80),
        (Variant::Russian, 30),
    ] {
        let tb = open(variant);
        let won = (0..m.positions())
            .filter_map(|i| m.position_at_in(i, variant))
            .find_map(|p| {
                let probe = tb.probe(&p)?;
                (probe.wdl == Wdl::Win && probe.distance >= 5).then_some(probe)
            })
            .unwrap();
        assert_eq!(won.no_progress_plies, limit);
        let last = limit - won.distance;
        assert_eq!(won.value_at(last), GameValue::Win, "{variant}");
        assert_eq!(won.value_at(last + 1), GameValue::Draw, "{variant}");
    }
    // Portuguese draughts moves as Spanish draughts: this small, where no
    // win takes 40 plies, its tables hold the Spanish values.
    let (spanish, portuguese) = (open(Variant::Spanish), open(Variant::Portuguese));
    for n in 2..=3 {
        for m in Material::all_with(n) {
            for i in 0..m.positions() {
                let Some(p) = m.position_at(i) else { continue };
                let s = spanish.probe(&p).unwrap();
                let q = portuguese
                    .probe(&p.with_rules(Rules::new(Variant::Portuguese).unwrap()))
                    .unwrap();
                assert_eq!((s.wdl, s.distance), (q.wdl, q.distance), "{}", p.to_fen());
            }
        }
    }
}

#[test]
fn the_variants_moves_show_in_the_values() {
    let probe = |fen: &str, variant: Variant| {
        let p = open(variant).probe(&pos(fen, variant)).unwrap();
        (p.wdl, p.distance)
    };
    // A White man on 9 with a Black king on 5 behind it: in Spanish and
    // Portuguese draughts the man cannot take backward, steps on and is
    // taken; in Brazilian and Russian draughts it takes the king (9x2).
    for (variant, value) in [
        (Variant::Spanish, (Wdl::Loss, 1)),
        (Variant::Portuguese, (Wdl::Loss, 1)),
        (Variant::Brazilian, (Wdl::Win, 1)),
        (Variant::Russian, (Wdl::Win, 1)),
    ] {
        assert_eq!(probe("W:W9:BK5", variant), value, "{variant}");
    }
    // A White man on 23 takes the king on 27 and reaches the last row on
    // 30: in Russian draughts it goes on as a king over 26 and takes the
    // king on 21 too (23x17), winning; in Brazilian draughts it goes on
    // as a man, which cannot reach 21, and in Spanish draughts the capture
    // ends on the crowning: a king against a king, drawn.
    for (variant, value) in [
        (Variant::Spanish, (Wdl::Draw, 0)),
        (Variant::Brazilian, (Wdl::Draw, 0)),
        (Variant::Russian, (Wdl::Win, 1)),
    ] {
        assert_eq!(probe("W:W23:BK21,K27", variant), value, "{variant}");
    }
}

#[test]
fn a_position_or_file_of_another_variant_is_not_answered() {
    let russian = open(Variant::Russian);
    let spanish_pos = pos("W:WK14:B23", Variant::Spanish);
    assert_eq!(
        russian.try_probe(&spanish_pos),
        Err(ProbeError::OtherVariant {
            tables: Variant::Russian,
            position: Variant::Spanish
        })
    );
    assert_eq!(russian.probe(&spanish_pos), None);
    assert!(russian
        .probe(&pos("W:WK14:B23", Variant::Russian))
        .is_some());
    // A Russian file among Spanish ones is damaged, and named so.
    let mixed = temp_dir("mixed");
    std::fs::create_dir_all(&mixed).unwrap();
    for m in Material::all_with(2) {
        let name = format!("{m}.dtb");
        let from = if m.white_men == 1 && m.black_men == 1 {
            &tables(Variant::Russian).0
        } else {
            &tables(Variant::Spanish).0
        };
        std::fs::copy(from.join(&name), mixed.join(&name)).unwrap();
    }
    let tb = Tablebase::open(&mixed).unwrap();
    assert_eq!(tb.variant(), Variant::Spanish);
    let damaged = tb.damaged_slices();
    assert_eq!(damaged.len(), 1, "{damaged:?}");
    assert_eq!(damaged[0].material, "0k1m-0k1m".parse().unwrap());
    assert_eq!(
        damaged[0].why,
        "the header names russian draughts, not spanish"
    );
    assert!(verify(&mixed, &|_| {}).is_err());
    // Two directories of different variants are not compared.
    assert!(compare(
        &tables(Variant::Spanish).0,
        &tables(Variant::Russian).0,
        &|_| {}
    )
    .is_err());
    std::fs::remove_dir_all(&mixed).unwrap();
}

#[test]
fn the_search_reads_the_tables_of_its_own_variant_only() {
    let fen = "W:WK14,K1:B23";
    for (tables_of, game_of, used) in [
        (Variant::Russian, Variant::Russian, true),
        (Variant::Spanish, Variant::Russian, false),
        (Variant::Brazilian, Variant::Brazilian, true),
    ] {
        let mut engine = Engine::new(8);
        engine.set_tablebase(Some(Arc::new(open(tables_of))));
        let game = Draughts::new(pos(fen, game_of));
        let limits = SearchLimits {
            depth: Some(4),
            ..SearchLimits::default()
        };
        let mut tbhits = 0;
        let result = engine.search(&game, &limits, &AtomicBool::new(false), &mut |info| {
            tbhits = tbhits.max(info.tbhits.unwrap_or(0));
        });
        assert!(result.best.is_some());
        assert_eq!(tbhits > 0, used, "{tables_of} tables, {game_of} game");
    }
}
