#!/bin/sh
# list_het.sh — `pmukit list` on fake heterogeneous arm64 machines (two PMUv3
# clusters with different MIDRs, ACPI and devicetree names) and their sys
# PMUs (CMN, HiSilicon CPA), against an independent perl reader of the vendor
# JSON and the rules of perf 6.12 (tools/perf/util/pmus.c, pmu.c,
# metricgroup.c, arch/arm64/util/pmu.c):
# - each core PMU lists the events of the table of its CPUs' MIDR, named by
#   the event, with that PMU as its unit;
# - `perf list` without -v takes PMUs whose names differ only by an instance
#   suffix once (the first cluster); -v and --json list every core PMU;
# - a sys event is listed once per (event, table PMU) when a PMU's identifier
#   matches its Compat, a sys metric when any PMU's identifier does;
# - no core metrics on a heterogeneous arm64 machine;
# - PERF_CPUID (--cpuid) names the CPU of every PMU.
. "$(dirname "$0")/lib/tap.sh"
L="$SRC/tests/integration/lib"
FX="$SRC/tests/fixtures"
H="$FX/sysfs/arm64-het"		# armv8_pmuv3_0 (cpus 0-3), armv8_pmuv3_1 (4-7)
D="$FX/sysfs/arm64-dt-het"	# armv8_cortex_a55, armv8_cortex_a77, two CMNs
C="$FX/cpu/arm64-biglittle"	# cpus 0-3 Cortex-A55, 4-7 Cortex-A77
echo "1..22"

