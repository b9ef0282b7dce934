//! What the page draws, as JSON: the board's points and pieces, who is to
//! move, the move list, the clock, the result and ranking, the analysis.
//! Also the move details for "show legal moves" and the game record.

use std::time::Instant;

use damas::chinese::{self, Cell, PlayerState};
use damas::record::{pdn_game, pdn_result, ChineseRecord};
use damas::spanish::{self, PieceKind, Square};
use damas::{AnyGame, AnyMove, Game, GameKind, Player};
use serde_json::{json, Value};

use super::session::{SeatKind, Session};
use super::store::lock;

/// The whole state of a session.
pub fn state(session: &Session, now: Instant) -> Value {
    let game = &session.game;
    let seats: Vec<Value> = session
        .seats
        .iter()
        .map(|s| {
            json!({
                "kind": if s.kind == SeatKind::Human { "human" } else { "engine" },
                "level": s.level,
                "think_ms": s.think_ms,
            })
        })
        .collect();
    let settings = &session.settings;
    let analysis = lock(&session.analysis).clone();
    json!({
        "id": format!("{:016x}", session.id),
        "version": session.version,
        "game": settings.kind.name(),
        "players": game.player_count(),
        "settings": {
            "anti_blocking": settings.anti_blocking,
            "play_to_end": settings.play_to_end,
            "rotate_first": settings.rotate_first,
            "turn_seconds": settings.turn_seconds,
        },
        "warning": settings.spec().rules_warning(),
        "seats": seats,
        "game_number": session.game_number,
        "to_move": game.to_move().map(Player::index),
        "thinking": session.thinking(),
        "turn_left_ms": session.turn_left(now),
        "board": board(game),
        "movable": movable(game),
        "last": last_move(game),
        "moves": played(game),
        "places": game.places(),
        "status": statuses(game),
        "result": result(game),
        "analysis": analysis,
        "notice": session.notice,
        "position": game.position_text(),
        "can_undo": session.turns() > 0,
    })
}

/// Every point of the board with its piece: Spanish squares by file and
/// rank from White's bottom left, star cells by their hex coordinates.
fn board(game: &AnyGame) -> Value {
    match game {
        AnyGame::Spanish(g) => {
            let pos = g.position();
            let points: Vec<Value> = Square::all()
                .map(|sq| {
                    let piece = pos.piece_at(sq).map(|p| {
                        json!({
                            "player": usize::from(p.color != spanish::Color::White),
                            "king": p.kind == PieceKind::King,
                        })
                    });
                    json!({
                        "name": sq.to_string(),
                        "x": sq.file(),
                        "y": sq.rank(),
                        "piece": piece,
                    })
                })
                .collect();
            json!({ "shape": "squares", "points": points })
        }
        AnyGame::Chinese(g) => {
            let pos = g.position();
            let seats = g.rules().seats();
            let points: Vec<Value> = Cell::all()
                .map(|cell| {
                    let piece = pos
                        .piece_at(cell)
                        .map(|(player, king)| json!({ "player": player, "king": king }));
                    let home = seats.iter().position(|t| t.cells().contains(cell));
                    let goal = seats
                        .iter()
                        .position(|t| t.opposite().cells().contains(cell));
                    json!({
                        "name": cell.to_string(),
                        "x": cell.x(),
                        "y": cell.y(),
                        "piece": piece,
                        "home": home,
                        "goal": goal,
                    })
                })
                .collect();
            json!({ "shape": "star", "points": points })
        }
    }
}

/// The points holding a piece that may move now (only those are
/// selectable: in draughts a capture is mandatory).
fn movable(game: &AnyGame) -> Vec<String> {
    let mut from: Vec<String> = Vec::new();
    for mv in game.legal_moves() {
        let name = match mv {
            AnyMove::Spanish(m) => m.from().to_string(),
            AnyMove::Chinese(m) => m.from().to_string(),
        };
        if !from.contains(&name) {
            from.push(name);
        }
    }
    from
}

/// One legal move as the board marks it.
pub fn move_detail(game: &AnyGame, mv: &AnyMove) -> Value {
    let text = game.move_text(mv);
    match (game, mv) {
        (AnyGame::Spanish(g), AnyMove::Spanish(m)) => {
            let captured: Vec<String> = m.captured().iter().map(|s| s.to_string()).collect();
            json!({
                "text": text,
                "from": m.from().to_string(),
                "to": m.to().to_string(),
                "path": [m.from().to_string(), m.to().to_string()],
                "captured": captured,
                "kind": if m.is_capture() { "capture" } else { "step" },
                "promotes": g.position().is_promotion(m),
            })
        }
        (_, AnyMove::Chinese(m)) => {
            let path: Vec<&str> = text.split('-').collect();
            let step = path.len() == 2 && m.from().hex_distance(m.to()) == 1;
            json!({
                "text": text,
                "from": m.from().to_string(),
                "to": m.to().to_string(),
                "path": path,
                "captured": [],
                "kind": if step { "step" } else { "jump" },
                "promotes": false,
            })
        }
        _ => json!({ "text": text }),
    }
}

