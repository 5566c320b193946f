#!/bin/sh
# data_write.sh — perf.data files from the writer (built by tests/oracle/data_gen)
# read by perf 6.1 (TAP): pipe mode through a shell pipe into `perf report -i -`
# and `perf script -i -`, zstd compression (smaller, same samples, file and
# pipe), a writer killed in the middle, and a full disk: a 256 KiB tmpfs in a
# private mount namespace, where the writer reports ENOSPC with a message and
# perf reads every sample whose write succeeded.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
G="${PMUKIT_BUILD:-build}/tests/data_gen"
export G T_TMP

echo "1..10"
if ! command -v perf >/dev/null 2>&1 || ! perf --version >/dev/null 2>&1; then
	i=0; while [ $i -lt 10 ]; do i=$((i + 1)); echo "ok $i - data_write # SKIP perf (6.1) is not installed"; done
	exit 0
fi
if [ ! -x "$G" ]; then
	i=0; while [ $i -lt 10 ]; do i=$((i + 1)); echo "ok $i - data_write # SKIP $G not built (make tests)"; done
	exit 0
fi

# "SAMPLE events: N" of perf report -D: $T_TMP/samples FILE
cat > "$T_TMP/samples" <<'EOF'
perf report -D -i "$1" 2>/dev/null | sed -n 's/^ *SAMPLE events: *//p' | head -1 | cut -d' ' -f1
EOF
chmod +x "$T_TMP/samples"

ok "pipe: perf report -i - reads the samples and the functions" sh -c '
	"$G" --pipe --samples 1000 - 2>/dev/null | perf report -i - --stdio > "$T_TMP/r" 2>/dev/null
	grep -q "Samples: 1000  of event .cpu-clock." "$T_TMP/r" &&
	grep -q "50.00%  datagen  data_gen       \[\.\] gen_alpha" "$T_TMP/r" &&
	grep -q "50.00%  datagen  data_gen       \[\.\] gen_beta" "$T_TMP/r" || { cat "$T_TMP/r" >&2; exit 1; }'

ok "pipe: perf script -i - prints every sample with its period" sh -c '
	"$G" --pipe --samples 1000 - 2>/dev/null | perf script -F period,ip,sym -i - > "$T_TMP/s" 2>/dev/null
	n=$(grep -c "gen_" "$T_TMP/s"); [ "$n" = 1000 ] || { echo "$n lines" >&2; exit 1; }
	# period 1000 + i % 7: 143 samples of each of 1000..1005, 142 of 1006
	[ "$(grep -c "^ *1006 " "$T_TMP/s")" = 142 ] && [ "$(grep -c "^ *1000 " "$T_TMP/s")" = 143 ]'

ok "-z: compressed file is smaller than the raw data, same samples" sh -c '
	"$G" --samples 20000 "$T_TMP/u.data" 2> "$T_TMP/u.err" &&
	"$G" -z 1 --samples 20000 "$T_TMP/z.data" 2> "$T_TMP/z.err" || exit 1
	u=$(wc -c < "$T_TMP/u.data"); z=$(wc -c < "$T_TMP/z.data")
	echo "raw $u bytes, compressed $z bytes; $(cat "$T_TMP/z.err")" >&2
	[ $((z * 4)) -lt "$u" ] || exit 1
	set -- $(cat "$T_TMP/z.err"); [ "$2" -gt $(($4 * 4)) ] || exit 1
	[ "$("$T_TMP/samples" "$T_TMP/z.data")" = 20000 ] && [ "$("$T_TMP/samples" "$T_TMP/u.data")" = 20000 ]'

ok "-z: perf report prints HEADER_COMPRESSED" sh -c '
	perf report --header-only -i "$T_TMP/z.data" 2>/dev/null | grep -q "^# compressed : Zstd, level = 1, ratio = [1-9]"'

ok "-z in a pipe: perf script -i - reads it" sh -c '
	n=$("$G" -z 3 --pipe --samples 20000 - 2>/dev/null | perf script -i - 2>/dev/null | grep -c gen_)
	[ "$n" = 20000 ] || { echo "$n samples" >&2; exit 1; }'

ok "killed before finish(): every sample written is read" sh -c '
	"$G" --kill-after 777 --round 0 "$T_TMP/k.data" 2>/dev/null
	n=$("$T_TMP/samples" "$T_TMP/k.data"); [ "$n" = 777 ] || { echo "$n samples" >&2; exit 1; }'

ok "killed before finish(), compressed: the rounds flushed are read" sh -c '
	"$G" -z 1 --kill-after 777 --round 100 "$T_TMP/kz.data" 2>/dev/null
	n=$("$T_TMP/samples" "$T_TMP/kz.data"); [ "$n" = 700 ] || { echo "$n samples" >&2; exit 1; }'

# --- a full disk ---------------------------------------------------------------------------
full() {	# full NAME ARGS... — data_gen into a 256 KiB tmpfs; output in $T_TMP/NAME.*
	name=$1; shift
	mkdir -p "$T_TMP/mnt"
	unshare -m sh -c 'mnt=$1; out=$2; shift 2
		mount -t tmpfs -o size=256k none "$mnt" || exit 1
		"$G" "$@" "$mnt/f.data" 2> "$out.err"; echo $? > "$out.rc"
		cp "$mnt/f.data" "$out.data"' sh "$T_TMP/mnt" "$T_TMP/$name" "$@"
}
mkdir -p "$T_TMP/probe"
if ! unshare -m sh -c 'mount -t tmpfs -o size=64k none "$0"' "$T_TMP/probe" 2>/dev/null; then
	why="cannot mount a tmpfs in a private mount namespace (needs root)"
	echo "ok 8 - disk full # SKIP $why"; echo "ok 9 - disk full # SKIP $why"
	echo "ok 10 - disk full # SKIP $why"
	[ "$T_FAIL" = 0 ]; exit
fi
full nospace --samples 20000
ok "disk full: ENOSPC reported with a message, exit 1" sh -c '
	cat "$T_TMP/nospace.err" >&2
	[ "$(cat "$T_TMP/nospace.rc")" = 1 ] &&
	grep -q "^data_gen: write sample: writing perf.data: No space left on device (.* bytes written" "$T_TMP/nospace.err"'

ok "disk full: perf reads every sample whose write succeeded" sh -c '
	w=$(sed -n "s/^data_gen: samples written //p" "$T_TMP/nospace.err")
	n=$("$T_TMP/samples" "$T_TMP/nospace.data"); echo "$w written, $n read" >&2
	[ -n "$w" ] && [ "$w" -gt 1000 ] && [ "$n" = "$w" ] &&
	perf report -i "$T_TMP/nospace.data" --stdio > /dev/null 2>&1'

full nospacez -z 1 --samples 400000
ok "disk full, compressed: perf reads the chunks that reached the disk" sh -c '
	cat "$T_TMP/nospacez.err" >&2
	grep -q "No space left on device" "$T_TMP/nospacez.err" || exit 1
	n=$("$T_TMP/samples" "$T_TMP/nospacez.data"); echo "$n read" >&2
	[ -n "$n" ] && [ "$n" -gt 10000 ] &&
	perf report --header-only -i "$T_TMP/nospacez.data" 2>/dev/null | grep -q "^# compressed : Zstd"'

[ "$T_FAIL" = 0 ]
