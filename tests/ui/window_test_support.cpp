#include "window_test_support.h"

#include "app/report/session_document.h"
#include "ui/main_window.h"
#include "ui/session_form.h"

#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QPixmap>
#include <QProcess>
#include <QScreen>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

#include <catch2/catch.hpp>

#include <csignal>
#include <exception>

namespace lbm::ui::test {

QImage grabWindowWithVideo(lbm::ui::MainWindow& window) {
    return grabWidget(window);
}

QImage grabWidget(QWidget& widget) {
    if (QGuiApplication::platformName() == QLatin1String("xcb")) {
        QScreen* screen = widget.screen();
        // A window opened where the platform put it (off the corner) and then resized to the
        // screen's size reaches past the screen's right and bottom edges: a grab of the screen
        // would cut them. Moved to the corner, and the grab checked to hold the whole frame.
        if (!screen->geometry().contains(widget.frameGeometry())) {
            widget.move(screen->geometry().topLeft());
            QTest::qWait(300); // not a proof: the moved window is exposed and repainted
        }
        const QRect frame = widget.frameGeometry();
        CHECK(screen->geometry().contains(frame));
        return screen->grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height()).toImage();
    }
    // The video view is an ordinary widget (its HUD included), so the widget grab has it.
    return widget.grab().toImage();
}

QString saveScreenshot(lbm::ui::MainWindow& window, const QString& name) {
    const QString dir = QStringLiteral(LBM_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    const QString path = dir + QLatin1Char('/') + name + QStringLiteral(".png");
    grabWindowWithVideo(window).save(path);
    return path;
}

QString saveWidgetScreenshot(QWidget& widget, const QString& name) {
    const QString dir = QStringLiteral(LBM_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    const QString path = dir + QLatin1Char('/') + name + QStringLiteral(".png");
    grabWidget(widget).save(path);
    return path;
}

QStringList cutLabels(QWidget* root) {
    QStringList cut;
    for (QLabel* label : root->findChildren<QLabel*>()) {
        // (A dock in a tab behind another is "visible" but not seen, nor laid out.)
        if (!label->isVisible() || label->visibleRegion().isEmpty() || label->text().isEmpty() ||
            label->textFormat() == Qt::RichText ||
            (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(label->text()))) {
            continue;
        }
        const bool fits = label->wordWrap()
                              ? label->heightForWidth(label->width()) <= label->height() + 1
                              : label->fontMetrics().horizontalAdvance(label->text()) <=
                                    label->contentsRect().width() + 1;
        if (!fits) {
            const QRect rect = label->geometry();
            cut << QStringLiteral("%1 (%2) at %3,%4 %5x%6: %7")
                       .arg(QString::fromLatin1(label->metaObject()->className()),
                            label->objectName())
                       .arg(rect.x())
                       .arg(rect.y())
                       .arg(rect.width())
                       .arg(rect.height())
                       .arg(label->text());
        }
    }
    return cut;
}

void showAt(lbm::ui::MainWindow& window, const QSize& size) {
    window.resize(size);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
}

void abortSession(lbm::ui::MainWindow& window) {
    auto* engine = window.sessionEngine();
    engine->abort(QStringLiteral("screenshot taken"));
    REQUIRE(QTest::qWaitFor([&] { return engine->result().has_value(); }, 10000));
}

void startOnSimulator(lbm::ui::MainWindow& window, const QString& profile, int chunks,
                      const QStringList& faults) {
    auto* form = window.sessionForm();
    form->setUseSimulator(true);
    form->setSimulatorProfile(profile);
    form->setSimulatorFaults(faults);
    if (!faults.isEmpty()) {
        form->setChunkTimeouts(60, 30);
    }
    form->setChunks(chunks);
    REQUIRE(window.startSession());
}

QString sessionsRoot() {
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/lingbot-monitor/sessions");
}

QString newestKeptDocument(lbm::report::OutcomeKind kind) {
    const QStringList folders =
        QDir(sessionsRoot()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    REQUIRE_FALSE(folders.isEmpty());
    const QString path =
        sessionsRoot() + QLatin1Char('/') + folders.back() + QStringLiteral("/session.json");
    REQUIRE(QTest::qWaitFor(
        [&] {
            try {
                return lbm::report::readOutcome(lbm::report::readSessionDocument(path)).kind ==
                       kind;
            } catch (const std::exception&) {
                return false;
            }
        },
        10000));
    return path;
}

QProcessEnvironment environmentIn(const QTemporaryDir& home) {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    return environment;
}

// The real program on the simulator under home, until its kept document holds 3 chunks; then
// signal_number. Returns the document's path.
QString runAndSignal(const QTemporaryDir& home, int signal_number) {
    QProcess monitor;
    monitor.setProcessEnvironment(environmentIn(home));
    monitor.start(QStringLiteral(LBM_BINARY_DIR "/lingbot-monitor"),
                  {QStringLiteral("--profile"), QStringLiteral("h200-sp4"),
                   QStringLiteral("--chunks"), QStringLiteral("40"), QStringLiteral("--start")});
    REQUIRE(monitor.waitForStarted(10000));
    const QString root = home.filePath(QStringLiteral("data/lingbot-monitor/sessions"));
    QString document_path;
    REQUIRE(QTest::qWaitFor(
        [&] {
            for (const QFileInfo& folder :
                 QDir(root).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
                const QString path = folder.filePath() + QStringLiteral("/session.json");
                try {
                    if (QFileInfo::exists(path) &&
                        lbm::report::readSessionDocument(path).sessions.front().chunks.size() >=
                            3) {
                        document_path = path;
                        return true;
                    }
                } catch (const std::exception&) {
                }
            }
            return false;
        },
        60000));
    ::kill(static_cast<pid_t>(monitor.processId()), signal_number);
    REQUIRE(monitor.waitForFinished(10000));
    return document_path;
}

} // namespace lbm::ui::test
