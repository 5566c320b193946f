# oracle_shim.sh — sourced by the perf 6.1 oracle tests (perf_oracle.sh,
# perf61_tree_oracle.sh): the LD_PRELOAD shim perf runs under
# (tests/oracle/perf_shim.c), the build's or else one built into $tmp, exported
# as PMUKIT_ORACLE_SHIM. Needs $build, $src and $tmp; prints the TAP skip-all
# line and exits 0 when it cannot be built.
shim=${PMUKIT_ORACLE_SHIM:-$build/oracle/perf_shim.so}
if [ ! -f "$shim" ]; then
	shim="$tmp/perf_shim.so"
	${CC:-cc} -std=c11 -D_GNU_SOURCE -O2 -shared -fPIC -I"$src/include" -I"$src/lib" -o "$shim" \
		"$src/tests/oracle/perf_shim.c" "$src/lib/evspec/attr_json.c" -ldl -ljson-c -lpthread \
		2> "$tmp/cc.err" || {
		echo "1..0 # SKIP cannot build the perf shim: $(head -1 "$tmp/cc.err")"
		exit 0
	}
fi
export PMUKIT_ORACLE_SHIM="$shim"
