#include "tests/quality/synthetic_frames.h"

#include "app/media/av_ptr.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <new>

namespace lbm::quality::test {
namespace {

// A texture for any pan: smooth variation plus hard-edged 16-px blocks whose levels come
// from a hash, so no two places look alike (a 1-px pan changes the block edges only).
int textureLuma(int x, int y) {
    const uint32_t block = static_cast<uint32_t>((x / 16) * 7919 + (y / 16) * 104729);
    const uint32_t hash = (block * 2654435761u) >> 24;
    const double smooth = 30.0 * std::sin(x / 23.0) * std::cos(y / 17.0);
    return std::clamp(static_cast<int>(90 + smooth + static_cast<int>(hash % 100)), 16, 235);
}

media::DecodedFrame wrap(const AVFrame* frame, qint64 global, qint64 chunk, int index) {
    media::FrameTag tag;
    tag.global_frame_number = global;
    tag.chunk = ChunkIdentity{chunk, chunk, 0, ChunkKind::Media};
    tag.index_in_chunk = index;
    return media::DecodedFrame(frame, tag);
}

// No Catch assertions here: the worker tests build frames on a producer thread, and Catch's
// assertion counters are not thread-safe.
media::AvFramePtr allocateFrame(int format, int width, int height) {
    media::AvFramePtr frame(av_frame_alloc());
    if (!frame) {
        throw std::bad_alloc();
    }
    frame->format = format;
    frame->width = width;
    frame->height = height;
    if (av_frame_get_buffer(frame.get(), 0) < 0) {
        throw std::bad_alloc();
    }
    return frame;
}

} // namespace

media::DecodedFrame syntheticFrame(const SyntheticPicture& picture, qint64 global_frame_number,
                                   qint64 generation_index, int index_in_chunk) {
    media::AvFramePtr frame = allocateFrame(AV_PIX_FMT_YUV420P, kSyntheticWidth, kSyntheticHeight);
    std::vector<int> luma(static_cast<size_t>(kSyntheticWidth * kSyntheticHeight));
    for (int y = 0; y < kSyntheticHeight; ++y) {
        for (int x = 0; x < kSyntheticWidth; ++x) {
            luma[static_cast<size_t>(y * kSyntheticWidth + x)] =
                textureLuma(x + picture.pan_px, y) + picture.luma_offset;
        }
    }
    const int r = picture.blur_radius;
    if (r > 0) {
        std::vector<int> blurred(luma.size());
        for (int y = 0; y < kSyntheticHeight; ++y) {
            for (int x = 0; x < kSyntheticWidth; ++x) {
                int sum = 0;
                int count = 0;
                for (int dy = -r; dy <= r; ++dy) {
                    for (int dx = -r; dx <= r; ++dx) {
                        const int sx = std::clamp(x + dx, 0, kSyntheticWidth - 1);
                        const int sy = std::clamp(y + dy, 0, kSyntheticHeight - 1);
                        sum += luma[static_cast<size_t>(sy * kSyntheticWidth + sx)];
                        ++count;
                    }
                }
                blurred[static_cast<size_t>(y * kSyntheticWidth + x)] = sum / count;
            }
        }
        luma.swap(blurred);
    }
    const int band_rows = kSyntheticHeight / 10;
    for (int y = 0; y < kSyntheticHeight; ++y) {
        const bool band = y < band_rows || y >= kSyntheticHeight - band_rows;
        for (int x = 0; x < kSyntheticWidth; ++x) {
            const int level = band && picture.margin_band_level >= 0
                                  ? picture.margin_band_level
                                  : luma[static_cast<size_t>(y * kSyntheticWidth + x)];
            frame->data[0][y * frame->linesize[0] + x] =
                static_cast<uint8_t>(std::clamp(level, 0, 255));
        }
    }
    for (int y = 0; y < kSyntheticHeight / 2; ++y) {
        std::fill_n(frame->data[1] + y * frame->linesize[1], kSyntheticWidth / 2,
                    static_cast<uint8_t>(picture.u));
        std::fill_n(frame->data[2] + y * frame->linesize[2], kSyntheticWidth / 2,
                    static_cast<uint8_t>(picture.v));
    }
    return wrap(frame.get(), global_frame_number, generation_index, index_in_chunk);
}

media::DecodedFrame rgbFrame(qint64 global_frame_number, qint64 generation_index) {
    media::AvFramePtr frame = allocateFrame(AV_PIX_FMT_RGB24, 32, 32);
    return wrap(frame.get(), global_frame_number, generation_index, 0);
}

std::vector<SyntheticChunk> syntheticStream(int chunks, PictureAt picture, bool camera_moving) {
    std::vector<SyntheticChunk> stream;
    qint64 frame = 0;
    for (qint64 chunk = 0; chunk < chunks; ++chunk) {
        SyntheticChunk synthetic;
        synthetic.context.generation_index = chunk;
        synthetic.context.camera_moving = camera_moving;
        const int frames = chunk == 0 ? 9 : 12;
        for (int i = 0; i < frames; ++i, ++frame) {
            synthetic.pictures.push_back(picture(chunk, i, frame));
        }
        stream.push_back(synthetic);
    }
    return stream;
}

} // namespace lbm::quality::test
