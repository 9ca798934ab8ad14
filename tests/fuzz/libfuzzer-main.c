/*
 * atalab core fuzzer: the libFuzzer entry point (clang -fsanitize=fuzzer).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <signal.h>
#include <stdlib.h>

#include "fuzz-core.h"

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
    fuzz_run(data, size);
    return 0;
}
