//! `damas tablebase generate` on the command line: progress lines on a
//! pipe, a killed run resumed to the same files, and a memory cap too
//! small for a slice refused with one line.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use damas::spanish::tablebase::{generate_with, FileFormat, GenerateOptions, Material};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damas-tb-gen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn damas() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_damas"));
    cmd.arg("tablebase");
    cmd
}

/// Every slice of 2 to `pieces` pieces, format version 3, from the library.
fn reference(name: &str, pieces: u32) -> PathBuf {
    let dir = temp_dir(name);
    let options = GenerateOptions {
        threads: 2,
        format: FileFormat::V3,
        ..GenerateOptions::default()
    };
    generate_with(&dir, pieces, &options, &|_| {}).unwrap();
    dir
}

/// Whether every slice file of `a` is byte for byte that of `b`, and they
/// hold the same names.
fn same_files(a: &Path, b: &Path) -> bool {
    let names = |d: &Path| {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        v.sort();
        v
    };
    names(a) == names(b)
        && names(a)
            .iter()
            .all(|n| std::fs::read(a.join(n)).unwrap() == std::fs::read(b.join(n)).unwrap())
}

#[test]
fn a_pipe_gets_a_progress_line_per_slice_event() {
    let dir = temp_dir("pipe");
    let d = dir.to_str().unwrap();
    let out = damas()
        .args(["generate", "--pieces", "3", "--dir", d, "--threads", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        !stderr.contains('\x1b') && !stderr.contains('\r'),
        "{stderr:?}"
    );
    let lines: Vec<&str> = stderr.lines().collect();
    let slices: Vec<Material> = (2..=3).flat_map(Material::all_with).collect();
    for (i, m) in slices.iter().enumerate() {
        let head = format!("slice {}/16 {m} ", i + 1);
        let solving = lines
            .iter()
            .filter(|l| l.starts_with(&format!("{head}solving in 1 part, estimated peak ")))
            .count();
        let written = lines
            .iter()
            .filter(|l| l.starts_with(&format!("{head}written: ")))
            .count();
        assert_eq!((solving, written), (1, 1), "{m}: {stderr}");
    }
    for line in &lines {
        assert!(
            line.contains("% of 404560 positions, ") && line.contains(" M positions/s, "),
            "{line}"
        );
        assert!(line.ends_with(" left") || line.ends_with("time left unknown"));
    }
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("slice 16/16 0k2m-0k1m written: 100.0% of 404560 positions, "),
        "{stderr}"
    );
    // Again: every slice is kept, one line each.
    let out = damas()
        .args(["generate", "--pieces", "3", "--dir", d])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 16, "{stderr}");
    assert!(stderr.lines().all(|l| l.contains(" kept: ")), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().filter(|l| l.contains(" kept ")).count(), 16);
    // --quiet: no progress at all.
    let out = damas()
        .args(["generate", "--pieces", "3", "--dir", d, "--quiet"])
        .output()
        .unwrap();
    assert!(out.status.success() && out.stderr.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_killed_run_resumes_keeping_the_slices_it_finished() {
    let reference = reference("kill-ref", 4);
    let dir = temp_dir("kill");
    let d = dir.to_str().unwrap();
    let mut child = damas()
        .args(["generate", "--pieces", "4", "--dir", d, "--threads", "1"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    // Killed as slice 30 of 41 starts: the larger slices are still to do.
    for line in BufReader::new(stderr).lines() {
        if line.unwrap().starts_with("slice 30/41 ") {
            break;
        }
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "finished before it was killed");
    let finished = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().unwrap() == "dtb")
        .count();
    assert!((29..41).contains(&finished), "{finished} slices");
    let out = damas()
        .args(["generate", "--pieces", "4", "--dir", d, "--quiet"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.lines().filter(|l| l.contains(" kept ")).count(),
        finished,
        "{stdout}"
    );
    assert!(same_files(&dir, &reference));
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&reference).unwrap();
}

#[test]
fn a_cap_too_small_for_a_slice_fails_with_one_line() {
    let dir = temp_dir("small");
    let d = dir.to_str().unwrap();
    for args in [
        vec![
            "generate",
            "--pieces",
            "3",
            "--dir",
            d,
            "--max-memory-mb",
            "1",
        ],
        vec![
            "generate",
            "--slice",
            "1k0m-1k0m",
            "--dir",
            d,
            "--max-memory",
            "0.001",
        ],
    ] {
        let out = damas().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("damas: slice 1k0m-1k0m needs at least ")
                && stderr.ends_with(" MB of memory to be generated, over the cap of 1 MB\n"),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty());
        assert!(!dir.join("1k0m-1k0m.dtb").exists());
    }
    for bad in ["0", "-1", "nan", "1e9", "lots"] {
        let out = damas()
            .args(["generate", "--pieces", "3", "--dir", d])
            .arg(format!("--max-memory={bad}"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.starts_with("error: invalid value"),
            "{bad}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_variants_tables_generate_verify_and_probe_in_that_variant() {
    let dir = temp_dir("russian");
    let run = |args: &[&str]| {
        let out = damas().args(args).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        (
            out.status.success(),
            text,
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let d = dir.to_str().unwrap();
    let (ok, _, err) = run(&[
        "generate",
        "--pieces",
        "3",
        "--dir",
        d,
        "--quiet",
        "--variant",
        "russian",
    ]);
    assert!(ok, "{err}");
    let (ok, text, err) = run(&["verify", "--dir", d]);
    assert!(ok, "{err}");
    assert_eq!(
        text.lines().next(),
        Some("verified 16 slices, 399040 positions, 0 errors, variant russian")
    );
    // The FEN is read as a Russian position: the man crowned on 30 takes
    // the second king as a king (23x17), a win at once, written as Russian
    // players write it (f6:d8:a5).
    let (ok, text, err) = run(&["probe", "--dir", d, "--fen", "W:W23:BK21,K27"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0], "value win (win at counter 0) distance 1",
        "{text}"
    );
    assert!(lines.contains(&"move f6:d8:a5 win distance 1"), "{text}");
    // Another variant's generation into the directory is refused with one
    // line, and the Russian files stay as they were.
    let before = std::fs::read(dir.join("0k1m-0k1m.dtb")).unwrap();
    let (ok, _, err) = run(&["generate", "--pieces", "3", "--dir", d, "--quiet"]);
    assert!(!ok);
    assert_eq!(
        err.trim_end(),
        format!("damas: {d} holds russian draughts tables, not spanish draughts ones")
    );
    assert_eq!(std::fs::read(dir.join("0k1m-0k1m.dtb")).unwrap(), before);
    // An unknown variant is refused by the parser, naming the four.
    let (ok, _, err) = run(&["generate", "--pieces", "2", "--dir", d, "--variant", "pool"]);
    assert!(!ok);
    assert!(
        err.contains("spanish, portuguese, brazilian or russian"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
