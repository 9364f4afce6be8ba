#include "app/quality/frame_measurer.h"

#include "app/quality/detail_tiles.h"

extern "C" {
#include <libavutil/frame.h>
#include <libavutil/pixdesc.h>
}

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

namespace lbm::quality {
namespace {

constexpr int kMaxStep = 16;
constexpr double kMaxMargin = 0.45;

// 8-bit planar YUV with chroma planes 1 and 2 (yuv420p, yuvj420p, yuv422p, yuv444p, ...).
bool isPlanarYuv8(int format) {
    const AVPixFmtDescriptor* desc = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(format));
    if (desc == nullptr || desc->nb_components < 3 || (desc->flags & AV_PIX_FMT_FLAG_RGB) ||
        !(desc->flags & AV_PIX_FMT_FLAG_PLANAR) || (desc->flags & AV_PIX_FMT_FLAG_HWACCEL)) {
        return false;
    }
    for (int i = 0; i < 3; ++i) {
        if (desc->comp[i].depth != 8 || desc->comp[i].plane != i || desc->comp[i].step != 1) {
            return false;
        }
    }
    return true;
}

} // namespace

FrameMeasurer::FrameMeasurer(double edge_margin, int sample_step)
    : m_edge_margin(std::clamp(edge_margin, 0.0, kMaxMargin))
    , m_step(std::clamp(sample_step, 1, kMaxStep)) {}

void FrameMeasurer::reset() {
    m_previous.clear();
    m_previous_chroma = ChromaGrid{};
    m_motion.reset();
    m_previous_width = 0;
    m_previous_height = 0;
}

