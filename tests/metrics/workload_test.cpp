// Workload and prompt-update validation with the seed's user-facing messages, camera patterns
// (including Python's repr quoting in the unknown-pattern message) and default workloads.

#include "metrics/camera_script.h"
#include "metrics/python_text.h"
#include "metrics/workload.h"
#include "tests/metrics/seed_json.h"

#include <catch2/catch.hpp>

using namespace lbm;
using lbm::test::metricErrorOf;

namespace {

Workload validWorkload() {
    Workload workload;
    workload.prompt = "A quiet street at dusk.";
    workload.image_reference = "data:image/png;base64,AAAA";
    workload.camera_script = buildCameraScript(4, "forward");
    return workload;
}

std::optional<std::string> validationError(const Workload& workload) {
    return metricErrorOf([&] { workload.validate(); });
}

std::optional<std::string> message(const char* text) {
    return std::string(text);
}

} // namespace

TEST_CASE("a valid workload passes and derives frames and duration from its script",
          "[metrics][workload]") {
    const Workload workload = validWorkload();
    CHECK_FALSE(validationError(workload));
    CHECK(workload.numChunks() == 4);
    CHECK(workload.numFrames() == 45);
    CHECK(workload.videoSeconds() == 2.8125);
}

TEST_CASE("workload validation rejects each problem with the seed's message",
          "[metrics][workload]") {
    Workload w = validWorkload();
    w.prompt = " \t\n";
    CHECK(validationError(w) == message("Workload.prompt must contain non-whitespace text."));
    w.prompt = "\xe3\x80\x80"; // U+3000 IDEOGRAPHIC SPACE: str.strip() removes it too
    CHECK(validationError(w) == message("Workload.prompt must contain non-whitespace text."));

    w = validWorkload();
    w.image_reference.clear();
    CHECK(validationError(w) ==
          message("Workload.image_reference is required; LingBot-World is image-conditioned."));

    for (const auto& [width, height] :
         std::vector<std::pair<int, int>>{{0, 480}, {832, -16}, {830, 480}, {832, 481}}) {
        w = validWorkload();
        w.width = width;
        w.height = height;
        INFO(width << "x" << height);
        CHECK(validationError(w) ==
              message("Workload width/height must be positive multiples of 16."));
    }

    w = validWorkload();
    w.fps = 0;
    CHECK(validationError(w) == message("Workload.fps must be positive."));

    w = validWorkload();
    w.camera_script[2].pop_back();
    CHECK(validationError(w) ==
          message("camera_action_script[2] must hold exactly 3 action lists (got 2); one AR "
                  "block is 3 latent frames."));
    w.camera_script.clear();
    CHECK(validationError(w) == message("camera_action_script must not be empty."));
}

TEST_CASE("workload checks run in the seed's order", "[metrics][workload]") {
    Workload w = validWorkload();
    w.prompt = "";
    w.image_reference = "";
    w.fps = -1;
    CHECK(validationError(w) == message("Workload.prompt must contain non-whitespace text."));
    w.prompt = "p";
    CHECK(validationError(w) ==
          message("Workload.image_reference is required; LingBot-World is image-conditioned."));
    // A bad prompt update fails first: in the seed it is rejected while being constructed.
    w.prompt = "";
    w.prompt_updates = {PromptUpdate{-1, "later", 3}};
    CHECK(validationError(w) == message("PromptUpdate.after_chunk must be non-negative."));
}

TEST_CASE("prompt updates must be unique and fire within the rollout", "[metrics][workload]") {
    Workload w = validWorkload();
    w.prompt_updates = {PromptUpdate{1, "turn left", 3}, PromptUpdate{3, "stop", 0}};
    CHECK_FALSE(validationError(w));

    w.prompt_updates = {PromptUpdate{1, "turn left", 3}, PromptUpdate{1, "again", 3}};
    CHECK(validationError(w) ==
          message("Duplicate prompt update after chunk 1; event IDs must be unique."));

    w.prompt_updates = {PromptUpdate{4, "too late", 3}};
    CHECK(validationError(w) ==
          message("Prompt update after chunk 4 never fires in a 4-chunk rollout."));

    // The seed checks each update for a duplicate before checking whether it fires.
    w.prompt_updates = {PromptUpdate{9, "a", 3}, PromptUpdate{9, "b", 3}};
    CHECK(validationError(w) ==
          message("Prompt update after chunk 9 never fires in a 4-chunk rollout."));
    w.prompt_updates = {PromptUpdate{2, "a", 3}, PromptUpdate{2, "b", 3}, PromptUpdate{9, "c", 3}};
    CHECK(validationError(w) ==
          message("Duplicate prompt update after chunk 2; event IDs must be unique."));
}

