#include "app/engine/session_keeper.h"

#include "app/engine/session_document_builder.h"
#include "app/engine/session_engine.h"

#include <QFile>

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
    connect(engine, &SessionEngine::chunkLanded, this, [this] { writeDocument(); });
    connect(engine, &SessionEngine::finished, this, [this] { writeDocument(); });
    // Frames decoded are counted to the end of decoding, which can come after finished().
    connect(engine, &SessionEngine::decodingDone, this, [this] { writeDocument(); });
    // The visual quality analysis finishes after the last frame: its last chunks go in then.
    connect(engine, &SessionEngine::qualityDone, this, [this] { writeDocument(); });
}

bool SessionKeeper::prepare(EngineSettings& settings, QString* error) {
    m_writer.flush(5000); // the previous session's last document first
    auto session = m_archive.create(error);
    if (!session) {
        return false;
    }
    m_current = session;
    settings.recording_path = session->recordingPath();
    m_archive.prune(m_keep, session->folder);
    return true;
}

void SessionKeeper::writeDocument(const QString& interrupted_reason) {
    if (!m_current || !m_engine || !m_engine->hasSession()) {
        return;
    }
    SessionDocumentBuilder builder(m_engine->settings(), m_engine->url().toString());
    builder.addSession(*m_engine, m_view_extras ? m_view_extras() : QJsonObject{});
    builder.addMonitorExtra(QStringLiteral("recording"), QStringLiteral("stream.m4s"));
    report::SessionDocument document = builder.document();
    if (!interrupted_reason.isEmpty() && !m_engine->result()) {
        document.monitor->complete = false;
        document.monitor->incomplete_reason = interrupted_reason;
        document.monitor->extras.insert(QStringLiteral("interrupted"), true);
    }
    m_writer.write(document, m_current->documentPath());
    emit documentQueued();
}

bool SessionKeeper::finalize(const QString& interrupted_reason, int timeout_ms) {
    writeDocument(interrupted_reason);
    return m_writer.flush(timeout_ms);
}

} // namespace lbm::engine
