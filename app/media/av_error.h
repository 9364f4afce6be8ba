#pragma once
// FFmpeg error codes as the text users see in messages ("Invalid data found when
// processing input"), so every media error can quote FFmpeg's own reason.

extern "C" {
#include <libavutil/error.h>
}

#include <QString>

namespace lbm::media {

inline QString avErrorText(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    if (av_strerror(code, text, sizeof(text)) < 0) {
        return QStringLiteral("FFmpeg error %1").arg(code);
    }
    return QString::fromUtf8(text);
}

} // namespace lbm::media
