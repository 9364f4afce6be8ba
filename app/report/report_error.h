#pragma once
// The report layer's own failures (unreadable files, invalid JSON, missing or mistyped
// fields, unwritable output), each carrying a message meant for the user: what is wrong,
// where, and what to do. Rule violations of the seed's math are lbm::MetricError instead,
// with the seed's words; callers that only show the text catch std::exception.

#include <QString>

#include <stdexcept>

namespace lbm::report {

class ReportError : public std::runtime_error {
public:
    explicit ReportError(const QString& message)
        : std::runtime_error(message.toStdString())
        , m_message(message) {}

    const QString& message() const { return m_message; }

private:
    QString m_message;
};

} // namespace lbm::report
