#pragma once
// Everything one session needs before it connects: where, what to generate, and the
// benchmark's keepalive and timeout settings (same defaults as its flags).

#include "metrics/constants.h"
#include "metrics/workload.h"

#include <QString>
#include <QUrl>

namespace lbm::session {

struct SessionOptions {
    QUrl url; // ws:// or wss://
    QString model =
        QString::fromUtf8(kDefaultModel.data(), static_cast<qsizetype>(kDefaultModel.size()));
    // The rollout; image_reference must already be an http(s):// or data: URL that fits
    // (see first_frame.h). Its prompt_updates fire right after chunk after_chunk lands.
    Workload workload;
    double ping_interval_s = 20.0;        // session.ping cadence; 0 disables
    double first_chunk_timeout_s = 900.0; // --first-chunk-timeout
    double chunk_timeout_s = 300.0;       // --chunk-timeout, from the previous chunk's arrival
    // How long the TCP + TLS + WebSocket handshake may take (the websockets library's
    // open_timeout default), so an address that swallows packets does not hang a run.
    double connect_timeout_s = 10.0;
    // How long to wait for session.done after session.stop before closing.
    double stop_grace_s = 10.0;
    // wss:// only: accept any certificate. Said loudly (SessionHandlers::warning).
    bool insecure = false;
};

} // namespace lbm::session
