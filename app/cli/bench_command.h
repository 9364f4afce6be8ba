#pragma once
// `lingbot-monitor bench`: the Python benchmark_lingbot_world_realtime.py as a subcommand -
// its flags, defaults, argument errors, warnings, printed report and JSON document - plus
// --simulate, --save-raw, --csv, --prompt-update, --timeline and --insecure.

#include <QStringList>

namespace lbm::cli {

// arguments[0] is the program name. Returns the exit code: 0 success, 1 a failed session
// ("ERROR: ..." on stderr), 2 an argument error (argparse's "usage: ... error: ...").
int runBenchCommand(const QStringList& arguments);

} // namespace lbm::cli
