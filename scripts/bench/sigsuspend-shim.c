/* Valgrind 3.19 crashes when rt_sigsuspend's mask lies in read-only memory (libdispatch's
   _dispatch_sigsuspend passes a static const mask): copy it to the stack first. */
#define _GNU_SOURCE
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, 8);
}
