#pragma once
// libavfilter's second opinion on a matrix session run with second_opinion (see
// second_opinion.cpp for the rules and where they apply).

#include "app/quality/chunk_quality.h"
#include "tests/quality/quality_session.h"

#include <QString>

#include <optional>

namespace lbm::quality::test {

// Every chunk from 2 to the fault's (or the last), outside prompt transitions: at the fault's
// chunk libavfilter's rules and our analysis both raise the fault's flag; before it (or in a
// clean session) neither raises any. The colour rule applies only with still_camera.
void checkSecondOpinion(const QualitySessionRun& run, std::optional<qint64> fault_chunk,
                        std::optional<QualityFlag> flag, bool still_camera, const QString& label);

} // namespace lbm::quality::test
