#!/bin/sh
# flamegraph_browser.sh — the flame graph pages as people see them (TAP): headless Chromium
# opens the HTML that build/tests/test_export_flamegraph --write produces from a known
# profile; the rendered DOM must hold the hottest frames, #zoom= must zoom (the frame's
# subtree and ancestors drawn, nothing else), #search= must highlight the matches and print
# their share, the icicle must hang from the top; screenshots of the page and of the SVG
# must show a drawn graph (decoded with python3's zlib: colours, non-background share, flame
# reds), not a blank page; #annotate= of a page without annotations says why.
B=${PMUKIT_BUILD:-build}
S=${PMUKIT_SRC:-.}
GEN=$B/tests/test_export_flamegraph
CHROMIUM=${CHROMIUM:-chromium}
if ! command -v "$CHROMIUM" >/dev/null 2>&1; then
	echo "1..0 # SKIP chromium not installed (Debian chromium)"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 not installed"
	exit 0
fi
if [ ! -x "$GEN" ]; then
	echo "1..0 # SKIP $GEN not built (make tests)"
	exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
fail=0
echo "1..14"
t() {	# t NAME COMMAND — passes when the command (eval'd in a subshell) exits 0
	n=$((n + 1))
	if (eval "$2") >"$T/t.out" 2>&1; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		sed 's/^/# /' "$T/t.out" | head -15
		fail=$((fail + 1))
	fi
}
# chrome OUT ARGS... — a fresh profile directory each run, no network services
run=0
chrome() {
	out=$1
	shift
	run=$((run + 1))
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--disable-extensions --run-all-compositor-stages-before-draw --virtual-time-budget=10000 \
		--user-data-dir="$T/profile$run" --window-size=1200,500 "$@" \
		>"$out" 2>"$T/chrome$run.err"
}

"$GEN" --write "$T" || { echo "Bail out! $GEN --write failed"; exit 1; }
# names as the DOM serializes them (&, <, > escaped)
awk '$1 == "hot" { print $2 }' "$T/expect.txt" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g' >"$T/hot.txt"
zoom=$(awk '$1 == "zoom" { print $2 }' "$T/expect.txt")
inside=$(awk '$1 == "inside" { print $2 }' "$T/expect.txt")
outside=$(awk '$1 == "outside" { print $2 }' "$T/expect.txt")
ancestor=$(awk '$1 == "ancestor" { print $2 }' "$T/expect.txt")
query=$(awk '$1 == "search" { print $2 }' "$T/expect.txt")
share=$(awk '$1 == "search" { print $3 }' "$T/expect.txt")
page="file://$T/flame.html"

# frame divs as "CLASS|ID|NAME" lines
frames() { grep -o '<div class="f[^"]*" data-id="[0-9]*" style="[^"]*">[^<]*</div>' "$1" |
	sed 's/<div class="\([^"]*\)" data-id="\([0-9]*\)" style="[^"]*">\([^<]*\)<\/div>/\1|\2|\3/'; }
# has FILE CLASS NAME — a frame of that class and name
has() { awk -F'|' -v c="$2" -v nm="$3" '$1 == c && $3 == nm { ok = 1 } END { exit !ok }' "$1"; }
hot_frames() { while read -r h; do has "$T/plain.frames" f "$h" || { echo "missing: $h"; return 1; }; done <"$T/hot.txt"; }

chrome "$T/plain.dom" --dump-dom "$page"
frames "$T/plain.dom" >"$T/plain.frames"
t "the page draws its frames" "[ \$(wc -l < '$T/plain.frames') -ge 10 ]"
t "the hottest frames are on the page: $(tr '\n' ' ' <"$T/hot.txt")" hot_frames
t "nothing zoomed or searched without a hash" \
	"grep -q '<body data-matched=\"\" data-zoom=\"0\">' '$T/plain.dom'"

