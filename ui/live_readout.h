#pragma once
// Reads the engine's live state out to every surface that shows it, from the one live
// metrics model: the counters, the HUD over the video, the chart's in-flight bar, the window
// title and the stall banner. The window calls refresh() on a 10 Hz tick and after each chunk,
// so a stall shows within a tenth of a second of its deadline and every surface shows the
// same number for the same thing.

#include "ui/latency_chart_model.h"
#include "ui/session_status.h"

#include <QObject>
#include <QString>

#include <functional>
#include <optional>
#include <utility>

namespace lbm::engine {
class SessionEngine;
}
namespace lbm::playback {
class PlaybackClock;
}

namespace lbm::ui {

class CameraSteering;
class CountersPanel;
class VideoView;

class LiveReadout : public QObject {
    Q_OBJECT
public:
    struct Surfaces {
        lbm::engine::SessionEngine* engine = nullptr;
        lbm::playback::PlaybackClock* clock = nullptr;
        CountersPanel* counters = nullptr;
        LatencyChartModel* chart = nullptr;
        VideoView* video = nullptr;
        CameraSteering* steering = nullptr;
    };
    LiveReadout(const Surfaces& surfaces, QObject* parent = nullptr);

    // While a document is viewed the counters are its own.
    void setShowingDocument(bool showing) { m_document = showing; }
    // The HUD's quality line for the chunk on screen (empty: none yet), so the line speaks of
    // the picture the viewer sees, not of a chunk still in the buffer.
    void setQualityLine(std::function<QString(qint64 chunk)> line_for_chunk) {
        m_quality_line = std::move(line_for_chunk);
    }

    void refresh();
    void refreshHud();
    // The session as words (title, stall banner), as of the last refresh().
    const SessionPicture& picture() const { return m_picture; }

signals:
    void titleChanged(const QString& title);
    // The stall banner's text, or an empty string once the chunk landed.
    void stallChanged(const QString& banner);

private:
    // The late chunk's wait when the session ended (stopped, failed) before it came.
    std::optional<LatencyChartModel::Waiting> endedWaiting() const;

    Surfaces m_surfaces;
    bool m_document = false;
    SessionPicture m_picture;
    QString m_title;
    QString m_banner;
    std::function<QString(qint64)> m_quality_line;
};

} // namespace lbm::ui
