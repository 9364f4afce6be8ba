#include "ui/wheel_guard.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QWidget>

namespace lbm::ui {
namespace {

class WheelGuard : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        auto* widget = qobject_cast<QWidget*>(watched);
        if (event->type() != QEvent::Wheel || widget == nullptr || widget->hasFocus() ||
            widget->parentWidget() == nullptr) {
            return QObject::eventFilter(watched, event);
        }
        // Not the field's: its parent, and up to the scroll area, which scrolls.
        QCoreApplication::sendEvent(widget->parentWidget(), event);
        return true;
    }
};

} // namespace

void guardWheelUntilFocused(QWidget* root) {
    auto* guard = new WheelGuard(root);
    const auto guard_one = [guard](QWidget* field) {
        field->setFocusPolicy(Qt::StrongFocus);
        field->installEventFilter(guard);
    };
    for (QAbstractSpinBox* spin : root->findChildren<QAbstractSpinBox*>()) {
        guard_one(spin);
    }
    for (QComboBox* combo : root->findChildren<QComboBox*>()) {
        guard_one(combo);
    }
}

} // namespace lbm::ui
