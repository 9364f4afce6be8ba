#pragma once
// The viewer page's files, compiled in: index.html, viewer.js, viewer.css, and hls.js with its
// licence (vendored from npm at build time, see app/broadcast/CMakeLists.txt). Nothing is
// fetched from anywhere else when a viewer opens the page.

#include <QByteArray>
#include <QString>

#include <optional>

namespace lbm::broadcast {

struct ViewerFile {
    QByteArray content_type;
    QByteArray bytes;
};

// The file by its name in the page's folder; nullopt for any other name.
std::optional<ViewerFile> viewerFile(const QString& name);

} // namespace lbm::broadcast
