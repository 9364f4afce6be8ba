#pragma once
// Headless Chromium driven over the DevTools protocol for the browser tests: starts Debian's
// chromium with the flags this machine kind needs (no sandbox as root, no background
// networking), finds the page's DevTools websocket and calls methods on it, running the
// test's event loop while it waits.

#include <QJsonObject>
#include <QJsonValue>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <QWebSocket>

#include <map>

namespace lbm::broadcast::test {

class HeadlessChromium {
public:
    HeadlessChromium() = default;
    ~HeadlessChromium();

    // Starts chromium at width x height showing about:blank and connects to its page. False
    // with *error (chromium missing: which package to install).
    bool start(int width, int height, QString* error);
    // A DevTools method on the page; the result object, or an "error" member.
    QJsonObject call(const QString& method, const QJsonObject& params = {},
                     int timeout_ms = 15'000);
    // Runtime.evaluate with returnByValue (promises awaited): the value, or undefined.
    QJsonValue evaluate(const QString& expression, int timeout_ms = 15'000);
    bool navigate(const QString& url);
    // Page.captureScreenshot as PNG bytes.
    QByteArray screenshot();

private:
    QTemporaryDir m_profile;
    QProcess m_process;
    QWebSocket m_page;
    int m_next_id = 1;
    std::map<int, QJsonObject> m_replies;
};

} // namespace lbm::broadcast::test
