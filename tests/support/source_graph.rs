//! The reader behind tests/architecture.rs: every `.rs` file of the
//! workspace's crates, its module tree, and the graph of files importing
//! files (comments and strings stripped, the rest split into tokens), with
//! the strongly connected components and a shortest cycle in each.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fs;
use std::path::{Path, PathBuf};

/// The crates read: the name their paths use, their source folder and root.
pub const CRATES: &[(&str, &str, &str)] = &[
    ("damas", "engine/src", "lib.rs"),
    ("damas_protocol", "protocol/src", "lib.rs"),
    ("damas_cli", "cli/src", "main.rs"),
    ("damas_py", "python/src", "lib.rs"),
];

// ---------------------------------------------------------------------------
// Reading: comments and strings out, tokens in.

/// The source with comments removed and string and character literals
/// emptied, line breaks kept so that line numbers stay right.
pub fn strip(src: &str) -> String {
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
pub enum Tok {
    Ident(String),
    Punct(char),
    /// `::`
    Path,
}

/// The tokens of stripped source, each with its line (1-based).
pub fn tokens(code: &str) -> Vec<(Tok, usize)> {
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

pub type ModPath = Vec<String>;

/// One `use` leaf: `use a::b::{c as d, e::*};` gives `a::b::c` bound as `d`
/// and the glob `a::b::e::*`.
#[derive(Debug, Clone)]
pub struct UseLeaf {
    pub path: Vec<String>,
    /// The name it binds (`None` for `as _`); globs bind nothing.
    pub binding: Option<String>,
    pub glob: bool,
}

/// A path named in a file, by a `use` line or inline.
#[derive(Debug, Clone)]
pub struct Mention {
    /// The module the path is written in (inline modules included).
    pub module: ModPath,
    pub path: Vec<String>,
    pub line: usize,
    /// A `pub use`: the file hands the item on without using it itself.
    pub reexport: bool,
}

#[derive(Debug, Default)]
pub struct Module {
    pub file: usize,
    pub items: BTreeSet<String>,
    pub bindings: BTreeMap<String, Vec<String>>,
    pub globs: Vec<Vec<String>>,
    pub children: BTreeSet<String>,
}

#[derive(Debug)]
pub struct SourceFile {
    pub krate: usize,
    /// Relative to the workspace root, with `/`.
    pub name: String,
    pub module: ModPath,
    pub mentions: Vec<Mention>,
}

#[derive(Default)]
pub struct Workspace {
    pub files: Vec<SourceFile>,
    /// Per crate: module path → module.
    pub modules: Vec<HashMap<ModPath, Module>>,
}

pub fn crate_index(name: &str) -> Option<usize> {
    CRATES.iter().position(|(n, _, _)| *n == name)
}

pub fn ident(tok: Option<&(Tok, usize)>) -> Option<&str> {
    match tok {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

pub fn punct(tok: Option<&(Tok, usize)>, c: char) -> bool {
    matches!(tok, Some((Tok::Punct(p), _)) if *p == c)
}

/// Parses a use tree from `toks[*i]` up to its `;`, appending its leaves.
pub fn use_tree(
    toks: &[(Tok, usize)],
    i: &mut usize,
    prefix: &[String],
    leaves: &mut Vec<UseLeaf>,
) {
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
pub fn is_pub(before: &[(Tok, usize)]) -> bool {
    match before.last() {
        Some((Tok::Ident(w), _)) => w == "pub",
        Some((Tok::Punct(')'), _)) => {
            let open = before.iter().rposition(|(t, _)| *t == Tok::Punct('('));
            open.is_some_and(|o| o > 0 && ident(before.get(o - 1)) == Some("pub"))
        }
        _ => false,
    }
}

pub const ITEM_KEYWORDS: &[&str] = &[
    "struct", "enum", "fn", "trait", "type", "const", "static", "union",
];

/// What one file declares: child modules (name, `#[path]`), items and uses
/// per (inline) module, and its mentions.
pub struct Parsed {
    pub file_modules: Vec<(String, Option<String>)>,
    pub items: Vec<(ModPath, String)>,
    /// (module, leaf, line, re-exported)
    pub uses: Vec<(ModPath, UseLeaf, usize, bool)>,
    pub inline_modules: Vec<ModPath>,
    /// Paths written outside `use` lines, with the module they are in.
    pub paths: Vec<(ModPath, Vec<String>, usize)>,
}

pub fn parse(src: &str, module: &ModPath) -> Parsed {
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
    pub fn read(root: &Path) -> Workspace {
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
    pub fn absolute(
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
    pub fn resolve(&self, krate: usize, path: &[String], depth: usize) -> Option<(usize, usize)> {
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
    pub fn resolve_strict(
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
    pub fn prefix_file(&self, krate: usize, path: &[String]) -> Option<(usize, usize)> {
        let modules = &self.modules[krate];
        (0..=path.len())
            .rev()
            .find_map(|n| modules.get(&path[..n]))
            .map(|m| (krate, m.file))
    }

    /// Every mention of every file: (from file, to crate, to file, line, path text).
    pub fn edges(&self) -> Vec<Edge> {
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
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub line: usize,
    /// The crate of the path named.
    pub krate: usize,
    /// The absolute path named, in that crate.
    pub named: Vec<String>,
    pub text: String,
    /// From a `pub use`, which hands an item on (not a use of it).
    pub reexport: bool,
}

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

pub fn within(file: &str, parts: &[&str]) -> bool {
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

pub fn components(n: usize, adj: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        adj: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    pub fn visit(s: &mut State, v: usize) {
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
pub fn shortest_cycle(start: usize, adj: &[Vec<usize>], members: &BTreeSet<usize>) -> Vec<usize> {
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
