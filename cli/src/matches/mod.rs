//! `damas match`: engines against each other, with the library as referee.

mod ccp;
pub mod client;
pub mod openings;
pub mod process;
pub mod record;
pub mod referee;
mod report;
pub mod stats;
pub mod ugi;
pub mod wire;

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Args;
use damas::options::{Options, RuleSet};
use damas_protocol::command::{MAX_GO_DEPTH, MAX_GO_MILLIS};

use crate::output::{errln, outln, write_stderr, Failure};
use crate::perft::GameArgs;
use client::{EngineSpec, ProtocolKind};
use fastrand::Rng;
use openings::Opening;
use referee::{RefereedGame, Unfinished};
use report::{progress_line, summary};
use stats::{Pentanomial, Sprt, SprtVerdict, Standings, Tally};
use wire::TimeControl;

/// Most games one match may ask for.
pub const MAX_GAMES: u64 = 1_000_000;
/// Most games played at once.
pub const MAX_CONCURRENCY: u64 = 64;
/// Most random openings drawn; longer matches cycle through them.
const MAX_RANDOM_OPENINGS: usize = 10_000;
/// Most random plies of an opening.
const MAX_OPENING_PLIES: usize = 200;
/// Forfeits listed one by one in the summary (all are counted).
const MAX_FORFEITS_LISTED: usize = 50;

/// Arguments of `damas match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine's command line (repeat for each engine; `--option`s that
    /// follow belong to it).
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// `Name=Value` option for the engine named just before it.
    #[arg(long = "option")]
    options: Vec<String>,
    /// The protocol of the engine named just before it: `ugi` (the
    /// default) or `ccp` (JumpStar's CCP, for two-player Chinese checkers
    /// with `--rule Rules=ccerl`).
    #[arg(long = "protocol")]
    protocols: Vec<String>,
    /// The game; its `--rule Name=Value` options go to the referee and to
    /// every engine (for example `AntiBlocking=false` or `Rules=ccerl`).
    #[command(flatten)]
    game: GameArgs,
    /// Number of games (1 to 1,000,000).
    #[arg(long, default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    games: u64,
    /// Clock per player: `BASE+INC` in seconds, e.g. `10+0.1`.
    #[arg(long, conflicts_with_all = ["movetime", "depth", "nodes"])]
    tc: Option<String>,
    /// Fixed time per move in milliseconds (1 to 1,000,000,000, the
    /// protocol's bound).
    #[arg(long, conflicts_with_all = ["depth", "nodes"],
          value_parser = clap::value_parser!(u64).range(1..=MAX_GO_MILLIS))]
    movetime: Option<u64>,
    /// Fixed depth per move (1 to 1000, the protocol's bound).
    #[arg(long, conflicts_with = "nodes",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_GO_DEPTH)))]
    depth: Option<u32>,
    /// Fixed nodes per move (at least 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=u64::MAX))]
    nodes: Option<u64>,
    /// A file with one opening per line, or `random:PLIES`.
    #[arg(long, default_value = "random:4")]
    openings: String,
    /// Seed of the random openings (0 takes one from the system).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (1 to 64).
    #[arg(long, default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=MAX_CONCURRENCY))]
    concurrency: u64,
    /// Append every game here as it ends (PDN for draughts, one line per
    /// game for Chinese checkers). An existing file is refused unless
    /// --append is given.
    #[arg(long)]
    out: Option<String>,
    /// Add the games to an existing --out file.
    #[arg(long, requires = "out")]
    append: bool,
    /// Stop early by an SPRT: `elo0,elo1,alpha,beta` (two engines only).
    #[arg(long)]
    sprt: Option<String>,
    /// No progress line on stderr.
    #[arg(long)]
    quiet: bool,
}