std::optional<FrameMeasures> FrameMeasurer::measure(const AVFrame& frame, QString* error) {
    if (!isPlanarYuv8(frame.format) || frame.width < 3 || frame.height < 3) {
        if (error != nullptr) {
            const char* name = av_get_pix_fmt_name(static_cast<AVPixelFormat>(frame.format));
            *error = QStringLiteral("Visual quality analysis needs 8-bit planar YUV frames of at "
                                    "least 3x3 pixels; got %1 at %2x%3, so those frames are "
                                    "skipped.")
                         .arg(QString::fromLatin1(name != nullptr ? name : "an unknown format"))
                         .arg(frame.width)
                         .arg(frame.height);
        }
        return std::nullopt;
    }
    const AVPixFmtDescriptor* desc = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(frame.format));
    const int width = frame.width;
    const int height = frame.height;
    const int margin = static_cast<int>(std::lround(height * m_edge_margin));
    // Rows 1 .. height-2 at most, so the Laplacian's neighbours always exist.
    const int top = std::max(1, margin);
    const int bottom = std::min(height - 1, height - margin);
    const uint8_t* luma = frame.data[0];
    const int stride = frame.linesize[0];

    const bool comparable =
        m_previous_width == width && m_previous_height == height && !m_previous.empty();
    // The buffer of two frames ago is reused for this frame's samples (no allocation per
    // frame once the geometry is steady).
    std::vector<uint8_t> samples = std::move(m_spare);
    samples.clear();
    samples.reserve(static_cast<size_t>((bottom - top) / m_step + 1) *
                    static_cast<size_t>(width / m_step + 1));
    uint64_t luma_sum = 0;
    uint64_t change_sum = 0;
    uint64_t laplacian_sum = 0;
    uint64_t laplacian_count = 0;
    uint64_t coarse_sum = 0;
    uint64_t coarse_count = 0;
    constexpr int C = kCoarseStep;
    // Per tile (kDetailTileColumns x kDetailTileRows over the measured window): sums, counts.
    std::array<uint64_t, kDetailTileColumns * kDetailTileRows> tile_fine_sum{};
    std::array<uint32_t, kDetailTileColumns * kDetailTileRows> tile_fine_count{};
    std::array<uint64_t, kDetailTileColumns * kDetailTileRows> tile_coarse_sum{};
    std::array<uint32_t, kDetailTileColumns * kDetailTileRows> tile_coarse_count{};
    const int window_rows = std::max(1, bottom - top);
    // Sampled rows start one column further each time (quincunx for step 2), so a pan by an
    // odd number of pixels moves content past samples in every frame, not every other one.
    int row_index = 0;
    for (int y = top; y < bottom; y += m_step, ++row_index) {
        const uint8_t* row = luma + static_cast<ptrdiff_t>(y) * stride;
        const uint8_t* above = row - stride;
        const uint8_t* below = row + stride;
        const int tile_row = (y - top) * kDetailTileRows / window_rows * kDetailTileColumns;
        for (int x = row_index % m_step; x < width; x += m_step) {
            const int tile = tile_row + x * kDetailTileColumns / width;
            const int pixel = row[x];
            luma_sum += static_cast<uint64_t>(pixel);
            if (comparable) {
                change_sum += static_cast<uint64_t>(std::abs(pixel - m_previous[samples.size()]));
            }
            samples.push_back(static_cast<uint8_t>(pixel));
            if (x > 0 && x < width - 1) {
                const auto fine = static_cast<uint64_t>(
                    std::abs(4 * pixel - row[x - 1] - row[x + 1] - above[x] - below[x]));
                laplacian_sum += fine;
                ++laplacian_count;
                tile_fine_sum[static_cast<size_t>(tile)] += fine;
                ++tile_fine_count[static_cast<size_t>(tile)];
            }
            // Every other sampled row and column is enough for a measure this smooth.
            if ((row_index & 1) == 0 && (x & 2) == 0 && x >= C && x < width - C && y >= C &&
                y < height - C) {
                const auto coarse =
                    static_cast<uint64_t>(std::abs(4 * pixel - row[x - C] - row[x + C] -
                                                   row[x - static_cast<ptrdiff_t>(C) * stride] -
                                                   row[x + static_cast<ptrdiff_t>(C) * stride]));
                coarse_sum += coarse;
                ++coarse_count;
                tile_coarse_sum[static_cast<size_t>(tile)] += coarse;
                ++tile_coarse_count[static_cast<size_t>(tile)];
            }
        }
    }

    FrameMeasures measures;
    const double sample_count = static_cast<double>(samples.size());
    measures.mean_y = static_cast<double>(luma_sum) / sample_count;
    measures.sharpness = laplacian_count > 0 ? static_cast<double>(laplacian_sum) /
                                                   static_cast<double>(laplacian_count)
                                             : 0.0;
    measures.coarse_detail =
        coarse_count > 0 ? static_cast<double>(coarse_sum) / static_cast<double>(coarse_count)
                         : 0.0;
    measures.tile_width = static_cast<double>(width) / kDetailTileColumns;
    measures.tile_height = static_cast<double>(window_rows) / kDetailTileRows;
    for (size_t i = 0; i < tile_fine_sum.size(); ++i) {
        measures.tile_sharpness[i] =
            tile_fine_count[i] > 0
                ? static_cast<float>(static_cast<double>(tile_fine_sum[i]) / tile_fine_count[i])
                : 0.0F;
        measures.tile_coarse[i] =
            tile_coarse_count[i] > 0
                ? static_cast<float>(static_cast<double>(tile_coarse_sum[i]) / tile_coarse_count[i])
                : 0.0F;
    }
    if (comparable) {
        measures.change = static_cast<double>(change_sum) / sample_count;
        // A second walk over the two sample windows, only now that the mean change is known.
        const int offset = static_cast<int>(
            std::lround((static_cast<double>(luma_sum) - static_cast<double>(m_previous_luma_sum)) /
                        sample_count));
        uint64_t structural_sum = 0;
        for (size_t i = 0; i < samples.size(); ++i) {
            structural_sum += static_cast<uint64_t>(std::abs(samples[i] - m_previous[i] - offset));
        }
        measures.structural_change = static_cast<double>(structural_sum) / sample_count;
    }
    measures.motion = m_motion.estimate(luma, stride, width, top, bottom);
    measures.unexplained_change = m_motion.unexplainedChange();

    const int chroma_width = -((-width) >> desc->log2_chroma_w);
    const int chroma_top = top >> desc->log2_chroma_h;
    const int chroma_bottom = std::max(chroma_top + 1, bottom >> desc->log2_chroma_h);
    uint64_t u_sum = 0;
    uint64_t v_sum = 0;
    uint64_t chroma_count = 0;
    for (int y = chroma_top; y < chroma_bottom; y += m_step) {
        const uint8_t* u_row = frame.data[1] + static_cast<ptrdiff_t>(y) * frame.linesize[1];
        const uint8_t* v_row = frame.data[2] + static_cast<ptrdiff_t>(y) * frame.linesize[2];
        for (int x = 0; x < chroma_width; x += m_step) {
            u_sum += u_row[x];
            v_sum += v_row[x];
            ++chroma_count;
        }
    }
    measures.mean_u = static_cast<double>(u_sum) / static_cast<double>(chroma_count);
    measures.mean_v = static_cast<double>(v_sum) / static_cast<double>(chroma_count);

    // The chroma grid on the motion estimate's 4-pixel lattice, and its motion-compensated
    // change from the last frame's grid, on the tiles with structure: the content whose motion
    // the estimate measures. Open sky moves by its own rule (at infinity it stays while the
    // camera moves forward) and its gradient, moved by the near content's motion, reads as a
    // change of colour: 0.3 levels a frame, a tint flag by the chunk's end, flying forward
    // toward a pole with the view tilted up.
    constexpr int kGridStep = 4;
    ChromaGrid& grid = m_chroma;
    grid.columns = width / kGridStep;
    grid.rows = (bottom - top) / kGridStep;
    grid.u.resize(static_cast<size_t>(grid.columns) * static_cast<size_t>(grid.rows));
    grid.v.resize(grid.u.size());
    for (int j = 0; j < grid.rows; ++j) {
        const int y = (top + j * kGridStep) >> desc->log2_chroma_h;
        const uint8_t* u_row = frame.data[1] + static_cast<ptrdiff_t>(y) * frame.linesize[1];
        const uint8_t* v_row = frame.data[2] + static_cast<ptrdiff_t>(y) * frame.linesize[2];
        for (int i = 0; i < grid.columns; ++i) {
            const int x = (i * kGridStep) >> desc->log2_chroma_w;
            grid.u[static_cast<size_t>(j * grid.columns + i)] = u_row[x];
            grid.v[static_cast<size_t>(j * grid.columns + i)] = v_row[x];
        }
    }
    grid.mean_u = measures.mean_u;
    grid.mean_v = measures.mean_v;
    const ChromaGrid& last = m_previous_chroma;
    if (comparable && last.columns == grid.columns && last.rows == grid.rows) {
        if (measures.motion) {
            // Where the content at grid point p was in the last frame: the inverse of
            // p' = c + (1 + zoom)(p - c) + t, in grid units.
            const double cx = grid.columns / 2.0;
            const double cy = grid.rows / 2.0;
            const double tx = measures.motion->dx / kGridStep;
            const double ty = measures.motion->dy / kGridStep;
            const double scale = 1.0 / (1.0 + measures.motion->zoom);
            int64_t du = 0;
            int64_t dv = 0;
            int64_t count = 0;
            for (int j = 0; j < grid.rows; ++j) {
                const long from_j = std::lround(cy + (j - cy - ty) * scale);
                if (from_j < 0 || from_j >= last.rows) {
                    continue;
                }
                const int tile_row =
                    j * kGridStep * kDetailTileRows / window_rows * kDetailTileColumns;
                for (int i = 0; i < grid.columns; ++i) {
                    const long from_i = std::lround(cx + (i - cx - tx) * scale);
                    if (from_i < 0 || from_i >= last.columns) {
                        continue;
                    }
                    const int tile = tile_row + i * kGridStep * kDetailTileColumns / width;
                    if (measures.tile_coarse[static_cast<size_t>(tile)] < kStructuredTileCoarse) {
                        continue;
                    }
                    const auto here = static_cast<size_t>(j * grid.columns + i);
                    const auto there = static_cast<size_t>(from_j * last.columns + from_i);
                    du += grid.u[here] - last.u[there];
                    dv += grid.v[here] - last.v[there];
                    ++count;
                }
            }
            if (count > 0) {
                measures.u_step = static_cast<double>(du) / static_cast<double>(count);
                measures.v_step = static_cast<double>(dv) / static_cast<double>(count);
            }
        }
        if (!measures.u_step) {
            measures.u_step = grid.mean_u - last.mean_u;
            measures.v_step = grid.mean_v - last.mean_v;
        }
    }
    std::swap(m_chroma, m_previous_chroma);

    m_spare = std::move(m_previous);
    m_previous = std::move(samples);
    m_previous_luma_sum = luma_sum;
    m_previous_width = width;
    m_previous_height = height;
    return measures;
}

} // namespace lbm::quality
