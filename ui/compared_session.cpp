#include "ui/compared_session.h"

#include "app/engine/session_archive.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonObject>

#include <algorithm>
#include <exception>

namespace lbm::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("SideBySideWindow", text);
}

QString native(const QString& path) {
    return QDir::toNativeSeparators(path);
}

// What to pick instead, for every error.
QString whatToPick() {
    return tr("Pick a session folder the window kept (File ▸ Recent Sessions; they live in %1) "
              "or a session document with its recording (stream.m4s) beside it.")
        .arg(native(engine::SessionArchive::defaultRoot()));
}

QString recordingBeside(const report::SessionDocument& document, const QString& document_path) {
    const QString name = document.monitor
                             ? document.monitor->extras.value(QStringLiteral("recording"))
                                   .toString(QStringLiteral("stream.m4s"))
                             : QStringLiteral("stream.m4s");
    return QFileInfo(document_path).dir().filePath(QFileInfo(name).fileName());
}

} // namespace

std::optional<ComparedSession> ComparedSession::load(const QString& path, QString* error) {
    if (path.trimmed().isEmpty()) {
        *error = tr("No session chosen. ") + whatToPick();
        return std::nullopt;
    }
    const QFileInfo info(path);
    if (!info.exists()) {
        *error = tr("%1 does not exist. ").arg(native(path)) + whatToPick();
        return std::nullopt;
    }
    ComparedSession session;
    if (info.isDir()) {
        session.document_path = QDir(path).filePath(QStringLiteral("session.json"));
        if (!QFileInfo::exists(session.document_path)) {
            *error = tr("%1 holds no session.json, so it is not a kept session folder. ")
                         .arg(native(path)) +
                     whatToPick();
            return std::nullopt;
        }
    } else if (info.suffix().compare(QLatin1String("m4s"), Qt::CaseInsensitive) == 0) {
        session.document_path = info.dir().filePath(QStringLiteral("session.json"));
        if (!QFileInfo::exists(session.document_path)) {
            *error = tr("%1 is a recording without its session document (session.json) beside "
                        "it: the document says where each chunk starts. ")
                         .arg(native(path)) +
                     whatToPick();
            return std::nullopt;
        }
    } else {
        session.document_path = path;
    }
    try {
        session.document = report::readSessionDocument(session.document_path);
    } catch (const std::exception& failure) {
        *error = tr("%1 is not a session document we can read: %2 ")
                     .arg(native(session.document_path), QString::fromUtf8(failure.what())) +
                 whatToPick();
        return std::nullopt;
    }
    if (session.document.sessions.empty()) {
        *error = tr("%1 holds no session. ").arg(native(session.document_path)) + whatToPick();
        return std::nullopt;
    }
    session.recording_path = info.suffix().compare(QLatin1String("m4s"), Qt::CaseInsensitive) == 0
                                 ? info.absoluteFilePath()
                                 : recordingBeside(session.document, session.document_path);
    if (!QFileInfo::exists(session.recording_path)) {
        *error = tr("%1 has no recording beside it (%2 is missing): the side-by-side view plays "
                    "recordings. Keep the session folder whole, or save the raw stream next to "
                    "the document (bench --save-raw %3).")
                     .arg(native(session.document_path), native(session.recording_path),
                          QFileInfo(session.recording_path).fileName());
        return std::nullopt;
    }
    session.chunks = session.document.sessions.front().chunks;
    std::stable_sort(session.chunks.begin(), session.chunks.end(),
                     [](const auto& a, const auto& b) { return a.index < b.index; });
    if (session.chunks.empty()) {
        *error = tr("%1 holds no chunk: the session ended before its first chunk. ")
                     .arg(native(session.document_path)) +
                 whatToPick();
        return std::nullopt;
    }
    try {
        session.quality = report::sessionQuality(session.document.sessions.front(),
                                                 QStringLiteral("sessions[0]"));
    } catch (const std::exception& failure) {
        session.quality_problem = QString::fromUtf8(failure.what());
    }
    return session;
}

std::vector<int> ComparedSession::chunkFrames() const {
    std::vector<int> frames;
    frames.reserve(chunks.size());
    for (const lbm::ChunkRecord& chunk : chunks) {
        frames.push_back(chunk.num_frames);
    }
    return frames;
}

QJsonArray ComparedSession::interactions() const {
    return document.sessions.front().monitor_extras.value(QStringLiteral("interactions")).toArray();
}

std::vector<PromptInteraction> ComparedSession::prompts() const {
    return promptInteractionsFromJson(interactions(), document.workload);
}