/// Pairs each `--option` and `--protocol` with the `--engine` before it,
/// from the raw command line (clap keeps the values but not their
/// interleaving).
fn engine_specs(raw: &[String]) -> Result<Vec<EngineSpec>, String> {
    let mut specs: Vec<EngineSpec> = Vec::new();
    let mut words = raw.iter();
    while let Some(word) = words.next() {
        let (flag, inline) = match word.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_string())),
            _ => (word.as_str(), None),
        };
        if !matches!(flag, "--engine" | "--option" | "--protocol") {
            continue;
        }
        let Some(value) = inline.or_else(|| words.next().cloned()) else {
            return Err(format!("{flag} needs a value"));
        };
        if flag == "--engine" {
            specs.push(EngineSpec {
                name: String::new(),
                command: value,
                options: Vec::new(),
                protocol: ProtocolKind::Ugi,
            });
        } else if flag == "--protocol" {
            let spec = specs
                .last_mut()
                .ok_or_else(|| format!("--protocol '{value}' comes before any --engine"))?;
            spec.protocol = ProtocolKind::parse(&value)?;
        } else {
            let (name, option_value) = value
                .split_once('=')
                .ok_or_else(|| format!("--option '{value}': expected Name=Value"))?;
            let spec = specs
                .last_mut()
                .ok_or_else(|| format!("--option '{value}' comes before any --engine"))?;
            spec.options
                .push((name.trim().to_string(), option_value.trim().to_string()));
        }
    }
    for (i, spec) in specs.iter_mut().enumerate() {
        let opts: Vec<String> = spec
            .options
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        spec.name = if opts.is_empty() {
            format!("e{} {}", i + 1, spec.command)
        } else {
            format!("e{} {} [{}]", i + 1, spec.command, opts.join(" "))
        };
    }
    Ok(specs)
}

/// How the openings were chosen, for the summary: the file, or the random
/// plies with the seed that draws them again (for `--seed 0`, the one drawn
/// from the system).
fn openings_source(args: &MatchArgs, seed: u64) -> String {
    if args.openings.starts_with("random:") {
        format!("{}, seed {seed}", args.openings)
    } else {
        args.openings.clone()
    }
}

fn load_openings(
    args: &MatchArgs,
    options: &Options,
    count: usize,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    let openings = if let Some(plies) = args.openings.strip_prefix("random:") {
        let plies: usize = plies
            .parse()
            .ok()
            .filter(|&p| p <= MAX_OPENING_PLIES)
            .ok_or_else(|| {
                format!(
                    "--openings '{}': random:PLIES with PLIES from 0 to {MAX_OPENING_PLIES}",
                    args.openings
                )
            })?;
        let mut rng = Rng::with_seed(seed);
        openings::random_openings(options, plies, count.min(MAX_RANDOM_OPENINGS), &mut rng)
    } else {
        let text = std::fs::read_to_string(&args.openings)
            .map_err(|err| format!("reading '{}': {err}", args.openings))?;
        text.lines().filter_map(Opening::parse_line).collect()
    };
    for (i, opening) in openings.iter().enumerate() {
        opening
            .build(options)
            .map_err(|err| format!("opening {}: {err}", i + 1))?;
    }
    if openings.is_empty() {
        return Err("no openings".into());
    }
    Ok(openings)
}

/// The rule options given with `--variant` and `--rule`, as `setoption`
/// pairs.
fn rule_options(args: &MatchArgs, options: &mut Options) -> Result<Vec<(String, String)>, String> {
    // Every game is a fresh process that is sent `uginewgame` once, so
    // `position startpos` has `p1` to move with or without the protocol's
    // rotation of first players: the runner sets no rotation option.
    let mut pairs = vec![
        ("Game".to_string(), options.game.name().to_string()),
        ("Players".to_string(), options.players.to_string()),
    ];
    for (name, value) in args.game.rule_pairs()? {
        options.set(&name, &value).map_err(|err| err.to_string())?;
        pairs.push((name, value));
    }
    Ok(pairs)
}

/// CCP engines play only two-player Chinese checkers by the CCERL rules
/// (what `ccp` sets in them), so the referee must play those too.
fn check_protocols(specs: &[EngineSpec], options: &Options) -> Result<(), String> {
    let Some(ccp) = specs.iter().find(|s| s.protocol == ProtocolKind::Ccp) else {
        return Ok(());
    };
    match options.rule_set() {
        RuleSet::Ccerl => Ok(()),
        RuleSet::Default | RuleSet::Custom => Err(format!(
            "engine {} speaks CCP, which plays two-player Chinese checkers by the \
             CCERL rules: use --game chinese --rule Rules=ccerl",
            ccp.name
        )),
    }
}

