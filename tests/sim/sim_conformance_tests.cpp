// The simulator against the real vLLM-Omni handler: every scenario of
// tests/data/upstream/scenarios.json is played against SimulatorServer by a plain QWebSocket
// client, exactly as scripts/record_upstream_transcripts.py played it against the real
// handler, and what the simulator sends must be what the real handler sent (the recorded
// transcripts beside it): every message in order, with its text, ids and lists. Byte
// lengths, times, the request id and server-made event ids are compared by shape, and the
// way the connection ends is not compared (the harness's transport leaves it open).
//
// The scenarios run 0.4 times as fast as they were recorded (engine pace, muxing delay,
// timeouts and step delays alike), which keeps every ordering the recording depends on with
// at least 80 ms to spare; like the other [timing] cases, the sanitizer presets skip it. Four
// scenarios play side by side, each against a simulator of its own.

#include "app/sim/py_value.h"
#include "app/sim/simulator_server.h"

#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTimer>
#include <QWebSocket>

#include <catch2/catch.hpp>

extern "C" {
#include <libavutil/log.h>
}

#include <map>
#include <memory>

using namespace lbm::sim;

namespace {

constexpr double kTimeScale = 0.4;
const QString kDataDir = QStringLiteral(LBM_TEST_DATA_DIR "/upstream/");

PyValue readPy(const QString& path) {
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const auto value = PyValue::parse(QString::fromUtf8(file.readAll()));
    REQUIRE(value.has_value());
    return *value;
}

QJsonObject readJson(const QString& path) {
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    return QJsonDocument::fromJson(file.readAll()).object();
}

const PyValue& field(const PyValue& dict, const char* key) {
    const PyValue* value = dict.get(QString::fromLatin1(key));
    REQUIRE(value != nullptr);
    return *value;
}

// "$IMAGE" and friends, and "$PAD:N" (N x's), as the recorder expands them.
PyValue expand(const PyValue& value, const PyValue& placeholders) {
    switch (value.type()) {
    case PyValue::Type::Str: {
        const QString& text = value.toStr();
        if (text.startsWith(QStringLiteral("$PAD:"))) {
            return PyValue::string(QString(text.mid(5).toInt(), QLatin1Char('x')));
        }
        const PyValue* replacement = placeholders.get(text);
        return replacement != nullptr ? *replacement : value;
    }
    case PyValue::Type::List: {
        QList<PyValue> items;
        for (const PyValue& item : value.items()) {
            items.append(expand(item, placeholders));
        }
        return PyValue::list(items);
    }
    case PyValue::Type::Dict: {
        QList<PyValue::Item> items;
        for (const auto& [key, item] : value.entries()) {
            items.append({key, expand(item, placeholders)});
        }
        return PyValue::dict(items);
    }
    default:
        return value;
    }
}

// The session.start the recorder sends: base_start with num_frames for the chunks, patched
// in place ("$DELETE" removes), in the same key order.
PyValue startMessage(const PyValue& doc, const PyValue& scenario) {
    PyValue start = field(doc, "base_start");
    const PyValue* chunks = scenario.get(QStringLiteral("chunks"));
    const qint64 count = chunks != nullptr ? chunks->toInt() : 4;
    start.set(QStringLiteral("num_frames"), PyValue::integer((3 * count - 1) * 4 + 1));
    if (const PyValue* patch = scenario.get(QStringLiteral("start"))) {
        for (const auto& [key, value] : patch->entries()) {
            if (value.type() == PyValue::Type::Str && value.toStr() == QStringLiteral("$DELETE")) {
                start.remove(key);
            } else {
                start.set(key, value);
            }
        }
    }
    return expand(start, field(doc, "placeholders"));
}

// The recorder's normalisation of what the server sent, plus the comparison's: byte lengths
// by sign, no text_chars.
class Normalizer {
public:
    Normalizer(const PyValue& placeholders, QSet<QString> sent_ids)
        : m_sent_ids(std::move(sent_ids)) {
        for (const auto& [name, value] : placeholders.entries()) {
            if (value.type() == PyValue::Type::Str && value.toStr().size() > 16) {
                m_reverse.insert(value.toStr(), name);
            }
        }
    }

