//! The `TablebasePath` option against the real `damas` binary: a bad path
//! is refused and changes nothing, `d` shows a position's table value, a
//! search from a table position answers from the tables and reports
//! `tbhits`; and `damas tablebase` on the command line.

#[path = "support/engine_process.rs"]
mod engine_process;

use std::path::PathBuf;
use std::process::Command;

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
    for bad in [
        "setoption name TablebasePath value /nonexistent/damas-tables",
        too_long.as_str(),
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
    let (ok, _) = run(&["tablebase", "probe", "--dir", d, "--fen", "W:W1-12:B21-32"]);
    assert!(!ok);
    let (ok, _) = run(&["tablebase", "probe", "--dir", d, "--fen", "junk"]);
    assert!(!ok);
    let (ok, _) = run(&["tablebase", "generate", "--pieces", "9", "--dir", d]);
    assert!(!ok);
    std::fs::remove_dir_all(&dir).unwrap();
}
