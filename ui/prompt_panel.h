#pragma once
// Prompt transitions: the prompt box with its transition length (default 3 chunks), Send
// (Ctrl+Return), presets, "send after chunk N" scheduling, and the history in which each
// entry moves through scheduled -> sent -> queued -> started at chunk g -> completed at
// chunk g', or ends superseded by a newer one at chunk g, unanswered, never applied, or with
// its error, as the session's event timeline reports it.

#include "app/session/interaction_timeline.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>

class QComboBox;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;
class QTreeWidgetItem;
class QLabel;

namespace lbm::ui {

class PromptPanel : public QWidget {
    Q_OBJECT
public:
    explicit PromptPanel(QWidget* parent = nullptr);

    void setPresets(const QStringList& presets);
    QStringList presets() const;
    void setPrompt(const QString& prompt);
    QString prompt() const;
    void setTransitionChunks(int chunks);
    int transitionChunks() const;
    // "send after chunk N": the engine sends it right after that chunk lands; nullopt: now.
    void setSendAfterChunk(std::optional<qint64> chunk);
    // Sending needs a streaming session.
    void setSessionActive(bool active);
    void clearHistory();

    // A scheduled entry waiting for its chunk; key is what updateInteraction will name it
    // once sent (its event id).
    void addScheduled(const QString& key, const QString& prompt, int transition_chunks,
                      qint64 after_chunk);
    void removeScheduled(const QString& key);
    // Creates or updates the history row of an interaction.
    void updateInteraction(const lbm::session::InteractionRecord& record);
    // Every row at once: one event can settle others (a started transition supersedes older
    // ones, the session's end settles what is still open).
    void updateTimeline(const lbm::session::InteractionTimeline& timeline);
    // The text of the history's state column for an event id (tests, the HUD).
    QString stateText(const QString& event_id) const;
    int historyCount() const;

    // Validation: empty when the current input can be sent, else the reason.
    QString problem() const;

    // Sends the current prompt (what Ctrl+Return and the button do).
    void send();

signals:
    // after_chunk: send right after this chunk lands; nullopt: now.
    void sendRequested(const QString& prompt, int transition_chunks,
                       std::optional<qint64> after_chunk);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updateSendState();
    QTreeWidgetItem* itemFor(const QString& key);
    // The empty history says what it will hold and how to fill it.
    void updateHistoryPlaceholder();

    QPlainTextEdit* m_prompt = nullptr;
    QSpinBox* m_transition = nullptr;
    QSpinBox* m_after_chunk = nullptr;
    QComboBox* m_presets = nullptr;
    QPushButton* m_send = nullptr;
    QPushButton* m_save_preset = nullptr;
    QLabel* m_problem = nullptr;
    QTreeWidget* m_history = nullptr;
    QLabel* m_history_placeholder = nullptr; // over the history's viewport while it is empty
    QHash<QString, QTreeWidgetItem*> m_items;
    bool m_active = false;
};

} // namespace lbm::ui