    QJsonValue message(const QJsonObject& object) {
        if (object.value(QStringLiteral("type")) == QStringLiteral("video.start")) {
            m_request_id = object.value(QStringLiteral("request_id")).toString();
        }
        QJsonObject normalized = value(object, {}).toObject();
        if (normalized.value(QStringLiteral("type")) == QStringLiteral("video.chunk_metadata")) {
            normalized.insert(QStringLiteral("byte_length"),
                              normalized.value(QStringLiteral("byte_length")).toDouble() > 0
                                  ? QJsonValue(QStringLiteral(">0"))
                                  : QJsonValue(0));
        }
        normalized.remove(QStringLiteral("text_chars"));
        return normalized;
    }

private:
    QJsonValue value(const QJsonValue& value, const QString& key) {
        static const QRegularExpression hex32(QStringLiteral("^[0-9a-f]{32}$"));
        if (value.isString()) {
            const QString text = value.toString();
            if (!m_request_id.isEmpty() && text == m_request_id) {
                return QStringLiteral("$REQUEST_ID");
            }
            if (m_reverse.contains(text)) {
                return m_reverse.value(text);
            }
            if ((key.isEmpty() || key == QStringLiteral("event_id") ||
                 key.endsWith(QStringLiteral("_ids"))) &&
                hex32.match(text).hasMatch() && !m_sent_ids.contains(text)) {
                if (!m_uuids.contains(text)) {
                    m_uuids.insert(text, QStringLiteral("$UUID%1").arg(m_uuids.size() + 1));
                }
                return m_uuids.value(text);
            }
            if (text.size() > 1000 && text.count(QLatin1Char('x')) == text.size()) {
                return QStringLiteral("$PAD:%1").arg(text.size());
            }
            return text;
        }
        if (value.isArray()) {
            QJsonArray out;
            for (const QJsonValue& item : value.toArray()) {
                out.append(
                    this->value(item, key.endsWith(QStringLiteral("_ids")) ? key : QString()));
            }
            return out;
        }
        if (value.isObject()) {
            QJsonObject out;
            const QJsonObject object = value.toObject();
            for (auto it = object.begin(); it != object.end(); ++it) {
                out.insert(it.key(), this->value(it.value(), it.key()));
            }
            return out;
        }
        return value;
    }

