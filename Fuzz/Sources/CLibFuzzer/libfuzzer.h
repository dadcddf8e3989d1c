// libFuzzer's driver entry, declared as compiler-rt's FuzzerInterface.h does. Swift cannot call
// the driver otherwise, and it must: SwiftPM links an executable's `main` to the module's own
// entry point, so libFuzzer's `main` is never used and main.swift starts the driver itself.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
