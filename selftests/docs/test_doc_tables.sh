#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_doc_tables.sh - every table of Documentation/ is what its command
# prints today: selftests/docs/doc_tables.py over every Documentation/*.rst
# (TAP, one point per rule and per rerun; Documentation/doc-tables.rst).
# The commands it reruns are built by make check-build (HM_TEST_DEPS).
here=$(cd "$(dirname "$0")/../.." && pwd)
exec python3 "$here/selftests/docs/doc_tables.py" --root "$here" "$here"/Documentation/*.rst
