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
#include "ui/status_colors.h"
#include "ui/wheel_guard.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <stdexcept>
#include <type_traits>

namespace lbm::ui {

namespace {

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

const char* const kProfiles[] = {"fast", "h200-sp4", "h200-stock", "single-gpu", "edge"};

// Fields whose text is long (ids, URLs, paths, sentences) get the dock's full width under
// their label, so a narrow dock shows the value instead of eliding it.
template <typename Field>
void addWideRow(QFormLayout* form, const QString& label, Field* field) {
    auto* caption = new QLabel(label);
    if constexpr (std::is_base_of_v<QWidget, Field>) {
        caption->setBuddy(field);
    }
    form->addRow(caption);
    form->addRow(field);
}

} // namespace

QString SessionForm::steerCameraChoice() {
    return tr("steer with keys (no script)");
}

SessionForm::SessionForm(QWidget* parent)
    : QWidget(parent) {
    m_endpoint = new QComboBox(this);
    m_endpoint->addItem(tr("Built-in simulator"));
    m_endpoint->addItem(tr("Server URL"));
    m_endpoint->setToolTip(tr("The in-process LingBot-World simulator, or a real server"));
    m_profile = new QComboBox(this);
    for (const char* profile : kProfiles) {
        m_profile->addItem(QString::fromLatin1(profile));
    }
    m_profile->setEditable(true);
    m_profile->setToolTip(tr("Simulator timing profile (fast, h200-sp4, h200-stock, "
                             "single-gpu, edge, or replay:FILE.json)"));
    m_url = new QLineEdit(this);
    m_url->setPlaceholderText(QStringLiteral("http://gpu-host:8000"));
    m_url->setToolTip(tr("http(s):// or ws(s)://; /v1/realtime/video is appended when missing"));
    m_insecure = new QCheckBox(tr("skip check (--insecure)"), this);
    m_insecure->setToolTip(tr("For https:// or wss:// servers with a self-signed or private "
                              "certificate: the connection is encrypted but not verified."));
    m_model = new QPlainTextEdit(fromStd(std::string(lbm::kDefaultModel)), this);
    m_model->setTabChangesFocus(true);
    m_model->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_model->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_model->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Two lines: the whole id in a 290 px column.
    // (+4: the editor lays its lines out a little taller than the font's line spacing.)
    m_model->setFixedHeight(
        m_model->fontMetrics().lineSpacing() * 2 + 4 +
        2 * (m_model->frameWidth() + static_cast<int>(m_model->document()->documentMargin())));

    m_prompt = new QPlainTextEdit(fromStd(std::string(lbm::kDefaultPrompt)), this);
    m_prompt->setTabChangesFocus(true);
    m_prompt->setMaximumHeight(56);
    m_negative = new QLineEdit(this);
    m_negative->setPlaceholderText(tr("none"));

    m_image = new QLineEdit(this);
    m_image->setPlaceholderText(tr("bundled first frame (832×480)"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("First frame"), QFileInfo(m_image->text()).absolutePath(),
            tr("Images (*.png *.jpg *.jpeg *.webp *.bmp)"));
        if (!path.isEmpty()) {
            m_image->setText(path);
        }
    });
    m_preview = new QLabel(this);
    m_preview->setFixedSize(160, 92);
    m_preview->setAlignment(Qt::AlignCenter);
    m_preview->setFrameShape(QFrame::StyledPanel);

