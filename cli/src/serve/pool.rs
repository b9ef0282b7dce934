//! The engine pool: a fixed number of worker threads, each owning one
//! search context, fed from one queue. Searches never run on the async
//! runtime, so the web requests stay answered while every worker thinks,
//! and the tables' memory is `workers × hash` whatever the number of games.

use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;

use damas::search::{EngineOptions, SearchInfo, SearchLimits};
use damas::{AnyEngine, AnyGame, AnyMove, Game, Search};
use tokio::sync::oneshot;

/// What the analysis panel shows: the last completed depth of the running
/// search.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Analysis {
    /// Completed depth.
    pub depth: u32,
    /// Score for the player to move, as text (`+0.35`, `win in 7`).
    pub score: String,
    /// Principal variation in the game's notation.
    pub pv: Vec<String>,
    /// Nodes so far.
    pub nodes: u64,
    /// The seat the score is for (the one searching).
    pub player: Option<usize>,
}

/// One search to run.
pub struct Job {
    /// The game whose session asked (a worker clears its tables when the
    /// game changes, so one game's table never feeds another's search).
    pub game_id: u64,
    /// The game, shared with its session, which does not change it while
    /// the search runs (it answers requests meanwhile, reading it).
    pub game: Arc<AnyGame>,
    pub limits: SearchLimits,
    pub options: EngineOptions,
    pub stop: Arc<AtomicBool>,
    /// Where the progress goes.
    pub analysis: Arc<Mutex<Analysis>>,
    /// The best move (`None` when the search had none).
    pub reply: oneshot::Sender<Option<AnyMove>>,
}

/// The queue in front of the workers.
pub struct Pool {
    sender: Mutex<mpsc::Sender<Job>>,
    workers: usize,
}

impl Pool {
    /// Starts `workers` threads with a `hash_mb` table each.
    pub fn start(workers: usize, hash_mb: usize) -> std::io::Result<Pool> {
        let (sender, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for index in 0..workers {
            let receiver = Arc::clone(&receiver);
            thread::Builder::new()
                .name(format!("damas-serve-engine-{index}"))
                .spawn(move || work(&receiver, hash_mb))?;
        }
        Ok(Pool {
            sender: Mutex::new(sender),
            workers,
        })
    }

    /// How many searches run at once.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Queues a job; `false` when the workers are gone.
    pub fn submit(&self, job: Job) -> bool {
        match self.sender.lock() {
            Ok(sender) => sender.send(job).is_ok(),
            Err(_) => false,
        }
    }
}

fn work(receiver: &Mutex<mpsc::Receiver<Job>>, hash_mb: usize) {
    let mut engine = AnyEngine::new(hash_mb);
    let mut last_game = None;
    loop {
        // The lock is held only while waiting for the next job.
        let job = match receiver.lock() {
            Ok(receiver) => match receiver.recv() {
                Ok(job) => job,
                Err(_) => return,
            },
            Err(_) => return,
        };
        if job.reply.is_closed() || job.stop.load(std::sync::atomic::Ordering::Relaxed) {
            continue;
        }
        if last_game != Some(job.game_id) {
            engine.clear();
            last_game = Some(job.game_id);
        }
        engine.set_options(&job.options);
        let Job {
            game,
            limits,
            stop,
            analysis,
            reply,
            ..
        } = job;
        // The principal variation is written from a copy of the position
        // alone: copying the game would copy its whole history.
        let position = game.read_position(&game.position_text()).ok();
        let mut on_info = |info: &SearchInfo<AnyMove>| {
            let update = Analysis {
                depth: info.depth,
                score: score_text(info.score),
                pv: position
                    .as_ref()
                    .map(|position| position.line_text(&info.pv))
                    .unwrap_or_default(),
                nodes: info.nodes,
                player: game.to_move().map(damas::Player::index),
            };
            if let Ok(mut shown) = analysis.lock() {
                *shown = update;
            }
        };
        // A panic in a search must not take the worker down with it: the
        // answer is then "no move" (the session plays a legal move) and the
        // worker starts again with a fresh context.
        let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            engine.search(&game, &limits, &stop, &mut on_info).best
        }));
        let best = match searched {
            Ok(best) => best,
            Err(_) => {
                engine = AnyEngine::new(hash_mb);
                last_game = None;
                None
            }
        };
        // Let go of the game first, so that the session playing the answer
        // changes it in place instead of copying it.
        drop(game);
        let _ = reply.send(best);
    }
}

/// A score as the board shows it: pawns (men or steps) with a sign, or a
/// proven result.
pub fn score_text(score: damas::search::Score) -> String {
    use damas::search::Score;
    match score {
        Score::Centi(c) => format!("{:+.2}", f64::from(c) / 100.0),
        Score::Win(n) => format!("win in {n}"),
        Score::Loss(n) => format!("loss in {n}"),
    }
}
