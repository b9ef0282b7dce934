#![no_main]
//! Fuzz target `playout`: see `damas_fuzz::check_playout`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| damas_fuzz::check_playout(data));
