//! Answers with a length of almost 4 GiB.
ludus_hostile_bots::hostile_bot!(ludus_hostile_bots::pack(1024, 0xffff_fff0));
