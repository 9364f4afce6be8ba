#include "app/sim/request_model.h"

#include <QRegularExpression>
#include <QStringList>

#include <cmath>
#include <vector>

namespace lbm::sim {
namespace {

// pydantic-core quotes an input with repr(), cut to 50 characters around "...".
QString truncatedRepr(const PyValue& value) {
    const QString repr = value.repr();
    if (repr.size() <= 50) {
        return repr;
    }
    return repr.left(25) + QStringLiteral("...") + repr.right(24);
}

// A bound as pydantic prints it in "greater than or equal to 1" (20.0 reads "20").
QString boundText(double bound) {
    if (bound == std::floor(bound) && std::abs(bound) < 1e15) {
        return QString::number(static_cast<qint64>(bound));
    }
    return PyValue::floating(bound).repr();
}

struct LineError {
    QString loc;
    QString message;
    QString type;
    PyValue input;
};

class Errors {
public:
    void add(const QString& loc, const QString& message, const QString& type,
             const PyValue& input) {
        m_errors.push_back({loc, message, type, input});
    }
    void append(const Errors& other) {
        m_errors.insert(m_errors.end(), other.m_errors.begin(), other.m_errors.end());
    }
    bool empty() const { return m_errors.empty(); }

    QString text() const {
        QStringList lines;
        lines.append(QStringLiteral("%1 validation error%2 for VideoGenerationRequest")
                         .arg(m_errors.size())
                         .arg(m_errors.size() == 1 ? QString() : QStringLiteral("s")));
        for (const LineError& error : m_errors) {
            lines.append(error.loc);
            lines.append(QStringLiteral("  %1 [type=%2, input_value=%3, input_type=%4]")
                             .arg(error.message, error.type, truncatedRepr(error.input),
                                  error.input.typeName()));
            lines.append(
                QStringLiteral(
                    "    For further information visit https://errors.pydantic.dev/2.13/v/") +
                error.type);
        }
        return lines.join(QLatin1Char('\n'));
    }

private:
    std::vector<LineError> m_errors;
};

struct Bounds {
    std::optional<double> ge;
    std::optional<double> le;
    std::optional<double> gt;
};

// The coerced number passes the bounds, else one error naming the original input.
bool checkBounds(double value, const Bounds& bounds, const QString& loc, const PyValue& input,
                 Errors& errors) {
    if (bounds.gt && !(value > *bounds.gt)) {
        errors.add(loc,
                   QStringLiteral("Input should be greater than %1").arg(boundText(*bounds.gt)),
                   QStringLiteral("greater_than"), input);
        return false;
    }
    if (bounds.ge && !(value >= *bounds.ge)) {
        errors.add(loc,
                   QStringLiteral("Input should be greater than or equal to %1")
                       .arg(boundText(*bounds.ge)),
                   QStringLiteral("greater_than_equal"), input);
        return false;
    }
    if (bounds.le && !(value <= *bounds.le)) {
        errors.add(
            loc,
            QStringLiteral("Input should be less than or equal to %1").arg(boundText(*bounds.le)),
            QStringLiteral("less_than_equal"), input);
        return false;
    }
    return true;
}

// pydantic's lax int: bools, integral floats and integer strings ("12", " 12 ", "1_000",
// "12.0") are accepted.
std::optional<qint64> coerceInt(const PyValue& input, const QString& loc, const Bounds& bounds,
                                Errors& errors) {
    std::optional<qint64> value;
    switch (input.type()) {
    case PyValue::Type::Bool:
        value = input.toBool() ? 1 : 0;
        break;
    case PyValue::Type::Int:
        value = input.toInt();
        break;
    case PyValue::Type::Float: {
        const double number = input.toDouble();
        if (!std::isfinite(number)) {
            errors.add(loc, QStringLiteral("Input should be a finite number"),
                       QStringLiteral("finite_number"), input);
            return std::nullopt;
        }
        if (number != std::floor(number)) {
            errors.add(loc,
                       QStringLiteral("Input should be a valid integer, got a number with a "
                                      "fractional part"),
                       QStringLiteral("int_from_float"), input);
            return std::nullopt;
        }
        value = static_cast<qint64>(number);
        break;
    }
    case PyValue::Type::Str: {
        static const QRegularExpression integer(
            QStringLiteral("^([+-]?\\d+(?:_\\d+)*)(?:\\.0*)?$"));
        const auto match = integer.match(input.toStr().trimmed());
        bool ok = false;
        const qint64 parsed =
            match.hasMatch() ? match.captured(1).remove(QLatin1Char('_')).toLongLong(&ok) : 0;
        if (!ok) {
            errors.add(loc,
                       QStringLiteral("Input should be a valid integer, unable to parse string as "
                                      "an integer"),
                       QStringLiteral("int_parsing"), input);
            return std::nullopt;
        }
        value = parsed;
        break;
    }
    default:
        errors.add(loc, QStringLiteral("Input should be a valid integer"),
                   QStringLiteral("int_type"), input);
        return std::nullopt;
    }
    if (!checkBounds(static_cast<double>(*value), bounds, loc, input, errors)) {
        return std::nullopt;
    }
    return value;
}

std::optional<double> coerceFloat(const PyValue& input, const QString& loc, const Bounds& bounds,
                                  Errors& errors) {
    double value = 0.0;
    switch (input.type()) {
    case PyValue::Type::Bool:
    case PyValue::Type::Int:
    case PyValue::Type::Float:
        value = input.toDouble();
        break;
    case PyValue::Type::Str: {
        // Python's float(): surrounding blanks, exponents, "inf" and "nan" are fine.
        bool ok = false;
        value = input.toStr().trimmed().toDouble(&ok);
        if (!ok) {
            errors.add(loc,
                       QStringLiteral("Input should be a valid number, unable to parse string as "
                                      "a number"),
                       QStringLiteral("float_parsing"), input);
            return std::nullopt;
        }
        break;
    }
    default:
        errors.add(loc, QStringLiteral("Input should be a valid number"),
                   QStringLiteral("float_type"), input);
        return std::nullopt;
    }
    if (!checkBounds(value, bounds, loc, input, errors)) {
        return std::nullopt;
    }
    return value;
}

std::optional<bool> coerceBool(const PyValue& input, const QString& loc, Errors& errors) {
    static const QStringList truthy = {QStringLiteral("1"), QStringLiteral("on"),
                                       QStringLiteral("t"), QStringLiteral("true"),
                                       QStringLiteral("y"), QStringLiteral("yes")};
    static const QStringList falsy = {QStringLiteral("0"), QStringLiteral("off"),
                                      QStringLiteral("f"), QStringLiteral("false"),
                                      QStringLiteral("n"), QStringLiteral("no")};
    const auto unparsable = [&]() -> std::optional<bool> {
        errors.add(loc,
                   QStringLiteral("Input should be a valid boolean, unable to interpret input"),
                   QStringLiteral("bool_parsing"), input);
        return std::nullopt;
    };
    switch (input.type()) {
    case PyValue::Type::Bool:
        return input.toBool();
    case PyValue::Type::Int:
    case PyValue::Type::Float:
        if (input.toDouble() == 0.0 || input.toDouble() == 1.0) {
            return input.toDouble() == 1.0;
        }
        return unparsable();
    case PyValue::Type::Str: {
        const QString text = input.toStr().toLower();
        if (truthy.contains(text) || falsy.contains(text)) {
            return truthy.contains(text);
        }
        return unparsable();
    }
    default:
        errors.add(loc, QStringLiteral("Input should be a valid boolean"),
                   QStringLiteral("bool_type"), input);
        return std::nullopt;
    }
}

std::optional<QString> coerceStr(const PyValue& input, const QString& loc, Errors& errors,
                                 const QString& pattern = {}) {
    if (input.type() != PyValue::Type::Str) {
        errors.add(loc, QStringLiteral("Input should be a valid string"),
                   QStringLiteral("string_type"), input);
        return std::nullopt;
    }
    if (!pattern.isEmpty() && !QRegularExpression(pattern).match(input.toStr()).hasMatch()) {
        errors.add(loc, QStringLiteral("String should match pattern '%1'").arg(pattern),
                   QStringLiteral("string_pattern_mismatch"), input);
        return std::nullopt;
    }
    return input.toStr();
}

// One of the reference models: a single required string field, extra keys forbidden.
// Returns the member's errors (empty = valid).
Errors referenceMember(const PyValue& input, const QString& loc, const QString& field) {
    Errors errors;
    if (const PyValue* value = input.get(field)) {
        coerceStr(*value, loc + QLatin1Char('.') + field, errors);
    } else {
        errors.add(loc + QLatin1Char('.') + field, QStringLiteral("Field required"),
                   QStringLiteral("missing"), input);
    }
    for (const auto& [key, value] : input.entries()) {
        if (key != field) {
            errors.add(loc + QLatin1Char('.') + key,
                       QStringLiteral("Extra inputs are not permitted"),
                       QStringLiteral("extra_forbidden"), value);
        }
    }
    return errors;
}

struct Member {
    QString model; // UrlImageReference
    QString field; // image_url
};

// A reference field: one model or a two-member union of them. Returns {member field, value}
// of the member that validated.
std::optional<std::pair<QString, QString>> coerceReference(const PyValue& input, const QString& loc,
                                                           const std::vector<Member>& members,
                                                           Errors& errors) {
    const bool single = members.size() == 1;
    if (input.type() != PyValue::Type::Dict) {
        for (const Member& member : members) {
            errors.add(single ? loc : loc + QLatin1Char('.') + member.model,
                       QStringLiteral("Input should be a valid dictionary or instance of %1")
                           .arg(member.model),
                       QStringLiteral("model_type"), input);
        }
        return std::nullopt;
    }
    std::vector<Errors> member_errors;
    for (const Member& member : members) {
        Errors found = referenceMember(input, single ? loc : loc + QLatin1Char('.') + member.model,
                                       member.field);
        if (found.empty()) {
            return std::make_pair(member.field, input.get(member.field)->toStr());
        }
        member_errors.push_back(found);
    }
    // A union that fails reports every member's errors, in member order.
    for (const Errors& found : member_errors) {
        errors.append(found);
    }
    return std::nullopt;
}

} // namespace

std::optional<VideoRequest> validateVideoRequest(const PyValue& data, QString* error) {
    Errors errors;
    VideoRequest request;
    QList<PyValue::Item> dump;
    // An optional field given as null is None: not validated, not dumped.
    const auto given = [&data](const QString& name) -> const PyValue* {
        const PyValue* value = data.get(name);
        return value != nullptr && !value->isNone() ? value : nullptr;
    };
    const auto optionalStr = [&](const QString& name, std::optional<QString>* out,
                                 const QString& pattern = {}) {
        if (const PyValue* value = given(name)) {
            if (auto text = coerceStr(*value, name, errors, pattern)) {
                dump.append({name, PyValue::string(*text)});
                if (out != nullptr) {
                    *out = text;
                }
            }
        }
    };
    const auto optionalInt = [&](const QString& name, const Bounds& bounds,
                                 std::optional<qint64>* out) {
        if (const PyValue* value = given(name)) {
            if (auto number = coerceInt(*value, name, bounds, errors)) {
                dump.append({name, PyValue::integer(*number)});
                if (out != nullptr) {
                    *out = number;
                }
            }
        }
    };
    const auto optionalFloat = [&](const QString& name, const Bounds& bounds) {
        if (const PyValue* value = given(name)) {
            if (auto number = coerceFloat(*value, name, bounds, errors)) {
                dump.append({name, PyValue::floating(*number)});
            }
        }
    };
    const auto optionalDict = [&](const QString& name, std::optional<PyValue>* out) {
        if (const PyValue* value = given(name)) {
            if (value->type() != PyValue::Type::Dict) {
                errors.add(name, QStringLiteral("Input should be a valid dictionary"),
                           QStringLiteral("dict_type"), *value);
                return;
            }
            dump.append({name, *value});
            if (out != nullptr) {
                *out = *value;
            }
        }
    };
    const auto reference = [&](const QString& name, const std::vector<Member>& members) {
        std::optional<std::pair<QString, QString>> chosen;
        if (const PyValue* value = given(name)) {
            chosen = coerceReference(*value, name, members, errors);
            if (chosen) {
                dump.append(
                    {name, PyValue::dict({{chosen->first, PyValue::string(chosen->second)}})});
            }
        }
        return chosen;
    };
    // Fields with a non-None default: null is refused like any wrong type.
    const auto defaulted = [&](const QString& name, const PyValue& fallback, auto coerce) {
        const PyValue* value = data.get(name);
        if (value == nullptr) {
            dump.append({name, fallback});
            return;
        }
        if (auto coerced = coerce(*value)) {
            dump.append({name, *coerced});
        }
    };

    optionalStr(QStringLiteral("model"), &request.model);
    if (const PyValue* prompt = data.get(QStringLiteral("prompt"))) {
        if (auto text = coerceStr(*prompt, QStringLiteral("prompt"), errors)) {
            request.prompt = *text;
            dump.append({QStringLiteral("prompt"), PyValue::string(*text)});
        }
    } else {
        errors.add(QStringLiteral("prompt"), QStringLiteral("Field required"),
                   QStringLiteral("missing"), data);
    }
    optionalStr(QStringLiteral("seconds"), &request.seconds, QStringLiteral("^[1-9]\\d*$"));
    optionalStr(QStringLiteral("size"), &request.size, QStringLiteral("^\\d+x\\d+$"));
    if (const auto image =
            reference(QStringLiteral("image_reference"),
                      {{QStringLiteral("UrlImageReference"), QStringLiteral("image_url")},
                       {QStringLiteral("FileImageReference"), QStringLiteral("file_id")}})) {
        (image->first == QStringLiteral("image_url") ? request.image_url : request.image_file_id) =
            image->second;
    }
    reference(QStringLiteral("video_reference"),
              {{QStringLiteral("UrlVideoReference"), QStringLiteral("video_url")},
               {QStringLiteral("FileVideoReference"), QStringLiteral("file_id")}});
    reference(QStringLiteral("audio_reference"),
              {{QStringLiteral("UrlAudioReference"), QStringLiteral("audio_url")}});
    if (const PyValue* params = given(QStringLiteral("video_params"))) {
        if (params->type() != PyValue::Type::Dict) {
            errors.add(
                QStringLiteral("video_params"),
                QStringLiteral("Input should be a valid dictionary or instance of VideoParams"),
                QStringLiteral("model_type"), *params);
        } else {
            QList<PyValue::Item> vp_dump;
            const std::pair<const char*, std::optional<qint64>*> vp_fields[] = {
                {"width", &request.vp_width},
                {"height", &request.vp_height},
                {"num_frames", &request.vp_num_frames},
                {"fps", &request.vp_fps}};
            for (const auto& [name, out] : vp_fields) {
                const PyValue* value = params->get(QString::fromLatin1(name));
                if (value != nullptr && !value->isNone()) {
                    *out = coerceInt(*value, QStringLiteral("video_params.") + QLatin1String(name),
                                     Bounds{1, {}, {}}, errors);
                    if (*out) {
                        vp_dump.append({QString::fromLatin1(name), PyValue::integer(**out)});
                    }
                }
            }
            dump.append({QStringLiteral("video_params"), PyValue::dict(vp_dump)});
        }
    }
    optionalStr(QStringLiteral("user"), nullptr);
    optionalInt(QStringLiteral("width"), Bounds{1, {}, {}}, &request.width);
    optionalInt(QStringLiteral("height"), Bounds{1, {}, {}}, &request.height);
    optionalInt(QStringLiteral("fps"), Bounds{1, {}, {}}, &request.fps);
    optionalInt(QStringLiteral("num_frames"), Bounds{1, {}, {}}, &request.num_frames);
    optionalStr(QStringLiteral("negative_prompt"), &request.negative_prompt);
    optionalInt(QStringLiteral("num_inference_steps"), Bounds{1, 200, {}}, nullptr);
    optionalFloat(QStringLiteral("guidance_scale"), Bounds{0, 20, {}});
    optionalFloat(QStringLiteral("guidance_scale_2"), Bounds{0, 20, {}});
    optionalFloat(QStringLiteral("boundary_ratio"), Bounds{0, 1, {}});
    optionalFloat(QStringLiteral("flow_shift"), Bounds{});
    optionalFloat(QStringLiteral("true_cfg_scale"), Bounds{0, 20, {}});
    optionalInt(QStringLiteral("seed"), Bounds{}, &request.seed);
    const auto asBool = [&](const QString& name) {
        return [&errors, name](const PyValue& value) -> std::optional<PyValue> {
            const auto flag = coerceBool(value, name, errors);
            return flag ? std::optional<PyValue>(PyValue::boolean(*flag)) : std::nullopt;
        };
    };
    defaulted(QStringLiteral("generate_sound"), PyValue::boolean(false),
              asBool(QStringLiteral("generate_sound")));
    optionalFloat(QStringLiteral("sound_duration"), Bounds{{}, {}, 0});
    defaulted(QStringLiteral("enable_frame_interpolation"), PyValue::boolean(false),
              asBool(QStringLiteral("enable_frame_interpolation")));
    defaulted(QStringLiteral("frame_interpolation_exp"), PyValue::integer(1),
              [&errors](const PyValue& value) -> std::optional<PyValue> {
                  const auto number = coerceInt(value, QStringLiteral("frame_interpolation_exp"),
                                                Bounds{1, {}, {}}, errors);
                  return number ? std::optional<PyValue>(PyValue::integer(*number)) : std::nullopt;
              });
    defaulted(QStringLiteral("frame_interpolation_scale"), PyValue::floating(1.0),
              [&errors](const PyValue& value) -> std::optional<PyValue> {
                  const auto number =
                      coerceFloat(value, QStringLiteral("frame_interpolation_scale"),
                                  Bounds{{}, {}, 0}, errors);
                  return number ? std::optional<PyValue>(PyValue::floating(*number)) : std::nullopt;
              });
    optionalStr(QStringLiteral("frame_interpolation_model_path"), nullptr);
    optionalDict(QStringLiteral("lora"), nullptr);
    optionalDict(QStringLiteral("extra_params"), &request.extra_params);

    if (!errors.empty()) {
        if (error != nullptr) {
            *error = errors.text();
        }
        return std::nullopt;
    }
    request.dump = PyValue::dict(dump);
    return request;
}

} // namespace lbm::sim
