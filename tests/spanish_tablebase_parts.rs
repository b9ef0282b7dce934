//! Spanish draughts tables generated under a memory cap: a slice that does
//! not fit whole is solved in parts (advancement levels, batches of
//! configurations) and its file is byte for byte the one solved whole, in
//! both format versions; a cap below the least a slice needs is refused
//! before anything is written; a run keeps finished slices and redoes
//! interrupted ones.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use damas::spanish::tablebase::{
    generate_slice_with, generate_with, memory_needed, FileFormat, GenerateOptions, Material,
    SliceReport, TablebaseError,
};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damas-tb-parts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn options(format: FileFormat, max_memory: Option<u64>) -> GenerateOptions {
    GenerateOptions {
        threads: 2,
        format,
        max_memory,
        ..GenerateOptions::default()
    }
}

/// Every slice of up to four pieces generated whole (uncapped), in each
/// format, once per test run.
fn reference(format: FileFormat) -> &'static Path {
    static V1: OnceLock<PathBuf> = OnceLock::new();
    static V2: OnceLock<PathBuf> = OnceLock::new();
    static V3: OnceLock<PathBuf> = OnceLock::new();
    let (cell, name) = match format {
        FileFormat::V1 => (&V1, "damas-tb-parts-ref1"),
        FileFormat::V2 => (&V2, "damas-tb-parts-ref2"),
        FileFormat::V3 => (&V3, "damas-tb-parts-ref3"),
    };
    cell.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
        let _ = std::fs::remove_dir_all(&dir);
        let report = generate_with(&dir, 4, &options(format, Some(u64::MAX)), &|_| {}).unwrap();
        assert!(report.slices.iter().all(|s| s.parts == 1));
        dir
    })
}

fn bytes(dir: &Path, m: Material) -> Vec<u8> {
    std::fs::read(dir.join(format!("{m}.dtb"))).unwrap()
}

/// `dir` holding copies of every file of `from` except `m`'s.
fn copy_without(from: &Path, dir: &Path, m: Material) {
    std::fs::create_dir_all(dir).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().unwrap() != format!("{m}.dtb").as_str() {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
}

/// The names in `dir` that are not slice files.
fn leftovers(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".dtb"))
        .collect();
    names.sort();
    names
}

/// The counts of a report, without its time, parts and memory.
fn counts(s: &SliceReport) -> (Material, u64, u64, u64, u64, u64, u64, u32, u64) {
    (
        s.material,
        s.positions,
        s.wins,
        s.draws,
        s.losses,
        s.cursed_wins,
        s.blessed_losses,
        s.max_distance,
        s.file_bytes,
    )
}

