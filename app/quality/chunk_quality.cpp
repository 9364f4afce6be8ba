#include "app/quality/chunk_quality.h"

#include <array>
#include <mutex>
#include <utility>

namespace lbm::quality {
namespace {

const std::array<std::pair<QualityFlag, const char*>, 6> kFlagNames = {{
    {QualityFlag::Seam, "seam"},
    {QualityFlag::Freeze, "freeze"},
    {QualityFlag::Blur, "blur"},
    {QualityFlag::Tint, "tint"},
    {QualityFlag::Transition, "transition"},
    {QualityFlag::Action, "action"},
}};

const std::array<std::pair<TransitionVerdict, const char*>, 4> kVerdictNames = {{
    {TransitionVerdict::OnTime, "on-time"},
    {TransitionVerdict::Early, "early"},
    {TransitionVerdict::Late, "late"},
    {TransitionVerdict::Never, "never"},
}};

} // namespace

const std::vector<QualityFlag>& allQualityFlags() {
    static const std::vector<QualityFlag> flags = {QualityFlag::Seam,       QualityFlag::Freeze,
                                                   QualityFlag::Blur,       QualityFlag::Tint,
                                                   QualityFlag::Transition, QualityFlag::Action};
    return flags;
}

QString qualityFlagName(QualityFlag flag) {
    for (const auto& [known, name] : kFlagNames) {
        if (known == flag) {
            return QString::fromLatin1(name);
        }
    }
    return {};
}

std::optional<QualityFlag> qualityFlagFromName(const QString& name) {
    for (const auto& [flag, known] : kFlagNames) {
        if (name == QLatin1String(known)) {
            return flag;
        }
    }
    return std::nullopt;
}

QStringList qualityFlagNames(QualityFlags flags) {
    QStringList names;
    for (const auto& [flag, name] : kFlagNames) {
        if (flags.testFlag(flag)) {
            names.append(QString::fromLatin1(name));
        }
    }
    return names;
}

QString transitionVerdictName(TransitionVerdict verdict) {
    for (const auto& [known, name] : kVerdictNames) {
        if (known == verdict) {
            return QString::fromLatin1(name);
        }
    }
    return {};
}

std::optional<TransitionVerdict> transitionVerdictFromName(const QString& name) {
    for (const auto& [verdict, known] : kVerdictNames) {
        if (name == QLatin1String(known)) {
            return verdict;
        }
    }
    return std::nullopt;
}

void registerQualityMetaTypes() {
    static std::once_flag once;
    std::call_once(once, [] { qRegisterMetaType<lbm::quality::ChunkQuality>(); });
}

} // namespace lbm::quality
