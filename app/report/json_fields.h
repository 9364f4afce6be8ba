#pragma once
// Typed, named access to the fields of a JSON object read from a file: every failure is a
// ReportError that spells the field's full path ("sessions[0].chunks[3].arrival_s"), so a
// user can find the problem in the file. Integers accept integral numbers only.

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <cstdint>
#include <optional>

namespace lbm::report {

class JsonFields {
public:
    // Throws ReportError when value is not an object.
    JsonFields(const QJsonValue& value, const QString& where);

    const QJsonObject& object() const { return m_object; }
    const QString& where() const { return m_where; }
    // "where.key" (or "key" at the top level).
    QString path(const QString& key) const;
    bool has(const QString& key) const { return m_object.contains(key); }
    // Present and not null.
    bool hasValue(const QString& key) const;

    // Required fields: throw when missing or of the wrong type.
    QJsonValue value(const QString& key) const;
    double number(const QString& key) const;
    std::int64_t integer(const QString& key) const;
    bool boolean(const QString& key) const;
    QString string(const QString& key) const;

    // Optional fields: nullopt when missing or null; throw when of the wrong type.
    std::optional<double> optionalNumber(const QString& key) const;
    std::optional<std::int64_t> optionalInteger(const QString& key) const;
    std::optional<QString> optionalString(const QString& key) const;
    std::optional<bool> optionalBoolean(const QString& key) const;

private:
    [[noreturn]] void wrongType(const QString& key, const char* expected) const;

    QJsonObject m_object;
    QString m_where;
};

// The message for a value of the wrong kind at a path, with the value shown.
QString wrongTypeMessage(const QString& path, const QString& expected, const QJsonValue& value);
// Required integer from a bare value (array elements): integral numbers only.
std::int64_t integerValue(const QJsonValue& value, const QString& path);

} // namespace lbm::report
