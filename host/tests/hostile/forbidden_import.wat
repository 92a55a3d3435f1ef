;; Imports a function from outside WASI: refused when loaded.
(module
  (import "env" "launch_missiles" (func (param i32)))
  (memory (export "memory") 1)
  (func (export "ludus_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64) (i64.const 0)))
