#pragma once
// A form in a scrolling dock: the mouse wheel scrolls the dock, and changes a spin box or a
// combo box only once the user has clicked or tabbed into it. Without this, scrolling past the
// form turns whatever field passes under the pointer (mux fps 16 -> 20, seed 42 -> 43).

class QWidget;

namespace lbm::ui {

// Guards every spin box and combo box under root that exists now; they take focus by click
// or Tab, not by the wheel.
void guardWheelUntilFocused(QWidget* root);

} // namespace lbm::ui
