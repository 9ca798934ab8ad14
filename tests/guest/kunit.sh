#!/usr/bin/env bash
# The KUnit tests of driver/ (atalab_piix_test) run in the guest when their
# module loads, and every case passes: the host reads the KTAP results from
# the guest's kernel console.
. "$(dirname "$0")/lib.sh"
expect_status 0 --disk "$WORK/disk.img" --driver atalab_piix_test -- true
expect_kunit_pass atalab_piix_timing "$WORK/console.log"
