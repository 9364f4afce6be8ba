// The pieces of the simulator's handler emulation on their own: Python's view of JSON, the
// request model's refusal texts and echo, and the control loop's checks. The expected texts
// were produced by the real code (pydantic 2.13 on vLLM-Omni's VideoGenerationRequest, the
// real handler's control loop; see docs/upstream-conformance.md).

#include "app/sim/control_message.h"
#include "app/sim/py_value.h"
#include "app/sim/request_model.h"
#include "app/sim/start_request.h"

#include <QRegularExpression>

#include <catch2/catch.hpp>

using namespace lbm::sim;

namespace {

PyValue parsed(const char* text) {
    const auto value = PyValue::parse(QString::fromUtf8(text));
    REQUIRE(value.has_value());
    return *value;
}

QString refusal(const char* request_data) {
    QString error;
    REQUIRE_FALSE(validateVideoRequest(parsed(request_data), &error).has_value());
    return error;
}

QString firstErrorLine(const char* request_data) {
    return refusal(request_data).split(QLatin1Char('\n')).value(2);
}

} // namespace

TEST_CASE("JSON is read as Python's json.loads reads it", "[sim][handler]") {
    const PyValue value = parsed(R"({"b": 1, "a": 2.0, "c": [true, null, "x'y"], "b": 3})");
    REQUIRE(value.type() == PyValue::Type::Dict);
    // Key order kept; a repeated key replaces the value where it first stood.
    CHECK(value.repr() == QStringLiteral("{'b': 3, 'a': 2.0, 'c': [True, None, \"x'y\"]}"));
    CHECK(value.get(QStringLiteral("a"))->typeName() == QStringLiteral("float"));
    CHECK(value.get(QStringLiteral("b"))->typeName() == QStringLiteral("int"));
    CHECK(value.toJsonText() == QStringLiteral(R"({"b":3,"a":2.0,"c":[true,null,"x'y"]})"));
    CHECK(parsed("NaN").repr() == QStringLiteral("nan"));
    CHECK(parsed("-Infinity").repr() == QStringLiteral("-inf"));
    CHECK(parsed("1e3").repr() == QStringLiteral("1000.0"));
    CHECK(parsed("\"\\u00e9\\n\"").toStr() == QStringLiteral("\u00e9\n"));
    CHECK(parsed("123456789012345678901234567890").repr() ==
          QStringLiteral("123456789012345678901234567890"));
    for (const char* invalid : {"", "{", "[1,]", "{'a': 1}", "01", "\"tab\there\"", "1 2", "nul"}) {
        INFO(invalid);
        CHECK_FALSE(PyValue::parse(QString::fromUtf8(invalid)).has_value());
    }
    CHECK_FALSE(parsed("[]").truthy());
    CHECK(parsed("[0]").truthy());
}

TEST_CASE("the request model refuses as pydantic does", "[sim][handler]") {
    CHECK(
        refusal(R"({"prompt": "x", "num_frames": 0})") ==
        QStringLiteral("1 validation error for VideoGenerationRequest\nnum_frames\n  Input should "
                       "be greater than or equal to 1 [type=greater_than_equal, input_value=0, "
                       "input_type=int]\n    For further information visit "
                       "https://errors.pydantic.dev/2.13/v/greater_than_equal"));
    CHECK(firstErrorLine(R"({"prompt": "x", "width": 12.5})") ==
          QStringLiteral("  Input should be a valid integer, got a number with a fractional part "
                         "[type=int_from_float, input_value=12.5, input_type=float]"));
    CHECK(firstErrorLine(R"({"prompt": "x", "width": "12.5"})") ==
          QStringLiteral("  Input should be a valid integer, unable to parse string as an integer "
                         "[type=int_parsing, input_value='12.5', input_type=str]"));
    CHECK(firstErrorLine(R"({"prompt": "x", "width": Infinity})") ==
          QStringLiteral("  Input should be a finite number [type=finite_number, "
                         "input_value=inf, input_type=float]"));
    CHECK(firstErrorLine(R"({"prompt": "x", "guidance_scale": -1})") ==
          QStringLiteral("  Input should be greater than or equal to 0 [type=greater_than_equal, "
                         "input_value=-1, input_type=int]"));
    CHECK(firstErrorLine(R"({"prompt": "x", "frame_interpolation_scale": 0})") ==
          QStringLiteral("  Input should be greater than 0 [type=greater_than, input_value=0, "
                         "input_type=int]"));
    CHECK(firstErrorLine(R"({"prompt": "x", "num_inference_steps": 500})") ==
          QStringLiteral("  Input should be less than or equal to 200 [type=less_than_equal, "
                         "input_value=500, input_type=int]"));
    CHECK(firstErrorLine(R"({"prompt": "x", "generate_sound": " yes "})") ==
          QStringLiteral("  Input should be a valid boolean, unable to interpret input "
                         "[type=bool_parsing, input_value=' yes ', input_type=str]"));
    CHECK(firstErrorLine(R"({"prompt": "x", "flow_shift": "abc"})") ==
          QStringLiteral("  Input should be a valid number, unable to parse string as a number "
                         "[type=float_parsing, input_value='abc', input_type=str]"));
    CHECK(firstErrorLine(R"({"prompt": "x", "size": "big"})") ==
          QStringLiteral("  String should match pattern '^\\d+x\\d+$' "
                         "[type=string_pattern_mismatch, input_value='big', input_type=str]"));
    CHECK(firstErrorLine(R"({"prompt": null})") ==
          QStringLiteral("  Input should be a valid string [type=string_type, input_value=None, "
                         "input_type=NoneType]"));
    CHECK(refusal(R"({"prompt": "x", "video_params": {"width": 0, "x": 1}})")
              .contains(QStringLiteral("\nvideo_params.width\n")));
    CHECK(refusal(R"({"prompt": "x", "audio_reference": {"url": "x"}})")
              .startsWith(QStringLiteral("2 validation errors for VideoGenerationRequest\n"
                                         "audio_reference.audio_url\n  Field required "
                                         "[type=missing, input_value={'url': 'x'}, "
                                         "input_type=dict]")));
    // A missing field quotes the whole input, in the client's order, cut to 25 + ... + 24.
    CHECK(firstErrorLine(
              R"({"model": "robbyant/lingbot-world", "extra_params": {"flow_shift": 5.0}})") ==
          QStringLiteral("  Field required [type=missing, input_value={'model': "
                         "'robbyant/lingb...s': {'flow_shift': 5.0}}, input_type=dict]"));
    CHECK(refusal(R"({"prompt": "x", "image_reference": {}})") ==
          QStringLiteral("2 validation errors for VideoGenerationRequest\n"
                         "image_reference.UrlImageReference.image_url\n  Field required "
                         "[type=missing, input_value={}, input_type=dict]\n    For further "
                         "information visit https://errors.pydantic.dev/2.13/v/missing\n"
                         "image_reference.FileImageReference.file_id\n  Field required "
                         "[type=missing, input_value={}, input_type=dict]\n    For further "
                         "information visit https://errors.pydantic.dev/2.13/v/missing"));
}

TEST_CASE("the request model accepts as pydantic does and echoes its defaults", "[sim][handler]") {
    QString error;
    const auto request = validateVideoRequest(
        parsed(R"({"prompt": "x", "width": " 832 ", "height": "4_80", "fps": "+16", "seed": -5,
                   "generate_sound": "TRUE", "image_reference": {"file_id": "f"},
                   "unknown": 1, "extra_params": {"a": null}})"),
        &error);
    REQUIRE(request.has_value());
    CHECK(request->width == 832);
    CHECK(request->height == 480);
    CHECK(request->fps == 16);
    CHECK(request->seed == -5);
    CHECK(request->image_file_id == QStringLiteral("f"));
    CHECK(request->dump.repr() ==
          QStringLiteral("{'prompt': 'x', 'image_reference': {'file_id': 'f'}, 'width': 832, "
                         "'height': 480, 'fps': 16, 'seed': -5, 'generate_sound': True, "
                         "'enable_frame_interpolation': False, 'frame_interpolation_exp': 1, "
                         "'frame_interpolation_scale': 1.0, 'extra_params': {'a': None}}"));
}

TEST_CASE("session.start is refused before or after video.start as the handler does",
          "[sim][handler]") {
    const SimulatorConfig config;
    const auto outcome = [&](const char* text) {
        return parseStartRequest(QString::fromUtf8(text), config);
    };
    CHECK(outcome("{\"type\": 5}").refusal == QStringLiteral("Expected session.start, got: 5"));
    CHECK(outcome("{\"type\": [1, 2]}").refusal ==
          QStringLiteral("Expected session.start, got: [1, 2]"));
    CHECK(outcome(R"({"type": "session.start", "prompt": "x", "format": null})").refusal ==
          QStringLiteral("Invalid session.start format: expected 'm4s'."));
    // sampling_params: model fields move up unless set, the rest joins extra_params.
    const auto merged = outcome(R"({"type": "session.start", "prompt": "x", "seed": 1,
        "sampling_params": {"seed": 2, "num_inference_steps": 4, "custom": true},
        "extra_params": {"flow_shift": 5.0}})");
    REQUIRE(merged.request.has_value());
    CHECK(merged.request->config.repr() ==
          QStringLiteral("{'prompt': 'x', 'num_inference_steps': 4, 'seed': 1, "
                         "'generate_sound': False, 'enable_frame_interpolation': False, "
                         "'frame_interpolation_exp': 1, 'frame_interpolation_scale': 1.0, "
                         "'extra_params': {'flow_shift': 5.0, 'seed': 2, 'custom': True}}"));
    // Accepted, then refused after video.start: no image, so no chunk either.
    CHECK(merged.request->post_start_error ==
          QStringLiteral("Requested resolution NonexNone must match the fixed cache geometry "
                         "480x832."));
    CHECK(merged.request->fps == 24); // the model's default mux rate
    const auto no_comma = outcome(R"({"type": "session.start", "prompt": "x", "width": 832,
        "height": 480, "image_reference": {"image_url": "data:image/png;base64"}})");
    REQUIRE(no_comma.request.has_value());
    CHECK(no_comma.request->post_start_error ==
          QStringLiteral("not enough values to unpack (expected 2, got 1)"));
    const auto bad_padding = outcome(R"({"type": "session.start", "prompt": "x", "width": 832,
        "height": 480, "image_reference": {"image_url": "data:image/png;base64,abc"}})");
    CHECK(bad_padding.request->post_start_error ==
          QStringLiteral("400: Invalid image_reference.image_url: image data is not valid "
                         "base64."));
    const auto zero_size = outcome(R"({"type": "session.start", "prompt": "x", "size": "0x480"})");
    CHECK(zero_size.request->post_start_error ==
          QStringLiteral("Invalid size: 0x480. Width and height must be positive integers."));
}

