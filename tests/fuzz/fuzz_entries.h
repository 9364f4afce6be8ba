#pragma once
// The bodies of the libFuzzer targets, as plain functions so the regression test replays the
// same code in the normal build without libFuzzer. Each feeds one input to the code a user's
// file or a server can reach, then does what the callers do with an accepted value, and
// checks that success and failure are reported consistently: a broken invariant throws
// InvariantViolation (libFuzzer reports the escaping exception as a crash, Catch2 as a
// failure). Errors the app reports as errors (ReportError, MetricError, a parse problem) are
// the expected outcome for malformed input, never a failure.

#include <QByteArray>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace lbm::fuzz {

class InvariantViolation : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

enum class Outcome {
    Accepted, // the input was taken as a value (or the stream decoded to the end)
    Rejected, // the app reported it as an error with a message
};

// protocol::parseServerMessage on one text frame.
Outcome runServerMessage(const uint8_t* data, size_t size);
// report::loadWorkloadFile on a file holding the bytes, then the payloads built from it.
Outcome runWorkloadFile(const uint8_t* data, size_t size);
// report::readSessionDocument on a file holding the bytes, then what `report` and the
// window do with a document: metricsOptionsFor + computeMetrics per session,
// aggregateMetrics, the live playback simulator, the text report and the JSON writer.
Outcome runSessionDocument(const uint8_t* data, size_t size);
// media::StreamDecoder fed decoderInitSegment() followed by the bytes, then end of stream;
// every frame is drained before the decoder is destroyed (joined).
Outcome runStreamDecoder(const uint8_t* data, size_t size);

// The fixed, valid init segment (ftyp + moov) the decoder target puts in front of its input:
// what the simulator's Fmp4Encoder writes first for a kDecoderWidth x kDecoderHeight stream.
// Small frames keep one execution cheap; the demuxer and decoder paths are the same.
inline constexpr int kDecoderWidth = 128;
inline constexpr int kDecoderHeight = 96;
inline constexpr int kDecoderFps = 16;
const QByteArray& decoderInitSegment();

} // namespace lbm::fuzz
