#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/oracle/perf_attr.sh — the perf_event_attr perf (6.1) opens for a spec
# on a fake PMU tree and a chosen CPU model, with no hardware PMU.
#
#   perf_attr.sh --sysfs DIR --cpuid ID [--mode stat|record] [--log FILE]
#                -e SPEC [-e SPEC...]
#   perf_attr.sh --batch LIST OUTDIR
#   perf_attr.sh --check          exit 0 when the oracle can run here, else 77
#
# Runs, as root, in a private mount namespace (unshare -m, every mount made
# private first, so nothing reaches the real /sys):
#   - DIR bind-mounted on /sys/bus/event_source/devices;
#   - /sys/devices/system/cpu/{possible,present,online} replaced by "0-M",
#     M the highest CPU named by DIR's cpus/cpumask files (at least 1), so
#     perf's CPU maps fit the fixture (hybrid cpu_atom on CPUs 8-15, ...);
#   - /proc/sys/kernel/perf_event_max_sample_rate replaced by 100000 (the
#     kernel default), which caps record's default frequency;
# then `perf stat -e SPEC true` or `perf record -o TMP -e SPEC true` with
# PERF_CPUID=ID, HOME in a temporary directory, no system perfconfig, and
# LD_PRELOAD=perf_shim.so (see there), which logs every perf_event_open, lets
# it "succeed" and lists sysfs directories in kernfs order. The shim refuses,
# as a kernel would, precise_ip above the fixture's caps/max_precise on the
# core PMUs (not for AuthenticAMD CPUIDs: there max_precise reads 0 but the
# kernel forwards precise cycles to IBS) and group members on another CPU or
# task than their leader.
#
# Prints one line per event perf opened for SPEC, in open order:
#   {"event":I,"leader":L,"per_task":T,"cpus":[...],"attr":{...}}
# L is the event index of its group leader (I itself when alone or leading),
# per_task 1 when opened for the workload (pid > 0), 0 when system-wide
# (pid -1), cpus the CPUs it was opened on (-1: any), attr the
# pk_attr__to_json() form (struct order). Left out, but kept with their
# "role" in --log FILE (every shim line):
#   probe     perf's feature probes: fd closed before a later open, or
#             opened on perf itself (pid 0; 6.1 checks hybrid cache events so
#             and never closes those fds);
#   refused   opens the shim refused (see above);
#   sideband  record's side-band event (software dummy with bpf_event,
#             pid -1, opened by perf's side-band thread);
#   tracking  record's tracking dummy (a software dummy perf adds: hybrid),
#             unless SPEC names "dummy";
#   dup       the same event again on another CPU.
#
# --batch LIST OUTDIR runs many specs in one namespace: LIST has lines
# "ID<TAB>DIR<TAB>CPUID<TAB>MODE<TAB>SPEC"; for each, OUTDIR/ID.out (stdout
# above), ID.err, ID.log and ID.rc (the exit status below) are written.
#
# Exit: 0 ok; 1 perf refused the spec (its stderr is copied) or the shim
# logged nothing; 2 usage; 77 the oracle cannot run here (reason on stderr).
#
# Env: PMUKIT_ORACLE_SHIM (default: $PMUKIT_BUILD/oracle/perf_shim.so, else
# build/oracle/perf_shim.so of this script's tree), PERF (default perf),
# PMUKIT_ORACLE_ANY_PERF=1 to accept a perf other than 6.1,
# PMUKIT_ORACLE_CHECKED=1 to skip the prerequisite checks (after --check).

me=perf_attr.sh
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)

skip() { echo "$me: $*" >&2; exit 77; }
usage() {
	echo "usage: $me --sysfs DIR --cpuid ID [--mode stat|record] [--log FILE] -e SPEC [-e SPEC...]" >&2
	echo "       $me --batch LIST OUTDIR | --check" >&2
	exit 2
}

perf=${PERF:-perf}
shim=${PMUKIT_ORACLE_SHIM:-}
if [ -z "$shim" ]; then
	if [ -n "${PMUKIT_BUILD:-}" ]; then shim="$PMUKIT_BUILD/oracle/perf_shim.so"
	else shim="$src/build/oracle/perf_shim.so"; fi
