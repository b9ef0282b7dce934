//! [`AnyEngine`]: the search context of an [`AnyGame`], the engine of the
//! game searched last.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::AnyGame;
use super::AnyMove;
use crate::chinese;
use crate::game::{GameKind, Search};
use crate::search::{EngineOptions, SearchInfo, SearchLimits, SearchResult};
use crate::spanish;
use crate::spanish::tablebase::Tablebase;

/// The search context of an [`AnyGame`]: the engine of the game last
/// searched, made on the first search (so a session that only reads
/// options allocates no table) and dropped when the game changes, so that
/// at most one transposition table of `hash_mb` MiB exists at a time.
#[derive(Debug)]
pub struct AnyEngine {
    hash_mb: usize,
    options: EngineOptions,
    tablebase: Option<Arc<Tablebase>>,
    inner: Inner,
}

#[derive(Debug, Default)]
enum Inner {
    #[default]
    None,
    Spanish(Box<spanish::Engine>),
    Chinese(Box<chinese::Engine>),
}

fn map_info<M, N>(info: &SearchInfo<M>, f: impl Fn(M) -> N) -> SearchInfo<N>
where
    M: Copy,
{
    info.with_pv(info.pv.iter().copied().map(f).collect())
}

fn map_result<M: Copy, N>(result: SearchResult<M>, f: impl Fn(M) -> N) -> SearchResult<N> {
    SearchResult {
        best: result.best.map(&f),
        score: result.score,
        depth: result.depth,
        nodes: result.nodes,
        pv: result.pv.into_iter().map(f).collect(),
    }
}

impl AnyEngine {
    /// The table size asked for, in MiB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// The Spanish draughts endgame tables the searches probe, or none
    /// (see [`spanish::Engine::set_tablebase`]); Chinese checkers has none.
    pub fn set_tablebase(&mut self, tablebase: Option<Arc<Tablebase>>) {
        if let Inner::Spanish(engine) = &mut self.inner {
            engine.set_tablebase(tablebase.clone());
        }
        self.tablebase = tablebase;
    }

    /// Makes the search context of `kind` (freeing the other game's
    /// first) and its transposition table resident ([`Search::prepare`]),
    /// so that the next search of that game starts at full speed.
    pub fn prepare_for(&mut self, kind: GameKind) {
        match kind {
            GameKind::Spanish => self.spanish().prepare(),
            GameKind::Chinese | GameKind::Japanese => self.chinese().prepare(),
        }
    }

    /// Whether the search context of `kind` is made and its table resident.
    pub fn is_prepared_for(&self, kind: GameKind) -> bool {
        self.holds(kind) && self.is_prepared()
    }

    /// Forgets everything learned, for a new game of `kind`: that game's
    /// table emptied in place, or made if another game was searched last;
    /// resident either way.
    pub fn clear_for(&mut self, kind: GameKind) {
        if self.holds(kind) {
            self.clear();
        } else {
            self.prepare_for(kind);
        }
    }

    /// Forgets everything learned about `kind` if its context is made,
    /// without making one (a table for another game waits for
    /// [`AnyEngine::prepare_for`] or the next search).
    pub fn forget(&mut self, kind: GameKind) {
        if self.holds(kind) {
            self.clear();
        }
    }

    /// Whether the context made is the one of `kind`.
    fn holds(&self, kind: GameKind) -> bool {
        matches!(
            (&self.inner, kind),
            (Inner::Spanish(_), GameKind::Spanish)
                | (Inner::Chinese(_), GameKind::Chinese | GameKind::Japanese)
        )
    }

    /// The Spanish draughts context, made with the options if another game
    /// (or none) was searched last: that game's table is freed first.
    fn spanish(&mut self) -> &mut spanish::Engine {
        if !matches!(self.inner, Inner::Spanish(_)) {
            self.inner = Inner::None;
            let mut engine = spanish::Engine::new(self.hash_mb);
            engine.set_options(&self.options);
            engine.set_tablebase(self.tablebase.clone());
            self.inner = Inner::Spanish(Box::new(engine));
        }
        match &mut self.inner {
            Inner::Spanish(engine) => engine,
            _ => unreachable!("made above"),
        }
    }

    /// The Chinese checkers context, made as [`AnyEngine::spanish`] makes
    /// its.
    fn chinese(&mut self) -> &mut chinese::Engine {
        if !matches!(self.inner, Inner::Chinese(_)) {
            self.inner = Inner::None;
            let mut engine = chinese::Engine::new(self.hash_mb);
            engine.set_options(&self.options);
            self.inner = Inner::Chinese(Box::new(engine));
        }
        match &mut self.inner {
            Inner::Chinese(engine) => engine,
            _ => unreachable!("made above"),
        }
    }
}

impl Search<AnyGame> for AnyEngine {
    fn new(hash_mb: usize) -> AnyEngine {
        AnyEngine {
            hash_mb,
            options: EngineOptions::default(),
            tablebase: None,
            inner: Inner::None,
        }
    }

    fn set_hash(&mut self, hash_mb: usize) {
        self.hash_mb = hash_mb;
        match &mut self.inner {
            Inner::None => {}
            Inner::Spanish(engine) => engine.set_hash(hash_mb),
            Inner::Chinese(engine) => engine.set_hash(hash_mb),
        }
    }

    fn set_options(&mut self, options: &EngineOptions) {
        self.options = *options;
        match &mut self.inner {
            Inner::None => {}
            Inner::Spanish(engine) => engine.set_options(options),
            Inner::Chinese(engine) => engine.set_options(options),
        }
    }

    fn clear(&mut self) {
        match &mut self.inner {
            Inner::None => {}
            Inner::Spanish(engine) => engine.clear(),
            Inner::Chinese(engine) => engine.clear(),
        }
    }

    /// Prepares the context of the game searched last, if any
    /// ([`AnyEngine::prepare_for`] names the game).
    fn prepare(&mut self) {
        match &mut self.inner {
            Inner::None => {}
            Inner::Spanish(engine) => engine.prepare(),
            Inner::Chinese(engine) => engine.prepare(),
        }
    }

    fn is_prepared(&self) -> bool {
        match &self.inner {
            Inner::None => false,
            Inner::Spanish(engine) => engine.is_prepared(),
            Inner::Chinese(engine) => engine.is_prepared(),
        }
    }

    fn search(
        &mut self,
        game: &AnyGame,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo<AnyMove>),
    ) -> SearchResult<AnyMove> {
        match game {
            AnyGame::Spanish(game) => {
                let result = self.spanish().search(game, limits, stop, &mut |info| {
                    on_info(&map_info(info, AnyMove::Spanish))
                });
                map_result(result, AnyMove::Spanish)
            }
            AnyGame::Chinese(game) => {
                let result = self.chinese().search(game, limits, stop, &mut |info| {
                    on_info(&map_info(info, AnyMove::Chinese))
                });
                map_result(result, AnyMove::Chinese)
            }
        }
    }
}
