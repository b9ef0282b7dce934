//! The pieces of the engine's reply lines that every adapter shares: error
//! and `info string` lines, `info` and `bestmove` lines, and the values of
//! `query` and `d`. Which line answers which event is the adapters' choice
//! ([`crate::ugi`], [`crate::ccp`]).

use damas::search::{Score, SearchInfo};
use damas::Game;

/// Engine name sent in `id name`.
pub const ENGINE_NAME: &str = concat!("Damas ", env!("CARGO_PKG_VERSION"));
/// Author line sent in `id author`.
pub const ENGINE_AUTHOR: &str = "the Damas developers";

/// Most bytes (give or take one escape) of the text of an `info string` line: error messages
/// quote the input, which may be up to a megabyte long.
pub const MAX_INFO_TEXT: usize = 400;

/// `info string error <what>`: the one reply to any bad input.
pub fn error(what: impl std::fmt::Display) -> String {
    format!("info string error {}", printable(&what.to_string()))
}

/// `info string <text>`.
pub fn info_string(text: impl std::fmt::Display) -> String {
    format!("info string {}", printable(&text.to_string()))
}

/// The text with control characters (NUL, CR, escape...) written as
/// escapes, so that echoed input can never break or forge a reply line,
/// cut after [`MAX_INFO_TEXT`] bytes.
fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_INFO_TEXT + 16));
    for c in text.chars() {
        // Counted in bytes of output: an escape is up to 10 bytes.
        if out.len() >= MAX_INFO_TEXT {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// The score part of an `info` line, as UCI writes it: `cp N` in
/// hundredths of a man (or of a step, in Chinese checkers), or `mate N`
/// when the search sees the end: N full moves of the engine (its own move
/// counts) to a win, negative to a loss.
pub fn score(score: Score) -> String {
    let moves = |plies: u32| (plies.div_ceil(2)).max(1);
    match score {
        Score::Centi(cp) => format!("cp {cp}"),
        Score::Win(plies) => format!("mate {}", moves(plies)),
        Score::Loss(plies) => format!("mate -{}", moves(plies)),
    }
}

/// `info depth D seldepth S score ... nodes N nps N time T [hashfull H] [tbhits N] pv ...`.
/// `pv` is the principal variation already in move text
/// ([`Game::line_text`] of `info.pv`).
pub fn search_info<M>(info: &SearchInfo<M>, pv: &[String]) -> String {
    let mut line = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {}",
        info.depth,
        info.seldepth,
        score(info.score),
        info.nodes,
        info.nps(),
        info.time.as_millis()
    );
    if let Some(hashfull) = info.hashfull {
        line.push_str(&format!(" hashfull {hashfull}"));
    }
    if let Some(tbhits) = info.tbhits {
        line.push_str(&format!(" tbhits {tbhits}"));
    }
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    line
}

/// `bestmove <move>`: always exactly two tokens; `(none)` when there is
/// nothing to play.
pub fn bestmove(mv: Option<&str>) -> String {
    format!("bestmove {}", mv.unwrap_or("(none)"))
}

/// `p1win`, `p2win`, …, `draw`, or `none` while the game goes on.
pub fn result(game: &impl Game) -> String {
    match game.outcome() {
        None => "none".into(),
        Some(outcome) => match outcome.winner() {
            Some(winner) => format!("{winner}win"),
            None => "draw".into(),
        },
    }
}

/// Places decided so far, best first, as `place:player` (`1:p2 2:p1`;
/// ties share a place, `1:p1 1:p2`); `none` when no place is decided.
pub fn ranking(game: &impl Game) -> String {
    let mut ranked: Vec<(u8, usize)> = game
        .places()
        .iter()
        .enumerate()
        .filter_map(|(player, place)| place.map(|place| (place, player)))
        .collect();
    if ranked.is_empty() {
        return "none".into();
    }
    ranked.sort_unstable();
    ranked
        .iter()
        .map(|(place, player)| format!("{place}:p{}", player + 1))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `p1` … `p6` for the player to move, `none` when the game is over.
pub fn turn(game: &impl Game) -> String {
    game.to_move()
        .map_or_else(|| "none".to_string(), |player| player.to_string())
}

/// What `d` shows: diagram, position text, hash, player to move and the
/// result so far.
pub fn display(game: &impl Game) -> String {
    format!(
        "{}\nposition {}\nhash {:016x}\nturn {}\nresult {} (ranking {})",
        game.diagram(),
        game.position_text(),
        game.hash(),
        turn(game),
        result(game),
        ranking(game)
    )
}

/// `response <value>` for `query`.
pub fn response(value: impl std::fmt::Display) -> String {
    format!("response {value}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn info_line_has_every_field() {
        let info = SearchInfo {
            depth: 7,
            seldepth: 11,
            score: Score::Win(9),
            nodes: 5000,
            time: Duration::from_millis(250),
            hashfull: Some(12),
            tbhits: None,
            pv: vec!["11-15".into(), "22-18".into()],
        };
        assert_eq!(
            search_info(&info, &info.pv),
            "info depth 7 seldepth 11 score mate 5 nodes 5000 nps 20000 time 250 hashfull 12 pv 11-15 22-18"
        );
        assert_eq!(score(Score::Centi(-35)), "cp -35");
        assert_eq!(score(Score::Win(1)), "mate 1");
        assert_eq!(score(Score::Win(4)), "mate 2");
        assert_eq!(score(Score::Loss(2)), "mate -1");
        assert_eq!(score(Score::Loss(5)), "mate -3");
        assert_eq!(score(Score::Loss(0)), "mate -1");
    }

    #[test]
    fn info_strings_escape_control_characters_and_stay_short() {
        assert_eq!(
            error("unknown command '\0\r\x1b'"),
            "info string error unknown command '\\u{0}\\r\\u{1b}'"
        );
        assert_eq!(info_string("a\nb"), "info string a\\nb");
        let long = error("y".repeat(1 << 20));
        assert!(long.len() < MAX_INFO_TEXT + 40, "{} bytes", long.len());
        assert!(long.ends_with("y..."));
        let nuls = error("\0".repeat(5000));
        assert!(nuls.len() < MAX_INFO_TEXT + 40, "{} bytes", nuls.len());
    }

    #[test]
    fn bestmove_is_two_tokens() {
        assert_eq!(bestmove(Some("11-15")), "bestmove 11-15");
        assert_eq!(bestmove(None), "bestmove (none)");
        assert_eq!(bestmove(None).split_whitespace().count(), 2);
    }
}
