#!/bin/bash
# cluster.sh: a local Loam cluster on loopback: one loam-ctld and emulated
# GPU nodes (loam-noded --emulate), configured from etc/demo/.
#
#   cluster.sh up      start what is not running (idempotent); print the
#                      export lines that point the commands at it
#   cluster.sh down    stop exactly what up started (PID files): the jobs'
#                      supervisors, the node daemons, the controller
#   cluster.sh status  show what runs
#
# Settings (environment):
#   LOAM_CLUSTER_DIR   state directory            (default /tmp/loam-cluster)
#   LOAM_BIN           the built binaries          (default <repo>/bin)
#   LOAM_NODES         emulated nodes, 4 to 99     (default 4; 1 without tenants)
#   LOAM_CPU_NODES     emulated CPU-only nodes cpu01.. (32 CPUs, 125 GiB,
#                      no GPUs) in the same partitions, 0 to 99 (default 0;
#                      the benchmarks use 8, like the Slurm peer)
#   LOAM_CTLD_PORT     first controller port tried (default 6817)
#   LOAM_NODE_PORT     first node port tried       (default 17001)
#   LOAM_TENANTS       tenants.conf to use, or "none" for no tenants and
#                      quotas (benchmarks)         (default etc/demo/tenants.conf)
# A port that is taken (another Loam cluster, the Slurm peer on 16817 and
# 16901-16948) is skipped: the next free one is used and written into the
# generated slurm.conf. Needs root: node daemons create cgroups and device
# files. Nothing here is built: `make cluster-up` builds first.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
state=${LOAM_CLUSTER_DIR:-/tmp/loam-cluster}
bin=${LOAM_BIN:-$repo/bin}
nodes=${LOAM_NODES:-4}
cpu_nodes=${LOAM_CPU_NODES:-0}
ctld_port=${LOAM_CTLD_PORT:-6817}
node_port=${LOAM_NODE_PORT:-17001}
conf=$state/etc/slurm.conf
cgroot=loam/$(basename "$state")

say() { printf '%s\n' "$*" >&2; }
die() { say "cluster.sh: $*"; exit 1; }

# alive PIDFILE NAME: the process in PIDFILE runs and is NAME.
alive() {
	local pid
	[ -f "$1" ] || return 1
	pid=$(cat "$1")
	[ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
	tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$2"
}

# port_free PORT: nothing listens on 127.0.0.1:PORT (or any address).
port_free() { ! ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }

# pick_ports FIRST COUNT: COUNT consecutive free ports from FIRST on.
pick_ports() {
	local p=$1 n=$2 i ok
	while [ "$p" -lt 65000 ]; do
		ok=1
		for ((i = 0; i < n; i++)); do
			if ! port_free $((p + i)) || { [ $((p + i)) -ge 16817 ] && [ $((p + i)) -le 16948 ]; }; then
				ok=0
				p=$((p + i + 1))
				break
			fi
		done
		[ $ok = 1 ] && { echo "$p"; return; }
	done
	die "no $n free ports from $1"
}

node_names() {
	for ((i = 1; i <= nodes; i++)); do printf 'gpu%02d\n' "$i"; done
	for ((i = 1; i <= cpu_nodes; i++)); do printf 'cpu%02d\n' "$i"; done
}

# configure writes etc/, the cluster key and the fake GPU devices once.
configure() {
	[ -f "$conf" ] && return
	# etc/demo/tenants.conf guarantees 32 GPUs: at least four 8-GPU nodes.
	local least=4
	[ "${LOAM_TENANTS:-}" = none ] && least=1
	[ "$nodes" -ge "$least" ] && [ "$nodes" -le 99 ] || die "LOAM_NODES=$nodes: want $least-99 (the demo tenants are guaranteed 32 GPUs)"
	mkdir -p "$state"/{etc,log,pids,dev,ctld,noded}
	local cp np last
	cp=$(pick_ports "$ctld_port" 1)
	[ "$cpu_nodes" -ge 0 ] && [ "$cpu_nodes" -le 99 ] || die "LOAM_CPU_NODES=$cpu_nodes: want 0-99"
	np=$(pick_ports "$node_port" $((nodes + cpu_nodes)))
	last=$(printf '%02d' "$nodes")
	local all="gpu[01-$last]" cpun=""
	if [ "$cpu_nodes" -gt 0 ]; then
		all="$all,cpu[01-$(printf '%02d' "$cpu_nodes")]"
		cpun="NodeName=cpu[01-$(printf '%02d' "$cpu_nodes")] CPUs=32 Boards=1 SocketsPerBoard=2 CoresPerSocket=16 ThreadsPerCore=1 RealMemory=128000 Feature=cpu NodeHostname=localhost NodeAddr=127.0.0.1 Port=[$((np + nodes))-$((np + nodes + cpu_nodes - 1))]"
	fi
	sed -e "s#/run/loam-demo#$state#g" \
		-e "s/^SlurmctldPort=.*/SlurmctldPort=$cp/" \
		-e "s/^NodeName=gpu\[01-04\] \(.*\) Port=\[17001-17004\]/NodeName=gpu[01-$last] \1 Port=[$np-$((np + nodes - 1))]/" \
		-e "s/Nodes=gpu\[01-04\]/Nodes=$all/g" \
		"$repo/etc/demo/slurm.conf" >"$conf"
	# CPU-only nodes: after the GPU nodes, with a DEFAULT line of their own
	# (the GPU nodes' DEFAULT gives every later node eight GPUs).
	if [ -n "$cpun" ]; then
		awk -v cpun="$cpun" '{print} /^NodeName=gpu\[/ {print "NodeName=DEFAULT Gres=(null) Feature=cpu"; print cpun}' "$conf" >"$conf.tmp" && mv "$conf.tmp" "$conf"
	fi
	sed -e "s#/run/loam-demo#$state#g" -e "s/gpu\[01-04\]/gpu[01-$last]/g" "$repo/etc/demo/gres.conf" >"$state/etc/gres.conf"
	case "${LOAM_TENANTS:-}" in
	none) ;;
	"") cp "$repo/etc/demo/tenants.conf" "$state/etc/tenants.conf" ;;
	*) cp "$LOAM_TENANTS" "$state/etc/tenants.conf" ;;
	esac
	grep -q "Port=\[$np-" "$conf" || die "etc/demo/slurm.conf changed shape; cannot set node ports"
	# The cluster key: 32 random bytes, hex, readable by root only.
	(umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$state/loam.key" && echo >>"$state/loam.key")
	# Eight fake GPUs shared by the nodes: NVIDIA's major 195, minor = index.
	for i in 0 1 2 3 4 5 6 7; do
		[ -e "$state/dev/nvidia$i" ] || mknod -m 0666 "$state/dev/nvidia$i" c 195 "$i"
	done
}

