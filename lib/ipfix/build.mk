# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# lib/ipfix/: IPFIX (RFC 7011) for postcards, on Debian's libfixbuf: the
# information model of hopmark's elements (ipfix_ie.h, hopmark-ipfix.xml),
# its templates, the exporter and the decoder the collector uses.
