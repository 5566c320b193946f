#!/bin/sh
# damaged_files.sh — perf.data that perf 6.1 left unfinished or that was cut, read as
# perf reads them (issue 18): the samples before the damage, one warning on stderr
# naming its offset, exit 0; never a crash; a refusal only when nothing is left.
#  - a pipe stream cut short (a full disk), plain and compressed (-z): perf reads the
#    records before the cut; script and report --stdio line for line against perf's;
#  - a file whose feature table or a feature section is cut: perf keeps the features
#    before the cut and reads every sample; the same against perf;
#  - a file left by `perf record` killed with -9 (data size 0 in its header) and a
#    file cut inside its data: perf 6.1 reads neither ("data size field is 0" then
#    nothing; "failed to process type: 0"); pmukit reads the records up to the last
#    whole one, compared with perf on a copy whose header is repaired to exactly those
#    records (docs/PERF-DIFFERENCES.md);
#  - a file cut inside its attrs: refused with a message naming the offset;
#  - tracing data whose last printk-format line has no ':' (libtraceevent read past
#    the text there, an ASan finding under `make check SANITIZE=1`): such lines are
#    dropped before libtraceevent parses them; script as perf's.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
W="${PMUKIT_BUILD:-build}/tests/workloads/report_many"
N=22
echo "1..$N"
if ! command -v perf >/dev/null 2>&1 || ! perf version >/dev/null 2>&1 || [ ! -x "$W" ]; then
	i=1
	while [ $i -le $N ]; do echo "ok $i # SKIP perf or the workload missing"; i=$((i + 1)); done
	exit 0
fi
D=$T_TMP
cd "$D" || exit 1

# repair IN OUT: the header of a cut or killed file set to its whole records (data size
# up to the last whole record, no features), the bytes after them dropped
repair() {
	perl -e 'my ($in, $out) = @ARGV; open(my $f, "<:raw", $in) or die; local $/; my $b = <$f>;
		my ($doff) = unpack("Q<", substr($b, 40, 8)); my $pos = $doff;
		while ($pos + 8 <= length($b)) {
			my $sz = unpack("S<", substr($b, $pos + 6, 2));
			last if $sz < 8 || $pos + $sz > length($b);
			$pos += $sz;
		}
		substr($b, 48, 8) = pack("Q<", $pos - $doff); substr($b, 72, 32) = "\0" x 32;
		open(my $o, ">:raw", $out) or die; print $o substr($b, 0, $pos);' "$1" "$2"
}
# same CMD FILE [ORACLE_FILE] ARGS...: perf on ORACLE_FILE (or FILE) and pmukit on FILE print
# the same (report: --stdio, perf's tip left out); pmukit exits 0
same() {
	cmd=$1 f=$2 o=$3; shift 3
	if [ "$cmd" = report ]; then
		perf report --stdio -i "$o" "$@" 2>/dev/null | grep -v '^# (Tip:' >perf.out
		"$PMUKIT" report --stdio -i "$f" "$@" 2>pmukit.err | grep -v '^# (Tip:' >pmukit.out
	else
		perf script -i "$o" "$@" 2>/dev/null >perf.out
		"$PMUKIT" script -i "$f" "$@" 2>pmukit.err >pmukit.out || { cat pmukit.err >&2; return 1; }
	fi
	[ "$(grep -c . perf.out)" -gt 3 ] || { echo "perf printed too little" >&2; return 1; }
	diff perf.out pmukit.out >diff.out || { head -20 diff.out >&2; cat pmukit.err >&2; return 1; }
}
# warned FILE TEXT: pmukit script says, once, on stderr, the offset and TEXT
warned() {
	"$PMUKIT" script -i "$1" >/dev/null 2>w.err || return 1
	[ "$(grep -c '^Warning: ' w.err)" = 1 ] || { cat w.err >&2; return 1; }
	grep -q "^Warning: $1: offset 0x[0-9a-f]*: .*$2" w.err || { cat w.err >&2; return 1; }
}
cut_at() { head -c "$2" "$1" >"$3"; }
size() { wc -c <"$1"; }

# 1. a pipe cut short, inside a record (a full disk), plain and compressed
perf record -q -e cpu-clock -c 100000 -g -o - "$W" 3000 >pipe.data 2>/dev/null
cut_at pipe.data $(( $(size pipe.data) * 2 / 3 + 3 )) pipecut.data
ok "pipe cut short: script as perf's" same script pipecut.data pipecut.data
ok "pipe cut short: report as perf's" same report pipecut.data pipecut.data
ok "pipe cut short: one warning naming the offset" warned pipecut.data "the data ends inside a record"
ok "pipe cut short, read from stdin: script as perf's" sh -c \
	"perf script -i - <pipecut.data >a.out 2>/dev/null; '$PMUKIT' script -i - <pipecut.data >b.out 2>/dev/null && cmp a.out b.out"
