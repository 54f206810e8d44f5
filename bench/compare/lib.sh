# lib.sh: helpers of run.sh (sourced). Needs $work, $repo, $bin, $peer.

now() { date +%s.%N; }
dt() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.3f", b-a}'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b>0) printf "%.1f", a/b; else print "n/a"}'; }
say() { printf '[compare %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# CPU steal while a part ran, computed as the peer's bench.sh does.
cpu_snap() { awk '/^cpu /{t=0; for (i = 2; i <= 9; i++) t += $i; print t, $9}' /proc/stat; }
MARK=$(cpu_snap)
mark() { MARK=$(cpu_snap); }
steal() { awk -v a="$MARK" -v b="$(cpu_snap)" 'BEGIN{split(a,x," "); split(b,y," "); d=y[1]-x[1]; printf "%.0f%%", (d>0 ? 100*(y[2]-x[2])/d : 0)}'; }

# row KEY DESCRIPTION RESULT: one Loam row, printed as the peer's are.
row() {
	local line
	line=$(printf '%-4s %-58s %s [steal %s]' "$1" "$2" "$3" "$(steal)")
	say "$line"
	echo "$line" >>"$work/loam.rows"
}

# median5 CMD...: median wall time of 5 runs, seconds.
median5() {
	local i t0 t1 ts=()
	for i in 1 2 3 4 5; do
		t0=$(now); timeout 120 "$@" >/dev/null 2>&1; t1=$(now)
		ts+=("$(dt "$t0" "$t1")")
	done
	printf '%s\n' "${ts[@]}" | sort -g | sed -n 3p
}

# live [PARTITION]: jobs not finished yet.
live() { timeout 60 squeue -h -t PD,CF,R,CG,S ${1:+-p "$1"} -o %i 2>/dev/null | wc -l; }

# drain: cancel what is left and wait (bounded) for an empty queue.
drain() {
	(($(live) == 0)) && return 0
	timeout 300 scancel --quiet --user="$(id -un)"
	local dl=$((SECONDS + 120))
	while (($(live) > 0 && SECONDS < dl)); do sleep 0.5; done
}

# cluster_up: a fresh Loam cluster of the peer's shape (state recreated).
cluster_up() {
	"$repo/contrib/demo/cluster.sh" down >/dev/null 2>&1
	rm -rf "$LOAM_CLUSTER_DIR"
	"$repo/contrib/demo/cluster.sh" up >"$work/cluster.env" 2>"$work/cluster.err" || {
		say "cluster.sh up failed: $(tail -3 "$work/cluster.err")"
		return 1
	}
	# shellcheck disable=SC1091
	. "$work/cluster.env"
	say "Loam cluster up: $LOAM_NODES GPU + $LOAM_CPU_NODES CPU nodes ($LOAM_CONF)"
}
cluster_down() { "$repo/contrib/demo/cluster.sh" down >/dev/null 2>&1; }

# part_big: 100,000 pending jobs (submitted through the client library from
# 8 streams: the real sbatch would take minutes): squeue, the controller's
# RSS, and their cancellation with the real scancel.
part_big() {
	drain
	# MaxJobCount counts the finished jobs MinJobAge keeps (the peer's
	# 100000 too): room for BIG pending jobs on top of them.
	sed -i "s/^MaxJobCount=.*/MaxJobCount=$((2 * BIG))/" "$LOAM_CONF"
	timeout 60 scontrol reconfigure >/dev/null || say "scontrol reconfigure failed"
	say "(big) filling the queue to $BIG pending jobs"
	(cd "$repo" && go build -o "$work/ctld-bench" ./bench/ctld) || return
	if ! "$work/ctld-bench" -conf "$LOAM_CONF" -parts fill -big "$BIG" >&2; then
		drain
		return
	fi
	local n rss
	n=$(timeout 120 squeue -h -t PD -o %i | wc -l)
	mark; row "big" "squeue -t PD, $n lines, median of 5" "$(median5 squeue -t PD) s"
	mark; row "big" "squeue, $n lines, median of 5" "$(median5 squeue) s"
	rss=$(awk '/^VmRSS/{printf "%.0f MiB", $2/1024}' "/proc/$(cat "$LOAM_CLUSTER_DIR/pids/ctld.pid")/status")
	mark; row "big" "loam-ctld RSS with $n jobs" "$rss"
	mark
	local t0 t1
	t0=$(now); timeout 600 scancel --user=root; t1=$(now)
	row "big" "scancel --user=root of $n jobs" "$(dt "$t0" "$t1") s"
	drain
}

# part_latency: submit -> the script's first instruction, on an idle
# cluster, one job at a time.
part_latency() {
	drain
	say "(l) $N_LAT single jobs: submit -> running"
	mark
	local lat=() i w out t0 med
	for ((i = 0; i < N_LAT; i++)); do
		out=$work/lat-$i.out
		t0=$(now)
		sbatch -p normal -n1 -o "$out" -J bL --wrap='date +%s.%N' >/dev/null || continue
		for ((w = 0; w < 100; w++)); do [ -s "$out" ] && break; sleep 0.02; done
		[ -s "$out" ] && lat+=("$(dt "$t0" "$(head -1 "$out")")")
		local dl=$((SECONDS + 30))
		while (($(live) > 0 && SECONDS < dl)); do sleep 0.05; done
	done
	med=$(printf '%s\n' "${lat[@]}" | sort -g | awk '{a[NR]=$1} END{print (NR ? a[int((NR+1)/2)] : "n/a")}')
	row "l" "${#lat[@]} jobs on an idle cluster: submit -> script running, median" "$(awk -v m="$med" 'BEGIN{printf "%.0f ms", 1000*m}') (max $(printf '%s\n' "${lat[@]}" | sort -g | tail -1) s)"
}

# part_idle loam|peer: the largest RSS and CPU share of the idle node
# daemons (loam-noded, or the peer's slurmd) over IDLE_WINDOW seconds.
part_idle() {
	local pids=() pid tick t0s=() i rss cpu max_rss=0 max_cpu=0 who=$1
	if [ "$who" = loam ]; then
		drain
		for pf in "$LOAM_CLUSTER_DIR"/pids/noded-*.pid; do pids+=("$(cat "$pf")"); done
	else
		mapfile -t pids < <(pgrep -x slurmd)
	fi
	((${#pids[@]})) || return
	sleep 5 # let start-up and the last jobs settle
	tick=$(getconf CLK_TCK)
	for pid in "${pids[@]}"; do t0s+=("$(awk '{print $14 + $15}' "/proc/$pid/stat")"); done
	mark
	sleep "$IDLE_WINDOW"
	for i in "${!pids[@]}"; do
		pid=${pids[$i]}
		[ -r "/proc/$pid/stat" ] || continue
		cpu=$(awk -v a="${t0s[$i]}" -v hz="$tick" -v w="$IDLE_WINDOW" '{printf "%.3f", 100*($14+$15-a)/hz/w}' "/proc/$pid/stat")
		rss=$(awk '/^VmRSS/{print $2}' "/proc/$pid/status")
		((rss > max_rss)) && max_rss=$rss
		max_cpu=$(awk -v a="$max_cpu" -v b="$cpu" 'BEGIN{print (b > a ? b : a)}')
	done
	local what="loam-noded" rows=$work/loam.rows
	[ "$who" = peer ] && what="slurmd" rows=$work/peer.rows
	local line
	line=$(printf '%-4s %-58s %s [steal %s]' "idle" "${#pids[@]} idle node daemons, ${IDLE_WINDOW} s: max RSS, max CPU" \
		"$(awk -v k="$max_rss" 'BEGIN{printf "%.1f MiB", k/1024}'), $max_cpu% of a core ($what)" "$(steal)")
	say "$line"
	echo "$line" >>"$rows"
}

# peer_parts_of PARTS: the parts the peer's bench.sh knows.
peer_parts_of() {
	local p out=()
	for p in $1; do
		case $p in a | a2 | b | c | d | e | f) out+=("$p") ;; esac
	done
	echo "${out[*]}"
}

# value LINE: the row's measure and its direction: "N up" for a rate
# (jobs/s: more is better), "N down" for seconds or a size (less is better).
value() {
	awk '{
		sub(/ *\[steal [0-9]+%\] *$/, "")
		if (match($0, /[0-9.]+ jobs\/s/)) { v = substr($0, RSTART, RLENGTH); sub(/ .*/, "", v); print v, "up"; exit }
		if (match($0, /[0-9.]+ MiB/)) { v = substr($0, RSTART, RLENGTH); sub(/ .*/, "", v); print v, "down"; exit }
		if (match($0, /[0-9.]+ ms/)) { v = substr($0, RSTART, RLENGTH); sub(/ .*/, "", v); print v/1000, "down"; exit }
		s = $0
		while (match(s, /[0-9.]+ s( \(|$)/)) { v = substr(s, RSTART, RLENGTH); sub(/ .*/, "", v); print v, "down"; exit }
		print "", ""
	}' <<<"$1"
}

# stealof LINE: the row's steal figure.
stealof() { grep -o 'steal [0-9]*%' <<<"$1" | awk '{print $2}'; }

# report: one line per Loam row with the peer's matching row (same part,
# same position within the part) and how many times better Loam is.
report() {
	echo "# Loam vs Slurm 22.05 (the peer) -- $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "# host: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg);" \
		"Loam $(git -C "$repo" rev-parse --short HEAD 2>/dev/null)+worktree on $LOAM_NODES GPU + $LOAM_CPU_NODES CPU emulated nodes; peer: $(/usr/bin/sinfo -V 2>/dev/null), 40 emulated nodes"
	echo "# parts: $PARTS   N_SUBMIT=$N_SUBMIT N_FILL=$N_FILL P_STREAMS=$P_STREAMS N_ARRAY=$N_ARRAY N_E2E=$N_E2E N_GPU=$N_GPU BIG=$BIG SEED=$SEED"
	printf '%-5s %-62s %12s %12s %9s  %s\n' part measurement loam peer "x better" "steal loam/peer"
	declare -A seen
	local line key k lv ldir pv ratio pline
	while IFS= read -r line; do
		key=${line%% *}
		k=$(( ${seen[$key]:-0} + 1 ))
		seen[$key]=$k
		read -r lv ldir <<<"$(value "$line")"
		pline=$(awk -v k="$key" '$1 == k' "$work/peer.rows" 2>/dev/null | sed -n "${k}p")
		pv="" ratio=""
		if [ -n "$pline" ]; then
			read -r pv _ <<<"$(value "$pline")"
			ratio=$(awk -v l="$lv" -v p="$pv" -v d="$ldir" 'BEGIN{ if (l>0 && p>0) printf "%.2f", (d=="up" ? l/p : p/l) }')
		fi
		local desc
		desc=$(cut -c6-63 <<<"$line" | sed 's/ *$//')
		printf '%-5s %-62s %12s %12s %9s  %s/%s\n' "$key" "$desc" "$lv" "${pv:--}" "${ratio:--}" "$(stealof "$line")" "$(stealof "$pline")"
	done <"$work/loam.rows"
	echo "# rows in full:"
	sed 's/^/#   loam /' "$work/loam.rows"
	[ -s "$work/peer.rows" ] && sed 's/^/#   peer /' "$work/peer.rows"
	return 0
}
