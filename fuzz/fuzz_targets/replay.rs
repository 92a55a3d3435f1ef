#![no_main]
//! See [`ludus_fuzz_checks::replay`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| ludus_fuzz_checks::replay(data));
