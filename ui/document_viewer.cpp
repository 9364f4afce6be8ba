#include "ui/document_viewer.h"

#include "app/playback/playback_stalls.h"
#include "metrics/geometry.h"
#include "metrics/session_metrics.h"
#include "ui/counters_panel.h"
#include "ui/latency_chart_model.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonObject>

#include <exception>

namespace lbm::ui {

DocumentViewer::DocumentViewer(LatencyChartModel* chart, CountersPanel* counters, QObject* parent)
    : QObject(parent)
    , m_chart(chart)
    , m_counters(counters) {}

std::optional<lbm::report::SessionDocument> DocumentViewer::read(const QString& path,
                                                                 QString* error) {
    try {
        auto document = lbm::report::readSessionDocument(path);
        if (document.sessions.empty()) {
            *error = tr("%1 holds no session.").arg(QDir::toNativeSeparators(path));
            return std::nullopt;
        }
        return document;
    } catch (const std::exception& failure) {
        *error = QString::fromUtf8(failure.what());
        return std::nullopt;
    }
}

bool DocumentViewer::open(const QString& path, QString* error) {
    auto document = read(path, error);
    if (!document) {
        return false;
    }
    m_document = std::move(document);
    m_path = path;
    m_warning.clear();
    const auto& session = m_document->sessions.front();
    const auto& config = m_document->config;
    const lbm::MetricsOptions options = lbm::report::metricsOptionsFor(config, session);
    const double deadline = lbm::chunkDeadlineMs(options);
    const int expected = m_document->workload.value(QStringLiteral("num_chunks")).toInt();
    m_chart->clearComparison();
    m_counters->reset(expected, m_document->workload.value(QStringLiteral("num_frames")).toInt(),
                      deadline);
    try {
        m_chart->showRecords(session.chunks, options, expected);
        const auto metrics = lbm::computeMetrics(session.chunks, options);
        m_counters->showMetrics(metrics, true);
        // The simulated viewer replayed over the kept records, so the counters read as they did
        // when the session ended: what it held then, and a stall the end cut short.
        lbm::LiveSessionMetrics live(options);
        for (const lbm::ChunkRecord& record : session.chunks) {
            live.addRecord(record);
        }
        const double ended_s = session.wall_s           ? *session.wall_s
                               : session.chunks.empty() ? 0.0
                                                        : session.chunks.back().arrival_s;
        const double buffered_s = live.playback().bufferedAheadSeconds(ended_s);
        m_counters->showSimulatedPlayback(metrics.playback, buffered_s, false, {}, {}, true);
        if (outcome().kind != lbm::report::OutcomeKind::Finished && session.wall_s) {
            if (const auto ended = endedStall(live, *session.wall_s)) {
                m_counters->showSimulatedPlayback(live.simulatedPlayback(), buffered_s, false,
                                                  ended->underway, ended->waited_s, true);
            }
        }
    } catch (const std::exception& failure) {
        m_warning = QString::fromUtf8(failure.what());
    }
    m_chart->setPrimaryLabel(QFileInfo(path).fileName());
    m_counters->showConnection(outcome().word(), session.request_id.value_or(QString()));
    // What the decoder made of the stream, as the document kept it while the session ran.
    const QJsonValue decoded = session.monitor_extras.value(QStringLiteral("frames_decoded"));
    const QJsonValue announced = session.monitor_extras.value(QStringLiteral("frames_announced"));
    if (decoded.isDouble() && announced.isDouble()) {
        m_counters->showFrames(decoded.toInteger(), announced.toInteger());
    }
    // The stalls the window's player had while the session ran, as the document kept them.
    const QJsonObject observed =
        session.monitor_extras.value(QStringLiteral("observed_player_stalls")).toObject();
    if (!observed.isEmpty()) {
        lbm::playback::PlaybackStalls stalls;
        stalls.count = observed.value(QStringLiteral("count")).toInt();
        stalls.total_s = observed.value(QStringLiteral("total_ms")).toDouble() / 1000.0;
        stalls.longest_s = observed.value(QStringLiteral("longest_ms")).toDouble() / 1000.0;
        m_counters->showObservedStalls(stalls);
    }
    return true;
}

bool DocumentViewer::compare(const QString& path, QString* error) {
    const auto document = read(path, error);
    if (!document) {
        return false;
    }
    m_chart->setComparison(document->sessions.front().chunks, QFileInfo(path).fileName());
    return true;
}

void DocumentViewer::close() {
    m_document.reset();
    m_path.clear();
    m_warning.clear();
}

QString DocumentViewer::statusText() const {
    if (!m_document) {
        return {};
    }
    const auto chunks = m_document->sessions.front().chunks.size();
    return tr("Viewing %1: %2, endpoint %3, %4.")
        .arg(QDir::toNativeSeparators(m_path))
        .arg(chunks == 1 ? tr("1 chunk") : tr("%1 chunks").arg(chunks))
        .arg(m_document->endpoint)
        .arg(recordingPath().isEmpty() ? tr("no recording beside it") : tr("with its recording"));
}

lbm::report::SessionOutcome DocumentViewer::outcome() const {
    return m_document ? lbm::report::readOutcome(*m_document) : lbm::report::SessionOutcome{};
}

QString DocumentViewer::outcomeSentence() const {
    if (!m_document) {
        return {};
    }
    return outcome().sentence(static_cast<qsizetype>(m_document->sessions.front().chunks.size()),
                              m_document->workload.value(QStringLiteral("num_chunks")).toInteger());
}

QString DocumentViewer::windowTitle() const {
    if (!m_document) {
        return {};
    }
    const auto& session = m_document->sessions.front();
    return tr("%1: %2 — LingBot Live Monitor")
        .arg(outcome().word(), session.request_id.value_or(QFileInfo(m_path).dir().dirName()));
}

QString DocumentViewer::recordingPath() const {
    if (!m_document) {
        return {};
    }
    const QString name = m_document->monitor
                             ? m_document->monitor->extras.value(QStringLiteral("recording"))
                                   .toString(QStringLiteral("stream.m4s"))
                             : QStringLiteral("stream.m4s");
    const QString path = QFileInfo(m_path).dir().filePath(QFileInfo(name).fileName());
    return QFileInfo::exists(path) ? path : QString();
}

QJsonArray DocumentViewer::interactions() const {
    return m_document ? m_document->sessions.front()
                            .monitor_extras.value(QStringLiteral("interactions"))
                            .toArray()
                      : QJsonArray();
}

} // namespace lbm::ui
