#![no_main]
//! Fuzz target `protocol`: see `damas_fuzz::check_protocol`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| damas_fuzz::check_protocol(data));
