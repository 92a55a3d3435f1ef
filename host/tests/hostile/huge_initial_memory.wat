;; Declares 2 GiB of initial memory: over any cap, refused when loaded.
(module
  (memory (export "memory") 32768)
  (func (export "ludus_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64) (i64.const 0)))
