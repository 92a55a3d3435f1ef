#![no_main]
//! See [`ludus_fuzz_checks::halite_answer`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| ludus_fuzz_checks::halite_answer(data));
