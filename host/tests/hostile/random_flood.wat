;; Asks random_get for 64 KiB over and over: host work a bot triggers must be paid in fuel.
(module
  (import "wasi_snapshot_preview1" "random_get" (func $random (param i32 i32) (result i32)))
  (memory (export "memory") 2)
  (func (export "ludus_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64)
    (loop $l (drop (call $random (i32.const 0) (i32.const 65536))) (br $l))
    (i64.const 0)))
