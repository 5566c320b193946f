#!/bin/sh
# cmd_options.sh — the option tables of record, stat, explain, list and check
# (src/cli-opts.c): --help is generated from the table and lists every option
# the command takes (each one listed is accepted, none is missing); perf's
# parse_options rules where getopt had others (abbreviations, --no-NAME,
# -z5); bad options give perf 6.1's exit status and first line on stderr.
. "$(dirname "$0")/lib/tap.sh"
echo "1..13"
PMUKIT=$(cd "$(dirname "$PMUKIT")" && pwd)/pmukit
HAVE_PERF=0
command -v perf >/dev/null && perf stat -e task-clock true 2>/dev/null && HAVE_PERF=1
export PMUKIT HAVE_PERF T_TMP

# The options each command took with getopt before the tables (their names are kept).
REC="-e, --event --filter -c, --count -F, --freq -g --call-graph -a, --all-cpus -i, --no-inherit
 -W, --weight -d, --data --sample-cpu -s, --stat -T, --timestamp -b, --branch-any -j, --branch-filter
 --switch-events --all-user --all-kernel -D, --delay -C, --cpu -p, --pid -t, --tid -u, --uid
 -o, --output -z, --compression-level -m, --mmap-pages --max-size --switch-output
 --switch-max-files -q, --quiet -v, --verbose --sysfs --cpuid --events-dir"
STAT="-e, --event -M, --metrics --topdown --td-level --record-tpebs --metric-only --metric-no-group
 --metric-no-merge --metric-no-threshold --counts -a, --all-cpus -C, --cpu -A, --no-aggr --per-core
 --per-die --per-socket --per-thread -p, --pid -t, --tid -i, --no-inherit -I, --interval-print
 --interval-count -r, --repeat -x, --field-separator -j, --json-output -B, --big-num -o, --output
 --append --timeout -D, --delay -n, --null --serve -G, --cgroup --sysfs --cpuid --events-dir"
EXPLAIN="-e, --event --mode -j, --json -a, --all-cpus -i, --no-inherit -c, --count -F, --freq -g
 --call-graph -C, --cpu -p, --pid -t, --tid -W, --weight -d, --data --sample-cpu -s, --stat
 -T, --timestamp -b, --branch-any --branch-filter --switch-events --all-user --all-kernel
 -D, --delay --sysfs --cpuid --events-dir"
LIST="-j, --json -a, --all --deprecated -v, --long-desc -d, --details --cpu-root --sysfs --cpuid
 --events-dir"
CHECK="-j, --json --arch --sysctl --no-probe --sysfs --cpuid --events-dir"
export REC STAT EXPLAIN LIST CHECK

for c in record stat explain list check; do
	case $c in record) l=$REC;; stat) l=$STAT;; explain) l=$EXPLAIN;; list) l=$LIST;; check) l=$CHECK;; esac
	ok "$c --help: the usage, then every option it took before the table" sh -c '
		"$PMUKIT" $1 --help > "$T_TMP/h.$1" && head -1 "$T_TMP/h.$1" | grep -q "^ Usage: pmukit $1 " || exit 1
		for o in $2; do
			grep -Eq -e "^ +(-., )?$o( |\[|\$)" -e "^ +$o" "$T_TMP/h.$1" || { echo "no $o" >&2; exit 1; }
		done' - $c "$l"
done

# every long option the help lists is one the parser takes (none listed but unknown)
ok "each long option --help lists is accepted (not 'unknown option')" sh -c '
	for c in record stat explain list check; do
		for o in $("$PMUKIT" $c --help | grep -Eo "^ +(-., )?--[a-z0-9-]+" | grep -Eo -- "--[a-z0-9-]+"); do
			"$PMUKIT" $c $o=1 --help >/dev/null 2>"$T_TMP/e"
			if grep -q "unknown option" "$T_TMP/e"; then echo "$c $o: $(head -1 "$T_TMP/e")" >&2; exit 1; fi
		done
	done'

ok "perf's rules: a unique prefix (--all-c), --no-NAME of a flag, --no-big-num" sh -c '
	"$PMUKIT" explain --json --all-c -e cpu-clock | grep -q "\"enable_on_exec\": 0" &&
	"$PMUKIT" explain --json -a --no-all-cpus -e cpu-clock | grep -q "\"enable_on_exec\": 1" &&
	"$PMUKIT" stat --no-big-num -x, -e task-clock true 2>/dev/null'

ok "explain: a bad value exits 1 with its reason, an unknown option 129" sh -c '
	"$PMUKIT" explain --mode foo -e cpu-clock 2>"$T_TMP/m"; [ $? = 1 ] &&
	head -1 "$T_TMP/m" | grep -q "^pmukit explain: --mode must be stat or record" &&
	"$PMUKIT" explain -c abc -e cpu-clock 2>/dev/null; [ $? = 1 ] &&
	"$PMUKIT" explain --bogus -e cpu-clock 2>/dev/null; [ $? = 129 ]'

if [ $HAVE_PERF = 1 ] && perf record -q -o "$T_TMP/p.data" -e cpu-clock true 2>/dev/null; then
	# perf and pmukit on the same arguments: exit status and the first line on stderr
	same_err() {
		name=$1; cmd=$2; shift 2
		ok "$name" sh -c '
			cd "$T_TMP" && cmd=$1 && shift
			perf $cmd "$@" >/dev/null 2>p.err; p=$?
			"$PMUKIT" $cmd "$@" >/dev/null 2>k.err; k=$?
			[ $p = $k ] && [ "$(head -1 p.err)" = "$(head -1 k.err)" ] ||
				{ echo "perf $p: $(head -1 p.err); pmukit $k: $(head -1 k.err)" >&2; exit 1; }' \
			- "$cmd" "$@"
	}
	same_err "record --bogus: perf's line and status" record -o x.data --bogus true
	same_err "record -e without its value: perf's line and status" record -o x.data -e
	same_err "record -c without its value: perf's line and status" record -o x.data -c
	same_err "stat -x without its value: perf's line and status" stat -x
	ok "record -z5: an attached level, as perf (getopt refused it)" sh -c '
		cd "$T_TMP" && "$PMUKIT" record -q -z5 -e cpu-clock -o z.data true &&
		perf report --header-only -i z.data 2>/dev/null | grep -q "Zstd, level = 5"'
else
	for i in 1 2 3 4 5; do T_N=$((T_N + 1)); echo "ok $T_N # SKIP perf record not usable here"; done
fi
[ $T_FAIL -eq 0 ]
