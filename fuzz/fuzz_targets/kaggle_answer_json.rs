#![no_main]
//! See [`ludus_fuzz_checks::kaggle_answer_json`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| ludus_fuzz_checks::kaggle_answer_json(data));
