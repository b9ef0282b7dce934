//! The Damas engine protocol: lines in, lines out.
//!
//! This crate parses protocol commands ([`command`]), owns the engine
//! session ([`Session`]: game state, options, the search thread and its stop
//! flag) and formats the replies ([`reply`]). It never touches stdin or
//! stdout: the caller feeds lines to [`Session::handle_line`] and receives
//! reply lines through the output callback.
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

pub mod command;
pub mod help;
pub mod options;
pub mod reply;
pub mod session;

pub use session::{Dialect, Flow, Output, Session};
