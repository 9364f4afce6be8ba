#include "ui/prompt_interactions.h"

#include <QRegularExpression>

#include <algorithm>

namespace lbm::ui {

namespace {

std::optional<qint64> chunkField(const QJsonObject& object, const QString& key) {
    const QJsonValue value = object.value(key);
    return value.isDouble() ? std::optional<qint64>(static_cast<qint64>(value.toDouble()))
                            : std::nullopt;
}

} // namespace

std::optional<qint64> PromptInteraction::expectedChunk() const {
    if (!started_chunk || !transition_chunks) {
        return std::nullopt;
    }
    return *started_chunk + std::max(*transition_chunks, 1) - 1;
}

QString PromptInteraction::kText() const {
    return transition_chunks ? QStringLiteral("K=%1").arg(*transition_chunks)
                             : QStringLiteral("K=?");
}

std::vector<PromptInteraction> promptInteractionsFromJson(const QJsonArray& interactions,
                                                          const QJsonObject& workload) {
    // SessionClient's summary of an ad-hoc prompt.
    static const QRegularExpression adhoc(QStringLiteral("^'(.*)' over (\\d+) chunk\\(s\\)$"),
                                          QRegularExpression::DotMatchesEverythingOption);
    std::vector<PromptInteraction> prompts;
    for (const QJsonValue& value : interactions) {
        const QJsonObject object = value.toObject();
        const QString kind = object.value(QStringLiteral("kind")).toString();
        if (kind != QLatin1String("prompt") && kind != QLatin1String("scheduled-prompt")) {
            continue;
        }
        PromptInteraction prompt;
        prompt.event_id = object.value(QStringLiteral("event_id")).toString();
        prompt.prompt = object.value(QStringLiteral("summary")).toString();
        prompt.started_chunk = chunkField(object, QStringLiteral("started_chunk"));
        prompt.completed_chunk = chunkField(object, QStringLiteral("completed_chunk"));
        prompt.error = object.value(QStringLiteral("error")).toString();
        prompt.superseded_by = object.value(QStringLiteral("superseded_by")).toString();
        prompt.superseded_chunk = chunkField(object, QStringLiteral("superseded_chunk"));
        if (const auto match = adhoc.match(prompt.prompt); match.hasMatch()) {
            prompt.prompt = match.captured(1);
            prompt.transition_chunks = match.captured(2).toInt();
        }
        if (!prompt.transition_chunks && prompt.event_id.startsWith(QLatin1String("chunk-"))) {
            const int after_chunk = prompt.event_id.mid(6).toInt();
            for (const QJsonValue& update :
                 workload.value(QStringLiteral("prompt_updates")).toArray()) {
                const QJsonObject entry = update.toObject();
                if (entry.value(QStringLiteral("after_chunk")).toInt(-1) == after_chunk &&
                    entry.value(QStringLiteral("transition_chunks")).isDouble()) {
                    prompt.transition_chunks =
                        entry.value(QStringLiteral("transition_chunks")).toInt();
                }
            }
        }
        prompts.push_back(prompt);
    }
    for (PromptInteraction& prompt : prompts) {
        for (const PromptInteraction& newer : prompts) {
            if (!prompt.superseded_by.isEmpty() && newer.event_id == prompt.superseded_by) {
                prompt.superseded_by_prompt = newer.prompt;
            }
        }
    }
    return prompts;
}

} // namespace lbm::ui
