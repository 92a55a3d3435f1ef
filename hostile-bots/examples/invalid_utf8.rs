//! Answers with bytes that are not UTF-8.
ludus_hostile_bots::hostile_bot!(ludus_hostile_bots::answer(b"{\"moves\":[\xff\xfe]}"));
