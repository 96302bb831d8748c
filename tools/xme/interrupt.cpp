#include "interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "xme/staged_file.hpp"

namespace xme::cli {
namespace {

std::atomic<int> requested{0};    // the signal a job was asked to stop by
std::atomic<int> stop_scopes{0};  // StopBetweenPairs alive: a job checks requested between pairs
static_assert(std::atomic<int>::is_always_lock_free, "read in a signal handler");

void restore_default(int signal) {
    struct sigaction action {};
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal, &action, nullptr);
}

extern "C" void on_interrupt(int signal) {
    int none = 0;
    if (stop_scopes.load() > 0 && requested.compare_exchange_strong(none, signal)) return;
    // No job to stop between pairs, or a second signal: end now, as the default action would, with
    // no temporary file left beside the outputs (the paths keep what they held).
    remove_staged_files();
    restore_default(signal);
    raise(signal);  // blocked while this handler runs: delivered as it returns
}

}  // namespace

void install_interrupt_handlers() {
    for (const int signal : {SIGINT, SIGTERM}) {
        // A signal the parent ignores stays ignored (`nohup`, a shell's background job without job
        // control), as the GNU coding standards ask of a program that handles it.
        struct sigaction before {};
        if (sigaction(signal, nullptr, &before) == 0 && before.sa_handler == SIG_IGN) continue;
        struct sigaction action {};
        action.sa_handler = on_interrupt;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;  // reads and writes go on: the job stops at its next pair
        sigaction(signal, &action, nullptr);
    }
}

StopBetweenPairs::StopBetweenPairs() { stop_scopes.fetch_add(1); }
StopBetweenPairs::~StopBetweenPairs() { stop_scopes.fetch_sub(1); }

int interrupt_signal() { return requested.load(); }

std::string signal_name(int signal) {
    if (signal == SIGINT) return "SIGINT";
    if (signal == SIGTERM) return "SIGTERM";
    return "signal " + std::to_string(signal);
}

void end_by_signal(int signal) {
    std::fflush(stdout);  // what was printed (the summary table) is not lost
    std::cout.flush();
    remove_staged_files();
    restore_default(signal);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    raise(signal);
    std::_Exit(128 + signal);  // not reached: the default action of SIGINT and SIGTERM ends the process
}

}  // namespace xme::cli
