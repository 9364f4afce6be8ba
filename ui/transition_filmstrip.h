#pragma once
// The transition filmstrip: for each prompt interaction of a session, a strip of frames from
// the chunk before it started to the chunk after it completed (each chunk's first and last
// frame), under the prompt text and its K, each frame labelled with its chunk and its place
// in the transition. The frames are read from the recording on disk on a thread of their own
// (ThumbnailLoader), never on the GUI thread. Clicking a frame asks the window to show it;
// the whole set exports as a PNG contact sheet.

#include "app/quality/chunk_quality.h"
#include "ui/filmstrip_layout.h"
#include "ui/prompt_interactions.h"

#include <QHash>
#include <QImage>
#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

class QLabel;
class QPushButton;
class QScrollArea;
class QVBoxLayout;

namespace lbm::ui {

class ThumbnailLoader;

class TransitionFilmstrip : public QWidget {
    Q_OBJECT
public:
    explicit TransitionFilmstrip(QWidget* parent = nullptr);
    ~TransitionFilmstrip() override;

    // The session to show: its recording, each chunk's frame count (ChunkRecord::num_frames,
    // generation order) and its prompt interactions (promptInteractionsFromJson). Loads the
    // thumbnails in the background; loaded() when every one is in. Call again as a live
    // session's transitions complete: frames already decoded are kept.
    void setSession(const QString& recording_path, const std::vector<int>& chunk_frames,
                    const std::vector<PromptInteraction>& interactions);
    // The analysis's verdicts on the transitions ("on time in chunk 8"), shown in the headers.
    void setTransitionChecks(const std::vector<quality::ChunkQuality>& chunks);
    void clear();

    const std::vector<FilmstripStrip>& strips() const { return m_strips; }
    // Every frame the strips show, in order.
    std::vector<int> framesShown() const;
    // The decoded thumbnail of frame (null until it is in).
    QImage thumbnail(int frame) const { return m_thumbnails.value(frame); }
    bool isLoaded() const;
    QString statusText() const;
    // Where frame i of strip s is on screen, in this widget's coordinates (tests click there).
    QPoint tilePosition(int strip, int i) const;

    // The contact sheet: a title line (given, or the recording's name), the recording and the
    // date, then every strip with its prompt, K and chunk numbers.
    QImage contactSheet(const QString& title = QString()) const;
    // Writes it as a PNG, atomically (QSaveFile). False with *error naming the path and why.
    bool exportContactSheet(const QString& path, QString* error,
                            const QString& title = QString()) const;
    static FilmstripMetrics screenMetrics();
    static FilmstripMetrics sheetMetrics();

signals:
    // A frame was clicked: the window seeks the recording there.
    void frameRequested(int global_frame);
    // Every thumbnail of the current strips is decoded (or failed).
    void loaded();
    void failed(const QString& reason);

private:
    void rebuild();
    void updateStatus();
    void exportWithDialog();

    QString m_recording_path;
    std::vector<int> m_chunk_frames;
    std::vector<PromptInteraction> m_interactions;
    std::vector<FilmstripStrip> m_strips;
    QHash<QString, QString> m_verdicts; // event id -> verdict text
    // event id -> the chunk the analysis saw the look land in (none: never visibly)
    QHash<QString, std::optional<qint64>> m_landed;
    QHash<int, QImage> m_thumbnails; // frame -> thumbnail (sheet size)
    QString m_message;               // a reading problem, or where the sheet was saved
    ThumbnailLoader* m_loader = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_export = nullptr;
    QScrollArea* m_scroll = nullptr;
    QWidget* m_content = nullptr;
    QVBoxLayout* m_rows = nullptr;
    QList<QWidget*> m_strip_views;
};

} // namespace lbm::ui
