# common.sh: shared by the node daemon benchmarks (sourced, not run).
# A private Loam cluster is brought up with contrib/demo/cluster.sh in its
# own state directory, so a demo or another cluster can run meanwhile.
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${LOAM_BIN:-$repo/bin}
export LOAM_CLUSTER_DIR=${LOAM_CLUSTER_DIR:-/tmp/loam-bench-$(basename "$0" .sh)}
results=${RESULTS:-$repo/bench/noded/results.txt}

now() { date +%s.%N; }
dt() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.3f", b-a}'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b>0) printf "%.1f", a/b; else print "n/a"}'; }
say() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# CPU steal while a part ran, as the peer's bench.sh reports it.
cpu_snap() { awk '/^cpu /{t=0; for (i = 2; i <= 9; i++) t += $i; print t, $9}' /proc/stat; }
mark() { MARK=$(cpu_snap); }
steal() { awk -v a="$MARK" -v b="$(cpu_snap)" 'BEGIN{split(a,x," "); split(b,y," "); d=y[1]-x[1]; printf "%.0f%%", (d>0 ? 100*(y[2]-x[2])/d : 0)}'; }

row() {
	local line
	line=$(printf '%-5s %-58s %s [steal %s]' "$1" "$2" "$3" "$(steal)")
	say "$line"
	echo "$line" >>"$results"
}

# cluster_up starts a fresh cluster (its state directory is recreated).
cluster_up() {
	"$repo/contrib/demo/cluster.sh" down >/dev/null 2>&1
	rm -rf "$LOAM_CLUSTER_DIR"
	"$repo/contrib/demo/cluster.sh" up >"$LOAM_CLUSTER_DIR.env" || exit 1
	# shellcheck disable=SC1090
	. "$LOAM_CLUSTER_DIR.env"
}
cluster_down() { "$repo/contrib/demo/cluster.sh" down; }

# live: jobs not finished yet.
live() { timeout 60 "$bin/squeue" -h -t PD,CF,R,CG -o %i 2>/dev/null | wc -l; }
