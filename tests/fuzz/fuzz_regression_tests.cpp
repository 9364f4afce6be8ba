// Replays every seed of the fuzz targets and every input libFuzzer once crashed on
// (tests/fuzz/regressions/<target>/) through the same entry functions the fuzzers call, in
// the normal build: nothing may throw past the app's own error types, and inputs that are
// plainly valid or invalid must be reported as such.

#include "app/media/stream_decoder.h"
#include "app/report/report_error.h"
#include "app/report/workload_json.h"
#include "tests/fuzz/fuzz_entries.h"
#include "tests/fuzz/seed_corpus.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

extern "C" {
#include <libavutil/mem.h>
}

#include <algorithm>
#include <functional>

using lbm::fuzz::Outcome;
using lbm::fuzz::Seed;

namespace {

using Entry = std::function<Outcome(const uint8_t*, size_t)>;

Outcome replay(const Entry& entry, const QByteArray& bytes) {
    return entry(reinterpret_cast<const uint8_t*>(bytes.constData()),
                 static_cast<size_t>(bytes.size()));
}

// Every file libFuzzer found for the target, turned into a regression input.
std::vector<Seed> regressionInputs(const char* target) {
    const QDir folder(QStringLiteral(LBM_SOURCE_DIR "/tests/fuzz/regressions/") +
                      QString::fromLatin1(target));
    std::vector<Seed> inputs;
    for (const QString& name : folder.entryList(QDir::Files | QDir::Hidden, QDir::Name)) {
        if (name == QStringLiteral(".gitkeep") || name.endsWith(QStringLiteral(".md"))) {
            continue;
        }
        QFile file(folder.filePath(name));
        REQUIRE(file.open(QIODevice::ReadOnly));
        inputs.push_back({name, file.readAll()});
    }
    return inputs;
}

void replayRegressions(const char* target, const Entry& entry) {
    for (const Seed& input : regressionInputs(target)) {
        INFO(target << " regression " << input.name.toStdString());
        CHECK_NOTHROW(replay(entry, input.bytes));
    }
}

} // namespace

TEST_CASE("server_message: simulator messages parse, malformed ones are errors, regressions "
          "replay",
          "[fuzz]") {
    const auto seeds = lbm::fuzz::serverMessageSeeds();
    REQUIRE(seeds.size() >= 10);
    for (const Seed& seed : seeds) {
        INFO(seed.name.toStdString());
        Outcome outcome = Outcome::Rejected;
        REQUIRE_NOTHROW(outcome = replay(lbm::fuzz::runServerMessage, seed.bytes));
        const bool malformed = seed.name.startsWith(QStringLiteral("garbage"));
        CHECK(outcome == (malformed ? Outcome::Rejected : Outcome::Accepted));
    }
    for (const char* text : {"", "[]", "null", "{\"type\": 5}",
                             "{\"type\":\"session.done\","
                             "\"chunks\":-1}"}) {
        INFO(text);
        CHECK(replay(lbm::fuzz::runServerMessage, QByteArray(text)) == Outcome::Rejected);
    }
    replayRegressions(lbm::fuzz::kServerMessageTarget, lbm::fuzz::runServerMessage);
}

TEST_CASE("workload_file: golden and example workloads load or fail as the seed does, "
          "regressions replay",
          "[fuzz]") {
    const auto seeds = lbm::fuzz::workloadFileSeeds();
    REQUIRE(seeds.size() >= 10);
    for (const Seed& seed : seeds) {
        INFO(seed.name.toStdString());
        Outcome outcome = Outcome::Rejected;
        REQUIRE_NOTHROW(outcome = replay(lbm::fuzz::runWorkloadFile, seed.bytes));
        if (seed.name.startsWith(QStringLiteral("example_"))) {
            CHECK(outcome == Outcome::Accepted);
        }
    }
    CHECK(replay(lbm::fuzz::runWorkloadFile, QByteArray("{\"image\": \"x\"")) == Outcome::Rejected);
    replayRegressions(lbm::fuzz::kWorkloadFileTarget, lbm::fuzz::runWorkloadFile);
}

