//! The layers of the workspace, checked from the source text
//! (docs/LIBRARY.md, "Layers"; run with `cargo test --test architecture`).
//!
//! The test reads every `.rs` file of the four crates (the library `damas`,
//! `damas-protocol`, the `damas` binary and the Python binding), test modules
//! included, following the module tree from each crate's root (`mod` lines
//! and `#[path]`). From each file it takes every `use` declaration and every
//! inline path (`crate::`, `super::`, `self::`, `damas::`, `damas_protocol::`
//! and paths through a child module) and resolves it to the file that
//! defines what it names, through re-exports: a `pub use` in a `mod.rs` or
//! `lib.rs` leads on to the file that defines the item, and a module named
//! as a whole is its own file. That gives a graph of files importing files,
//! on which these rules are checked:
//!
//! 1. the front ends never name a game's own module (`draughts::`, or
//!    `spanish::` as it was named before, `chinese::`), except the single-game tools in [`FRONT_END_EXCEPTIONS`],
//!    each with its reason;
//! 2. the two games never import each other;
//! 3. each layer of the library ([`LIBRARY_LAYERS`]) imports only its own
//!    and the layers below it: the shared parts (search limits, perft
//!    tables, threads, bit sets, …) no game and no interface, the interface
//!    no game;
//! 4. no file imports a file that imports it back, directly or through any
//!    number of others (the cycle is printed). A `pub use` only hands an
//!    item on and is no import of the file that writes it, and a module may
//!    use its own submodules (it declares them): only the other direction,
//!    and every import between siblings or across the tree, counts.
//!
//! No dependency is used: the reader strips comments and string literals and
//! splits the rest into tokens, which is all the paths need.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;

#[path = "support/source_graph.rs"]
mod source_graph;

use source_graph::*;

/// The front ends: they drive the games through `damas::Game`, `AnyGame`,
/// the registry and the option table, and name no game's own module.
const FRONT_ENDS: &[&str] = &["protocol/src/", "cli/src/", "python/src/"];

/// Front-end files allowed to name a game's own module, and why: the
/// single-game tools. The CCP adapters (protocol/src/ccp.rs and the match
/// runner's cli/src/matches/ccp.rs) need no exception: they reach Chinese
/// checkers through `damas::ccp`, which takes an `AnyGame`. An exception
/// that no longer excuses anything fails the test, so the list stays true.
const FRONT_END_EXCEPTIONS: &[(&str, &str)] = &[
    (
        "cli/src/tablebase.rs",
        "`damas tablebase` builds, probes and verifies the Spanish draughts endgame tables, which exist for that game only",
    ),
    (
        "cli/src/tune.rs",
        "`damas tune` fits the weights of the Spanish draughts evaluation (spanish::tuning)",
    ),
    (
        "cli/src/tune/patterns.rs",
        "`damas tune --patterns` fits the Spanish draughts evaluation's pattern weights (spanish::tuning)",
    ),
    (
        "cli/src/datagen.rs",
        "`damas datagen` labels Spanish draughts positions for `damas tune`",
    ),
    (
        "cli/src/book.rs",
        "`damas book` builds the Spanish draughts opening book (spanish::build_book)",
    ),
    (
        "cli/src/solitaire.rs",
        "`damas solitaire` is a Chinese checkers puzzle (one army crossing alone)",
    ),
];

/// A layer of the library: its files (a path ending in `/` is a folder) and
/// the layers its files may import.
struct Layer {
    name: &'static str,
    files: &'static [&'static str],
    may_import: &'static [&'static str],
}

