#include "app/engine/document_writer.h"

#include <chrono>
#include <exception>

namespace lbm::engine {

DocumentWriter::DocumentWriter()
    : m_thread([this] { run(); }) {}

DocumentWriter::~DocumentWriter() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    m_thread.join();
}

void DocumentWriter::write(const report::SessionDocument& document, const QString& path) {
    {
        std::lock_guard lock(m_mutex);
        m_waiting.emplace(document, path);
    }
    m_wake.notify_one();
}

bool DocumentWriter::flush(int timeout_ms) {
    std::unique_lock lock(m_mutex);
    return m_idle.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                           [this] { return !m_waiting && !m_busy; });
}

QString DocumentWriter::lastError() const {
    std::lock_guard lock(m_mutex);
    return m_error;
}

qint64 DocumentWriter::lastWriteNs() const {
    std::lock_guard lock(m_mutex);
    return m_last_write_ns;
}

int DocumentWriter::writesDone() const {
    std::lock_guard lock(m_mutex);
    return m_writes;
}

void DocumentWriter::run() {
    std::unique_lock lock(m_mutex);
    while (true) {
        m_wake.wait(lock, [this] { return m_stopping || m_waiting.has_value(); });
        if (!m_waiting) {
            return; // stopping with nothing left to write
        }
        auto [document, path] = std::move(*m_waiting);
        m_waiting.reset();
        m_busy = true;
        lock.unlock();
        QString error;
        const auto began = std::chrono::steady_clock::now();
        try {
            report::writeSessionDocument(document, path);
        } catch (const std::exception& failure) {
            error = QString::fromUtf8(failure.what());
        }
        const auto took = std::chrono::steady_clock::now() - began;
        lock.lock();
        m_last_write_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(took).count();
        m_busy = false;
        m_error = error;
        ++m_writes;
        m_idle.notify_all();
    }
}

} // namespace lbm::engine
