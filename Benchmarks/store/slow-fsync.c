// LD_PRELOAD shim for scripts/bench-store-pressure.sh: every fsync and fdatasync first sleeps
// FSYNC_DELAY_MS milliseconds (default 20), as on a phone's flash or a busy server disk.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static void delay(void) {
    const char *setting = getenv("FSYNC_DELAY_MS");
    long milliseconds = setting ? atol(setting) : 20;
    struct timespec remaining = { milliseconds / 1000, (milliseconds % 1000) * 1000000L };
    while (nanosleep(&remaining, &remaining) != 0) {}
}

int fsync(int descriptor) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    delay();
    return real(descriptor);
}

int fdatasync(int descriptor) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    delay();
    return real(descriptor);
}
