#include "ui/filmstrip_layout.h"

#include "ui/status_colors.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace lbm::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("TransitionFilmstrip", text);
}

constexpr int kSheetMargin = 24;
constexpr int kSheetTitleHeight = 56;
constexpr int kSheetStripGap = 18;

QColor roleColor(FilmstripFrame::Role role, const QPalette& palette) {
    switch (role) {
    case FilmstripFrame::Role::Before:
    case FilmstripFrame::Role::After:
        return mutedColor(palette);
    case FilmstripFrame::Role::Transition:
        return accentColor(palette);
    case FilmstripFrame::Role::Completed:
        return onTimeColor(palette);
    }
    return mutedColor(palette);
}

// Who superseded interaction: the newer prompt's text, else its event id.
QString supersederName(const PromptInteraction& interaction) {
    return interaction.superseded_by_prompt.isEmpty()
               ? interaction.superseded_by
               : QStringLiteral("‘%1’").arg(interaction.superseded_by_prompt);
}

QString chunkLabel(const FilmstripFrame& frame, const PromptInteraction& interaction) {
    const QString chunk = tr("chunk %1").arg(frame.chunk);
    if (interaction.superseded_chunk && frame.chunk >= *interaction.superseded_chunk) {
        // The newer prompt's chunk: not a step of this transition.
        return tr("%1 · the newer prompt").arg(chunk);
    }
    switch (frame.role) {
    case FilmstripFrame::Role::Before:
        return tr("%1 · before").arg(chunk);
    case FilmstripFrame::Role::After:
        return tr("%1 · after").arg(chunk);
    case FilmstripFrame::Role::Transition:
    case FilmstripFrame::Role::Completed: {
        const QString step = interaction.transition_chunks
                                 ? QStringLiteral("%1/%2")
                                       .arg(frame.step)
                                       .arg(std::max(1, *interaction.transition_chunks))
                                 : QString::number(frame.step);
        return frame.role == FilmstripFrame::Role::Completed
                   ? tr("%1 · %2 completed").arg(chunk, step)
                   : tr("%1 · %2").arg(chunk, step);
    }
    }
    return chunk;
}

QString headerText(const FilmstripStrip& strip) {
    const PromptInteraction& p = strip.interaction;
    QStringList parts;
    parts << QStringLiteral("‘%1’").arg(p.prompt) << p.kText();
    if (p.started_chunk) {
        parts << tr("started chunk %1").arg(*p.started_chunk);
    }
    if (p.completed_chunk) {
        parts << tr("completed chunk %1").arg(*p.completed_chunk);
    } else if (p.superseded_chunk) {
        parts << tr("superseded by %1 at chunk %2").arg(supersederName(p)).arg(*p.superseded_chunk);
    } else {
        parts << tr("never completed");
    }
    if (!strip.verdict.isEmpty()) {
        parts << strip.verdict;
    }
    parts << p.event_id;
    return parts.join(QStringLiteral("  ·  "));
}

QFont headerFont() {
    QFont font;
    font.setPixelSize(14);
    font.setBold(true);
    return font;
}

} // namespace

QString filmstripHeaderText(const FilmstripStrip& strip) {
    return headerText(strip);
}

QString filmstripChunkLabel(const FilmstripFrame& frame, const PromptInteraction& interaction) {
    return chunkLabel(frame, interaction);
}

std::vector<FilmstripFrame> filmstripFrames(const PromptInteraction& interaction,
                                            const std::vector<int>& chunk_frames) {
    std::vector<FilmstripFrame> frames;
    const auto chunk_count = static_cast<qint64>(chunk_frames.size());
    if (!interaction.started_chunk || *interaction.started_chunk >= chunk_count ||
        *interaction.started_chunk < 0) {
        return frames;
    }
    const qint64 started = *interaction.started_chunk;
    const qint64 landing = interaction.completed_chunk   ? *interaction.completed_chunk
                           : interaction.expectedChunk() ? *interaction.expectedChunk()
                                                         : started;
    // Superseded before it completed: its own chunks end where the newer prompt starts; that
    // chunk closes the strip (the newer prompt's, labelled so), nothing after it.
    const qint64 own_end = interaction.superseded_chunk && !interaction.completed_chunk
                               ? std::max(started, *interaction.superseded_chunk - 1)
                               : std::max(landing, started);
    const qint64 first_chunk = std::max<qint64>(0, started - 1);
    const qint64 last_chunk = std::min(chunk_count - 1, own_end + 1);
    std::vector<int> starts(chunk_frames.size() + 1, 0);
    for (size_t i = 0; i < chunk_frames.size(); ++i) {
        starts[i + 1] = starts[i] + chunk_frames[i];
    }
    for (qint64 chunk = first_chunk; chunk <= last_chunk; ++chunk) {
        const int count = chunk_frames[static_cast<size_t>(chunk)];
        if (count <= 0) {
            continue;
        }
        FilmstripFrame frame;
        frame.chunk = chunk;
        if (chunk < started) {
            frame.role = FilmstripFrame::Role::Before;
        } else if (interaction.completed_chunk && chunk == *interaction.completed_chunk) {
            frame.role = FilmstripFrame::Role::Completed;
        } else if (chunk > std::min(landing, own_end)) {
            frame.role = FilmstripFrame::Role::After;
        } else {
            frame.role = FilmstripFrame::Role::Transition;
        }
        if (frame.role == FilmstripFrame::Role::Transition ||
            frame.role == FilmstripFrame::Role::Completed) {
            frame.step = static_cast<int>(chunk - started) + 1;
        }
        frame.frame = starts[static_cast<size_t>(chunk)];
        frame.first = true;
        frames.push_back(frame);
        if (count > 1) {
            frame.frame += count - 1;
            frame.first = false;
            frames.push_back(frame);
        }
    }
    return frames;
}

