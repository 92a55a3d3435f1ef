//! Recurses without end until the wasm stack runs out.
ludus_hostile_bots::hostile_bot!(ludus_hostile_bots::attack::deep_recursion());
