#pragma once
// A mid-rollout prompt transition scheduled on a chunk boundary (seed: PromptUpdate).

#include "metrics/constants.h"

#include <string>

namespace lbm {

struct PromptUpdate {
    int after_chunk = 0;
    std::string prompt;
    int transition_chunks = kDefaultTransitionChunks;

    // __post_init__'s checks; throws MetricError with the seed's text.
    void validate() const;
    // "chunk-<after_chunk>": the event id the seed's to_payload() uses.
    std::string eventId() const;
};

} // namespace lbm
