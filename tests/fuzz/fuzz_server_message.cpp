// libFuzzer target: see lbm::fuzz::runServerMessage in fuzz_entries.h for what one input exercises.

#include "tests/fuzz/fuzz_entries.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    lbm::fuzz::runServerMessage(data, size);
    return 0;
}
