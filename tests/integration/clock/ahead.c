/* Preloaded (LD_PRELOAD) into ffind by cache_clock.rs: the realtime clock reads 10 seconds
   ahead for that one process, as a clock stepped back afterwards (NTP correcting a fast
   clock, `date -s`, a virtual machine restored) would have read. Every other clock, the
   kernel's stamps of files and the time since boot among them, reads as it is. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>

int clock_gettime(clockid_t clock, struct timespec *ts) {
    static int (*real)(clockid_t, struct timespec *);
    if (!real)
        real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    int r = real(clock, ts);
    if (r == 0 && clock == CLOCK_REALTIME)
        ts->tv_sec += 10;
    return r;
}
