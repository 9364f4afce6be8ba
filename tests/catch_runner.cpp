// Catch2's implementation is one large header; compiling it is the slowest step of a test
// build, so it is compiled here once and linked into every suite.
#define CATCH_CONFIG_RUNNER
#include "tests/catch_runner.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <sys/resource.h>

namespace lbm::test {

namespace {

// How far a run without a [timing] case steps back: 5 below the priority it was started at (a
// third of the share of a process at that priority), enough for a [timing] case's threads to
// be run first when they wake. At 10 (a tenth) a [timing] case with a browser starved the
// browser cases beside it: their viewers' playlist requests timed out.
constexpr int kYieldingStep = 5;
constexpr int kLowestPriority = 19;

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

Catch::Session& session() {
    static Catch::Session instance;
    return instance;
}

} // namespace

int prepareCatch(int argc, char** argv) {
    if (const int status = session().applyCommandLine(argc, argv); status != 0) {
        return status;
    }
    // A [timing] case holds a paced server to tens of milliseconds, and the suite runs five
    // cases a core (scripts/quickstart.sh): every other run gives way to it. Done first thing,
    // while the process has one thread: Linux sets a thread's priority, and every thread and
    // program started afterwards (Qt's, a screenshot case's Xvfb, bench, the window) inherits
    // it. Without this the scheduler hands a [timing] case's threads the same share as a busy
    // neighbour's and the case measures the machine, which is why they used to run last.
    if (!session().config().listTestNamesOnly() && !selectsTimingCase(session().config())) {
        errno = 0;
        const int started_at = getpriority(PRIO_PROCESS, 0);
        if (errno == 0 && setpriority(PRIO_PROCESS, 0,
                                      std::min(kLowestPriority, started_at + kYieldingStep)) != 0) {
            std::perror("setpriority");
        }
    }
    return 0;
}

int runCatch() {
    return session().run();
}

} // namespace lbm::test
