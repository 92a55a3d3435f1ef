;; Answers a readable Planet Wars answer whose one move is illegal, every
;; turn: {"moves":[{"origin":"nowhere","destination":"elsewhere","ship_count":1}]}.
;; Planet Wars refuses the move and plays on; so does Kore, which ignores
;; the key `moves` as no shipyard of the seat's.
(module
  (memory (export "memory") 1)
  (data (i32.const 16) "{\"moves\":[{\"origin\":\"nowhere\",\"destination\":\"elsewhere\",\"ship_count\":1}]}")
  (func (export "ludus_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64)
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 73))))
