# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# VM tier: tests that need Debian 12's 6.1 kernel (its verifier, the kernel
# module) run inside qemu; selftests/vm/run.sh fetches the kernel package
# once into $(BUILD)/vm/ and boots it with the host's / shared read-only.
# See Documentation/testing-vm.rst. accel.t checks run.sh itself on the host
# (accelerator choice, boot deadline, skips) in about half a minute.
#
#   make vm-check     build, then run only the VM tier under prove
#   make vm-prepare   fetch the kernel and build the initramfs (no boot), e.g.
#                     to fill a CI cache of build/vm/

HM_VM_TESTS	:= $(CURDIR)/selftests/vm/accel.t \
		   $(CURDIR)/selftests/vm/bpf_verifier_6_1.t
HM_TESTS	+= $(HM_VM_TESTS)

.PHONY: vm-check vm-prepare
vm-check: deps
	$(MAKE) --no-print-directory check-build
	prove -v --timer $(HM_VM_TESTS)

vm-prepare:
	selftests/vm/run.sh --prepare
