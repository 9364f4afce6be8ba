#include "ui/qr_code_image.h"

#include <qrencode.h>

#include <memory>

namespace lbm::ui {
namespace {

constexpr int kQuietZoneModules = 4;

struct QrDeleter {
    void operator()(QRcode* code) const { QRcode_free(code); }
};

} // namespace

QImage qrCodeImage(const QString& text, int module_px) {
    const QByteArray bytes = text.toUtf8();
    std::unique_ptr<QRcode, QrDeleter> code(
        QRcode_encodeString(bytes.constData(), 0, QR_ECLEVEL_M, QR_MODE_8, 1));
    if (!code || module_px < 1) {
        return {};
    }
    const int modules = code->width + 2 * kQuietZoneModules;
    QImage image(modules * module_px, modules * module_px, QImage::Format_Grayscale8);
    image.fill(255);
    for (int y = 0; y < code->width; ++y) {
        for (int x = 0; x < code->width; ++x) {
            if ((code->data[y * code->width + x] & 1) == 0) {
                continue; // bit 0 set: a dark module
            }
            for (int dy = 0; dy < module_px; ++dy) {
                uchar* row = image.scanLine((y + kQuietZoneModules) * module_px + dy);
                std::fill_n(row + (x + kQuietZoneModules) * module_px, module_px, uchar(0));
            }
        }
    }
    return image;
}

} // namespace lbm::ui
