//! The checks behind the fuzz targets, as plain functions.
//!
//! Each `check_*` function takes arbitrary bytes and panics when an
//! invariant fails. The libFuzzer targets in `fuzz/fuzz_targets/` call them,
//! and so does the ordinary test `tests/fuzz_corpus.rs`, which includes this
//! file with `#[path]` and replays the seed corpus and every regression file
//! without libFuzzer. Only `damas` and `damas_protocol` are used here.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use damas::chinese::{Checkers as CGame, Rules, Turn, Variant};
use damas::spanish::{Draughts as SGame, Position as SPosition};
use damas::{AnyGame, Game};
use damas_protocol::command::{self, Command};
use damas_protocol::{Flow, Session};

/// Longest error line the engine may send (it truncates echoed input).
pub const MAX_ERROR_LINE: usize = 1024;
/// Most lines of one fuzz input fed to a session.
pub const MAX_PROTOCOL_LINES: usize = 64;
/// Most moves of a byte-driven playout.
pub const MAX_PLAYOUT: usize = 400;

/// Reads choices from the fuzz input, then zeros once it runs out.
pub struct Picker<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Picker<'a> {
    /// A picker over `data`.
    pub fn new(data: &'a [u8]) -> Picker<'a> {
        Picker { data, at: 0 }
    }

    /// The next byte, `None` at the end.
    pub fn byte(&mut self) -> Option<u8> {
        let b = self.data.get(self.at).copied();
        self.at += 1;
        b
    }

    /// An index below `n` (`n > 0`) from the next byte(s), `None` at the end.
    pub fn index(&mut self, n: usize) -> Option<usize> {
        let lo = self.byte()? as usize;
        let v = if n > 256 {
            lo | (self.byte().unwrap_or(0) as usize) << 8
        } else {
            lo
        };
        Some(v % n)
    }

    /// What is left of the input.
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.at.min(self.data.len())..]
    }
}

// ---------------------------------------------------------------- Spanish

/// Every check on one Spanish position: move generation does not panic,
/// each legal move's text parses back to it, the incremental hash matches
/// the recomputed one after each move, and the FEN round-trips.
pub fn check_spanish_position(pos: &SPosition) {
    assert_eq!(pos.hash(), pos.compute_hash(), "hash of {}", pos.to_fen());
    let fen = pos.to_fen();
    let back = SPosition::from_fen(&fen).unwrap_or_else(|e| panic!("{fen} does not parse: {e}"));
    assert_eq!(&back, pos, "FEN round trip of {fen}");
    assert_eq!(back.to_fen(), fen);
    let legal = pos.legal_moves();
    assert_eq!(
        legal.len() as u64,
        pos.count_legal_moves(),
        "counts differ in {fen}"
    );
    for (i, mv) in legal.iter().enumerate() {
        assert!(
            !legal[..i].contains(mv),
            "duplicate legal move {mv:?} in {fen}"
        );
        let text = pos.move_text(mv);
        assert_eq!(
            pos.parse_move(&text).as_ref(),
            Ok(mv),
            "'{text}' does not parse back in {fen}"
        );
        let long = damas::spanish::long_text(mv);
        assert_eq!(
            pos.parse_move(&long).as_ref(),
            Ok(mv),
            "long '{long}' in {fen}"
        );
        let next = pos.played_unchecked(mv);
        assert_eq!(
            next.hash(),
            next.compute_hash(),
            "hash after {text} in {fen}"
        );
        assert_ne!(next.to_move(), pos.to_move());
    }
}

/// Arbitrary text as a move of `pos`: an error, or a legal move.
pub fn check_spanish_move_text(pos: &SPosition, text: &str) {
    if let Ok(mv) = pos.parse_move(text) {
        assert!(
            pos.legal_moves().contains(&mv),
            "'{text}' parsed to the illegal {mv:?} in {}",
            pos.to_fen()
        );
    }
}

/// Plays moves picked by the bytes from the start position; checks the
/// hash at every step and that `undo` restores the position exactly.
pub fn spanish_playout(picker: &mut Picker<'_>, steps: usize, check_each: bool) -> SGame {
    let mut game = SGame::default();
    for _ in 0..steps {
        let moves = game.legal_moves();
        if moves.is_empty() || game.status().is_over() {
            break;
        }
        let Some(i) = picker.index(moves.len()) else {
            break;
        };
        let before = *game.position();
        let mv = moves[i];
        game.play(mv).expect("a legal move plays");
        let pos = game.position();
        assert_eq!(pos.hash(), pos.compute_hash(), "hash after {mv:?}");
        let mut incremental = before;
        incremental.play_unchecked(&mv);
        assert_eq!(&incremental, pos, "play and played disagree");
        if check_each {
            let mut undone = game.clone();
            assert!(undone.undo(), "undo after {mv:?}");
            assert_eq!(undone.moves(), &game.moves()[..game.moves().len() - 1]);
            assert_eq!(undone.position(), &before, "undo does not restore");
        }
    }
    game
}

