#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/integration/perf_oracle.sh — `pmukit explain --json` against perf 6.1
# itself: for every line "FIXTURE CPUID MODE SPEC" of tests/oracle/corpus/*.txt,
# the perf_event_attr perf opens for SPEC on that fake PMU tree and CPU model
# (tests/oracle/perf_attr.sh: perf under an LD_PRELOAD shim in a private mount
# namespace) must equal, event by event and field by field, the "attr"
# members of the JSON array pmukit prints; group leaders too when pmukit's
# objects have a numeric "leader". When perf refuses a spec, pmukit must
# refuse it as well. TAP output, one test per corpus line; differing fields
# are printed as comments.
#
# Skips (1..0) when the oracle cannot run here (not root, no unshare, no perf
# 6.1: perf_attr.sh --check exits 77). Builds the shim into a temporary
# directory when $PMUKIT_BUILD/oracle/perf_shim.so is missing.
#
# perf's side of every line is saved (never committed) under
# ${PMUKIT_ORACLE_SAVE:-$PMUKIT_BUILD/oracle/results}: results.jsonl, one
# object per corpus line (where, fixture, cpuid, mode, spec, "perf": "ok" |
# "refused" | "error", perf's "error" text, its "events" as perf_attr.sh
# prints them) and logs/FILE-LINE.jsonl (every open perf made, probes
# included, each with its role).
#
# Env: PMUKIT_BUILD, PMUKIT_SRC; PMUKIT_ORACLE_CORPUS (a directory or .txt
# files; default the whole corpus); PMUKIT_ORACLE_JOBS (parallel perf batches,
# default nproc); PMUKIT_ORACLE_TODO=1 marks failures "# TODO" so that prove
# passes while `pmukit explain` is being written.

build=$(cd "${PMUKIT_BUILD:-build}" 2>/dev/null && pwd) || build=${PMUKIT_BUILD:-build}
src=$(cd "${PMUKIT_SRC:-.}" && pwd)
pmukit="$build/pmukit"
oracle="$src/tests/oracle/perf_attr.sh"
fixtures="$src/tests/fixtures/sysfs"
corpus=${PMUKIT_ORACLE_CORPUS:-$src/tests/oracle/corpus}
save=${PMUKIT_ORACLE_SAVE:-$build/oracle/results}
jobs=${PMUKIT_ORACLE_JOBS:-$(nproc 2>/dev/null || echo 2)}
TAB=$(printf '\t')

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmukit-perf-oracle.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# The shim: the build's, else one built here.
. "$src/tests/integration/lib/oracle_shim.sh"

why=$("$oracle" --check 2>&1 >/dev/null)
rc=$?
if [ $rc -ne 0 ]; then
	echo "1..0 # SKIP ${why#perf_attr.sh: }"
	exit 0
fi
export PMUKIT_ORACLE_CHECKED=1

