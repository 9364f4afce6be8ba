#include "tests/own_display.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lbm::test {

namespace {

// Eleven cases starting their servers at once on two busy cores can take a while.
constexpr int kStartTimeoutMs = 30000;
constexpr int kExecFailed = 127;

// Reads Xvfb's "N\n" from the -displayfd pipe; empty when it exits or times out first.
std::string readDisplayNumber(int fd) {
    std::string number;
    pollfd waiting{fd, POLLIN, 0};
    for (;;) {
        const int ready = poll(&waiting, 1, kStartTimeoutMs);
        if (ready < 0 && errno == EINTR) {
            continue;
        }
        if (ready <= 0) {
            return {};
        }
        char c = 0;
        const ssize_t n = read(fd, &c, 1);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return {};
        }
        if (c == '\n') {
            return number;
        }
        number.push_back(c);
    }
}

// SIGTERM, then SIGKILL if the server has not gone within two seconds; reaps it. Returns its
// wait status.
int stopServer(pid_t pid) {
    kill(pid, SIGTERM);
    int status = 0;
    for (int waited_ms = 0; waited_ms < 2000; waited_ms += 20) {
        if (waitpid(pid, &status, WNOHANG) == pid) {
            return status;
        }
        usleep(20 * 1000); // not a proof: polls the server's exit, bounded at 2 s
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return status;
}

} // namespace

OwnDisplay::OwnDisplay(const std::string& screen) {
    int fds[2];
    if (pipe(fds) != 0) {
        m_why = std::string("pipe: ") + std::strerror(errno);
        return;
    }
    // Everything the child needs is made before fork: after it only async-signal-safe calls.
    const std::string write_fd = std::to_string(fds[1]);
    const pid_t parent = getpid();
    m_pid = fork();
    if (m_pid == 0) {
        // The server goes when the test process goes, however it ends (and at once if the
        // parent went before the request was in place).
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) {
            _exit(1);
        }
        close(fds[0]);
        // Its xkbcomp warnings would fill every failing case's output.
        const int null_fd = open("/dev/null", O_WRONLY);
        if (null_fd >= 0) {
            dup2(null_fd, STDOUT_FILENO);
            dup2(null_fd, STDERR_FILENO);
        }
        execlp("Xvfb", "Xvfb", "-displayfd", write_fd.c_str(), "-screen", "0", screen.c_str(),
               "-nolisten", "tcp", "-noreset", static_cast<char*>(nullptr));
        _exit(kExecFailed);
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
        const int status = stopServer(m_pid);
        m_pid = -1;
        m_missing = WIFEXITED(status) && WEXITSTATUS(status) == kExecFailed;
        m_why = m_missing ? "Xvfb is not installed (apt-get install xvfb)"
                          : "Xvfb did not name its display within 30 s";
        return;
    }
    m_display = ":" + number;
}

OwnDisplay::~OwnDisplay() {
    if (m_pid > 0) {
        stopServer(m_pid);
    }
}

} // namespace lbm::test
