# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# libFuzzer harnesses, one per decoder of untrusted bytes
# (Documentation/fuzzing.rst):
#
#   fuzz_ioam_decode   IPv6 packet / IOAM option / ring record -> trace record
#   fuzz_capture       captured frame: link type, Hop-by-Hop IOAM options, DEX
#   fuzz_record_json   a JSON record line of the monitor socket
#   fuzz_postcard      a hopmark module event (option, node data, headers)
#   fuzz_gml           a GML topology file
#   fuzz_pint_sink     PINT settings, ring buffer records, frames
#   fuzz_int_decode    an INT packet or a Telemetry Report payload
#   fuzz_ipfix         IPFIX messages (UDP) or a stream (TCP) into hopmark-collector
#
#   make fuzz                  build them (clang, ASan + UBSan + libFuzzer)
#   make fuzz-run FUZZ_SECS=60 [FUZZ_TARGETS="gml capture"]
#                              fuzz each for FUZZ_SECS from fuzz/corpus/NAME,
#                              new inputs in build/fuzz/corpus/NAME
#   make fuzz-smoke            each harness FUZZ_SMOKE_RUNS executions from
#                              its seeds (fuzz/fuzz_smoke.sh, in make check)
#   make fuzz-corpus           regenerate the generated seeds (corpus_gen.c)
#   make lib-tests-san         the unit tests built with clang, ASan and
#                              UBSan against the same library
#
# libhopmark is compiled again with the sanitizers and coverage into
# build/fuzz/libhopmark-fuzz.a; the harnesses link that, never
# build/libhopmark.a.

FUZZ_SECS	?= 60
FUZZ_SMOKE_RUNS	?= 50000
HM_FUZZ_NAMES	:= ioam_decode capture record_json postcard gml pint_sink int_decode ipfix
FUZZ_TARGETS	?= $(HM_FUZZ_NAMES)
HM_FUZZ_BINS	:= $(patsubst %,$(BUILD)/fuzz/fuzz_%,$(HM_FUZZ_NAMES))

# Largest input of each harness, bytes: what the decoder can be given.
HM_FUZZ_MAXLEN_ioam_decode := 1024
HM_FUZZ_MAXLEN_capture	:= 2200
HM_FUZZ_MAXLEN_record_json := 16384
HM_FUZZ_MAXLEN_postcard	:= 1024
HM_FUZZ_MAXLEN_gml	:= 4096
HM_FUZZ_MAXLEN_pint_sink := 8192
HM_FUZZ_MAXLEN_int_decode := 2048
HM_FUZZ_MAXLEN_ipfix	:= 8192

HM_FUZZ_SAN	:= -fsanitize=address,undefined -fno-sanitize-recover=undefined
HM_FUZZ_CFLAGS	:= -O1 -g $(HM_FUZZ_SAN) -Wall -std=gnu11 -D_GNU_SOURCE \
		   -I$(CURDIR)/lib -I$(CURDIR)/fuzz
# lib/common/bpf_*.c embed the BPF skeletons and load programs: no
# harness reaches them.
HM_FUZZ_LIB_SRCS := $(filter-out lib/common/bpf_%.c,$(HM_LIB_SRCS))
HM_FUZZ_LIB_OBJS := $(patsubst lib/%.c,$(BUILD)/fuzz/obj/lib/%.o,$(HM_FUZZ_LIB_SRCS))
HM_FUZZ_LIB	:= $(BUILD)/fuzz/libhopmark-fuzz.a

.PHONY: fuzz fuzz-run fuzz-smoke fuzz-corpus fuzz-check-build
fuzz: $(HM_FUZZ_BINS)

