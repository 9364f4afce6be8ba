#pragma once
// Access to what is compiled into the binary: the default first frame.

#include <QByteArray>
#include <QString>

namespace lbm {

// Resource path of the bundled 832x480 PNG first frame.
inline const QString kBundledFirstFramePath = QStringLiteral(":/lingbot/first_frame.png");

// Makes sure the static library's resources are registered (Q_INIT_RESOURCE), then returns
// the PNG bytes of the bundled first frame.
QByteArray bundledFirstFramePng();
// The same as a data: URL, ready for session.start's image_reference.
QString bundledFirstFrameDataUrl();

} // namespace lbm
