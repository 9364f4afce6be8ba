#include "ui/prompt_panel.h"

#include "app/protocol/client_messages.h"
#include "metrics/constants.h"
#include "ui/count_text.h"
#include "ui/status_colors.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace lbm::ui {

namespace {

enum Column { kColumnId, kColumnPrompt, kColumnState, kColumnStarted, kColumnCompleted };

QString chunkText(const std::optional<qint64>& chunk) {
    return chunk ? QString::number(*chunk) : QString();
}

} // namespace

PromptPanel::PromptPanel(QWidget* parent)
    : QWidget(parent) {
    m_prompt = new QPlainTextEdit(this);
    m_prompt->setPlaceholderText(tr("New prompt, e.g. \"A snowy street at dusk\""));
    m_prompt->setTabChangesFocus(true);
    m_prompt->setMaximumHeight(70);

    m_transition = new QSpinBox(this);
    m_transition->setRange(0, 64);
    m_transition->setValue(lbm::kDefaultTransitionChunks);
    m_transition->setPrefix(tr("over "));
    suffixCountsChunks(m_transition);
    m_transition->setToolTip(
        tr("transition_chunks: 0 switches hard in the first affected chunk; K blends over K "
           "chunks"));

    m_after_chunk = new QSpinBox(this);
    m_after_chunk->setRange(-1, 99999); // a day of chunks; wider would widen the panel
    m_after_chunk->setValue(-1);
    m_after_chunk->setSpecialValueText(tr("now"));
    m_after_chunk->setPrefix(tr("after chunk "));
    m_after_chunk->setToolTip(tr("Send right after this chunk lands (\"now\" sends at once)"));

    m_presets = new QComboBox(this);
    m_presets->setToolTip(tr("Presets: pick one to fill the prompt box"));
    connect(m_presets, &QComboBox::activated, this, [this](int index) {
        if (index > 0) {
            m_prompt->setPlainText(m_presets->itemText(index));
        }
    });
    m_save_preset = new QPushButton(tr("Save as preset"), this);
    connect(m_save_preset, &QPushButton::clicked, this, [this] {
        const QString text = prompt();
        if (!text.isEmpty() && m_presets->findText(text) < 0) {
            m_presets->addItem(text);
        }
    });

    m_send = new QPushButton(tr("Send"), this);
    m_send->setDefault(true);
    m_send->setToolTip(tr("Send the prompt transition (Ctrl+Return)"));
    connect(m_send, &QPushButton::clicked, this, &PromptPanel::send);
    // Ctrl+Return is the window's (Session > Send Prompt), so it works from the video too.

    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    QPalette pal = m_problem->palette();
    pal.setColor(QPalette::WindowText, lateColor(palette()));
    m_problem->setPalette(pal);

    m_history = new QTreeWidget(this);
    m_history->setRootIsDecorated(false);
    m_history->setHeaderLabels(
        {tr("Event id"), tr("Prompt"), tr("State"), tr("Started"), tr("Completed")});
    // Never sideways scrolling in a narrow dock: the prompt and its state share the width and
    // wrap onto a second line; the event id (in each row's tooltip) is hidden until asked for.
    m_history->header()->setSectionResizeMode(kColumnPrompt, QHeaderView::Stretch);
    m_history->header()->setSectionResizeMode(kColumnState, QHeaderView::Stretch);
    m_history->header()->setSectionResizeMode(kColumnStarted, QHeaderView::ResizeToContents);
    m_history->header()->setSectionResizeMode(kColumnCompleted, QHeaderView::ResizeToContents);
    m_history->header()->setStretchLastSection(false);
    m_history->header()->setMinimumSectionSize(40);
    m_history->setColumnHidden(kColumnId, true);
    m_history->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_history->setWordWrap(true);
    m_history->setUniformRowHeights(false);
    m_history->setMinimumWidth(120);
    m_history->setAlternatingRowColors(true);
    m_history_placeholder =
        new QLabel(tr("Each prompt you send is listed here with the chunks where its "
                      "transition started and completed. Type one above and press Send "
                      "(Ctrl+Return)."),
                   m_history->viewport());
    m_history_placeholder->setWordWrap(true);
    m_history_placeholder->setAlignment(Qt::AlignCenter);
    m_history_placeholder->setForegroundRole(QPalette::PlaceholderText);
    m_history->viewport()->installEventFilter(this);

    // Two short rows (Send beside the presets), so the panel fits a side column of a
    // 1280x720 window.
    auto* options = new QHBoxLayout();
    options->addWidget(m_transition, 1);
    options->addWidget(m_after_chunk, 1);

    m_presets->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_presets->setMinimumContentsLength(8);
    auto* preset_row = new QHBoxLayout();
    preset_row->addWidget(m_presets, 1);
    preset_row->addWidget(m_save_preset);
    preset_row->addWidget(m_send);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->setSpacing(5);
    layout->addWidget(m_prompt);
    layout->addLayout(options);
    layout->addLayout(preset_row);
    layout->addWidget(m_problem);
    layout->addWidget(m_history, 1);

    connect(m_prompt, &QPlainTextEdit::textChanged, this, &PromptPanel::updateSendState);
    connect(m_transition, &QSpinBox::valueChanged, this, &PromptPanel::updateSendState);
    setPresets({tr("A snowy street at dusk"), tr("The same scene in heavy rain at night"),
                tr("A sunny beach with palm trees"), tr("An autumn forest in golden light")});
    updateSendState();
}

