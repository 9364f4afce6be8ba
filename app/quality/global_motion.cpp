#include "app/quality/global_motion.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace lbm::quality {
namespace {

constexpr int kScale = 4;
constexpr int kGrid = 3;
constexpr int kMinBlocks = 5;
// A block's best match must beat the mean of its search window by this share, or its
// content is too flat (or too changed) to say where it went.
constexpr double kMinContrast = 0.25;

// A block contrast share that each axis must show on its own: the SAD's curvature through
// the best match along that axis is at least this share of the window's contrast. A block of sky
// whose brightness only changes from top to bottom says how far it moved vertically, not sideways
// (the aperture problem); its horizontal displacement is left out of the fit.
constexpr double kMinAxisContrast = 0.08;

struct BlockMatch {
    double x = 0.0; // block centre relative to the frame centre, quarter pixels
    double y = 0.0;
    double dx = 0.0; // displacement, quarter pixels
    double dy = 0.0;
    bool x_known = false;
    bool y_known = false;
};

double determinant3(const std::array<std::array<double, 3>, 3>& m) {
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

// Least squares for (tx, ty, zoom) in d = t + zoom * p over the known components; nullopt
// when they do not determine all three.
std::optional<std::array<double, 3>> fitPanZoom(const std::vector<BlockMatch>& matches) {
    std::array<std::array<double, 3>, 3> a{};
    std::array<double, 3> b{};
    int x_rows = 0;
    int y_rows = 0;
    for (const BlockMatch& m : matches) {
        if (m.x_known) { // row (1, 0, px) . (tx, ty, zoom) = dx
            a[0][0] += 1.0;
            a[0][2] += m.x;
            a[2][0] += m.x;
            a[2][2] += m.x * m.x;
            b[0] += m.dx;
            b[2] += m.x * m.dx;
            ++x_rows;
        }
        if (m.y_known) { // row (0, 1, py) . (tx, ty, zoom) = dy
            a[1][1] += 1.0;
            a[1][2] += m.y;
            a[2][1] += m.y;
            a[2][2] += m.y * m.y;
            b[1] += m.dy;
            b[2] += m.y * m.dy;
            ++y_rows;
        }
    }
    if (x_rows < 2 || y_rows < 2 || x_rows + y_rows < kMinBlocks) {
        return std::nullopt;
    }
    const double det = determinant3(a);
    if (std::abs(det) < 1e-6 * (1.0 + std::abs(a[2][2]) * a[0][0] * a[1][1])) {
        return std::nullopt;
    }
    std::array<double, 3> solution{};
    for (int column = 0; column < 3; ++column) {
        auto replaced = a;
        for (int row = 0; row < 3; ++row) {
            replaced[static_cast<size_t>(row)][static_cast<size_t>(column)] =
                b[static_cast<size_t>(row)];
        }
        solution[static_cast<size_t>(column)] = determinant3(replaced) / det;
    }
    return solution;
}

// Vertex offset of the parabola through (-1, left), (0, centre), (1, right), in [-0.5, 0.5].
double parabolaOffset(double left, double centre, double right) {
    const double curvature = left - 2.0 * centre + right;
    if (curvature <= 0.0) {
        return 0.0;
    }
    return std::clamp(0.5 * (left - right) / curvature, -0.5, 0.5);
}

} // namespace

double GlobalMotionEstimator::compensatedChange(int width, int height, double tx, double ty,
                                                double zoom, int offset) const {
    // Where the content at p came from: the inverse of p' = c + (1 + zoom)(p - c) + t, read
    // at the nearest quarter-size pixel; every other row and column is enough.
    const double cx = width / 2.0;
    const double cy = height / 2.0;
    const double scale = 1.0 / (1.0 + zoom);
    int64_t sum = 0;
    int64_t count = 0;
    for (int y = 0; y < height; y += 2) {
        const long from_y = std::lround(cy + (y - cy - ty) * scale);
        if (from_y < 0 || from_y >= height) {
            continue;
        }
        const uint8_t* now = m_current.data() + static_cast<ptrdiff_t>(y) * width;
        const uint8_t* then = m_previous.data() + static_cast<ptrdiff_t>(from_y) * width;
        for (int x = 0; x < width; x += 2) {
            const long from_x = std::lround(cx + (x - cx - tx) * scale);
            if (from_x < 0 || from_x >= width) {
                continue;
            }
            sum += std::abs(now[x] + offset - then[from_x]);
            ++count;
        }
    }
    return count > 0 ? static_cast<double>(sum) / static_cast<double>(count) : 0.0;
}

void GlobalMotionEstimator::reset() {
    m_previous.clear();
    m_last_fit.reset();
    m_unexplained.reset();
    m_width = 0;
    m_height = 0;
}

std::optional<FrameMotion> GlobalMotionEstimator::estimate(const uint8_t* luma, int stride,
                                                           int width, int top, int bottom) {
    const int small_width = width / kScale;
    const int small_height = (bottom - top) / kScale;
    m_current.resize(static_cast<size_t>(small_width) * static_cast<size_t>(small_height));
    for (int y = 0; y < small_height; ++y) {
        const uint8_t* upper = luma + static_cast<ptrdiff_t>(top + y * kScale) * stride;
        const uint8_t* lower = upper + 2 * static_cast<ptrdiff_t>(stride);
        uint8_t* out = m_current.data() + static_cast<ptrdiff_t>(y) * small_width;
        for (int x = 0; x < small_width; ++x) {
            const int at = x * kScale;
            out[x] = static_cast<uint8_t>(
                (upper[at] + upper[at + 2] + lower[at] + lower[at + 2] + 2) / 4);
        }
    }
    const bool comparable =
        small_width == m_width && small_height == m_height && !m_previous.empty();
    std::optional<FrameMotion> result;
    m_unexplained.reset();
    if (!comparable) {
        m_last_fit.reset();
    }
    // A uniform step of brightness (a prompt's new look, exposure flicker) is taken out of
    // every comparison, so blocks match on their content rather than their level.
    int offset = 0;
    if (comparable) {
        int64_t now_sum = 0;
        int64_t then_sum = 0;
        for (size_t i = 0; i < m_current.size(); ++i) {
            now_sum += m_current[i];
            then_sum += m_previous[i];
        }
        offset = static_cast<int>(std::lround(static_cast<double>(then_sum - now_sum) /
                                              static_cast<double>(m_current.size())));
    }
    constexpr int R = kSearchRadius;
    const int block_width = small_width / 6;
    const int block_height = small_height / 6;
    if (comparable && block_width >= 4 && block_height >= 4) {
        std::vector<BlockMatch> matches;
        constexpr int kSide = 2 * R + 1;
        std::array<double, kSide * kSide> sad{};
        for (int gy = 0; gy < kGrid; ++gy) {
            for (int gx = 0; gx < kGrid; ++gx) {
                const int cx = small_width * (gx + 1) / (kGrid + 1);
                const int cy = small_height * (gy + 1) / (kGrid + 1);
                const int x0 = std::clamp(cx - block_width / 2, R, small_width - block_width - R);
                const int y0 =
                    std::clamp(cy - block_height / 2, R, small_height - block_height - R);
                if (x0 < R || y0 < R) {
                    continue;
                }
                // The newer block at (x0, y0) came from (x0 - dx, y0 - dy) in the older frame.
                double best = std::numeric_limits<double>::max();
                int best_index = 0;
                int best_length = 0;
                double total = 0.0;
                for (int dy = -R; dy <= R; ++dy) {
                    for (int dx = -R; dx <= R; ++dx) {
                        unsigned sum = 0;
                        for (int y = 0; y < block_height; ++y) {
                            const uint8_t* now = m_current.data() + (y0 + y) * small_width + x0;
                            const uint8_t* then =
                                m_previous.data() + (y0 + y - dy) * small_width + x0 - dx;
                            for (int x = 0; x < block_width; ++x) {
                                sum += static_cast<unsigned>(std::abs(now[x] + offset - then[x]));
                            }
                        }
                        const int index = (dy + R) * kSide + dx + R;
                        sad[static_cast<size_t>(index)] = sum;
                        total += sum;
                        // Ties go to the smaller displacement.
                        const int length = dx * dx + dy * dy;
                        if (sum < best || (sum == best && length < best_length)) {
                            best = sum;
                            best_index = index;
                            best_length = length;
                        }
                    }
                }
                const double mean = total / (kSide * kSide);
                if (mean <= 0.0 || best > (1.0 - kMinContrast) * mean) {
                    continue;
                }
                const int bx = best_index % kSide - R;
                const int by = best_index / kSide - R;
                const auto at = [&](int dx, int dy) {
                    return sad[static_cast<size_t>((dy + R) * kSide + dx + R)];
                };
                BlockMatch match;
                match.x = x0 + block_width / 2.0 - small_width / 2.0;
                match.y = y0 + block_height / 2.0 - small_height / 2.0;
                match.dx = bx;
                match.dy = by;
                const double axis_contrast = kMinAxisContrast * (mean - best);
                // A best match on the window's edge may lie beyond it: not known.
                if (bx > -R && bx < R) {
                    const double left = at(bx - 1, by);
                    const double right = at(bx + 1, by);
                    match.x_known = left + right - 2.0 * best >= axis_contrast;
                    match.dx += parabolaOffset(left, best, right);
                }
                if (by > -R && by < R) {
                    const double up = at(bx, by - 1);
                    const double down = at(bx, by + 1);
                    match.y_known = up + down - 2.0 * best >= axis_contrast;
                    match.dy += parabolaOffset(up, best, down);
                }
                if (match.x_known || match.y_known) {
                    matches.push_back(match);
                }
            }
        }
        if (const auto fit = fitPanZoom(matches)) {
            const auto& [tx, ty, zoom] = *fit;
            double residual = 0.0;
            int components = 0;
            for (const BlockMatch& m : matches) {
                if (m.x_known) {
                    residual += std::abs(m.dx - (tx + zoom * m.x));
                    ++components;
                }
                if (m.y_known) {
                    residual += std::abs(m.dy - (ty + zoom * m.y));
                    ++components;
                }
            }
            FrameMotion motion;
            motion.dx = kScale * tx;
            motion.dy = kScale * ty;
            motion.zoom = zoom;
            motion.residual = kScale * residual / components;
            motion.compensated_change =
                compensatedChange(small_width, small_height, tx, ty, zoom, offset);
            result = motion;
            m_last_fit = Fit{tx, ty, zoom};
            m_unexplained = motion.compensated_change;
        } else if (m_last_fit) {
            m_unexplained = compensatedChange(small_width, small_height, m_last_fit->tx,
                                              m_last_fit->ty, m_last_fit->zoom, offset);
        }
    }
    m_previous.swap(m_current);
    m_width = small_width;
    m_height = small_height;
    return result;
}

} // namespace lbm::quality
