// The libFuzzer entry of fuzz-storage: libFuzzer's own main (linked whole by -sanitize=fuzzer) calls
// this for each input; the checks are in Swift (FuzzSupport/Targets.swift).
#include <stddef.h>
#include <stdint.h>

int ripple_fuzz_storage(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return ripple_fuzz_storage(data, size); }
