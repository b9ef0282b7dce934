#![no_main]
//! Fuzz target `spanish_fen`: see `damas_fuzz::check_spanish_fen`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| damas_fuzz::check_spanish_fen(data));
