# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Doc-table tier (Documentation/doc-tables.rst): every table and measured
# figure of Documentation/ is rerun from the command written beside it and
# compared. test_doc_tables.sh checks Documentation/*.rst (seconds: quick
# reruns only); test_doc_tables_checker.py checks the checker (a copied or
# stale table must fail). The commands the documents rerun are built as
# test dependencies where they are defined (bench/build.mk, bench/latency.mk,
# lib/build.mk). Needs no root.
#
#   make doc-tables        the documents' tier alone
#   make doc-tables-full   the same with the documented commands themselves
#                          instead of their quick: forms (minutes)

HM_DOC_TESTS := \
	selftests/docs/test_doc_tables_checker.py \
	selftests/docs/test_doc_tables.sh

HM_TESTS += $(addprefix $(CURDIR)/,$(HM_DOC_TESTS))

.PHONY: doc-tables doc-tables-full
doc-tables: check-build
	prove -v $(addprefix $(CURDIR)/,$(HM_DOC_TESTS))

doc-tables-full: check-build
	python3 selftests/docs/doc_tables.py --full Documentation/*.rst
