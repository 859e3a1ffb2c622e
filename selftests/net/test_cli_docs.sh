#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_cli_docs.sh - the command and its documents say the same: the
# OBJECT list of `hopmark help` (printed from the dispatch table) is the
# one of hopmark.8's SYNOPSIS, which has a line for every object and gives
# `monitor` and `decode` as `hopmark help` does; cli.rst's grammar too;
# hopmark-int.8's SYNOPSIS is `hopmark int help`'s, hopmark-postcard.8's
# `hopmark postcard help`'s;
# hopmark-collector.8's SYNOPSIS is `hopmark-collector --help`'s usage, its
# OPTIONS every option --help lists, as collector.rst's synopsis;
# and the recipe for nodes in network namespaces is given once, in
# operating.rst, which cli.rst points to. Needs no root.
set -u
. "$(dirname "$0")/../lib.sh"

MAN=$HM_TOP/iproute2-ext/hopmark.8
CLI=$HM_TOP/Documentation/cli.rst
hm_require_built "$HOPMARK" "$MAN"
command -v man >/dev/null || hm_skip_all "needs man (man-db) to render hopmark.8"

HELP=$("$HOPMARK" help)
# The man page as text, one line per line of source, no hyphenation.
SYN=$(MANWIDTH=300 man -l "$MAN" 2>/dev/null | col -b | sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' |
	sed 's/  */ /g; s/^ //')

objects() { sed -n 's/.*OBJECT := { \(.*\) }.*/\1/p' | tr -d ' ' | tr '|' ' ' | head -n 1; }
HELP_OBJS=$(objects <<<"$HELP")
hm_check "help_object_list_matches_man_page" "$HELP_OBJS" "$(objects <<<"$SYN")"
# Every object help gives a usage line for is in its OBJECT list.
hm_check "help_object_list_has_every_object_of_its_usage_lines" "" "$(
	for o in $(sed -n 's/^ *hopmark \([a-z]*\) .*/\1/p' <<<"$HELP" | sort -u); do
		grep -qw "$o" <<<"$HELP_OBJS" || echo -n " $o"
	done)"

MISSING=
for o in $HELP_OBJS; do
	grep -q "^hopmark \(\[ -s \] \)\?$o\b" <<<"$SYN" || MISSING="$MISSING $o"
done
hm_check "man_synopsis_has_every_object" "" "$MISSING"

for o in monitor decode; do
	WANT=$(grep "^ *hopmark $o " <<<"$HELP" | sed 's/  */ /g; s/^ //')
	hm_check "man_synopsis_${o}_as_help" "$WANT" "$(grep "^hopmark $o " <<<"$SYN")"
	hm_check "cli_rst_grammar_${o}_as_help" 1 \
		"$(sed 's/  */ /g; s/^ //' "$CLI" | grep -cxF "$WANT")"
done

# hopmark-int.8's SYNOPSIS has `hopmark int help`'s lines, word for word
# (help's continuation lines joined to the line they continue).
INT_MAN=$HM_TOP/iproute2-ext/hopmark-int.8
INT_SYN=$(MANWIDTH=300 man -l "$INT_MAN" 2>/dev/null | col -b |
	sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed 's/  */ /g; s/^ //' | grep '^hopmark ')
INT_HELP=$("$HOPMARK" int help | sed -n '1,/^[A-Z]* :=/p' | sed '$d' | sed 's/^Usage: //' |
	awk '/^ *hopmark /{if (l) print l; l=$0; next} {l=l " " $0} END{print l}' |
	sed 's/  */ /g; s/^ //')
hm_check "man_int_synopsis_is_int_help" "$INT_HELP" "$INT_SYN"

# hopmark-postcard.8's SYNOPSIS has `hopmark postcard help`'s lines, the same way.
PC_SYN=$(MANWIDTH=300 man -l "$HM_TOP/iproute2-ext/hopmark-postcard.8" 2>/dev/null | col -b |
	sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed 's/  */ /g; s/^ //' | grep '^hopmark ')
PC_HELP=$("$HOPMARK" postcard help | sed -n '1,/^[A-Z]* :=/p' | sed '$d' | sed 's/^Usage: //' |
	awk '/^ *hopmark /{if (l) print l; l=$0; next} {l=l " " $0} END{print l}' |
	sed 's/  */ /g; s/^ //')
hm_check "man_postcard_synopsis_is_postcard_help" "$PC_HELP" "$PC_SYN"

# hopmark-collector.8: its SYNOPSIS is --help's usage lines, word for word
# (continuation lines joined to the line they continue), and its OPTIONS
# has every option --help explains.
COLLECTOR=${COLLECTOR:-$HM_BUILD/hopmark-collector}
COLL_MAN=$HM_TOP/collector/hopmark-collector.8
if [ -x "$COLLECTOR" ]; then
	join() { awk '/^hopmark-collector /{if (l) print l; l=$0; next} {l=l " " $0} END{print l}'; }
	COLL_TXT=$(MANWIDTH=300 man -l "$COLL_MAN" 2>/dev/null | col -bx)
	COLL_SYN=$(sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' <<<"$COLL_TXT" | sed '1d;$d' |
		sed 's/  */ /g; s/^ //' | grep . | join)
	COLL_HELP=$("$COLLECTOR" --help)
	COLL_USAGE=$(sed -n '1,/^ *-/p' <<<"$COLL_HELP" | sed '$d' | sed 's/^Usage: //' |
		sed 's/  */ /g; s/^ //' | join)
	hm_check "man_collector_synopsis_is_collector_help" "$COLL_USAGE" "$COLL_SYN"
	COLL_OPTS=$(sed -n '/^OPTIONS/,/^SHOW/p' <<<"$COLL_TXT")
	hm_check "man_collector_options_has_every_option_of_help" "" "$(
		for o in $(sed -n 's/^ *\(--*[a-z][a-z-]*\).*/\1/p' <<<"$COLL_HELP" | sort -u); do
			grep -q -- "^ *$o\b" <<<"$COLL_OPTS" || echo -n " $o"
		done)"
	for s in SHOW FILES SIGNALS "EXIT STATUS" "SEE ALSO"; do
		hm_check "man_collector_has_section_${s// /_}" 1 "$(grep -cx "$s" <<<"$COLL_TXT")"
	done
	# collector.rst's "Command line" synopsis names every option --help does
	CR=$(sed -n '/^Command line$/,/^``-u PORT``/p' "$HM_TOP/Documentation/collector.rst")
	hm_check "collector_rst_synopsis_has_every_option_of_help" "" "$(
		for o in $(sed -n 's/^ *\(--*[a-z][a-z-]*\).*/\1/p' <<<"$COLL_HELP" | sort -u); do
			grep -q -- "\[ $o\b\|^ *hopmark-collector $o\b\| $o " <<<"$CR" || echo -n " $o"
		done)"
else
	hm_skip "man_collector_synopsis_is_collector_help" "not built: $COLLECTOR"
fi

# One recipe for nodes in network namespaces: operating.rst's.
hm_check "cli_rst_gives_no_second_bpffs_recipe" 0 "$(grep -c 'mount -t bpf' "$CLI")"
hm_check "cli_rst_points_to_the_recipe" yes \
	"$(grep -q '``Documentation/operating.rst``, \*Nodes in network namespaces\*' "$CLI" &&
		echo yes)"
hm_check "operating_rst_has_the_recipe" 1 \
	"$(grep -cx 'Nodes in network namespaces' "$HM_TOP/Documentation/operating.rst")"
hm_done