/// The last turn's path and captures, for the highlight.
fn last_move(game: &AnyGame) -> Option<Value> {
    match game {
        AnyGame::Spanish(g) => g.moves().last().map(|m| {
            let captured: Vec<String> = m.captured().iter().map(|s| s.to_string()).collect();
            json!({ "path": [m.from().to_string(), m.to().to_string()], "captured": captured })
        }),
        AnyGame::Chinese(g) => g.history().iter().rev().find_map(|turn| match turn {
            chinese::Turn::Move { path, .. } => {
                let path: Vec<String> = path.iter().map(Cell::to_string).collect();
                Some(json!({ "path": path, "captured": [] }))
            }
            _ => None,
        }),
    }
}

/// Every turn played, in the project's notation, with the player.
pub fn turns(game: &AnyGame) -> Vec<(usize, String)> {
    match game {
        AnyGame::Spanish(g) => {
            let mut replay = spanish::Draughts::new(*g.start_position());
            let mut out = Vec::with_capacity(g.moves().len());
            for &mv in g.moves() {
                let player = Game::to_move(&replay).map_or(0, Player::index);
                out.push((player, Game::move_text(&replay, &mv)));
                if Game::play(&mut replay, mv).is_err() {
                    break;
                }
            }
            out
        }
        AnyGame::Chinese(g) => g
            .history()
            .iter()
            .map(|turn| match turn {
                chinese::Turn::Move { player, path, .. } => (*player, chinese::format_path(path)),
                chinese::Turn::Pass { player } => (*player, "pass".into()),
                chinese::Turn::Resign { player } => (*player, "resign".into()),
            })
            .collect(),
    }
}

fn played(game: &AnyGame) -> Vec<Value> {
    turns(game)
        .into_iter()
        .map(|(player, text)| json!({ "player": player, "text": text }))
        .collect()
}

/// What each player's standing is, in words.
fn statuses(game: &AnyGame) -> Vec<String> {
    let places = game.places();
    match game {
        AnyGame::Chinese(g) => g
            .player_states()
            .iter()
            .map(|state| match state {
                PlayerState::Playing => "playing".to_string(),
                PlayerState::Finished { place } => format!("finished, place {place}"),
                PlayerState::Resigned { place } => format!("resigned, place {place}"),
                PlayerState::Placed { place } => match game.outcome() {
                    Some(outcome) => format!("place {place} ({})", outcome.reason),
                    None => format!("place {place}"),
                },
            })
            .collect(),
        AnyGame::Spanish(_) => {
            let draw = game.outcome().is_some_and(|o| o.is_draw());
            places
                .iter()
                .map(|p| match p {
                    None => "playing",
                    Some(_) if draw => "draw",
                    Some(1) => "won",
                    Some(_) => "lost",
                })
                .map(String::from)
                .collect()
        }
    }
}

fn result(game: &AnyGame) -> Option<Value> {
    let outcome = game.outcome()?;
    let mut ranking: Vec<(u8, usize)> = outcome
        .places
        .iter()
        .enumerate()
        .map(|(player, &place)| (place, player))
        .collect();
    ranking.sort_unstable();
    let ranking: Vec<Value> = ranking
        .into_iter()
        .map(|(place, player)| json!({ "player": player, "place": place }))
        .collect();
    Some(json!({
        "reason": outcome.reason.to_string(),
        "winner": outcome.winner().map(Player::index),
        "draw": outcome.is_draw(),
        "places": outcome.places,
        "ranking": ranking,
    }))
}

/// The game record: PDN for Spanish draughts, the one-line record for
/// Chinese checkers (docs/NOTATION.md).
pub fn record(session: &Session) -> String {
    let game = &session.game;
    let moves: Vec<String> = turns(game).into_iter().map(|(_, text)| text).collect();
    let places: Vec<u32> = game
        .outcome()
        .map(|o| o.places.iter().map(|&p| u32::from(p)).collect())
        .unwrap_or_default();
    let ending = game
        .outcome()
        .map(|o| o.reason.to_string())
        .unwrap_or_default();
    let seats: Vec<String> = session.seats.iter().map(|s| s.describe()).collect();
    if session.settings.kind == GameKind::Spanish {
        let result = pdn_result(&places);
        let round = (session.game_number + 1).to_string();
        let mut tags: Vec<(&str, &str)> = vec![
            ("Event", "damas serve"),
            ("Round", &round),
            ("White", &seats[0]),
            ("Black", &seats[1]),
            ("Result", result),
            ("GameType", "24"),
        ];
        if let Some(fen) = &session.start {
            tags.push(("FEN", fen));
        }
        if !ending.is_empty() {
            tags.push(("Termination", &ending));
        }
        let black_starts = session
            .start
            .as_deref()
            .is_some_and(|fen| fen.trim_start().starts_with('B'));
        pdn_game(&tags, black_starts, &moves, result)
    } else {
        let record = ChineseRecord {
            game: session.game_number as usize + 1,
            kind: game.kind(),
            seats,
            start: session.start.clone(),
            moves,
            places,
            ending,
        };
        record.line() + "\n"
    }
}
