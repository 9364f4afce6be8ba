// Chunk contexts from metadata ids and what the session runner knows.

#include "app/quality/chunk_context_builder.h"
#include "metrics/workload.h"

#include <catch2/catch.hpp>

using namespace lbm::quality;

TEST_CASE("contexts know the workload's prompts and camera script", "[quality][context]") {
    lbm::Workload workload = lbm::defaultWorkload("data:image/png;base64,AA==", 6, "orbit");
    lbm::PromptUpdate update;
    update.after_chunk = 1;
    update.prompt = "A misty lake.";
    update.transition_chunks = 3;
    workload.prompt_updates = {update};
    ChunkContextBuilder builder(workload);

    const ChunkContext plain = builder.build(2, {}, {}, {});
    CHECK(plain.generation_index == 2);
    CHECK(plain.prompts.empty());
    CHECK(plain.camera_moving); // orbit moves in every chunk

    const ChunkContext start =
        builder.build(3, {QStringLiteral("chunk-1")}, {QStringLiteral("chunk-1")}, {});
    REQUIRE(start.prompts.size() == 1);
    CHECK(start.prompts[0].event_id == QStringLiteral("chunk-1"));
    CHECK(start.prompts[0].transition_chunks == 3);
    CHECK(start.prompts[0].started);
    CHECK(start.prompts[0].active);
    CHECK_FALSE(start.prompts[0].completed);

    // Ids it was never told about (another client's, a camera move it did not send) are not
    // prompts.
    const ChunkContext unknown = builder.build(4, {QStringLiteral("other")}, {}, {});
    CHECK(unknown.prompts.empty());

    // Past the script: no script motion.
    CHECK_FALSE(builder.build(9, {}, {}, {}).camera_moving);
}

TEST_CASE("camera interactions move the camera while active, and a snap is a jump",
          "[quality][context]") {
    ChunkContextBuilder builder(lbm::defaultWorkload("data:image/png;base64,AA==", 4, "hold"));
    CHECK_FALSE(builder.build(1, {}, {}, {}).camera_moving);
    builder.addCameraMove(QStringLiteral("turn"), false);
    builder.addCameraMove(QStringLiteral("snap"), true);
    builder.addPrompt(QStringLiteral("live"), 0);
    const ChunkContext turning = builder.build(2, {}, {QStringLiteral("turn")}, {});
    CHECK(turning.camera_moving);
    CHECK_FALSE(turning.camera_jump);
    const ChunkContext snapping =
        builder.build(3, {QStringLiteral("snap"), QStringLiteral("live")}, {QStringLiteral("live")},
                      {QStringLiteral("snap"), QStringLiteral("live")});
    CHECK(snapping.camera_jump);
    REQUIRE(snapping.prompts.size() == 1);
    CHECK(snapping.prompts[0].transition_chunks == 0);
    CHECK(snapping.prompts[0].completed);
}

TEST_CASE("a script entry moves the camera unless its keys cancel out", "[quality][context]") {
    CHECK(ChunkContextBuilder::scriptMoves({{"w"}, {}, {}}));
    CHECK(ChunkContextBuilder::scriptMoves({{}, {}, {"l"}}));
    CHECK_FALSE(ChunkContextBuilder::scriptMoves({{}, {}, {}}));
    CHECK_FALSE(ChunkContextBuilder::scriptMoves({{"w", "s"}, {"a", "d"}, {"x"}}));
}
