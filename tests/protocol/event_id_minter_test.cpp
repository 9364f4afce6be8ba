#include "app/protocol/event_id_minter.h"

#include <QRegularExpression>
#include <QSet>

#include <catch2/catch.hpp>

#include <thread>

using lbm::protocol::EventIdMinter;

TEST_CASE("minted event ids are fresh and readable", "[protocol][ids]") {
    EventIdMinter minter;
    const QRegularExpression shape(QStringLiteral("^ui-(\\d+)-[0-9a-f]{8}$"));
    const QString first = minter.next();
    const QString second = minter.next();
    REQUIRE(shape.match(first).hasMatch());
    REQUIRE(shape.match(first).captured(1) == QStringLiteral("1"));
    REQUIRE(shape.match(second).captured(1) == QStringLiteral("2"));
    REQUIRE(first != second);
}

TEST_CASE("two minters (two windows, two runs) do not collide", "[protocol][ids]") {
    EventIdMinter a;
    EventIdMinter b;
    QSet<QString> seen;
    for (int n = 0; n < 200; ++n) {
        seen.insert(a.next());
        seen.insert(b.next());
    }
    REQUIRE(seen.size() == 400);
}

TEST_CASE("concurrent minting never repeats an id", "[protocol][ids]") {
    EventIdMinter minter(QStringLiteral("cam"));
    QStringList left;
    QStringList right;
    std::thread worker([&] {
        for (int n = 0; n < 500; ++n) {
            left.append(minter.next());
        }
    });
    for (int n = 0; n < 500; ++n) {
        right.append(minter.next());
    }
    worker.join();
    QSet<QString> counters;
    for (const QString& id : left + right) {
        REQUIRE(id.startsWith(QStringLiteral("cam-")));
        counters.insert(id.section(QLatin1Char('-'), 1, 1));
    }
    REQUIRE(counters.size() == 1000);
}
