#include "app/engine/session_keeper.h"

#include "app/engine/session_document_builder.h"
#include "app/engine/session_engine.h"

#include <QFile>

#include <algorithm>

namespace lbm::engine {

SessionKeeper::SessionKeeper(SessionEngine* engine, QString root, QObject* parent)
    : QObject(parent)
    , m_engine(engine)
    , m_archive(std::move(root)) {
    connect(engine, &SessionEngine::videoStarted, this, [this](const QString& request_id) {
        if (!m_current) {
            return;
        }
        // The recording is open in the folder; renaming the folder keeps it writing.
        if (m_archive.nameAfter(*m_current, request_id) && m_engine) {
            m_engine->relocateRecording(m_current->recordingPath());
        }
        writeDocument();
    });
    m_spacing.setSingleShot(true);
    connect(&m_spacing, &QTimer::timeout, this, [this] { writeDocument(); });
    connect(engine, &SessionEngine::chunkLanded, this, &SessionKeeper::scheduleWrite);
    connect(engine, &SessionEngine::finished, this, [this] { writeDocument(); });
    // Frames decoded are counted to the end of decoding, which can come after finished().
    connect(engine, &SessionEngine::decodingDone, this, [this] { writeDocument(); });
    // The visual quality analysis finishes after the last frame: its last chunks go in then.
    connect(engine, &SessionEngine::qualityDone, this, [this] { writeDocument(); });
}

bool SessionKeeper::prepare(EngineSettings& settings, QString* error) {
    m_spacing.stop();
    m_since_write.invalidate();
    m_writer.flush(5000); // the previous session's last document first
    auto session = m_archive.create(error);
    if (!session) {
        return false;
    }
    m_current = session;
    m_interrupted_reason.clear();
    settings.recording_path = session->recordingPath();
    m_archive.prune(m_keep, session->folder);
    return true;
}

namespace {

constexpr qint64 kMinRewriteSpacingMs = 1000;
// A rewrite (assembling here, serialising and replacing the file on the writer's thread)
// takes at most 1/100 of the time until the next one. A document costs O(chunks) to rebuild,
// so the spacing grows with the session and its share of a core stays flat; the stream on
// disk is appended per chunk whatever the spacing, and the end is written at once.
constexpr qint64 kRewriteCostShare = 100;

} // namespace

qint64 SessionKeeper::rewriteSpacingMs() const {
    const qint64 cost_ns = m_last_build_ns + m_writer.lastWriteNs();
    return std::max(kMinRewriteSpacingMs, kRewriteCostShare * cost_ns / 1000000);
}

void SessionKeeper::scheduleWrite() {
    if (m_spacing.isActive()) {
        return; // the waiting rewrite will include this chunk
    }
    const qint64 since = m_since_write.isValid() ? m_since_write.elapsed() : rewriteSpacingMs();
    const qint64 wait = rewriteSpacingMs() - since;
    if (wait <= 0) {
        writeDocument();
    } else {
        m_spacing.start(static_cast<int>(wait));
    }
}

void SessionKeeper::writeDocument() {
    m_spacing.stop(); // this write includes whatever the waiting one would have
    if (!m_current || !m_engine || !m_engine->hasSession()) {
        return;
    }
    QElapsedTimer build;
    build.start();
    SessionDocumentBuilder builder(m_engine->settings(), m_engine->url().toString());
    builder.addSession(*m_engine, m_view_extras ? m_view_extras() : QJsonObject{});
    builder.addMonitorExtra(QStringLiteral("recording"), QStringLiteral("stream.m4s"));
    report::SessionDocument document = builder.document();
    if (!m_interrupted_reason.isEmpty()) {
        report::recordOutcome(document, {report::OutcomeKind::Interrupted, m_interrupted_reason});
        document.monitor->extras.insert(QStringLiteral("interrupted"), true);
    }
    m_writer.write(document, m_current->documentPath());
    m_last_build_ns = build.nsecsElapsed();
    m_since_write.start();
    emit documentQueued();
}

bool SessionKeeper::finalize(const QString& interrupted_reason, int timeout_ms) {
    // An interruption stays in every later rewrite of this session's document (the engine's
    // finished signal, the window's close after a signal).
    if (!interrupted_reason.isEmpty() && m_interrupted_reason.isEmpty()) {
        m_interrupted_reason = interrupted_reason;
    }
    writeDocument();
    return m_writer.flush(timeout_ms);
}

} // namespace lbm::engine
