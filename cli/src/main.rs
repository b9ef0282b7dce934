//! The `damas` command-line engine.
//!
//! With no subcommand it speaks the engine protocol on stdin/stdout; the
//! subcommands are tools for people: perft, bench, play, solitaire, match,
//! tablebase, serve, and the evaluation's tuning pipeline: datagen, tune.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use output::{errln, Failure};

mod bench;
mod book;
mod datagen;
mod engine_loop;
mod lines;
mod matches;
mod output;
mod pdn;
mod perft;
mod play;
mod serve;
mod solitaire;
mod tablebase;
mod tune;

/// Spanish draughts and Chinese checkers engine.
#[derive(Parser, Debug)]
#[command(name = "damas", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Commands>,
}

#[derive(Subcommand, Debug)]
enum Commands {
    /// Speak the engine protocol on stdin/stdout (the default).
    Engine,
    /// Search the game's fixed positions (--game NAME) to a fixed depth: node signature and speed.
    Bench(bench::BenchArgs),
    /// Spanish draughts self-play: quiet positions labelled with the game's result (for `tune`).
    Datagen(datagen::DatagenArgs),
    /// Build the Spanish draughts opening book by self-play.
    Book(book::BookArgs),
    /// Count the leaf nodes of the move tree to a depth.
    Perft(perft::PerftArgs),
    /// Play against the engine in the terminal.
    Play(play::PlayArgs),
    /// Run engines against each other with the library as referee.
    Match(matches::MatchArgs),
    /// Chinese checkers solitaire: move one army across alone, shortest.
    Solitaire(solitaire::SolitaireArgs),
    /// Fit the Spanish evaluation's weights to `datagen`'s positions (Texel's method).
    Tune(tune::TuneArgs),
    /// Spanish draughts endgame tables: generate, probe, verify.
    Tablebase(tablebase::TablebaseArgs),
    /// Spanish draughts game records: `damas pdn check FILE`.
    Pdn(pdn::PdnArgs),
    /// Serve the web board: play both games in the browser.
    Serve(serve::ServeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<(), Failure> = match cli.command {
        None | Some(Commands::Engine) => engine_loop::run().map_err(Failure::from),
        Some(Commands::Bench(args)) => bench::run(&args),
        Some(Commands::Datagen(args)) => datagen::run(&args),
        Some(Commands::Book(args)) => book::run(&args),
        Some(Commands::Perft(args)) => perft::run(&args),
        Some(Commands::Play(args)) => play::run(&args),
        Some(Commands::Solitaire(args)) => solitaire::run(&args),
        Some(Commands::Tablebase(args)) => tablebase::run(&args),
        Some(Commands::Tune(args)) => tune::run(&args),
        Some(Commands::Pdn(args)) => pdn::run(&args),
        Some(Commands::Serve(args)) => serve::run(&args),
        Some(Commands::Match(args)) => {
            let raw: Vec<String> = std::env::args().collect();
            matches::run(&args, &raw)
        }
    };
    match result {
        Ok(()) | Err(Failure::StdoutClosed) => ExitCode::SUCCESS,
        Err(Failure::Message(err)) => {
            errln!("damas: {err}");
            ExitCode::FAILURE
        }
    }
}
