#include "ui/session_summary.h"

#include "app/report/quality_json.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QMap>
#include <QStringList>

#include <exception>

namespace lbm::ui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("SessionSummary", text);
}

} // namespace

SessionSummary readSessionSummary(const lbm::engine::ArchivedSession& archived) {
    SessionSummary summary;
    summary.archived = archived;
    try {
        const auto document = lbm::report::readSessionDocument(archived.documentPath());
        summary.endpoint = document.endpoint;
        if (document.monitor) {
            const QJsonObject& extras = document.monitor->extras;
            summary.profile = extras.value(QStringLiteral("simulator_profile")).toString();
            QStringList faults;
            for (const auto& fault : extras.value(QStringLiteral("simulator_faults")).toArray()) {
                faults << fault.toString();
            }
            summary.faults = faults.join(QLatin1Char(' '));
        }
        summary.expected_chunks = document.workload.value(QStringLiteral("num_chunks")).toInteger();
        if (!document.sessions.empty()) {
            const auto& session = document.sessions.front();
            summary.chunks = static_cast<qsizetype>(session.chunks.size());
            if (session.metrics) {
                summary.underruns = session.metrics->playback.underrun_count;
            }
            if (const auto quality =
                    lbm::report::sessionQuality(session, QStringLiteral("sessions[0]"))) {
                summary.quality_analysed = true;
                summary.quality_chunks = static_cast<qsizetype>(quality->chunks.size());
                QMap<QString, int> counts;
                for (const auto& chunk : quality->chunks) {
                    for (const QString& flag : lbm::quality::qualityFlagNames(chunk.flags)) {
                        ++counts[flag];
                    }
                }
                QStringList flags;
                for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
                    flags << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
                }
                summary.quality_flags = flags.join(QStringLiteral(", "));
            }
        }
        summary.outcome = lbm::report::readOutcome(document);
        summary.readable = true;
    } catch (const std::exception& error) {
        summary.problem = QString::fromUtf8(error.what());
    }
    return summary;
}

QString SessionSummary::label() const {
    QStringList parts{archived.started_utc.toString(QStringLiteral("yyyy-MM-dd HH:mm"))};
    if (!readable) {
        parts << tr("unreadable document");
        return parts.join(QStringLiteral(" · "));
    }
    if (!profile.isEmpty()) {
        parts << profile;
    }
    parts << (expected_chunks > 0 ? tr("%1/%2 chunks").arg(chunks).arg(expected_chunks)
                                  : tr("%1 chunks").arg(chunks));
    parts << outcome.word();
    if (underruns && *underruns > 0) {
        parts << (*underruns == 1 ? tr("1 underrun") : tr("%1 underruns").arg(*underruns));
    }
    return parts.join(QStringLiteral(" · "));
}

QString SessionSummary::details() const {
    QStringList lines;
    if (!readable) {
        lines << problem;
    } else {
        lines << outcome.sentence(chunks, expected_chunks);
        lines << tr("endpoint %1").arg(endpoint);
        if (!faults.isEmpty()) {
            lines << tr("faults %1").arg(faults);
        }
        if (!archived.request_id.isEmpty()) {
            lines << archived.request_id;
        }
    }
    lines << QDir::toNativeSeparators(archived.folder);
    return lines.join(QLatin1Char('\n'));
}

QString SessionSummary::qualityText() const {
    if (!quality_analysed) {
        return {};
    }
    const QString flags = quality_flags.isEmpty() ? tr("clean") : quality_flags;
    // A "clean" read before the analysis reached the last chunks is not a verdict on them.
    return quality_chunks < chunks
               ? tr("%1 (%2 of %3 chunks analysed)").arg(flags).arg(quality_chunks).arg(chunks)
               : flags;
}

} // namespace lbm::ui