# The corpus as "N<TAB>where<TAB>fixture<TAB>cpuid<TAB>mode<TAB>spec" lines.
if [ -d "$corpus" ]; then files=$(ls "$corpus"/*.txt 2>/dev/null); else files=$corpus; fi
[ -n "$files" ] || { echo "1..0 # SKIP no corpus files in $corpus"; exit 0; }
for f in $files; do
	awk -v f="$(basename "$f")" '
		/^[ \t]*(#|$)/ { next }
		{
			line = $0; sub(/^[ \t]+/, "", line); sub(/[ \t]+$/, "", line)
			n = split(line, w, /[ \t]+/)
			spec = line
			for (i = 1; i <= 3; i++) sub(/^[^ \t]+[ \t]+/, "", spec)
			if (n < 4) printf "%s:%d\t-\t-\t-\t%s\n", f, FNR, line
			else printf "%s:%d\t%s\t%s\t%s\t%s\n", f, FNR, w[1], w[2], w[3], spec
		}' "$f"
done | awk '{ print NR "\t" $0 }' > "$tmp/list"
total=$(wc -l < "$tmp/list")
echo "1..$total"

# perf's side: contiguous chunks of the list, one namespace per chunk, in parallel.
mkdir "$tmp/run" "$tmp/p"
awk -F '\t' -v OFS='\t' -v fx="$fixtures" '{ print $1, fx "/" $3, $4, $5, $6 }' "$tmp/list" > "$tmp/jobs"
per=$(( (total + jobs - 1) / jobs ))
[ "$per" -ge 1 ] || per=1
split -l "$per" "$tmp/jobs" "$tmp/chunk."
for c in "$tmp"/chunk.*; do
	"$oracle" --batch "$c" "$tmp/run" 2> "$c.err" &
done
wait
cat "$tmp"/chunk.*.err > "$tmp/batch.err" 2>/dev/null

# pmukit's side.
noexplain=
if [ ! -x "$pmukit" ]; then
	noexplain="$pmukit not built"
elif ! "$pmukit" explain --json --mode stat -e task-clock > "$tmp/p.out" 2> "$tmp/p.err"; then
	noexplain="'pmukit explain --json -e task-clock' fails: $(grep . "$tmp/p.err" | head -1)"
fi
if [ -z "$noexplain" ]; then
	while IFS="$TAB" read -r n _where fx cpuid mode spec; do
		[ "$fx" = - ] && continue
		"$pmukit" explain --json --mode "$mode" --sysfs "$fixtures/$fx" --cpuid "$cpuid" -e "$spec" \
			> "$tmp/p/$n.out" 2> "$tmp/p/$n.err" < /dev/null
		echo $? > "$tmp/p/$n.rc"
	done < "$tmp/list"
fi

[ -n "$save" ] && { mkdir -p "$save/logs" && rm -f "$save"/logs/*.jsonl; } 2>/dev/null || save=

# Lines perf 6.1 accepts but pmukit refuses on purpose (the kernel would refuse
# them): "WHERE<TAB>reason" in the corpus directory's pmukit-refuses file.
refuses="$SRC/tests/oracle/corpus/pmukit-refuses"
[ -d "$corpus" ] && refuses="$corpus/pmukit-refuses"

REFUSES=$refuses NOEXPLAIN=$noexplain TODO=${PMUKIT_ORACLE_TODO:-} SAVE=$save perl -MJSON::PP -e '
use strict; use warnings; no warnings "portable";
my ($list, $run, $p) = @ARGV;
my $js = JSON::PP->new->allow_bignum;
my $out = JSON::PP->new->canonical->allow_bignum;
sub slurp { open my $fh, "<", $_[0] or return undef; local $/; my $s = <$fh>; $s // "" }
sub first_line {
	my @l = grep { /\S/ && !/^Invalid CPUID/ && !/^perf_attr\.sh: perf \w+ refused/ } split /\n/, $_[0] // "";
	my $l = $l[0] // ""; $l =~ s/^\s+//; $l =~ s/\s+/ /g; $l
}
sub norm {
	my ($v) = @_;
	return "(absent)" unless defined $v;
	return "$v" if ref $v;
	return sprintf("0x%x", hex($v)) if $v =~ /^0x[0-9a-fA-F]{1,16}$/;
	return "$v";
}
# -> (ok, reason, @details)
sub compare {
	my ($orc, $want, $oerr, $prc, $pout, $perr) = @_;
	if ($orc == 1) {
		return (1) if $prc != 0;
		return (0, "perf 6.1 refuses this spec, pmukit accepts it", "perf: " . first_line($oerr));
	}
	return (0, "oracle failed (exit $orc): " . first_line($oerr)) if $orc != 0;
	return (0, "pmukit explain failed (exit $prc): " . (first_line($perr) || "no message")) if $prc != 0;
	my $got = eval { $js->decode($pout) };
	return (0, "pmukit explain --json did not print a JSON array") if ref $got ne "ARRAY";
	my @d;
	push @d, sprintf("perf opens %d event(s), pmukit explains %d", scalar @$want, scalar @$got)
		if @$want != @$got;
	my $n = @$want < @$got ? @$want : @$got;
	for my $i (0 .. $n - 1) {
		my ($w, $g) = ($want->[$i]{attr}, ref $got->[$i] eq "HASH" ? $got->[$i]{attr} : undef);
		if (ref $g ne "HASH") { push @d, "event $i: no attr object from pmukit"; next }
		my %k = map { $_ => 1 } keys %$w, keys %$g;
		for my $k (sort keys %k) {
			my ($a, $b) = (norm($w->{$k}), norm($g->{$k}));
			push @d, "event $i: $k: perf $a, pmukit $b" if $a ne $b;
		}
		my $gl = $got->[$i]{leader};
		push @d, "event $i: leader: perf $want->[$i]{leader}, pmukit $gl"
			if defined $gl && !ref $gl && $gl =~ /^\d+$/ && $gl != $want->[$i]{leader};
	}
	return (1) unless @d;
	my @show = @d > 40 ? (@d[0 .. 39], "... " . (@d - 40) . " more") : @d;
	return (0, scalar(@d) . " difference(s)", @show);
}
my $fails = 0;
my $res;
my %refuse;
if (open my $rf, "<", $ENV{REFUSES} // "") {
	while (<$rf>) { next if /^\s*(#|$)/; chomp; my ($w, $why) = split /\t+/, $_, 2; $refuse{$w} = $why // "" }
}
if ($ENV{SAVE}) { open $res, ">", "$ENV{SAVE}/results.jsonl" or undef $res; }
open my $lf, "<", $list or die;
while (my $l = <$lf>) {
	chomp $l;
	my ($n, $where, $fx, $cpuid, $mode, $spec) = split /\t/, $l, 6;
	my $name = "$where $fx $cpuid $mode $spec";
	my $orc = slurp("$run/$n.rc");
	my $oerr = slurp("$run/$n.err") // "";
	if (defined $orc) { $orc += 0 } else { $orc = 99; $oerr = slurp("$run/../batch.err") // "" }
	my @want = map { $js->decode($_) } grep { /\S/ } split /\n/, slurp("$run/$n.out") // "";
	my ($ok, $why, @det);
	if ($fx eq "-") { ($ok, $why) = (0, "malformed corpus line") }
	elsif ($ENV{NOEXPLAIN}) {
		($ok, $why) = (0, "pmukit explain is not available ($ENV{NOEXPLAIN})");
		($ok, $why, @det) = (0, "oracle failed (exit $orc): " . first_line($oerr)) if $orc > 1;
	} else {
		my $prc = slurp("$p/$n.rc"); $prc = defined $prc ? $prc + 0 : 99;
		if (exists $refuse{$where}) {
			($ok, $why) = $prc != 0 && $prc != 99
				? (1, "") : (0, "pmukit should refuse this by design: $refuse{$where}");
			$name .= " # pmukit refuses by design: $refuse{$where}" if $ok;
		} else {
			($ok, $why, @det) = compare($orc, \@want, $oerr, $prc, slurp("$p/$n.out") // "", slurp("$p/$n.err"));
		}
	}
	if ($ok) { print "ok $n - $name\n" }
	else {
		$fails++;
		print $ENV{TODO} ? "not ok $n - $name # TODO $why\n" : "not ok $n - $name: $why\n";
		print "# $_\n" for @det;
	}
	next unless $res && $fx ne "-";
	(my $base = $where) =~ s{[:/]}{-}g;
	if (defined(my $log = slurp("$run/$n.log"))) {
		if (open my $o, ">", "$ENV{SAVE}/logs/$base.jsonl") { print $o $log }
	}
	my %r = (where => $where, fixture => $fx, cpuid => $cpuid, mode => $mode, spec => $spec,
		 perf => $orc == 0 ? "ok" : $orc == 1 ? "refused" : "error", events => \@want);
	$r{error} = join "\n", grep { !/^Invalid CPUID/ } split /\n/, $oerr if $orc != 0;
	print $res $out->encode(\%r), "\n";
}
print "# perf 6.1 attrs saved in $ENV{SAVE}/results.jsonl, open logs in $ENV{SAVE}/logs/\n" if $res;
exit($fails && !$ENV{TODO} ? 1 : 0);
' "$tmp/list" "$tmp/run" "$tmp/p"
