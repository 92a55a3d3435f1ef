//! Answers with a length of almost 4 GiB.
ludus_hostile_bots::hostile_bot!(ludus_hostile_bots::attack::huge_answer_length());