/// Everything the workers share, under one lock: the statistics, the
/// pairs waiting for their second game, and the output file, so that a
/// game is counted and written in one step.
struct Progress {
    tally: Tally,
    pairs: Pentanomial,
    /// Half points of engine 1 in the first finished game of a pair, by
    /// pair index (at most one entry per game in progress).
    pending: HashMap<u64, u8>,
    standings: Standings,
    done: u64,
    forfeits: Vec<String>,
    forfeit_count: u64,
    out: Option<File>,
    written: u64,
    write_error: Option<String>,
    fatal: Option<String>,
}

/// The match as the workers see it.
struct Setup<'a> {
    args: &'a MatchArgs,
    options: &'a Options,
    game_options: &'a [(String, String)],
    specs: &'a [EngineSpec],
    names: &'a [String],
    openings: &'a [Opening],
    /// The openings' file, or `random:PLIES, seed S`.
    openings_source: String,
    control: TimeControl,
    sprt: Option<Sprt>,
    rotations: u64,
    /// Two engines in a two-player game: W/D/L, pairs and Elo.
    head_to_head: bool,
}

/// Runs `damas match` with the raw command line (for option pairing).
pub fn run(args: &MatchArgs, raw: &[String]) -> Result<(), Failure> {
    let interrupted = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // A second signal while the first is handled ends the runner at
        // once; the first lets the finished games be written.
        signal_hook::flag::register_conditional_shutdown(signal, 130, Arc::clone(&interrupted))
            .and_then(|_| signal_hook::flag::register(signal, Arc::clone(&interrupted)))
            .map_err(|err| format!("installing the signal handler: {err}"))?;
    }
    let specs = engine_specs(raw)?;
    if specs.len() != args.engines.len() {
        return Err("could not pair --option values with engines".into());
    }
    // A command that cannot run is reported before any game.
    for spec in &specs {
        let words = process::split_command(&spec.command)?;
        process::resolve_program(&words[0])?;
    }
    let mut options = args.game.options()?;
    let game_options = rule_options(args, &mut options)?;
    check_protocols(&specs, &options)?;
    let players = options.players as usize;
    let control = if let Some(tc) = &args.tc {
        referee::parse_clock(tc)?
    } else if let Some(depth) = args.depth {
        TimeControl::Depth(depth)
    } else if let Some(nodes) = args.nodes {
        TimeControl::Nodes(nodes)
    } else {
        TimeControl::MoveTime(Duration::from_millis(args.movetime.unwrap_or(100)))
    };
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let head_to_head = specs.len() == 2 && players == 2;
    if sprt.is_some() && !head_to_head {
        return Err("--sprt needs two engines in a two-player game".into());
    }
    warn_if_oversubscribed(&specs, args.concurrency);
    let rotations = seat_rotations(specs.len());
    let wanted = usize::try_from(args.games.div_ceil(rotations as u64)).unwrap_or(usize::MAX);
    // Seed 0 draws one from the system (a new set of openings each run);
    // the summary prints it so that the run can be repeated.
    let opening_seed = if args.seed == 0 {
        fastrand::u64(1..)
    } else {
        args.seed
    };
    let openings = load_openings(args, &options, wanted.max(1), opening_seed)?;
    let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let out = args
        .out
        .as_deref()
        .map(|path| open_out(path, args.append))
        .transpose()?;
    let setup = Setup {
        args,
        options: &options,
        game_options: &game_options,
        specs: &specs,
        names: &names,
        openings: &openings,
        openings_source: openings_source(args, opening_seed),
        control,
        sprt,
        rotations: rotations as u64,
        head_to_head,
    };
    let progress = Mutex::new(Progress {
        tally: Tally::default(),
        pairs: Pentanomial::default(),
        pending: HashMap::new(),
        standings: Standings::new(specs.len()),
        done: 0,
        forfeits: Vec::new(),
        forfeit_count: 0,
        out,
        written: 0,
        write_error: None,
        fatal: None,
    });
    let next_game = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency {
            scope.spawn(|| worker(&setup, &progress, &next_game, &stop, &interrupted));
        }
    });
    if !args.quiet {
        write_stderr(format_args!("\n"));
    }
    let progress = progress.into_inner().unwrap_or_else(|e| e.into_inner());
    let was_interrupted = interrupted.load(Ordering::Relaxed);
    outln!("{}", summary(&setup, &progress).trim_end())?;
    if let Some(fatal) = progress.fatal {
        return Err(fatal.into());
    }
    if let Some(error) = progress.write_error {
        return Err(format!(
            "{error}; the match stopped after {} games, {} written",
            progress.done, progress.written
        )
        .into());
    }
    if was_interrupted {
        return Err(format!(
            "interrupted after {} of {} games (every finished game written)",
            progress.done, args.games
        )
        .into());
    }
    Ok(())
}

