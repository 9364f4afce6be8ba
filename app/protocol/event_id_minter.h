#pragma once
// Mints interaction event ids. The server refuses ANY reused id in a session (even an
// identical retry) with event_id_conflict, so every interaction needs a fresh one; the random
// part keeps ids from two clients or two runs apart in logs.

#include <QString>

#include <atomic>

namespace lbm::protocol {

class EventIdMinter {
public:
    // Ids look like "<prefix>-<n>-<8 hex>", n counting from 1; prefix "ui" by default.
    explicit EventIdMinter(QString prefix = QStringLiteral("ui"));

    // Thread-safe: the GUI thread and a scripted sender may mint concurrently.
    QString next();

private:
    const QString m_prefix;
    std::atomic<quint64> m_counter{0};
};

} // namespace lbm::protocol
