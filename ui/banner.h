#pragma once
// The line above the video that says what went wrong (red) or deserves attention (amber):
// server errors verbatim, refusals, warnings, and a stall while it lasts (which goes away
// by itself when the chunk lands, unlike a message the user must read). It lies over the top
// of the video rather than above it, so the picture does not shrink and grow back as banners
// come and go.

#include <QLabel>

namespace lbm::ui {

class Banner : public QLabel {
    Q_OBJECT
public:
    explicit Banner(QWidget* parent = nullptr);

    void showMessage(const QString& text, bool error = true);
    // A stall notice: replaced by messages, removed by clearStall().
    void showStall(const QString& text);
    void clearStall();
    void dismiss();
    // The text shown, or empty when hidden.
    QString shownText() const;
    // Lies over the top edge of host (its parent from now on), as wide as host.
    void overlay(QWidget* host);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void place();
    void paint(bool error);
    bool m_stall = false;
};

} // namespace lbm::ui
