#pragma once
// A private X server for one test process (tests/own_display.cpp). The screenshot cases grab
// the screen, which shows whatever window is on top: on a shared display two cases running at
// once caught each other's windows, so they took the display one at a time (130 s of the
// suite, serial). Each case on an Xvfb of its own runs beside the others instead.

#include <string>
#include <sys/types.h>

namespace lbm::test {

class OwnDisplay {
public:
    // Starts `Xvfb -displayfd` with a screen of `screen` ("1920x1080x24") and waits for it to
    // name its display. started() is false, with why() saying so, when Xvfb is missing
    // (missing() is then true) or does not come up within 30 s.
    explicit OwnDisplay(const std::string& screen);
    ~OwnDisplay();
    OwnDisplay(const OwnDisplay&) = delete;
    OwnDisplay& operator=(const OwnDisplay&) = delete;

    bool started() const { return !m_display.empty(); }
    // ":N", for DISPLAY.
    const std::string& display() const { return m_display; }
    const std::string& why() const { return m_why; }
    bool missing() const { return m_missing; }

private:
    pid_t m_pid = -1;
    std::string m_display;
    std::string m_why;
    bool m_missing = false;
};

} // namespace lbm::test