perf record -q -z -e cpu-clock -c 20000 -g -o - "$W" 3000 >pipez.data 2>/dev/null
# cut in the middle of the last COMPRESSED record (the ones before it hold samples)
zcut=$(perl -e 'open(my $f, "<:raw", $ARGV[0]); local $/; my $b = <$f>; my ($p, $last) = (16, 0);
	while ($p + 8 <= length $b) { my ($t) = unpack("L<", substr($b, $p, 4));
		my $s = unpack("S<", substr($b, $p + 6, 2)); last if $s < 8;
		$last = $p + int($s / 2) if $t == 81; $p += $s }
	print $last' pipez.data)
cut_at pipez.data "$zcut" pipezcut.data
ok "compressed pipe cut short: script as perf's" same script pipezcut.data pipezcut.data
ok "compressed pipe cut short: report as perf's" same report pipezcut.data pipezcut.data

# 2. the features cut: the table itself, then the last sections
perf record -q -e cpu-clock -c 100000 -g -o full.data "$W" 3000 2>/dev/null
feat=$(perl -e 'open(my $f, "<:raw", $ARGV[0]); read($f, my $h, 56); my ($o, $s) = unpack("Q<Q<", substr($h, 40, 16)); print $o + $s' full.data)
cut_at full.data $((feat + 20)) tabcut.data
ok "feature table cut: script as perf's" same script tabcut.data tabcut.data
ok "feature table cut: report as perf's" same report tabcut.data tabcut.data
ok "feature table cut: one warning naming the offset" warned tabcut.data "the feature table"
cut_at full.data $(( $(size full.data) - 300 )) seccut.data
ok "feature section cut: script as perf's" same script seccut.data seccut.data
ok "feature section cut: report as perf's" same report seccut.data seccut.data
ok "feature section cut: one warning naming the offset" warned seccut.data "is outside the file"
# perf 6.1 crashes here (SIGSEGV); pmukit prints the features before the cut
ok "feature section cut: --header-only prints the features before it" sh -c \
	"'$PMUKIT' report --header-only -i seccut.data 2>/dev/null | grep -q '^# hostname : '"

# 3. perf record killed with -9 (the workload ends by itself) and a file cut in its data
timeout -s KILL 2 perf record -q -m 8 -e cpu-clock -c 10000 -o killed.data -- \
	sh -c 'i=0; while [ $i -lt 3000000 ]; do i=$((i+1)); done' 2>/dev/null
repair killed.data killed.fixed.data
ok "killed perf: the header says data size 0" sh -c \
	"perf report --header-only -i killed.data 2>/dev/null | grep -q '^# data size      : 0$'"
ok "killed perf: script as perf's on the repaired copy" same script killed.data killed.fixed.data
ok "killed perf: report as perf's on the repaired copy" same report killed.data killed.fixed.data
ok "killed perf: one warning naming the offset" warned killed.data "data size is 0 (was perf record killed?)"
cut_at full.data $(( $(size full.data) / 2 + 5 )) datacut.data
repair datacut.data datacut.fixed.data
ok "file cut in its data: script as perf's on the repaired copy" same script datacut.data datacut.fixed.data
ok "file cut in its data: report as perf's on the repaired copy" same report datacut.data datacut.fixed.data
ok "file cut in its data: one warning naming the offset" warned datacut.data "the file ends inside its data section"

# 4. nothing to recover: cut inside the attrs
cut_at full.data 120 attrcut.data
fails "cut inside the attrs: refused" "$PMUKIT" script -i attrcut.data

# 5. a printk-format line without ':' at the end of the tracing data
if perf record -q -e sched:sched_switch -o tp.data -a -- "$W" 300 2>/dev/null >/dev/null; then
	perl -e 'open(my $f, "<:raw", "tp.data"); local $/; my $b = <$f>; my $last;
		while ($b =~ /0x[0-9a-f]+( : )"[^\n]*\n/g) { $last = $-[1] }
		defined $last or die "no printk formats"; substr($b, $last, 3) = "   ";
		open(my $o, ">:raw", "tpbad.data"); print $o $b' &&
	ok "printk format without ':': script as perf's" same script tpbad.data tpbad.data
else
	T_N=$((T_N + 1)); echo "ok $T_N # SKIP no tracepoint recording"
fi
exit $T_FAIL
