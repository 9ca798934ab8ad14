/*
 * atalab fuzzers without libFuzzer: the inputs in files and directories.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef FUZZ_FILES_H
#define FUZZ_FILES_H

#include <stddef.h>
#include <stdint.h>

/*
 * Call fn with the contents of path, or of every file under the directory
 * path in name order (files ending in .md are notes, not inputs).  A file
 * that cannot be read ends the program (exit 2), named.  Returns the
 * inputs run.
 */
unsigned fuzz_files_each(const char *path,
                         void (*fn)(const uint8_t *data, size_t len,
                                    void *opaque),
                         void *opaque);

#endif