void PromptPanel::setPresets(const QStringList& presets) {
    m_presets->clear();
    m_presets->addItem(tr("Presets…"));
    m_presets->addItems(presets);
}

QStringList PromptPanel::presets() const {
    QStringList list;
    for (int i = 1; i < m_presets->count(); ++i) {
        list << m_presets->itemText(i);
    }
    return list;
}

void PromptPanel::setPrompt(const QString& prompt) {
    m_prompt->setPlainText(prompt);
}

QString PromptPanel::prompt() const {
    return m_prompt->toPlainText().trimmed();
}

void PromptPanel::setTransitionChunks(int chunks) {
    m_transition->setValue(chunks);
}

void PromptPanel::setSendAfterChunk(std::optional<qint64> chunk) {
    m_after_chunk->setValue(chunk ? static_cast<int>(*chunk) : -1);
}

int PromptPanel::transitionChunks() const {
    return m_transition->value();
}

void PromptPanel::setSessionActive(bool active) {
    m_active = active;
    updateSendState();
}

void PromptPanel::clearHistory() {
    m_history->clear();
    m_items.clear();
    updateHistoryPlaceholder();
}

bool PromptPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_history->viewport() && event->type() == QEvent::Resize) {
        m_history_placeholder->setGeometry(m_history->viewport()->rect().adjusted(8, 4, -8, -4));
    }
    return QWidget::eventFilter(watched, event);
}

void PromptPanel::updateHistoryPlaceholder() {
    m_history_placeholder->setVisible(m_history->topLevelItemCount() == 0);
}

void PromptPanel::addScheduled(const QString& key, const QString& prompt, int transition_chunks,
                               qint64 after_chunk) {
    QTreeWidgetItem* item = itemFor(key);
    item->setText(kColumnPrompt, tr("%1  (K=%2)").arg(prompt).arg(transition_chunks));
    item->setText(kColumnState, tr("scheduled after chunk %1").arg(after_chunk));
}

void PromptPanel::removeScheduled(const QString& key) {
    if (QTreeWidgetItem* item = m_items.take(key)) {
        delete item;
    }
    updateHistoryPlaceholder();
}

