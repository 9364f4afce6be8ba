#pragma once
// The headless half of the one executable: `lingbot-monitor <subcommand> ...`.

#include <QStringList>

namespace lbm::cli {

// True when argv[1] names a subcommand (or --version / --help), i.e. no GUI is wanted.
bool isHeadlessInvocation(int argc, char** argv);
// Runs the subcommand named by argv[1]; returns the process exit code.
int runHeadless(int argc, char** argv);

} // namespace lbm::cli