FilmstripStrip filmstripStrip(const PromptInteraction& interaction,
                              const std::vector<int>& chunk_frames) {
    FilmstripStrip strip;
    strip.interaction = interaction;
    strip.frames = filmstripFrames(interaction, chunk_frames);
    if (!interaction.error.isEmpty()) {
        strip.note = tr("failed: %1").arg(interaction.error);
    } else if (!interaction.started_chunk) {
        strip.note = tr("never started: no chunk shows this prompt");
    } else if (strip.frames.empty()) {
        strip.note = tr("started at chunk %1, past the end of the recording")
                         .arg(*interaction.started_chunk);
    } else if (!interaction.completed_chunk && interaction.superseded_chunk) {
        strip.note = tr("superseded before it completed: shown to chunk %1, where %2 starts")
                         .arg(*interaction.superseded_chunk)
                         .arg(supersederName(interaction));
    } else if (!interaction.completed_chunk) {
        strip.note = tr("never completed: shown to the chunk after it should have landed");
    }
    return strip;
}

QRect filmstripTileRect(const FilmstripStrip& strip, int i, const FilmstripMetrics& m) {
    int x = m.padding;
    for (int j = 0; j < i; ++j) {
        x += m.tile.width();
        const bool same_chunk = strip.frames[static_cast<size_t>(j + 1)].chunk ==
                                strip.frames[static_cast<size_t>(j)].chunk;
        x += same_chunk ? m.frame_gap : m.chunk_gap;
    }
    const int y = m.header_height + m.chunk_label_height;
    return QRect(QPoint(x, y), m.tile);
}

QSize filmstripStripSize(const FilmstripStrip& strip, const FilmstripMetrics& m) {
    // Wide enough for the prompt line (up to a limit: longer prompts are elided).
    // (A little slack: text drawn on a widget may come out a pixel or two wider than measured.)
    const int header =
        std::min(1600, QFontMetrics(headerFont()).horizontalAdvance(headerText(strip)) + 12) +
        2 * m.padding;
    if (strip.frames.empty()) {
        const int note = QFontMetrics(headerFont()).horizontalAdvance(strip.note) + 2 * m.padding;
        return QSize(std::max({header, note, 480}), m.header_height + 30);
    }
    const int height =
        m.header_height + m.chunk_label_height + m.tile.height() + m.caption_height + m.padding;
    const QRect last = filmstripTileRect(strip, static_cast<int>(strip.frames.size()) - 1, m);
    return QSize(std::max(header, last.right() + 1 + m.padding), height);
}

int filmstripTileAt(const FilmstripStrip& strip, const QPoint& position,
                    const FilmstripMetrics& m) {
    for (int i = 0; i < static_cast<int>(strip.frames.size()); ++i) {
        if (filmstripTileRect(strip, i, m)
                .adjusted(0, -m.chunk_label_height, 0, m.caption_height)
                .contains(position)) {
            return i;
        }
    }
    return -1;
}

