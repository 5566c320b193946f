#!/bin/sh
# flamegraph_annotate.sh — the flame graph page's annotations (TAP), on a file perf 6.1
# records here: headless Chromium opens the page with #annotate=ID (the frame a click
# annotates); the panel of each of the two hottest functions (perf report --no-children)
# names it and holds what `pmukit annotate --stdio -s SYM` prints for the same file: the
# same instruction addresses, the same hottest percent, marked on that instruction; a click
# on the frame opens the same panel, Close closes it. Frames
# without an annotation say why (a process; --annotate 1: not among the hottest;
# --annotate-size 1: over the cap); --annotate 0 and a pipe embed none; no network.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
. "${PMUKIT_SRC:-.}/tests/integration/lib/wl_pages.sh"

CHROMIUM=${CHROMIUM:-chromium}
for c in perf cc "$CHROMIUM" python3; do
	command -v "$c" >/dev/null 2>&1 || { echo "1..0 # SKIP $c is not installed"; exit 0; }
done
record_wl_or_skip
# the two hottest user functions by self samples
perf report -i "$T_TMP/g.data" --stdio --no-children --sort sym 2>/dev/null |
	awk '/^ *[0-9.]+%/ && $2 == "[.]" { print $3 }' | head -2 >"$T_TMP/hot.txt"
hot1=$(sed -n 1p "$T_TMP/hot.txt")
hot2=$(sed -n 2p "$T_TMP/hot.txt")
echo "1..18"
ok "perf report names two hottest functions ($hot1, $hot2)" test -n "$hot2"
ok "flamegraph -o page.html" "$PMUKIT" flamegraph -i "$T_TMP/g.data" -o "$T_TMP/page.html"
ok "--annotate 1 -o one.html" "$PMUKIT" flamegraph -i "$T_TMP/g.data" -o "$T_TMP/one.html" --annotate 1
ok "export --format html --annotate-size 1 -o cap.html" \
	"$PMUKIT" export --format html -i "$T_TMP/g.data" -o "$T_TMP/cap.html" --annotate-size 1
ok "--annotate 0 embeds no annotation, and the page is smaller" sh -c "
	'$PMUKIT' flamegraph -i '$T_TMP/g.data' -o '$T_TMP/none.html' --annotate 0 &&
	grep -q '\"nr\":0,' '$T_TMP/none.html' && grep -q '\"fn\":\[\]}</script>' '$T_TMP/none.html' &&
	[ \$(wc -c <'$T_TMP/none.html') -lt \$(wc -c <'$T_TMP/page.html') ]"
ok "a pipe as input: the page embeds no annotation" sh -c "
	'$PMUKIT' flamegraph -i - -o '$T_TMP/pipe.html' <'$T_TMP/g.data' && grep -q '\"fn\":\[\]}</script>' '$T_TMP/pipe.html'"
fails "--annotate -1 is refused" "$PMUKIT" flamegraph -i "$T_TMP/g.data" -o "$T_TMP/bad.html" --annotate -1

# dump OUT URL MARK — the DOM of URL once it holds MARK (the page's script has run): a
# loaded machine now and then dumps it first; five fresh browsers, each given more time
dump() {	# dump OUT URL MARK [CHROMIUM-ARGS...]
	d_out=$1 d_url=$2 d_mark=$3
	shift 3
	for try in 1 2 3 4 5; do
		BUDGET=$((try * 10000)) chrome "$d_out" "$@" --dump-dom "$d_url"
		grep -q "$d_mark" "$d_out" && return 0
	done
	return 1
}
frames() { grep -o '<div class="f[^"]*" data-id="[0-9]*" style="[^"]*">[^<]*</div>' "$1" |
	sed 's/<div class="\([^"]*\)" data-id="\([0-9]*\)" style="[^"]*">\([^<]*\)<\/div>/\1|\2|\3/'; }
dump "$T_TMP/page.dom" "file://$T_TMP/page.html" 'data-zoom="0"'
frames "$T_TMP/page.dom" >"$T_TMP/page.frames"
ok "nothing annotated without a hash: the panel is hidden" \
	grep -q '<section id="ann" hidden="">' "$T_TMP/page.dom"
