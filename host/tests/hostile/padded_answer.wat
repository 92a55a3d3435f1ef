;; A well-formed Planet Wars answer, {"moves":[]}, padded with 100 000
;; spaces: valid JSON, but no real answer of the game is that long.
(module
  (memory (export "memory") 2)
  (data (i32.const 16) "{\"moves\":[]}")
  (func (export "ludus_alloc") (param i32) (result i32) (i32.const 65536))
  (func (export "act") (param i32 i32) (result i64)
    (memory.fill (i32.const 28) (i32.const 32) (i32.const 100000))
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 100012))))
