// The segmenter and the playlist against RFC 8216bis, on the payloads of a real simulator
// session (the server's muxer settings, its one-frame fragment lag and its trailer).
#include "app/broadcast/fmp4_fragment_splitter.h"
#include "app/broadcast/hls_segmenter.h"
#include "app/engine/session_engine.h"
#include "tests/broadcast/broadcast_fixture.h"

#include <catch2/catch.hpp>

#include <optional>

using namespace lbm::broadcast;
using namespace lbm::broadcast::test;
using namespace lbm;

namespace {

QByteArray streamBytes(const std::vector<RecordedPayload>& payloads) {
    QByteArray bytes;
    for (const RecordedPayload& payload : payloads) {
        bytes += payload.bytes;
    }
    return bytes;
}

} // namespace

TEST_CASE(
    "the splitter finds the init segment and one fragment per frame, however the bytes are cut",
    "[broadcast]") {
    const auto& payloads = simulatorPayloads();
    const QByteArray stream = streamBytes(payloads);
    Fmp4FragmentSplitter whole;
    std::vector<CmafFragment> fragments;
    for (const RecordedPayload& payload : payloads) {
        for (const CmafFragment& fragment : whole.consume(payload.bytes)) {
            fragments.push_back(fragment);
        }
    }
    REQUIRE_FALSE(whole.failed());
    CHECK(static_cast<qint64>(fragments.size()) == announcedFrames(payloads));
    CHECK(stream.mid(4, 4) == "ftyp");
    CHECK(stream.mid(whole.initSizeBytes() + 4, 4) == "moof");
    CHECK(whole.timescale() > 0);
    CHECK(whole.width() == 832);
    CHECK(whole.height() == 480);
    CHECK(whole.codecs().startsWith(QStringLiteral("avc1.")));
    REQUIRE_FALSE(fragments.empty());
    CHECK(fragments.front().keyframe);
    CHECK_FALSE(fragments[1].keyframe); // libx264's default GOP: one IDR per 250 frames
    for (size_t i = 1; i < fragments.size(); ++i) {
        CHECK(fragments[i].stream_offset ==
              fragments[i - 1].stream_offset + fragments[i - 1].size_bytes);
        CHECK(fragments[i].decode_time == fragments[i - 1].decode_time + fragments[i - 1].duration);
    }

    // Cut into 7-byte pieces, the same fragments come out.
    Fmp4FragmentSplitter trickled;
    std::vector<CmafFragment> again;
    for (qsizetype at = 0; at < stream.size(); at += 7) {
        for (const CmafFragment& fragment : trickled.consume(stream.mid(at, 7))) {
            again.push_back(fragment);
        }
    }
    REQUIRE(again.size() == fragments.size());
    for (size_t i = 0; i < again.size(); ++i) {
        CHECK(again[i].stream_offset == fragments[i].stream_offset);
        CHECK(again[i].size_bytes == fragments[i].size_bytes);
    }
}

TEST_CASE("the splitter refuses a stream that is not fragmented MP4, with the reason",
          "[broadcast]") {
    Fmp4FragmentSplitter splitter;
    CHECK(splitter.consume(QByteArray("\x00\x00\x00\x10junkjunkjunkjunk", 16)).empty());
    CHECK(splitter.failed());
    CHECK(splitter.errorString().contains(QStringLiteral("not fragmented MP4")));

    Fmp4FragmentSplitter no_moov;
    const auto& payloads = simulatorPayloads();
    const Fmp4FragmentSplitter reference = [&] {
        Fmp4FragmentSplitter s;
        s.consume(payloads.front().bytes);
        return s;
    }();
    // A moof with no moov before it cannot be timed.
    const QByteArray& first = payloads.front().bytes;
    const QByteArray ftyp = first.left(static_cast<qsizetype>(quint8(first[3])));
    CHECK(no_moov.consume(ftyp + first.mid(reference.initSizeBytes())).empty());
    INFO(no_moov.errorString().toStdString());
    CHECK(no_moov.errorString().contains(QStringLiteral("before the init segment")));
}

TEST_CASE("segments follow generation chunks and parts are whole latent frames", "[broadcast]") {
    const auto& payloads = simulatorPayloads();
    HlsSegmenter segmenter;
    for (const RecordedPayload& payload : payloads) {
        REQUIRE(segmenter.addPayload(payload.info, payload.bytes));
    }
    segmenter.finish();
    const LlHlsPlaylist& playlist = segmenter.playlist();
    std::vector<int> chunk_frames;
    for (const RecordedPayload& payload : payloads) {
        if (!payload.info.trailer) {
            chunk_frames.push_back(payload.info.num_frames);
        }
    }
    REQUIRE(playlist.segments().size() == chunk_frames.size());
    for (size_t i = 0; i < chunk_frames.size(); ++i) {
        const HlsSegment& segment = playlist.segments()[i];
        INFO("segment " << i);
        CHECK(segment.complete);
        CHECK(segment.generation_chunk == static_cast<qint64>(i));
        CHECK(segment.frames() == chunk_frames[i]);
        for (size_t p = 0; p + 1 < segment.parts.size(); ++p) {
            CHECK(segment.parts[p].frames == 4);
        }
        // Contiguous bytes: the segment is exactly its parts.
        for (size_t p = 1; p < segment.parts.size(); ++p) {
            CHECK(segment.parts[p].bytes.offset == segment.parts[p - 1].bytes.end());
        }
    }
    CHECK(playlist.segments().front().parts.front().independent);
    CHECK(playlist.timing().target_duration_s == 1); // 12 frames at 16 fps: 0.75 s
    CHECK(playlist.timing().part_target_s == Approx(0.25));
    CHECK(playlist.segments()[1].durationS() == Approx(0.75));
}

