;; `act` with the wrong signature.
(module
  (memory (export "memory") 1)
  (func (export "ludus_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32) (result i32) (i32.const 0)))
