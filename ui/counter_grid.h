#pragma once
// The grid both counter panels are drawn in (the live counters, the visual quality counters):
// small-caps section titles, a name and a right-aligned monospace value a row, the value
// coloured by its level (green good, amber warning, red bad) and wrapping inside a narrow dock
// instead of widening it. Rows are keyed by the panel's own row enum (as int).

#include <QHash>
#include <QList>
#include <QString>

class QGridLayout;
class QLabel;
class QWidget;

namespace lbm::ui {

class CounterGrid {
public:
    enum class Level { Normal, Good, Warning, Bad };

    // Lays the grid out on owner (which owns every label).
    explicit CounterGrid(QWidget* owner);

    void addSection(const QString& title);
    // elide: a long unbreakable value (an id) shows shortened in the middle, whole in its
    // tooltip and in valueText().
    void addRow(int key, const QString& name, const QString& tooltip, bool elide = false);
    // After the last row: the rows stay at the top of a taller panel.
    void finish();
    void set(int key, const QString& text, Level level);
    // Every row to text, uncoloured (a new session).
    void setAll(const QString& text);
    QString valueText(int key) const;
    Level level(int key) const;
    // Colours again from the owner's palette (call on QEvent::PaletteChange).
    void restyle();

private:
    struct Entry {
        QLabel* name = nullptr;
        QLabel* value = nullptr;
        bool elides = false; // value is an ElidingLabel
        QString text;        // as set; the label shows it with its short parts kept whole
        Level level = Level::Normal;
    };
    void restyle(Entry& entry) const;

    QWidget* m_owner;
    QGridLayout* m_grid;
    int m_next_row = 0;
    QHash<int, Entry> m_entries;
    QList<QLabel*> m_sections;
};

} // namespace lbm::ui
