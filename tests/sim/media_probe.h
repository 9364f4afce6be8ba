#pragma once
// Test-side inspection of the simulator's bytes: top-level MP4 boxes and a full FFmpeg
// decode from memory whose frames are identified by their barcodes.

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace lbm::sim::test {

// Four-character types of the top-level boxes in bytes, in order; stops at a malformed box.
QStringList topLevelBoxes(const QByteArray& bytes);
int countBoxes(const QStringList& boxes, const QString& type);

struct DecodedStream {
    QString error; // empty on success
    int width = 0;
    int height = 0;
    std::vector<qint64> barcodes; // -1 where a frame had no readable band
    // With keep_luma: each frame's luma, every kLumaStep-th pixel of every kLumaStep-th row.
    static constexpr int kLumaStep = 4;
    int luma_width = 0;
    int luma_height = 0;
    std::vector<std::vector<quint8>> luma;
};

// Demuxes and decodes a whole fMP4 byte stream held in memory with libavformat/libavcodec.
DecodedStream decodeStream(const QByteArray& bytes, bool keep_luma = false);

} // namespace lbm::sim::test
