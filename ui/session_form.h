#pragma once
// The "new session" form: endpoint (the built-in simulator with a timing profile, or a
// server URL), the rollout (model, prompts, first frame with preview, chunks with the
// resulting num_frames and video length, mux fps, seed, flow shift, camera pattern or a
// workload file's script) and how it is judged (target fps, start buffer, warmup, SLO).
// Invalid values are marked in the form with the reason before anything is sent; the
// workload's own checks (lbm::Workload::validate) supply the wording.

#include "metrics/workload.h"

#include <QString>
#include <QUrl>
#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSettings;
class QSpinBox;

namespace lbm::ui {

class SessionForm : public QWidget {
    Q_OBJECT
public:
    // The camera choice meaning "no script: steer with the keys while it runs".
    static QString steerCameraChoice();

    explicit SessionForm(QWidget* parent = nullptr);

    // Endpoint.
    bool useSimulator() const;
    void setUseSimulator(bool simulator);
    QString simulatorProfile() const;
    // Faults for the built-in simulator ("stall@5", ...), as `simulate --fault` takes them.
    QStringList simulatorFaults() const;
    void setSimulatorFaults(const QStringList& faults);
    void setSimulatorProfile(const QString& profile);
    // The server URL as typed; serverUrl() normalises http(s):// to ws(s):// and appends
    // /v1/realtime/video (the benchmark's --base-url rule).
    QString serverUrlText() const;
    void setServerUrlText(const QString& url);
    QUrl serverUrl() const;
    // wss:// only: accept any certificate (bench's --insecure), for a server with a
    // self-signed or private certificate. Off by default and never saved.
    bool skipCertificateCheck() const;
    void setSkipCertificateCheck(bool skip);
    QString model() const;

    // The rollout as a validated Workload; throws lbm::MetricError / ReportError with the
    // reason (problem() reports the same without throwing).
    lbm::Workload workload() const;
    // True when the camera is steered with the keys (no camera_action_script sent).
    bool steeringEnabled() const;
    // The camera choice as shown: a pattern, steerCameraChoice() or "script from FILE".
    QString cameraChoice() const;
    // True when the rollout's camera script comes from the loaded workload file.
    bool scriptedFromFile() const;
    int chunks() const;
    double targetFps() const;
    int startBufferChunks() const;
    int warmupChunks() const;
    std::optional<double> sloMs() const;
    // The benchmark's --first-chunk-timeout and --chunk-timeout (900 s and 300 s): how long the
    // window waits in silence before it ends the session with a message.
    double firstChunkTimeoutS() const;
    double chunkTimeoutS() const;
    void setChunkTimeouts(double first_chunk_s, double chunk_s);
    // The deadline chunks are judged against: the SLO override or one steady chunk of video
    // at the target fps.
    double deadlineMs() const;
    QString imagePath() const; // empty: the bundled first frame
    QString workloadFile() const { return m_workload_file; }

    void setPrompt(const QString& prompt);
    QString prompt() const;
    void setImagePath(const QString& path);
    void setChunks(int chunks);
    void setTargetFps(double fps);
    // A camera pattern name, steerCameraChoice(), or a loaded file's script choice.
    void setCameraChoice(const QString& choice);
    void setStartBufferChunks(int chunks);
    void setWarmupChunks(int chunks);
    // nullopt: auto (one steady chunk of video at the target fps).
    void setSloMs(std::optional<double> slo_ms);

    // Empty when the form can start a session; otherwise the first reason, and the field
    // it concerns is marked.
    QString validate();
    QString lastProblem() const { return m_problem; }

    // Workload files (the seed's format through app/report). Throw with the reason.
    void loadWorkloadFile(const QString& path);
    void saveWorkloadFile(const QString& path) const;

    void setEditable(bool editable);

    // Every field's value, under the settings group "form/" (restored at the next start).
    void saveSettings(QSettings& settings) const;
    void loadSettings(const QSettings& settings);

signals:
    void changed();

private:
    // The constructor's steps (session_form_fields.cpp): each group's fields, made and added
    // to the form in the order they are shown; then their remembered names and the wiring.
    void addEndpointRows(QFormLayout* form);
    void addRolloutRows(QFormLayout* form);
    void addMeasuringRows(QFormLayout* form);
    // Gives a spin box of chunks the suffix its value takes ("1 chunk", "6 chunks").
    void addTimeoutRows(QFormLayout* form);
    void nameRememberedFields();
    void connectChanges();

    void updateDerived();
    void updatePreview();
    void markInvalid(QWidget* field, const QString& reason);
    void clearMarks();
    QString imageReference() const;

    QComboBox* m_endpoint = nullptr;
    QComboBox* m_profile = nullptr;
    QLineEdit* m_faults = nullptr;
    QLineEdit* m_url = nullptr;
    QCheckBox* m_insecure = nullptr;
    // Wraps anywhere: a model id (org/name-with-many-parts) is longer than a side column.
    QPlainTextEdit* m_model = nullptr;
    QPlainTextEdit* m_prompt = nullptr;
    QLineEdit* m_negative = nullptr;
    QLineEdit* m_image = nullptr;
    QLabel* m_preview = nullptr;
    QSpinBox* m_chunks = nullptr;
    QLabel* m_geometry = nullptr;
    QSpinBox* m_mux_fps = nullptr;
    QDoubleSpinBox* m_target_fps = nullptr;
    QSpinBox* m_seed = nullptr;
    QDoubleSpinBox* m_flow_shift = nullptr;
    QComboBox* m_camera = nullptr;
    QSpinBox* m_start_buffer = nullptr;
    QSpinBox* m_warmup = nullptr;
    QDoubleSpinBox* m_slo = nullptr;
    QDoubleSpinBox* m_first_chunk_timeout = nullptr;
    QDoubleSpinBox* m_chunk_timeout = nullptr;
    QLabel* m_problem_label = nullptr;
    QString m_problem;
    QString m_workload_file;
    std::optional<lbm::Workload> m_loaded; // the workload file's rollout, when one is open
};

} // namespace lbm::ui
