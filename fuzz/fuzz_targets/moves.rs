#![no_main]
//! Fuzz target `moves`: see `damas_fuzz::check_moves`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| damas_fuzz::check_moves(data));
