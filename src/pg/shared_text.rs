//! A short text in shared memory that one process writes and any reads
//! without a lock: a sequence lock over atomic bytes (an odd version: being
//! written). Writers must take turns by a rule of their own (one worker,
//! or a lock held around `set`).
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`), `src/node/` or the durable generators.

use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};

pub struct SharedText<const N: usize> {
    version: AtomicU64,
    len: AtomicUsize,
    bytes: [AtomicU8; N],
}

impl<const N: usize> SharedText<N> {
    pub const fn new() -> Self {
        SharedText {
            version: AtomicU64::new(0),
            len: AtomicUsize::new(0),
            bytes: [const { AtomicU8::new(0) }; N],
        }
    }

    /// Sets the text, cut at N bytes (at a character's boundary).
    pub fn set(&self, text: &str) {
        let mut end = text.len().min(N);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let text = &text.as_bytes()[..end];
        self.version.fetch_add(1, Ordering::AcqRel);
        for (slot, b) in self.bytes.iter().zip(text) {
            slot.store(*b, Ordering::Relaxed);
        }
        self.len.store(text.len(), Ordering::Relaxed);
        self.version.fetch_add(1, Ordering::AcqRel);
    }

    pub fn get(&self) -> String {
        loop {
            let v = self.version.load(Ordering::Acquire);
            let len = self.len.load(Ordering::Relaxed).min(N);
            let bytes: Vec<u8> = self.bytes[..len]
                .iter()
                .map(|b| b.load(Ordering::Relaxed))
                .collect();
            if v.is_multiple_of(2) && self.version.load(Ordering::Acquire) == v {
                return String::from_utf8_lossy(&bytes).into_owned();
            }
            std::hint::spin_loop();
        }
    }
}

impl<const N: usize> Default for SharedText<N> {
    fn default() -> Self {
        Self::new()
    }
}