/// Target `spanish_fen`: any text that parses prints and parses back equal.
pub fn check_spanish_fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(pos) = SPosition::from_fen(&text) {
        check_spanish_position(&pos);
    }
}

// ---------------------------------------------------------------- Chinese

/// The rules picked by one byte: players 1..=6, variant, and the options.
pub fn chinese_rules(byte: u8) -> Rules {
    Rules {
        players: byte % 6 + 1,
        variant: if byte & 0x08 != 0 {
            Variant::Japanese
        } else {
            Variant::International
        },
        anti_blocking: byte & 0x10 == 0,
        play_to_end: byte & 0x20 == 0,
        move_limit: if byte & 0x40 != 0 {
            Some(40)
        } else {
            Some(200)
        },
        no_progress_limit: if byte & 0x80 != 0 { Some(3) } else { Some(30) },
        goal_lock: byte & 0x18 == 0x18,
        // The CCERL rules ride on bits already used, so the corpus keeps
        // its meaning and reaches them too.
        no_move_loss: byte & 0x30 == 0x30,
        repetition_draw: byte & 0x50 == 0x50,
        equal_turns: byte & 0x21 == 0x21,
    }
}

/// A Chinese game reads back from its own text, equal.
pub fn check_chinese_text_round_trip(game: &CGame) {
    let text = game.to_string();
    let back = text
        .parse::<CGame>()
        .unwrap_or_else(|e| panic!("'{text}' does not parse: {e}"));
    assert_eq!(back.to_string(), text, "text round trip");
    assert_eq!(back.position(), game.position(), "position of '{text}'");
    assert_eq!(back.player_states(), game.player_states());
    assert_eq!(back.hash(), game.hash());
}

/// Every check on one Chinese game: the hash, the text round trip, and for
/// each legal move (at most `limit`) its text plays the same move.
pub fn check_chinese_game(game: &CGame, limit: usize) {
    let pos = game.position();
    assert_eq!(pos.hash(), pos.compute_hash(), "hash of {game}");
    check_chinese_text_round_trip(game);
    let legal = game.legal_moves();
    for mv in legal.iter().take(limit) {
        let text = game.move_text(mv);
        let mut by_move = game.clone();
        by_move.play(*mv).expect("a legal move plays");
        let p = by_move.position();
        assert_eq!(p.hash(), p.compute_hash(), "hash after {text}");
        let mut by_text = game.clone();
        assert_eq!(
            by_text.play_text(&text).ok(),
            Some(text.clone()),
            "'{text}' does not play back in {game}"
        );
        assert_eq!(by_text, by_move, "'{text}' played differently");
        let ends = format!("{}-{}", mv.from(), mv.to());
        let mut by_ends = game.clone();
        assert_eq!(
            by_ends.play_text(&ends).ok(),
            Some(text.clone()),
            "'{ends}'"
        );
        assert_eq!(by_ends.position(), by_move.position());
    }
}

/// Arbitrary text played in `game`: an error, a pass or resignation, or a
/// legal move that plays like [`CGame::play`].
pub fn check_chinese_move_text(game: &CGame, text: &str) {
    let mut played = game.clone();
    match played.play_text(text) {
        Err(_) => assert_eq!(&played, game, "a refused move changed the game"),
        Ok(_) => {
            // The turn played: a move, or else a pass or resignation.
            let Some(Turn::Move { mv, .. }) = played.history().get(game.history().len()) else {
                return;
            };
            let mv = *mv;
            assert!(
                game.legal_moves().contains(&mv),
                "'{text}' played the illegal {mv:?} in {game}"
            );
            let mut direct = game.clone();
            direct.play(mv).expect("legal");
            assert_eq!(played.position(), direct.position());
        }
    }
}

/// Plays turns picked by the bytes (rarely a resignation); checks the hash
/// at every step.
pub fn chinese_playout(rules: Rules, first: usize, picker: &mut Picker<'_>, steps: usize) -> CGame {
    let first = first % usize::from(rules.players);
    let mut game = CGame::with_first_player(rules, first);
    for _ in 0..steps {
        if game.is_over() {
            break;
        }
        let moves = game.legal_moves();
        let Some(choice) = picker.index(moves.len().max(1) + 1) else {
            break;
        };
        if choice == moves.len().max(1) {
            // One turn in 256-ish: the player to move resigns (or passes).
            if picker.byte().is_some_and(|b| b == 0xFF) {
                game.play_text("resign")
                    .expect("the player to move resigns");
            }
            continue;
        }
        if moves.is_empty() {
            game.play_text("pass")
                .expect("a player without moves passes");
        } else {
            game.play(moves[choice]).expect("a legal move plays");
        }
        let pos = game.position();
        assert_eq!(
            pos.hash(),
            pos.compute_hash(),
            "hash after turn {}",
            game.ply()
        );
    }
    game
}

