#pragma once
// A one-line label for text that may not fit and must not widen its container or be cut mid
// glyph: a request id in the counters column, a kept session's path in the status bar. It
// shows as much as fits with "…" in the middle (both ends of an id or a path say the most)
// and the whole text in its tooltip.

#include <QLabel>

namespace lbm::ui {

class ElidingLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidingLabel(QWidget* parent = nullptr);

    void setFullText(const QString& text);
    // What the tooltip says besides the whole text when it is shortened.
    void setNote(const QString& note);
    const QString& fullText() const { return m_full; }
    // Whether the text shown is shortened.
    bool elided() const { return text() != m_full; }

    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void elide();

    QString m_full;
    QString m_note;
};

} // namespace lbm::ui