void PromptPanel::updateInteraction(const lbm::session::InteractionRecord& record) {
    using lbm::session::InteractionKind;
    if (record.kind != InteractionKind::Prompt && record.kind != InteractionKind::ScheduledPrompt) {
        return;
    }
    QTreeWidgetItem* item = itemFor(record.event_id);
    item->setText(kColumnPrompt, record.summary);
    item->setToolTip(kColumnPrompt, tr("%1\nevent id %2").arg(record.summary, record.event_id));
    QString state;
    QColor color;
    switch (record.state()) {
    case lbm::session::InteractionRecord::State::Sent:
        state = tr("sent");
        break;
    case lbm::session::InteractionRecord::State::Queued:
        state = tr("queued");
        break;
    case lbm::session::InteractionRecord::State::Started:
        state = record.session_ended
                    ? tr("started at chunk %1, unfinished when the session ended")
                          .arg(chunkText(record.started_chunk))
                    : tr("started at chunk %1").arg(chunkText(record.started_chunk));
        color = nearLimitColor(palette());
        break;
    case lbm::session::InteractionRecord::State::Completed:
        state = tr("completed at chunk %1").arg(chunkText(record.completed_chunk));
        color = onTimeColor(palette());
        break;
    case lbm::session::InteractionRecord::State::Superseded:
        state = tr("superseded by %1 at chunk %2")
                    .arg(record.superseded_by, chunkText(record.superseded_chunk));
        break;
    case lbm::session::InteractionRecord::State::Unanswered:
        state = tr("unanswered: no reply by the end of the session");
        color = lateColor(palette());
        break;
    case lbm::session::InteractionRecord::State::NotApplied:
        state = tr("queued, never applied: the session ended first");
        color = nearLimitColor(palette());
        break;
    case lbm::session::InteractionRecord::State::Failed:
        state = tr("error: %1").arg(record.error);
        color = lateColor(palette());
        break;
    }
    item->setText(kColumnState, state);
    item->setToolTip(kColumnState, state);
    item->setForeground(kColumnState, color.isValid() ? QBrush(color) : QBrush());
    item->setText(kColumnStarted, chunkText(record.started_chunk));
    item->setText(kColumnCompleted, chunkText(record.completed_chunk));
}

void PromptPanel::updateTimeline(const lbm::session::InteractionTimeline& timeline) {
    for (const lbm::session::InteractionRecord& record : timeline.interactions()) {
        updateInteraction(record);
    }
}

QString PromptPanel::stateText(const QString& event_id) const {
    const auto it = m_items.constFind(event_id);
    return it == m_items.constEnd() ? QString() : (*it)->text(kColumnState);
}

int PromptPanel::historyCount() const {
    return m_history->topLevelItemCount();
}

QString PromptPanel::problem() const {
    if (!m_active) {
        return tr("Start a session to send prompt transitions.");
    }
    return lbm::protocol::promptInteractionProblem(prompt(), transitionChunks());
}

void PromptPanel::send() {
    const QString reason = problem();
    if (!reason.isEmpty()) {
        m_problem->setText(reason);
        return;
    }
    std::optional<qint64> after;
    if (m_after_chunk->value() >= 0) {
        after = m_after_chunk->value();
    }
    emit sendRequested(prompt(), transitionChunks(), after);
    m_after_chunk->setValue(-1);
}

void PromptPanel::updateSendState() {
    const QString reason = problem();
    m_send->setEnabled(reason.isEmpty());
    m_send->setToolTip(reason.isEmpty() ? tr("Send the prompt transition (Ctrl+Return)") : reason);
    // Only a typed prompt earns an inline complaint; an idle window is not an error.
    m_problem->setText(m_active && !m_prompt->toPlainText().isEmpty() ? reason : QString());
    m_problem->setVisible(!m_problem->text().isEmpty());
}

QTreeWidgetItem* PromptPanel::itemFor(const QString& key) {
    auto it = m_items.find(key);
    if (it != m_items.end()) {
        return *it;
    }
    auto* item = new QTreeWidgetItem(m_history);
    item->setText(kColumnId, key);
    m_items.insert(key, item);
    m_history->scrollToItem(item);
    updateHistoryPlaceholder();
    return item;
}

} // namespace lbm::ui
