;; Declares 32 MiB of initial memory: loadable, but over a 16 MiB match cap.
(module
  (memory (export "memory") 512)
  (func (export "ludus_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64) (i64.const 0)))