/// Plays games until there are none left or the match stops.
fn worker(
    setup: &Setup<'_>,
    progress: &Mutex<Progress>,
    next_game: &AtomicU64,
    stop: &AtomicBool,
    interrupted: &AtomicBool,
) {
    let players = setup.options.players as usize;
    loop {
        if stop.load(Ordering::Relaxed) || interrupted.load(Ordering::Relaxed) {
            return;
        }
        let index = next_game.fetch_add(1, Ordering::Relaxed);
        if index >= setup.args.games {
            return;
        }
        let opening_index = (index / setup.rotations) % setup.openings.len() as u64;
        let opening = &setup.openings[opening_index as usize];
        let rotation = (index % setup.rotations) as usize;
        let seats = seats_of_rotation(rotation, players, setup.specs.len());
        let played = referee::play_game(
            setup.options,
            setup.game_options,
            setup.specs,
            &seats,
            opening,
            setup.control,
            interrupted,
        );
        let mut guard = progress.lock().unwrap_or_else(|e| e.into_inner());
        let state = &mut *guard;
        match played {
            Ok(record) => finish_game(setup, state, &record, index, stop),
            Err(Unfinished::Interrupted) => return,
            Err(Unfinished::Refused { engine, line }) => {
                stop.store(true, Ordering::Relaxed);
                state.fatal.get_or_insert(format!(
                    "engine e{} ({}) {line}; match stopped",
                    engine + 1,
                    setup.specs[engine].command
                ));
                return;
            }
            Err(Unfinished::BadOpening(why)) => {
                stop.store(true, Ordering::Relaxed);
                state.fatal.get_or_insert(format!("opening: {why}"));
                return;
            }
        }
    }
}