    QSet<QString> m_sent_ids;
    QHash<QString, QString> m_reverse;
    QHash<QString, QString> m_uuids;
    QString m_request_id;
};

// The server messages of a recorded transcript, as compared.
QJsonArray recordedFacts(const QJsonObject& transcript) {
    QJsonArray facts;
    for (const QJsonValue& entry_value : transcript.value(QStringLiteral("transcript")).toArray()) {
        const QJsonObject entry = entry_value.toObject();
        if (entry.contains(QStringLiteral("recv"))) {
            QJsonObject message = entry.value(QStringLiteral("recv")).toObject();
            message.remove(QStringLiteral("text_chars"));
            if (message.value(QStringLiteral("type")) == QStringLiteral("video.chunk_metadata")) {
                message.insert(QStringLiteral("byte_length"),
                               message.value(QStringLiteral("byte_length")).toDouble() > 0
                                   ? QJsonValue(QStringLiteral(">0"))
                                   : QJsonValue(0));
            }
            facts.append(message);
        } else if (entry.contains(QStringLiteral("binary"))) {
            facts.append(QStringLiteral("<binary>"));
        }
    }
    return facts;
}

QSet<QString> sentEventIds(const PyValue& scenario) {
    QSet<QString> ids;
    const PyValue* steps = scenario.get(QStringLiteral("steps"));
    for (const PyValue& step : steps != nullptr ? steps->items() : QList<PyValue>{}) {
        for (const PyValue& item : field(step, "send").items()) {
            const PyValue* json = item.get(QStringLiteral("json"));
            const PyValue* interaction =
                json != nullptr ? json->get(QStringLiteral("interaction")) : nullptr;
            const PyValue* id =
                interaction != nullptr ? interaction->get(QStringLiteral("event_id")) : nullptr;
            if (id != nullptr && id->type() == PyValue::Type::Str) {
                ids.insert(id->toStr());
            }
        }
    }
    return ids;
}

SimulatorConfig configFor(const PyValue& settings, HandlerVersion handler) {
    SimulatorConfig config;
    config.handler = handler;
    // The messages are compared, not the picture: the world without grain and flicker
    // encodes in less time, and the stream's byte facts are the same either way.
    config.realism = Realism::None;
    const QStringList pace = settings.get(QStringLiteral("profile")) != nullptr
                                 ? field(settings, "profile").toStr().split(QLatin1Char(':'))
                                 : QStringList{QStringLiteral("0.3"), QStringLiteral("0.5")};
    config.profile = QStringLiteral("fixed:%1:%2")
                         .arg(pace.value(0).toDouble() * kTimeScale)
                         .arg(pace.value(1).toDouble() * kTimeScale);
    config.mux_delay_min_ms = static_cast<int>(config.mux_delay_min_ms * kTimeScale);
    config.mux_delay_max_ms = static_cast<int>(config.mux_delay_max_ms * kTimeScale);
    if (const PyValue* stall = settings.get(QStringLiteral("stall_timeout"))) {
        config.stall_timeout_ms = static_cast<int>(stall->toDouble() * 1000 * kTimeScale);
    }
    if (const PyValue* start = settings.get(QStringLiteral("start_timeout"))) {
        config.start_timeout_ms = static_cast<int>(start->toDouble() * 1000 * kTimeScale);
    }
    const PyValue* decoder = settings.get(QStringLiteral("decoder"));
    config.independent_chunks =
        decoder != nullptr && decoder->toStr() == QStringLiteral("independent");
    config.close_grace_ms = static_cast<int>(config.close_grace_ms * kTimeScale);
    return config;
}

// One scenario played against its own simulator answering as `handler`, driven entirely by
// the event loop (no waits of its own), so several run side by side on one thread: each
// scenario's timing is its own server's and client's, and what the test compares (the
// messages, in order) does not depend on what else runs.
class ScenarioRun : public QObject {
public:
    ScenarioRun(const PyValue& doc, const PyValue& scenario, HandlerVersion handler)
        : m_doc(doc)
        , m_scenario(scenario) {
        const PyValue* server_name = scenario.get(QStringLiteral("server"));
        const PyValue& settings =
            field(field(doc, "servers"),
                  server_name != nullptr ? server_name->toStr().toUtf8().constData() : "default");
        m_server = std::make_unique<SimulatorServer>(configFor(settings, handler));
        if (const PyValue* list = scenario.get(QStringLiteral("steps"))) {
            for (const PyValue& step : list->items()) {
                const PyValue* delay = step.get(QStringLiteral("delay_s"));
                m_steps.push_back({field(step, "at").toStr(),
                                   delay != nullptr ? delay->toDouble() : 0,
                                   field(step, "send").items()});
            }
        }
        m_socket.setMaxAllowedIncomingMessageSize(64 * 1024 * 1024);
        QObject::connect(&m_socket, &QWebSocket::connected, this, [this]() { onConnected(); });
        QObject::connect(&m_socket, &QWebSocket::disconnected, this, [this]() { finish(); });
        QObject::connect(
            &m_socket, &QWebSocket::textMessageReceived, this, [this](const QString& text) {
                const QJsonObject json = QJsonDocument::fromJson(text.toUtf8()).object();
                m_received.append(json);
                onText(json);
            });
        QObject::connect(&m_socket, &QWebSocket::binaryMessageReceived, this,
                         [this](const QByteArray&) {
                             m_received.append(QStringLiteral("<binary>"));
                             onMedia();
                         });
        // A scenario that never ends is reported as not closed, not waited on forever.
        m_timeout.setSingleShot(true);
        m_timeout.setInterval(30000);
        QObject::connect(&m_timeout, &QTimer::timeout, this, [this]() { finish(); });
    }

