#pragma once
// Test fixtures for the media layer, generated on the spot: a server-faithful fMP4 stream
// from the simulator's Fmp4Encoder whose every frame carries its global number as a
// barcode, split into chunks exactly as the server's payloads are, plus an independent
// whole-file FFmpeg decode to compare against.

#include "app/media/decoded_frame.h"
#include "app/media/stream_decoder.h"
#include "metrics/chunk_record.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace lbm::media::test {

struct EncodedChunk {
    ChunkIdentity info;
    QByteArray bytes;
};

struct EncodedStream {
    std::vector<EncodedChunk> chunks; // media chunks, then the trailer
    qint64 total_frames = 0;
    QByteArray concatenated() const;
};

// frames_per_chunk e.g. {9, 12, 12}; the trailer is appended. 832x480 at 16 fps.
EncodedStream encodeStream(const std::vector<int>& frames_per_chunk);

// Pops every frame until the decoder ends; fails the test (returns what it got) if nothing
// arrives for timeout_ms.
std::vector<DecodedFrame> drainFrames(StreamDecoder& decoder, int timeout_ms = 20000);

// -1 where the band is unreadable.
qint64 barcodeOf(const DecodedFrame& frame);

struct FileDecode {
    QString error;
    std::vector<quint64> luma_checksums;
    std::vector<qint64> barcodes;
};
// Decodes a whole file with plain libavformat/libavcodec (seekable file I/O, no StreamDecoder),
// so it is an independent reference.
FileDecode decodeFile(const QString& path);

} // namespace lbm::media::test
