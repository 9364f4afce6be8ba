#include "app/report/json_fields.h"

#include "app/report/python_json.h"
#include "app/report/report_error.h"

#include <cmath>

namespace lbm::report {
namespace {

constexpr double kLargestExactInteger = 9007199254740992.0; // 2^53

std::optional<std::int64_t> asInteger(const QJsonValue& value) {
    if (!value.isDouble()) {
        return std::nullopt;
    }
    const double number = value.toDouble();
    if (!std::isfinite(number) || std::trunc(number) != number ||
        std::fabs(number) > kLargestExactInteger) {
        return std::nullopt;
    }
    return value.toInteger(static_cast<qint64>(number));
}

} // namespace

QString wrongTypeMessage(const QString& path, const QString& expected, const QJsonValue& value) {
    QString shown = QString::fromUtf8(toPythonJson(value, -1));
    constexpr qsizetype kShownLimit = 60;
    if (shown.size() > kShownLimit) {
        shown = shown.left(kShownLimit) + QStringLiteral("...");
    }
    return QStringLiteral("The field \"%1\" must be %2; it is %3.").arg(path, expected, shown);
}

std::int64_t integerValue(const QJsonValue& value, const QString& path) {
    const std::optional<std::int64_t> number = asInteger(value);
    if (!number.has_value()) {
        throw ReportError(wrongTypeMessage(path, QStringLiteral("an integer"), value));
    }
    return *number;
}

JsonFields::JsonFields(const QJsonValue& value, const QString& where)
    : m_object(value.toObject())
    , m_where(where) {
    if (!value.isObject()) {
        throw ReportError(wrongTypeMessage(where.isEmpty() ? QStringLiteral("(document)") : where,
                                           QStringLiteral("an object"), value));
    }
}

QString JsonFields::path(const QString& key) const {
    return m_where.isEmpty() ? key : m_where + QLatin1Char('.') + key;
}

bool JsonFields::hasValue(const QString& key) const {
    const QJsonValue value = m_object.value(key);
    return !value.isUndefined() && !value.isNull();
}

void JsonFields::wrongType(const QString& key, const char* expected) const {
    throw ReportError(
        wrongTypeMessage(path(key), QString::fromLatin1(expected), m_object.value(key)));
}

QJsonValue JsonFields::value(const QString& key) const {
    if (!m_object.contains(key)) {
        throw ReportError(QStringLiteral("The field \"%1\" is missing.").arg(path(key)));
    }
    return m_object.value(key);
}

double JsonFields::number(const QString& key) const {
    const QJsonValue field = value(key);
    if (!field.isDouble()) {
        wrongType(key, "a number");
    }
    return field.toDouble();
}

std::int64_t JsonFields::integer(const QString& key) const {
    return integerValue(value(key), path(key));
}

bool JsonFields::boolean(const QString& key) const {
    const QJsonValue field = value(key);
    if (!field.isBool()) {
        wrongType(key, "true or false");
    }
    return field.toBool();
}

QString JsonFields::string(const QString& key) const {
    const QJsonValue field = value(key);
    if (!field.isString()) {
        wrongType(key, "a string");
    }
    return field.toString();
}

std::optional<double> JsonFields::optionalNumber(const QString& key) const {
    if (!hasValue(key)) {
        return std::nullopt;
    }
    return number(key);
}

std::optional<std::int64_t> JsonFields::optionalInteger(const QString& key) const {
    if (!hasValue(key)) {
        return std::nullopt;
    }
    return integer(key);
}

std::optional<QString> JsonFields::optionalString(const QString& key) const {
    if (!hasValue(key)) {
        return std::nullopt;
    }
    return string(key);
}

std::optional<bool> JsonFields::optionalBoolean(const QString& key) const {
    if (!hasValue(key)) {
        return std::nullopt;
    }
    return boolean(key);
}

} // namespace lbm::report
