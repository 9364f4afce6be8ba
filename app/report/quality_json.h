#pragma once
// A session's visual quality analysis in the session document, under our own key:
// sessions[i]["lingbot_monitor"]["quality"] = {"settings": {...}, "chunks": [...]}. The
// per-chunk signals, flags, transition checks and notes round-trip; the per-frame signals
// are not stored (a long session would carry hundreds of thousands of numbers nobody reads
// from a document).

#include "app/quality/chunk_quality.h"
#include "app/quality/quality_settings.h"
#include "app/report/session_document.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>
#include <vector>

namespace lbm::report {

// The key inside a session's "lingbot_monitor" object.
inline const QString kQualityKey = QStringLiteral("quality");

struct SessionQuality {
    quality::QualitySettings settings; // the thresholds and window the flags were raised with
    std::vector<quality::ChunkQuality> chunks; // in generation order
};

QJsonObject qualityToJson(const SessionQuality& quality);
// Throws ReportError naming the field (e.g. "sessions[0].lingbot_monitor.quality.chunks[3]
// .seam_score") when a field is missing or of the wrong type.
SessionQuality qualityFromJson(const QJsonValue& value, const QString& where);

// The session's analysis, if its document entry has one (throws ReportError when it is
// malformed); where names the session for messages ("sessions[0]").
std::optional<SessionQuality> sessionQuality(const SessionEntry& session, const QString& where);
void setSessionQuality(SessionEntry& session, const SessionQuality& quality);

} // namespace lbm::report
