#!/usr/bin/env bash
# driver/patches/ is what the driver sources and driver/series/ give now
# (tools/atalab driver check): the series can not fall behind the driver.
set -euo pipefail
: "${ATALAB_ROOT:?run through meson (tools/atalab test)}"
"$ATALAB_ROOT/tools/atalab" driver check
echo "driver/patches/ is current"
