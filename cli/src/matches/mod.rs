//! `damas match`: engines against each other, with the library as referee.

pub mod client;
pub mod openings;
pub mod record;
pub mod referee;
pub mod stats;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use clap::Args;
use damas::GameKind;
use damas_protocol::options::Options;

use crate::perft::GameArgs;
use client::EngineSpec;
use fastrand::Rng;
use openings::Opening;
use referee::{GameRecord, TimeControl};
use stats::{Sprt, SprtVerdict, Standings, Tally};

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
    /// The game; its `--rule Name=Value` options go to the referee and to
    /// every engine (for example `AntiBlocking=false` or `Rules=ccerl`).
    #[command(flatten)]
    game: GameArgs,
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Clock per player: `BASE+INC` in seconds, e.g. `10+0.1`.
    #[arg(long, conflicts_with_all = ["movetime", "depth", "nodes"])]
    tc: Option<String>,
    /// Fixed time per move in milliseconds.
    #[arg(long, conflicts_with_all = ["depth", "nodes"])]
    movetime: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, conflicts_with = "nodes")]
    depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// A file with one opening per line, or `random:PLIES`.
    #[arg(long, default_value = "random:4")]
    openings: String,
    /// Seed of the random openings (0 takes one from the system).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Write every game here (PDN for draughts, one line per game for
    /// Chinese checkers).
    #[arg(long)]
    out: Option<String>,
    /// Stop early by an SPRT: `elo0,elo1,alpha,beta` (two engines only).
    #[arg(long)]
    sprt: Option<String>,
    /// No progress line on stderr.
    #[arg(long)]
    quiet: bool,
}

/// Pairs each `--option` with the `--engine` before it, from the raw
/// command line (clap keeps the values but not their interleaving).
fn engine_specs(raw: &[String]) -> Result<Vec<EngineSpec>, String> {
    let mut specs: Vec<EngineSpec> = Vec::new();
    let mut words = raw.iter();
    while let Some(word) = words.next() {
        let (flag, inline) = match word.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_string())),
            _ => (word.as_str(), None),
        };
        if flag != "--engine" && flag != "--option" {
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
            });
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

fn load_openings(
    args: &MatchArgs,
    options: &Options,
    count: usize,
) -> Result<Vec<Opening>, String> {
    let openings = if let Some(plies) = args.openings.strip_prefix("random:") {
        let plies: usize = plies
            .parse()
            .map_err(|_| format!("--openings '{}': random:PLIES", args.openings))?;
        // Seed 0 takes one from the system (a new set of openings each run).
        let mut rng = if args.seed == 0 {
            Rng::new()
        } else {
            Rng::with_seed(args.seed)
        };
        openings::random_openings(options, plies, count, &mut rng)
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

/// The rule options given with `--rule`, as `setoption` pairs.
fn rule_options(args: &MatchArgs, options: &mut Options) -> Result<Vec<(String, String)>, String> {
    let mut pairs = vec![
        ("Game".to_string(), options.game.name().to_string()),
        ("Players".to_string(), options.players.to_string()),
    ];
    for rule in &args.game.rules {
        let (name, value) = rule
            .split_once('=')
            .ok_or_else(|| format!("--rule '{rule}': expected Name=Value"))?;
        options.set(name, value).map_err(|err| err.to_string())?;
        pairs.push((name.trim().to_string(), value.trim().to_string()));
    }
    Ok(pairs)
}

/// Everything the workers share.
struct Shared {
    results: Mutex<Vec<Option<GameRecord>>>,
    next_game: AtomicUsize,
    stop: AtomicBool,
}

/// Runs `damas match` with the raw command line (for option pairing).
pub fn run(args: &MatchArgs, raw: &[String]) -> Result<(), String> {
    let specs = engine_specs(raw)?;
    if specs.len() != args.engines.len() {
        return Err("could not pair --option values with engines".into());
    }
    let mut options = args.game.options()?;
    let game_options = rule_options(args, &mut options)?;
    let players = options.players as usize;
    let control = if let Some(tc) = &args.tc {
        TimeControl::parse_clock(tc)?
    } else if let Some(depth) = args.depth {
        TimeControl::Depth(depth)
    } else if let Some(nodes) = args.nodes {
        TimeControl::Nodes(nodes)
    } else {
        TimeControl::MoveTime(Duration::from_millis(args.movetime.unwrap_or(100)))
    };
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    if sprt.is_some() && (specs.len() != 2 || players != 2) {
        return Err("--sprt needs two engines in a two-player game".into());
    }
    let rotations = seat_rotations(specs.len());
    let openings = load_openings(args, &options, args.games.div_ceil(rotations).max(1))?;
    let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let shared = Shared {
        results: Mutex::new(vec![None; args.games]),
        next_game: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    };
    let mut out = match &args.out {
        Some(path) => Some(BufWriter::new(
            File::create(path).map_err(|err| format!("creating '{path}': {err}"))?,
        )),
        None => None,
    };
    let progress = Mutex::new((Tally::default(), Standings::new(specs.len()), 0usize));
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency.max(1) {
            scope.spawn(|| loop {
                if shared.stop.load(Ordering::Relaxed) {
                    break;
                }
                let index = shared.next_game.fetch_add(1, Ordering::Relaxed);
                if index >= args.games {
                    break;
                }
                let opening = &openings[(index / rotations) % openings.len()];
                let seats = seats_of_rotation(index % rotations, players, specs.len());
                let record =
                    referee::play_game(&options, &game_options, &specs, &seats, opening, control);
                let mut guard = progress.lock().unwrap_or_else(|e| e.into_inner());
                let (tally, standings, done) = &mut *guard;
                standings.add(&record.seats, &record.places);
                if specs.len() == 2 && players == 2 {
                    add_to_tally(tally, &record);
                }
                *done += 1;
                if !args.quiet {
                    eprint!(
                        "\r{}",
                        progress_line(*done, args.games, tally, standings, specs.len())
                    );
                }
                if let Some(sprt) = &sprt {
                    if sprt.verdict(tally) != SprtVerdict::Continue {
                        shared.stop.store(true, Ordering::Relaxed);
                    }
                }
                drop(guard);
                let mut results = shared.results.lock().unwrap_or_else(|e| e.into_inner());
                results[index] = Some(record);
            });
        }
    });
    if !args.quiet {
        eprintln!();
    }
    let results = shared
        .results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(out) = out.as_mut() {
        for (index, record) in results.iter().enumerate() {
            if let Some(record) = record {
                out.write_all(record::format(record, index, &names, &options).as_bytes())
                    .map_err(|err| format!("writing games: {err}"))?;
            }
        }
        out.flush().map_err(|err| format!("writing games: {err}"))?;
    }
    let (tally, standings, done) = progress.into_inner().unwrap_or_else(|e| e.into_inner());
    print!(
        "{}",
        summary(
            &results,
            &names,
            &tally,
            &standings,
            done,
            sprt.as_ref(),
            &options
        )
    );
    Ok(())
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

fn add_to_tally(tally: &mut Tally, record: &GameRecord) {
    // From the point of view of engine 0.
    let seat_of_first = record.seats.iter().position(|&e| e == 0).unwrap_or(0);
    let mine = record.places[seat_of_first];
    let theirs = record.places[1 - seat_of_first];
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Less => tally.wins += 1,
        std::cmp::Ordering::Equal => tally.draws += 1,
        std::cmp::Ordering::Greater => tally.losses += 1,
    }
}

