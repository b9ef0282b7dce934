#![no_main]
//! Fuzz target `chinese_text`: see `damas_fuzz::check_chinese_text`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| damas_fuzz::check_chinese_text(data));
