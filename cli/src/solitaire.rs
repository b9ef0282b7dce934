//! `damas solitaire`: the one-player transfer of a whole army to the
//! opposite point, found by the beam search.

use std::time::Instant;

use clap::{Args, ValueEnum};
use damas::chinese::{solve_solitaire, Checkers, Rules, Variant};
use damas::Game;

use crate::output::{outln, Failure};

/// The Chinese checkers rules variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    /// 10 pieces, no king.
    International,
    /// 15 pieces with a king (2–3 players).
    Japanese,
}

/// Arguments of `damas solitaire`.
#[derive(Args, Debug, Clone)]
pub struct SolitaireArgs {
    /// Rules variant: 10 pieces (international) or the 15-piece Japanese
    /// camp with its king.
    #[arg(long, value_enum, default_value_t = VariantArg::International)]
    pub variant: VariantArg,
    /// Positions kept per ply by the beam, 1 to 1,000,000 (memory grows
    /// about 600 bytes per unit: some 600 MB at the top).
    #[arg(
        long,
        default_value_t = 10_000,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000)
    )]
    pub beam: usize,
    /// Print only the length line, not the moves.
    #[arg(long, default_value_t = false)]
    pub quiet: bool,
}

/// Runs the beam and prints the sequence and its length.
pub fn run(args: &SolitaireArgs) -> Result<(), Failure> {
    let rules = Rules {
        players: 1,
        variant: match args.variant {
            VariantArg::International => Variant::International,
            VariantArg::Japanese => Variant::Japanese,
        },
        ..Rules::default()
    };
    let start = Instant::now();
    let plan = solve_solitaire(&rules, args.beam);
    let elapsed = start.elapsed();
    let game = Checkers::new(rules);
    let text = game.line_text(&plan.moves);
    if !args.quiet {
        for (i, mv) in text.iter().enumerate() {
            outln!("{:>3}. {mv}", i + 1)?;
        }
    }
    if !plan.finished {
        return Err(Failure::Message(format!(
            "no transfer found with beam {} ({} moves explored)",
            args.beam, plan.nodes
        )));
    }
    outln!(
        "length {} moves (beam {}, {} positions scored, {:.2} s)",
        plan.moves.len(),
        args.beam,
        plan.nodes,
        elapsed.as_secs_f64()
    )?;
    Ok(())
}
