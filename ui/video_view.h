#pragma once
// The video: draws each frame the playback clock (or the recording player) hands it, with
// the HUD overlay painted on top. Frames arrive as the decoder's YUV pictures; a converter
// thread of the view's own turns the newest one into RGB at the size it is shown (libswscale,
// scaling in the same pass), so the GUI thread only blits a ready picture and never converts
// or copies frames. When frames come faster than they convert, the newest wins.
//
// Why not QVideoWidget: in Qt 6.4 it is a native window that no widget can draw over, and a
// HUD over the video is the point; QGraphicsVideoItem converts on the GUI thread.

#include "app/media/decoded_frame.h"
#include "ui/hud_overlay.h"

#include <QImage>
#include <QWidget>

#include <memory>
#include <optional>

namespace lbm::ui {

class VideoView : public QWidget {
    Q_OBJECT
public:
    explicit VideoView(QWidget* parent = nullptr);
    ~VideoView() override;

    // Shows frame once converted (asynchronously; frameDisplayed() says when).
    void showFrame(const lbm::media::DecodedFrame& frame);
    // Shows a still picture as it is; no frame number.
    void showStill(const QImage& image);
    // The bundled first frame a session starts from by default (the idle picture).
    void showIdlePicture();

    HudOverlay& hud() { return m_hud; }
    // Repaints the overlay (its lines changed) without converting again.
    void refreshOverlay() { update(); }

    // The frame whose picture is on screen, and that picture (tests, exports).
    const std::optional<lbm::media::DecodedFrame>& displayedFrame() const { return m_displayed; }
    QImage displayedImage() const { return m_image; }
    // Frames handed to showFrame() that never reached the screen because a newer one came
    // before their conversion did (the display end's frame drops, ffplay's "fd"): with the
    // frames displayed they account for every frame handed over.
    qint64 framesSuperseded() const { return m_frames_superseded; }
    // Where the picture is drawn: the widget's rect fitted to the picture's aspect ratio.
    QRect pictureRect() const;

signals:
    // The frame's picture is now on screen.
    void frameDisplayed(const lbm::media::DecodedFrame& frame);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    class Converter;
    void requestConversion(const lbm::media::DecodedFrame& frame);
    void onConverted(quint64 serial, const QImage& image, const lbm::media::DecodedFrame& frame);

    std::unique_ptr<Converter> m_converter;
    HudOverlay m_hud;
    QImage m_image;
    std::optional<lbm::media::DecodedFrame> m_displayed;
    std::optional<lbm::media::DecodedFrame> m_requested;
    QSize m_source_size{832, 480};
    quint64 m_serial = 0;
    bool m_requested_displayed = false;
    qint64 m_frames_superseded = 0;
};

} // namespace lbm::ui
