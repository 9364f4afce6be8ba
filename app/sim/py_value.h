#pragma once
// A JSON text as Python's json.loads sees it, for the simulator's handler emulation. Objects
// keep the client's key order (a repeated key replaces the earlier value in place, as a dict
// does), integers and floats stay apart, and NaN / Infinity / -Infinity are accepted. Qt's
// QJsonDocument keeps none of that, yet the real handler's texts depend on it: pydantic
// quotes inputs with repr() in the client's order ("input_value={'model': ...}") and says
// int or float ("input_type=float").

#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringView>

#include <optional>
#include <utility>

namespace lbm::sim {

class PyValue {
public:
    enum class Type { None, Bool, Int, Float, Str, List, Dict };
    using Item = std::pair<QString, PyValue>;

    PyValue() = default; // None
    static PyValue boolean(bool value);
    static PyValue integer(qint64 value);
    static PyValue floating(double value);
    static PyValue string(const QString& value);
    static PyValue list(QList<PyValue> items);
    static PyValue dict(QList<Item> items);
    // Qt's view: integral numbers become ints, keys come sorted.
    static PyValue fromJson(const QJsonValue& value);

    // nullopt where json.loads raises JSONDecodeError.
    static std::optional<PyValue> parse(QStringView text);

    Type type() const { return m_type; }
    bool isNone() const { return m_type == Type::None; }
    bool isNumber() const { return m_type == Type::Int || m_type == Type::Float; }
    // Python's bool(x): False, 0, 0.0, "", [], {} and None are false.
    bool truthy() const;
    bool toBool() const { return m_bool; }
    // Int: exact for |value| < 2^63 (isIntInRange says so); Float: the value.
    qint64 toInt() const { return m_int; }
    bool isIntInRange() const { return m_int_in_range; }
    double toDouble() const;
    const QString& toStr() const { return m_text; }
    const QList<PyValue>& items() const { return m_list; }
    const QList<Item>& entries() const { return m_dict; }

    // Dict access; nullptr when absent (or not a dict).
    const PyValue* get(const QString& key) const;
    bool contains(const QString& key) const { return get(key) != nullptr; }
    // Replaces in place when present, else appends (dict assignment).
    void set(const QString& key, const PyValue& value);
    void remove(const QString& key);

    // repr(), str() (a str is itself, everything else its repr), type(x).__name__.
    QString repr() const;
    QString str() const;
    QString typeName() const;
    // Qt's view (ints and floats both doubles; NaN and infinities become null).
    QJsonValue toJson() const;
    // The text Starlette's send_json writes (json.dumps, compact, non-ASCII kept): keys in
    // order, 5.0 stays "5.0", NaN is "NaN".
    QString toJsonText() const;

private:
    Type m_type = Type::None;
    bool m_bool = false;
    qint64 m_int = 0;
    bool m_int_in_range = true;
    double m_float = 0.0;
    QString m_text; // Str: the text; Int: the digits as written
    QList<PyValue> m_list;
    QList<Item> m_dict;

    friend class PyJsonParser;
};

} // namespace lbm::sim
