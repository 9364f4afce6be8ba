#pragma once
// Renders and encodes one session's chunks on that session's worker thread, so libx264
// never blocks the event loop that timestamps and sends messages.

#include "app/sim/fmp4_encoder.h"
#include "app/sim/frame_renderer.h"
#include "app/sim/interaction_engine.h"

#include <QByteArray>
#include <QObject>

#include <memory>

namespace lbm::sim {

class ChunkProducer : public QObject {
    Q_OBJECT
public:
    ChunkProducer(const QImage& first_frame, int width, int height, int fps);
    ~ChunkProducer() override;

    // Runs on the worker thread. last: also finish the stream and hand back the trailer.
    void produce(const ChunkPlan& plan, bool last);

signals:
    void produced(int generation_chunk_index, const QByteArray& media, const QByteArray& trailer);
    void failed(const QString& message);

private:
    FrameRenderer m_renderer;
    std::unique_ptr<Fmp4Encoder> m_encoder;
    int m_width;
    int m_height;
    int m_fps;
};

} // namespace lbm::sim