QString ComparedSession::title() const {
    const report::SessionEntry& entry = document.sessions.front();
    QStringList parts;
    parts << (entry.request_id ? tr("run %1").arg(*entry.request_id)
                               : QFileInfo(document_path).dir().dirName());
    const QString profile =
        document.monitor
            ? document.monitor->extras.value(QStringLiteral("simulator_profile")).toString()
            : QString();
    parts << (profile.isEmpty() ? document.endpoint : tr("simulator %1").arg(profile));
    if (document.monitor) {
        const QJsonArray faults =
            document.monitor->extras.value(QStringLiteral("simulator_faults")).toArray();
        QStringList names;
        for (const QJsonValue& fault : faults) {
            names << fault.toString();
        }
        if (!names.isEmpty()) {
            parts << tr("faults %1").arg(names.join(QLatin1Char(' ')));
        }
    }
    parts << tr("%1 chunks").arg(chunks.size());
    const QDateTime when = QDateTime::fromString(document.timestamp, Qt::ISODateWithMs);
    if (when.isValid()) {
        parts << when.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
    }
    return parts.join(QStringLiteral(" · "));
}

QString ComparedSession::promptLine() const {
    QStringList parts;
    for (const PromptInteraction& prompt : prompts()) {
        QString text =
            prompt.prompt.size() > 40 ? prompt.prompt.left(39) + QChar(0x2026) : prompt.prompt;
        QString where;
        if (!prompt.error.isEmpty()) {
            where = tr("failed");
        } else if (!prompt.started_chunk) {
            where = tr("never started");
        } else if (!prompt.completed_chunk) {
            where = tr("chunk %1 → never completed").arg(*prompt.started_chunk);
        } else {
            where = tr("chunk %1 → %2").arg(*prompt.started_chunk).arg(*prompt.completed_chunk);
        }
        parts << QStringLiteral("‘%1’ %2 %3").arg(text, prompt.kText(), where);
    }
    return parts.join(QStringLiteral("  ·  "));
}

std::vector<ChartEventMark>
chartMarksFromInteractions(const QJsonArray& interactions,
                           const std::vector<lbm::ChunkRecord>& chunks) {
    // Where something sent at t_s sits: after the chunks that had arrived by then.
    const auto between = [&chunks](double t_s) {
        const auto arrived = std::count_if(chunks.cbegin(), chunks.cend(),
                                           [t_s](const auto& c) { return c.arrival_s <= t_s; });
        return static_cast<double>(arrived) - 0.5;
    };
    std::vector<ChartEventMark> marks;
    for (const QJsonValue& value : interactions) {
        const QJsonObject object = value.toObject();
        const QString kind = object.value(QStringLiteral("kind")).toString();
        const bool camera = kind.startsWith(QLatin1String("camera"));
        const ChartEventMark::Subject subject =
            camera ? ChartEventMark::Subject::Camera : ChartEventMark::Subject::Prompt;
        const QString summary = object.value(QStringLiteral("summary")).toString().left(60);
        const auto label = [&](const QString& what) {
            return QStringLiteral("%1 %2: %3").arg(kind, what, summary);
        };
        if (object.value(QStringLiteral("error")).isString()) {
            const double at =
                between(object.value(QStringLiteral("error_s"))
                            .toDouble(object.value(QStringLiteral("sent_s")).toDouble()));
            marks.push_back({ChartEventMark::Kind::Failed, subject, at,
                             label(QStringLiteral("failed")) + QStringLiteral(" — ") +
                                 object.value(QStringLiteral("error")).toString()});
            continue;
        }
        if (camera) {
            if (object.value(QStringLiteral("sent_s")).isDouble()) {
                marks.push_back({ChartEventMark::Kind::Sent, subject,
                                 between(object.value(QStringLiteral("sent_s")).toDouble()),
                                 label(QStringLiteral("sent"))});
            }
            continue;
        }
        if (object.value(QStringLiteral("sent_s")).isDouble()) {
            marks.push_back({ChartEventMark::Kind::Sent, subject,
                             between(object.value(QStringLiteral("sent_s")).toDouble()),
                             label(QStringLiteral("sent"))});
        }
        for (const auto& [key, mark_kind, what] :
             {std::tuple{QStringLiteral("started_chunk"), ChartEventMark::Kind::Started,
                         QStringLiteral("started")},
              std::tuple{QStringLiteral("completed_chunk"), ChartEventMark::Kind::Completed,
                         QStringLiteral("completed")}}) {
            if (object.value(key).isDouble()) {
                marks.push_back({mark_kind, subject, object.value(key).toDouble(), label(what)});
            }
        }
    }
    std::stable_sort(marks.begin(), marks.end(), [](const auto& a, const auto& b) {
        return a.chunk_position < b.chunk_position;
    });
    return marks;
}

} // namespace lbm::ui
