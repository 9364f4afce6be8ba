// Catch2's implementation is one large header; compiling it is the slowest step of a test
// build, so it is compiled here once and linked into every suite.
#define CATCH_CONFIG_RUNNER
#include "tests/catch_runner.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <sys/resource.h>

namespace lbm::test {

namespace {

// How far a run without a [timing] case steps back: nice 5, a third of the share of a process
// at the normal priority, enough for a [timing] case's threads to be run first when they
// wake. At nice 10 (a tenth) a [timing] case with a browser starved the browser cases beside
// it: their viewers' playlist requests timed out.
constexpr int kYieldingNice = 5;

bool selectsTimingCase(const Catch::Config& config) {
    // Without a filter Catch2 runs the cases that are not hidden.
    const Catch::TestSpec spec =
        config.testSpec().hasFilters()
            ? config.testSpec()
            : Catch::TestSpecParser(Catch::ITagAliasRegistry::get()).parse("~[.]").testSpec();
    const auto cases = Catch::filterTests(Catch::getAllTestCasesSorted(config), spec, config);
    return std::any_of(cases.begin(), cases.end(), [](const Catch::TestCase& test_case) {
        const auto& tags = test_case.getTestCaseInfo().lcaseTags;
        return std::find(tags.begin(), tags.end(), "timing") != tags.end();
    });
}

} // namespace

int runCatch(int argc, char** argv) {
    Catch::Session session;
    if (const int status = session.applyCommandLine(argc, argv); status != 0) {
        return status;
    }
    // A [timing] case holds a paced server to tens of milliseconds, and the suite runs five
    // cases a core (scripts/quickstart.sh): every other run gives way to it, and so do the
    // programs it starts (bench, the window), which inherit the priority. Without this the
    // scheduler hands a [timing] case's threads the same share as a busy neighbour's and the
    // case measures the machine, which is why they used to wait for the end of the run.
    if (!session.config().listTestNamesOnly() && !selectsTimingCase(session.config()) &&
        setpriority(PRIO_PROCESS, 0, kYieldingNice) != 0) {
        std::perror("setpriority");
    }
    return session.run();
}

} // namespace lbm::test
