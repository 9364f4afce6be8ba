#pragma once
// Catch2's session, compiled once for every suite (tests/catch_runner.cpp): the two test mains
// (console and GUI) read the command line with it first, then create the Qt application and
// hand over to it.

namespace lbm::test {

// Reads the command line (non-zero: Catch2's exit status for a bad one) and, unless the run
// selects a [timing] case, lowers the process's priority; call before any thread starts.
int prepareCatch(int argc, char** argv);
// Runs the cases prepareCatch read.
int runCatch();

} // namespace lbm::test
