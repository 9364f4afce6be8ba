#include "app/sim/send_log.h"

#include <QJsonDocument>

namespace lbm::sim {

bool SendLog::open(const QString& path, QString* error) {
    if (path.isEmpty()) {
        return true;
    }
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text)) {
        if (error != nullptr) {
            *error = QStringLiteral("Cannot open the send log '%1': %2.")
                         .arg(path, m_file.errorString());
        }
        return false;
    }
    return true;
}

void SendLog::record(int session_id, qint64 t_ns, QJsonObject entry) {
    if (!m_file.isOpen()) {
        return;
    }
    entry.insert(QStringLiteral("session"), session_id);
    entry.insert(QStringLiteral("t_ns"), static_cast<double>(t_ns));
    entry.insert(QStringLiteral("t_ms"), static_cast<double>(t_ns) / 1e6);
    m_file.write(QJsonDocument(entry).toJson(QJsonDocument::Compact) + '\n');
    m_file.flush();
}

} // namespace lbm::sim
