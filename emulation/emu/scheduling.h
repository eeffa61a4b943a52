// Scheduling of the emulator's own process. Frame release times (latency,
// serialisation) are only as accurate as the emulator's wake-ups, and on a
// small machine the node processes it serves compete for the same cores; like
// `emane --realtime`, the emulator therefore asks for a real-time class.
#pragma once

#include <string>

namespace dissem::emu {

// 0 keeps ordinary scheduling. 1..99 asks for SCHED_FIFO at that priority,
// with SCHED_RESET_ON_FORK so no child inherits it; if the kernel refuses
// (no CAP_SYS_NICE, RT throttled in a container), falls back to nice -10,
// then to ordinary scheduling. Returns what was obtained, for the run's
// stats ("fifo:10", "nice:-10" or "normal"); `warning` is set on fallback.
std::string apply_scheduling(int rt_priority, std::string& warning);

}  // namespace dissem::emu