/// Target `chinese_text`: arbitrary text that parses round-trips and plays;
/// positions of every variant and player count reached by bytes too.
pub fn check_chinese_text(data: &[u8]) {
    if let Some((&first, rest)) = data.split_first() {
        if first == b'#' {
            // Structured: rules byte, then a playout.
            let mut picker = Picker::new(rest);
            let rules = chinese_rules(picker.byte().unwrap_or(0));
            let start = picker.byte().unwrap_or(0) as usize;
            let game = chinese_playout(rules, start, &mut picker, 120);
            check_chinese_text_round_trip(&game);
            return;
        }
    }
    let text = String::from_utf8_lossy(data);
    if let Ok(game) = text.parse::<CGame>() {
        check_chinese_text_round_trip(&game);
        // A parsed position must also be playable without panics.
        let mut game = game;
        for _ in 0..4 {
            if game.is_over() {
                break;
            }
            let moves = game.legal_moves();
            match moves.first() {
                Some(&mv) => game.play(mv).expect("legal"),
                None => {
                    if game.play_text("pass").is_err() {
                        break;
                    }
                }
            }
            check_chinese_text_round_trip(&game);
        }
    }
}

// ---------------------------------------------------------------- moves

/// Target `moves`: a position reached by a byte-driven playout, every legal
/// move's text parses back, then the rest of the input as move text.
pub fn check_moves(data: &[u8]) {
    let mut picker = Picker::new(data);
    let Some(kind) = picker.byte() else { return };
    let steps = picker.byte().unwrap_or(0) as usize;
    // The move text is what follows a 0xFF byte; the playout bytes before it.
    let split = data[2.min(data.len())..]
        .iter()
        .position(|&b| b == 0xFF)
        .map(|i| i + 2);
    let (play_bytes, text) = match split {
        Some(at) => (&data[2.min(data.len())..at], &data[at + 1..]),
        None => (&data[2.min(data.len())..], &[][..]),
    };
    let text = String::from_utf8_lossy(text);
    let mut picker = Picker::new(play_bytes);
    if kind % 2 == 0 {
        let game = spanish_playout(&mut picker, steps, false);
        check_spanish_position(game.position());
        check_spanish_move_text(game.position(), &text);
    } else {
        let rules = chinese_rules(kind / 2);
        let game = chinese_playout(rules, (kind / 16) as usize, &mut picker, steps);
        check_chinese_game(&game, 200);
        check_chinese_move_text(&game, &text);
    }
}

// ---------------------------------------------------------------- playout

/// Target `playout`: bytes pick moves; the incremental hash equals the
/// recomputed one at every step (and `undo` restores, in Spanish).
pub fn check_playout(data: &[u8]) {
    let mut picker = Picker::new(data);
    let Some(kind) = picker.byte() else { return };
    if kind % 2 == 0 {
        spanish_playout(&mut picker, MAX_PLAYOUT, true);
    } else {
        let rules = chinese_rules(kind / 2);
        let game = chinese_playout(rules, (kind / 16) as usize, &mut picker, MAX_PLAYOUT);
        check_chinese_text_round_trip(&game);
    }
}

// ---------------------------------------------------------------- protocol

/// Whether a reply line is one the protocol defines.
fn valid_reply(line: &str) -> bool {
    let words: Vec<&str> = line.split(' ').collect();
    let number = |w: &str| w.parse::<u64>().is_ok();
    match words.as_slice() {
        ["ugiok" | "uciok" | "readyok"] => true,
        ["id", "name" | "author", _, ..] => true,
        ["option", "name", ..] => true,
        ["info", "string", ..] => true,
        ["info", "depth", ..] => true,
        ["bestmove", mv] => !mv.is_empty(),
        ["response", ..] => true,
        ["nodes", n] => number(n),
        [mv, n] => !mv.is_empty() && number(n), // divide rows
        _ => false,
    }
}

/// Makes a fuzz line affordable: skips deep perft and huge tables, which
/// work as asked but would slow the fuzzer to a crawl.
fn affordable(line: &str, session: &Session) -> bool {
    let spanish = session.game().kind() == damas::GameKind::Spanish;
    match command::parse(line) {
        Ok(Some(Command::Perft(d) | Command::Divide(d))) => d <= if spanish { 4 } else { 1 },
        Ok(Some(Command::SetOption { name, value })) => {
            let n = value.trim().parse::<u64>().unwrap_or(0);
            !((name.trim().eq_ignore_ascii_case("hash") && n > 64)
                || (name.trim().eq_ignore_ascii_case("threads") && n > 4))
        }
        _ => true,
    }
}

