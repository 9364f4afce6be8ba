#pragma once
// `lingbot-monitor report FILE.json`: recompute a recorded run's metrics from its chunk rows
// under other viewing conditions (target fps, warmup, deadline, start buffer), print the
// benchmark's text report and optionally write the recomputed document. Reads our session
// documents and the Python benchmark's --output-json files alike.

#include <QStringList>

namespace lbm::cli {

// arguments[0] is the program name, then the command's own arguments. Returns the exit
// code: 0 on success, 2 for a usage error, 1 when the document cannot be reported.
int runReportCommand(const QStringList& arguments);

} // namespace lbm::cli
