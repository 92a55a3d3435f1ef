#![no_main]
//! See [`ludus_fuzz_checks::game_config`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| ludus_fuzz_checks::game_config(data));
