#include "metrics/prompt_update.h"

#include "metrics/metric_error.h"
#include "metrics/python_text.h"

namespace lbm {

void PromptUpdate::validate() const {
    if (after_chunk < 0) {
        throw MetricError("PromptUpdate.after_chunk must be non-negative.");
    }
    if (isPythonBlank(prompt)) {
        throw MetricError("PromptUpdate.prompt must contain non-whitespace text.");
    }
    if (transition_chunks < 0) {
        throw MetricError("PromptUpdate.transition_chunks must be non-negative.");
    }
}

std::string PromptUpdate::eventId() const {
    return "chunk-" + std::to_string(after_chunk);
}

} // namespace lbm
