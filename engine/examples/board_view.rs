//! A front end's view of any game through the interface alone: the game is
//! picked by name from the registry, its board listed point by point with
//! the pieces, and every legal move taken apart (path, captures,
//! promotion). No `spanish::` or `chinese::` type is named.
//!
//! ```text
//! cargo run --release -p damas --example board_view -- spanish "W:WK1:B14,26,27"
//! cargo run --release -p damas --example board_view -- japanese
//! ```

use damas::options::Options;
use damas::{AnyGame, BoardShape, Game, GameKind, PieceKind};

fn main() {
    if let Err(err) = run() {
        eprintln!("board_view: {err}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let kind: GameKind = args.next().as_deref().unwrap_or("spanish").parse()?;
    let mut settings = Options::default();
    settings.set("Game", kind.name())?;
    let spec = settings.spec()?;
    let game = match args.next() {
        Some(text) => AnyGame::from_text(&spec, &text)?,
        None => AnyGame::new(&spec),
    };

    let board = game.board();
    let shape = match board.shape {
        BoardShape::Squares { width, height } => format!("{width}x{height} squares"),
        BoardShape::Star => "the star".to_string(),
    };
    println!("{}: {} points on {shape}", kind.title(), board.points.len());
    for (index, info) in board.points.iter().enumerate() {
        let Some(point) = damas::Point::new(index) else {
            continue;
        };
        if let Some(piece) = game.piece_at(point) {
            let kind = match piece.kind {
                PieceKind::Man => "man",
                PieceKind::King => "king",
            };
            let owner = game.player_name(piece.owner);
            println!(
                "  {:>4} ({:>2},{:>2}): {owner} {kind}",
                info.name, info.x, info.y
            );
        }
    }

    if let Some(player) = game.to_move() {
        println!("{} ({player}) to move:", game.player_name(player));
    }
    for mv in game.legal_moves() {
        let anatomy = game.anatomy(&mv);
        let path: Vec<String> = anatomy.path.iter().map(|&p| game.point_name(p)).collect();
        let taken: Vec<String> = anatomy
            .captured
            .iter()
            .map(|&p| game.point_name(p))
            .collect();
        println!(
            "  {:<12} {} via {}{}{}",
            game.move_text(&mv),
            anatomy.kind,
            path.join(" "),
            if taken.is_empty() {
                String::new()
            } else {
                format!(", takes {}", taken.join(" "))
            },
            if anatomy.promotes { ", promotes" } else { "" },
        );
    }
    Ok(())
}
