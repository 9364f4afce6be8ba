// The one executable: a subcommand runs headless (bench, report, simulate); no subcommand
// opens the monitor window.

#include "app/cli/subcommands.h"
#include "ui/gui_main.h"

extern "C" {
#include <libavutil/log.h>
}

int main(int argc, char** argv) {
    // libx264 (the simulator's encoder) and the mp4 muxer print statistics and progress at
    // info level; a user sees our own messages for anything that goes wrong, so keep
    // FFmpeg's console output to real errors.
    av_log_set_level(AV_LOG_ERROR);
    if (lbm::cli::isHeadlessInvocation(argc, argv)) {
        return lbm::cli::runHeadless(argc, argv);
    }
    return lbm::ui::runGui(argc, argv);
}
