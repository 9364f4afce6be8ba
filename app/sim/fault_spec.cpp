#include "app/sim/fault_spec.h"

#include <QStringList>

#include <algorithm>
#include <array>
#include <utility>

namespace lbm::sim {
namespace {

const std::array<std::pair<FaultKind, const char*>, 14> kKinds = {{
    {FaultKind::Stall, "stall"},
    {FaultKind::Error, "error"},
    {FaultKind::Disconnect, "disconnect"},
    {FaultKind::Garbage, "garbage"},
    {FaultKind::OrphanBinary, "orphan-binary"},
    {FaultKind::Truncate, "truncate"},
    {FaultKind::SlowStart, "slow-start"},
    {FaultKind::Seam, "seam"},
    {FaultKind::Freeze, "freeze"},
    {FaultKind::Blur, "blur"},
    {FaultKind::Tint, "tint"},
    {FaultKind::IgnoreAction, "ignore-action"},
    {FaultKind::ReverseAction, "reverse-action"},
    {FaultKind::LateAction, "late-action"},
}};

} // namespace

QString FaultSpec::kindName(FaultKind kind) {
    for (const auto& [known, name] : kKinds) {
        if (known == kind) {
            return QString::fromLatin1(name);
        }
    }
    return {};
}

QStringList FaultSpec::kindNames() {
    QStringList names;
    for (const auto& entry : kKinds) {
        names.append(QString::fromLatin1(entry.second));
    }
    return names;
}

QString FaultSpec::toString() const {
    QString text = kindName(kind) + QLatin1Char('@') + QString::number(chunk);
    if (kind == FaultKind::LateAction) {
        text += QLatin1Char(':') + QString::number(delay_chunks);
    }
    return text;
}

std::optional<FaultSpec> FaultSpec::parse(const QString& text, QString* error) {
    const auto fail = [&](const QString& message) -> std::optional<FaultSpec> {
        if (error != nullptr) {
            *error = message;
        }
        return std::nullopt;
    };
    const qsizetype at = text.indexOf(QLatin1Char('@'));
    const QString name = (at < 0 ? text : text.left(at)).trimmed().toLower();
    const auto found = std::find_if(kKinds.cbegin(), kKinds.cend(), [&](const auto& entry) {
        return name == QLatin1String(entry.second);
    });
    if (found == kKinds.cend()) {
        return fail(QStringLiteral("Unknown fault '%1' in '%2'; use KIND@CHUNK with KIND one of "
                                   "%3 (e.g. stall@3).")
                        .arg(name, text, kindNames().join(QStringLiteral(", "))));
    }
    FaultSpec spec;
    spec.kind = found->first;
    if (at < 0) {
        // slow-start only makes sense at the first chunk, so its index may be left out.
        if (spec.kind == FaultKind::SlowStart) {
            return spec;
        }
        return fail(
            QStringLiteral("Fault '%1' needs a chunk index: %1@CHUNK (e.g. %1@3).").arg(name));
    }
    QString where = text.mid(at + 1).trimmed();
    if (spec.kind == FaultKind::LateAction) {
        spec.delay_chunks = 1;
        const qsizetype colon = where.indexOf(QLatin1Char(':'));
        if (colon >= 0) {
            bool delay_ok = false;
            spec.delay_chunks = where.mid(colon + 1).trimmed().toInt(&delay_ok);
            if (!delay_ok || spec.delay_chunks < 1) {
                return fail(QStringLiteral("Fault '%1': the delay must be a whole number of chunks "
                                           ">= 1 (e.g. late-action@5:2).")
                                .arg(text));
            }
            where = where.left(colon);
        }
    }
    bool ok = false;
    spec.chunk = where.toInt(&ok);
    if (!ok || spec.chunk < 0) {
        return fail(QStringLiteral("Fault '%1': the chunk index must be a non-negative integer "
                                   "(e.g. %2@3).")
                        .arg(text, name));
    }
    return spec;
}

bool hasFault(const std::vector<FaultSpec>& faults, FaultKind kind, int chunk) {
    return std::any_of(faults.cbegin(), faults.cend(), [&](const FaultSpec& fault) {
        return fault.kind == kind && fault.chunk == chunk;
    });
}

std::optional<int> firstFaultChunk(const std::vector<FaultSpec>& faults, FaultKind kind) {
    std::optional<int> first;
    for (const FaultSpec& fault : faults) {
        if (fault.kind == kind && (!first || fault.chunk < *first)) {
            first = fault.chunk;
        }
    }
    return first;
}

QString faultOutsideSession(const QStringList& faults, qint64 chunks) {
    for (const QString& text : faults) {
        QString problem;
        const std::optional<FaultSpec> fault = FaultSpec::parse(text, &problem);
        if (fault && fault->chunk >= chunks) {
            return QStringLiteral("The fault %1 never fires in a %2-chunk session: give it a "
                                  "chunk from 0 to %3, or run more chunks.")
                .arg(text)
                .arg(chunks)
                .arg(chunks - 1);
        }
    }
    return {};
}

} // namespace lbm::sim
