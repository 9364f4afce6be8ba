#pragma once
// What makes the simulated stream read as diffusion video rather than a game: a little film
// grain, exposure that breathes from frame to frame, and a white balance that wanders
// slowly (`--realism none|low|high`, default low). Applied after the world is drawn and
// before the injected faults, from the frame's world time, so a frozen chunk repeats it.

#include <QImage>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace lbm::sim {

enum class Realism { None, Low, High };

std::optional<Realism> parseRealism(const QString& text, QString* error);
QString realismName(Realism realism);
QStringList realismNames();

// One row of the realism pass, in plain C++ and with SIMD where the CPU has it (SSE2);
// exposed so a test can check the two give the same bytes. Each channel of the RGB32 pixels
// times its gain (1.7 fixed point), plus the pixel's grain value, clamped to 0..255.
namespace realism_detail {
void gradeRowScalar(quint32* pixels, const qint8* grain, int count, quint16 red_gain,
                    quint16 green_gain, quint16 blue_gain);
// Grades a multiple of four pixels from the start and returns how many (0 without SIMD).
int gradeRowSimd(quint32* pixels, const qint8* grain, int count, quint16 red_gain,
                 quint16 green_gain, quint16 blue_gain);
} // namespace realism_detail

class RealismPass {
public:
    RealismPass();
    // In place on an RGB32 image. world_time_s decides the flicker, the wander and which
    // grain shows; the same time gives the same picture.
    void apply(QImage& image, Realism realism, double world_time_s) const;

private:
    // Fixed fields of zero-mean noise (low and high strength), read at a moving offset; made
    // once per process, so a new session does not wait for them.
    struct Grain {
        std::vector<qint8> low;
        std::vector<qint8> high;
    };
    static const Grain& sharedGrain();
    const Grain& m_grain;
};

} // namespace lbm::sim
