// core/cli/signal_echo.hpp — telling a user's second stop signal from the first one's echo, for
// train's and sweep's handlers (async-signal-safe: lock-free atomics and clock_gettime only).
// GNU timeout sends its signal to the command and then to the command's process group, so a
// command run under `timeout` gets SIGTERM twice at once; a second signal means "stop now" only
// when it is not that echo: the same signal again, from the same sending process, within 500 ms.
// A terminal's Ctrl-C comes from the kernel (no sender), so pressing it twice always insists.
#pragma once
#include <signal.h>
#include <time.h>

#include <atomic>

namespace ap::cli {

class SignalEcho {
 public:
  // Notes the first stop signal's sender and time.
  void first(const siginfo_t* info) {
    sender_ = sender(info);
    at_ms_ = now_ms();
  }
  // Whether `sig`, arriving after the first signal `first_sig`, is that signal's echo.
  bool echo(int sig, int first_sig, const siginfo_t* info) const {
    const pid_t s = sender(info);
    return sig == first_sig && s != 0 && s == sender_ && now_ms() - at_ms_ < 500;
  }

 private:
  static pid_t sender(const siginfo_t* info) { return info != nullptr && info->si_code == SI_USER ? info->si_pid : 0; }
  static long long now_ms() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
  }
  std::atomic<pid_t> sender_{0};
  std::atomic<long long> at_ms_{0};
  static_assert(std::atomic<pid_t>::is_always_lock_free && std::atomic<long long>::is_always_lock_free,
                "a signal handler needs lock-free atomics");
};

}  // namespace ap::cli
