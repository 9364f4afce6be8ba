#include "tests/own_display.h"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lbm::test {

namespace {

constexpr int kStartTimeoutMs = 10000;

// Reads Xvfb's "N\n" from the -displayfd pipe; empty when it exits or times out first.
std::string readDisplayNumber(int fd) {
    std::string number;
    pollfd waiting{fd, POLLIN, 0};
    while (poll(&waiting, 1, kStartTimeoutMs) > 0) {
        char c = 0;
        const ssize_t n = read(fd, &c, 1);
        if (n <= 0 || c == '\n') {
            break;
        }
        number.push_back(c);
    }
    return number;
}

} // namespace

OwnDisplay::OwnDisplay(const std::string& screen) {
    int fds[2];
    if (pipe(fds) != 0) {
        m_why = std::string("pipe: ") + std::strerror(errno);
        return;
    }
    const std::string write_fd = std::to_string(fds[1]);
    m_pid = fork();
    if (m_pid == 0) {
        // The server goes when the test process goes, however it ends.
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        close(fds[0]);
        execlp("Xvfb", "Xvfb", "-displayfd", write_fd.c_str(), "-screen", "0", screen.c_str(),
               "-nolisten", "tcp", "-noreset", static_cast<char*>(nullptr));
        _exit(127);
    }
    close(fds[1]);
    if (m_pid < 0) {
        m_why = std::string("fork: ") + std::strerror(errno);
        close(fds[0]);
        return;
    }
    const std::string number = readDisplayNumber(fds[0]);
    close(fds[0]);
    if (number.empty()) {
        m_why = "Xvfb did not start (is the xvfb package installed?)";
        kill(m_pid, SIGTERM);
        waitpid(m_pid, nullptr, 0);
        m_pid = -1;
        return;
    }
    m_display = ":" + number;
}

OwnDisplay::~OwnDisplay() {
    if (m_pid > 0) {
        kill(m_pid, SIGTERM);
        waitpid(m_pid, nullptr, 0);
    }
}

} // namespace lbm::test
