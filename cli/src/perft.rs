//! `damas perft`: leaf counts for checking move generators and timing them.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::Args;
use damas::options::{self, OptionType, Options};
use damas::{AnyGame, Game, GameKind, GameSpec};

use crate::output::{outln, Failure};

/// The `--game` value parser: one of the registry's names
/// ([`GameKind::ALL`]), read with [`GameKind`]'s `FromStr`; `--help` lists
/// each with its title.
pub fn game_parser() -> impl TypedValueParser<Value = GameKind> {
    let names = GameKind::ALL.map(|kind| PossibleValue::new(kind.name()).help(kind.title()));
    PossibleValuesParser::new(names).try_map(|name: String| name.parse::<GameKind>())
}

/// What `--variant` names: a game of the star (the documented alias of
/// `--game`) or a draughts rule set (the `Variant` option's value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantArg {
    /// `japanese` is the game `japanese`, `international` (the 10-piece
    /// rules) the game `chinese`.
    Star(GameKind),
    /// A value of the `Variant` option: draughts under those rules.
    Draughts(&'static str),
}

/// The draughts variants the option table offers (the `Variant` combo).
fn draughts_variants() -> &'static [&'static str] {
    match options::find("Variant").map(|decl| decl.kind) {
        Some(OptionType::Combo(names)) => names,
        _ => &[],
    }
}

/// The name for people of the draughts variant `name` (`Russian
/// draughts`), read through the option table and the registry.
fn draughts_title(name: &str) -> &'static str {
    let mut options = Options {
        game: GameKind::Spanish,
        ..Options::default()
    };
    match options.set("Variant", name).map(|_| options.spec()) {
        Ok(Ok(spec)) => spec.title(),
        _ => GameKind::Spanish.title(),
    }
}

/// The `--variant` value parser, read through the registry and the option
/// table: the star's two aliases, then every draughts variant the
/// `Variant` option offers.
fn variant_parser() -> impl TypedValueParser<Value = VariantArg> {
    let star = [
        PossibleValue::new("international").help(GameKind::Chinese.title()),
        PossibleValue::new(GameKind::Japanese.name()).help(GameKind::Japanese.title()),
    ];
    let draughts = draughts_variants()
        .iter()
        .map(|&name| PossibleValue::new(name).help(draughts_title(name)));
    let names: Vec<PossibleValue> = star.into_iter().chain(draughts).collect();
    PossibleValuesParser::new(names).try_map(|name: String| match name.as_str() {
        "international" => Ok(VariantArg::Star(GameKind::Chinese)),
        other => match draughts_variants().iter().find(|&&v| v == other) {
            Some(&variant) => Ok(VariantArg::Draughts(variant)),
            None => other.parse::<GameKind>().map(VariantArg::Star),
        },
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
    /// The draughts rule set (`brazilian`: the `Variant` option), or an
    /// alias of `--game` for Chinese checkers: `japanese` plays the
    /// Japanese variant, `international` the 10-piece rules (`chinese`).
    /// With `--game`, that game must be the variant's (`chinese` for
    /// `japanese`).
    #[arg(long, value_parser = variant_parser())]
    pub variant: Option<VariantArg>,
    /// A rule option as `Name=Value` (the protocol's options, e.g.
    /// `Rules=ccerl` or `GoalLock=true`); repeat for several.
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    pub rules: Vec<String>,
}

impl GameArgs {
    /// The game played: `--variant`'s when given (`--game chinese
    /// --variant japanese` is the Japanese variant, `--variant brazilian`
    /// draughts), else `--game`, else the options' default.
    ///
    /// # Errors
    ///
    /// A sentence when `--variant` names a variant of another game than
    /// `--game`, such as `--game spanish --variant japanese`.
    pub fn kind(&self) -> Result<GameKind, String> {
        let variant = match &self.variant {
            None => return Ok(self.game.unwrap_or(Options::default().game)),
            Some(VariantArg::Star(kind)) => *kind,
            Some(VariantArg::Draughts(_)) => GameKind::Spanish,
        };
        match self.game {
            None => Ok(variant),
            Some(game) if game == variant => Ok(variant),
            Some(GameKind::Chinese) if matches!(self.variant, Some(VariantArg::Star(_))) => {
                Ok(variant)
            }
            Some(game) => {
                Err(match self.variant {
                    Some(VariantArg::Draughts(name)) => {
                        format!("--variant {name} is a draughts rule set, not a variant of --game {game}")
                    }
                    _ => format!(
                        "--variant {} is a variant of {}, not of --game {game}",
                        self.variant_name(),
                        variant.title()
                    ),
                })
            }
        }
    }

    fn variant_name(&self) -> &'static str {
        match &self.variant {
            Some(VariantArg::Star(GameKind::Chinese)) => "international",
            Some(VariantArg::Star(kind)) => kind.name(),
            Some(VariantArg::Draughts(name)) => name,
            None => "",
        }
    }

    /// The rule options these arguments set, as the protocol's `setoption`
    /// pairs in order: `Variant` for a draughts `--variant`, then every
    /// `--rule`.
    ///
    /// # Errors
    ///
    /// A sentence for a `--rule` that is not `Name=Value`.
    pub fn rule_pairs(&self) -> Result<Vec<(String, String)>, String> {
        let mut pairs = Vec::new();
        if let Some(VariantArg::Draughts(name)) = &self.variant {
            pairs.push(("Variant".to_string(), (*name).to_string()));
        }
        for rule in &self.rules {
            let (name, value) = rule
                .split_once('=')
                .ok_or_else(|| format!("--rule '{rule}': expected Name=Value"))?;
            pairs.push((name.trim().to_string(), value.trim().to_string()));
        }
        Ok(pairs)
    }

    /// Engine options for these arguments: the game, `--players` and
    /// every rule of [`GameArgs::rule_pairs`], each set through
    /// [`Options::set`]; the combination is checked, so that
    /// [`Options::spec`] describes a game.
    ///
    /// # Errors
    ///
    /// A sentence for a game, player count or rule option that is refused.
    pub fn options(&self) -> Result<Options, String> {
        let mut options = Options {
            game: self.kind()?,
            ..Options::default()
        };
        options
            .set("Players", &self.players.to_string())
            .map_err(|err| err.to_string())?;
        for (name, value) in self.rule_pairs()? {
            options.set(&name, &value).map_err(|err| err.to_string())?;
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
