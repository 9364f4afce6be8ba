#include "app/sim/fmp4_encoder.h"
#include "app/sim/frame_barcode.h"
#include "tests/sim/media_probe.h"

#include <QImage>
#include <QPainter>

#include <catch2/catch.hpp>

#include <vector>

using namespace lbm::sim;
using lbm::sim::test::countBoxes;
using lbm::sim::test::decodeStream;
using lbm::sim::test::topLevelBoxes;

namespace {

// A busy picture (gradient plus moving shapes) so the barcode has to survive real
// compression, not a flat frame.
QImage testFrame(qint64 frame_number) {
    QImage image(832, 480, QImage::Format_RGB32);
    QPainter painter(&image);
    QLinearGradient gradient(0, 0, 832, 480);
    gradient.setColorAt(0, QColor(30, 90, 160));
    gradient.setColorAt(1, QColor(200, 120, 40));
    painter.fillRect(image.rect(), gradient);
    painter.setBrush(QColor(240, 240, 240));
    painter.drawEllipse(QPoint(static_cast<int>(50 + 13 * frame_number) % 832, 200), 60, 60);
    painter.end();
    drawFrameBarcode(image, frame_number);
    return image;
}

} // namespace

TEST_CASE("barcode round-trips through an RGB image", "[sim][barcode]") {
    for (qint64 value : {qint64{0}, qint64{1}, qint64{188}, qint64{123456789}}) {
        QImage image = testFrame(value);
        REQUIRE(readFrameBarcode(image) == value);
    }
}

TEST_CASE("a frame without a band has no barcode", "[sim][barcode]") {
    QImage image(832, 480, QImage::Format_RGB32);
    image.fill(Qt::gray);
    REQUIRE_FALSE(readFrameBarcode(image).has_value());
    QImage corrupted = testFrame(77);
    // Flip one data cell: the CRC must reject it rather than read a wrong number.
    QPainter painter(&corrupted);
    const int cell = 832 / kBarcodeCells;
    const QColor current = corrupted.pixelColor(10 * cell + cell / 2, 472);
    painter.fillRect(QRect(10 * cell, 480 - kBarcodeBandHeight, cell, kBarcodeBandHeight),
                     current.lightness() > 128 ? Qt::black : Qt::white);
    painter.end();
    REQUIRE_FALSE(readFrameBarcode(corrupted).has_value());
}

TEST_CASE("encoded chunks have the server's fragment layout and decode in order", "[sim][fmp4]") {
    Fmp4Encoder encoder(832, 480, 16);
    const std::vector<int> chunk_frames = {9, 12, 12};
    std::vector<QByteArray> chunks;
    qint64 frame_number = 0;
    for (int frames : chunk_frames) {
        QByteArray chunk;
        for (int i = 0; i < frames; ++i) {
            chunk += encoder.encode(testFrame(frame_number++));
        }
        chunks.push_back(chunk);
    }
    const QByteArray trailer = encoder.finish();

    const QStringList first = topLevelBoxes(chunks[0]);
    REQUIRE(first.size() >= 2);
    CHECK(first[0] == QStringLiteral("ftyp"));
    CHECK(first[1] == QStringLiteral("moov"));
    CHECK(countBoxes(first, QStringLiteral("moof")) == 8);
    CHECK(countBoxes(first, QStringLiteral("mdat")) == 8);
    for (size_t k = 1; k < chunks.size(); ++k) {
        const QStringList boxes = topLevelBoxes(chunks[k]);
        CHECK(countBoxes(boxes, QStringLiteral("ftyp")) == 0);
        CHECK(countBoxes(boxes, QStringLiteral("moof")) == 12);
        CHECK(countBoxes(boxes, QStringLiteral("mdat")) == 12);
        CHECK(boxes.first() == QStringLiteral("moof"));
    }
    const QStringList tail = topLevelBoxes(trailer);
    CHECK(tail ==
          QStringList{QStringLiteral("moof"), QStringLiteral("mdat"), QStringLiteral("mfra")});

    QByteArray all;
    for (const QByteArray& chunk : chunks) {
        all += chunk;
    }
    all += trailer;
    // Every byte belongs to a complete box: nothing is left buffered between calls.
    CHECK(countBoxes(topLevelBoxes(all), QStringLiteral("moof")) == 33);

    const auto decoded = decodeStream(all);
    REQUIRE(decoded.error.isEmpty());
    CHECK(decoded.width == 832);
    CHECK(decoded.height == 480);
    std::vector<qint64> expected(33);
    for (size_t i = 0; i < expected.size(); ++i) {
        expected[i] = static_cast<qint64>(i);
    }
    CHECK(decoded.barcodes == expected);
}

TEST_CASE("the stream is decodable only up to the lag before the trailer", "[sim][fmp4]") {
    Fmp4Encoder encoder(832, 480, 16);
    QByteArray chunk0;
    for (int i = 0; i < 9; ++i) {
        chunk0 += encoder.encode(testFrame(i));
    }
    const auto decoded = decodeStream(chunk0);
    REQUIRE(decoded.error.isEmpty());
    std::vector<qint64> expected = {0, 1, 2, 3, 4, 5, 6, 7};
    CHECK(decoded.barcodes == expected);
}

TEST_CASE("encoder refuses invalid geometry and misuse with a clear error", "[sim][fmp4]") {
    REQUIRE_THROWS_AS(Fmp4Encoder(833, 480, 16), Fmp4EncoderError);
    Fmp4Encoder encoder(64, 48, 16);
    encoder.encode(QImage(64, 48, QImage::Format_RGB32));
    encoder.finish();
    REQUIRE_THROWS_WITH(encoder.finish(), Catch::Contains("finish() called twice"));
    REQUIRE_THROWS_WITH(encoder.encode(QImage(64, 48, QImage::Format_RGB32)),
                        Catch::Contains("after finish()"));
}
