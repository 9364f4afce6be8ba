#include "ui/session_form.h"

#include "app/engine/first_frame.h"
#include "app/protocol/endpoint_url.h"
#include "app/protocol/session_start_message.h"
#include "app/report/atomic_file.h"
#include "app/report/workload_json.h"
#include "metrics/geometry.h"
#include "metrics/metric_error.h"
#include "metrics/session_metrics.h"
#include "resources/bundled_resources.h"
#include "ui/duration_text.h"
#include "ui/status_colors.h"
#include "ui/unbroken_text.h"
#include "ui/wheel_guard.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include <stdexcept>

namespace lbm::ui {

QString SessionForm::steerCameraChoice() {
    return tr("steer with keys (no script)");
}

SessionForm::SessionForm(QWidget* parent)
    : QWidget(parent) {
    auto* form = new QFormLayout();
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // A narrow dock puts the label above its field instead of cutting the field off.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setLabelAlignment(Qt::AlignRight);
    form->setHorizontalSpacing(10);
    form->setVerticalSpacing(5);
    addEndpointRows(form);
    addRolloutRows(form);
    addMeasuringRows(form);
    addTimeoutRows(form);
    nameRememberedFields();

    m_problem_label = new QLabel(this);
    m_problem_label->setWordWrap(true);
    m_problem_label->setTextFormat(Qt::PlainText);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addLayout(form);
    layout->addWidget(m_problem_label);
    layout->addStretch(1);
    guardWheelUntilFocused(this);

    connectChanges();
    updatePreview();
    updateDerived();
}

bool SessionForm::useSimulator() const {
    return m_endpoint->currentIndex() == 0;
}
void SessionForm::setUseSimulator(bool simulator) {
    m_endpoint->setCurrentIndex(simulator ? 0 : 1);
}
QStringList SessionForm::simulatorFaults() const {
    return m_faults->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

void SessionForm::setSimulatorFaults(const QStringList& faults) {
    m_faults->setText(faults.join(QLatin1Char(' ')));
}

QString SessionForm::simulatorProfile() const {
    return m_profile->currentText().trimmed();
}
void SessionForm::setSimulatorProfile(const QString& profile) {
    m_profile->setCurrentText(profile);
}
QString SessionForm::serverUrlText() const {
    return m_url->text().trimmed();
}
void SessionForm::setServerUrlText(const QString& url) {
    m_url->setText(url);
}

bool SessionForm::skipCertificateCheck() const {
    return m_insecure->isChecked();
}

void SessionForm::setSkipCertificateCheck(bool skip) {
    m_insecure->setChecked(skip);
}

QUrl SessionForm::serverUrl() const {
    return QUrl(lbm::protocol::realtimeVideoUrl(serverUrlText()), QUrl::StrictMode);
}

QString SessionForm::cameraChoice() const {
    return m_camera->currentText();
}

bool SessionForm::scriptedFromFile() const {
    return m_loaded && m_camera->currentText().startsWith(tr("script from "));
}

QString SessionForm::model() const {
    // One line: a newline typed or pasted into the box is not part of an id.
    return m_model->toPlainText().simplified();
}
QString SessionForm::prompt() const {
    return m_prompt->toPlainText();
}
void SessionForm::setPrompt(const QString& prompt) {
    m_prompt->setPlainText(prompt);
}
void SessionForm::setImagePath(const QString& path) {
    m_image->setText(path);
}
void SessionForm::setChunks(int chunks) {
    m_chunks->setValue(chunks);
}
void SessionForm::setTargetFps(double fps) {
    m_target_fps->setValue(fps);
}
void SessionForm::setCameraChoice(const QString& choice) {
    m_camera->setCurrentText(choice);
}
void SessionForm::setStartBufferChunks(int chunks) {
    m_start_buffer->setValue(chunks);
}
void SessionForm::setWarmupChunks(int chunks) {
    m_warmup->setValue(chunks);
}
void SessionForm::setSloMs(std::optional<double> slo_ms) {
    m_slo->setValue(slo_ms.value_or(0.0)); // 0 reads "auto"
}
QString SessionForm::imagePath() const {
    return m_image->text().trimmed();
}
int SessionForm::chunks() const {
    return m_chunks->value();
}
double SessionForm::targetFps() const {
    return m_target_fps->value();
}
int SessionForm::startBufferChunks() const {
    return m_start_buffer->value();
}
int SessionForm::warmupChunks() const {
    return m_warmup->value();
}

std::optional<double> SessionForm::sloMs() const {
    if (m_slo->value() <= 0.0) {
        return std::nullopt;
    }
    return m_slo->value();
}

double SessionForm::firstChunkTimeoutS() const {
    return m_first_chunk_timeout->value();
}

double SessionForm::chunkTimeoutS() const {
    return m_chunk_timeout->value();
}

void SessionForm::setChunkTimeouts(double first_chunk_s, double chunk_s) {
    m_first_chunk_timeout->setValue(first_chunk_s);
    m_chunk_timeout->setValue(chunk_s);
}

double SessionForm::deadlineMs() const {
    // A form not yet valid (no fps and no SLO) has no deadline to show.
    return sloMs() || targetFps() > 0 ? lbm::chunkDeadlineMs(sloMs(), targetFps()) : 0.0;
}

bool SessionForm::steeringEnabled() const {
    return m_camera->currentText() == steerCameraChoice();
}

QString SessionForm::imageReference() const {
    if (imagePath().isEmpty()) {
        return lbm::bundledFirstFrameDataUrl();
    }
    // bench's checks (an image Qt can read, at most 4096x4096), so the form marks what the
    // server would refuse before Start.
    return lbm::engine::resolveFirstFrame(imagePath());
}

lbm::Workload SessionForm::workload() const {
    const std::string prompt_text = prompt().toStdString();
    std::optional<std::string> negative;
    if (!m_negative->text().isEmpty()) {
        negative = m_negative->text().toStdString();
    }
    lbm::Workload workload;
    const QString camera = m_camera->currentText();
    if (m_loaded && camera == tr("script from %1").arg(QFileInfo(m_workload_file).fileName())) {
        workload = *m_loaded;
        workload.prompt = prompt_text;
        workload.negative_prompt = negative;
        workload.image_reference = imageReference().toStdString();
    } else {
        const std::string pattern = steeringEnabled() ? std::string("hold") : camera.toStdString();
        workload.prompt = prompt_text;
        workload.image_reference = imageReference().toStdString();
        workload.camera_script = lbm::buildCameraScript(chunks(), pattern);
        workload.negative_prompt = negative;
        if (m_loaded) {
            workload.prompt_updates = m_loaded->prompt_updates;
        }
    }
    workload.fps = m_mux_fps->value();
    workload.seed = m_seed->value();
    workload.flow_shift = m_flow_shift->value();
    if (steeringEnabled()) {
        // No script: the server then holds still until the first camera interaction.
        workload.extra_params_json = "{\"camera_action_script\":null}";
    }
    workload.validate();
    return workload;
}

QString SessionForm::validate() {
    clearMarks();
    m_problem.clear();
    if (useSimulator()) {
        if (simulatorProfile().isEmpty()) {
            markInvalid(m_profile, tr("Choose a simulator timing profile."));
        }
    } else {
        const QUrl url = serverUrl();
        const QString scheme = url.scheme();
        if (serverUrlText().isEmpty() || !url.isValid() || url.host().isEmpty() ||
            (scheme != QLatin1String("ws") && scheme != QLatin1String("wss"))) {
            markInvalid(m_url, tr("Enter the server as http://HOST:PORT (or ws://, https://, "
                                  "wss://)."));
        }
    }
    if (m_problem.isEmpty() && targetFps() <= 0) {
        markInvalid(m_target_fps, tr("--target-fps must be positive."));
    }
    if (m_problem.isEmpty() && startBufferChunks() < 1) {
        markInvalid(m_start_buffer, tr("--playback-buffer-chunks must be at least 1."));
    }
    if (m_problem.isEmpty() && warmupChunks() < 0) {
        markInvalid(m_warmup, tr("--warmup-chunks must be non-negative."));
    }
    if (m_problem.isEmpty()) {
        try {
            (void)workload();
        } catch (const std::exception& error) {
            const QString reason = QString::fromUtf8(error.what());
            QWidget* field = m_prompt;
            if (reason.contains(QLatin1String("image")) ||
                reason.contains(QLatin1String("first frame"))) {
                field = m_image;
            } else if (reason.contains(QLatin1String("negative"))) {
                field = m_negative;
            } else if (reason.contains(QLatin1String("fps"))) {
                field = m_mux_fps;
            } else if (reason.contains(QLatin1String("flow_shift"))) {
                field = m_flow_shift;
            } else if (reason.contains(QLatin1String("seed"))) {
                field = m_seed;
            } else if (reason.contains(QLatin1String("camera")) ||
                       reason.contains(QLatin1String("chunk"))) {
                field = m_camera;
            }
            markInvalid(field, reason);
        }
    }
    m_problem_label->setText(m_problem);
    m_problem_label->setVisible(!m_problem.isEmpty());
    return m_problem;
}

void SessionForm::setEditable(bool editable) {
    for (QWidget* child : findChildren<QWidget*>()) {
        if (child != m_preview && child != m_problem_label) {
            child->setEnabled(editable);
        }
    }
}

void SessionForm::updateDerived() {
    const bool simulator = useSimulator();
    m_profile->setEnabled(simulator);
    m_faults->setEnabled(simulator);
    m_url->setEnabled(!simulator);
    m_insecure->setEnabled(!simulator);
    const bool from_script = m_camera->currentText().startsWith(tr("script from "));
    m_chunks->setEnabled(!from_script);
    const auto frames = lbm::numFramesForChunks(std::max(1, chunks()));
    const double fps = targetFps() > 0 ? targetFps() : m_mux_fps->value();
    // The deadline written as the chart's line and the counters write it, kept on one line
    // with its word and unit.
    m_geometry->setText(tr("num_frames %1 · %2 s of video at %3 fps · %4")
                            .arg(frames)
                            .arg(static_cast<double>(frames) / fps, 0, 'f', 2)
                            .arg(fps, 0, 'g', 4)
                            .arg(unbrokenText(tr("deadline %1").arg(durationText(deadlineMs())))));
    QPalette pal = m_geometry->palette();
    pal.setColor(QPalette::WindowText, mutedColor(palette()));
    m_geometry->setPalette(pal);
    validate();
}

void SessionForm::updatePreview() {
    QImage image;
    if (imagePath().isEmpty()) {
        image.loadFromData(lbm::bundledFirstFramePng(), "PNG");
    } else {
        QImageReader reader(imagePath());
        image = reader.read();
    }
    if (image.isNull()) {
        m_preview->setPixmap({});
        m_preview->setText(tr("cannot read image"));
        return;
    }
    m_preview->setPixmap(QPixmap::fromImage(
        image.scaled(m_preview->size(), Qt::KeepAspectRatio, Qt::SmoothTransformation)));
    m_preview->setToolTip(tr("%1 × %2 px").arg(image.width()).arg(image.height()));
}

void SessionForm::markInvalid(QWidget* field, const QString& reason) {
    if (m_problem.isEmpty()) {
        m_problem = reason;
    }
    field->setProperty("lbmInvalid", true);
    field->setToolTip(reason);
    field->setStyleSheet(QStringLiteral("border: 1px solid %1;").arg(lateColor(palette()).name()));
    QPalette pal = m_problem_label->palette();
    pal.setColor(QPalette::WindowText, lateColor(palette()));
    m_problem_label->setPalette(pal);
}

void SessionForm::clearMarks() {
    for (QWidget* child : findChildren<QWidget*>()) {
        if (child->property("lbmInvalid").toBool()) {
            child->setProperty("lbmInvalid", false);
            child->setStyleSheet(QString());
        }
    }
}

} // namespace lbm::ui
