//! The fuzz targets' checks (see `harness.rs`), as a library for the
//! targets in `fuzz_targets/`.

#[path = "harness.rs"]
mod harness;

pub use harness::*;
