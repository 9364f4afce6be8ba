// Catch2's implementation is one large header; compiling it is the slowest step of a test
// build, so it is compiled here once and linked into every suite.
#define CATCH_CONFIG_RUNNER
#include "tests/catch_runner.h"

#include <catch2/catch.hpp>

namespace lbm::test {

int runCatch(int argc, char** argv) {
    return Catch::Session().run(argc, argv);
}

} // namespace lbm::test
