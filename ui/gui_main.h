#pragma once
// Entry point of the monitor window.

namespace lbm::ui {

int runGui(int argc, char** argv);

} // namespace lbm::ui
