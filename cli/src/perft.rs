//! `damas perft`: leaf counts for checking move generators and timing them.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::Args;
use damas::options::Options;
use damas::{AnyGame, Game, GameKind, GameSpec};

use crate::output::{outln, Failure};

/// The `--game` value parser: one of the registry's names
/// ([`GameKind::ALL`]), read with [`GameKind`]'s `FromStr`; `--help` lists
/// each with its title.
pub fn game_parser() -> impl TypedValueParser<Value = GameKind> {
    let names = GameKind::ALL.map(|kind| PossibleValue::new(kind.name()).help(kind.title()));
    PossibleValuesParser::new(names).try_map(|name: String| name.parse::<GameKind>())
}

/// The `--variant` value parser: a documented alias of `--game` for the
/// star, read through the registry: `japanese` is the game `japanese`,
/// `international` (the 10-piece rules) is the game `chinese`.
fn variant_parser() -> impl TypedValueParser<Value = GameKind> {
    let names = [
        PossibleValue::new("international").help(GameKind::Chinese.title()),
        PossibleValue::new(GameKind::Japanese.name()).help(GameKind::Japanese.title()),
    ];
    PossibleValuesParser::new(names).try_map(|name: String| match name.as_str() {
        "international" => Ok(GameKind::Chinese),
        other => other.parse::<GameKind>(),
    })
}

/// Which game, and which rules, a subcommand plays.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// The game [default: spanish].
    #[arg(long, value_parser = game_parser())]
    pub game: Option<GameKind>,
    /// Number of players (Chinese checkers: 1–6).
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Alias of `--game` for Chinese checkers: `japanese` plays the
    /// Japanese variant, `international` the 10-piece rules (`chinese`).
    /// With `--game`, that game must be `chinese` or the same game.
    #[arg(long, value_parser = variant_parser())]
    pub variant: Option<GameKind>,
    /// A rule option as `Name=Value` (the protocol's options, e.g.
    /// `Rules=ccerl` or `GoalLock=true`); repeat for several.
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    pub rules: Vec<String>,
}

impl GameArgs {
    /// The game played: `--variant`'s when given (`--game chinese
    /// --variant japanese` is the Japanese variant), else `--game`, else
    /// the options' default.
    ///
    /// # Errors
    ///
    /// A sentence when `--variant` names a game that `--game` (other than
    /// `chinese`) contradicts, such as `--game spanish --variant japanese`.
    pub fn kind(&self) -> Result<GameKind, String> {
        match (self.game, self.variant) {
            (None, None) => Ok(Options::default().game),
            (Some(game), None) => Ok(game),
            (None, Some(variant)) => Ok(variant),
            (Some(game), Some(variant)) if game == GameKind::Chinese || game == variant => {
                Ok(variant)
            }
            (Some(game), Some(variant)) => Err(format!(
                "--variant {variant} is a variant of Chinese checkers, not of --game {game}"
            )),
        }
    }

    /// Engine options for these arguments: the game, `--players` and
    /// every `--rule`, each set through [`Options::set`]; the combination
    /// is checked, so that [`Options::spec`] describes a game.
    pub fn options(&self) -> Result<Options, String> {
        let mut options = Options {
            game: self.kind()?,
            ..Options::default()
        };
        options
            .set("Players", &self.players.to_string())
            .map_err(|err| err.to_string())?;
        for rule in &self.rules {
            let (name, value) = rule
                .split_once('=')
                .ok_or_else(|| format!("--rule '{rule}': expected Name=Value"))?;
            options.set(name, value).map_err(|err| err.to_string())?;
        }
        GameSpec::from_kind(options.game, options.players, &options.rules)
            .map_err(|err| err.to_string())?;
        Ok(options)
    }
}

/// Arguments of `damas perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Depth in plies, 0 to 32.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=32))]
    depth: u32,
    /// Start from this position (PDN FEN for draughts, position text for
    /// Chinese checkers) instead of the start position.
    #[arg(long, visible_alias = "position")]
    fen: Option<String>,
    /// Print one `move count` line per root move.
    #[arg(long)]
    divide: bool,
    /// Worker threads, 0 to 64 (0: every core; 1: the plain
    /// single-threaded perft; more than the cores counts on the cores).
    #[arg(
        long,
        default_value_t = 1,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=64)
    )]
    threads: usize,
    /// Transposition table in MiB, 1 to 65536 (none by default): positions
    /// reached by several move orders are counted once; the same counts,
    /// faster at depth. Each thread gets an equal share.
    #[arg(
        long,
        conflicts_with = "divide",
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new()
            .range(1..=damas::MAX_PERFT_HASH_MB as u64)
    )]
    hash: Option<usize>,
    /// Count every capture path of a king as its own move, as programs
    /// that keep duplicate captures do (dctl's keep mode); Spanish
    /// draughts only. Uses the --hash table (16 MiB when none is given).
    #[arg(long, conflicts_with = "divide")]
    keep_duplicates: bool,
}

/// The table of `--keep-duplicates` without `--hash`.
const KEEP_DEFAULT_HASH_MB: usize = 16;

/// Runs `damas perft`.
pub fn run(args: &PerftArgs) -> Result<(), Failure> {
    let spec = args.game.options()?.spec().map_err(|err| err.to_string())?;
    let game = match &args.fen {
        Some(text) => AnyGame::from_text(&spec, text).map_err(|err| err.to_string())?,
        None => AnyGame::new(&spec),
    };
    let start = Instant::now();
    let total = if args.divide {
        let rows = game.divide(args.depth);
        for (mv, count) in &rows {
            outln!("{mv} {count}")?;
        }
        // Depth 0 has no move to split on; its one leaf is the position,
        // as the plain perft counts it.
        if args.depth == 0 {
            1
        } else {
            rows.iter().map(|(_, count)| count).sum()
        }
    } else {
        let threads = match args.threads {
            0 => 0,
            n => damas::search::effective_threads(n),
        };
        match args.hash {
            _ if args.keep_duplicates => game
                .perft_keeping_duplicates(
                    args.depth,
                    threads,
                    args.hash.unwrap_or(KEEP_DEFAULT_HASH_MB),
                )
                .ok_or(
                    "--keep-duplicates is for Spanish draughts (Chinese checkers moves have no duplicates)",
                )?,
            Some(mb) => game
                .perft_hashed_until(args.depth, threads, mb, &AtomicBool::new(false))
                .unwrap_or(0),
            None => game.perft(args.depth, threads),
        }
    };
    let elapsed = start.elapsed();
    let nps = (u128::from(total) * 1_000_000 / elapsed.as_micros().max(1)) as u64;
    outln!("nodes {total}")?;
    outln!("time {:.3} s", elapsed.as_secs_f64())?;
    outln!("nps {nps}")?;
    Ok(())
}
