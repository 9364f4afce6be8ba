#include "app/broadcast/viewer_files.h"

#include <QFile>

#include <array>

static void initViewerResources() {
    Q_INIT_RESOURCE(viewer);
}

namespace lbm::broadcast {
namespace {

struct KnownFile {
    const char* name;
    const char* content_type;
};

constexpr std::array<KnownFile, 6> kFiles = {{
    {"index.html", "text/html; charset=utf-8"},
    {"viewer.js", "text/javascript; charset=utf-8"},
    {"viewer_chart.js", "text/javascript; charset=utf-8"},
    {"viewer.css", "text/css; charset=utf-8"},
    {"hls.min.js", "text/javascript; charset=utf-8"},
    {"hls.js-LICENSE.txt", "text/plain; charset=utf-8"},
}};

} // namespace

std::optional<ViewerFile> viewerFile(const QString& name) {
    static const bool registered = (initViewerResources(), true);
    (void)registered;
    for (const KnownFile& known : kFiles) {
        if (name == QLatin1String(known.name)) {
            QFile file(QStringLiteral(":/lbm/viewer/") + name);
            if (!file.open(QIODevice::ReadOnly)) {
                return std::nullopt;
            }
            return ViewerFile{known.content_type, file.readAll()};
        }
    }
    return std::nullopt;
}

} // namespace lbm::broadcast
