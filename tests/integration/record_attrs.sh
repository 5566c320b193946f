#!/bin/sh
# record_attrs.sh — the attrs `pmukit record` opens are perf 6.1's (TAP). For
# each set of options, `perf record -vv OPTIONS` (run for real on software
# events) prints every perf_event_attr it opens; `pmukit record -v OPTIONS`
# prints the attrs it opened as JSON. Both are normalised to perf's
# "field value" lines (non-zero fields, sample_type/read_format by bit
# name) and must be equal, event by event, the tracking dummy included
# (perf's side-band dummy, pid -1 with bpf_event and watermark, is perf's
# own and left out). Then `pmukit explain --json --mode record` with the
# same options prints the same attrs as record opened (one encoder).
# Skips when perf 6.1 is not installed or perf_event_open is unavailable.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"

if ! command -v perf >/dev/null 2>&1 || ! perf --version 2>/dev/null | grep -q "^perf version 6\.1\."; then
	echo "1..0 # SKIP perf 6.1 not installed"
	exit 0
fi
if ! perf record -q -o "$T_TMP/probe.data" -e cpu-clock true >/dev/null 2>&1; then
	echo "1..0 # SKIP perf record cannot sample here"
	exit 0
fi

# perf -vv's attr blocks -> one "field value" line each, blocks separated by "--"
cat > "$T_TMP/perf_norm.pl" <<'EOF'
my ($in, @ev, $cur) = (0);
while (<>) {
	if (/^perf_event_attr:/) { $in = 1; $cur = []; next }
	if (/^-{20,}/) { if ($in && $cur && @$cur) { push @ev, $cur } $in = 0; $cur = undef; next }
	next unless $in && /^\s+(\S.*?)\s{2,}(\S+)\s*$/;
	my ($k, $v) = ($1, $2);
	$v = join "|", sort split /\|/, $v if $k eq "sample_type" || $k eq "read_format";
	push @$cur, "$k $v";
}
# perf's side-band event: a dummy that only watches BPF (watermark, bpf_event, no sampling)
@ev = grep { my %h = map { /^(.*) (\S+)$/ } @$_; !($h{config} eq "0x9" && $h{watermark} && $h{bpf_event} && !$h{mmap}) } @ev;
# perf prints an attr again for every retry: keep one per event as opened (the last of a run)
print join("\n", sort @$_), "\n--\n" for @ev;
EOF
cat > "$T_TMP/pmukit_norm.pl" <<'EOF'
use JSON::PP;
my @st = qw(IP TID TIME ADDR READ CALLCHAIN ID CPU PERIOD STREAM_ID RAW BRANCH_STACK REGS_USER
	STACK_USER WEIGHT DATA_SRC IDENTIFIER TRANSACTION REGS_INTR PHYS_ADDR AUX CGROUP
	DATA_PAGE_SIZE CODE_PAGE_SIZE WEIGHT_STRUCT);