TEST_CASE("the control loop's checks and texts, per handler version", "[sim][handler]") {
    const auto error = [](const QString& text, HandlerVersion handler) {
        const ControlMessage message = readControlMessage(text, handler);
        return message.kind == ControlMessage::Kind::Error ? message.error : QString();
    };
    const auto both = [&](const char* text) {
        const QString snapshot = error(QString::fromUtf8(text), HandlerVersion::Snapshot);
        CHECK(snapshot == error(QString::fromUtf8(text), HandlerVersion::Newest));
        return snapshot;
    };
    CHECK(both("{") == QStringLiteral("Invalid JSON message"));
    CHECK(both("") == QStringLiteral("Invalid JSON message"));
    CHECK(both("null") == QStringLiteral("WebSocket messages must be JSON objects"));
    CHECK(both("{\"type\": null}") == QStringLiteral("Unknown message type: None"));
    CHECK(both("{\"type\": true}") == QStringLiteral("Unknown message type: True"));
    CHECK(both(R"({"type": "session.interaction", "interaction": {"event_id": 5}})") ==
          QStringLiteral("session.interaction event_id must be a non-empty string"));
    CHECK(both(R"({"type": "session.interaction", "interaction": {"event": {"prompt": "x"},
                   "transition_chunks": -1}})") ==
          QStringLiteral("session.interaction transition_chunks must be >= 0"));
    CHECK(both(R"({"type": "session.interaction", "interaction": {"event": {"prompt": "x"},
                   "transition_chunks": 1.5}})") ==
          QStringLiteral("session.interaction transition_chunks must be an integer"));
    CHECK(both(R"({"type": "session.interaction", "interaction": {"event": {"prompt": "x",
                   "negative_prompt": "y"}}})") ==
          QStringLiteral("session.interaction negative_prompt is not supported in this release"));

    const QString empty_prompt = QStringLiteral(
        R"({"type": "session.interaction", "interaction": {"event_id": "e", "event": {"prompt": " "}}})");
    CHECK(error(empty_prompt, HandlerVersion::Snapshot) ==
          QStringLiteral("session.interaction requires a non-empty event.prompt"));
    CHECK(error(empty_prompt, HandlerVersion::Newest) ==
          QStringLiteral("session.interaction requires a non-empty event.prompt and/or "
                         "non-empty event.multi_modal_data"));
    CHECK(error(empty_prompt, HandlerVersion::Combined) ==
          QStringLiteral("session.interaction requires a non-empty event.prompt"));
    const QString camera = QStringLiteral(
        R"({"type": "session.interaction", "interaction": {"event": {"multi_modal_data":
            {"camera": {"mode": "velocity", "data": {}}}}}})");
    CHECK(error(camera, HandlerVersion::Snapshot) ==
          QStringLiteral("session.interaction requires a non-empty event.prompt"));
    const ControlMessage accepted = readControlMessage(camera, HandlerVersion::Combined);
    REQUIRE(accepted.kind == ControlMessage::Kind::Interaction);
    CHECK(accepted.multi_modal_data.has_value());
    CHECK(QRegularExpression(QStringLiteral("^[0-9a-f]{32}$")).match(accepted.event_id).hasMatch());
    CHECK(error(QStringLiteral(R"({"type": "session.interaction", "interaction": {"event":
                                  {"multi_modal_data": {"camera": 1}}}})"),
                HandlerVersion::Newest) ==
          QStringLiteral("session.interaction multi_modal_data['camera'] must be an object"));

    const ControlMessage k =
        readControlMessage(QStringLiteral(R"({"type": "session.interaction", "interaction":
            {"event_id": "p", "event": {"prompt": "Snow"}, "transition_chunks": 2.0}})"),
                           HandlerVersion::Snapshot);
    REQUIRE(k.kind == ControlMessage::Kind::Interaction);
    CHECK(k.transition_chunks == 2);
    CHECK(k.prompt == QStringLiteral("Snow"));
}
