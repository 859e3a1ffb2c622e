# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# libFuzzer harnesses for the decoders that read bytes from the wire.
#   make fuzz                 build them (clang, ASan + UBSan)
#   make fuzz-run FUZZ_SECS=60   run fuzz_ioam_decode from fuzz/corpus/
# The library sources are compiled into the harness with the sanitizers,
# not taken from libhopmark.a. Not part of `make check`.

FUZZ_SECS	?= 60
HM_FUZZ_LIB_SRCS := lib/ioam/trace_decode.c lib/ipv6/ipv6_parse.c lib/ioam/record.c \
		    lib/ioam/record_json.c lib/ioam/record_table.c lib/ioam/summary.c \
		    lib/common/hm_time.c
HM_FUZZ_CFLAGS	:= -O1 -g -fsanitize=fuzzer,address,undefined \
		   -fno-sanitize-recover=undefined -Wall -std=gnu11 \
		   -D_GNU_SOURCE -I$(CURDIR)/lib
HM_FUZZ		:= $(BUILD)/fuzz/fuzz_ioam_decode

.PHONY: fuzz fuzz-run
fuzz: $(HM_FUZZ)

$(BUILD)/fuzz:
	mkdir -p $@

$(BUILD)/fuzz/fuzz_ioam_decode: fuzz/fuzz_ioam_decode.c $(HM_FUZZ_LIB_SRCS) \
				 $(HM_LIB_HDRS) | $(BUILD)/fuzz
	$(CLANG) $(HM_FUZZ_CFLAGS) fuzz/fuzz_ioam_decode.c $(HM_FUZZ_LIB_SRCS) \
		-o $@ -ljson-c

fuzz-run: $(HM_FUZZ)
	mkdir -p $(BUILD)/fuzz/corpus
	$(HM_FUZZ) -max_total_time=$(FUZZ_SECS) -max_len=1024 \
		$(BUILD)/fuzz/corpus fuzz/corpus
