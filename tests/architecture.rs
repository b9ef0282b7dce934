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
//! 1. the front ends never name a game's own module (`spanish::`,
//!    `chinese::`), except the single-game tools in [`FRONT_END_EXCEPTIONS`],
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

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// The crates read: the name their paths use, their source folder and root.
const CRATES: &[(&str, &str, &str)] = &[
    ("damas", "engine/src", "lib.rs"),
    ("damas_protocol", "protocol/src", "lib.rs"),
    ("damas_cli", "cli/src", "main.rs"),
    ("damas_py", "python/src", "lib.rs"),
];

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
        "cli/src/datagen.rs",
        "`damas datagen` labels Spanish draughts positions for `damas tune`",
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
        ],
        may_import: &["shared", "interface"],
    },
    Layer {
        name: "spanish",
        files: &["engine/src/spanish/"],
        may_import: &["shared", "interface", "spanish"],
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
        may_import: &["shared", "interface", "spanish", "chinese", "registry"],
    },
];

/// The two games of the library.
const GAMES: &[&str] = &["spanish", "chinese"];

fn layer_of(file: &str) -> Option<&'static Layer> {
    LIBRARY_LAYERS.iter().find(|l| within(file, l.files))
}

// ---------------------------------------------------------------------------
// Reading: comments and strings out, tokens in.

/// The source with comments removed and string and character literals
/// emptied, line breaks kept so that line numbers stay right.
fn strip(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if (c == 'r' || (c == 'b' && next == Some('r')))
            && (i == 0 || !ident(chars[i - 1]))
            && {
                let mut j = i + if c == 'b' { 2 } else { 1 };
                while chars.get(j) == Some(&'#') {
                    j += 1;
                }
                chars.get(j) == Some(&'"')
            }
        {
            // A raw string: r"…", r#"…"#, br"…".
            let mut j = i + if c == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while chars[j] == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                if chars[j] == '\n' {
                    out.push('\n');
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if chars.get(i) == Some(&'\n') {
                    out.push('\n');
                }
                i += 1;
            }
            out.push_str("\"\"");
            i += 1;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\'') or a lifetime ('a).
            if next == Some('\\') {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                out.push_str("' '");
                i += 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                out.push_str("' '");
                i += 3;
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Punct(char),
    /// `::`
    Path,
}

/// The tokens of stripped source, each with its line (1-based).
fn tokens(code: &str) -> Vec<(Tok, usize)> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let start = i;
            i += 1;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let mut word: String = chars[start..i].iter().collect();
            // A raw identifier: r#type.
            if word == "r" && chars.get(i) == Some(&'#') {
                let s = i + 1;
                i = s;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                word = chars[s..i].iter().collect();
            }
            out.push((Tok::Ident(word), line));
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push((Tok::Path, line));
            i += 2;
        } else {
            out.push((Tok::Punct(c), line));
            i += 1;
        }
    }
    out
}

// ---------------------------------------------------------------------------
// The module tree and what each module defines and imports.

type ModPath = Vec<String>;

/// One `use` leaf: `use a::b::{c as d, e::*};` gives `a::b::c` bound as `d`
/// and the glob `a::b::e::*`.
#[derive(Debug, Clone)]
struct UseLeaf {
    path: Vec<String>,
    /// The name it binds (`None` for `as _`); globs bind nothing.
    binding: Option<String>,
    glob: bool,
}

/// A path named in a file, by a `use` line or inline.
#[derive(Debug, Clone)]
struct Mention {
    /// The module the path is written in (inline modules included).
    module: ModPath,
    path: Vec<String>,
    line: usize,
    /// A `pub use`: the file hands the item on without using it itself.
    reexport: bool,
}

#[derive(Debug, Default)]
struct Module {
    file: usize,
    items: BTreeSet<String>,
    bindings: BTreeMap<String, Vec<String>>,
    globs: Vec<Vec<String>>,
    children: BTreeSet<String>,
}

#[derive(Debug)]
struct SourceFile {
    krate: usize,
    /// Relative to the workspace root, with `/`.
    name: String,
    module: ModPath,
    mentions: Vec<Mention>,
}

#[derive(Default)]
struct Workspace {
    files: Vec<SourceFile>,
    /// Per crate: module path → module.
    modules: Vec<HashMap<ModPath, Module>>,
}