chrome "$T/zoom.dom" --dump-dom "$page#zoom=$zoom"
frames "$T/zoom.dom" >"$T/zoom.frames"
t "#zoom=$zoom: the page reports the zoom" "grep -q 'data-zoom=\"$zoom\"' '$T/zoom.dom'"
t "#zoom=$zoom: the frame spans the width, its subtree ($inside) is drawn" \
	"grep -q 'data-id=\"$zoom\" style=\"left: 0%; width: 100%;' '$T/zoom.dom' && has '$T/zoom.frames' f $inside"
t "#zoom=$zoom: its ancestors ($ancestor) drawn as such, the rest ($outside) not" \
	"has '$T/zoom.frames' 'f anc' $ancestor && ! grep -q '|$outside\$' '$T/zoom.frames'"

chrome "$T/search.dom" --dump-dom "$page#search=$(echo "$query" | sed 's/|/%7C/g')"
frames "$T/search.dom" >"$T/search.frames"
t "#search=$query: the matched share is $share" \
	"grep -q 'data-matched=\"$share\"' '$T/search.dom' && grep -q 'Matched: $share' '$T/search.dom'"
t "#search=$query: matching frames highlighted, others not" \
	"has '$T/search.frames' 'f match' hash_lookup && has '$T/search.frames' 'f match' sys_write &&
	 ! grep '^f match|' '$T/search.frames' | grep -vqE '\\|(hash_lookup|sys_write)\$' &&
	 has '$T/search.frames' f compute_hot"

chrome "$T/ann.dom" --dump-dom "$page#annotate=$zoom"
t "#annotate=$zoom, a page written without a session: the panel says no annotation is embedded" \
	"grep -q 'data-annotate=\"$zoom\"' '$T/ann.dom' &&
	 grep -q 'data-annotated=\"no\".*No annotation: no annotations were embedded in this page' '$T/ann.dom'"

chrome "$T/icicle.dom" --dump-dom "file://$T/icicle.html"
t "the icicle hangs from the top; the flame graph stands on the bottom" \
	"grep -q 'data-id=\"0\" style=\"left: 0%; width: 100%; top: 0px;' '$T/icicle.dom' &&
	 ! grep -q 'data-id=\"0\" style=\"left: 0%; width: 100%; top: 0px;' '$T/plain.dom' &&
	 grep -q '<h1 id=\"title\">pmukit icicle</h1>' '$T/icicle.dom'"

# a drawn page in one of three fresh browsers: headless Chromium now and then takes the
# screenshot before the page's script has drawn (flamegraph_cli.sh says more)
for try in 1 2 3; do
	chrome "$T/shot.out" --screenshot="$T/flame.png" --hide-scrollbars "$page"
	python3 "$S/tests/fixtures/export/pngstat.py" "$T/flame.png" 2>/dev/null |
		awk '{ exit !($3 >= 20 && $4 >= 100 && $5 >= 2000) }' && break
done
t "the screenshot is a PNG of the window" "[ -s '$T/flame.png' ] && python3 '$S/tests/fixtures/export/pngstat.py' '$T/flame.png' > '$T/png.txt' && awk '{ exit !(\$1 == 1200 && \$2 == 500) }' '$T/png.txt'"
t "the screenshot is not blank: many colours, a tenth of it drawn, flame reds" \
	"cat '$T/png.txt'; awk '{ exit !(\$3 >= 20 && \$4 >= 100 && \$5 >= 2000) }' '$T/png.txt'"

chrome "$T/svg.out" --screenshot="$T/svg.png" --hide-scrollbars "file://$T/flame.svg"
t "the SVG renders too" "python3 '$S/tests/fixtures/export/pngstat.py' '$T/svg.png' > '$T/svgpng.txt' && cat '$T/svgpng.txt' && awk '{ exit !(\$3 >= 20 && \$4 >= 100 && \$5 >= 2000) }' '$T/svgpng.txt'"
t "Chromium logged no network request (the page is file:// only)" \
	"! grep -hiE 'net::ERR|http://|https://' '$T'/chrome*.err"
exit $((fail > 0))
