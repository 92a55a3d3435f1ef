//! Answers with a pointer far outside its memory.
ludus_hostile_bots::hostile_bot!(ludus_hostile_bots::attack::bad_answer_pointer());