#[test]
fn slices_solved_in_parts_are_byte_equal_to_slices_solved_whole() {
    for format in [FileFormat::V1, FileFormat::V3] {
        let reference = reference(format);
        let whole_reports = generate_with(reference, 4, &options(format, None), &|_| {}).unwrap();
        for name in [
            "1k1m-1k1m",
            "0k2m-1k1m",
            "1k2m-0k1m",
            "2k1m-1k0m",
            "0k1m-0k2m",
        ] {
            let m: Material = name.parse().unwrap();
            let dir = temp_dir(&format!("{name}-{format:?}"));
            copy_without(reference, &dir, m);
            let (whole, least) = memory_needed(&dir, m, 2, format);
            assert!(least < whole, "{name}: {least} {whole}");
            for cap in [least, (least + whole) / 2, whole - 1] {
                let _ = std::fs::remove_file(dir.join(format!("{name}.dtb")));
                let report =
                    generate_slice_with(&dir, m, &options(format, Some(cap)), &|_| {}).unwrap();
                assert!(
                    report.parts > 1,
                    "{name} {format:?} under {cap}: {report:?}"
                );
                assert!(report.peak_estimate <= cap);
                assert!(!report.resumed);
                assert!(
                    bytes(&dir, m) == bytes(reference, m),
                    "{name} {format:?} under {cap} bytes in {} parts differs",
                    report.parts
                );
                let kept = whole_reports
                    .slices
                    .iter()
                    .find(|s| s.material == m)
                    .unwrap();
                assert_eq!(counts(&report), counts(kept), "{name}");
                assert_eq!(leftovers(&dir), Vec::<String>::new());
            }
            // One configuration at a time is the least: below it, refused.
            let _ = std::fs::remove_file(dir.join(format!("{name}.dtb")));
            match generate_slice_with(&dir, m, &options(format, Some(least - 1)), &|_| {}) {
                Err(TablebaseError::Memory {
                    material,
                    needs,
                    cap,
                }) => assert_eq!((material, needs, cap), (m, least, least - 1)),
                other => panic!("{name}: {other:?}"),
            }
            assert!(!dir.join(format!("{name}.dtb")).exists());
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}

#[test]
fn a_capped_run_mixes_whole_slices_and_parts_and_writes_the_same_files() {
    let format = FileFormat::V3;
    let reference = reference(format);
    // The kings-only slices of four pieces are one configuration each: they
    // need the most. Kept from the reference, the cap is the least of the
    // others, which fit whole or in parts under it.
    let dir = temp_dir("run");
    std::fs::create_dir_all(&dir).unwrap();
    let kings_only: Vec<Material> = Material::all_with(4)
        .into_iter()
        .filter(|m| m.men() == 0)
        .collect();
    for m in &kings_only {
        std::fs::copy(
            reference.join(format!("{m}.dtb")),
            dir.join(format!("{m}.dtb")),
        )
        .unwrap();
    }
    let cap = Material::all_with(4)
        .into_iter()
        .filter(|m| m.men() > 0)
        .map(|m| memory_needed(reference, m, 2, format).1)
        .max()
        .unwrap();
    let report = generate_with(&dir, 4, &options(format, Some(cap)), &|_| {}).unwrap();
    let kept: Vec<Material> = report
        .slices
        .iter()
        .filter(|s| s.resumed)
        .map(|s| s.material)
        .collect();
    assert_eq!(kept, kings_only);
    assert!(report.slices.iter().any(|s| s.parts == 1));
    assert!(report.slices.iter().any(|s| s.parts > 1));
    for s in &report.slices {
        assert!(s.peak_estimate <= cap, "{s:?}");
        assert!(
            bytes(&dir, s.material) == bytes(reference, s.material),
            "{} differs",
            s.material
        );
    }
    assert_eq!(leftovers(&dir), Vec::<String>::new());
    // Too small a cap fails before anything is written.
    let small = temp_dir("small");
    let err = generate_with(&small, 4, &options(format, Some(1 << 20)), &|_| {}).unwrap_err();
    assert!(
        matches!(err, TablebaseError::Memory { cap, .. } if cap == 1 << 20),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        format!(
            "slice 1k0m-1k0m needs at least {} MB of memory to be generated, over the cap of 1 MB",
            memory_needed(&small, "1k0m-1k0m".parse().unwrap(), 2, format)
                .1
                .div_ceil(1_000_000)
        )
    );
    assert!(!small.exists() || std::fs::read_dir(&small).unwrap().next().is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_finished_slice_is_kept_and_an_interrupted_one_is_redone() {
    let format = FileFormat::V3;
    let reference = reference(format);
    let dir = temp_dir("resume");
    let first = generate_with(&dir, 3, &options(format, None), &|_| {}).unwrap();
    assert!(first.slices.iter().all(|s| !s.resumed));
    let path = |name: &str| dir.join(name);
    // Interrupted before the rename: the slice file is missing and a
    // half-written temporary file is there; interrupted while solving in
    // parts: a scratch file too. A damaged file is no finished slice.
    std::fs::remove_file(path("1k1m-1k0m.dtb")).unwrap();
    let half = &bytes(reference, "1k1m-1k0m".parse().unwrap())[..500];
    std::fs::write(path("1k1m-1k0m.dtb.tmp"), half).unwrap();
    std::fs::remove_file(path("0k2m-1k0m.dtb")).unwrap();
    std::fs::write(path("0k2m-1k0m.dtb.parts"), [7u8; 999]).unwrap();
    let damaged = path("2k0m-1k0m.dtb");
    let mut b = std::fs::read(&damaged).unwrap();
    let last = b.len() - 1;
    b[last] ^= 0x55;
    std::fs::write(&damaged, &b).unwrap();
    let kept_at = std::fs::metadata(path("1k0m-1k0m.dtb"))
        .unwrap()
        .modified()
        .unwrap();
    let again = generate_with(&dir, 3, &options(format, None), &|_| {}).unwrap();
    let redone: Vec<String> = again
        .slices
        .iter()
        .filter(|s| !s.resumed)
        .map(|s| s.material.to_string())
        .collect();
    assert_eq!(redone, ["2k0m-1k0m", "1k1m-1k0m", "0k2m-1k0m"]);
    for s in &again.slices {
        assert!(bytes(&dir, s.material) == bytes(reference, s.material));
        assert_eq!(s.parts == 0, s.resumed);
    }
    assert_eq!(
        std::fs::metadata(path("1k0m-1k0m.dtb"))
            .unwrap()
            .modified()
            .unwrap(),
        kept_at
    );
    // The leftover temporary file was written over and renamed, the stale
    // scratch file removed when its slice was written.
    assert_eq!(leftovers(&dir), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).unwrap();
}