TEST_CASE("workload_file: a num_chunks no session could hold is a workload error, not "
          "std::length_error from building the camera script",
          "[fuzz][workload]") {
    // libFuzzer's find: {"image": "data:x", "num_chunks": 6237970878134601500}.
    const auto inputs = regressionInputs(lbm::fuzz::kWorkloadFileTarget);
    const auto found = std::find_if(inputs.begin(), inputs.end(), [](const Seed& input) {
        return input.name == QStringLiteral("crash-c9d8c6898b97ff0f774cd2d2d0754bb57c32d8ab");
    });
    REQUIRE(found != inputs.end());
    CHECK(replay(lbm::fuzz::runWorkloadFile, found->bytes) == Outcome::Rejected);
    // 4 MiB / len("[[],[],[]],") is the first count refused.
    const QByteArray over("{\"image\": \"data:x\", \"num_chunks\": 381301}");
    QTemporaryDir directory;
    REQUIRE(directory.isValid());
    const QString path = directory.filePath(QStringLiteral("workload.json"));
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(over);
    file.close();
    try {
        lbm::report::loadWorkloadFile(path);
        FAIL("381301 chunks loaded");
    } catch (const lbm::report::ReportError& error) {
        CHECK(error.message() ==
              QStringLiteral("Workload field num_chunks is out of range: 381301. A session holds "
                             "at most 381300 chunks (the server refuses a larger "
                             "session.start)."));
    }
    CHECK(replay(lbm::fuzz::runWorkloadFile,
                 QByteArray("{\"image\": \"data:x\", \"num_chunks\": 3000}")) == Outcome::Accepted);
}

TEST_CASE("session_document: our and the benchmark's documents read and recompute, "
          "regressions replay",
          "[fuzz]") {
    const auto seeds = lbm::fuzz::sessionDocumentSeeds();
    REQUIRE(seeds.size() >= 8);
    for (const Seed& seed : seeds) {
        INFO(seed.name.toStdString());
        Outcome outcome = Outcome::Rejected;
        REQUIRE_NOTHROW(outcome = replay(lbm::fuzz::runSessionDocument, seed.bytes));
        CHECK(outcome == Outcome::Accepted);
    }
    CHECK(replay(lbm::fuzz::runSessionDocument, QByteArray("{\"sessions\": []}")) ==
          Outcome::Rejected);
    replayRegressions(lbm::fuzz::kSessionDocumentTarget, lbm::fuzz::runSessionDocument);
}

TEST_CASE("stream_decoder: a trun claiming 83,886,080 samples is a demuxer error, not a "
          "2.8 GB index allocation",
          "[fuzz][decoder]") {
    // libFuzzer's find (out-of-memory): moof > traf > trun with sample_count 0x05000000.
    const auto inputs = regressionInputs(lbm::fuzz::kStreamDecoderTarget);
    const auto found = std::find_if(inputs.begin(), inputs.end(), [](const Seed& input) {
        return input.name == QStringLiteral("oom-943a95d006556921fc90ef559aaea6adc503334a");
    });
    REQUIRE(found != inputs.end());
    lbm::media::DecoderOptions options;
    options.thread_count = 1;
    lbm::media::StreamDecoder decoder(options);
    lbm::ChunkIdentity info;
    info.generation_index = 0;
    info.num_frames = 9;
    decoder.pushChunk(info, lbm::fuzz::decoderInitSegment() + found->bytes);
    decoder.finish();
    while (decoder.popFrame(-1)) {
    }
    const lbm::media::DecoderStats stats = decoder.stats();
    INFO(stats.first_error.toStdString());
    CHECK(stats.state == lbm::media::DecoderState::Failed);
    CHECK(replay(lbm::fuzz::runStreamDecoder, found->bytes) == Outcome::Rejected);
    // Without ASan the 2.8 GB would be overcommitted untouched, so check the limit itself:
    // once a decoder exists, FFmpeg refuses single allocations over 64 MiB.
    void* huge = av_malloc(size_t(64) * 1024 * 1024 + 1);
    CHECK(huge == nullptr);
    av_free(huge);
}

TEST_CASE("stream_decoder: encoder output after the init segment decodes, damaged bytes fail "
          "cleanly, regressions replay",
          "[fuzz]") {
    const auto seeds = lbm::fuzz::streamDecoderSeeds();
    REQUIRE(seeds.size() >= 3);
    for (const Seed& seed : seeds) {
        INFO(seed.name.toStdString());
        Outcome outcome = Outcome::Rejected;
        REQUIRE_NOTHROW(outcome = replay(lbm::fuzz::runStreamDecoder, seed.bytes));
        CHECK(outcome == Outcome::Accepted);
    }
    // A box header that claims more than the stream holds, and plain noise.
    CHECK_NOTHROW(replay(lbm::fuzz::runStreamDecoder, QByteArray("\x00\x00\x10\x00moof", 8)));
    CHECK(replay(lbm::fuzz::runStreamDecoder, QByteArray(300, '\x5a')) == Outcome::Rejected);
    replayRegressions(lbm::fuzz::kStreamDecoderTarget, lbm::fuzz::runStreamDecoder);
}
