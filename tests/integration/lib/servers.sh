# tests/integration/lib/servers.sh — what the scripts that start servers share (sourced after
# tap.sh): a free TCP port, and a Prometheus scraping some targets with pmukit's recording
# rules (docs/prometheus-rules.yml). Needs T_TMP, SRC and PIDS (the pids a cleanup kills).

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_prometheus JOB HOST:PORT...: scrapes every second, evaluates the rules every second;
# sets (and exports) PPORT, sets PROM, adds it to PIDS; its log in $T_TMP/prometheus.log
start_prometheus() {
	job=$1; shift
	targets=
	for t in "$@"; do targets="$targets${targets:+, }'$t'"; done
	PPORT=$(free_port)
	cat >"$T_TMP/prometheus.yml" <<EOF_PROM
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - $(cd "$SRC" && pwd)/docs/prometheus-rules.yml
scrape_configs:
  - job_name: $job
    static_configs:
      - targets: [$targets]
EOF_PROM
	prometheus --config.file="$T_TMP/prometheus.yml" --storage.tsdb.path="$T_TMP/tsdb" \
		--web.listen-address=127.0.0.1:$PPORT >"$T_TMP/prometheus.log" 2>&1 &
	PROM=$!
	PIDS="$PIDS $PROM"
	export PPORT
}