fi
case "$shim" in /*) ;; *) shim="$(pwd)/$shim" ;; esac

check() {
	[ "$(id -u)" = 0 ] || skip "needs root (unshare -m and bind mounts)"
	command -v unshare >/dev/null 2>&1 || skip "unshare not installed"
	command -v perl >/dev/null 2>&1 || skip "perl not installed"
	perl -MJSON::PP -e 1 2>/dev/null || skip "perl JSON::PP missing"
	command -v "$perf" >/dev/null 2>&1 || skip "perf not installed"
	ver=$("$perf" --version 2>/dev/null) || skip "'$perf --version' fails (no perf for this kernel?)"
	case "$ver" in
	"perf version 6.1."*) ;;
	*) [ "${PMUKIT_ORACLE_ANY_PERF:-}" = 1 ] ||
		skip "the oracle is perf 6.1, found '$ver' (PMUKIT_ORACLE_ANY_PERF=1 to use it anyway)" ;;
	esac
	[ -f "$shim" ] || skip "shim $shim not built"
	unshare -m sh -c 'mount --make-rprivate / && test -d /sys/bus/event_source/devices' 2>/dev/null ||
		skip "cannot make a private mount namespace (unshare -m) here"
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/perf_attr.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

sysfs='' cpuid='' mode=stat log='' batch='' outdir='' specs=0
: > "$tmp/specs"
while [ $# -gt 0 ]; do
	case "$1" in
	--check) check; exit 0 ;;
	--sysfs) [ $# -ge 2 ] || usage; sysfs=$2; shift 2 ;;
	--cpuid) [ $# -ge 2 ] || usage; cpuid=$2; shift 2 ;;
	--mode) [ $# -ge 2 ] || usage; mode=$2; shift 2 ;;
	--log) [ $# -ge 2 ] || usage; log=$2; shift 2 ;;
	--batch) [ $# -ge 3 ] || usage; batch=$2; outdir=$3; shift 3 ;;
	-e) [ $# -ge 2 ] || usage; printf '%s\n' "$2" >> "$tmp/specs"; specs=$((specs + 1)); shift 2 ;;
	*) usage ;;
	esac
done

# The jobs: "ID<TAB>DIR<TAB>CPUID<TAB>MODE<TAB>SPEC..." (several specs: one per extra field).
if [ -n "$batch" ]; then
	[ -f "$batch" ] && [ -d "$outdir" ] || usage
	cp "$batch" "$tmp/jobs"
	out=$(cd "$outdir" && pwd)
else
	[ -n "$sysfs" ] && [ -n "$cpuid" ] && [ $specs -gt 0 ] || usage
	case "$mode" in stat|record) ;; *) usage ;; esac
	[ -d "$sysfs" ] || { echo "$me: no directory $sysfs" >&2; exit 2; }
	{ printf 'one\t%s\t%s\t%s' "$sysfs" "$cpuid" "$mode"
	  while IFS= read -r s; do printf '\t%s' "$s"; done < "$tmp/specs"; echo; } > "$tmp/jobs"
	out="$tmp/out"
	mkdir "$out"
fi
[ "${PMUKIT_ORACLE_CHECKED:-}" = 1 ] || check

# Per job: its argv file, a plan line (namespace) and a post line (sorting);
# per fixture: the CPU list and the precise_ip limit. One perl, no forks.
mkdir "$tmp/fx" "$tmp/argv"
PERF=$perf perl -e '
use strict; use warnings; use Cwd qw(abs_path);
my ($tmp, $out) = @ARGV;
sub rd { open my $f, "<", $_[0] or return undef; local $/; my $s = <$f>; $s // "" }
sub wr { open my $f, ">", $_[0] or die "perf_attr.sh: $_[0]: $!\n"; print $f $_[1]; close $f }
my (%fx, $n);
open my $jobs, "<", "$tmp/jobs" or die;
open my $plan, ">", "$tmp/plan" or die;
open my $post, ">", "$tmp/post" or die;
while (my $j = <$jobs>) {
	chomp $j;
	next unless length $j;
	my ($id, $dir, $cpuid, $mode, @specs) = split /\t/, $j;
	$n++;
	if (!defined $mode || $mode !~ /^(stat|record)$/ || !@specs) {
		wr("$out/$id.rc", "2\n"); wr("$out/$id.err", "perf_attr.sh: bad job line: $j\n"); next;
	}
	my $abs = -d $dir ? abs_path($dir) : undef;
	if (!$abs) { wr("$out/$id.rc", "2\n"); wr("$out/$id.err", "perf_attr.sh: no directory $dir\n"); next; }
	my $f = $fx{$abs} //= do {
		# highest CPU of the cpus/cpumask files; lowest caps/max_precise and the types having one
		my ($max, $maxp, @types) = (1, undef);
		opendir my $d, $abs or die;
		for my $p (sort grep { !/^\./ } readdir $d) {
			for my $c (qw(cpus cpumask)) {
				my $s = rd("$abs/$p/$c") // next;
				for (split /[,\-\s]+/, $s) { $max = $_ if /^\d+$/ && $_ > $max }
			}
			my $mp = rd("$abs/$p/caps/max_precise");
			my $ty = rd("$abs/$p/type");
			next unless defined $mp && defined $ty && $mp =~ /(\d+)/;
			$maxp = $1 if !defined $maxp || $1 < $maxp;
			push @types, $ty =~ /(\d+)/;
		}
		my $k = scalar keys %fx;
		wr("$tmp/fx/$k.cpus", "0-$max\n");
		{ cpus => "$tmp/fx/$k.cpus", maxp => $maxp // "-", types => @types ? join(",", @types) : "-" };
	};
	wr("$tmp/argv/$n", join("", map { "$_\n" } $ENV{PERF}, $mode,
		($mode eq "record" ? ("-o", "$tmp/perf.data") : ()), (map { ("-e", $_) } @specs), "true"));
	# AMD: caps/max_precise is 0, yet the kernel hands precise cycles to IBS; no emulation.
	my ($maxp, $types) = $cpuid =~ /^AuthenticAMD/ ? ("-", "-") : ($f->{maxp}, $f->{types});
	print $plan join("\t", $n, $id, $abs, $f->{cpus}, $cpuid, $maxp, $types, $mode), "\n";
	print $post join("\t", $id, $mode, (grep { /dummy/ } @specs) ? 1 : 0, "$tmp/shim.$n.jsonl"), "\n";
}
' "$tmp" "$out" || exit 1
echo 100000 > "$tmp/max_sample_rate"

# Everything below runs inside the namespace; the mounts vanish with it.
unshare -m sh -c '
	tmp=$1 out=$2 shim=$3
	mount --make-rprivate / || exit 90
	mount --bind "$tmp/max_sample_rate" /proc/sys/kernel/perf_event_max_sample_rate || exit 93
	cur=
	TAB=$(printf "\t")
	while IFS="$TAB" read -r n id dir cpus cpuid maxp types md; do
		if [ "$dir" != "$cur" ]; then
			if [ -n "$cur" ]; then
				umount /sys/bus/event_source/devices || exit 91
				for f in possible present online; do umount /sys/devices/system/cpu/$f || exit 92; done
			fi
			mount --bind "$dir" /sys/bus/event_source/devices || exit 91
			for f in possible present online; do
				mount --bind "$cpus" /sys/devices/system/cpu/$f || exit 92
			done
			cur=$dir
		fi
		[ "$maxp" = - ] && maxp=
		[ "$types" = - ] && types=
		(
			set --
			while IFS= read -r a; do set -- "$@" "$a"; done < "$tmp/argv/$n"
			cd "$tmp" && exec env -i PATH="$PATH" HOME="$tmp" LC_ALL=C PAGER=cat PERF_PAGER=cat \
				PERF_CONFIG_NOSYSTEM=1 PERF_CPUID="$cpuid" PMUKIT_ORACLE_OUT="$tmp/shim.$n.jsonl" \
				PMUKIT_ORACLE_MAX_PRECISE="$maxp" PMUKIT_ORACLE_CORE_TYPES="$types" \
				LD_PRELOAD="$shim" "$@"
		) > /dev/null 2> "$out/$id.err" < /dev/null
		echo $? > "$out/$id.rc"
	done < "$tmp/plan"
' sh "$tmp" "$out" "$shim" 2> "$tmp/ns.err"
rc=$?
case $rc in
0) ;;
90|91|92|93) skip "namespace setup failed (step $rc): $(head -3 "$tmp/ns.err")" ;;
*) echo "$me: namespace script failed (exit $rc): $(head -3 "$tmp/ns.err")" >&2; exit 1 ;;
esac

# Sort the shim lines of every job into events and the rest.
perl -MJSON::PP -e '
use strict; use warnings; no warnings "portable";
my $out = shift;
open my $post, "<", shift or die;
while (my $job = <$post>) {
	chomp $job;
	my ($id, $mode, $names_dummy, $shimlog) = split /\t/, $job;
	my $rcf = "$out/$id.rc";
	open my $rfh, "<", $rcf or next;
	my $rc = <$rfh> // ""; chomp $rc; close $rfh;
	next if $rc eq "2";
	my $fail = sub {
		my ($msg) = @_;
		my $err = "";
		if (open my $e, "<", "$out/$id.err") { local $/; $err = <$e> // ""; }
		$err = join "", grep { !/^Invalid CPUID/ } split /^/, $err;
		open my $e, ">", "$out/$id.err" or die;
		print $e "perf_attr.sh: $msg\n$err";
		open my $r, ">", $rcf or die; print $r "1\n";
		open my $o, ">", "$out/$id.out"; close $o;
	};
	if ($rc ne "0") { $fail->("perf $mode refused the spec (exit $rc):"); next; }
	my (@lines, %closed_at, @opens);
	if (open my $fh, "<", $shimlog) {
		while (my $l = <$fh>) {
			chomp $l;
			push @lines, $l;
			my $o = eval { decode_json($l) } or die "perf_attr.sh: bad shim line: $l\n";
			if (exists $o->{close}) { $closed_at{$o->{close}} //= $#lines; next; }
			die "perf_attr.sh: shim: $o->{error}\n" if $o->{error};
			$l =~ /"attr":(\{.*\})\}$/ or die "perf_attr.sh: no attr in: $l\n";
			$o->{raw_attr} = $1;
			$o->{line} = $#lines;
			push @opens, $o;
		}
	}
	if (!@opens) { $fail->("perf opened nothing (is the shim loaded?)"); next; }
	my $last_open = $opens[-1]{line};
	my %pids;
	for my $o (@opens) {
		if (defined $o->{errno}) { $o->{role} = "refused"; next; }
		# closed before a later open, or opened on perf itself (pid 0: the workload is a child)
		if ((defined $closed_at{$o->{open}} && $closed_at{$o->{open}} < $last_open) || $o->{pid} == 0) {
			$o->{role} = "probe"; next;
		}
		$pids{$o->{pid}}++ if $o->{pid} > 0;
	}
	my ($wpid) = sort { $pids{$b} <=> $pids{$a} } keys %pids;
	my (@ev, %ev_of);	# events; open index -> event index
	for my $o (@opens) {
		next if $o->{role};
		my $a = $o->{attr};
		my $dummy = $a->{type} == 1 && hex($a->{config}) == 9;
		if ($mode eq "record" && defined $wpid && $o->{pid} == -1 && $dummy && $a->{bpf_event}) {
			$o->{role} = "sideband"; next;
		}
		if ($mode eq "record" && !$names_dummy && $dummy) { $o->{role} = "tracking"; next; }
		my $lead = (!defined $o->{leader} || $o->{leader} < 0) ? undef : $ev_of{$o->{leader}};
		# the same event on another CPU: same attr, task and group, a CPU not seen yet
		if (@ev) {
			my $e = $ev[-1];
			my $elead = $e->{leader} == $#ev ? -1 : $e->{leader};
			if ($e->{raw_attr} eq $o->{raw_attr} && $e->{pid} == $o->{pid} &&
			    (defined $lead ? $lead : -1) == $elead && !grep { $_ == $o->{cpu} } @{$e->{cpus}}) {
				push @{$e->{cpus}}, $o->{cpu};
				$ev_of{$o->{open}} = $#ev;
				$o->{role} = "dup";
				next;
			}
		}
		$o->{role} = "event";
		push @ev, { raw_attr => $o->{raw_attr}, pid => $o->{pid}, cpus => [ $o->{cpu} ],
			    leader => defined $lead ? $lead : scalar @ev };
		$ev_of{$o->{open}} = $#ev;
	}
	open my $ofh, ">", "$out/$id.out" or die;
	for my $i (0 .. $#ev) {
		my $e = $ev[$i];
		printf $ofh "{\"event\":%d,\"leader\":%d,\"per_task\":%d,\"cpus\":[%s],\"attr\":%s}\n",
			$i, $e->{leader}, $e->{pid} > 0 ? 1 : 0, join(",", @{$e->{cpus}}), $e->{raw_attr};
	}
	close $ofh;
	open my $lfh, ">", "$out/$id.log" or die;
	my %role = map { $_->{line} => $_->{role} } @opens;
	for my $k (0 .. $#lines) {
		my $l = $lines[$k];
		$l =~ s/^\{/{"role":"$role{$k}",/ if $role{$k};
		print $lfh "$l\n";
	}
	close $lfh;
}
' "$out" "$tmp/post" || exit 1

[ -n "$batch" ] && exit 0
rc=$(cat "$out/one.rc")
[ -n "$log" ] && [ -f "$out/one.log" ] && cp "$out/one.log" "$log"
if [ "$rc" != 0 ]; then
	head -20 "$out/one.err" >&2
	exit "$rc"
fi
cat "$out/one.out"
