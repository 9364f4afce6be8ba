// The worker thread: the same results as the analyzer, each chunk signalled once across
// threads, back-pressure that never deadlocks, and a clean stop with work still queued.

#include "app/quality/quality_analyzer.h"
#include "app/quality/quality_worker.h"
#include "tests/quality/synthetic_frames.h"

#include <QCoreApplication>

#include <catch2/catch.hpp>

#include <algorithm>
#include <thread>

using namespace lbm::quality;
using namespace lbm::quality::test;

namespace {

// Seam at 3, freeze at 5, blur from 7: every rule that keeps state between chunks.
std::vector<SyntheticChunk> faultyStream() {
    return syntheticStream(
        9,
        [](qint64 chunk, int index, qint64 frame) {
            const int held = chunk == 5 ? index : 0;
            return SyntheticPicture{static_cast<int>(frame - held) + (chunk >= 3 ? 300 : 0),
                                    chunk >= 7 ? 1 : 0};
        },
        true);
}

} // namespace

TEST_CASE("the worker gives the analyzer's results, each chunk handed over once",
          "[quality][worker]") {
    const auto stream = faultyStream();
    QualityAnalyzer analyzer;
    QualityWorker worker;
    std::vector<ChunkQuality> signalled;
    int ready_signals = 0;
    QObject::connect(
        &worker, &QualityWorker::chunksReady, &worker,
        [&] {
            ++ready_signals;
            for (ChunkQuality& chunk : worker.takeReadyChunks()) {
                signalled.push_back(std::move(chunk));
            }
        },
        Qt::QueuedConnection);
    bool finished_signalled = false;
    QObject::connect(&worker, &QualityWorker::finished, &worker,
                     [&finished_signalled] { finished_signalled = true; });
    // Frames arrive from a producer thread, as from a decoder.
    std::thread producer([&] {
        qint64 frame = 0;
        for (const SyntheticChunk& chunk : stream) {
            worker.setChunkContext(chunk.context);
            for (size_t i = 0; i < chunk.pictures.size(); ++i) {
                worker.pushFrame(syntheticFrame(chunk.pictures[i], frame++,
                                                chunk.context.generation_index,
                                                static_cast<int>(i)));
            }
        }
        worker.finish();
    });
    qint64 frame = 0;
    for (const SyntheticChunk& chunk : stream) {
        analyzer.setChunkContext(chunk.context);
        for (size_t i = 0; i < chunk.pictures.size(); ++i) {
            analyzer.addFrame(syntheticFrame(chunk.pictures[i], frame++,
                                             chunk.context.generation_index, static_cast<int>(i)));
        }
    }
    analyzer.finish();
    producer.join();
    REQUIRE(worker.waitForFinished(10000));
    QCoreApplication::processEvents();
    CHECK(finished_signalled);

    // The analyzer's results as it reports them (with per-frame signals), in generation order.
    std::vector<ChunkQuality> expected = analyzer.takeFinalChunks();
    std::stable_sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) {
        return a.generation_index < b.generation_index;
    });
    REQUIRE(signalled.size() == expected.size());
    CHECK(ready_signals > 1); // handed over as chunks become final, not all at the end
    CHECK(worker.takeReadyChunks().empty());
    const std::vector<ChunkQuality> results = worker.results();
    REQUIRE(results.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        INFO("chunk " << i);
        CHECK(signalled[i].generation_index == expected[i].generation_index);
        CHECK(signalled[i].flags == expected[i].flags);
        CHECK(signalled[i].frames == expected[i].frames);
        CHECK(signalled[i].is_final);
        CHECK(results[i].seam_score == expected[i].seam_score);
        CHECK(results[i].frames.capacity() == 0); // summaries only, their memory freed
    }
    CHECK(expected[3].flagged(QualityFlag::Seam));
    CHECK(expected[5].flagged(QualityFlag::Freeze));
    CHECK(expected[7].flagged(QualityFlag::Blur));
}

TEST_CASE("a full worker queue makes pushFrame wait, never deadlock", "[quality][worker]") {
    QualitySettings settings;
    settings.max_queued_frames = 1;
    QualityWorker worker(settings);
    const auto stream = faultyStream();
    qint64 frame = 0;
    for (const SyntheticChunk& chunk : stream) {
        worker.setChunkContext(chunk.context);
        for (size_t i = 0; i < chunk.pictures.size(); ++i) {
            worker.pushFrame(syntheticFrame(chunk.pictures[i], frame++,
                                            chunk.context.generation_index, static_cast<int>(i)));
        }
    }
    worker.finish();
    REQUIRE(worker.waitForFinished(10000));
    CHECK(worker.results().size() == stream.size());
}

TEST_CASE("the worker reports unreadable frames and stops with work queued", "[quality][worker]") {
    QStringList warnings;
    {
        QualityWorker worker;
        QObject::connect(
            &worker, &QualityWorker::warning, &worker,
            [&warnings](const QString& message) { warnings.append(message); },
            Qt::QueuedConnection);
        worker.pushFrame(rgbFrame(0, 0));
        worker.pushFrame(rgbFrame(1, 0));
        worker.finish();
        REQUIRE(worker.waitForFinished(10000));
        QCoreApplication::processEvents();
        CHECK(worker.results().empty());
    }
    CHECK(warnings.size() == 1); // said once
    CHECK(warnings.value(0).contains(QStringLiteral("rgb24")));
    // Destroyed with frames still queued and no finish(): returns promptly.
    QualityWorker busy;
    const auto stream = faultyStream();
    qint64 frame = 0;
    for (const SyntheticPicture& picture : stream[1].pictures) {
        busy.pushFrame(syntheticFrame(picture, frame++, 1, 0));
    }
}
