//! The `TablebasePath` option against the real `damas` binary: a bad path
//! is refused and changes nothing, `d` shows a position's table value, a
//! search from a table position answers from the tables and reports
//! `tbhits`, a damaged slice is named and never decides a move; and
//! `damas tablebase` on the command line, with damaged and odd files.

#[path = "support/bounded.rs"]
mod bounded;
#[path = "support/damaged_tables.rs"]
mod damaged_tables;
#[path = "support/engine_process.rs"]
mod engine_process;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use damaged_tables::invert_values;
use engine_process::Engine;

/// Tables of up to three pieces in a fresh directory.
fn three_piece_tables(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damas-tb-proto-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    damas::spanish::tablebase::generate(&dir, 3, 1, &|_| {}).unwrap();
    dir
}

#[test]
fn tablebase_path_option_probes_and_reports_tbhits() {
    let dir = three_piece_tables("option");
    let mut engine = Engine::start();
    engine.send("ugi");
    let lines = engine.read_until(|l| l == "ugiok");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name TablebasePath type string default <empty>"),
        "{lines:?}"
    );
    let too_long = format!("setoption name TablebasePath value /{}", "x".repeat(2000));
    let empty_dir = dir.join("empty");
    std::fs::create_dir_all(&empty_dir).unwrap();
    let empty = format!("setoption name TablebasePath value {}", empty_dir.display());
    for bad in [
        "setoption name TablebasePath value /nonexistent/damas-tables",
        too_long.as_str(),
        empty.as_str(),
    ] {
        let refused = engine.ask(bad);
        assert!(refused.starts_with("info string error "), "{refused}");
    }
    engine.send("position fen W:WK14:B23");
    engine.send("d");
    let shown = engine.read_until(|l| l.starts_with("result"));
    assert!(
        !shown.iter().any(|l| l.starts_with("tablebase")),
        "{shown:?}"
    );
    engine.assert_ready();

    engine.send(&format!(
        "setoption name TablebasePath value {}",
        dir.display()
    ));
    engine.assert_ready();
    engine.send("d");
    engine.read_until(|l| l.starts_with("result"));
    assert_eq!(
        engine.next_line(),
        "tablebase win distance 1 counter 0 result win"
    );
    engine.send("go depth 4");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.contains(" tbhits ")), "{lines:?}");
    let best = lines.last().unwrap();
    assert!(
        best == "bestmove 14x28" || best == "bestmove 14x32",
        "{best}"
    );
    // Three pieces and a fourth: searched, with probes in the tree.
    engine.send("position fen W:WK14,K1:B23,K30");
    engine.send("go depth 3");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    let hits: Vec<u64> = lines
        .iter()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            words.position(|w| w == "tbhits")?;
            words.next()?.parse().ok()
        })
        .collect();
    assert!(hits.last().is_some_and(|&n| n > 0), "{lines:?}");
    engine.send("setoption name TablebasePath value <empty>");
    engine.assert_ready();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tablebase_subcommand_generates_probes_and_verifies() {
    let dir = std::env::temp_dir().join(format!("damas-tb-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let damas = env!("CARGO_BIN_EXE_damas");
    let run = |args: &[&str]| {
        let out = Command::new(damas).args(args).output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let d = dir.to_str().unwrap();
    let (ok, text) = run(&[
        "tablebase",
        "generate",
        "--pieces",
        "3",
        "--dir",
        d,
        "--quiet",
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("total 16 slices"), "{text}");
    let (ok, text) = run(&["tablebase", "probe", "--dir", d, "--fen", "B:WK1:BK32"]);
    assert!(ok, "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "value loss (loss at counter 0) distance 2");
    assert!(lines[1..]
        .iter()
        .all(|l| l.starts_with("move 32-") && l.contains(" loss ")));
    let (ok, text) = run(&["tablebase", "verify", "--dir", d]);
    assert!(ok, "{text}");
    assert!(text.contains("verified 16 slices"), "{text}");
    assert!(text.contains(" 0 errors"), "{text}");
    // The files are format version 3, equal to version 1's; a rerun keeps
    // them, and `--format 1` writes version 1.
    let version = |dir: &std::path::Path| std::fs::read(dir.join("2k0m-1k0m.dtb")).unwrap()[8];
    assert_eq!(version(&dir), 3);
    let (ok, text) = run(&[
        "tablebase",
        "generate",
        "--pieces",
        "3",
        "--dir",
        d,
        "--quiet",
    ]);
    assert!(ok && text.contains("kept"), "{text}");
    let v1 = dir.join("v1");
    let v = v1.to_str().unwrap();
    let (ok, text) = run(&[
        "tablebase",
        "generate",
        "--pieces",
        "3",
        "--dir",
        v,
        "--quiet",
        "--format",
        "1",
    ]);
    assert!(ok, "{text}");
    assert_eq!(version(&v1), 1);
    let (ok, text) = run(&["tablebase", "compare", d, v]);
    assert!(ok, "{text}");
    assert!(
        text.starts_with("compared 16 slices, 404560 positions, 0 differences"),
        "{text}"
    );
    // One slice as a cluster job, into the version 1 directory.
    std::fs::remove_file(v1.join("2k0m-1k0m.dtb")).unwrap();
    let (ok, text) = run(&[
        "tablebase",
        "generate",
        "--slice",
        "2k0m-1k0m",
        "--dir",
        v,
        "--quiet",
    ]);
    assert!(ok, "{text}");
    assert_eq!(version(&v1), 3);
    let (ok, text) = run(&["tablebase", "compare", d, v]);
    assert!(ok, "{text}");
    assert!(text.contains(" 0 differences"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tablebase_subcommand_compresses_and_compares() {
    let dir = three_piece_tables("cli-compress");
    let packed = dir.join("v2");
    let two = dir.join("two");
    std::fs::create_dir_all(&two).unwrap();
    for name in ["1k0m-1k0m", "0k1m-1k0m", "1k0m-0k1m", "0k1m-0k1m"] {
        std::fs::copy(
            dir.join(format!("{name}.dtb")),
            two.join(format!("{name}.dtb")),
        )
        .unwrap();
    }
    let damas = env!("CARGO_BIN_EXE_damas");
    let run = |args: &[&str]| {
        let out = Command::new(damas).args(args).output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (d, p, t) = (
        dir.to_str().unwrap(),
        packed.to_str().unwrap(),
        two.to_str().unwrap(),
    );
    let (ok, text) = run(&["tablebase", "compress", "--dir", d, "--out", p]);
    assert!(ok, "{text}");
    assert!(
        text.starts_with("compressed 16 slices, 404560 positions: 506212 bytes to "),
        "{text}"
    );
    let (ok, text) = run(&["tablebase", "compare", d, p]);
    assert!(ok, "{text}");
    assert_eq!(
        text,
        "compared 16 slices, 404560 positions, 0 differences\n"
    );
    let (ok, text) = run(&["tablebase", "compare", p, t]);
    assert!(ok, "{text}");
    assert!(
        text.starts_with("compared 4 slices, 7024 positions, 0 differences\n"),
        "{text}"
    );
    assert!(text.contains("slice 2k0m-1k0m: only in A\n"), "{text}");
    let (ok, text) = run(&["tablebase", "verify", "--dir", p]);
    assert!(ok, "{text}");
    assert!(text.contains("verified 16 slices"), "{text}");
    let (ok, text) = run(&["tablebase", "probe", "--dir", p, "--fen", "B:WK1:BK32"]);
    assert!(ok, "{text}");
    assert!(
        text.starts_with("value loss (loss at counter 0) distance 2\n"),
        "{text}"
    );
    let (ok, text) = run(&["tablebase", "time-probes", "--dir", p, "--probes", "100"]);
    assert!(ok, "{text}");
    assert!(text.contains("12 slices of 3 pieces read in"), "{text}");
    let (ok, _) = run(&[
        "tablebase",
        "compress",
        "--dir",
        d,
        "--out",
        p,
        "--block-positions",
        "100",
    ]);
    assert!(!ok);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tablebase_subcommand_refuses_bad_input_with_a_message() {
    let dir = three_piece_tables("cli-bad");
    let d = dir.to_str().unwrap();
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let a_file = dir.join("1k0m-1k0m.dtb");
    let (e, f) = (empty.to_str().unwrap(), a_file.to_str().unwrap());
    // (arguments, exit status, start of the first stderr line): 1 with a
    // `damas:` line for refused values, 2 for what clap refuses.
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["probe", "--dir", d, "--fen", "W:W1-12:B21-32"],
            1,
            "damas: not in the tables (they cover up to 3 pieces)",
        ),
        (&["probe", "--dir", d, "--fen", "junk"], 1, "damas: bad FEN"),
        (
            &["probe", "--dir", d, "--fen", "W:W29:BK1"],
            1,
            "damas: bad FEN: white man on square 29",
        ),
        (
            &[
                "probe",
                "--dir",
                "/nonexistent/damas-tb",
                "--fen",
                "W:WK1:BK32",
            ],
            1,
            "damas: no tablebase directory /nonexistent/damas-tb",
        ),
        (
            &["probe", "--dir", e, "--fen", "W:WK1:BK32"],
            1,
            "damas: no complete set of tables in",
        ),
        (
            &[
                "probe",
                "--dir",
                d,
                "--fen",
                "W:WK1:BK32",
                "--counter",
                "81",
            ],
            2,
            "error: invalid value '81'",
        ),
        (&["verify", "--dir", e], 1, "damas: no slice files found"),
        (
            &["verify", "--dir", "/nonexistent/damas-tb"],
            1,
            "damas: no tablebase directory",
        ),
        (
            &["generate", "--pieces", "9", "--dir", d],
            2,
            "error: invalid value '9'",
        ),
        (
            &["generate", "--pieces", "3", "--threads", "65", "--dir", d],
            2,
            "error: invalid value '65'",
        ),
        (
            &["generate", "--slice", "0k0m-1k0m", "--dir", d],
            2,
            "error: invalid value '0k0m-1k0m'",
        ),
        (
            &["generate", "--slice", "7k0m-1k0m", "--dir", d],
            1,
            "damas: at most 6 pieces are supported, not 8",
        ),
        (
            &["generate", "--slice", "2k1m-1k1m", "--dir", e, "--quiet"],
            1,
            "damas: slice 2k1m-1k0m is needed but missing",
        ),
        (
            &["generate", "--pieces", "2", "--dir", f, "--quiet"],
            1,
            "damas: ",
        ),
        (&["slices", "--pieces", "9"], 2, "error: invalid value '9'"),
    ];
    for (args, status, message) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_damas"))
            .arg("tablebase")
            .args(*args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(*status), "{args:?}: {stderr}");
        assert!(
            stderr.lines().next().unwrap_or("").starts_with(message),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The protocol's note of a damaged slice.
fn damage_note(slice: &str, why: &str) -> String {
    format!("info string tablebase slice {slice} is damaged ({why}); its positions are searched instead")
}

#[test]
fn a_damaged_slice_is_named_and_never_decides_a_move() {
    let dir = three_piece_tables("damaged");
    // Only the checksum tells: every win and loss swapped.
    invert_values(&dir.join("2k0m-0k1m.dtb"));
    // The header tells: one byte short.
    let short = dir.join("1k1m-1k0m.dtb");
    let bytes = std::fs::read(&short).unwrap();
    std::fs::write(&short, &bytes[..bytes.len() - 1]).unwrap();
    let mut engine = Engine::start();
    let mut seen = Vec::new();
    engine.send(&format!(
        "setoption name TablebasePath value {}",
        dir.display()
    ));
    engine.send("isready");
    let lines = engine.read_until(|l| l == "readyok");
    assert_eq!(
        lines,
        [
            damage_note("1k1m-1k0m", "truncated or too long"),
            "readyok".into()
        ]
    );
    seen.extend(lines);
    // Black to move: 10-6 draws, 10-5 loses; the damaged entries call
    // 10-5 a win. A fresh process on the clock, and one that waits.
    engine.send("position fen B:WK29,K19:B10");
    for go in ["go movetime 200", "go wtime 2000 btime 2000", "go depth 4"] {
        engine.send(go);
        let lines = engine.read_until(|l| l.starts_with("bestmove"));
        assert_eq!(lines.last().unwrap(), "bestmove 10-6", "{go}: {lines:?}");
        for line in &lines {
            let mut words = line.split_whitespace();
            if words.any(|w| w == "cp") {
                let cp: i32 = words.next().unwrap().parse().unwrap();
                assert!(cp.abs() < 10_000, "{go}: a table score: {line}");
            }
        }
        seen.extend(lines);
    }
    engine.send("d");
    let shown = engine.read_until(|l| l.starts_with("tablebase "));
    assert_eq!(
        shown.last().unwrap(),
        "tablebase damaged slice 2k0m-0k1m (checksum mismatch)"
    );
    seen.extend(shown);
    engine.send("isready");
    seen.extend(engine.read_until(|l| l == "readyok"));
    // Each damaged slice told once, the checksum's once read.
    for (slice, why) in [
        ("1k1m-1k0m", "truncated or too long"),
        ("2k0m-0k1m", "checksum mismatch"),
    ] {
        let note = damage_note(slice, why);
        assert_eq!(seen.iter().filter(|l| **l == note).count(), 1, "{seen:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tablebase_probe_names_a_damaged_slice() {
    let dir = three_piece_tables("cli-damaged");
    invert_values(&dir.join("2k0m-0k1m.dtb"));
    let d = dir.to_str().unwrap();
    let probe = |fen: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_damas"))
            .args(["tablebase", "probe", "--dir", d, "--fen", fen])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    assert_eq!(
        probe("B:WK29,K19:B10"),
        (
            Some(1),
            "damas: slice 2k0m-0k1m is damaged (checksum mismatch)\n".into()
        )
    );
    // The white man promotes into the damaged slice.
    let (status, stderr) = probe("W:W26,K8:B5");
    assert_eq!(
        (status, stderr.as_str()),
        (
            Some(1),
            "damas: a successor has no value: slice 2k0m-0k1m is damaged (checksum mismatch)\n"
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `damas tablebase verify --dir DIR`, killed (and the test failed) if it
/// takes a minute: exit status, stdout, stderr.
#[cfg(unix)]
fn verify_bounded(dir: &std::path::Path) -> (Option<i32>, String, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["tablebase", "verify", "--dir"])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = bounded::wait_bounded(child, Duration::from_secs(60));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[cfg(unix)]
fn mkfifo(path: &std::path::Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

#[cfg(unix)]
#[test]
fn tablebase_verify_skips_files_that_are_not_regular() {
    let dir = three_piece_tables("verify-odd");
    // No slice of up to three pieces needs these.
    mkfifo(&dir.join("x.dtb"));
    std::fs::create_dir(dir.join("2k2m-0k0m.dtb")).unwrap();
    mkfifo(&dir.join("1k1m-1k1m.dtb"));
    std::fs::create_dir(dir.join("1k2m-1k0m.dtb")).unwrap();
    std::os::unix::fs::symlink("/dev/null", dir.join("2k1m-1k0m.dtb")).unwrap();
    let (status, stdout, stderr) = verify_bounded(&dir);
    assert_eq!(status, Some(0), "{stdout}{stderr}");
    assert!(stdout.starts_with("verified 16 slices, "), "{stdout}");
    let skipped: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("skipped "))
        .collect();
    assert_eq!(
        skipped,
        [
            "skipped 2k2m-0k0m.dtb: not the name of a slice",
            "skipped x.dtb: not the name of a slice",
            "skipped 2k1m-1k0m.dtb: not a regular file (a device)",
            "skipped 1k1m-1k1m.dtb: not a regular file (a FIFO)",
            "skipped 1k2m-1k0m.dtb: not a regular file (a directory)",
        ]
    );
    // A FIFO where a slice needs its neighbour: an error, not a wait.
    let needed = dir.join("1k0m-2k0m.dtb");
    std::fs::remove_file(&needed).unwrap();
    mkfifo(&needed);
    let (status, _, stderr) = verify_bounded(&dir);
    assert_eq!(status, Some(1), "{stderr}");
    assert!(
        stderr.contains("skipped 1k0m-2k0m.dtb: not a regular file (a FIFO)\n"),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("1k0m-2k0m.dtb: not a regular file (a FIFO)\n")
            && stderr.lines().last().unwrap().starts_with("damas: "),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_variants_tables_serve_its_games_only() {
    let dir = std::env::temp_dir().join(format!("damas-tb-proto-russian-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = damas::spanish::tablebase::GenerateOptions {
        threads: 1,
        variant: damas::spanish::Variant::Russian,
        ..Default::default()
    };
    damas::spanish::tablebase::generate_with(&dir, 3, &options, &|_| {}).unwrap();
    let mut engine = Engine::start();
    engine.send("ugi");
    engine.read_until(|l| l == "ugiok");
    engine.send(&format!(
        "setoption name TablebasePath value {}",
        dir.display()
    ));
    engine.assert_ready();
    // A Spanish game: the Russian tables say nothing and are not probed.
    engine.send("position fen W:W23:BK21,K27");
    engine.send("d");
    engine.read_until(|l| l.starts_with("result"));
    engine.send("go depth 3");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert!(
        !lines.iter().any(|l| l.starts_with("tablebase")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains(" tbhits ")), "{lines:?}");
    // The same position in Russian draughts (its squares written as
    // Russian players write them): the man crowned on the way takes both
    // kings, as the tables know.
    engine.send("setoption name Variant value russian");
    engine.send("position fen W:Wf6:BKb6,Ke7");
    engine.send("d");
    engine.read_until(|l| l.starts_with("result"));
    assert_eq!(
        engine.next_line(),
        "tablebase win distance 1 counter 0 result win"
    );
    engine.send("go depth 3");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.contains(" tbhits ")), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "bestmove f6:d8:a5");
    engine.assert_ready();
    std::fs::remove_dir_all(&dir).unwrap();
}