void paintFilmstripStrip(QPainter& painter, const QPoint& origin, const FilmstripStrip& strip,
                         const QHash<int, QImage>& thumbnails, const FilmstripMetrics& m,
                         const QPalette& palette) {
    painter.save();
    painter.translate(origin);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    const QFont header_font = headerFont();
    painter.setFont(header_font);
    painter.setPen(palette.color(QPalette::Text));
    const int width = filmstripStripSize(strip, m).width();
    const QRect header(m.padding, 0, width - 2 * m.padding, m.header_height);
    painter.drawText(
        header, Qt::AlignLeft | Qt::AlignVCenter,
        QFontMetrics(header_font).elidedText(headerText(strip), Qt::ElideRight, header.width()));
    QFont small = painter.font();
    small.setPixelSize(11);
    small.setBold(false);
    if (strip.frames.empty()) {
        painter.setFont(small);
        painter.setPen(mutedColor(palette));
        painter.drawText(QRect(m.padding, m.header_height, width - 2 * m.padding, 30),
                         Qt::AlignLeft | Qt::AlignTop, strip.note);
        painter.restore();
        return;
    }
    for (int i = 0; i < static_cast<int>(strip.frames.size()); ++i) {
        const FilmstripFrame& frame = strip.frames[static_cast<size_t>(i)];
        const QRect tile = filmstripTileRect(strip, i, m);
        const QColor color = roleColor(frame.role, palette);
        if (frame.first) {
            // The chunk's label over its pair of frames.
            const bool pair = i + 1 < static_cast<int>(strip.frames.size()) &&
                              strip.frames[static_cast<size_t>(i + 1)].chunk == frame.chunk;
            const int right = pair ? filmstripTileRect(strip, i + 1, m).right() : tile.right();
            QFont label = small;
            label.setBold(frame.role != FilmstripFrame::Role::Before &&
                          frame.role != FilmstripFrame::Role::After);
            painter.setFont(label);
            painter.setPen(frame.role == FilmstripFrame::Role::Before ||
                                   frame.role == FilmstripFrame::Role::After
                               ? palette.color(QPalette::Text)
                               : color);
            painter.drawText(
                QRect(tile.left(), m.header_height, right - tile.left() + 1, m.chunk_label_height),
                Qt::AlignLeft | Qt::AlignVCenter, chunkLabel(frame, strip.interaction));
        }
        const QImage image = thumbnails.value(frame.frame);
        if (image.isNull()) {
            painter.fillRect(tile, mutedColor(palette).lighter(150));
        } else {
            painter.drawImage(tile, image);
        }
        painter.setPen(QPen(color, frame.role == FilmstripFrame::Role::Before ||
                                           frame.role == FilmstripFrame::Role::After
                                       ? 1.0
                                       : 2.5));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(tile).adjusted(0.5, 0.5, -0.5, -0.5));
        painter.setFont(small);
        painter.setPen(mutedColor(palette));
        painter.drawText(
            QRect(tile.left(), tile.bottom() + 1, tile.width(), m.caption_height),
            Qt::AlignLeft | Qt::AlignVCenter,
            (frame.first ? tr("first · frame %1") : tr("last · frame %1")).arg(frame.frame));
    }
    painter.restore();
}

ContactSheetLayout contactSheetLayout(const std::vector<FilmstripStrip>& strips,
                                      const FilmstripMetrics& metrics) {
    ContactSheetLayout layout;
    layout.title_height = kSheetTitleHeight;
    int y = kSheetMargin + kSheetTitleHeight;
    int width = 900;
    for (const FilmstripStrip& strip : strips) {
        const QSize size = filmstripStripSize(strip, metrics);
        layout.strip_origins.push_back(QPoint(kSheetMargin, y));
        y += size.height() + kSheetStripGap;
        width = std::max(width, size.width());
    }
    layout.size = QSize(width + 2 * kSheetMargin, y - kSheetStripGap + kSheetMargin);
    return layout;
}

QImage paintContactSheet(const std::vector<FilmstripStrip>& strips,
                         const QHash<int, QImage>& thumbnails, const FilmstripMetrics& metrics,
                         const QString& title, const QString& subtitle, const QPalette& palette) {
    const ContactSheetLayout layout = contactSheetLayout(strips, metrics);
    QImage image(layout.size, QImage::Format_RGB32);
    image.fill(palette.color(QPalette::Base));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::TextAntialiasing);
    QFont font = painter.font();
    font.setPixelSize(20);
    font.setBold(true);
    painter.setFont(font);
    painter.setPen(palette.color(QPalette::Text));
    painter.drawText(QRect(kSheetMargin, kSheetMargin, layout.size.width() - 2 * kSheetMargin, 26),
                     Qt::AlignLeft | Qt::AlignVCenter, title);
    font.setPixelSize(12);
    font.setBold(false);
    painter.setFont(font);
    painter.setPen(mutedColor(palette));
    painter.drawText(
        QRect(kSheetMargin, kSheetMargin + 28, layout.size.width() - 2 * kSheetMargin, 18),
        Qt::AlignLeft | Qt::AlignVCenter, subtitle);
    for (size_t i = 0; i < strips.size(); ++i) {
        paintFilmstripStrip(painter, layout.strip_origins[i], strips[i], thumbnails, metrics,
                            palette);
    }
    painter.end();
    return image;
}

} // namespace lbm::ui
