#ifndef TWFEED_CFUZZER_H
#define TWFEED_CFUZZER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (libclang_rt.fuzzer, linked by -sanitize=fuzzer). SwiftPM gives
/// every executable its own renamed `main`, so the fuzz targets have an ordinary
/// `@main` that hands the command line to the driver instead of using libFuzzer's main.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

static inline int twfeed_fuzz_main(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size)) {
    return LLVMFuzzerRunDriver(&argc, &argv, callback);
}
#endif
