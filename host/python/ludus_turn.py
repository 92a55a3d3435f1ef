"""One turn of a Python bot, as every Ludus wrapper runs it."""

import json
import os
import random
import sys
import traceback

_seeded = False

# What starts the one line that tells the host why the turn ends in a fault
# (the exception's type, message, and where in the author's files), written
# in a single write just before the trap. The host keeps it out of the log
# and words the fault with it (`FAULT_NOTE_PREFIX` in host/src/wasi.rs).
FAULT_NOTE_PREFIX = "ludus-fault: "

# Longest exception message sent in the note, in characters (the host cuts
# the fault's text shorter still).
NOTE_MESSAGE_CHARS = 1000

# Longest note line, in bytes.
NOTE_BYTES = 4000


def run(body, author_file):
    """Returns `body()`: on the first turn after reseeding `random`, which
    was seeded once at build time, when the interpreter was snapshotted, from
    this seat's stream.

    An exception ends the turn in a fault (see `fail`). `author_file(name)`
    tells the author's files from the wrappers': for a code object's file
    name, the name to show the author, or None."""
    global _seeded
    try:
        if not _seeded:
            random.seed()
            _seeded = True
        return body()
    except BaseException as e:
        fail(e, author_file)
    finally:
        # Python buffers its output, and there is no exit to flush it.
        sys.stdout.flush()
        sys.stderr.flush()


def fail(e, author_file):
    """Ends the turn in a trap for the exception `e`: its traceback, from the
    first frame in the author's files, goes to the log once; the note the host
    words the fault with goes out after it. Never returns.

    The trap is `os.abort()`, not the exception: an exception leaving the
    export is printed a second time by componentize-py's runtime, which then
    panics on its own account."""
    tb = e.__traceback__
    # The wrappers' frames come first: the author's start at the first
    # frame in one of their files. Without one (the wrapper could not send
    # the answer), the frames say nothing to the author: the message alone.
    start = tb
    while start is not None and author_file(start.tb_frame.f_code.co_filename) is None:
        start = start.tb_next
    where = None
    for frame, line in traceback.walk_tb(start):
        name = author_file(frame.f_code.co_filename)
        if name is not None:
            where = (name, line, frame.f_code.co_name)
    sys.stdout.flush()
    traceback.print_exception(type(e), e, start, file=sys.stderr)
    sys.stderr.flush()
    note = {"type": _type_name(type(e)), "message": _message(e)}
    if where is not None:
        note["file"], note["line"], note["function"] = where
    os.write(2, _note_line(note))
    os.abort()


def _note_line(note):
    """The note as one line of at most NOTE_BYTES bytes: the host reads it
    only whole, from a single write, and WASI writes go out in pieces of at
    most 4096 bytes."""
    while True:
        line = (FAULT_NOTE_PREFIX + json.dumps(note) + "\n").encode("utf-8", "replace")
        if len(line) <= NOTE_BYTES or not note["message"]:
            return line[:NOTE_BYTES]
        note["message"] = note["message"][: len(note["message"]) // 2]


def _type_name(t):
    """The exception's type as the last line of a traceback names it."""
    module = getattr(t, "__module__", None)
    name = getattr(t, "__qualname__", t.__name__)
    if module in (None, "builtins", "__main__"):
        return name
    return f"{module}.{name}"


def _message(e):
    try:
        text = str(e)
    except BaseException:
        text = "<the exception's message could not be made>"
    return text[:NOTE_MESSAGE_CHARS]
