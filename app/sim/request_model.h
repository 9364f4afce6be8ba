#pragma once
// vLLM-Omni's session.start request model (VideoGenerationRequest, a pydantic 2 model) as the
// simulator's handler emulation needs it: the same fields, lax coercions and constraints, the
// same refusal text (str(ValidationError), which the handler sends as "Invalid session.start:
// <text>"), and the echo video.start carries (model_dump(exclude_none=True): the request with
// the model's defaults filled in and unknown fields dropped).
//
// Covered: every field's type and bounds, the image/video/audio reference models (extra keys
// forbidden, the two-member unions), video_params, missing prompt. The wording follows
// pydantic 2.13, the version the harness (../shared/upstream-server) runs; another pydantic
// version changes only the documentation link at the end of each error.

#include "app/sim/py_value.h"

#include <QString>

#include <optional>

namespace lbm::sim {

struct VideoRequest {
    PyValue dump; // model_dump(exclude_none=True), in the model's field order
    std::optional<QString> model;
    QString prompt;
    std::optional<QString> negative_prompt;
    std::optional<QString> image_url;     // image_reference.image_url
    std::optional<QString> image_file_id; // image_reference.file_id (refused later)
    std::optional<QString> size;          // "WxH", resolved after video.start
    std::optional<QString> seconds;
    std::optional<qint64> width;
    std::optional<qint64> height;
    std::optional<qint64> num_frames;
    std::optional<qint64> fps;
    std::optional<qint64> seed;
    // video_params' values, used where the top-level ones are absent.
    std::optional<qint64> vp_width;
    std::optional<qint64> vp_height;
    std::optional<qint64> vp_num_frames;
    std::optional<qint64> vp_fps;
    std::optional<PyValue> extra_params; // a dict when present
};

// request_data: the dict the handler passes to VideoGenerationRequest(**request_data). On
// refusal returns nullopt and sets error to pydantic's text (without the handler's prefix).
std::optional<VideoRequest> validateVideoRequest(const PyValue& request_data, QString* error);

} // namespace lbm::sim