my @rf = qw(TOTAL_TIME_ENABLED TOTAL_TIME_RUNNING ID GROUP LOST);
sub bits { my ($v, $n) = @_; join "|", sort map { $n->[$_] // sprintf("0x%x", 1 << $_) } grep { $v & (1 << $_) } 0..63 }
my @bs = qw(USER KERNEL HV ANY ANY_CALL ANY_RET IND_CALL ABORT_TX IN_TX NO_TX COND CALL_STACK IND_JUMP
	CALL NO_FLAGS NO_CYCLES TYPE_SAVE HW_INDEX PRIV_SAVE);
my %hex = map { $_ => 1 } qw(config config1 config2 config3 sample_regs_user sample_regs_intr);
my %alias = (sample_period => "{ sample_period, sample_freq }", sample_freq => "{ sample_period, sample_freq }",
	wakeup_events => "{ wakeup_events, wakeup_watermark }", config1 => "{ bp_addr, config1 }",
	config2 => "{ bp_len, config2 }");
while (<>) {
	next unless /^\{/;
	my $o = decode_json($_);
	my $a = $o->{attr};
	my @l;
	for my $k (keys %$a) {
		my $v = $a->{$k};
		if ($k =~ /^config/) { $v = hex($v); next unless $v; $v = sprintf "0x%x", $v }
		else { next unless $v }
		$v = bits($v, \@st) if $k eq "sample_type";
		$v = bits($v, \@rf) if $k eq "read_format";
		$v = join "|", map { $bs[$_] } grep { $v & (1 << $_) } 0..$#bs if $k eq "branch_sample_type";
		$v = sprintf "0x%x", $v if $hex{$k} && $k !~ /^config/;
		push @l, ($alias{$k} // $k) . " $v";
	}
	print join("\n", sort @l), "\n--\n";
}
EOF

cases='-e cpu-clock
-e task-clock -c 10000
-e cpu-clock -F 999
-e cpu-clock -g
-e cpu-clock --call-graph dwarf
-e cpu-clock --call-graph dwarf,4096
-e cpu-clock -d
-e cpu-clock -W
-e cpu-clock --sample-cpu
-e cpu-clock -i
-e {cpu-clock,page-faults}:S
-e cpu-clock -e page-faults
-e sched:sched_switch
-a -e cpu-clock
-a -e cpu-clock -g
-a -e cpu-clock -c 1000
-a -e cpu-clock -d -W
-a -e cpu-clock --call-graph dwarf
-C 0 -e cpu-clock
-p PID -e cpu-clock
-t PID -e cpu-clock -g
-e cpu-clock -s
-e cpu-clock -T
-e cpu-clock --switch-events
-e cpu-clock --all-user
-e cpu-clock --all-kernel -g
-e cpu-clock -D 10
-e cpu-clock -e page-faults -D 10
-a -e cpu-clock --switch-events
-a -e cpu-clock --all-user
-p PID -e cpu-clock -s
-p PID -e cpu-clock -D 10
-a -e cpu-clock -D 10'
# what no PMU here takes (branch stacks): perf -vv's attr before the kernel's no, and explain's
refused='-e cpu-clock -b
-e cpu-clock --branch-filter any,u
-e cpu-clock --branch-filter any_call,k
-e cpu-clock --branch-filter u'

echo "1..$(( $(printf '%s\n' "$cases" | wc -l) * 2 + $(printf '%s\n' "$refused" | wc -l) * 2 ))"
sleep 600 &
SLEEPER=$!
printf '%s\n' "$cases" | while IFS= read -r c; do
	opts=$(printf '%s' "$c" | sed "s/PID/$SLEEPER/")
	case "$opts" in
	-a*|-C*|-p*|-t*) cmd=;;		# a target: no command, stopped by SIGINT
	*) cmd="true";;
	esac
	rm -f "$T_TMP"/p.data* "$T_TMP"/k.data*
	if [ -n "$cmd" ]; then
		# shellcheck disable=SC2086
		perf record -vv -o "$T_TMP/p.data" $opts -- $cmd > "$T_TMP/perf.out" 2>&1
		# shellcheck disable=SC2086
		"$PMUKIT" record -v -q -o "$T_TMP/k.data" $opts -- $cmd > "$T_TMP/pmukit.out" 2>&1
	else
		# shellcheck disable=SC2086
		perf record -vv -o "$T_TMP/p.data" $opts > "$T_TMP/perf.out" 2>&1 &
		pp=$!; sleep 0.5; kill -INT $pp; wait $pp
		# shellcheck disable=SC2086
		"$PMUKIT" record -v -q -o "$T_TMP/k.data" $opts > "$T_TMP/pmukit.out" 2>&1 &
		kp=$!; sleep 0.5; kill -INT $kp; wait $kp
	fi
	perl "$T_TMP/perf_norm.pl" "$T_TMP/perf.out" > "$T_TMP/perf.norm"
	perl "$T_TMP/pmukit_norm.pl" "$T_TMP/pmukit.out" > "$T_TMP/pmukit.norm"
	T_N=$((T_N + 1))
	if [ -s "$T_TMP/perf.norm" ] && cmp -s "$T_TMP/perf.norm" "$T_TMP/pmukit.norm"; then
		echo "ok $T_N - record $c: attrs as perf 6.1 opens them"
	else
		echo "not ok $T_N - record $c: attrs as perf 6.1 opens them"
		diff "$T_TMP/perf.norm" "$T_TMP/pmukit.norm" | sed 's/^/# /' | head -30
		grep -v '^{' "$T_TMP/pmukit.out" | sed 's/^/# pmukit: /' | head -5
	fi
	# explain --mode record, same options (target words are options too): the same attrs
	# shellcheck disable=SC2086
	"$PMUKIT" explain --json --mode record $opts > "$T_TMP/explain.json" 2> "$T_TMP/explain.err"
	perl -MJSON::PP -e '
		my ($ej, $rec) = @ARGV;
		local $/; open my $f, "<", $ej or die; my $e = decode_json(<$f>);
		open my $g, "<", $rec or die; my @r = map { decode_json($_) } grep { /^\{/ } split /\n/, <$g>;
		my $j = JSON::PP->new->canonical;
		my $bad = 0;
		for my $i (0..$#$e) {
			my $x = $j->encode($e->[$i]{attr}); my $y = $r[$i] ? $j->encode($r[$i]{attr}) : "none";
			if ($x ne $y) { print "# event $i explain $x\n# event $i record  $y\n"; $bad = 1 }
		}
		$bad = 1 unless @$e;
		exit $bad' "$T_TMP/explain.json" "$T_TMP/pmukit.out" > "$T_TMP/cmp.out"
	rc=$?
	T_N=$((T_N + 1))
	if [ $rc = 0 ]; then
		echo "ok $T_N - explain --mode record $c: the attrs record opened"
	else
		echo "not ok $T_N - explain --mode record $c: the attrs record opened"
		cat "$T_TMP/cmp.out" "$T_TMP/explain.err" | head -10
	fi
done
T_N=$(( $(printf '%s\n' "$cases" | wc -l) * 2 ))
printf '%s\n' "$refused" | while IFS= read -r c; do
	# shellcheck disable=SC2086
	perf record -vv -o "$T_TMP/p.data" $c -- true > "$T_TMP/perf.out" 2>&1
	prc=$?
	# shellcheck disable=SC2086
	"$PMUKIT" record -q -o "$T_TMP/k.data" $c -- true > /dev/null 2> "$T_TMP/k.err"
	krc=$?
	T_N=$((T_N + 1))
	if [ $prc = $krc ] && [ $prc != 0 ] && grep -v '^  *' "$T_TMP/perf.out" | grep -A1 '^Error:' > "$T_TMP/p.err2" &&
	   cmp -s "$T_TMP/p.err2" "$T_TMP/k.err"; then
		echo "ok $T_N - record $c: refused as perf 6.1 refuses it (exit $prc, its words)"
	else
		echo "not ok $T_N - record $c: perf exit $prc, pmukit $krc"
		sed 's/^/# /' "$T_TMP/k.err" | head -3
	fi
	perl "$T_TMP/perf_norm.pl" "$T_TMP/perf.out" | sed '/^--$/q' > "$T_TMP/perf.norm"
	# shellcheck disable=SC2086
	"$PMUKIT" explain --json --mode record $c | perl -MJSON::PP -e 'local $/; my $j = JSON::PP->new->canonical;
		print $j->encode($_), "\n" for @{decode_json(<STDIN>)}' |
		perl "$T_TMP/pmukit_norm.pl" | sed '/^--$/q' > "$T_TMP/pmukit.norm"
	T_N=$((T_N + 1))
	if [ -s "$T_TMP/perf.norm" ] && cmp -s "$T_TMP/perf.norm" "$T_TMP/pmukit.norm"; then
		echo "ok $T_N - explain --mode record $c: the attr perf 6.1 tries"
	else
		echo "not ok $T_N - explain --mode record $c: the attr perf 6.1 tries"
		diff "$T_TMP/perf.norm" "$T_TMP/pmukit.norm" | sed 's/^/# /' | head -10
	fi
done
kill $SLEEPER 2>/dev/null
wait 2>/dev/null
exit 0