# The oracle: "event NAME PMU" and "metric NAME" lines perf 6.12 lists for a
# tree, from the JSON files themselves. Core PMUs are given as PMU=MODEL.
cat > "$T_TMP/oracle.pl" <<'EOF'
use strict;
use warnings;
use JSON::PP;
my ($root, $tree, @core) = @ARGV;
my $json = JSON::PP->new->relaxed;
sub load { local $/; open(my $f, '<', $_[0]) or die "$_[0]: $!"; return $json->decode(<$f>); }
sub slurp { open(my $f, '<', $_[0]) or return undef; my $s = <$f>; $s =~ s/\s+$// if defined $s; return $s; }
my %std;
for my $f (glob "$root/arm64/*.json") { $std{lc $_->{EventName}} = $_ for grep { $_->{EventName} } @{ load($f) } }
my %out;
for my $pair (@core) {	# core events: every entry of the model without a Unit
	my ($pmu, $model) = split /=/, $pair;
	for my $f (grep { !/metricgroups\.json$/ } glob "$root/arm64/$model/*.json") {
		for my $e (@{ load($f) }) {
			my $name = $e->{EventName} // ($e->{ArchStdEvent} && $std{lc $e->{ArchStdEvent}}{EventName});
			next if !$name || $e->{Unit} || ($e->{Deprecated} // '0') eq '1';
			$out{"event " . lc($name) . " $pmu"} = 1;
		}
	}
}
# Uncore PMUs with an identifier.
my %id;
opendir(my $d, $tree) or die;
for my $p (readdir $d) {
	next if $p =~ /^\./ || !-e "$tree/$p/cpumask";
	my $i = slurp("$tree/$p/identifier");
	$id{$p} = $i if defined $i;
}
# jevents' Unit -> PMU name; then perf's match: name, or name + instance suffix;
# "a,b": the tokens in order, the last one ending the name up to a suffix.
my %keep = map { $_ => 1 } ('hisi_sicl,cpa', 'hisi_sccl,ddrc', 'hisi_sccl,hha', 'hisi_sccl,l3c',
			    'imx8_ddr', 'imx9_ddr', 'ali_drw', 'arm_cmn');
sub table_pmu { my $u = shift; return $keep{$u} ? $u : 'uncore_' . lc $u; }
sub suffix_ok { my $s = shift; $s =~ s/^_//; return $s eq '' || $s =~ /^\d+$/ || $s =~ /^[0-9a-fA-F]{3,}$/; }
sub unit_ok {
	my ($name, $unit) = @_;
	my @tok = split /,/, $unit;
	my $at = 0;
	for my $k (0 .. $#tok) {
		my $hit = index($name, $tok[$k], $at);
		return 0 if $hit < 0;
		return suffix_ok(substr($name, $hit + length $tok[$k])) if $k == $#tok;
		$at = $hit + length $tok[$k];
	}
	return 0;
}
sub compat_ok { my ($re, $id) = @_; return $id =~ /^(?:$re)$/; }
for my $f (glob "$root/arm64/*/*/sys/*.json $root/arm64/*/sys/*.json") {
	for my $e (@{ load($f) }) {
		next unless $e->{Compat};
		my @m = grep { compat_ok($e->{Compat}, $id{$_}) } sort keys %id;
		if ($e->{MetricName}) {
			$out{"metric $e->{MetricName}"} = 1 if @m && $e->{MetricExpr};
		} elsif ($e->{EventName} && $e->{Unit} && ($e->{Deprecated} // '0') ne '1') {
			my $u = table_pmu($e->{Unit});
			$out{"event " . lc($e->{EventName}) . " $u"} = 1 if grep { unit_ok($_, $u) } @m;
		}
	}
}
print "$_\n" for sort keys %out;
EOF
# pmukit's side: table events as "event NAME PMU", metrics as "metric NAME".
cat > "$T_TMP/got.pl" <<'EOF'
use strict;
use warnings;
use JSON::PP;
local $/;
my $a = JSON::PP->new->decode(<STDIN>);
for my $o (@$a) {
	print "event $o->{name} $o->{pmu}\n" if $o->{kind} eq 'event' && ($o->{type} // '') eq 'table';
	print "metric $o->{name}\n" if $o->{kind} eq 'metric';
}
EOF
oracle() { perl "$T_TMP/oracle.pl" "$ARCH_DIR" "$@" | sort; }
got() { perl "$T_TMP/got.pl" | sort; }

# --- arm64-het: two ACPI-named clusters, their MIDRs under a fake CPU tree ---
ok "het --json: each cluster the events of its own MIDR's table, plus CMN and CPA sys events and metrics" sh -c "
	oracle() { perl '$T_TMP/oracle.pl' '$ARCH_DIR' \"\$@\" | sort; }
	oracle '$H' armv8_pmuv3_0=arm/cortex-a55 armv8_pmuv3_1=arm/cortex-a77 > '$T_TMP/want' &&
	grep -q 'event cpa_cycles hisi_sicl,cpa' '$T_TMP/want' && grep -q 'metric slc_miss_rate' '$T_TMP/want' &&
	'$PMUKIT' list --json --sysfs '$H' --cpu-root '$C' | perl '$T_TMP/got.pl' | sort > '$T_TMP/got' &&
	diff '$T_TMP/want' '$T_TMP/got' >&2"
ok "the tables differ: each has events the other lacks" sh -c "
	grep ' armv8_pmuv3_1\$' '$T_TMP/want' | sed 's/ armv8_pmuv3_1\$//' | sort > '$T_TMP/big' &&
	grep ' armv8_pmuv3_0\$' '$T_TMP/want' | sed 's/ armv8_pmuv3_0\$//' | sort > '$T_TMP/little' &&
	comm -23 '$T_TMP/big' '$T_TMP/little' | sed -n 's/^event //p' > '$T_TMP/bigonly' &&
	comm -13 '$T_TMP/big' '$T_TMP/little' | sed -n 's/^event //p' > '$T_TMP/littleonly' &&
	comm -12 '$T_TMP/big' '$T_TMP/little' | sed -n 's/^event //p' > '$T_TMP/both' &&
	test -s '$T_TMP/bigonly' && test -s '$T_TMP/littleonly' && test -s '$T_TMP/both'"
BIGONLY=$(head -1 "$T_TMP/bigonly")
LITTLEONLY=$(head -1 "$T_TMP/littleonly")

"$PMUKIT" list --sysfs "$H" --cpu-root "$C" > "$T_TMP/text" 2> "$T_TMP/text.err"
"$PMUKIT" list -v --sysfs "$H" --cpu-root "$C" > "$T_TMP/textv" 2>&1
ok "het text: the first cluster's events, its PMU as their unit" sh -c "
	grep -q '^  $LITTLEONLY\$' '$T_TMP/text' && grep -q 'Unit: armv8_pmuv3_0\]' '$T_TMP/text' &&
	test ! -s '$T_TMP/text.err'"
ok "het text: the second cluster is taken as a duplicate of the first, as by perf 6.12 without -v" sh -c "
	grep -q 'Unit: armv8_pmuv3_0\]' '$T_TMP/text' &&
	! grep -q 'armv8_pmuv3_1\]' '$T_TMP/text' && ! grep -q '^  $BIGONLY\$' '$T_TMP/text'"
ok "het -v: every core PMU, an event of both tables once per PMU" sh -c "
	grep -q '^  $BIGONLY\$' '$T_TMP/textv' &&
	for e in \$(cat '$T_TMP/both'); do
		test \$(grep -c \"^  \$e\\\$\" '$T_TMP/textv') -eq 2 || { echo \"\$e not twice\" >&2; exit 1; }
	done &&
	test \$(grep -c '^  $BIGONLY\$' '$T_TMP/textv') -eq 1"
ok "het -v: within a topic one PMU's events, then the other's (perf's order)" sh -c "
	awk '/^[^ ].*:\$/ { t = \$0 } t == \"bus:\" && /^  [a-z]/ { print \$1 }' '$T_TMP/textv' > '$T_TMP/bus' &&
	test \$(sed -n 1p '$T_TMP/bus') = bus_access && test \$(grep -c . '$T_TMP/bus') -ge 4 &&
	test \"\$(sort '$T_TMP/bus' | uniq -d)\" != '' &&
	test \"\$(awk 'NR > 1 && \$0 < prev { n++ } { prev = \$0 } END { print n + 0 }' '$T_TMP/bus')\" = 1"
ok "sys events under their file's topic, named by the event, unit the table PMU" perl -e '
	local $/; open(my $f, "<", shift) or die; my $t = <$f>;
	$t =~ /\ncmn:\n(?:  .*\n|       .*\n)*?  hnf_cache_fill\n       \[([^\]]*)\]/ or die "no hnf_cache_fill under cmn:\n";
	(my $d = $1) =~ s/\s+/ /g;
	$d =~ /^Counts total allocations in HN SLC.* Unit: arm_cmn$/ or die "desc: $d\n";
	$t =~ /\nuncore cpa:\n  cpa_cycles\n       \[count of CPA cycles\. Unit: hisi_sicl/ or die "no cpa_cycles\n";
	' "$T_TMP/text"
ok "a sysfs alias a sys table describes is listed as the table event, not as pmu/event/" sh -c "
	! grep -q 'arm_cmn_0/hnf_cache_miss/' '$T_TMP/text' && grep -q '^  hnf_cache_miss\$' '$T_TMP/text' &&
	grep -q '^  arm_cmn_0/dtc_cycles/ .*\[Kernel PMU event\]' '$T_TMP/text'"
ok "no core metrics on heterogeneous arm64; the sys metrics of present PMUs" sh -c "
	sed -n '/^Metric Groups:/,\$p' '$T_TMP/text' > '$T_TMP/mg' &&
	grep -q '^cmn:' '$T_TMP/mg' && grep -q '^  slc_miss_rate\$' '$T_TMP/mg' &&
	grep -q '^  cpa_p0_avg_bw\$' '$T_TMP/mg' && test \$(grep -c '^  [a-z]' '$T_TMP/mg') -eq \$(grep -c '^metric ' '$T_TMP/want')"
ok "glob: sys events match by name" sh -c "
	'$PMUKIT' list --sysfs '$H' --cpu-root '$C' 'hnf_cache_*' > '$T_TMP/g' &&
	grep -q '^  hnf_cache_fill\$' '$T_TMP/g' && grep -q '^  hnf_cache_miss\$' '$T_TMP/g' &&
	! grep -q '^  cpa_cycles\$' '$T_TMP/g'"
ok "class 'metric': the sys metrics" sh -c "
	'$PMUKIT' list --sysfs '$H' --cpu-root '$C' metric | grep -q '^  slc_miss_rate\$'"
ok "PMUKIT_CPU_ROOT works like --cpu-root" sh -c "
	PMUKIT_CPU_ROOT='$C' '$PMUKIT' list --sysfs '$H' > '$T_TMP/env' && cmp '$T_TMP/text' '$T_TMP/env'"
ok "--cpu-root without CPU identifiers is an error that says so" sh -c "
	! '$PMUKIT' list --sysfs '$H' --cpu-root '$FX/sysfs' > /dev/null 2> '$T_TMP/e' &&
	grep -q 'no CPU identifier' '$T_TMP/e'"

# --cpuid names the CPU of every PMU (perf's PERF_CPUID): both clusters take it.
ok "--cpuid: both clusters list that CPU's table" sh -c "
	oracle() { perl '$T_TMP/oracle.pl' '$ARCH_DIR' \"\$@\" | sort; }
	oracle '$H' armv8_pmuv3_0=arm/neoverse-n1 armv8_pmuv3_1=arm/neoverse-n1 > '$T_TMP/want1' &&
	'$PMUKIT' list --json --sysfs '$H' --cpu-root '$C' --cpuid 0x00000000410fd0c0 |
		perl '$T_TMP/got.pl' | sort > '$T_TMP/got1' &&
	diff '$T_TMP/want1' '$T_TMP/got1' >&2"
ok "--cpuid: a sysfs event the table lacks stays a Kernel PMU event of each cluster" sh -c "
	'$PMUKIT' list --sysfs '$H' --cpuid 0x00000000410fd0c0 > '$T_TMP/n1' &&
	grep -q '^  armv8_pmuv3_0/stall_slot/ ' '$T_TMP/n1' && grep -q '^  armv8_pmuv3_1/stall_slot/ ' '$T_TMP/n1'"

# --- arm64-dt-het: devicetree names, two CMN meshes, a CPA no table matches ---
ok "dt --json: both clusters, each CMN event once for two meshes, nothing for an unmatched identifier" sh -c "
	oracle() { perl '$T_TMP/oracle.pl' '$ARCH_DIR' \"\$@\" | sort; }
	oracle '$D' armv8_cortex_a55=arm/cortex-a55 armv8_cortex_a77=arm/cortex-a77 > '$T_TMP/want2' &&
	! grep -q cpa '$T_TMP/want2' &&
	'$PMUKIT' list --json --sysfs '$D' --cpu-root '$C' | perl '$T_TMP/got.pl' | sort > '$T_TMP/got2' &&
	diff '$T_TMP/want2' '$T_TMP/got2' >&2"
"$PMUKIT" list --sysfs "$D" --cpu-root "$C" > "$T_TMP/dt" 2>&1
ok "dt text: '_a55' and '_a77' are instance suffixes to perf 6.12: the first cluster only" sh -c "
	grep -q 'Unit: armv8_cortex_a55\]' '$T_TMP/dt' && ! grep -q 'armv8_cortex_a77\]' '$T_TMP/dt' &&
	! grep -q '^  $BIGONLY\$' '$T_TMP/dt'"
ok "dt text: each CMN event once" sh -c "test \$(grep -c '^  hnf_cache_fill\$' '$T_TMP/dt') -eq 1"
ok "dt --json: the CMN sysfs alias the table describes is in neither mesh's Kernel PMU events" sh -c "
	'$PMUKIT' list --json --sysfs '$D' --cpu-root '$C' > '$T_TMP/dtj' &&
	! grep -q 'arm_cmn_[01]/hnf_cache_miss/' '$T_TMP/dtj' && grep -q 'arm_cmn_1/dtc_cycles/' '$T_TMP/dtj'"

# --- the machine's own tables are unchanged where no core PMU is in the tree ---
ok "tree without a core PMU: the machine's core events stand in for it, without a unit" sh -c "
	'$PMUKIT' list --sysfs '$FX/sysfs/vm-nocore' --cpuid skylakex > '$T_TMP/x' &&
	grep -q '^  l1d.replacement\$' '$T_TMP/x' && ! grep -q 'Unit: cpu' '$T_TMP/x' &&
	grep -q 'Unit: uncore_imc\]' '$T_TMP/x' && ! grep -q 'Unit: uncore_cha' '$T_TMP/x'"
ok "x86 tree with core PMU cpu: its events, with cpu as their unit (perf 6.12)" sh -c "
	'$PMUKIT' list --sysfs '$FX/sysfs/x86-skl' --cpuid skylakex 'l1d.replacement' > '$T_TMP/y' &&
	grep -q 'Unit: cpu\]' '$T_TMP/y'"
ok "x86 tree: uncore events once per table PMU" sh -c "
	'$PMUKIT' list --json --sysfs '$FX/sysfs/x86-skl' --cpuid skylakex | perl '$T_TMP/got.pl' > '$T_TMP/z' &&
	test \$(grep -c ' uncore_cha\$' '$T_TMP/z') -gt 0 && test -z \"\$(sort '$T_TMP/z' | uniq -d)\""
[ $T_FAIL -eq 0 ]
