#pragma once
// The session form as the engine's settings: the one translation from what the user filled
// in to what a session runs with (the same settings `bench` builds from its flags).

#include "app/engine/engine_settings.h"

namespace lbm::ui {

class SessionForm;

// Throws what SessionForm::workload() throws (MetricError / ReportError / FirstFrameError).
lbm::engine::EngineSettings engineSettingsFromForm(const SessionForm& form);

} // namespace lbm::ui
