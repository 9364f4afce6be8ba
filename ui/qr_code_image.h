#pragma once
// A QR code of a short text (the broadcast's viewer URL) as a black-on-white image, drawn from
// libqrencode's modules with the standard four-module quiet zone, so a phone's camera opens
// the link from the screen.

#include <QImage>
#include <QString>

namespace lbm::ui {

// Null when the text does not fit a QR code.
QImage qrCodeImage(const QString& text, int module_px);

} // namespace lbm::ui