/// The layers of the library, bottom up. Every file of engine/src is in
/// exactly one.
const LIBRARY_LAYERS: &[Layer] = &[
    Layer {
        // Search limits, scores and timing, perft tables, threads, bit
        // sets, random numbers, memory: game-free tools of both games.
        name: "shared",
        files: &[
            "engine/src/search/",
            "engine/src/perft_table.rs",
            "engine/src/parallel.rs",
            "engine/src/bitset.rs",
            "engine/src/random.rs",
            "engine/src/huge_pages.rs",
        ],
        may_import: &["shared"],
    },
    Layer {
        // The game interface: the `Game` and `Search` traits, players,
        // the board vocabulary and the baseline players written over them.
        name: "interface",
        files: &[
            "engine/src/game.rs",
            "engine/src/board.rs",
            "engine/src/baseline.rs",
            "engine/src/reach.rs",
        ],
        may_import: &["shared", "interface"],
    },
    Layer {
        // Draughts, with `spanish.rs`, its module under the earlier name.
        name: "draughts",
        files: &["engine/src/draughts/", "engine/src/spanish.rs"],
        may_import: &["shared", "interface", "draughts"],
    },
    Layer {
        name: "chinese",
        files: &["engine/src/chinese/"],
        may_import: &["shared", "interface", "chinese"],
    },
    Layer {
        // Both games at once: the crate root, `AnyGame`/`AnyEngine`, the
        // registry and the option table, records, endgame tables, the bench
        // and the single-game formats that front ends use (PDN, CCP).
        name: "registry",
        files: &[
            "engine/src/lib.rs",
            "engine/src/any.rs",
            "engine/src/any/",
            "engine/src/options/",
            "engine/src/record.rs",
            "engine/src/endgame.rs",
            "engine/src/bench.rs",
            "engine/src/pdn/",
            "engine/src/ccp.rs",
        ],
        may_import: &["shared", "interface", "draughts", "chinese", "registry"],
    },
];

/// The two games of the library.
const GAMES: &[&str] = &["draughts", "chinese"];

/// The game a module name names: `spanish` is the draughts module under
/// its earlier name.
fn game_module(name: &str) -> Option<&'static str> {
    match name {
        "draughts" | "spanish" => Some("draughts"),
        "chinese" => Some("chinese"),
        _ => None,
    }
}

fn layer_of(file: &str) -> Option<&'static Layer> {
    LIBRARY_LAYERS.iter().find(|l| within(file, l.files))
}

// ---------------------------------------------------------------------------
// The rules.

struct Checked {
    ws: Workspace,
    edges: Vec<Edge>,
}

fn checked() -> Checked {
    let ws = Workspace::read(&workspace_root());
    let edges = ws.edges();
    Checked { ws, edges }
}

impl Checked {
    fn name(&self, file: usize) -> &str {
        &self.ws.files[file].name
    }

    fn show(&self, e: &Edge) -> String {
        format!(
            "{}:{} `{}` -> {}",
            self.name(e.from),
            e.line,
            e.text,
            self.name(e.to)
        )
    }
}

fn fail_with(rule: &str, problems: &[String]) {
    if !problems.is_empty() {
        let mut msg = format!("{rule} ({} found):\n", problems.len());
        for p in problems {
            let _ = writeln!(msg, "  {p}");
        }
        panic!("{msg}\nThe layers are drawn in docs/LIBRARY.md (\"Layers\").");
    }
}

