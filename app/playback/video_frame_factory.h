#pragma once
// Conversions from decoded pictures to the QVideoFrame a QVideoSink displays. Qt 6.4 has no
// QVideoFrame(QImage) constructor, so the pixels are copied plane by plane into a mapped
// frame of the matching pixel format.

#include <QImage>
#include <QVideoFrame>

namespace lbm::playback {

// RGB32/ARGB32 (and anything convertible to them) as a Format_BGRX8888 or Format_BGRA8888
// frame; a null image gives an invalid frame.
QVideoFrame videoFrameFromImage(const QImage& image);

} // namespace lbm::playback