fn crate_index(name: &str) -> Option<usize> {
    CRATES.iter().position(|(n, _, _)| *n == name)
}

fn ident(tok: Option<&(Tok, usize)>) -> Option<&str> {
    match tok {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

fn punct(tok: Option<&(Tok, usize)>, c: char) -> bool {
    matches!(tok, Some((Tok::Punct(p), _)) if *p == c)
}

/// Parses a use tree from `toks[*i]` up to its `;`, appending its leaves.
fn use_tree(toks: &[(Tok, usize)], i: &mut usize, prefix: &[String], leaves: &mut Vec<UseLeaf>) {
    let mut path = prefix.to_vec();
    loop {
        match toks.get(*i) {
            Some((Tok::Ident(s), _)) if s == "as" => {
                *i += 1;
                let alias = ident(toks.get(*i)).map(str::to_string);
                *i += 1;
                leaves.push(UseLeaf {
                    path,
                    binding: alias.filter(|a| a != "_"),
                    glob: false,
                });
                return;
            }
            Some((Tok::Ident(s), _)) => {
                path.push(s.clone());
                *i += 1;
            }
            Some((Tok::Path, _)) => *i += 1,
            Some((Tok::Punct('*'), _)) => {
                *i += 1;
                leaves.push(UseLeaf {
                    path,
                    binding: None,
                    glob: true,
                });
                return;
            }
            Some((Tok::Punct('{'), _)) => {
                *i += 1;
                loop {
                    match toks.get(*i) {
                        Some((Tok::Punct('}'), _)) => {
                            *i += 1;
                            return;
                        }
                        Some((Tok::Punct(','), _)) => *i += 1,
                        None => return,
                        _ => use_tree(toks, i, &path, leaves),
                    }
                }
            }
            _ => {
                // `,`, `}` or `;` ends this leaf.
                if let Some(last) = path.last().cloned() {
                    if last == "self" {
                        path.pop();
                        let name = path.last().cloned();
                        leaves.push(UseLeaf {
                            path,
                            binding: name,
                            glob: false,
                        });
                    } else {
                        leaves.push(UseLeaf {
                            path,
                            binding: Some(last),
                            glob: false,
                        });
                    }
                }
                return;
            }
        }
    }
}

/// Whether the tokens before a `use` end in a visibility: `pub`,
/// `pub(crate)`, `pub(super)`, `pub(in path)`.
fn is_pub(before: &[(Tok, usize)]) -> bool {
    match before.last() {
        Some((Tok::Ident(w), _)) => w == "pub",
        Some((Tok::Punct(')'), _)) => {
            let open = before.iter().rposition(|(t, _)| *t == Tok::Punct('('));
            open.is_some_and(|o| o > 0 && ident(before.get(o - 1)) == Some("pub"))
        }
        _ => false,
    }
}

const ITEM_KEYWORDS: &[&str] = &[
    "struct", "enum", "fn", "trait", "type", "const", "static", "union",
];

/// What one file declares: child modules (name, `#[path]`), items and uses
/// per (inline) module, and its mentions.
struct Parsed {
    file_modules: Vec<(String, Option<String>)>,
    items: Vec<(ModPath, String)>,
    /// (module, leaf, line, re-exported)
    uses: Vec<(ModPath, UseLeaf, usize, bool)>,
    inline_modules: Vec<ModPath>,
    /// Paths written outside `use` lines, with the module they are in.
    paths: Vec<(ModPath, Vec<String>, usize)>,
}

fn parse(src: &str, module: &ModPath) -> Parsed {
    // `#[path = "…"]` needs the string, so it is read from the raw lines:
    // the line of each `mod` line that carries one → the path.
    let mut path_attrs: HashMap<usize, String> = HashMap::new();
    let mut pending: Option<String> = None;
    for (n, line) in src.lines().enumerate() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("#[path = \"") {
            pending = rest.split('"').next().map(str::to_string);
        } else if !t.starts_with("#[") {
            // Other attributes may stand between; the next line ends it.
            if let Some(p) = pending.take().filter(|_| t.contains("mod ")) {
                path_attrs.insert(n + 1, p);
            }
        }
    }

    let code = strip(src);
    let toks = tokens(&code);
    let mut out = Parsed {
        file_modules: Vec::new(),
        items: Vec::new(),
        uses: Vec::new(),
        inline_modules: Vec::new(),
        paths: Vec::new(),
    };
    // (name, brace depth inside the module)
    let mut stack: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let current = |stack: &Vec<(String, usize)>| {
        let mut m = module.clone();
        m.extend(stack.iter().map(|(n, _)| n.clone()));
        m
    };
    let scope_depth = |stack: &Vec<(String, usize)>| stack.last().map_or(0, |(_, d)| *d);
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Tok::Punct('}') => {
                if stack.last().is_some_and(|(_, d)| *d == depth) {
                    stack.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            Tok::Ident(w) if w == "mod" => {
                let name = ident(toks.get(i + 1)).map(str::to_string);
                match (name, toks.get(i + 2)) {
                    (Some(name), Some((Tok::Punct(';'), _))) => {
                        let attr = path_attrs.get(&toks[i].1).cloned();
                        out.file_modules.push((name, attr));
                        i += 3;
                    }
                    (Some(name), Some((Tok::Punct('{'), _))) => {
                        depth += 1;
                        stack.push((name, depth));
                        out.inline_modules.push(current(&stack));
                        i += 3;
                    }
                    _ => i += 1,
                }
            }
            Tok::Ident(w) if w == "use" => {
                let line = toks[i].1;
                let reexport = is_pub(&toks[..i]);
                i += 1;
                let mut leaves = Vec::new();
                use_tree(&toks, &mut i, &[], &mut leaves);
                let here = current(&stack);
                for leaf in leaves {
                    out.uses.push((here.clone(), leaf, line, reexport));
                }
            }
            Tok::Ident(w) if w == "macro_rules" && punct(toks.get(i + 1), '!') => {
                if let Some(name) = ident(toks.get(i + 2)) {
                    out.items.push((current(&stack), name.to_string()));
                }
                i += 3;
            }
            Tok::Ident(w) if ITEM_KEYWORDS.contains(&w.as_str()) => {
                // Items of the module itself, not of a body or an `impl`
                // (and not the `static` of a `'static` lifetime).
                let lifetime = i > 0 && punct(toks.get(i - 1), '\'');
                if depth == scope_depth(&stack) && !lifetime {
                    if let Some(name) = ident(toks.get(i + 1)) {
                        if name != "_" && !ITEM_KEYWORDS.contains(&name) {
                            out.items.push((current(&stack), name.to_string()));
                        }
                    }
                }
                i += 1;
            }
            Tok::Ident(first)
                if !matches!(toks.get(i.wrapping_sub(1)), Some((Tok::Path, _)))
                    && matches!(toks.get(i + 1), Some((Tok::Path, _))) =>
            {
                let line = toks[i].1;
                let mut segs = vec![first.clone()];
                let mut j = i + 1;
                while matches!(toks.get(j), Some((Tok::Path, _))) {
                    match ident(toks.get(j + 1)) {
                        Some(s) => {
                            segs.push(s.to_string());
                            j += 2;
                        }
                        None => break,
                    }
                }
                out.paths.push((current(&stack), segs, line));
                i = j;
            }
            _ => i += 1,
        }
    }
    out
}

impl Workspace {
    fn read(root: &Path) -> Workspace {
        let mut ws = Workspace::default();
        for (k, (_, dir, root_file)) in CRATES.iter().enumerate() {
            ws.modules.push(HashMap::new());
            let mut queue: VecDeque<(PathBuf, ModPath)> = VecDeque::new();
            queue.push_back((root.join(dir).join(root_file), Vec::new()));
            let mut uses = Vec::new();
            let mut paths = Vec::new();
            while let Some((file, module)) = queue.pop_front() {
                let src = fs::read_to_string(&file)
                    .unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
                let id = ws.files.len();
                let name = file
                    .strip_prefix(root)
                    .expect("inside the workspace")
                    .to_string_lossy()
                    .replace('\\', "/");
                let parsed = parse(&src, &module);
                // Where this file's child modules live.
                let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
                let dir_of_file = file.parent().expect("a folder").to_path_buf();
                let child_dir = if module.is_empty() || stem == "mod" {
                    dir_of_file.clone()
                } else {
                    dir_of_file.join(stem)
                };
                ws.modules[k].entry(module.clone()).or_default().file = id;
                for m in &parsed.inline_modules {
                    ws.modules[k].entry(m.clone()).or_default().file = id;
                    let (last, parent) = m.split_last().expect("named");
                    ws.modules[k]
                        .entry(parent.to_vec())
                        .or_default()
                        .children
                        .insert(last.clone());
                }
                for (child, attr) in &parsed.file_modules {
                    let path = match attr {
                        Some(p) => dir_of_file.join(p),
                        None => {
                            let flat = child_dir.join(format!("{child}.rs"));
                            if flat.exists() {
                                flat
                            } else {
                                child_dir.join(child).join("mod.rs")
                            }
                        }
                    };
                    let mut m = module.clone();
                    m.push(child.clone());
                    ws.modules[k]
                        .entry(module.clone())
                        .or_default()
                        .children
                        .insert(child.clone());
                    queue.push_back((path, m));
                }
                for (m, item) in parsed.items {
                    ws.modules[k].entry(m).or_default().items.insert(item);
                }
                uses.extend(parsed.uses.into_iter().map(|u| (id, u)));
                paths.extend(parsed.paths.into_iter().map(|p| (id, p)));
                ws.files.push(SourceFile {
                    krate: k,
                    name,
                    module,
                    mentions: Vec::new(),
                });
            }
            // Bindings first (a `use` binds its name in its module) ...
            for (_, (m, leaf, _, _)) in &uses {
                let module = ws.modules[k].entry(m.clone()).or_default();
                if leaf.glob {
                    module.globs.push(leaf.path.clone());
                } else if let Some(b) = &leaf.binding {
                    module.bindings.insert(b.clone(), leaf.path.clone());
                }
            }
            // ... then the mentions, which need every binding.
            for (id, (m, leaf, line, reexport)) in uses {
                ws.files[id].mentions.push(Mention {
                    module: m,
                    path: leaf.path,
                    line,
                    reexport,
                });
            }
            for (id, (m, segs, line)) in paths {
                let first = segs[0].as_str();
                let relative = ws.modules[k]
                    .get(&m)
                    .is_some_and(|module| module.children.contains(first));
                let anchored = matches!(first, "crate" | "$crate" | "super" | "self")
                    || crate_index(first).is_some();
                if relative || anchored {
                    ws.files[id].mentions.push(Mention {
                        module: m,
                        path: segs,
                        line,
                        reexport: false,
                    });
                }
            }
        }
        ws
    }

    /// The crate and absolute module path a path written in `module` of
    /// crate `krate` names, or `None` outside the workspace (std, …).
    fn absolute(
        &self,
        krate: usize,
        module: &[String],
        path: &[String],
    ) -> Option<(usize, Vec<String>)> {
        let first = path.first()?;
        match first.as_str() {
            "crate" | "$crate" => Some((krate, path[1..].to_vec())),
            "self" => {
                let mut m = module.to_vec();
                m.extend_from_slice(&path[1..]);
                Some((krate, m))
            }
            "super" => {
                let mut m = module.to_vec();
                let mut rest = path;
                while rest.first().is_some_and(|s| s == "super") {
                    m.pop();
                    rest = &rest[1..];
                }
                m.extend_from_slice(rest);
                Some((krate, m))
            }
            name => {
                let here = self.modules[krate].get(module);
                let local = here.is_some_and(|m| {
                    m.children.contains(name)
                        || m.items.contains(name)
                        || m.bindings.contains_key(name)
                });
                if local {
                    let mut m = module.to_vec();
                    m.extend_from_slice(path);
                    Some((krate, m))
                } else {
                    crate_index(name).map(|k| (k, path[1..].to_vec()))
                }
            }
        }
    }

    /// The file that defines what an absolute path names, following
    /// bindings and globs; `None` when it cannot be found.
    fn resolve(&self, krate: usize, path: &[String], depth: usize) -> Option<(usize, usize)> {
        if depth > 24 {
            return None;
        }
        let modules = &self.modules[krate];
        let mut n = path.len();
        while n > 0 && !modules.contains_key(&path[..n]) {
            n -= 1;
        }
        let module = modules.get(&path[..n])?;
        if n == path.len() {
            return Some((krate, module.file));
        }
        let name = &path[n];
        if module.items.contains(name) {
            return Some((krate, module.file));
        }
        if let Some(target) = module.bindings.get(name) {
            let (k, mut abs) = self.absolute(krate, &path[..n], target)?;
            abs.extend_from_slice(&path[n + 1..]);
            return self
                .resolve(k, &abs, depth + 1)
                .or_else(|| self.prefix_file(k, &abs));
        }
        for glob in &module.globs {
            if let Some((k, mut abs)) = self.absolute(krate, &path[..n], glob) {
                if abs == path[..n] {
                    continue; // `use self::*`
                }
                abs.extend_from_slice(&path[n..]);
                let found = self.resolve_strict(k, &abs, depth + 1);
                if found.is_some() {
                    return found;
                }
            }
        }
        None
    }

    /// Like `resolve`, but only an item actually found counts.
    fn resolve_strict(
        &self,
        krate: usize,
        path: &[String],
        depth: usize,
    ) -> Option<(usize, usize)> {
        let modules = &self.modules[krate];
        let mut n = path.len();
        while n > 0 && !modules.contains_key(&path[..n]) {
            n -= 1;
        }
        if n == path.len() {
            return modules.get(path).map(|m| (krate, m.file));
        }
        let module = modules.get(&path[..n])?;
        let name = &path[n];
        if module.items.contains(name)
            || module.bindings.contains_key(name)
            || module.children.contains(name)
        {
            return self.resolve(krate, path, depth);
        }
        None
    }

    /// The file of the longest module prefix of a path.
    fn prefix_file(&self, krate: usize, path: &[String]) -> Option<(usize, usize)> {
        let modules = &self.modules[krate];
        (0..=path.len())
            .rev()
            .find_map(|n| modules.get(&path[..n]))
            .map(|m| (krate, m.file))
    }

    /// Every mention of every file: (from file, to crate, to file, line, path text).
    fn edges(&self) -> Vec<Edge> {
        let mut out = Vec::new();
        for (id, file) in self.files.iter().enumerate() {
            for m in &file.mentions {
                let Some((k, abs)) = self.absolute(file.krate, &m.module, &m.path) else {
                    continue;
                };
                let target = self
                    .resolve(k, &abs, 0)
                    .or_else(|| self.prefix_file(k, &abs));
                if let Some((_, to)) = target {
                    out.push(Edge {
                        from: id,
                        to,
                        line: m.line,
                        krate: k,
                        named: abs.clone(),
                        text: m.path.join("::"),
                        reexport: m.reexport,
                    });
                }
            }
        }
        out
    }
}

#[derive(Debug, Clone)]
struct Edge {
    from: usize,
    to: usize,
    line: usize,
    /// The crate of the path named.
    krate: usize,
    /// The absolute path named, in that crate.
    named: Vec<String>,
    text: String,
    /// From a `pub use`, which hands an item on (not a use of it).
    reexport: bool,
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

fn within(file: &str, parts: &[&str]) -> bool {
    parts.iter().any(|p| {
        if p.ends_with('/') {
            file.starts_with(p)
        } else {
            file == *p
        }
    })
}

// ---------------------------------------------------------------------------
// Cycles: strongly connected components (Tarjan), then a shortest cycle in each.

fn components(n: usize, adj: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        adj: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &s.adj[v] {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                _ => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().expect("on the stack");
                s.on_stack[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            s.out.push(comp);
        }
    }
    let mut s = State {
        adj,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

/// A shortest cycle through `start` inside `members`.
fn shortest_cycle(start: usize, adj: &[Vec<usize>], members: &BTreeSet<usize>) -> Vec<usize> {
    let mut prev: HashMap<usize, usize> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for &w in &adj[v] {
            if !members.contains(&w) {
                continue;
            }
            if w == start {
                let mut path = vec![v];
                let mut at = v;
                while at != start {
                    at = prev[&at];
                    path.push(at);
                }
                path.reverse();
                return path;
            }
            if let std::collections::hash_map::Entry::Vacant(e) = prev.entry(w) {
                e.insert(v);
                queue.push_back(w);
            }
        }
    }
    vec![start]
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
        let names_game = e.krate == damas
            && e.named
                .first()
                .is_some_and(|s| s == "spanish" || s == "chinese");
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
            .then(|| e.named.first().map(String::as_str))
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