    // Starts the scenario; on_finished runs once, when the server has closed or the time is up.
    void start(std::function<void()> on_finished) {
        m_on_finished = std::move(on_finished);
        m_timeout.start();
        if (!m_server->listen(QHostAddress::LocalHost, 0)) {
            finish();
            return;
        }
        m_socket.open(m_server->url());
    }

    bool connected() const { return m_connected; }
    bool closed() const { return m_closed; }
    // The normalised server messages ("<binary>" for media).
    QJsonArray facts() const {
        Normalizer normalizer(field(m_doc, "placeholders"), sentEventIds(m_scenario));
        QJsonArray facts;
        for (const QJsonValue& message : m_received) {
            facts.append(message.isString() ? message : normalizer.message(message.toObject()));
        }
        return facts;
    }

private:
    struct Step {
        QString at;
        double delay_s = 0;
        QList<PyValue> send;
        bool fired = false;
    };

    void onConnected() {
        m_connected = true;
        fire(QStringLiteral("open"));
        if (const PyValue* text = m_scenario.get(QStringLiteral("start_text"))) {
            sendText(text->toStr());
        } else if (const PyValue* binary = m_scenario.get(QStringLiteral("start_binary"))) {
            m_socket.sendBinaryMessage(bytesOf(*binary));
        } else if (const PyValue* start = m_scenario.get(QStringLiteral("start"));
                   start == nullptr || !start->isNone()) {
            sendText(startMessage(m_doc, m_scenario).toJsonText());
        }
        fire(QStringLiteral("start"));
    }

    void onText(const QJsonObject& json) {
        const QString type = json.value(QStringLiteral("type")).toString();
        if (type == QStringLiteral("video.chunk_metadata")) {
            m_media_next = json.value(QStringLiteral("kind")) == QStringLiteral("media");
        } else if (type == QStringLiteral("video.start")) {
            fire(QStringLiteral("video.start"));
        } else if (type == QStringLiteral("session.interaction.queued")) {
            fire(QStringLiteral("queued:%1").arg(m_counts[QStringLiteral("queued")]++));
        } else if (type == QStringLiteral("error")) {
            fire(QStringLiteral("error:%1").arg(m_counts[QStringLiteral("error")]++));
        } else if (type == QStringLiteral("session.pong")) {
            fire(QStringLiteral("pong:%1").arg(m_counts[QStringLiteral("pong")]++));
        }
    }

    void onMedia() {
        if (m_media_next) {
            fire(QStringLiteral("media:%1").arg(m_counts[QStringLiteral("media")]++));
        }
        m_media_next = false;
    }

    static QByteArray bytesOf(const PyValue& list) {
        QByteArray bytes;
        for (const PyValue& byte : list.items()) {
            bytes.append(static_cast<char>(byte.toInt()));
        }
        return bytes;
    }

    void sendText(const QString& text) {
        m_socket.sendTextMessage(text);
        m_socket.flush();
    }

    void sendItem(const PyValue& item) {
        const PyValue& placeholders = field(m_doc, "placeholders");
        if (const PyValue* json = item.get(QStringLiteral("json"))) {
            sendText(expand(*json, placeholders).toJsonText());
        } else if (const PyValue* text = item.get(QStringLiteral("text"))) {
            sendText(expand(*text, placeholders).toStr());
        } else {
            m_socket.sendBinaryMessage(bytesOf(field(item, "binary")));
            m_socket.flush();
        }
    }

    void fire(const QString& trigger) {
        for (Step& step : m_steps) {
            if (step.fired || step.at != trigger) {
                continue;
            }
            step.fired = true;
            const QList<PyValue> items = step.send;
            const auto sendAll = [this, items]() {
                if (m_socket.state() == QAbstractSocket::ConnectedState) {
                    for (const PyValue& item : items) {
                        sendItem(item);
                    }
                }
            };
            if (step.delay_s > 0) {
                // Precise: a coarse timer may fire 5% late, and seven pings 0.2 s apart
                // then drifted past the first chunk they came before in the recording.
                QTimer::singleShot(static_cast<int>(step.delay_s * 1000 * kTimeScale),
                                   Qt::PreciseTimer, this, sendAll);
            } else {
                sendAll();
            }
        }
    }

