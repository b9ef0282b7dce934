//! The Damas engine protocol: lines in, lines out.
//!
//! This crate parses protocol commands ([`command`]) and hosts the engine
//! ([`host`]: game state, options, the search thread and its stop flag,
//! typed requests in and typed events out). One adapter per protocol turns
//! commands into requests and events into lines: [`ugi`] (UGI and the UCI
//! spellings) and [`ccp`] (JumpStar's CCP), sharing the line pieces of
//! [`reply`]. [`Session`] is the front: it starts in UGI and switches
//! adapter on `ccp`. The crate never touches stdin or stdout: the caller
//! feeds lines to [`Session::handle_line`] and receives reply lines through
//! the output callback.
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use damas_protocol::{Flow, Session};
//!
//! let lines = Arc::new(Mutex::new(Vec::<String>::new()));
//! let sink = Arc::clone(&lines);
//! let mut session = Session::new(Arc::new(move |line: &str| {
//!     sink.lock().expect("sink").push(line.to_string())
//! }));
//! session.handle_line("isready");
//! assert_eq!(session.handle_line("quit"), Flow::Quit);
//! assert_eq!(lines.lock().expect("sink").as_slice(), ["readyok"]);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]

pub mod ccp;
pub mod command;
mod dialect;
pub mod help;
pub mod host;
pub mod options;
pub mod reply;
pub mod session;
pub mod ugi;

pub use session::{Dialect, Flow, Output, Session};