/// Counts a finished game, appends it to the output file and judges the
/// SPRT.
fn finish_game(
    setup: &Setup<'_>,
    state: &mut Progress,
    record: &RefereedGame,
    index: u64,
    stop: &AtomicBool,
) {
    state.done += 1;
    state.standings.add(&record.seats, &record.places);
    if setup.head_to_head {
        let half_points = add_to_tally(&mut state.tally, record);
        // Games 2k and 2k+1 play one opening with the seats swapped.
        let pair = index / 2;
        match state.pending.remove(&pair) {
            Some(first) => state.pairs.add(first + half_points),
            None => {
                state.pending.insert(pair, half_points);
            }
        }
    }
    for ending in &record.endings {
        if let referee::Ending::Forfeit { seat, why } = ending {
            state.forfeit_count += 1;
            if state.forfeits.len() < MAX_FORFEITS_LISTED {
                state.forfeits.push(format!(
                    "game {}: e{} (p{}) {why}",
                    index + 1,
                    record.seats[*seat] + 1,
                    seat + 1
                ));
            }
        }
    }
    if let Some(file) = state.out.as_mut() {
        let text = record::format(record, index as usize, setup.names, setup.options);
        match file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
            Ok(()) => state.written += 1,
            Err(err) => {
                let path = setup.args.out.as_deref().unwrap_or_default();
                state.write_error = Some(format!("writing '{path}': {err}"));
                state.out = None;
                stop.store(true, Ordering::Relaxed);
            }
        }
    }
    if !setup.args.quiet {
        write_stderr(format_args!(
            "\r{}",
            progress_line(state, setup.args.games, setup.specs.len())
        ));
    }
    if let Some(sprt) = &setup.sprt {
        if sprt.verdict(&state.pairs) != SprtVerdict::Continue {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// The output file: a new one, or an existing one only with `--append`.
/// Nothing is ever truncated.
fn open_out(path: &str, append: bool) -> Result<File, String> {
    let mut open = OpenOptions::new();
    if append {
        open.append(true).create(true);
    } else {
        open.write(true).create_new(true);
    }
    open.open(path).map_err(|err| {
        if err.kind() == std::io::ErrorKind::AlreadyExists {
            format!("--out '{path}' exists: add --append to add the games to it, or remove it")
        } else {
            format!("opening '{path}': {err}")
        }
    })
}

/// Warns when the games at once times the engines' threads ask for more
/// cores than there are: engines then lose time to each other.
fn warn_if_oversubscribed(specs: &[EngineSpec], concurrency: u64) {
    let threads = specs
        .iter()
        .map(|spec| {
            spec.options
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case("Threads"))
                .and_then(|(_, value)| value.parse::<u64>().ok())
                .unwrap_or(1)
        })
        .max()
        .unwrap_or(1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let wanted = concurrency.saturating_mul(threads);
    if wanted > cores {
        errln!(
            "damas: warning: --concurrency {concurrency} × Threads {threads} = {wanted} threads on {cores} cores: engines will lose time to each other"
        );
    }
}

/// How many seat rotations each opening is played with: one per engine.
/// Over that many games every engine sits in every seat equally often,
/// whatever the numbers of engines and players (with as many rotations as
/// players instead, 2 engines in a 3-player game or 3 engines in a
/// 2-player game would not be balanced).
fn seat_rotations(engines: usize) -> usize {
    engines.max(1)
}

/// The engine in each seat in rotation `rotation`.
fn seats_of_rotation(rotation: usize, players: usize, engines: usize) -> Vec<usize> {
    (0..players)
        .map(|seat| (seat + rotation) % engines.max(1))
        .collect()
}

/// Counts a two-player game for engine 1 and returns its half points
/// (2 a win, 1 a draw, 0 a loss).
fn add_to_tally(tally: &mut Tally, record: &RefereedGame) -> u8 {
    let seat_of_first = record.seats.iter().position(|&e| e == 0).unwrap_or(0);
    let mine = record.places[seat_of_first];
    let theirs = record.places[1 - seat_of_first];
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Less => {
            tally.wins += 1;
            2
        }
        std::cmp::Ordering::Equal => {
            tally.draws += 1;
            1
        }
        std::cmp::Ordering::Greater => {
            tally.losses += 1;
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn options_belong_to_the_engine_before_them() {
        let specs = engine_specs(&words(
            "damas match --engine a --option Threads=2 --option Hash=8 --engine=b --games 4",
        ))
        .expect("valid");
        assert_eq!(specs.len(), 2);
        assert_eq!(
            specs[0].options,
            vec![("Threads".into(), "2".into()), ("Hash".into(), "8".into())]
        );
        assert!(specs[1].options.is_empty());
        assert_eq!(specs[1].command, "b");
        assert!(engine_specs(&words("--option A=1 --engine a")).is_err());
        assert!(engine_specs(&words("--engine a --option nonsense")).is_err());
    }

    #[test]
    fn every_engine_sits_in_every_seat_equally_often() {
        for engines in 1..=6 {
            for players in 1..=6 {
                let rotations = seat_rotations(engines);
                // count[seat][engine] over the rotations of one opening.
                let mut count = vec![vec![0usize; engines]; players];
                for rotation in 0..rotations {
                    let seats = seats_of_rotation(rotation, players, engines);
                    assert_eq!(seats.len(), players);
                    for (seat, &engine) in seats.iter().enumerate() {
                        count[seat][engine] += 1;
                    }
                }
                for (seat, row) in count.iter().enumerate() {
                    assert!(
                        row.iter().all(|&n| n == row[0]),
                        "{engines} engines, {players} players: seat {seat} hosts {row:?}"
                    );
                }
            }
        }
    }
}
