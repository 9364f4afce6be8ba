#pragma once
// The visual quality of one generation chunk: its numeric signals, the flags the thresholds
// raise, how each prompt transition that should have landed in it did, and whether the
// result is final. Plain values, copied freely across threads (registered for queued
// signals by registerQualityMetaTypes()).

#include "app/quality/global_motion.h"

#include <QFlags>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <array>
#include <optional>
#include <vector>

namespace lbm::quality {

enum class QualityFlag : unsigned {
    Seam = 1u << 0,       // the chunk does not continue the last one
    Freeze = 1u << 1,     // a run of near-identical frames
    Blur = 1u << 2,       // sharpness fell below the threshold share of the reference
    Tint = 1u << 3,       // the mean chroma drifted from the reference
    Transition = 1u << 4, // a prompt transition landed off its K chunks, or never
    Action = 1u << 5,     // the picture ignores, reverses or lags the camera command
};
Q_DECLARE_FLAGS(QualityFlags, QualityFlag)
Q_DECLARE_OPERATORS_FOR_FLAGS(QualityFlags)

// Every flag in report order, and its name ("seam", "freeze", "blur", "tint", "transition",
// "action").
const std::vector<QualityFlag>& allQualityFlags();
QString qualityFlagName(QualityFlag flag);
std::optional<QualityFlag> qualityFlagFromName(const QString& name);
// The names of the flags that are set, in report order.
QStringList qualityFlagNames(QualityFlags flags);

enum class TransitionVerdict { OnTime, Early, Late, Never };
QString transitionVerdictName(TransitionVerdict verdict); // "on-time", "early", "late", "never"
std::optional<TransitionVerdict> transitionVerdictFromName(const QString& name);

// How one prompt transition landed, judged once the chunk after its last one was seen.
struct TransitionCheck {
    QString event_id;
    int transition_chunks = 0;
    qint64 start_chunk = 0;
    // start_chunk + max(K, 1) - 1: where the look should reach the new prompt's.
    qint64 expected_chunk = 0;
    // Where the look reached it; nullopt when it never visibly changed.
    std::optional<qint64> landed_chunk;
    TransitionVerdict verdict = TransitionVerdict::OnTime;

    bool operator==(const TransitionCheck&) const = default;
};

// How long the picture took to follow one camera command (a key press, a scripted key
// change): from the first chunk that could show it to the first frame moving the commanded
// way.
struct SteeringResponse {
    QString event_id;
    QString keys; // "wasdijkl" letters, "" for a velocity without key names
    // The first chunk that arrived after a live command was sent, or a script entry's chunk.
    qint64 command_chunk = 0;
    // The chunk and frame (index in the chunk) that first moved the commanded way; nullopt
    // while (or when) none did.
    std::optional<qint64> response_chunk;
    int response_frame = -1;
    // Session time from sending the command (live) or from command_chunk's arrival (script)
    // to the arrival of response_chunk, milliseconds; nullopt without arrival times.
    std::optional<double> response_ms;
    // response_chunk - command_chunk.
    std::optional<qint64> responseChunks() const {
        return response_chunk ? std::optional<qint64>(*response_chunk - command_chunk)
                              : std::nullopt;
    }
    bool operator==(const SteeringResponse&) const = default;
};

// One decoded frame's signals (window of the frame only, see QualitySettings::edge_margin).
// The measured window cut into tiles for the detail measure (see FrameQuality).
inline constexpr int kDetailTileColumns = 8;
inline constexpr int kDetailTileRows = 4;
using DetailTiles = std::array<float, kDetailTileColumns * kDetailTileRows>;

struct FrameQuality {
    qint64 global_frame_number = 0;
    int index_in_chunk = -1;
    // Mean absolute luma difference to the previous frame in stream order, 8-bit levels;
    // nullopt for the first frame and after a gap in frame numbers.
    std::optional<double> change;
    // The same with the mean luma difference taken out: a uniform step of brightness (a
    // prompt's colour grade moving on) does not count, a different picture does.
    std::optional<double> structural_change;
    bool frozen = false; // change below QualityThresholds::freeze_change
    // The camera's apparent motion since the previous frame (nullopt: not measurable).
    std::optional<FrameMotion> motion;
    // The change since the previous frame that the camera's motion (this frame's, or the
    // last measured when this frame's fit failed) does not explain, quarter-size luma levels
    // with the mean step taken out (GlobalMotionEstimator::unexplainedChange).
    std::optional<double> unexplained_change;
    // Chroma change since the previous frame on the content both show (FrameMeasures).
    std::optional<double> u_step;
    std::optional<double> v_step;
    // Mean absolute 4-neighbour Laplacian of luma: fine detail; falls as the picture blurs.
    double sharpness = 0.0;
    // The same Laplacian taken over 8-pixel steps: the picture's coarse structure. A blur
    // takes fine detail and leaves this; a darker or hazier look lowers both alike.
    double coarse_detail = 0.0;
    // Both per tile of the measured window (kDetailTileColumns x kDetailTileRows, row by
    // row): a blur lowers fine over coarse in nearly every textured tile, while a near house
    // or tree that the camera brings into view changes it only in the tiles it covers.
    DetailTiles tile_sharpness{};
    DetailTiles tile_coarse{};
    double tile_width = 0.0; // one tile's size in pixels
    double tile_height = 0.0;
    double mean_y = 0.0;
    double mean_u = 0.0;
    double mean_v = 0.0;

