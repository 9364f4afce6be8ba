#include "app/sim/timing_profile.h"

#include "app/report/report_error.h"
#include "app/report/session_document.h"
#include "metrics/metric_error.h"

#include <QStringList>

#include <algorithm>
#include <random>

namespace lbm::sim {
namespace {

struct Shape {
    double ttfc_ms;
    double first_ms;  // chunk 1
    double steady_ms; // from chunk 6 on
    double jitter;    // relative standard deviation
    double spike_probability;
    double last_factor;
};

std::optional<Shape> shapeFor(const QString& name) {
    if (name == QStringLiteral("fast")) {
        return Shape{120, 100, 100, 0, 0, 1};
    }
    if (name == QStringLiteral("h200-sp4")) {
        return Shape{1500, 560, 720, 0.02, 0.03, 0.85};
    }
    if (name == QStringLiteral("h200-stock")) {
        return Shape{1800, 1050, 1326, 0.02, 0.03, 0.88};
    }
    if (name == QStringLiteral("single-gpu")) {
        return Shape{2700, 2600, 3200, 0.02, 0.02, 0.9};
    }
    if (name == QStringLiteral("edge")) {
        return Shape{1200, 750, 750, 0, 0, 1};
    }
    return std::nullopt;
}

} // namespace

QStringList TimingProfile::names() {
    return {QStringLiteral("fast"),
            QStringLiteral("h200-sp4"),
            QStringLiteral("h200-stock"),
            QStringLiteral("single-gpu"),
            QStringLiteral("edge"),
            QStringLiteral("replay:FILE"),
            QStringLiteral("fixed:TTFC:INTERVAL")};
}

std::optional<TimingProfile> TimingProfile::fromName(const QString& name, QString* error) {
    const auto fail = [error](const QString& text) -> std::optional<TimingProfile> {
        if (error != nullptr) {
            *error = text;
        }
        return std::nullopt;
    };
    TimingProfile profile;
    profile.m_name = name;
    if (name.startsWith(QStringLiteral("replay:"))) {
        const QString path = name.mid(7);
        // The report layer's reader: it accepts our documents and the Python benchmark's,
        // and names the file and the field when something is wrong.
        try {
            const report::SessionDocument document = report::readSessionDocument(path);
            if (!document.sessions.empty()) {
                for (const ChunkRecord& chunk : document.sessions.front().chunks) {
                    profile.m_replay_intervals_ms.push_back(chunk.interArrivalMs());
                }
            }
        } catch (const report::ReportError& unreadable) {
            return fail(QStringLiteral("Cannot replay '%1': %2").arg(path, unreadable.message()));
        } catch (const MetricError& invalid) {
            return fail(QStringLiteral("Cannot replay '%1': %2")
                            .arg(path, QString::fromUtf8(invalid.what())));
        }
        if (profile.m_replay_intervals_ms.empty()) {
            return fail(QStringLiteral("The replay document '%1' has no sessions[0].chunks to "
                                       "replay; give a session document written by bench or the "
                                       "Python benchmark's --output-json.")
                            .arg(path));
        }
        return profile;
    }
    if (name.startsWith(QStringLiteral("fixed:"))) {
        const QStringList parts = name.split(QLatin1Char(':'));
        bool ttfc_ok = false;
        bool interval_ok = false;
        const double ttfc_s = parts.value(1).toDouble(&ttfc_ok);
        const double interval_s = parts.value(2).toDouble(&interval_ok);
        if (parts.size() != 3 || !ttfc_ok || !interval_ok || ttfc_s < 0 || interval_s <= 0) {
            return fail(QStringLiteral("The profile '%1' must be fixed:TTFC:INTERVAL in seconds, "
                                       "e.g. fixed:0.3:0.5.")
                            .arg(name));
        }
        // Stored as replay intervals: the first is the TTFC, the last repeats.
        profile.m_replay_intervals_ms = {ttfc_s * 1000.0, interval_s * 1000.0};
        return profile;
    }
    if (!shapeFor(name)) {
        return fail(QStringLiteral("Unknown profile '%1'; use one of %2.")
                        .arg(name, names().join(QStringLiteral(", "))));
    }
    return profile;
}

std::vector<double> TimingProfile::emissionTimesMs(int chunk_count, quint64 seed) const {
    std::vector<double> times;
    double now_ms = 0;
    if (!m_replay_intervals_ms.empty()) {
        for (int k = 0; k < chunk_count; ++k) {
            const size_t index = std::min(static_cast<size_t>(k), m_replay_intervals_ms.size() - 1);
            now_ms += m_replay_intervals_ms[index];
            times.push_back(now_ms);
        }
        return times;
    }
    const Shape shape = *shapeFor(m_name);
    std::mt19937_64 random(seed ^ 0x9E3779B97F4A7C15ull);
    std::normal_distribution<double> jitter(0.0, 1.0);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int k = 0; k < chunk_count; ++k) {
        double interval = shape.ttfc_ms;
        if (k > 0) {
            // The attention window fills over six chunks, then the cost holds.
            const double ramp = std::min(1.0, (k - 1) / 5.0);
            interval = shape.first_ms + (shape.steady_ms - shape.first_ms) * ramp;
            if (m_name == QStringLiteral("edge")) {
                interval += (k % 2 == 0) ? 12.0 : -12.0;
            }
            if (k == chunk_count - 1) {
                interval *= shape.last_factor;
            }
        }
        interval *= 1.0 + shape.jitter * std::clamp(jitter(random), -3.0, 3.0);
        if (k > 0 && unit(random) < shape.spike_probability) {
            interval *= 1.35;
        }
        now_ms += interval;
        times.push_back(now_ms);
    }
    return times;
}

} // namespace lbm::sim
