//! [`AnyEngine`]: the search context of an [`AnyGame`], holding the engine
//! of the game being played.

use std::sync::atomic::AtomicBool;

use crate::any::{AnyGame, AnyMove};
use crate::game::Search;
use crate::search::{EngineOptions, SearchInfo, SearchLimits, SearchResult};
use crate::{chinese, spanish};

/// The search context of an [`AnyGame`]: the engine of the game last
/// searched, made on the first search (so a session that only reads
/// options allocates no table) and dropped when the game changes, so that
/// at most one transposition table of `hash_mb` MiB exists at a time.
#[derive(Debug)]
pub struct AnyEngine {
    hash_mb: usize,
    options: EngineOptions,
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
    SearchInfo {
        depth: info.depth,
        seldepth: info.seldepth,
        score: info.score,
        nodes: info.nodes,
        time: info.time,
        hashfull: info.hashfull,
        pv: info.pv.iter().copied().map(f).collect(),
    }
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
}

impl Search<AnyGame> for AnyEngine {
    fn new(hash_mb: usize) -> AnyEngine {
        AnyEngine {
            hash_mb,
            options: EngineOptions::default(),
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

    fn search(
        &mut self,
        game: &AnyGame,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo<AnyMove>),
    ) -> SearchResult<AnyMove> {
        match game {
            AnyGame::Spanish(game) => {
                // Taking the engine out leaves no table behind: the other
                // game's table is freed before a new one is made.
                let mut engine = match std::mem::take(&mut self.inner) {
                    Inner::Spanish(engine) => engine,
                    other => {
                        drop(other);
                        let mut engine = spanish::Engine::new(self.hash_mb);
                        engine.set_options(&self.options);
                        Box::new(engine)
                    }
                };
                let result = engine.search(game, limits, stop, &mut |info| {
                    on_info(&map_info(info, AnyMove::Spanish))
                });
                self.inner = Inner::Spanish(engine);
                map_result(result, AnyMove::Spanish)
            }
            AnyGame::Chinese(game) => {
                let mut engine = match std::mem::take(&mut self.inner) {
                    Inner::Chinese(engine) => engine,
                    other => {
                        drop(other);
                        let mut engine = chinese::Engine::new(self.hash_mb);
                        engine.set_options(&self.options);
                        Box::new(engine)
                    }
                };
                let result = engine.search(game, limits, stop, &mut |info| {
                    on_info(&map_info(info, AnyMove::Chinese))
                });
                self.inner = Inner::Chinese(engine);
                map_result(result, AnyMove::Chinese)
            }
        }
    }
}
