#pragma once
// "1 chunk", "6 chunks": a count of chunks in words, as every surface writes it (the counters,
// the steering strip, the form's spin boxes). Qt's "%n chunk(s)" reads "chunk(s)" without a
// translation file, and a user should not have to see it.

#include <QCoreApplication>
#include <QSpinBox>
#include <QString>

namespace lbm::ui {

inline QString chunkCountText(qint64 count) {
    return count == 1 ? QCoreApplication::translate("lbm::ui", "1 chunk")
                      : QCoreApplication::translate("lbm::ui", "%1 chunks").arg(count);
}

// The spin box's suffix follows its value: "over 1 chunk", "over 3 chunks".
inline void suffixCountsChunks(QSpinBox* box) {
    const auto suffix = [box] {
        box->setSuffix(box->value() == 1 ? QCoreApplication::translate("lbm::ui", " chunk")
                                         : QCoreApplication::translate("lbm::ui", " chunks"));
    };
    suffix();
    QObject::connect(box, &QSpinBox::valueChanged, box, suffix);
}

} // namespace lbm::ui
