#pragma once
// Two recordings next to each other, locked by frame index, to compare two deploy configs or
// two transition lengths: each side a kept session folder (stream.m4s and session.json) or a
// session document with its recording beside it, shown with its title, its video, its latency
// chart and its quality track; the charts span the same chunks, so a chunk is at the same place
// on both sides (a zoom on one is applied to the other). One transport drives both: Space
// plays and pauses, Left / Right step a frame, Shift a chunk, Home / End; the shorter side
// holds its last frame. A side that cannot be opened says why and what to pick instead.

#include "ui/frame_transport.h"
#include "ui/scrub_bar.h"

#include <QString>
#include <QWidget>

#include <array>

namespace lbm::ui {

class SideBySidePane;

class SideBySideWindow : public QWidget {
    Q_OBJECT
public:
    // A new top-level window comparing path_a (left) and path_b (right), shown; it deletes
    // itself when closed. For File ▸ Compare Sessions Side by Side.
    static SideBySideWindow* open(const QString& path_a, const QString& path_b,
                                  QWidget* parent = nullptr);
    // Asks for the two sessions (each a session.json, another session document or a
    // stream.m4s with its document beside it), starting in the kept-sessions folder, then
    // open(); nullptr when the user cancels.
    static SideBySideWindow* openWithDialog(QWidget* parent = nullptr);

    explicit SideBySideWindow(QWidget* parent = nullptr);
    ~SideBySideWindow() override;

    // Loads one side (0 left, 1 right). False when it cannot be opened (the side shows why);
    // otherwise its recording is indexed in the background and ready() follows once every
    // side that loaded is indexed.
    bool load(int side, const QString& path);
    SideBySidePane* pane(int side) const { return m_panes[static_cast<size_t>(side)]; }
    ScrubBar* scrubBar() const { return m_bar; }
    QString errorText(int side) const;

    // The transport, in frames of the longer recording; its chunk steps follow the left
    // side's layout (the right's when the left did not open).
    FrameTransport* transport() const { return m_transport; }
    int frameCount() const;
    int position() const { return m_transport->position(); }
    void seekFrame(int frame) { m_transport->seekFrame(frame); }
    void seekChunk(qint64 chunk);
    bool isPlaying() const { return m_transport->isPlaying(); }

signals:
    // Every side that loaded is indexed and shows the first frame.
    void ready();

private:
    void onPaneOpened();
    void onPosition(int frame);
    void rebuildMarks();
    void syncZoom(int from_side);
    SideBySidePane* layoutPane() const;

    std::array<SideBySidePane*, 2> m_panes{};
    ScrubBar* m_bar = nullptr;
    FrameTransport* m_transport = nullptr;
    bool m_syncing_zoom = false;
};

} // namespace lbm::ui
