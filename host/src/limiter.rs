//! Enforces a seat's [`Limits`] on what wasmtime lets a bot allocate: its
//! memories and tables.

use crate::limits::Limits;
use wasmtime::ResourceLimiter;

/// Core instances, memories and tables one component bot may create (a
/// Python component has 6 core instances, 2 memories and 2 tables).
pub(crate) const COMPONENT_INSTANCES: usize = 32;
pub(crate) const COMPONENT_MEMORIES: usize = 8;
pub(crate) const COMPONENT_TABLES: usize = 32;

/// Caps a bot's memory and tables, and remembers whether it hit a cap, so a
/// trap that follows (a Rust allocation failure aborts) is reported as such.
/// The memory cap is on the sum of all the bot's memories (a component has
/// several).
pub struct Limiter {
    memory_bytes: usize,
    memory_used: usize,
    table_elements: usize,
    counts: (usize, usize, usize),
    pub(crate) hit_memory_cap: bool,
}

impl Limiter {
    /// For a core module: one instance, one memory.
    pub fn new(limits: &Limits) -> Self {
        Limiter {
            memory_bytes: limits.memory_bytes as usize,
            memory_used: 0,
            table_elements: limits.table_elements as usize,
            counts: (1, 1, 4),
            hit_memory_cap: false,
        }
    }

    /// For a component: its several core instances, memories and tables.
    pub fn for_component(limits: &Limits) -> Self {
        Limiter {
            counts: (COMPONENT_INSTANCES, COMPONENT_MEMORIES, COMPONENT_TABLES),
            ..Limiter::new(limits)
        }
    }
}

impl ResourceLimiter for Limiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let total = (self.memory_used - current.min(self.memory_used)).saturating_add(desired);
        let ok = total <= self.memory_bytes;
        if ok {
            self.memory_used = total;
        }
        self.hit_memory_cap |= !ok;
        Ok(ok)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let ok = desired <= self.table_elements;
        self.hit_memory_cap |= !ok;
        Ok(ok)
    }

    fn instances(&self) -> usize {
        self.counts.0
    }
    fn memories(&self) -> usize {
        self.counts.1
    }
    fn tables(&self) -> usize {
        self.counts.2
    }
}
