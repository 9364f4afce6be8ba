#pragma once
// The per-chunk CSV of a session the engine ran: the record columns and deadline verdicts of
// report::ChunkCsvTable, plus the frames decoded for each chunk and the interaction ids the
// server listed in its metadata. `bench --csv` and the window's export both write this.

#include "app/report/chunk_csv.h"

namespace lbm::engine {

class SessionEngine;

report::ChunkCsvTable sessionCsvTable(const SessionEngine& engine);

} // namespace lbm::engine