    void finish() {
        if (m_finished) {
            return;
        }
        m_finished = true;
        m_closed = m_socket.state() == QAbstractSocket::UnconnectedState && m_connected;
        m_timeout.stop();
        if (m_on_finished) {
            // Queued: the socket's own signal handling finishes before the next run starts.
            QTimer::singleShot(0, this, m_on_finished);
        }
    }

    const PyValue& m_doc;
    const PyValue& m_scenario;
    std::unique_ptr<SimulatorServer> m_server;
    QWebSocket m_socket;
    QTimer m_timeout;
    std::vector<Step> m_steps;
    std::map<QString, int> m_counts;
    QJsonArray m_received;
    std::function<void()> m_on_finished;
    bool m_media_next = false;
    bool m_connected = false;
    bool m_closed = false;
    bool m_finished = false;
};

// How many scenarios play at once. Each simulator session renders and encodes on threads of
// its own and most of a scenario is waiting for its pace, so two side by side take half the
// time of one after another without the pace of either changing. Four at once, beside the
// rest of the suite on a slow 2-core machine, drew more than the two cores: the event loop
// they share answered pings late, and seven pings 0.2 s apart drifted past the first chunk
// they had come before in the recording (4 of 6 runs failed beside six busy loops at nice 5;
// two at once passed 3 of 3).
constexpr int kScenariosAtOnce = 2;

// Plays every scenario (kScenariosAtOnce at a time) and returns each one's run, in order.
std::vector<std::unique_ptr<ScenarioRun>>
playAll(const PyValue& doc, const QList<PyValue>& scenarios, HandlerVersion handler) {
    av_log_set_level(AV_LOG_ERROR);
    std::vector<std::unique_ptr<ScenarioRun>> runs;
    for (const PyValue& scenario : scenarios) {
        runs.push_back(std::make_unique<ScenarioRun>(doc, scenario, handler));
    }
    QEventLoop loop;
    std::size_t next = 0;
    std::size_t finished = 0;
    std::function<void()> startNext = [&]() {
        if (next < runs.size()) {
            runs[next++]->start([&]() {
                if (++finished == runs.size()) {
                    loop.quit();
                } else {
                    startNext();
                }
            });
        }
    };
    for (int i = 0; i < kScenariosAtOnce; ++i) {
        startNext();
    }
    if (!runs.empty()) {
        loop.exec();
    }
    return runs;
}

QString lines(const QJsonArray& facts) {
    QStringList out;
    for (const QJsonValue& fact : facts) {
        out.append(
            fact.isString()
                ? fact.toString()
                : QString::fromUtf8(QJsonDocument(fact.toObject()).toJson(QJsonDocument::Compact))
                      .left(400));
    }
    return out.join(QLatin1Char('\n'));
}

bool sendsMultiModalData(const PyValue& scenario) {
    const PyValue* steps = scenario.get(QStringLiteral("steps"));
    return steps != nullptr && steps->repr().contains(QStringLiteral("multi_modal_data"));
}

// Whether a scenario reaches the code that reads the handler setting: readInteraction (a
// session.interaction message, whatever it holds) or start_request's preencode_mp4 check.
// Every other scenario runs the same code under every setting.
bool readsHandlerSetting(const PyValue& doc, const PyValue& scenario) {
    const QString sent =
        expand(scenario, field(doc, "placeholders")).repr() + startMessage(doc, scenario).repr();
    return sent.contains(QStringLiteral("session.interaction")) ||
           sent.contains(QStringLiteral("preencode_mp4"));
}

// Whether the two real handlers answered a scenario differently (or only the newest was
// recorded with it).
bool recordingsDiffer(const PyValue& scenario) {
    const QString name = field(scenario, "name").toStr() + QStringLiteral(".json");
    const QString snapshot = kDataDir + QStringLiteral("snapshot/") + name;
    return !QFile::exists(snapshot) ||
           recordedFacts(readJson(snapshot)) !=
               recordedFacts(readJson(kDataDir + QStringLiteral("newest/") + name));
}

// Every scenario recorded for `recorded_as`, played against a simulator answering as
// `handler`, optionally only those `keep` accepts.
void checkAll(const QString& recorded_as, HandlerVersion handler, int at_least,
              const std::function<bool(const PyValue&, const PyValue&)>& keep = {}) {
    const PyValue doc = readPy(kDataDir + QStringLiteral("scenarios.json"));
    QList<PyValue> scenarios;
    QStringList paths;
    for (const PyValue& scenario : field(doc, "scenarios").items()) {
        const QString path = kDataDir + recorded_as + QLatin1Char('/') +
                             field(scenario, "name").toStr() + QStringLiteral(".json");
        if (QFile::exists(path) && (!keep || keep(doc, scenario))) {
            scenarios.append(scenario);
            paths.append(path);
        }
    }
    const auto runs = playAll(doc, scenarios, handler);
    for (qsizetype i = 0; i < scenarios.size(); ++i) {
        const QString name = field(scenarios[i], "name").toStr();
        const QJsonArray expected = recordedFacts(readJson(paths[i]));
        const QJsonArray observed = runs[static_cast<std::size_t>(i)]->facts();
        INFO("scenario " << name.toStdString() << " recorded from the " << recorded_as.toStdString()
                         << " handler\nreal handler:\n"
                         << lines(expected).toStdString() << "\nsimulator:\n"
                         << lines(observed).toStdString());
        CHECK(runs[static_cast<std::size_t>(i)]->connected());
        CHECK(runs[static_cast<std::size_t>(i)]->closed());
        CHECK(observed == expected);
    }
    // The recordings are part of the test; a missing directory must not pass silently.
    CHECK(scenarios.size() >= at_least);
}

} // namespace

