/*
 * atalab core fuzzer: the libFuzzer entry point (clang -fsanitize=fuzzer).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz-core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_run(data, size);
    return 0;
}
