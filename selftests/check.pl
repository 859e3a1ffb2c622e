#!/usr/bin/perl
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# check.pl - run every test tier of `make check` under TAP::Harness (what
# prove(1) runs on), then count every tier.
#
# Usage: selftests/check.pl TEST...
#
# Each TEST is a TAP-producing program (absolute path). They run one after
# another, verbose and timed, as `prove -v --timer` runs them, and
# TAP::Harness prints its usual summary ("Files=.., Tests=.., Result: ..").
# Then, per tier (the tier of a TEST is told by its path, see @TIERS),
# how many test points passed, failed and were skipped, every skip with its
# reason, and last one closing line:
#
#	check: P passed, F failed, S skipped
#
# A point "ok ... # SKIP why" counts as skipped, not passed; a whole program
# that skips ("1..0 # SKIP why": no root, no qemu, ...) counts as one skipped
# point with its reason; a program that exits non-zero, dies or breaks its
# plan counts as at least one failure. Exit status: 0 when nothing failed,
# 1 otherwise.

use strict;
use warnings;
use TAP::Harness;

# Tiers of the test plan (Documentation/testing-vm.rst, ../README.md), in
# the order they are printed; the first pattern that matches a path wins.
my @TIERS = (
	[ 'unit',		qr{/build/tests/lib/} ],
	[ 'bpf',		qr{/build/tests/bpf} ],
	[ 'fuzz-smoke',		qr{/fuzz/} ],
	[ 'bench-smoke',	qr{/bench/} ],
	[ 'net',		qr{/selftests/net/} ],
	[ 'vm-runner',		qr{/selftests/vm/[^/]*accel[^/]*$} ],
	[ 'vm-bpf',		qr{/selftests/vm/bpf_} ],
	[ 'vm-module',		qr{/selftests/vm/module/} ],
	[ 'vm-datapath',	qr{/selftests/vm/datapath/} ],
	[ 'vm-userspace',	qr{/selftests/vm/userspace/} ],
	[ 'docs',		qr{/selftests/docs/} ],
	[ 'other',		qr{} ],
);

sub tier_of {
	my ($path) = @_;

	for my $t (@TIERS) {
		return $t->[0] if $path =~ $t->[1];
	}
}

my (%count, @skips, @failed_files);

sub account {
	my ($test, $parser) = @_;
	my $tier = tier_of($test);
	my $c = $count{$tier} //= { files => 0, passed => 0, failed => 0, skipped => 0 };
	my %skipped = map { $_ => 1 } $parser->skipped;
	my $failed = scalar $parser->failed;

	$c->{files}++;
	if (defined $parser->skip_all) {
		$c->{skipped}++;
		push @skips, "$test: " . ($parser->skip_all || 'no reason given');
		return;
	}
	$c->{passed} += grep { !$skipped{$_} } $parser->passed;
	$c->{skipped} += keys %skipped;
	# A failure that no "not ok" shows: exit code, signal, plan, parse errors.
	$failed ||= 1 if $parser->exit || $parser->wait || $parser->parse_errors ||
			 !$parser->is_good_plan;
	$c->{failed} += $failed;
	push @failed_files, $test if $failed;
}

my $harness = TAP::Harness->new({
	verbosity => 1,
	timer => 1,
	callbacks => {
		# Keep each skipped point's reason as the TAP stream gives it.
		parser_args => sub {
			my ($args, $job) = @_;
			my $test = $job->[0];

			$args->{callbacks} = {
				test => sub {
					my ($r) = @_;

					push @skips, sprintf("%s: %s %s: %s", $test, $r->number,
							     $r->description, $r->explanation || 'no reason given')
						if $r->has_skip;
				},
			};
		},
		after_test => sub {
			my ($job, $parser) = @_;
			account($job->[0], $parser);
		},
	},
});
$harness->runtests(@ARGV);

my ($p, $f, $s) = (0, 0, 0);
print "\nTiers (test points):\n";
printf "  %-14s %6s %7s %7s %8s\n", 'tier', 'files', 'passed', 'failed', 'skipped';
for my $t (map { $_->[0] } @TIERS) {
	my $c = $count{$t} or next;
	printf "  %-14s %6d %7d %7d %8d\n", $t, @$c{qw(files passed failed skipped)};
	$p += $c->{passed};
	$f += $c->{failed};
	$s += $c->{skipped};
}
print "  skipped: $_\n" for @skips;
print "  failed: $_\n" for @failed_files;
print "check: $p passed, $f failed, $s skipped\n";
exit($f ? 1 : 0);
