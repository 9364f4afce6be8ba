#pragma once
// What a transition filmstrip shows and where, apart from the widget: for one prompt
// interaction, the frames from the chunk before it started to the chunk after it completed
// (each chunk's first and last frame), and how a strip is laid out and painted, the same on
// screen and in the exported contact sheet.

#include "ui/prompt_interactions.h"

#include <QHash>
#include <QImage>
#include <QPalette>
#include <QRect>
#include <QString>

#include <vector>

class QPainter;

namespace lbm::ui {

struct FilmstripFrame {
    enum class Role { Before, Transition, Completed, After };
    qint64 chunk = 0;
    int frame = 0;     // global frame index in the recording
    bool first = true; // the chunk's first frame (else its last)
    Role role = Role::Before;
    int step = 0; // 1..K inside the transition (Transition and Completed)
};

struct FilmstripStrip {
    PromptInteraction interaction;
    std::vector<FilmstripFrame> frames;
    // The analysis's verdict on the transition ("landed on time in chunk 8"), or empty.
    QString verdict;
    // Why the strip has no frames, or what is odd about it ("never completed").
    QString note;
};

// The frames of interaction's strip; chunk_frames[i] is how many frames chunk i holds
// (generation order). It starts at the chunk before started_chunk and ends at the chunk
// after completed_chunk; one that never completed ends at the chunk after the one it should
// have landed in (started + max(K, 1)), or the chunk after it started when K is unknown. The
// session's last chunk bounds it. Empty when it never started.
std::vector<FilmstripFrame> filmstripFrames(const PromptInteraction& interaction,
                                            const std::vector<int>& chunk_frames);
FilmstripStrip filmstripStrip(const PromptInteraction& interaction,
                              const std::vector<int>& chunk_frames);

// The strip's header line ("‘Snow’ · K=3 · started chunk 5 · completed chunk 7 · …") and the
// label over a chunk's frames ("chunk 6 · 2/3"), as painted.
QString filmstripHeaderText(const FilmstripStrip& strip);
QString filmstripChunkLabel(const FilmstripFrame& frame, const PromptInteraction& interaction);

// Sizes in pixels. tile is a thumbnail's size.
struct FilmstripMetrics {
    QSize tile{160, 92};
    int header_height = 26; // the prompt line
    int chunk_label_height = 18;
    int caption_height = 16; // under each tile
    int frame_gap = 4;       // between a chunk's first and last frame
    int chunk_gap = 14;      // between chunks
    int padding = 8;

    explicit FilmstripMetrics(const QSize& tile_size = QSize(160, 92))
        : tile(tile_size) {}
};

QSize filmstripStripSize(const FilmstripStrip& strip, const FilmstripMetrics& metrics);
// Where frame i of strip is drawn, relative to the strip's top-left corner.
QRect filmstripTileRect(const FilmstripStrip& strip, int i, const FilmstripMetrics& metrics);
// The tile under position (strip coordinates), or -1.
int filmstripTileAt(const FilmstripStrip& strip, const QPoint& position,
                    const FilmstripMetrics& metrics);
// Paints strip with its top-left corner at origin; a thumbnail not (yet) decoded is a grey
// placeholder.
void paintFilmstripStrip(QPainter& painter, const QPoint& origin, const FilmstripStrip& strip,
                         const QHash<int, QImage>& thumbnails, const FilmstripMetrics& metrics,
                         const QPalette& palette);

// The contact sheet: a title line, a subtitle, then every strip under the other.
struct ContactSheetLayout {
    QSize size;
    std::vector<QPoint> strip_origins;
    int title_height = 0;
};
ContactSheetLayout contactSheetLayout(const std::vector<FilmstripStrip>& strips,
                                      const FilmstripMetrics& metrics);
QImage paintContactSheet(const std::vector<FilmstripStrip>& strips,
                         const QHash<int, QImage>& thumbnails, const FilmstripMetrics& metrics,
                         const QString& title, const QString& subtitle, const QPalette& palette);

} // namespace lbm::ui
