#pragma once
// The seed raises ValueError with user-facing text; we throw MetricError with the same words.

#include <stdexcept>

namespace lbm {

class MetricError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

} // namespace lbm
