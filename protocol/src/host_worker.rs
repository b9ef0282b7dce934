//! The host's worker thread: `perft` and `divide`, and the search with
//! the limits of a `go`; starting, stopping and joining it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use damas::search::{effective_threads, SearchInfo, SearchLimits};
use damas::{AnyEngine, AnyMove, EndgameTables, Game, Player, Search};

use super::{Event, Host, RunningSearch, MAX_PERFT_DEPTH};
use crate::command::GoParams;

impl Host {
    /// Runs `perft` or `divide` on the worker thread, like a search: the
    /// host answers meanwhile and `Stop` ends it.
    pub(super) fn start_perft(&mut self, depth: u32, divide: bool) {
        if depth > MAX_PERFT_DEPTH {
            return self.report_error(format!(
                "perft depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"
            ));
        }
        let game = self.game.clone();
        let threads = effective_threads(self.settings.threads);
        let events = Arc::clone(&self.events);
        self.spawn_worker("perft", move |_, stop, done| {
            let start = Instant::now();
            let total = if divide {
                game.divide_until(depth, stop).map(|rows| {
                    for (mv, nodes) in &rows {
                        events(Event::PerftRow {
                            mv: mv.clone(),
                            nodes: *nodes,
                        });
                    }
                    // Depth 0 has no move to split on; its one leaf is the
                    // position itself, as `perft 0` counts it.
                    if depth == 0 {
                        1
                    } else {
                        rows.iter().map(|(_, nodes)| nodes).sum()
                    }
                })
            } else {
                game.perft_until(depth, threads, stop)
            };
            let time = start.elapsed();
            done.store(true, Ordering::Release);
            events(match total {
                Some(nodes) => Event::PerftDone {
                    depth,
                    nodes,
                    time,
                    nps: (u128::from(nodes) * 1_000_000 / time.as_micros().max(1)) as u64,
                },
                None => Event::PerftStopped { depth, time },
            });
        });
    }

    /// Turns `go` parameters into the limits of the player to move.
    fn limits(&self, params: &GoParams) -> SearchLimits {
        let player = self.game.to_move().map_or(0, Player::index);
        let overhead = Duration::from_millis(self.settings.move_overhead_ms);
        // The overhead never takes more than half of a budget, so a short
        // movetime still leaves time to search.
        let net = |t: Duration| t.saturating_sub(overhead).max(t / 2);
        // A client that sends clocks but not the mover's (two-player clocks
        // in a three-player game, say) gets the tightest clock it sent
        // rather than a search that never ends.
        let own_clock = params.time[player].or_else(|| params.time.iter().flatten().min().copied());
        SearchLimits {
            depth: params.depth,
            nodes: params.nodes,
            movetime: params.movetime.map(net),
            infinite: params.infinite,
            time_left: own_clock.map(net),
            increment: params.inc[player].unwrap_or(Duration::ZERO),
            moves_to_go: params.movestogo,
        }
    }

    /// Searches, or refuses with the null move when there is nothing the
    /// client asked to search: the options describe no game, or its last
    /// position was refused.
    pub(super) fn go(&mut self, params: &GoParams) {
        if let Err(err) = self.settings.spec() {
            return self.refuse_go(err);
        }
        if self.position_refused {
            return self.refuse_go(
                "the last 'position' was refused, so there is no position to search; \
                 send 'position' again",
            );
        }
        if !self.start_search(params) {
            self.emit(Event::BestMove(None));
        }
    }

    /// Starts the search; false (after the error) when its thread could
    /// not start.
    fn start_search(&mut self, params: &GoParams) -> bool {
        let mut limits = self.limits(params);
        let game = self.game.clone();
        let events = Arc::clone(&self.events);
        let tables = self.tables.clone();
        self.spawn_worker("search", move |engine, stop, done| {
            // A client that sent no `isready` since the table was made
            // pays for it here, out of this move's time.
            if !engine.is_prepared_for(game.kind()) {
                let started = Instant::now();
                engine.prepare_for(game.kind());
                spend(&mut limits, started.elapsed());
            }
            let best = if game.is_over() {
                None
            } else {
                let mut on_info = |info: &SearchInfo<AnyMove>| {
                    events(Event::Info(info.with_pv(game.line_text(&info.pv))));
                };
                let result = engine.search(&game, &limits, stop, &mut on_info);
                match result.best {
                    Some(mv) => Some(game.move_text(&mv)),
                    // Chinese checkers: the player to move must pass.
                    None => game.must_pass().then(|| "pass".to_string()),
                }
            };
            // A slice found damaged during the search is told before the
            // move, whose search did not use it.
            for note in tables.iter().flat_map(EndgameTables::damage_notes) {
                events(Event::Note(note));
            }
            done.store(true, Ordering::Release);
            events(Event::BestMove(best));
        })
    }

    /// Starts `work` on the worker thread with the search context, its stop
    /// flag and its done flag (to raise just before its last event); false
    /// after reporting the error when it could not start.
    fn spawn_worker(
        &mut self,
        name: &str,
        work: impl FnOnce(&mut AnyEngine, &AtomicBool, &AtomicBool) + Send + 'static,
    ) -> bool {
        self.reap_finished();
        let Some(mut engine) = self.engine.take() else {
            self.report_error("the search context is lost");
            return false;
        };
        engine.set_endgame_tables(self.tables.as_ref());
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        let done = Arc::new(AtomicBool::new(false));
        let thread_done = Arc::clone(&done);
        // The thread hands the context back through its result; if the
        // thread cannot start, the context is dropped with the closure and
        // a fresh one takes its place.
        let spawned = std::thread::Builder::new()
            .name(name.into())
            .stack_size(64 << 20)
            .spawn(move || {
                work(&mut engine, &thread_stop, &thread_done);
                engine
            });
        match spawned {
            Ok(handle) => {
                self.search = Some(RunningSearch { stop, done, handle });
                true
            }
            Err(err) => {
                self.engine = Some(self.fresh_engine());
                self.report_error(format!("cannot start the {name} thread: {err}"));
                false
            }
        }
    }

    /// A new search context for the options, in place of one that was lost
    /// with a search thread.
    fn fresh_engine(&self) -> AnyEngine {
        let mut engine = AnyEngine::new(self.settings.hash_mb);
        engine.set_options(&self.settings.engine_options());
        engine
    }

    /// Stops and joins any search or perft (its last event comes first).
    pub fn stop(&mut self) {
        if let Some(search) = self.search.take() {
            search.stop.store(true, Ordering::Relaxed);
            match search.handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    self.engine = Some(self.fresh_engine());
                    self.report_error("the search thread failed");
                }
            }
        }
    }

    /// Joins a worker that has finished, taking its search context back.
    pub fn reap_finished(&mut self) {
        if self
            .search
            .as_ref()
            .is_some_and(|search| search.done.load(Ordering::Acquire))
        {
            self.stop();
        }
    }
}

/// Takes `spent` off the time limits (never below zero).
fn spend(limits: &mut SearchLimits, spent: Duration) {
    for time in [&mut limits.movetime, &mut limits.time_left]
        .into_iter()
        .flatten()
    {
        *time = time.saturating_sub(spent);
    }
}