TEST_CASE("live and finished playlists pass the RFC 8216bis checks", "[broadcast]") {
    const auto& payloads = simulatorPayloads();
    HlsSegmenter segmenter;
    for (size_t i = 0; i < payloads.size(); ++i) {
        REQUIRE(segmenter.addPayload(payloads[i].info, payloads[i].bytes));
        if (!payloads[i].info.trailer) {
            INFO("after payload " << i << ":\n" << segmenter.playlist().render().toStdString());
            CHECK(segmenter.ready());
            CHECK(playlistProblems(segmenter.playlist().render(), false).isEmpty());
        }
    }
    segmenter.finish();
    const QByteArray final_playlist = segmenter.playlist().render();
    INFO(final_playlist.toStdString());
    CHECK(playlistProblems(final_playlist, true).isEmpty());
    CHECK(final_playlist.count("#EXTINF:") == static_cast<int>(payloads.size()) - 1);
    CHECK(final_playlist.contains("#EXT-X-PLAYLIST-TYPE:EVENT"));
}

TEST_CASE("blocking reloads wait for the part or segment they name", "[broadcast]") {
    const auto& payloads = simulatorPayloads();
    HlsSegmenter segmenter;
    REQUIRE(segmenter.addPayload(payloads[0].info, payloads[0].bytes));
    const LlHlsPlaylist& playlist = segmenter.playlist();
    // Chunk 0 carries 8 of its 9 frames: parts 0 and 1 of segment 0 are out, the ninth frame
    // (its last part) waits for chunk 1.
    CHECK(playlist.satisfies(0, 1));
    CHECK_FALSE(playlist.satisfies(0, 2));
    CHECK_FALSE(playlist.satisfies(0, std::nullopt));
    CHECK(playlist.nextPart() == std::make_pair(qint64(0), qint64(2)));
    CHECK(playlist.render().contains("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"part0.2.m4s\""));
    CHECK_FALSE(playlist.tooFarAhead(2));
    CHECK(playlist.tooFarAhead(3));

    REQUIRE(segmenter.addPayload(payloads[1].info, payloads[1].bytes));
    CHECK(playlist.satisfies(0, std::nullopt));
    CHECK(playlist.satisfies(0, 2));
    CHECK(playlist.satisfies(1, 1));
    CHECK_FALSE(playlist.satisfies(1, 2));
    // A part index past a segment's last means the next segment's first part.
    CHECK(playlist.satisfies(0, 3));

    segmenter.finish();
    CHECK(playlist.satisfies(40, 0)); // ended: every reload is answered at once
    CHECK_FALSE(playlist.nextPart().has_value());
}

// A late viewer's picture starts at the newest keyframe (start.json). The server's encoder
// makes one per 250 frames, which starts neither a segment nor a part here (frame 250 is the
// second frame of chunk 21), so the segmenter finds it among a part's frames. The expected
// time comes from the stream itself: the splitter's last fragment with a sync sample.
TEST_CASE("the newest keyframe is found inside a part", "[broadcast]") {
    // As fast as the simulator renders: only the bytes matter here.
    const std::vector<RecordedPayload> payloads =
        recordPayloads(simulatorSettings(23, QStringLiteral("fixed:0.01:0.01")), 120'000);
    Fmp4FragmentSplitter splitter;
    std::optional<double> newest_keyframe_s;
    qint64 keyframes = 0;
    for (const CmafFragment& fragment : splitter.consume(streamBytes(payloads))) {
        if (fragment.keyframe) {
            newest_keyframe_s = static_cast<double>(fragment.decode_time) /
                                static_cast<double>(splitter.timescale());
            ++keyframes;
        }
    }
    REQUIRE(keyframes >= 2); // frame 0 and one more: the case this test is about
    REQUIRE(newest_keyframe_s.has_value());

    HlsSegmenter segmenter;
    for (const RecordedPayload& payload : payloads) {
        REQUIRE(segmenter.addPayload(payload.info, payload.bytes));
    }
    segmenter.finish();
    CHECK(segmenter.newestKeyframeS() == Approx(*newest_keyframe_s).margin(1e-6));
    // Not at a part's start: no part says INDEPENDENT=YES for it.
    int independent_parts = 0;
    for (const HlsSegment& segment : segmenter.playlist().segments()) {
        for (const HlsPart& part : segment.parts) {
            independent_parts += part.independent ? 1 : 0;
        }
    }
    CHECK(independent_parts < keyframes);
}