id_of() { awk -F'|' -v h="$1" '$3 == h { print $2; exit }' "$T_TMP/page.frames"; }
# the panel's rows as "CLASS|PERCENT|ADDRESS" lines
rows() { python3 -c '
import re, sys
html = open(sys.argv[1]).read()
for m in re.finditer(r"<tr class=\"([^\"]*)\"[^>]*><td class=\"p\">([^<]*)</td><td class=\"a\">([^<]*)</td>", html):
	print("%s|%s|%s" % m.groups())' "$1"; }
# check_hot SYM — the panel of SYM's frame against pmukit annotate --stdio -s SYM
check_hot() {
	sym=$1 id=$(id_of "$1")
	[ -n "$id" ] || { echo "no frame $sym on the page" >&2; return 1; }
	dump "$T_TMP/$sym.dom" "file://$T_TMP/page.html#annotate=$id" "data-annotate=\"$id\"" || return 1
	"$PMUKIT" annotate --stdio -i "$T_TMP/g.data" -s "$sym" >"$T_TMP/$sym.ann" 2>/dev/null || return 1
	want=$(awk '/^ +[0-9]+\.[0-9]+ : +[0-9a-f]+:/ { print $1 }' "$T_TMP/$sym.ann" | sort -g | tail -1)
	awk '/^ +[0-9]+\.[0-9]+ : +[0-9a-f]+:/ { print $3 }' "$T_TMP/$sym.ann" >"$T_TMP/$sym.want-addrs"
	rows "$T_TMP/$sym.dom" >"$T_TMP/$sym.rows"
	awk -F'|' '$1 ~ /^i/ { print $3 }' "$T_TMP/$sym.rows" >"$T_TMP/$sym.addrs"
	top=$(awk -F'|' '$1 == "i top" { print $2 }' "$T_TMP/$sym.rows")
	echo "$sym: annotate's hottest $want, the panel's $top" >&2
	grep -q "<section id=\"ann\" data-symbol=\"$sym\" data-annotated=\"yes\" data-hottest=\"$want\">" \
		"$T_TMP/$sym.dom" && [ "$top" = "$want" ] && [ -s "$T_TMP/$sym.addrs" ] &&
		diff "$T_TMP/$sym.want-addrs" "$T_TMP/$sym.addrs" >&2
}
ok "#annotate=ID of $hot1: its instructions, hottest percent as pmukit annotate --stdio -s $hot1" check_hot "$hot1"
ok "#annotate=ID of $hot2: its instructions, hottest percent as pmukit annotate --stdio -s $hot2" check_hot "$hot2"
ok "the panel interleaves source lines, the hot one with its instructions' share" \
	awk -F'|' '$1 == "s" && $2 != "" { found = 1 } END { exit !found }' "$T_TMP/$hot1.rows"

# A click, as a person gives it: a harness page (the test's, not pmukit's) holds the page in
# a frame, clicks the frame of $hot1, then Close, and writes what the page then shows
id1=$(id_of "$hot1")
cat >"$T_TMP/click.html" <<EOF
<!DOCTYPE html><html><body><iframe id="fr" src="page.html" width="1200" height="700"></iframe>
<script>
document.getElementById('fr').addEventListener('load', function () {
	var d = this.contentDocument, w = this.contentWindow, el = d.querySelector('.f[data-id="$id1"]');
	if (!el)
		return document.body.setAttribute('data-clicked', 'no frame');
	el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
	var a = d.getElementById('ann');
	document.body.setAttribute('data-clicked', [d.body.getAttribute('data-annotate'), a.hidden,
		a.getAttribute('data-symbol'), a.getAttribute('data-hottest'), w.location.hash].join('|'));
	d.getElementById('ann-close').click();
	document.body.setAttribute('data-closed', [a.hidden, w.location.hash].join('|'));
});
</script></body></html>
EOF
dump "$T_TMP/click.dom" "file://$T_TMP/click.html" "data-closed=" --allow-file-access-from-files
hottest1=$(awk '/^ +[0-9]+\.[0-9]+ : +[0-9a-f]+:/ { print $1 }' "$T_TMP/$hot1.ann" | sort -g | tail -1)
ok "a click on $hot1's frame zooms to it and opens its annotation (hottest $hottest1)" \
	grep -q "data-clicked=\"$id1|false|$hot1|$hottest1|#zoom=$id1&amp;annotate=$id1\"" "$T_TMP/click.dom"
ok "Close hides the panel and takes annotate= out of the URL" \
	grep -q "data-closed=\"true|#zoom=$id1\"" "$T_TMP/click.dom"

comm_id=$(awk -F'|' '$3 == "wl" { print $2; exit }' "$T_TMP/page.frames")
ok "the process wl is a frame of the page" test -n "$comm_id"
dump "$T_TMP/comm.dom" "file://$T_TMP/page.html#annotate=$comm_id" "data-annotate=\"$comm_id\""
ok "#annotate=$comm_id (the process wl): no annotation, not a function" \
	grep -q 'data-annotated="no".*No annotation: not a function' "$T_TMP/comm.dom"
dump "$T_TMP/one.dom" "file://$T_TMP/one.html#annotate=$(id_of "$hot2")" "data-annotate="
ok "--annotate 1: $hot2 says it is not among the 1 hottest functions" \
	grep -q "data-symbol=\"$hot2\" data-annotated=\"no\".*No annotation: not among the 1 hottest functions" "$T_TMP/one.dom"
# the hottest function page.html embeds and cap.html does not
fns() { python3 -c '
import json, re, sys
html = open(sys.argv[1]).read()
m = re.search(r"<script id=\"pk-ann\" type=\"application/json\">(.*?)</script>", html, re.S)
for f in json.loads(m.group(1))["fn"]:
	print(f["sym"])' "$1"; }
fns "$T_TMP/page.html" >"$T_TMP/page.fns"
fns "$T_TMP/cap.html" >"$T_TMP/cap.fns"
over=$(grep -vxF -f "$T_TMP/cap.fns" "$T_TMP/page.fns" | while read -r f; do
	[ -n "$(id_of "$f")" ] && { echo "$f"; break; }; done)
dump "$T_TMP/cap.dom" "file://$T_TMP/cap.html#annotate=$(id_of "$over")" "data-annotate="
ok "--annotate-size 1: $over, left out, says its annotation passes the cap" \
	grep -q "data-symbol=\"$over\" data-annotated=\"no\".*would pass the page's cap of 1 KiB" "$T_TMP/cap.dom"
ok "Chromium logged no network request (the page is file:// only)" \
	sh -c "! grep -hiE 'net::ERR|http://|https://' '$T_TMP'/chrome*.err"
[ "$T_FAIL" = 0 ]
