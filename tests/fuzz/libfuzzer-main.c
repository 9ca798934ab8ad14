/*
 * atalab fuzzers: the libFuzzer entry point (clang -fsanitize=fuzzer) of
 * the core fuzzer, or with -DFUZZ_TRACE of the trace fuzzer.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <signal.h>
#include <stdlib.h>

#ifdef FUZZ_TRACE
#include "fuzz-trace.h"
#define FUZZ_ONE(data, size) fuzz_trace_run(data, size)
#else
#include "fuzz-core.h"
#define FUZZ_ONE(data, size) fuzz_run(data, size)
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A core bug (g_error under ATALAB_ASSERT_BUGS) ends in glib's breakpoint,
 * SIGTRAP, which libFuzzer does not catch: turn it into an abort, which
 * libFuzzer reports and saves the input of.
 */
static void trap_to_abort(int sig)
{
    (void)sig;
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    signal(SIGTRAP, trap_to_abort);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FUZZ_ONE(data, size);
    return 0;
}
