#include "resources/bundled_resources.h"

#include <QFile>

static void initBundledResources() {
    Q_INIT_RESOURCE(resources);
}

namespace lbm {

QByteArray bundledFirstFramePng() {
    static const bool registered = (initBundledResources(), true);
    (void)registered;
    QFile file(kBundledFirstFramePath);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return file.readAll();
}

QString bundledFirstFrameDataUrl() {
    return QStringLiteral("data:image/png;base64,") +
           QString::fromLatin1(bundledFirstFramePng().toBase64());
}

} // namespace lbm
