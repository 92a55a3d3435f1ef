;; Has no `act` export.
(module
  (memory (export "memory") 1)
  (func (export "ludus_alloc") (param i32) (result i32) (i32.const 1024)))
