#include "ui/broadcast_panel.h"

#include "ui/qr_code_image.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDesktopServices>
#include <QDockWidget>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace lbm::ui {
namespace {

const QString kAddressKey = QStringLiteral("broadcast/address");
const QString kDefaultAddress = QStringLiteral("127.0.0.1:8787");
constexpr int kQrModulePx = 4;

} // namespace

BroadcastPanel::BroadcastPanel(engine::SessionEngine* engine, QWidget* parent)
    : QWidget(parent)
    , m_engine(engine)
    , m_toggle(new QCheckBox(tr("Broadcast to browsers"), this))
    , m_address(new QLineEdit(this))
    , m_url(new QLabel(this))
    , m_copy(new QPushButton(tr("Copy link"), this))
    , m_qr_label(new QLabel(this))
    , m_viewers(new QLabel(this))
    , m_error(new QLabel(this)) {
    m_toggle->setToolTip(tr("Republish the live session as LL-HLS (no re-encode) with its chart, "
                            "for any browser. Viewers cannot steer or prompt."));
    m_address->setText(QSettings().value(kAddressKey, kDefaultAddress).toString());
    m_address->setToolTip(tr("[ADDR:]PORT to listen on. 127.0.0.1 is this machine only; "
                             "0.0.0.0:8787 lets other machines in (the link's token still "
                             "guards it)."));
    m_url->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    m_url->setOpenExternalLinks(true);
    m_url->setWordWrap(true);
    m_qr_label->setAlignment(Qt::AlignCenter);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c62828;"));

    auto* form = new QFormLayout;
    form->addRow(tr("Listen on"), m_address);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_toggle);
    layout->addLayout(form);
    layout->addWidget(m_url);
    layout->addWidget(m_copy, 0, Qt::AlignLeft);
    layout->addWidget(m_qr_label);
    layout->addWidget(m_viewers);
    layout->addWidget(m_error);
    layout->addStretch(1);

    connect(m_toggle, &QCheckBox::toggled, this, &BroadcastPanel::setBroadcasting);
    connect(m_copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(viewerUrl()); });
    connect(&m_broadcaster, &broadcast::Broadcaster::statsChanged, this,
            &BroadcastPanel::showStats);
    connect(&m_broadcaster, &broadcast::Broadcaster::problem, m_error, &QLabel::setText);
    setBroadcasting(false);
}

QString BroadcastPanel::viewerUrl() const {
    return m_broadcaster.running() ? m_broadcaster.viewerUrl().toString() : QString();
}

QString BroadcastPanel::viewersText() const {
    return m_viewers->text();
}

QString BroadcastPanel::errorText() const {
    return m_error->text();
}

void BroadcastPanel::setBroadcasting(bool on) {
    m_error->clear();
    if (on && !m_broadcaster.running()) {
        QString error;
        const auto listen = broadcast::parseListenAddress(m_address->text(), &error);
        broadcast::BroadcastSettings settings;
        if (listen) {
            settings.address = listen->first;
            settings.port = listen->second;
        }
        if (!listen || !m_broadcaster.start(settings, &error)) {
            m_error->setText(error);
            const QSignalBlocker blocker(m_toggle);
            m_toggle->setChecked(false);
            on = false;
        } else {
            QSettings().setValue(kAddressKey, m_address->text());
            m_broadcaster.attach(m_engine);
        }
    } else if (!on) {
        m_broadcaster.stop();
    }
    m_address->setEnabled(!on);
    m_copy->setVisible(on);
    m_qr_label->setVisible(on);
    if (on) {
        const QString url = viewerUrl();
        m_url->setText(QStringLiteral("<a href=\"%1\">%1</a>").arg(url.toHtmlEscaped()));
        m_qr = qrCodeImage(url, kQrModulePx);
        m_qr_label->setPixmap(QPixmap::fromImage(m_qr));
        showStats(m_broadcaster.stats());
    } else {
        m_url->setText(tr("Not broadcasting. Viewers get the picture, the latency chart and "
                          "the session's state in a browser, read-only."));
        m_qr = {};
        m_qr_label->clear();
        m_viewers->clear();
    }
}

void BroadcastPanel::showStats(const broadcast::BroadcastStats& stats) {
    QString text = stats.viewers == 1 ? tr("1 viewer") : tr("%1 viewers").arg(stats.viewers);
    if (stats.dropped_viewers > 0) {
        text += tr(" · %1 dropped for not keeping up").arg(stats.dropped_viewers);
    }
    m_viewers->setText(text);
}

QDockWidget* addBroadcastDock(QMainWindow* window, QMenu* view_menu, engine::SessionEngine* engine,
                              QDockWidget* below) {
    auto* dock = new QDockWidget(QMainWindow::tr("Broadcast"), window);
    dock->setObjectName(QStringLiteral("BroadcastDock"));
    dock->setWidget(new BroadcastPanel(engine, dock));
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    window->addDockWidget(Qt::RightDockWidgetArea, dock);
    if (below) {
        window->tabifyDockWidget(below, dock);
        below->raise();
    }
    view_menu->addAction(dock->toggleViewAction());
    return dock;
}

} // namespace lbm::ui
