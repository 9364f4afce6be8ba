// SessionForm::saveSettings / loadSettings: every named field's value under "form/", kept in a
// file of their own so the form's layout code stays readable.

#include "ui/session_form.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSpinBox>

namespace lbm::ui {
namespace {

const QString kPrefix = QStringLiteral("form_");

QString keyOf(const QWidget* field) {
    return QStringLiteral("form/") + field->objectName().mid(kPrefix.size());
}

} // namespace

void SessionForm::saveSettings(QSettings& settings) const {
    for (const QWidget* field : findChildren<QWidget*>()) {
        if (!field->objectName().startsWith(kPrefix)) {
            continue;
        }
        const QString key = keyOf(field);
        if (const auto* combo = qobject_cast<const QComboBox*>(field)) {
            settings.setValue(key, combo->currentText());
        } else if (const auto* spin = qobject_cast<const QSpinBox*>(field)) {
            settings.setValue(key, spin->value());
        } else if (const auto* real = qobject_cast<const QDoubleSpinBox*>(field)) {
            settings.setValue(key, real->value());
        } else if (const auto* line = qobject_cast<const QLineEdit*>(field)) {
            settings.setValue(key, line->text());
        } else if (const auto* text = qobject_cast<const QPlainTextEdit*>(field)) {
            settings.setValue(key, text->toPlainText());
        }
    }
}

void SessionForm::loadSettings(const QSettings& settings) {
    for (QWidget* field : findChildren<QWidget*>()) {
        const QString key = keyOf(field);
        if (!field->objectName().startsWith(kPrefix) || !settings.contains(key)) {
            continue;
        }
        const QVariant value = settings.value(key);
        if (auto* combo = qobject_cast<QComboBox*>(field)) {
            // A choice that no longer exists (a workload file's script) is left as it is.
            if (combo->isEditable() || combo->findText(value.toString()) >= 0) {
                combo->setCurrentText(value.toString());
            }
        } else if (auto* spin = qobject_cast<QSpinBox*>(field)) {
            spin->setValue(value.toInt());
        } else if (auto* real = qobject_cast<QDoubleSpinBox*>(field)) {
            real->setValue(value.toDouble());
        } else if (auto* line = qobject_cast<QLineEdit*>(field)) {
            line->setText(value.toString());
        } else if (auto* text = qobject_cast<QPlainTextEdit*>(field)) {
            text->setPlainText(value.toString());
        }
    }
}

} // namespace lbm::ui
