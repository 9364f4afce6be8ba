#include "app/protocol/server_error_text.h"

#include <catch2/catch.hpp>

using namespace lbm::protocol;

TEST_CASE("the real handler's control-loop errors keep the session, the rest end it",
          "[protocol][errors]") {
    for (const char* text :
         {"control message too large", "Invalid JSON message",
          "WebSocket messages must be JSON objects", "Unknown message type: None",
          "session.interaction transition_chunks must be >= 0", "event_id_conflict",
          "Failed to apply interaction",
          "session.interaction requires a non-empty event.prompt and/or non-empty "
          "event.multi_modal_data"}) {
        INFO(text);
        CHECK(isControlLoopError(QString::fromUtf8(text)));
    }
    CHECK(isInteractionRefusal(QStringLiteral("session.interaction event_id must be a non-empty "
                                              "string")));
    CHECK_FALSE(isInteractionRefusal(QStringLiteral("Invalid JSON message")));
    for (const char* text :
         {"Stall timeout: no generation progress", "'text'", "Invalid JSON in session.start",
          "400: Invalid image_reference.image_url: provided content is not a valid image.",
          "Cannot use mid-generation camera interaction together with camera_action_script; ",
          "Generation failed at chunk 2: CUDA out of memory"}) {
        INFO(text);
        CHECK_FALSE(isControlLoopError(QString::fromUtf8(text)));
    }
}

TEST_CASE("known refusals come with what to do", "[protocol][errors]") {
    CHECK(serverErrorAdvice(QStringLiteral("Requested resolution 640x480 must match the fixed "
                                           "cache geometry 480x832."))
              .contains(QStringLiteral("--width 832 --height 480")));
    CHECK(serverErrorAdvice(QStringLiteral("'text'")).contains(QStringLiteral("binary frame")));
    CHECK(serverErrorAdvice(QStringLiteral("num_frames=5 gives no complete AR block; use 9 + "
                                           "12k."))
              .contains(QStringLiteral("9 + 12k")));
    CHECK(serverErrorAdvice(QStringLiteral("Invalid session.start: 1 validation error for "
                                           "VideoGenerationRequest\nwidth\n  ..."))
              .contains(QStringLiteral("names it")));
    // Unknown texts get no invented advice, and a quoted word is not the binary-frame case.
    CHECK(serverErrorAdvice(QStringLiteral("CUDA out of memory")).isEmpty());
    CHECK(serverErrorAdvice(QStringLiteral("KeyError: 'text' in handler")).isEmpty());
}
