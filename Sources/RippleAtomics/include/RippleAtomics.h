// RippleAtomics: the few atomic operations on one machine word that Ripple needs, as inline
// functions over the compiler's atomic builtins.
//
// Swift's `Synchronization.Atomic` needs macOS 15 / iOS 18 on Apple platforms, and the package
// takes no dependencies, so Ripple reaches the builtins through this header. It is internal to
// Ripple (imported with `internal import`), not part of its API.
//
// Every function takes the address of a word that is only ever accessed through these functions.

#ifndef RIPPLE_ATOMICS_H
#define RIPPLE_ATOMICS_H

#include <stdbool.h>
#include <stdint.h>

/// Reads the word (acquire).
static inline intptr_t ripple_atomic_load(intptr_t *_Nonnull word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/// Writes `desired` if the word holds `*expected` (acquire-release), else stores what it holds in
/// `*expected` (acquire). Returns whether it wrote.
static inline bool ripple_atomic_compare_exchange(
    intptr_t *_Nonnull word, intptr_t *_Nonnull expected, intptr_t desired) {
    return __atomic_compare_exchange_n(word, expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/// Adds `delta` (acquire-release) and returns the previous value.
static inline intptr_t ripple_atomic_fetch_add(intptr_t *_Nonnull word, intptr_t delta) {
    return __atomic_fetch_add(word, delta, __ATOMIC_ACQ_REL);
}

/// Sets the bits of `mask` (acquire-release) and returns the previous value.
static inline intptr_t ripple_atomic_fetch_or(intptr_t *_Nonnull word, intptr_t mask) {
    return __atomic_fetch_or(word, mask, __ATOMIC_ACQ_REL);
}

/// Keeps only the bits of `mask` (acquire-release) and returns the previous value.
static inline intptr_t ripple_atomic_fetch_and(intptr_t *_Nonnull word, intptr_t mask) {
    return __atomic_fetch_and(word, mask, __ATOMIC_ACQ_REL);
}

#endif