// The snapshot and the default (combined) answers run the same code unless an event carries
// multi_modal_data: that is what combined means (HandlerVersion::Combined), and
// readInteraction's choice of parser is the only place the two differ. Every prompt-only
// scenario is replayed against the snapshot's recordings under the default below; here the
// snapshot setting plays the rest, the scenarios where the two answer differently.
TEST_CASE("the simulator answers as the snapshot handler did where the default differs",
          "[sim][conformance][timing]") {
    checkAll(QStringLiteral("snapshot"), HandlerVersion::Snapshot, 1,
             [](const PyValue&, const PyValue& scenario) { return sendsMultiModalData(scenario); });
}

// Likewise the newest setting: a scenario that sends no session.interaction and no
// preencode_mp4 runs the same code as under the default, whose replay below checks it against
// the snapshot's recording; where that recording is the newest's too, playing it again here
// checks nothing more. Every scenario that reads the setting, or that the two handlers
// answered differently, is played here.
TEST_CASE("the simulator answers as the newest handler did where the setting matters",
          "[sim][conformance][timing]") {
    checkAll(QStringLiteral("newest"), HandlerVersion::Newest, 24,
             [](const PyValue& doc, const PyValue& scenario) {
                 return readsHandlerSetting(doc, scenario) || recordingsDiffer(scenario);
             });
}

TEST_CASE("by default the simulator answers prompts as the snapshot and cameras as the newest",
          "[sim][conformance][timing]") {
    SECTION("prompt-only scenarios as the snapshot handler") {
        checkAll(
            QStringLiteral("snapshot"), HandlerVersion::Combined, 59,
            [](const PyValue&, const PyValue& scenario) { return !sendsMultiModalData(scenario); });
    }
    SECTION("camera scenarios as the newest handler") {
        checkAll(
            QStringLiteral("newest"), HandlerVersion::Combined, 7,
            [](const PyValue&, const PyValue& scenario) { return sendsMultiModalData(scenario); });
    }
}
