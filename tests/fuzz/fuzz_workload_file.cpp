// libFuzzer target: see lbm::fuzz::runWorkloadFile in fuzz_entries.h for what one input exercises.

#include "tests/fuzz/fuzz_entries.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    lbm::fuzz::runWorkloadFile(data, size);
    return 0;
}
