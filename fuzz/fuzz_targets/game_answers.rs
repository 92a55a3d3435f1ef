#![no_main]
//! See [`ludus_fuzz_checks::game_answers`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| ludus_fuzz_checks::game_answers(data));
