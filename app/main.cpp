// The one executable: a subcommand runs headless (bench, report, simulate); no subcommand
// opens the monitor window.

#include "app/cli/subcommands.h"
#include "ui/gui_main.h"

int main(int argc, char** argv) {
    if (lbm::cli::isHeadlessInvocation(argc, argv)) {
        return lbm::cli::runHeadless(argc, argv);
    }
    return lbm::ui::runGui(argc, argv);
}
