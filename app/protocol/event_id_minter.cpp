#include "app/protocol/event_id_minter.h"

#include <QRandomGenerator>

namespace lbm::protocol {

EventIdMinter::EventIdMinter(QString prefix)
    : m_prefix(std::move(prefix)) {}

QString EventIdMinter::next() {
    const quint64 n = m_counter.fetch_add(1) + 1;
    const quint32 salt = QRandomGenerator::global()->generate();
    return QStringLiteral("%1-%2-%3").arg(m_prefix).arg(n).arg(salt, 8, 16, QLatin1Char('0'));
}

} // namespace lbm::protocol