start_ctld() {
	if alive "$state/pids/ctld.pid" loam-ctld; then
		say "loam-ctld runs (pid $(cat "$state/pids/ctld.pid"))"
		return
	fi
	setsid "$bin/loam-ctld" -f "$conf" --sync normal --log-format text </dev/null >>"$state/log/ctld.log" 2>&1 &
	echo $! >"$state/pids/ctld.pid"
	say "started loam-ctld (pid $!)"
}

start_node() {
	local n=$1 pf=$state/pids/noded-$1.pid
	if alive "$pf" "loam-noded -N $n"; then
		say "loam-noded $n runs (pid $(cat "$pf"))"
		return
	fi
	mkdir -p "$state/noded/$n"
	# Each cluster's jobs get their own cgroup subtree: two clusters on one
	# host may both have a gpu01 running a job 1.
	setsid "$bin/loam-noded" -N "$n" -f "$conf" --emulate --cgroup-root "$cgroot/$n" \
		--log-format text </dev/null >>"$state/log/noded-$n.log" 2>&1 &
	echo $! >"$pf"
	say "started loam-noded $n (pid $!)"
}

# wait_up: every node registered and idle (bounded).
wait_up() {
	local i out pf
	for ((i = 0; i < 150; i++)); do
		for pf in "$state"/pids/*.pid; do
			if [ ! -d "/proc/$(cat "$pf")" ]; then
				say "cluster.sh: $(basename "$pf" .pid) exited; its log:"
				tail -5 "$state/log/$(basename "$pf" .pid).log" >&2
				return 1
			fi
		done
		out=$(LOAM_CONF=$conf "$bin/scontrol" show nodes 2>/dev/null || true)
		if [ "$(grep -c 'State=IDLE\|State=MIXED\|State=ALLOCATED' <<<"$out")" -ge $((nodes + cpu_nodes)) ]; then
			return 0
		fi
		sleep 0.2
	done
	say "cluster.sh: nodes not all up after 30 s; logs in $state/log"
	return 1
}

up() {
	[ "$(id -u)" = 0 ] || die "run as root: node daemons create cgroups and devices"
	for b in loam-ctld loam-noded scontrol; do
		[ -x "$bin/$b" ] || die "$bin/$b is missing: run make build (make cluster-up does)"
	done
	configure
	start_ctld
	for n in $(node_names); do start_node "$n"; done
	wait_up || exit 1
	echo "export LOAM_CONF=$conf"
	echo "export PATH=$bin:\$PATH"
}

# stop_pid PIDFILE NAME: TERM, wait (bounded), KILL; remove the PID file.
stop_pid() {
	local pf=$1
	alive "$pf" "$2" && stop "$(cat "$pf")" "$2"
	rm -f "$pf"
}

# stop PID NAME: TERM, wait (bounded), KILL.
stop() {
	local pid=$1 i
	kill -TERM "$pid" 2>/dev/null || true
	for ((i = 0; i < 100; i++)); do
		[ -d "/proc/$pid" ] || break
		sleep 0.1
	done
	[ -d "/proc/$pid" ] && kill -KILL "$pid" 2>/dev/null
	say "stopped $2 (pid $pid)"
}

down() {
	[ -d "$state" ] || { say "nothing to stop in $state"; return; }
	# The jobs' supervisors end their jobs on SIGTERM; each has its job's
	# directory on its command line.
	local pid
	for pid in $(pgrep -f -- "__supervise $state/noded/"); do
		stop "$pid" "job supervisor"
	done
	for pf in "$state"/pids/noded-*.pid; do
		[ -f "$pf" ] || continue
		n=${pf##*/noded-}
		stop_pid "$pf" "loam-noded -N ${n%.pid}"
	done
	stop_pid "$state/pids/ctld.pid" loam-ctld
	for n in $(node_names); do rmdir /sys/fs/cgroup/*/"$cgroot/$n" 2>/dev/null || true; done
	rmdir /sys/fs/cgroup/*/"$cgroot" 2>/dev/null || true
}

status() {
	local pf
	for pf in "$state"/pids/*.pid; do
		[ -f "$pf" ] || continue
		if [ -r "/proc/$(cat "$pf")/cmdline" ]; then echo "$(basename "$pf" .pid): pid $(cat "$pf")"; else echo "$(basename "$pf" .pid): dead"; fi
	done
	[ -f "$conf" ] && echo "export LOAM_CONF=$conf"
}

case "${1:-}" in
up) up ;;
down) down ;;
status) status ;;
*) say "usage: $0 up|down|status"; exit 2 ;;
esac
