#!/usr/bin/env bash
# The guest command's exit status is the run's exit status.
. "$(dirname "$0")/lib.sh"
expect_status 0 --disk "$WORK/disk.img" -- true
expect_status 1 --disk "$WORK/disk.img" -- false
expect_status 7 --disk "$WORK/disk.img" --driver none -- sh -c 'exit 7'
