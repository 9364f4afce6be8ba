#pragma once
// The recording's transport bar: play/pause, step buttons and a slider across the video's
// width, with marks above it (chunk boundaries, interactions, quality flags) that explain
// themselves on hover and jump there on click, and a line saying where the playhead is.

#include <QColor>
#include <QList>
#include <QString>
#include <QWidget>

class QLabel;
class QPainter;
class QSlider;
class QToolButton;

namespace lbm::ui {

struct ScrubMark {
    enum class Kind { Chunk, Event, Flag };
    int frame = 0;
    Kind kind = Kind::Chunk;
    QString tooltip;
    // Flag: the frames the flagged chunk spans from frame (drawn as a band under the tick),
    // and the colour of its flag (invalid: the late red).
    int span_frames = 0;
    QColor color{};
    // Flag: one colour per flag the chunk raised (first at the bottom), drawn as stacked
    // stripes so a tint under a blur shows as well; empty: color alone.
    QList<QColor> stripes{};
};

class ScrubBar : public QWidget {
    Q_OBJECT
public:
    explicit ScrubBar(QWidget* parent = nullptr);

    void setFrames(int count, const QList<ScrubMark>& marks);
    void setPosition(int frame);
    int position() const;
    int count() const { return m_count; }
    void setLabel(const QString& text);
    QString label() const;
    void setPlaying(bool playing);
    const QList<ScrubMark>& marks() const { return m_marks; }
    // The mark under x (this widget's coordinates), or -1: what hovering and clicking use.
    int markAt(int x) const;
    // Where frame is drawn along the slider (this widget's x).
    int xOfFrame(int frame) const;

signals:
    void positionChanged(int frame);
    void playToggled();
    void stepRequested(int frames);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    void paintMark(QPainter& painter, const ScrubMark& mark) const;

    QSlider* m_slider = nullptr;
    QToolButton* m_play = nullptr;
    QToolButton* m_previous = nullptr;
    QToolButton* m_next = nullptr;
    QLabel* m_label = nullptr;
    int m_count = 0;
    QList<ScrubMark> m_marks;
};

} // namespace lbm::ui
