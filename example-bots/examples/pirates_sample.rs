//! The `sample` pirates bot as a Ludus bot module (build for `wasm32-wasip1`).

ludus_sdk::export_bot!(ludus_example_bots::pirates::Sample);
