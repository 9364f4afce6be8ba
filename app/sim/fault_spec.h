#pragma once
// One injected failure (`--fault KIND@CHUNK`): what goes wrong and at which media chunk.

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace lbm::sim {

enum class FaultKind {
    Stall,        // stop emitting at the chunk; the stall timeout ends the session
    Error,        // send a generation-failure error instead of the chunk and close
    Disconnect,   // drop the connection instead of sending the chunk
    Garbage,      // an invalid JSON text frame before the chunk's metadata
    OrphanBinary, // a binary frame with no metadata before the chunk's metadata
    Truncate,     // the chunk's binary frame is shorter than its byte_length
    SlowStart,    // the first chunk comes later than the stall timeout (unless pinged)
    // Visual faults: the protocol stays correct, the picture goes wrong (ground truth for
    // the visual quality analysis). The barcode band and the caption are never touched.
    Seam,   // the chunk starts from a view further down the road and later chunks continue from it
    Freeze, // every frame of the chunk shows the chunk's first picture
    Blur,   // from the chunk on, a Gaussian blur that grows frame by frame
    Tint,   // from the chunk on, a warm colour cast that grows frame by frame
    // Steering faults: the camera does not do what it is told in one chunk (ground truth for
    // the steering instrument). The metadata still reports the interaction as usual.
    IgnoreAction,  // the chunk holds the pose whatever the command in force
    ReverseAction, // the chunk moves the opposite way of the command in force
    LateAction,    // the command in force at the chunk is applied delay_chunks chunks late:
                   // until then the previous chunk's command goes on
};

struct FaultSpec {
    FaultKind kind = FaultKind::Stall;
    int chunk = 0;        // generation chunk index the fault fires at
    int delay_chunks = 0; // late-action only: how late (late-action@K:N, N >= 1, default 1)

    // "stall@3", "late-action@5:2". On failure returns nullopt and sets error to a message naming
    // the kinds.
    static std::optional<FaultSpec> parse(const QString& text, QString* error);
    static QString kindName(FaultKind kind);
    static QStringList kindNames();
    QString toString() const;
};

// The fault of this kind at this chunk, if one was configured.
bool hasFault(const std::vector<FaultSpec>& faults, FaultKind kind, int chunk);
// For faults as the user wrote them ("blur@3"), the message for the first one that never fires
// in a session of `chunks` chunks, else empty. A fault past the last chunk would be accepted and
// never happen: the run would look clean while a fault was asked for. Texts that do not parse
// are left to FaultSpec::parse's message.
QString faultOutsideSession(const QStringList& faults, qint64 chunks);
// The earliest chunk a fault of this kind fires at, if one was configured.
std::optional<int> firstFaultChunk(const std::vector<FaultSpec>& faults, FaultKind kind);

} // namespace lbm::sim
