#include "app/engine/first_frame.h"

#include "app/protocol/client_messages.h"
#include "app/protocol/session_start_message.h"
#include "app/report/report_error.h"
#include "app/report/workload_json.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImage>
#include <QImageReader>

namespace lbm::engine {
namespace {

bool isUrl(const QString& value) {
    return value.startsWith(QStringLiteral("http://")) ||
           value.startsWith(QStringLiteral("https://")) ||
           value.startsWith(QStringLiteral("data:"));
}

qsizetype sessionStartChars(const Workload& workload, const QString& model) {
    return protocol::toWireText(protocol::sessionStartMessage(workload, model)).size();
}

QString jpegDataUrl(const QImage& image, int quality) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "JPEG", quality);
    return QStringLiteral("data:image/jpeg;base64,") + QString::fromLatin1(bytes.toBase64());
}

QString sizeText(const QSize& size) {
    return QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
}

} // namespace

QString resolveFirstFrame(const QString& image) {
    if (isUrl(image)) {
        return image;
    }
    const QFileInfo info(image);
    if (info.isFile() && info.isReadable()) {
        QImageReader reader(image);
        const QSize size = reader.size();
        if (!reader.canRead()) {
            throw FirstFrameError(QStringLiteral("The first frame %1 is not an image this program "
                                                 "can read (%2); use a PNG or JPEG file.")
                                      .arg(image, reader.errorString()));
        }
        if (size.isValid() &&
            (size.width() > kMaxFirstFrameSide || size.height() > kMaxFirstFrameSide)) {
            throw FirstFrameError(QStringLiteral("The first frame %1 is %2; the server accepts at "
                                                 "most %3x%3. Scale it down (the model generates "
                                                 "832x480).")
                                      .arg(image, sizeText(size))
                                      .arg(kMaxFirstFrameSide));
        }
    }
    try {
        return report::resolveImageReference(image);
    } catch (const report::ReportError& error) {
        throw FirstFrameError(error.message());
    }
}

FitResult fitSessionStart(Workload& workload, const QString& model) {
    FitResult result;
    result.original_chars = sessionStartChars(workload, model);
    result.final_chars = result.original_chars;
    if (result.original_chars <= protocol::kMaxSessionStartChars) {
        return result;
    }
    const QString reference = QString::fromStdString(workload.image_reference);
    const qsizetype comma = reference.indexOf(QLatin1Char(','));
    const auto tooLarge = [&](const QString& why) {
        return FirstFrameError(QStringLiteral("session.start would be %1 characters, over the "
                                              "server's limit of %2 (4 MiB); %3")
                                   .arg(result.original_chars)
                                   .arg(protocol::kMaxSessionStartChars)
                                   .arg(why));
    };
    if (!reference.startsWith(QStringLiteral("data:")) || comma < 0) {
        throw tooLarge(QStringLiteral("the first frame is not inlined, so shorten the prompt or "
                                      "the camera script."));
    }
    QImage source;
    source.loadFromData(QByteArray::fromBase64(reference.mid(comma + 1).toLatin1()));
    if (source.isNull()) {
        throw tooLarge(QStringLiteral("and its inlined first frame cannot be decoded to "
                                      "re-encode it."));
    }
    const qsizetype overhead = result.original_chars - reference.size();
    const QSize floor_size =
        source.size().scaled(QSize(kDefaultWidth, kDefaultHeight), Qt::KeepAspectRatio);
    // Quality first (keeps every pixel), then size in steps toward the model's own geometry.
    QList<QSize> sizes{source.size()};
    if (floor_size.width() < source.width()) {
        for (double scale = 0.75;; scale *= 0.75) {
            const QSize step = (QSizeF(source.size()) * scale).toSize();
            if (step.width() <= floor_size.width() || step.height() <= floor_size.height()) {
                break;
            }
            sizes.append(step);
        }
        sizes.append(floor_size);
    }
    for (const QSize& size : sizes) {
        const QImage scaled = size == source.size() ? source
                                                    : source.scaled(size, Qt::KeepAspectRatio,
                                                                    Qt::SmoothTransformation);
        for (const int quality : {92, 85, 75, 60, 45}) {
            const QString url = jpegDataUrl(scaled, quality);
            if (overhead + url.size() <= protocol::kMaxSessionStartChars) {
                workload.image_reference = url.toStdString();
                result.changed = true;
                result.final_chars = overhead + url.size();
                result.note = QStringLiteral("The first frame (%1) made session.start %2 "
                                             "characters, over the server's 4 MiB limit; sent it "
                                             "as %3 JPEG quality %4 instead (%5 characters).")
                                  .arg(sizeText(source.size()))
                                  .arg(result.original_chars)
                                  .arg(sizeText(scaled.size()))
                                  .arg(quality)
                                  .arg(result.final_chars);
                return result;
            }
        }
    }
    throw tooLarge(QStringLiteral("even the first frame at %1 JPEG quality 45 does not fit, so "
                                  "shorten the prompt or the camera script.")
                       .arg(sizeText(floor_size)));
}

} // namespace lbm::engine
