// The form's fields, built group by group in the order they are shown (where to, what to
// generate, how it is measured, how long to wait), named for the settings they are
// remembered under, and wired so that every edit re-derives and re-validates the form.

#include "metrics/constants.h"
#include "metrics/geometry.h"
#include "ui/count_text.h"
#include "ui/session_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>

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

// Combo boxes as narrow as their shortest sensible text: their long entries (a workload's
// "script from FILE") elide in the box and show in full in the list.
void narrowCombo(QComboBox* combo) {
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(8);
}

} // namespace

void SessionForm::addEndpointRows(QFormLayout* form) {
    m_endpoint = new QComboBox(this);
    m_endpoint->addItem(tr("Built-in simulator"));
    m_endpoint->addItem(tr("Server URL"));
    m_endpoint->setToolTip(tr("The in-process LingBot-World simulator, or a real server"));
    narrowCombo(m_endpoint);
    m_profile = new QComboBox(this);
    for (const char* profile : kProfiles) {
        m_profile->addItem(QString::fromLatin1(profile));
    }
    m_profile->setEditable(true);
    m_profile->setToolTip(tr("Simulator timing profile (fast, h200-sp4, h200-stock, "
                             "single-gpu, edge, or replay:FILE.json)"));
    narrowCombo(m_profile);
    m_faults = new QLineEdit(this);
    m_faults->setPlaceholderText(tr("none, or e.g. stall@5 seam@6"));
    m_faults->setToolTip(tr("Faults the built-in simulator injects (simulate --fault): stall, "
                            "error, disconnect, garbage, orphan-binary, truncate, slow-start, "
                            "seam, freeze, blur, tint, each @CHUNK; separate them with spaces"));
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

    form->addRow(tr("Endpoint:"), m_endpoint);
    form->addRow(tr("Profile:"), m_profile);
    addWideRow(form, tr("Faults:"), m_faults);
    addWideRow(form, tr("URL:"), m_url);
    form->addRow(tr("Certificate:"), m_insecure);
    addWideRow(form, tr("Model:"), m_model);
}

void SessionForm::addRolloutRows(QFormLayout* form) {
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
    narrowCombo(m_camera);

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
}

void SessionForm::addMeasuringRows(QFormLayout* form) {
    m_start_buffer = new QSpinBox(this);
    m_start_buffer->setRange(0, 1000);
    m_start_buffer->setValue(1);
    suffixCountsChunks(m_start_buffer);
    m_start_buffer->setToolTip(tr("Chunks buffered before playback starts"));
    m_warmup = new QSpinBox(this);
    m_warmup->setRange(-1, 100000);
    m_warmup->setValue(lbm::kDefaultWarmupChunks);
    suffixCountsChunks(m_warmup);
    m_warmup->setToolTip(tr("Chunks excluded from the steady statistics"));
    m_slo = new QDoubleSpinBox(this);
    m_slo->setRange(0.0, 600000.0);
    m_slo->setDecimals(1);
    m_slo->setSuffix(tr(" ms"));
    m_slo->setSpecialValueText(tr("auto"));
    m_slo->setToolTip(tr("Steady chunk deadline; auto is 12 frames at the target fps"));

    form->addRow(tr("Start buffer:"), m_start_buffer);
    form->addRow(tr("Warmup:"), m_warmup);
    form->addRow(tr("Chunk SLO:"), m_slo);
}

void SessionForm::addTimeoutRows(QFormLayout* form) {
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

    form->addRow(tr("First-chunk timeout:"), m_first_chunk_timeout);
    form->addRow(tr("Chunk timeout:"), m_chunk_timeout);
}

void SessionForm::nameRememberedFields() {
    // The fields whose values are remembered (saveSettings), by these names.
    const std::pair<QWidget*, const char*> named[] = {
        {m_endpoint, "endpoint"},
        {m_profile, "profile"},
        {m_faults, "simulator_faults"},
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
}

void SessionForm::connectChanges() {
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
}

} // namespace lbm::ui
