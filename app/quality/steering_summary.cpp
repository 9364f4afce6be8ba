#include "app/quality/steering_summary.h"

#include <algorithm>
#include <cmath>

namespace lbm::quality {

std::optional<double> interpolatedPercentile(std::vector<double> values, double percentile) {
    if (values.empty()) {
        return std::nullopt;
    }
    std::sort(values.begin(), values.end());
    const double rank =
        std::clamp(percentile, 0.0, 100.0) / 100.0 * static_cast<double>(values.size() - 1);
    const auto below = static_cast<size_t>(std::floor(rank));
    const size_t above = std::min(values.size() - 1, below + 1);
    const double share = rank - static_cast<double>(below);
    return values[below] + share * (values[above] - values[below]);
}

void SteeringSummary::add(const ChunkQuality& chunk) {
    m_responses.insert(m_responses.end(), chunk.responses.cbegin(), chunk.responses.cend());
    if (chunk.following) {
        // The share is of the frames whose motion was measured; weigh each chunk by its frames.
        m_followed_frames += *chunk.following * chunk.frame_count;
        m_judged_frames += chunk.frame_count;
    }
    m_action_chunks += chunk.flagged(QualityFlag::Action) ? 1 : 0;
}

std::optional<SteeringResponse> SteeringSummary::last() const {
    const auto newest = std::max_element(
        m_responses.cbegin(), m_responses.cend(),
        [](const SteeringResponse& a, const SteeringResponse& b) {
            return std::make_pair(a.response_chunk.value_or(-1), a.response_frame) <
                   std::make_pair(b.response_chunk.value_or(-1), b.response_frame);
        });
    return newest == m_responses.cend() ? std::nullopt : std::optional(*newest);
}

std::optional<double> SteeringSummary::percentileMs(double percentile) const {
    std::vector<double> values;
    for (const SteeringResponse& response : m_responses) {
        if (response.response_ms) {
            values.push_back(*response.response_ms);
        }
    }
    return interpolatedPercentile(std::move(values), percentile);
}

std::optional<double> SteeringSummary::percentileChunks(double percentile) const {
    std::vector<double> values;
    for (const SteeringResponse& response : m_responses) {
        if (const auto chunks = response.responseChunks()) {
            values.push_back(static_cast<double>(*chunks));
        }
    }
    return interpolatedPercentile(std::move(values), percentile);
}

std::optional<double> SteeringSummary::followingShare() const {
    return m_judged_frames > 0 ? std::optional(m_followed_frames / m_judged_frames) : std::nullopt;
}

QString SteeringSummary::summaryText() const {
    const std::optional<SteeringResponse> newest = last();
    if (!newest) {
        return QStringLiteral("none yet");
    }
    const auto number = [](const std::optional<double>& value) {
        return value ? QString::number(*value, 'f', 0) : QStringLiteral("?");
    };
    const auto ms = [&](const std::optional<double>& value) -> QString {
        return number(value) + QStringLiteral(" ms");
    };
    if (m_responses.size() > 1) {
        // Two lines in the counters column at 1280x720: the count and the newest, then the
        // percentiles (the newest one's chunk count is on the HUD).
        // "answered": only commands that ask for motion are timed (a release's stop is not),
        // so the count is of those the picture followed, not of the camera marks sent.
        return QStringLiteral("%1 answered, last %2 · p50 %3 · p95 %4")
            .arg(m_responses.size())
            .arg(ms(newest->response_ms))
            .arg(number(percentileMs(50)))
            .arg(ms(percentileMs(95)));
    }
    const qint64 chunks = newest->responseChunks().value_or(0);
    return QStringLiteral("last %1 (%2 chunk%3) · 1 answered")
        .arg(ms(newest->response_ms))
        .arg(chunks)
        .arg(chunks == 1 ? QString() : QStringLiteral("s"));
}

} // namespace lbm::quality