TEST_CASE("a prompt update validates itself and names its event", "[metrics][workload]") {
    CHECK(PromptUpdate{7, "a new scene", 2}.eventId() == "chunk-7");
    CHECK_FALSE(metricErrorOf([] { PromptUpdate{0, "x", 0}.validate(); }));
    CHECK(metricErrorOf([] {
              PromptUpdate{-1, "x", 3}.validate();
          }) == message("PromptUpdate.after_chunk must be non-negative."));
    CHECK(metricErrorOf([] {
              PromptUpdate{0, "  ", 3}.validate();
          }) == message("PromptUpdate.prompt must contain non-whitespace text."));
    CHECK(metricErrorOf([] {
              PromptUpdate{0, "x", -1}.validate();
          }) == message("PromptUpdate.transition_chunks must be non-negative."));
    CHECK(PromptUpdate{}.transition_chunks == 3);
}

TEST_CASE("camera patterns generate one three-frame action list per chunk", "[metrics][camera]") {
    CHECK(cameraPatterns() == std::vector<std::string>{"forward", "orbit", "hold"});
    const CameraScript orbit = buildCameraScript(6, "orbit");
    REQUIRE(orbit.size() == 6);
    const std::vector<std::string> keys = {"w", "a", "s", "d", "w", "a"};
    for (std::size_t i = 0; i < orbit.size(); ++i) {
        CHECK(orbit[i] == ChunkActions(3, FrameActions{keys[i]}));
    }
    CHECK(cameraActionsForChunk("hold", 5) == ChunkActions(3, FrameActions{}));
    CHECK(cameraActionsForChunk("forward", 0) == ChunkActions(3, FrameActions{"w"}));
    CHECK(metricErrorOf([] { cameraActionsForChunk("forward", -1); }) ==
          message("chunk_index must be non-negative."));
    CHECK_NOTHROW(validateCameraScript(orbit));
}

TEST_CASE("an unknown camera pattern is quoted the way Python's repr quotes it",
          "[metrics][camera]") {
    const auto error = [](const std::string& pattern) {
        return metricErrorOf([&] { buildCameraScript(2, pattern); });
    };
    const std::string expected_tail = "; expected one of ['forward', 'hold', 'orbit'].";
    CHECK(error("spiral") == "Unknown camera pattern 'spiral'" + expected_tail);
    CHECK(error("it's") == "Unknown camera pattern \"it's\"" + expected_tail);
    CHECK(error("a'b\"c") == "Unknown camera pattern 'a\\'b\"c'" + expected_tail);
    CHECK(error("say \"hi\"") == "Unknown camera pattern 'say \"hi\"'" + expected_tail);
    // The count check comes first, as in build_camera_script.
    CHECK(metricErrorOf([] { buildCameraScript(0, "spiral"); }) ==
          message("num_chunks must be at least 1."));

    CHECK(pythonRepr("tab\t") == "'tab\\t'");
    CHECK(pythonRepr("back\\slash") == "'back\\\\slash'");
    CHECK(pythonRepr("\x07") == "'\\x07'");
    CHECK(pythonRepr("\xc3\xa9") == "'\xc3\xa9'");                 // printable é stays
    CHECK(pythonRepr("\xc2\xa0x") == "'\\xa0x'");                  // NO-BREAK SPACE is escaped
    CHECK(pythonRepr("\xe2\x80\xa8") == "'\\u2028'");              // LINE SEPARATOR
    CHECK(pythonRepr("\xf0\x9f\x98\x80") == "'\xf0\x9f\x98\x80'"); // emoji stays
    CHECK(pythonRepr("") == "''");
}

TEST_CASE("default workloads build and validate the benchmark's rollout", "[metrics][workload]") {
    const Workload w = defaultWorkload("https://example.invalid/first.png", 7, "orbit");
    CHECK(w.prompt == std::string(kDefaultPrompt));
    CHECK(w.numChunks() == 7);
    CHECK(w.numFrames() == 81);
    CHECK(w.width == 832);
    CHECK(w.height == 480);
    CHECK(w.fps == 16);
    CHECK(w.seed == 42);
    CHECK(w.flow_shift == 5.0);
    CHECK_FALSE(w.negative_prompt);
    CHECK(w.videoSeconds() == Approx(81.0 / 16.0));
    CHECK(w.camera_script[1] == ChunkActions(3, FrameActions{"a"}));

    CHECK(metricErrorOf([] { defaultWorkload("", 3); }) ==
          message("Workload.image_reference is required; LingBot-World is image-conditioned."));
    CHECK(metricErrorOf([] { defaultWorkload("x", 0); }) ==
          message("num_chunks must be at least 1."));
    CHECK(metricErrorOf([] { defaultWorkload("x", 3, "zigzag"); }) ==
          message("Unknown camera pattern 'zigzag'; expected one of ['forward', 'hold', "
                  "'orbit']."));
    CHECK(metricErrorOf([] { defaultWorkload("x", 3, "forward", "p", 810); }) ==
          message("Workload width/height must be positive multiples of 16."));
}