#[test]
fn the_reader_finds_every_crate_and_the_known_modules() {
    let c = checked();
    for (k, (name, dir, root)) in CRATES.iter().enumerate() {
        let count = c.ws.files.iter().filter(|f| f.krate == k).count();
        assert!(count > 0, "{name}: no file read under {dir}/{root}");
    }
    // Every .rs file under the source folders is part of a module tree.
    let read: BTreeSet<&str> = c.ws.files.iter().map(|f| f.name.as_str()).collect();
    let mut missing = Vec::new();
    for (_, dir, _) in CRATES {
        let mut stack = vec![workspace_root().join(dir)];
        while let Some(d) = stack.pop() {
            for entry in fs::read_dir(&d).expect("a folder").flatten() {
                let p = entry.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|e| e == "rs") {
                    let rel = p
                        .strip_prefix(workspace_root())
                        .expect("inside")
                        .to_string_lossy()
                        .replace('\\', "/");
                    if !read.contains(rel.as_str()) {
                        missing.push(rel);
                    }
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "files outside every module tree: {missing:?}"
    );
    // Resolution through a re-export and across crates: `damas::AnyGame`
    // (re-exported by lib.rs) is defined in any.rs.
    let edge = c
        .edges
        .iter()
        .find(|e| c.name(e.from).starts_with("protocol/src/") && e.named == ["AnyGame"])
        .expect("the protocol names damas::AnyGame");
    assert_eq!(c.name(edge.to), "engine/src/any.rs");
}

#[test]
fn front_ends_name_no_game_module() {
    let c = checked();
    let mut problems = Vec::new();
    let mut excused: BTreeSet<&str> = BTreeSet::new();
    let damas = crate_index("damas").expect("the library");
    for e in &c.edges {
        let from = c.name(e.from);
        let names_game =
            e.krate == damas && e.named.first().is_some_and(|s| game_module(s).is_some());
        if !within(from, FRONT_ENDS) || !names_game {
            continue;
        }
        if let Some((file, _)) = FRONT_END_EXCEPTIONS.iter().find(|(f, _)| *f == from) {
            excused.insert(file);
        } else {
            problems.push(c.show(e));
        }
    }
    for (file, reason) in FRONT_END_EXCEPTIONS {
        if !excused.contains(file) {
            problems.push(format!(
                "{file} is excepted ({reason}) but names no game: drop the exception"
            ));
        }
    }
    fail_with(
        "Front ends go through damas::Game, AnyGame, GameSpec and the options, never a game's own module",
        &problems,
    );
}

#[test]
fn every_library_file_is_in_one_layer() {
    let c = checked();
    let mut problems = Vec::new();
    for f in &c.ws.files {
        if f.name.starts_with("engine/src/") {
            let count = LIBRARY_LAYERS
                .iter()
                .filter(|l| within(&f.name, l.files))
                .count();
            if count != 1 {
                problems.push(format!("{} is in {count} layers of LIBRARY_LAYERS", f.name));
            }
        }
    }
    fail_with("A library file without exactly one layer", &problems);
}

#[test]
fn the_games_do_not_import_each_other() {
    let c = checked();
    let damas = crate_index("damas");
    let mut problems = Vec::new();
    for e in &c.edges {
        let from = layer_of(c.name(e.from)).map(|l| l.name);
        let to = layer_of(c.name(e.to)).map(|l| l.name);
        let named = (Some(e.krate) == damas)
            .then(|| e.named.first().and_then(|s| game_module(s)))
            .flatten();
        let is_game = |l: Option<&str>| l.is_some_and(|l| GAMES.contains(&l));
        if is_game(from) && ((is_game(to) && to != from) || (is_game(named) && named != from)) {
            problems.push(c.show(e));
        }
    }
    fail_with("One game imports the other", &problems);
}

#[test]
fn each_library_layer_imports_only_its_own_and_the_layers_below() {
    let c = checked();
    let mut problems = Vec::new();
    for e in &c.edges {
        let (from, to) = (c.name(e.from), c.name(e.to));
        let Some(layer) = layer_of(from) else {
            continue;
        };
        match layer_of(to) {
            Some(target) if layer.may_import.contains(&target.name) => {}
            Some(target) => problems.push(format!(
                "{} (the {} layer imports the {} layer)",
                c.show(e),
                layer.name,
                target.name
            )),
            None => problems.push(format!("{} (outside the library)", c.show(e))),
        }
    }
    fail_with(
        "A library file imports a layer above its own (shared < interface < each game < registry)",
        &problems,
    );
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let c = checked();
    let n = c.ws.files.len();
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut evidence: BTreeMap<(usize, usize), &Edge> = BTreeMap::new();
    for e in &c.edges {
        let (from, to) = (&c.ws.files[e.from], &c.ws.files[e.to]);
        let own_submodule =
            to.module.len() > from.module.len() && to.module.starts_with(&from.module);
        if !e.reexport && !own_submodule && e.from != e.to && from.krate == to.krate {
            if !adj[e.from].contains(&e.to) {
                adj[e.from].push(e.to);
            }
            evidence.entry((e.from, e.to)).or_insert(e);
        }
    }
    for list in &mut adj {
        list.sort_unstable();
    }
    let mut problems = Vec::new();
    let mut comps: Vec<Vec<usize>> = components(n, &adj)
        .into_iter()
        .filter(|c| c.len() > 1)
        .collect();
    comps.sort_by_key(|c| c.iter().min().copied());
    for comp in comps {
        let members: BTreeSet<usize> = comp.iter().copied().collect();
        let start = *members.iter().next().expect("not empty");
        let cycle = shortest_cycle(start, &adj, &members);
        let mut text = String::from("cycle:");
        for (i, &f) in cycle.iter().enumerate() {
            let g = cycle[(i + 1) % cycle.len()];
            let e = evidence[&(f, g)];
            let _ = write!(text, "\n      {}:{} `{}` ->", c.name(f), e.line, e.text);
        }
        let _ = write!(text, "\n      {}", c.name(start));
        if members.len() > cycle.len() {
            let names: Vec<&str> = members.iter().map(|&f| c.name(f)).collect();
            let _ = write!(
                text,
                "\n    (all files tied in this knot: {})",
                names.join(", ")
            );
        }
        problems.push(text);
    }
    fail_with("Files import each other", &problems);
}

/// `cargo test --test architecture -- --ignored --nocapture graph` prints
/// the file graph the rules are checked on.
#[test]
#[ignore = "prints the graph"]
fn graph() {
    let c = checked();
    let mut lines: BTreeSet<String> = BTreeSet::new();
    for e in &c.edges {
        if e.from != e.to {
            lines.insert(format!("{} -> {}", c.name(e.from), c.name(e.to)));
        }
    }
    for l in lines {
        println!("{l}");
    }
}

/// docs/PERFORMANCE.md holds today's figures by topic; older ones go to
/// docs/HISTORY.md, so that the page stays one a reader can take in.
#[test]
fn the_performance_page_stays_within_600_lines() {
    let path = workspace_root().join("docs/PERFORMANCE.md");
    let text = std::fs::read_to_string(&path).expect("docs/PERFORMANCE.md reads");
    let lines = text.lines().count();
    assert!(
        lines <= 600,
        "docs/PERFORMANCE.md has {lines} lines: move older figures to docs/HISTORY.md"
    );
}

/// One name per concept: an item of the workspace is imported under its
/// own name. `use ... as` is for outside crates only (`std`'s two
/// `Ordering`s, say), and `as _` (a trait brought in for its methods) is
/// always fine.
#[test]
fn workspace_items_are_imported_under_their_own_names() {
    let c = checked();
    let root = workspace_root();
    let internal = ["crate", "super", "self", "damas", "damas_protocol"];
    let mut problems = Vec::new();
    for file in &c.ws.files {
        let src = fs::read_to_string(root.join(&file.name)).expect("the file reads");
        let code = strip(&src);
        let mut rest = code.as_str();
        let mut offset = 0;
        while let Some(at) = rest.find("use ") {
            let start = offset + at;
            let before = code[..start].chars().next_back().unwrap_or(' ');
            let Some(len) = code[start..].find(';') else {
                break;
            };
            let statement = &code[start + 4..start + len];
            offset = start + len;
            rest = &code[offset..];
            if before.is_alphanumeric() || before == '_' {
                continue;
            }
            let first = statement
                .trim_start()
                .trim_start_matches("::")
                .split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                .next()
                .unwrap_or("");
            let words: Vec<&str> = statement
                .split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                .filter(|w| !w.is_empty())
                .collect();
            let renamed = words
                .windows(2)
                .any(|pair| pair[0] == "as" && pair[1] != "_");
            if internal.contains(&first) && renamed {
                let line = code[..start].matches('\n').count() + 1;
                problems.push(format!(
                    "{}:{line} `use {}`",
                    file.name,
                    statement.split_whitespace().collect::<Vec<_>>().join(" ")
                ));
            }
        }
    }
    fail_with("Workspace items imported under another name", &problems);
}
