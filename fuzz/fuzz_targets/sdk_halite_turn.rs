#![no_main]
//! See [`ludus_fuzz_checks::sdk_halite_turn`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| ludus_fuzz_checks::sdk_halite_turn(data));