/// Target `protocol`: lines into a [`Session`]. No panic, no hang, every
/// output line valid, at most one error line per input line, exactly one
/// `bestmove` for every `go` line (legal in the position searched, or
/// `(none)` right after the error of a refused `go`), the search joined at
/// the end, and the game always printable and re-readable.
pub fn check_protocol(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let lines: Vec<&str> = text.split('\n').take(MAX_PROTOCOL_LINES).collect();
    run_protocol_lines(&lines);
}

/// The protocol checks over given lines; returns every output line.
pub fn run_protocol_lines(lines: &[&str]) -> Vec<String> {
    let output = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = Arc::clone(&output);
    let mut session = Session::new(Arc::new(move |line: &str| {
        sink.lock().expect("sink").push(line.to_string());
    }));
    let mut free_text = vec![false; 0];
    let mut expected: VecDeque<Vec<String>> = VecDeque::new();
    // The output index of each refused `go`'s own `bestmove (none)`.
    let mut refusals: Vec<usize> = Vec::new();
    let mut go_lines = 0;
    let count = |o: &Arc<Mutex<Vec<String>>>| o.lock().expect("sink").len();
    let mut started = false;
    for line in lines {
        if !affordable(line, &session) {
            continue;
        }
        // The session reads its first line without a byte-order mark.
        let read = if started {
            line
        } else {
            line.strip_prefix('\u{feff}').unwrap_or(line)
        };
        started = true;
        let parsed = command::parse(read);
        let is_go = read.split_whitespace().next() == Some("go");
        go_lines += usize::from(is_go);
        let free = matches!(parsed, Ok(Some(Command::Display | Command::Help)));
        let legal = if is_go {
            session.game().legal_moves_text()
        } else {
            Vec::new()
        };
        let before = count(&output);
        let flow = session.handle_line(line);
        let new: Vec<String> = output.lock().expect("sink")[before..].to_vec();
        free_text.resize(before + new.len(), free);
        let errors = new
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .count();
        assert!(errors <= 1, "{errors} error lines for {line:?}: {new:?}");
        if is_go && errors == 0 {
            expected.push_back(legal);
        } else if is_go {
            let error = new
                .iter()
                .position(|l| l.starts_with("info string error"))
                .unwrap_or(0);
            let null = new[error..]
                .iter()
                .position(|l| l == "bestmove (none)")
                .unwrap_or_else(|| panic!("a refused go without its null move: {new:?}"));
            refusals.push(before + error + null);
        }
        let game = session.game();
        let text = game.position_text();
        // Options in an impossible combination wait for the next option;
        // meanwhile the game is the last one they described.
        if let Ok(spec) = session.options().spec() {
            let back = AnyGame::from_text(&spec, &text)
                .unwrap_or_else(|e| panic!("the session's position '{text}' does not parse: {e}"));
            assert_eq!(back.position_text(), text);
        }
        if flow == Flow::Quit {
            break;
        }
    }
    session.shutdown();
    assert!(!session.is_searching(), "a search survived shutdown");
    drop(session);
    let lines = output.lock().expect("sink").clone();
    free_text.resize(lines.len(), false);
    for (line, free) in lines.iter().zip(&free_text) {
        assert!(
            !line.chars().any(|c| c.is_control()),
            "control character in reply {line:?}"
        );
        assert!(*free || valid_reply(line), "not a valid reply: {line:?}");
        if line.starts_with("info string error") {
            assert!(
                line.len() <= MAX_ERROR_LINE,
                "error line of {} bytes",
                line.len()
            );
        }
    }
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
        go_lines,
        "one bestmove per go: {lines:?}"
    );
    let bestmoves: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|(at, _)| !refusals.contains(at))
        .filter_map(|(_, l)| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(
        bestmoves.len(),
        expected.len(),
        "one bestmove per accepted go: {lines:?}"
    );
    for (mv, legal) in bestmoves.iter().zip(&expected) {
        if legal.is_empty() {
            assert_eq!(*mv, "(none)", "bestmove with no legal move");
        } else {
            assert!(
                legal.iter().any(|l| l == mv),
                "bestmove {mv} is not legal: {legal:?}"
            );
        }
    }
    lines
}

/// Runs the check of the target named `target` on `data`.
pub fn check(target: &str, data: &[u8]) {
    match target {
        "protocol" => check_protocol(data),
        "spanish_fen" => check_spanish_fen(data),
        "chinese_text" => check_chinese_text(data),
        "moves" => check_moves(data),
        "playout" => check_playout(data),
        other => panic!("no fuzz target named {other}"),
    }
}

/// The names of the fuzz targets.
pub const TARGETS: &[&str] = &[
    "protocol",
    "spanish_fen",
    "chinese_text",
    "moves",
    "playout",
];