    bool operator==(const FrameQuality&) const = default;
};

struct ChunkQuality {
    qint64 generation_index = 0;
    int frame_count = 0;
    // Per-frame signals in stream order (not stored in session documents).
    std::vector<FrameQuality> frames;

    // Median frame-to-frame change inside the chunk (its first frame's change excluded).
    double change_median = 0.0;
    // The first frame's change against the previous chunk's last frame; nullopt for the
    // first chunk and when frames between them are missing.
    std::optional<double> boundary_change;
    // boundary_change / max(motion floor, change_median of this and the previous chunk).
    std::optional<double> seam_score;
    // The longest run of near-identical frames inside the chunk.
    int frozen_frames = 0;
    // Frames were expected to move (the camera was told to, or the picture moved before): a
    // run of repeated frames is a freeze only then.
    bool motion_expected = false;
    // Mean sharpness, and the sharpness of the chunk's last latent frame relative to the
    // previous chunk's last latent frame, corrected for the camera's measured zoom and taken
    // against the expected course (1 = as expected; < 1 = detail lost).
    double sharpness = 0.0;
    double sharpness_ratio = 1.0;
    // False when too few tiles show structure in both chunks (a blank wall or open sky fills
    // the view): sharpness_ratio is then 1 and says nothing.
    bool sharpness_judged = true;
    // Mean Y, U, V (8-bit levels), and how far the chroma (U, V) of the last latent frame
    // moved from the previous chunk's other than the expected course says (8-bit levels).
    double mean_y = 0.0;
    double mean_u = 0.0;
    double mean_v = 0.0;
    double chroma_drift = 0.0;
    // The chunk blur and tint are measured against (the previous one; the chunk itself when
    // there is none).
    qint64 reference_chunk = 0;

    // From the chunk's context: a prompt transition runs in it (changes are expected), the
    // camera moves.
    bool in_transition = false;
    bool camera_moving = false;
    // Transitions expected to land in this chunk, judged.
    std::vector<TransitionCheck> transitions;

    // Steering: the camera command in force ("" keys and all-zero motion when none), the
    // measured mean motion per frame (pan in pixels, zoom in percent), the share of frames
    // that moved the commanded way (nullopt when no moving command was in force or no
    // motion could be measured), and the commands whose first response came in this chunk.
    QString steering_keys;
    bool steering_moves = false;
    std::optional<double> motion_x;
    std::optional<double> motion_y;
    std::optional<double> motion_zoom_percent;
    std::optional<double> following;
    std::vector<SteeringResponse> responses;

    QualityFlags flags;
    // Why a signal over its threshold raised no flag, or what a flag is about.
    QStringList notes;
    // False while a later chunk can still change this result (a transition that should land
    // here is judged from the chunk after it).
    bool is_final = false;

    bool flagged(QualityFlag flag) const { return flags.testFlag(flag); }
    // Frees the per-frame signals for a result kept for the whole session. (`frames = {}`
    // would keep the vector's capacity: heaptrack found those bytes still held.)
    void dropFrameSignals() { std::vector<FrameQuality>().swap(frames); }
    // "seam;freeze" style: the set flags joined by ';', empty when clean.
    QString flagsText() const { return qualityFlagNames(flags).join(QLatin1Char(';')); }
};

// For queued signal-slot connections; safe to call from any thread, any number of times.
void registerQualityMetaTypes();

} // namespace lbm::quality

Q_DECLARE_METATYPE(lbm::quality::ChunkQuality)