fn progress_line(
    done: usize,
    total: usize,
    tally: &Tally,
    standings: &Standings,
    engines: usize,
) -> String {
    if tally.games() > 0 {
        let elo = tally
            .elo()
            .map_or_else(String::new, |(e, err)| format!("  Elo {e:+.0} ±{err:.0}"));
        format!(
            "[{done}/{total}] e1 vs e2: +{} ={} -{}{elo}   ",
            tally.wins, tally.draws, tally.losses
        )
    } else {
        let places: Vec<String> = (0..engines)
            .map(|e| {
                standings
                    .average_place(e)
                    .map_or_else(|| "-".into(), |p| format!("e{} {p:.2}", e + 1))
            })
            .collect();
        format!("[{done}/{total}] average place: {}   ", places.join(", "))
    }
}

fn summary(
    results: &[Option<GameRecord>],
    names: &[String],
    tally: &Tally,
    standings: &Standings,
    done: usize,
    sprt: Option<&Sprt>,
    options: &Options,
) -> String {
    let mut out = String::new();
    let game = if options.game == GameKind::Spanish {
        "spanish".to_string()
    } else {
        format!("{} ({} players)", options.game.name(), options.players)
    };
    out.push_str(&format!("Match: {game}, {done} games\n"));
    out.push_str(&format!(
        "{:<4} {:<50} {:>6} {:>8} {:>10}\n",
        "", "engine", "games", "points", "avg place"
    ));
    for (e, name) in names.iter().enumerate() {
        let place = standings
            .average_place(e)
            .map_or_else(|| "-".into(), |p| format!("{p:.2}"));
        out.push_str(&format!(
            "{:<4} {:<50} {:>6} {:>8.1} {:>10}\n",
            format!("e{}", e + 1),
            name,
            standings.games[e],
            standings.points[e],
            place
        ));
    }
    if tally.games() > 0 {
        out.push_str(&format!(
            "e1 vs e2: wins {} draws {} losses {} (score {:.3})\n",
            tally.wins,
            tally.draws,
            tally.losses,
            tally.score().unwrap_or(0.0)
        ));
        if let Some((elo, err)) = tally.elo() {
            out.push_str(&format!("Elo difference: {elo:+.1} ± {err:.1} (95%)\n"));
        }
        if let Some(sprt) = sprt {
            let (low, high) = sprt.bounds();
            out.push_str(&format!(
                "SPRT [{}, {}]: LLR {:.2} ({:.2}, {:.2}) {:?}\n",
                sprt.elo0,
                sprt.elo1,
                tally.llr(sprt.elo0, sprt.elo1),
                low,
                high,
                sprt.verdict(tally)
            ));
        }
    }
    let forfeits: Vec<String> = results
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.as_ref().map(|r| (i, r)))
        .flat_map(|(i, r)| {
            r.endings.iter().filter_map(move |ending| match ending {
                referee::Ending::Forfeit { seat, why } => Some(format!(
                    "game {}: e{} (p{}) {why}",
                    i + 1,
                    r.seats[*seat] + 1,
                    seat + 1
                )),
                _ => None,
            })
        })
        .collect();
    out.push_str(&format!("Forfeits: {}\n", forfeits.len()));
    for line in forfeits {
        out.push_str(&format!("  {line}\n"));
    }
    out
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
