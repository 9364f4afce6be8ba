#include "tests/broadcast/devtools_client.h"

#include "tests/broadcast/http_client.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>

namespace lbm::broadcast::test {

HeadlessChromium::~HeadlessChromium() {
    m_page.abort();
    if (m_process.state() != QProcess::NotRunning) {
        m_process.terminate();
        if (!m_process.waitForFinished(5000)) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }
}

bool HeadlessChromium::start(int width, int height, QString* error) {
    const QString program = QStandardPaths::findExecutable(QStringLiteral("chromium"));
    if (program.isEmpty()) {
        *error = QStringLiteral(
            "chromium not found: apt-get install chromium (scripts/quickstart.sh does)");
        return false;
    }
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    m_process.start(program, {QStringLiteral("--headless"), QStringLiteral("--no-sandbox"),
                              QStringLiteral("--disable-gpu"), QStringLiteral("--disable-quic"),
                              QStringLiteral("--no-first-run"),
                              QStringLiteral("--disable-background-networking"),
                              QStringLiteral("--disable-component-update"),
                              QStringLiteral("--disable-sync"), QStringLiteral("--mute-audio"),
                              QStringLiteral("--autoplay-policy=no-user-gesture-required"),
                              QStringLiteral("--user-data-dir=") + m_profile.path(),
                              QStringLiteral("--remote-debugging-address=127.0.0.1"),
                              QStringLiteral("--remote-debugging-port=0"),
                              QStringLiteral("--remote-allow-origins=*"),
                              QStringLiteral("--window-size=%1,%2").arg(width).arg(height),
                              QStringLiteral("about:blank")});
    if (!m_process.waitForStarted(10'000)) {
        *error = QStringLiteral("chromium did not start: ") + m_process.errorString();
        return false;
    }
    // "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/ID" on stderr.
    QByteArray printed;
    quint16 port = 0;
    const QRegularExpression listening(
        QStringLiteral("DevTools listening on ws://127\\.0\\.0\\.1:(\\d+)/"));
    waitUntil(
        [&] {
            printed += m_process.readAllStandardError();
            const auto match = listening.match(QString::fromUtf8(printed));
            port = match.hasMatch() ? static_cast<quint16>(match.captured(1).toUInt()) : 0;
            return port != 0 || m_process.state() == QProcess::NotRunning;
        },
        30'000);
    if (port == 0) {
        *error = QStringLiteral("chromium printed no DevTools address: ") +
                 QString::fromUtf8(printed.right(2000));
        return false;
    }
    QString page_url;
    waitUntil(
        [&] {
            const HttpReply list = httpGet(port, QStringLiteral("/json/list"), 5000);
            for (const QJsonValue& target : QJsonDocument::fromJson(list.body).array()) {
                if (target[QStringLiteral("type")].toString() == QStringLiteral("page")) {
                    page_url = target[QStringLiteral("webSocketDebuggerUrl")].toString();
                }
            }
            return !page_url.isEmpty();
        },
        15'000);
    if (page_url.isEmpty()) {
        *error = QStringLiteral("chromium listed no page target");
        return false;
    }
    QObject::connect(&m_page, &QWebSocket::textMessageReceived, [this](const QString& text) {
        const QJsonObject message = QJsonDocument::fromJson(text.toUtf8()).object();
        if (message.contains(QStringLiteral("id"))) {
            m_replies[message[QStringLiteral("id")].toInt()] = message;
        }
    });
    m_page.setMaxAllowedIncomingMessageSize(256 * 1024 * 1024);
    m_page.open(QUrl(page_url));
    if (!waitUntil([&] { return m_page.state() == QAbstractSocket::ConnectedState; }, 10'000)) {
        *error = QStringLiteral("cannot open the page's DevTools socket %1: %2")
                     .arg(page_url, m_page.errorString());
        return false;
    }
    return true;
}

QJsonObject HeadlessChromium::call(const QString& method, const QJsonObject& params,
                                   int timeout_ms) {
    const int id = m_next_id++;
    QJsonObject message{{QStringLiteral("id"), id}, {QStringLiteral("method"), method}};
    if (!params.isEmpty()) {
        message[QStringLiteral("params")] = params;
    }
    m_page.sendTextMessage(
        QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact)));
    if (!waitUntil([&] { return m_replies.count(id) > 0; }, timeout_ms)) {
        return {{QStringLiteral("error"), QStringLiteral("no reply to %1").arg(method)}};
    }
    const QJsonObject reply = m_replies[id];
    m_replies.erase(id);
    return reply.contains(QStringLiteral("error")) ? reply
                                                   : reply[QStringLiteral("result")].toObject();
}

QJsonValue HeadlessChromium::evaluate(const QString& expression, int timeout_ms) {
    const QJsonObject result = call(QStringLiteral("Runtime.evaluate"),
                                    {{QStringLiteral("expression"), expression},
                                     {QStringLiteral("returnByValue"), true},
                                     {QStringLiteral("awaitPromise"), true}},
                                    timeout_ms);
    return result[QStringLiteral("result")].toObject()[QStringLiteral("value")];
}

bool HeadlessChromium::navigate(const QString& url) {
    return !call(QStringLiteral("Page.navigate"), {{QStringLiteral("url"), url}})
                .contains(QStringLiteral("error"));
}

QByteArray HeadlessChromium::screenshot() {
    const QJsonObject shot = call(QStringLiteral("Page.captureScreenshot"),
                                  {{QStringLiteral("format"), QStringLiteral("png")}});
    return QByteArray::fromBase64(shot[QStringLiteral("data")].toString().toLatin1());
}

} // namespace lbm::broadcast::test
