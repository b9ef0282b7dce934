//! The Damas engine protocol: lines in, lines out.
//!
//! This crate parses protocol commands, owns the engine session and formats
//! the replies. It never touches stdin or stdout itself.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
