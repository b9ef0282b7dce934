//! [`AnyEngine`]: the search context of an [`AnyGame`]. TEMPORARY shape
//! until the search branch lands.

use std::sync::atomic::AtomicBool;

use crate::any::AnyGame;
use crate::game::Game;
use crate::search::{SearchInfo, SearchLimits, Style};

/// Settings from options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Threads.
    pub threads: usize,
    /// Style.
    pub style: Style,
    /// Beam width.
    pub beam_width: usize,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            threads: 1,
            style: Style::Best,
            beam_width: 64,
        }
    }
}

/// Search context of both games.
#[derive(Debug)]
pub struct AnyEngine {
    hash_mb: usize,
    spanish: Option<crate::spanish::search::TranspositionTable>,
    options: EngineOptions,
}

impl AnyEngine {
    /// New, lazy.
    pub fn new(hash_mb: usize) -> AnyEngine {
        AnyEngine {
            hash_mb,
            spanish: None,
            options: EngineOptions::default(),
        }
    }
    /// Resize.
    pub fn set_hash(&mut self, hash_mb: usize) {
        if hash_mb != self.hash_mb {
            self.hash_mb = hash_mb;
            self.spanish = None;
        }
    }
    /// Options.
    pub fn set_options(&mut self, options: &EngineOptions) {
        self.options = *options;
    }
    /// Clear.
    pub fn clear(&mut self) {
        if let Some(tt) = &self.spanish {
            tt.clear();
        }
    }
    /// Search.
    pub fn search(
        &mut self,
        game: &AnyGame,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<String> {
        if game.is_over() {
            return None;
        }
        match game {
            AnyGame::Spanish(g) => {
                let hash = self.hash_mb;
                let tt = self
                    .spanish
                    .get_or_insert_with(|| crate::spanish::search::TranspositionTable::new(hash));
                let params = crate::spanish::search::SearchParams {
                    threads: self.options.threads,
                    style: self.options.style,
                };
                let r = crate::spanish::search::search(g, limits, tt, &params, stop, on_info);
                r.best.map(|mv| g.position().move_text(&mv))
            }
            AnyGame::Chinese(g) => {
                let options = crate::chinese::search::SearchOptions {
                    beam_width: self.options.beam_width,
                    style: self.options.style,
                    seed: 0,
                };
                let out = crate::chinese::search::search(g, limits, &options, stop, on_info);
                Some(match out.best {
                    Some(mv) => g.move_text(&mv),
                    None => "pass".to_string(),
                })
            }
        }
    }
}
