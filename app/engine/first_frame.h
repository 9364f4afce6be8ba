#pragma once
// The session's first frame: turns --image (or a workload's image) into an http(s):// or
// data: URL after checking a local file can be used, and makes sure the resulting
// session.start stays under the server's 4 MiB limit by re-encoding the inlined picture
// (JPEG at falling quality, then scaled down toward 832x480 keeping the aspect ratio),
// saying what it did. All checks happen before anything connects.

#include "metrics/workload.h"

#include <QString>
#include <QStringList>

#include <stdexcept>

namespace lbm::engine {

// The largest source image the server accepts.
inline constexpr int kMaxFirstFrameSide = 4096;

class FirstFrameError : public std::runtime_error {
public:
    explicit FirstFrameError(const QString& message)
        : std::runtime_error(message.toStdString())
        , m_message(message) {}
    const QString& message() const { return m_message; }

private:
    QString m_message;
};

// http://, https:// and data: pass through. A local file must exist, be an image Qt can
// read, and be at most 4096x4096 (checked from the header, before decoding); it becomes a
// data: URL with the MIME type of its extension. Throws FirstFrameError with the reason
// ("--image is neither a URL nor a readable file: VALUE" for a missing file, as the
// benchmark says).
QString resolveFirstFrame(const QString& image);

struct FitResult {
    bool changed = false;
    qsizetype original_chars = 0; // session.start as it would have been sent
    qsizetype final_chars = 0;
    QString note; // what was done, for the user; empty when nothing was
};

// Re-encodes workload.image_reference in place when the session.start for (workload, model)
// would exceed kMaxSessionStartChars. Throws FirstFrameError when no re-encoding can make
// it fit (e.g. a huge prompt or camera script, or an oversized http URL).
FitResult fitSessionStart(Workload& workload, const QString& model);

} // namespace lbm::engine
