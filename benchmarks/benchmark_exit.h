#pragma once

// How a benchmark program ends. A missed timing or size goal is not the same failure as a
// crash or a wrong answer: CI's smoke run (scripts/benchmark_smoke.sh) feeds every program its
// smallest input, where timings are noise, so it accepts kExitGoalMissed and fails on anything
// else. A real measurement (the bench preset, default arguments) reads the exit code as is.
namespace lbm::benchmarks {

inline constexpr int kExitGoalsMet = 0;
inline constexpr int kExitFailed = 1;     // crashed or computed a wrong answer (2: usage error)
inline constexpr int kExitGoalMissed = 3; // ran correctly; a timing or size goal was not met

// Correctness first: a wrong answer is kExitFailed even when the timings also missed.
inline int exitCodeFor(bool correct, bool goals_met) {
    if (!correct) {
        return kExitFailed;
    }
    return goals_met ? kExitGoalsMet : kExitGoalMissed;
}

} // namespace lbm::benchmarks
