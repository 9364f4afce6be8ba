#include "ui/counter_grid.h"

#include "ui/eliding_label.h"
#include "ui/status_colors.h"
#include "ui/unbroken_text.h"

#include <QFont>
#include <QFontDatabase>
#include <QGridLayout>
#include <QLabel>
#include <QWidget>

namespace lbm::ui {

namespace {

// The values' font: fixed-pitch, so a figure's digits stay put from one update to the next.
// DejaVu Sans Mono where the machine has it (every Debian does: fontconfig depends on it), the
// platform's fixed font elsewhere. The column was laid out with it; the generic "monospace"
// resolves to whatever was installed last that claims the name, and Noto Sans Mono (which
// ghostscript brings in) has a taller line: the counters then ran 49 px past a 1280x720
// window's column and needed a scroll bar.
QFont valueFont() {
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    const QString pinned = QStringLiteral("DejaVu Sans Mono");
    if (QFontDatabase::hasFamily(pinned)) {
        font.setFamilies({pinned});
    }
    return font;
}

// A value wraps between its " · " parts, never inside a short one, so "longest 0 ms" or
// "first at chunk 1" does not break before its number. A long part (a server's error text)
// keeps its spaces and wraps as words.
QString keepShortPartsWhole(const QString& text) {
    // 26 characters fit the counters column at 1280x720 ("1 + 1 in progress", "stalled 2.6 s
    // of 3.9 s" and "steady chunks 6–14" stay whole).
    constexpr qsizetype kShortPart = 26;
    const QString separator = QStringLiteral(" · ");
    QStringList parts = text.split(separator);
    for (QString& part : parts) {
        if (part.size() <= kShortPart) {
            part = unbrokenText(part);
        }
    }
    return parts.join(separator);
}

} // namespace

CounterGrid::CounterGrid(QWidget* owner)
    : m_owner(owner)
    , m_grid(new QGridLayout(owner)) {
    // Tight: at 1280x720 every row of both panels fits the column without scrolling.
    m_grid->setContentsMargins(10, 4, 10, 4);
    m_grid->setHorizontalSpacing(10);
    m_grid->setVerticalSpacing(1);
    m_grid->setColumnStretch(1, 1);
}

void CounterGrid::addSection(const QString& title) {
    auto* label = new QLabel(title.toUpper(), m_owner);
    QFont font = label->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 0.85);
    label->setFont(font);
    label->setContentsMargins(0, m_next_row == 0 ? 0 : 5, 0, 1);
    m_grid->addWidget(label, m_next_row++, 0, 1, 2);
    m_sections.append(label);
    restyle();
}

void CounterGrid::addRow(int key, const QString& name, const QString& tooltip, bool elide) {
    Entry entry;
    entry.name = new QLabel(name, m_owner);
    entry.name->setToolTip(tooltip);
    if (elide) {
        auto* label = new ElidingLabel(m_owner);
        label->setNote(tooltip);
        entry.value = label;
        entry.elides = true;
    } else {
        entry.value = new QLabel(m_owner);
        entry.value->setToolTip(tooltip);
        // Long values wrap inside the dock instead of widening it past the screen.
        entry.value->setWordWrap(true);
    }
    entry.value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Both at the top of the row, as QFormLayout sets a label beside a field: a value that
    // wraps to three lines then starts on its name's line, not one above it.
    entry.name->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    entry.value->setAlignment(Qt::AlignRight | Qt::AlignTop);
    entry.value->setMinimumWidth(60);
    entry.value->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    entry.value->setFont(valueFont());
    m_grid->addWidget(entry.name, m_next_row, 0);
    m_grid->addWidget(entry.value, m_next_row, 1);
    ++m_next_row;
    m_entries.insert(key, entry);
}

void CounterGrid::finish() {
    m_grid->setRowStretch(m_next_row, 1);
}

void CounterGrid::set(int key, const QString& text, Level level) {
    auto it = m_entries.find(key);
    if (it == m_entries.end()) {
        return;
    }
    if (it->elides) {
        static_cast<ElidingLabel*>(it->value)->setFullText(text);
    } else if (it->text != text) {
        it->text = text;
        it->value->setText(keepShortPartsWhole(text));
    }
    if (it->level != level) {
        it->level = level;
        restyle(*it);
    }
}

void CounterGrid::setAll(const QString& text) {
    for (auto it = m_entries.cbegin(); it != m_entries.cend(); ++it) {
        set(it.key(), text, Level::Normal);
    }
}

QString CounterGrid::valueText(int key) const {
    const auto it = m_entries.constFind(key);
    if (it == m_entries.constEnd()) {
        return QString();
    }
    return it->elides ? static_cast<const ElidingLabel*>(it->value)->fullText() : it->text;
}

CounterGrid::Level CounterGrid::level(int key) const {
    const auto it = m_entries.constFind(key);
    return it == m_entries.constEnd() ? Level::Normal : it->level;
}

void CounterGrid::restyle() {
    for (QLabel* section : std::as_const(m_sections)) {
        QPalette pal = section->palette();
        pal.setColor(QPalette::WindowText, mutedColor(m_owner->palette()));
        section->setPalette(pal);
    }
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
        restyle(*it);
    }
}

void CounterGrid::restyle(Entry& entry) const {
    const QPalette owner = m_owner->palette();
    QPalette pal = owner;
    switch (entry.level) {
    case Level::Normal:
        break;
    case Level::Good:
        pal.setColor(QPalette::WindowText, onTimeColor(owner));
        break;
    case Level::Warning:
        pal.setColor(QPalette::WindowText, nearLimitColor(owner));
        break;
    case Level::Bad:
        pal.setColor(QPalette::WindowText, lateColor(owner));
        break;
    }
    entry.value->setPalette(pal);
}

} // namespace lbm::ui
