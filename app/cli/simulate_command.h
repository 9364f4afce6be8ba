#pragma once
// `lingbot-monitor simulate`: run the built-in LingBot-World server simulator on a port so
// any client (ours, the Python benchmark, a browser demo) can connect without GPUs.

#include <QStringList>

namespace lbm::cli {

// arguments[0] is the program name, then the command's own arguments. Runs until
// interrupted; returns 2 for a usage error and 1 when the server cannot listen.
int runSimulateCommand(const QStringList& arguments);

} // namespace lbm::cli
