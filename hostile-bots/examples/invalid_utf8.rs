//! Answers with bytes that are not UTF-8.
ludus_hostile_bots::hostile_bot!(ludus_hostile_bots::attack::invalid_utf8());
