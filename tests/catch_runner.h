#pragma once
// Catch2's session, compiled once for every suite (tests/catch_runner.cpp): the two test mains
// (console and GUI) only create the Qt application and hand over to it.

namespace lbm::test {

int runCatch(int argc, char** argv);

} // namespace lbm::test