    m_chunks = new QSpinBox(this);
    m_chunks->setRange(1, 100000);
    m_chunks->setValue(16);
    m_chunks->setToolTip(tr("AR blocks (chunks) to generate"));
    m_geometry = new QLabel(this);
    m_geometry->setWordWrap(true);
    m_mux_fps = new QSpinBox(this);
    m_mux_fps->setRange(1, 240);
    m_mux_fps->setValue(lbm::kDefaultFps);
    m_mux_fps->setSuffix(tr(" fps"));
    m_mux_fps->setToolTip(tr("The MP4's fps label sent to the server"));
    m_target_fps = new QDoubleSpinBox(this);
    m_target_fps->setRange(0.0, 240.0);
    m_target_fps->setDecimals(2);
    m_target_fps->setValue(lbm::kDefaultFps);
    m_target_fps->setSuffix(tr(" fps"));
    m_target_fps->setToolTip(tr("The rate the player shows frames at: the basis of RTF, the "
                                "deadline and the playback simulation"));
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, 2147483647);
    m_seed->setValue(lbm::kDefaultSeed);
    m_flow_shift = new QDoubleSpinBox(this);
    m_flow_shift->setRange(-100.0, 100.0);
    m_flow_shift->setDecimals(2);
    m_flow_shift->setValue(lbm::kDefaultFlowShift);
    m_camera = new QComboBox(this);
    for (const auto& pattern : lbm::cameraPatterns()) {
        m_camera->addItem(fromStd(pattern));
    }
    m_camera->addItem(steerCameraChoice());
    // Out of the box the camera is steered with the keys: no script for the server to refuse
    // the steering for.
    m_camera->setCurrentIndex(m_camera->count() - 1);
    m_camera->setToolTip(tr("A generated camera_action_script, or none so that W A S D I J "
                            "K L steer the camera live"));

    m_start_buffer = new QSpinBox(this);
    m_start_buffer->setRange(0, 1000);
    m_start_buffer->setValue(1);
    m_start_buffer->setSuffix(tr(" chunks"));
    m_start_buffer->setToolTip(tr("Chunks buffered before playback starts"));
    m_warmup = new QSpinBox(this);
    m_warmup->setRange(-1, 100000);
    m_warmup->setValue(lbm::kDefaultWarmupChunks);
    m_warmup->setSuffix(tr(" chunks"));
    m_warmup->setToolTip(tr("Chunks excluded from the steady statistics"));
    m_slo = new QDoubleSpinBox(this);
    m_slo->setRange(0.0, 600000.0);
    m_slo->setDecimals(1);
    m_slo->setSuffix(tr(" ms"));
    m_slo->setSpecialValueText(tr("auto"));
    m_slo->setToolTip(tr("Steady chunk deadline; auto is 12 frames at the target fps"));

    m_first_chunk_timeout = new QDoubleSpinBox(this);
    m_first_chunk_timeout->setRange(1.0, 86400.0);
    m_first_chunk_timeout->setDecimals(0);
    m_first_chunk_timeout->setValue(900.0);
    m_first_chunk_timeout->setSuffix(tr(" s"));
    m_first_chunk_timeout->setToolTip(tr("How long to wait for the first chunk (a compiled deploy "
                                         "records CUDA graphs first); --first-chunk-timeout"));
    m_chunk_timeout = new QDoubleSpinBox(this);
    m_chunk_timeout->setRange(1.0, 86400.0);
    m_chunk_timeout->setDecimals(0);
    m_chunk_timeout->setValue(300.0);
    m_chunk_timeout->setSuffix(tr(" s"));
    m_chunk_timeout->setToolTip(tr("How long the stream may go silent between chunks before the "
                                   "session ends; --chunk-timeout"));

    m_problem_label = new QLabel(this);
    m_problem_label->setWordWrap(true);
    // The fields whose values are remembered (saveSettings), by these names.
    const std::pair<QWidget*, const char*> named[] = {
        {m_endpoint, "endpoint"},
        {m_profile, "profile"},
        {m_url, "url"},
        {m_model, "model"},
        {m_prompt, "prompt"},
        {m_negative, "negative_prompt"},
        {m_image, "image"},
        {m_chunks, "chunks"},
        {m_mux_fps, "mux_fps"},
        {m_target_fps, "target_fps"},
        {m_seed, "seed"},
        {m_flow_shift, "flow_shift"},
        {m_camera, "camera"},
        {m_start_buffer, "start_buffer"},
        {m_warmup, "warmup"},
        {m_slo, "slo_ms"},
        {m_first_chunk_timeout, "first_chunk_timeout_s"},
        {m_chunk_timeout, "chunk_timeout_s"}};
    for (const auto& [field, name] : named) {
        field->setObjectName(QStringLiteral("form_") + QLatin1String(name));
    }
    m_problem_label->setTextFormat(Qt::PlainText);

    // Combo boxes as narrow as their shortest sensible text: their long entries (a workload's
    // "script from FILE") elide in the box and show in full in the list.
    for (QComboBox* combo : {m_endpoint, m_profile, m_camera}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(8);
    }
    m_faults = new QLineEdit(this);
    m_faults->setPlaceholderText(tr("none, or e.g. stall@5 seam@6"));
    m_faults->setToolTip(tr("Faults the built-in simulator injects (simulate --fault): stall, "
                            "error, disconnect, garbage, orphan-binary, truncate, slow-start, "
                            "seam, freeze, blur, tint, each @CHUNK; separate them with spaces"));
    m_faults->setObjectName(QStringLiteral("form_simulator_faults"));

    auto* form = new QFormLayout();
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // A narrow dock puts the label above its field instead of cutting the field off.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setLabelAlignment(Qt::AlignRight);
    form->setHorizontalSpacing(10);
    form->setVerticalSpacing(5);
    form->addRow(tr("Endpoint:"), m_endpoint);
    form->addRow(tr("Profile:"), m_profile);
    addWideRow(form, tr("Faults:"), m_faults);
    addWideRow(form, tr("URL:"), m_url);
    form->addRow(tr("Certificate:"), m_insecure);
    addWideRow(form, tr("Model:"), m_model);
    addWideRow(form, tr("Prompt:"), m_prompt);
    addWideRow(form, tr("Negative prompt:"), m_negative);
    auto* image_row = new QHBoxLayout();
    image_row->addWidget(m_image, 1);
    image_row->addWidget(browse);
    addWideRow(form, tr("First frame:"), image_row);
    form->addRow(QString(), m_preview);
    form->addRow(tr("Chunks:"), m_chunks);
    form->addRow(QString(), m_geometry);
    form->addRow(tr("Mux fps:"), m_mux_fps);
    form->addRow(tr("Target fps:"), m_target_fps);
    form->addRow(tr("Seed:"), m_seed);
    form->addRow(tr("Flow shift:"), m_flow_shift);
    addWideRow(form, tr("Camera:"), m_camera);
    form->addRow(tr("Start buffer:"), m_start_buffer);
    form->addRow(tr("Warmup:"), m_warmup);
    form->addRow(tr("Chunk SLO:"), m_slo);
    form->addRow(tr("First-chunk timeout:"), m_first_chunk_timeout);
    form->addRow(tr("Chunk timeout:"), m_chunk_timeout);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addLayout(form);
    layout->addWidget(m_problem_label);
    layout->addStretch(1);
    guardWheelUntilFocused(this);

    const auto on_change = [this] {
        updateDerived();
        emit changed();
    };
    connect(m_endpoint, &QComboBox::currentIndexChanged, this, on_change);
    connect(m_profile, &QComboBox::currentTextChanged, this, on_change);
    connect(m_url, &QLineEdit::textChanged, this, on_change);
    connect(m_prompt, &QPlainTextEdit::textChanged, this, on_change);
    connect(m_chunks, &QSpinBox::valueChanged, this, on_change);
    connect(m_mux_fps, &QSpinBox::valueChanged, this, on_change);
    connect(m_target_fps, &QDoubleSpinBox::valueChanged, this, on_change);
    connect(m_camera, &QComboBox::currentIndexChanged, this, on_change);
    connect(m_start_buffer, &QSpinBox::valueChanged, this, on_change);
    connect(m_warmup, &QSpinBox::valueChanged, this, on_change);
    connect(m_slo, &QDoubleSpinBox::valueChanged, this, on_change);
    connect(m_image, &QLineEdit::textChanged, this, [this, on_change] {
        updatePreview();
        on_change();
    });
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
    m_geometry->setText(tr("num_frames %1 · %2 s of video at %3 fps · deadline %4 ms")
                            .arg(frames)
                            .arg(static_cast<double>(frames) / fps, 0, 'f', 2)
                            .arg(fps, 0, 'g', 4)
                            .arg(deadlineMs(), 0, 'f', 1));
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
