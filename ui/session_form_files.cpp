// The session form's persistence, kept apart from its layout code: saveSettings / loadSettings
// (every named field's value under "form/") and the benchmark's workload files.

#include "app/protocol/session_start_message.h"
#include "app/report/atomic_file.h"
#include "app/report/workload_json.h"
#include "ui/session_form.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSpinBox>

namespace lbm::ui {
namespace {

const QString kPrefix = QStringLiteral("form_");

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

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

void SessionForm::loadWorkloadFile(const QString& path) {
    lbm::Workload loaded = lbm::report::loadWorkloadFile(
        path, {}, [](const QString& image) { return lbm::report::resolveImageReference(image); });
    m_loaded = loaded;
    m_workload_file = path;
    m_prompt->setPlainText(fromStd(loaded.prompt));
    m_negative->setText(loaded.negative_prompt ? fromStd(*loaded.negative_prompt) : QString());
    m_chunks->setValue(static_cast<int>(loaded.numChunks()));
    m_mux_fps->setValue(loaded.fps);
    m_seed->setValue(static_cast<int>(loaded.seed));
    m_flow_shift->setValue(loaded.flow_shift);
    // Keep the image: the file's image is resolved into the loaded workload.
    const QJsonDocument document = [&] {
        QFile file(path);
        file.open(QIODevice::ReadOnly);
        return QJsonDocument::fromJson(file.readAll());
    }();
    const QString image = document.object().value(QStringLiteral("image")).toString();
    if (!image.isEmpty() && !image.startsWith(QLatin1String("data:")) &&
        !image.startsWith(QLatin1String("http"))) {
        const QFileInfo info(QFileInfo(path).absoluteDir(), image);
        m_image->setText(QFileInfo(image).isAbsolute() ? image : info.absoluteFilePath());
    }
    const QString script_choice = tr("script from %1").arg(QFileInfo(path).fileName());
    for (int i = m_camera->count() - 1; i >= 0; --i) {
        if (m_camera->itemText(i).startsWith(tr("script from "))) {
            m_camera->removeItem(i);
        }
    }
    if (document.object().contains(QStringLiteral("camera_action_script"))) {
        m_camera->addItem(script_choice);
        m_camera->setCurrentText(script_choice);
    } else {
        m_camera->setCurrentText(document.object()
                                     .value(QStringLiteral("camera_pattern"))
                                     .toString(QStringLiteral("forward")));
    }
    updateDerived();
    emit changed();
}

void SessionForm::saveWorkloadFile(const QString& path) const {
    const lbm::Workload current = workload();
    QJsonObject document;
    document.insert(QStringLiteral("prompt"), fromStd(current.prompt));
    document.insert(QStringLiteral("image"),
                    imagePath().isEmpty() ? fromStd(current.image_reference) : imagePath());
    if (m_camera->currentText().startsWith(tr("script from ")) || steeringEnabled()) {
        document.insert(QStringLiteral("camera_action_script"),
                        lbm::protocol::cameraScriptToJson(current.camera_script));
    } else {
        document.insert(QStringLiteral("num_chunks"), chunks());
        document.insert(QStringLiteral("camera_pattern"), m_camera->currentText());
    }
    document.insert(QStringLiteral("width"), current.width);
    document.insert(QStringLiteral("height"), current.height);
    document.insert(QStringLiteral("fps"), current.fps);
    document.insert(QStringLiteral("seed"), static_cast<qint64>(current.seed));
    document.insert(QStringLiteral("flow_shift"), current.flow_shift);
    if (current.negative_prompt) {
        document.insert(QStringLiteral("negative_prompt"), fromStd(*current.negative_prompt));
    }
    QJsonArray updates;
    for (const auto& update : current.prompt_updates) {
        updates.append(
            QJsonObject{{QStringLiteral("after_chunk"), update.after_chunk},
                        {QStringLiteral("prompt"), fromStd(update.prompt)},
                        {QStringLiteral("transition_chunks"), update.transition_chunks}});
    }
    if (!updates.isEmpty()) {
        document.insert(QStringLiteral("prompt_updates"), updates);
    }
    const QJsonObject extra =
        QJsonDocument::fromJson(QByteArray::fromStdString(current.extra_params_json)).object();
    if (!extra.isEmpty()) {
        document.insert(QStringLiteral("extra_params"), extra);
    }
    // Throws ReportError (a std::runtime_error) naming the reason, the target untouched.
    lbm::report::writeFileAtomically(path, QJsonDocument(document).toJson(QJsonDocument::Indented));
}

} // namespace lbm::ui
