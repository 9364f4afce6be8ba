#pragma once
// The after-session scrubber: a slider over every frame shown, with a tick at each chunk
// boundary and a mark where an interaction started or completed, plus frame-step buttons.

#include <QList>
#include <QWidget>

class QLabel;
class QSlider;
class QToolButton;

namespace lbm::ui {

class ScrubBar : public QWidget {
    Q_OBJECT
public:
    explicit ScrubBar(QWidget* parent = nullptr);

    // Frame positions (0-based in the history) where chunks begin, and where events are.
    void setFrames(int count, const QList<int>& chunk_starts, const QList<int>& event_frames);
    void setPosition(int frame);
    int position() const;
    void setLabel(const QString& text);

signals:
    void positionChanged(int frame);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QSlider* m_slider = nullptr;
    QToolButton* m_previous = nullptr;
    QToolButton* m_next = nullptr;
    QLabel* m_label = nullptr;
    int m_count = 0;
    QList<int> m_chunk_starts;
    QList<int> m_event_frames;
};

} // namespace lbm::ui