$(BUILD)/fuzz/obj/lib/%.o: lib/%.c $(HM_LIB_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(HM_FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(HM_FUZZ_LIB): $(HM_FUZZ_LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/fuzz/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_input.h $(HM_FUZZ_LIB) $(HM_LIB_HDRS)
	$(CLANG) $(HM_FUZZ_CFLAGS) -fsanitize=fuzzer $< $(HM_FUZZ_LIB) -o $@ -ljson-c

# fuzz_ipfix: the collector's IPFIX input and stitcher and lib/ipfix's
# decoder, compiled with the sanitizers into the harness (no libfixbuf:
# the collector's input no longer uses it).
HM_FUZZ_IPFIX_SRCS := collector/ipfix_in.c collector/log.c collector/stitch.c \
		      collector/out_json.c lib/ipfix/ipfix_decode.c
$(BUILD)/fuzz/fuzz_ipfix: fuzz/fuzz_ipfix.c fuzz/fuzz_input.h $(HM_FUZZ_IPFIX_SRCS) $(HM_FUZZ_LIB) \
			  $(HM_LIB_HDRS) $(wildcard collector/*.h)
	@mkdir -p $(@D)
	$(CLANG) $(HM_FUZZ_CFLAGS) -I$(CURDIR) -fsanitize=fuzzer $< \
		$(HM_FUZZ_IPFIX_SRCS) $(HM_FUZZ_LIB) -o $@ -ljson-c

HM_FUZZ_RP	:= )
fuzz-run: $(patsubst %,$(BUILD)/fuzz/fuzz_%,$(FUZZ_TARGETS))
	@set -e; for t in $(FUZZ_TARGETS); do \
		case $$t in $(foreach n,$(HM_FUZZ_NAMES),$(n)$(HM_FUZZ_RP) max=$(HM_FUZZ_MAXLEN_$(n));;) esac; \
		mkdir -p $(BUILD)/fuzz/corpus/$$t $(BUILD)/fuzz/artifacts/$$t; \
		echo "fuzz_$$t: $(FUZZ_SECS) s, inputs up to $$max bytes"; \
		$(BUILD)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECS) -max_len=$$max \
			-artifact_prefix=$(BUILD)/fuzz/artifacts/$$t/ -print_final_stats=1 \
			$(BUILD)/fuzz/corpus/$$t fuzz/corpus/$$t; \
	done

# make check: the harnesses when clang can build them; fuzz_smoke.sh says
# why it skips otherwise.
fuzz-check-build:
	@if $(CURDIR)/fuzz/fuzz_smoke.sh --probe $(CLANG) >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory fuzz; \
	else \
		echo "fuzz: $(CLANG) cannot link -fsanitize=fuzzer: fuzz_smoke.sh will skip"; \
	fi

fuzz-smoke: $(HM_FUZZ_BINS)
	HM_BUILD=$(BUILD) FUZZ_SMOKE_RUNS=$(FUZZ_SMOKE_RUNS) prove -v $(CURDIR)/fuzz/fuzz_smoke.sh

HM_TESTS	+= $(CURDIR)/fuzz/fuzz_smoke.sh
HM_TEST_DEPS	+= fuzz-check-build

# Unit tests with the sanitizers: what a plain build does not see (a NULL
# array given to qsort() or memcpy(), a read one octet past a buffer). The
# ones that need the BPF skeletons (test_bpf_*, test_maps_create) are left
# out. Built as lib/build.mk builds them (HM_LIB_EXTRA_DATA where it is
# defined: optional data from other projects).
HM_SAN_TEST_SRCS := $(filter-out lib/tests/test_bpf_%.c lib/tests/test_maps_create.c,\
			$(HM_LIB_TEST_SRCS))
HM_SAN_TESTS	:= $(patsubst lib/tests/%.c,$(BUILD)/fuzz/tests/%,$(HM_SAN_TEST_SRCS))

.PHONY: lib-tests-san
$(BUILD)/fuzz/tests/%: lib/tests/%.c lib/tests/hm_test.h $(HM_FUZZ_LIB)
	@mkdir -p $(@D)
	$(CLANG) $(HM_FUZZ_CFLAGS) -Ilib/tests -DHM_TEST_DATA='"$(HM_LIB_TEST_DATA)"' \
		$(if $(HM_LIB_EXTRA_DATA),-DHM_EXTRA_DATA_DEFAULT='"$(HM_LIB_EXTRA_DATA)"') \
		$< -o $@ $(HM_FUZZ_LIB) -lcmocka $(HM_LDLIBS)

lib-tests-san: $(HM_SAN_TESTS)
	UBSAN_OPTIONS=print_stacktrace=1 prove -v $(HM_SAN_TESTS)

# The generated seeds: rebuilt from corpus_gen.c with the plain library.
$(BUILD)/fuzz/corpus_gen: fuzz/corpus_gen.c fuzz/fuzz_input.h $(HM_LIB)
	@mkdir -p $(@D)
	$(CC) $(HM_CFLAGS) -Ifuzz $< -o $@ $(HM_LIB) $(HM_LDLIBS)

fuzz-corpus: $(BUILD)/fuzz/corpus_gen
	$(BUILD)/fuzz/corpus_gen fuzz/corpus
