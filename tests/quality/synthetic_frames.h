#pragma once
// Small yuv420p frames with known content for the signal tests: a deterministic texture
// (soft blobs plus hard-edged blocks, never periodic) seen through a horizontal pan, with an
// optional box blur, chroma levels and a luma offset, tagged like the decoder tags frames.

#include "app/media/decoded_frame.h"
#include "app/quality/chunk_context.h"

#include <vector>

namespace lbm::quality::test {

inline constexpr int kSyntheticWidth = 192;
inline constexpr int kSyntheticHeight = 120;

struct SyntheticPicture {
    int pan_px = 0;      // horizontal view offset into the texture
    int blur_radius = 0; // box blur radius on luma (0 = sharp)
    int u = 128;
    int v = 128;
    int luma_offset = 0;
    // >= 0: the top and bottom 10% of rows are painted this level (like a caption or a
    // barcode band over the picture).
    int margin_band_level = -1;
};

media::DecodedFrame syntheticFrame(const SyntheticPicture& picture, qint64 global_frame_number,
                                   qint64 generation_index, int index_in_chunk);
// A frame in another pixel format (rgb24), which the analysis cannot read.
media::DecodedFrame rgbFrame(qint64 global_frame_number, qint64 generation_index);

// A stream of chunks (9 frames in chunk 0, 12 after, as the server sends them) whose pictures
// a function decides; frames are numbered globally in order.
struct SyntheticChunk {
    std::vector<SyntheticPicture> pictures;
    ChunkContext context;
};
using PictureAt = SyntheticPicture (*)(qint64 chunk, int index_in_chunk, qint64 frame);
std::vector<SyntheticChunk> syntheticStream(int chunks, PictureAt picture, bool camera_moving);

} // namespace lbm::quality::test
