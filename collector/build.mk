# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# collector/: hopmark-collector, which receives postcards (IPFIX) and
# Telemetry Reports, stitches per-packet paths and locates drops.
