#pragma once
// The prompt interactions of a session as plain values, read from the interaction timeline the
// engine keeps and the session document stores (sessions[i].lingbot_monitor.interactions):
// which prompt, over how many chunks K, the chunk it started in and the chunk it completed in.
// What the filmstrip and the side-by-side titles show.

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <optional>
#include <vector>

namespace lbm::ui {

struct PromptInteraction {
    QString event_id;
    QString prompt;
    // K, the transition_chunks it was sent with; nullopt when neither the timeline nor the
    // workload says.
    std::optional<int> transition_chunks;
    std::optional<qint64> started_chunk;
    std::optional<qint64> completed_chunk;
    QString error; // why it failed, if it did
    // A newer prompt that started (in superseded_chunk) before this one completed: the chunks
    // from there on show the newer prompt, not this one.
    QString superseded_by;        // its event id
    QString superseded_by_prompt; // its text, when the newer prompt is among the interactions
    std::optional<qint64> superseded_chunk;

    // The chunk the look should reach the new prompt's by: started + max(K, 1) - 1.
    std::optional<qint64> expectedChunk() const;
    // "K=3", or "K=?" when unknown.
    QString kText() const;
};

// The prompt interactions (kinds "prompt" and "scheduled-prompt") of a timeline, in order.
// An ad-hoc prompt's text and K come from its summary ("'text' over K chunk(s)"); a scheduled
// one's text is its summary and its K comes from workload's prompt_updates (the document's
// "workload" block: after_chunk N is event id chunk-N).
std::vector<PromptInteraction> promptInteractionsFromJson(const QJsonArray& interactions,
                                                          const QJsonObject& workload = {});

} // namespace lbm::ui
