#include "app/cli/bench_broadcast.h"

#include "app/broadcast/broadcast_settings.h"

#include <QDeadlineTimer>
#include <QEventLoop>
#include <QTextStream>
#include <QTimer>

#include <algorithm>

namespace lbm::cli {

bool BenchBroadcast::start(const std::optional<QString>& address, engine::SessionEngine& engine,
                           QString* error) {
    if (!address) {
        return true;
    }
    QString why;
    const auto listen = broadcast::parseListenAddress(*address, &why);
    if (!listen) {
        *error = QStringLiteral("--broadcast %1").arg(why);
        return false;
    }
    broadcast::BroadcastSettings settings;
    settings.address = listen->first;
    settings.port = listen->second;
    if (!m_broadcaster.start(settings, &why)) {
        *error = QStringLiteral("--broadcast %1: %2").arg(*address, why);
        return false;
    }
    QObject::connect(&m_broadcaster, &broadcast::Broadcaster::statsChanged,
                     [this](const broadcast::BroadcastStats& stats) {
                         m_most_viewers = std::max(m_most_viewers, stats.viewers);
                     });
    QObject::connect(&m_broadcaster, &broadcast::Broadcaster::problem, [](const QString& text) {
        QTextStream(stderr) << "WARNING: " << text << Qt::endl;
    });
    m_broadcaster.attach(&engine);
    return true;
}

broadcast::BroadcastStats BenchBroadcast::linger(double linger_s) {
    const QDeadlineTimer deadline(static_cast<qint64>(linger_s * 1000.0));
    // Viewers are served from this thread's event loop; between its events the wait sleeps
    // (processEvents() in a loop returned at once and spun a core for the whole linger).
    while (m_broadcaster.running() && !deadline.hasExpired()) {
        QEventLoop idle;
        QTimer::singleShot(static_cast<int>(std::clamp<qint64>(deadline.remainingTime(), 0, 50)),
                           &idle, &QEventLoop::quit);
        idle.exec();
    }
    broadcast::BroadcastStats stats = m_broadcaster.stats();
    stats.viewers = m_most_viewers;
    m_broadcaster.stop();
    return stats;
}

} // namespace lbm::cli
