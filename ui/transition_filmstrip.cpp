#include "ui/transition_filmstrip.h"

#include "ui/status_colors.h"
#include "ui/thumbnail_loader.h"

#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>

namespace lbm::ui {

namespace {

// One strip on screen: painted as the contact sheet paints it, frames clickable.
class StripView : public QWidget {
public:
    StripView(const FilmstripStrip& strip, const QHash<int, QImage>& thumbnails,
              TransitionFilmstrip* owner)
        : QWidget(owner)
        , m_strip(strip)
        , m_thumbnails(thumbnails)
        , m_owner(owner) {
        setFixedSize(filmstripStripSize(strip, TransitionFilmstrip::screenMetrics()));
        setMouseTracking(true);
    }

    const FilmstripStrip& strip() const { return m_strip; }

protected:
    void paintEvent(QPaintEvent* /*event*/) override {
        QPainter painter(this);
        paintFilmstripStrip(painter, QPoint(0, 0), m_strip, m_thumbnails,
                            TransitionFilmstrip::screenMetrics(), palette());
    }
    void mouseMoveEvent(QMouseEvent* event) override {
        const int i = filmstripTileAt(m_strip, event->position().toPoint(),
                                      TransitionFilmstrip::screenMetrics());
        setCursor(i >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
        setToolTip(i >= 0 ? TransitionFilmstrip::tr("Show frame %1 (chunk %2) in the player")
                                .arg(m_strip.frames[static_cast<size_t>(i)].frame)
                                .arg(m_strip.frames[static_cast<size_t>(i)].chunk)
                          : QString());
    }
    void mousePressEvent(QMouseEvent* event) override {
        const int i = filmstripTileAt(m_strip, event->position().toPoint(),
                                      TransitionFilmstrip::screenMetrics());
        if (event->button() == Qt::LeftButton && i >= 0) {
            emit m_owner->frameRequested(m_strip.frames[static_cast<size_t>(i)].frame);
        }
    }

private:
    FilmstripStrip m_strip;
    const QHash<int, QImage>& m_thumbnails;
    TransitionFilmstrip* m_owner;
};

} // namespace

FilmstripMetrics TransitionFilmstrip::screenMetrics() {
    return FilmstripMetrics(QSize(160, 92));
}

FilmstripMetrics TransitionFilmstrip::sheetMetrics() {
    return FilmstripMetrics(QSize(240, 138));
}

TransitionFilmstrip::TransitionFilmstrip(QWidget* parent)
    : QWidget(parent)
    , m_loader(new ThumbnailLoader(this)) {
    connect(m_loader, &ThumbnailLoader::thumbnailReady, this,
            [this](int frame, const QImage& image) {
                m_thumbnails.insert(frame, image);
                for (QWidget* view : std::as_const(m_strip_views)) {
                    view->update();
                }
                updateStatus();
            });
    connect(m_loader, &ThumbnailLoader::failed, this, [this](const QString& reason) {
        m_message = reason;
        updateStatus();
        emit failed(reason);
    });
    connect(m_loader, &ThumbnailLoader::finished, this, [this] {
        updateStatus();
        emit loaded();
    });

    m_status = new QLabel(this);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_export = new QPushButton(tr("Export contact sheet…"), this);
    m_export->setToolTip(tr("Save every strip with its prompt and chunk numbers as one PNG"));
    connect(m_export, &QPushButton::clicked, this, &TransitionFilmstrip::exportWithDialog);
    auto* tools = new QHBoxLayout();
    tools->addWidget(m_status, 1);
    tools->addWidget(m_export);

    m_content = new QWidget();
    m_rows = new QVBoxLayout(m_content);
    m_rows->setContentsMargins(4, 4, 4, 4);
    m_rows->setSpacing(10);
    m_rows->addStretch(1);
    m_scroll = new QScrollArea(this);
    m_scroll->setWidget(m_content);
    m_scroll->setWidgetResizable(true);
    m_scroll->setBackgroundRole(QPalette::Base);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(tools);
    layout->addWidget(m_scroll, 1);
    updateStatus();
}

TransitionFilmstrip::~TransitionFilmstrip() = default;

void TransitionFilmstrip::setSession(const QString& recording_path,
                                     const std::vector<int>& chunk_frames,
                                     const std::vector<PromptInteraction>& interactions) {
    if (recording_path != m_recording_path || chunk_frames != m_chunk_frames) {
        m_thumbnails.clear();
    }
    m_recording_path = recording_path;
    m_chunk_frames = chunk_frames;
    m_interactions = interactions;
    m_message.clear();
    rebuild();
    std::vector<int> missing;
    for (const int frame : framesShown()) {
        if (!m_thumbnails.contains(frame)) {
            missing.push_back(frame);
        }
    }
    if (missing.empty()) {
        m_loader->cancel();
        updateStatus();
        emit loaded();
        return;
    }
    m_loader->load(recording_path, missing, sheetMetrics().tile.width());
    updateStatus();
}

void TransitionFilmstrip::setTransitionChecks(const std::vector<quality::ChunkQuality>& chunks) {
    m_verdicts.clear();
    m_landed.clear();
    for (const quality::ChunkQuality& chunk : chunks) {
        for (const quality::TransitionCheck& check : chunk.transitions) {
            m_landed.insert(check.event_id, check.landed_chunk);
            const QString landed = check.landed_chunk
                                       ? tr("landed in chunk %1").arg(*check.landed_chunk)
                                       : tr("never visibly landed");
            m_verdicts.insert(
                check.event_id,
                tr("analysis: %1, %2").arg(landed, quality::transitionVerdictName(check.verdict)));
        }
    }
    rebuild();
}

void TransitionFilmstrip::clear() {
    m_loader->cancel();
    m_recording_path.clear();
    m_chunk_frames.clear();
    m_interactions.clear();
    m_thumbnails.clear();
    m_message.clear();
    rebuild();
}

void TransitionFilmstrip::rebuild() {
    m_strips.clear();
    for (const PromptInteraction& interaction : m_interactions) {
        FilmstripStrip strip = filmstripStrip(interaction, m_chunk_frames);
        strip.verdict = m_verdicts.value(interaction.event_id);
        const auto landed = m_landed.value(interaction.event_id);
        if (!strip.verdict.isEmpty() && !interaction.completed_chunk &&
            interaction.superseded_chunk && (!landed || *landed >= *interaction.superseded_chunk)) {
            // A change the analysis saw from the superseding chunk on is the newer prompt's
            // look, not this one landing late.
            strip.verdict = tr("analysis: superseded before its look landed");
        }
        m_strips.push_back(strip);
    }
    qDeleteAll(m_strip_views);
    m_strip_views.clear();
    for (const FilmstripStrip& strip : m_strips) {
        auto* view = new StripView(strip, m_thumbnails, this);
        view->setParent(m_content);
        m_rows->insertWidget(m_rows->count() - 1, view);
        m_strip_views.append(view);
    }
    updateStatus();
}

std::vector<int> TransitionFilmstrip::framesShown() const {
    std::vector<int> frames;
    for (const FilmstripStrip& strip : m_strips) {
        for (const FilmstripFrame& frame : strip.frames) {
            frames.push_back(frame.frame);
        }
    }
    return frames;
}

bool TransitionFilmstrip::isLoaded() const {
    return !m_loader->isLoading();
}

void TransitionFilmstrip::updateStatus() {
    const std::vector<int> frames = framesShown();
    const auto have = std::count_if(frames.cbegin(), frames.cend(),
                                    [this](int frame) { return m_thumbnails.contains(frame); });
    QString text;
    if (m_strips.empty()) {
        text = m_recording_path.isEmpty() ? tr("No session: the filmstrip shows a session's "
                                               "prompt transitions once it has a recording.")
                                          : tr("This session has no prompt transition.");
    } else {
        text = m_strips.size() == 1 ? tr("1 prompt transition")
                                    : tr("%1 prompt transitions").arg(m_strips.size());
        text += tr(" · %1 of %2 frames").arg(have).arg(frames.size());
        if (m_loader->isLoading()) {
            text += tr(" · reading the recording…");
        }
    }
    if (!m_message.isEmpty()) {
        text += QStringLiteral("\n") + m_message;
    }
    m_status->setText(text);
    m_export->setEnabled(!m_strips.empty());
}

QString TransitionFilmstrip::statusText() const {
    return m_status->text();
}

QPoint TransitionFilmstrip::tilePosition(int strip, int i) const {
    if (strip < 0 || strip >= m_strip_views.size()) {
        return {};
    }
    const auto* view = static_cast<const StripView*>(m_strip_views.at(strip));
    const QRect tile = filmstripTileRect(view->strip(), i, screenMetrics());
    return view->mapTo(this, tile.center());
}

QImage TransitionFilmstrip::contactSheet(const QString& title) const {
    const QString heading =
        title.isEmpty() ? tr("Prompt transitions · %1").arg(QFileInfo(m_recording_path).fileName())
                        : title;
    const QString subtitle = tr("%1 · exported %2 · first and last frame of each chunk")
                                 .arg(QDir::toNativeSeparators(m_recording_path))
                                 .arg(QDateTime::currentDateTimeUtc().toString(
                                     QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")));
    // A sheet is for print and slides: always the light palette.
    QPalette light;
    light.setColor(QPalette::Window, Qt::white);
    light.setColor(QPalette::Base, Qt::white);
    light.setColor(QPalette::Text, QColor(0x20, 0x20, 0x20));
    light.setColor(QPalette::WindowText, QColor(0x20, 0x20, 0x20));
    return paintContactSheet(m_strips, m_thumbnails, sheetMetrics(), heading, subtitle, light);
}

bool TransitionFilmstrip::exportContactSheet(const QString& path, QString* error,
                                             const QString& title) const {
    if (m_strips.empty()) {
        *error = tr("Nothing to export: the session has no prompt transition.");
        return false;
    }
    const QImage sheet = contactSheet(title);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = tr("Cannot write %1: %2. Choose a folder you can write to.")
                     .arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    if (!sheet.save(&file, "PNG") || !file.commit()) {
        *error = tr("Cannot write %1: %2. Check the free space and try again.")
                     .arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

void TransitionFilmstrip::exportWithDialog() {
    const QString suggested =
        QFileInfo(m_recording_path).dir().filePath(QStringLiteral("transitions.png"));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export contact sheet"), suggested,
                                                      tr("PNG images (*.png)"));
    if (path.isEmpty()) {
        return;
    }
    QString error;
    if (!exportContactSheet(path, &error)) {
        m_message = error;
    } else {
        m_message = tr("Saved %1").arg(QDir::toNativeSeparators(path));
    }
    updateStatus();
}

} // namespace lbm::ui
