#!/bin/bash
# capture.sh records what the real Slurm (the peer, Slurm 22.05) prints for a
# set of jobs, so that the command tests compare Loam's output with it without
# Slurm running. It submits jobs named lmc-*, captures `scontrol show job -d`
# (the records the tests rebuild Loam's api.Job values from) and the output of
# every case in squeue_cases.txt, then cancels its jobs.
#
# Run it on a host where the peer runs: ./capture.sh (from this directory).
# Normalized: AllocNode:Sid's session id is rewritten to 0 (Loam's jobs have
# none) and Scheduler=Backfill to Scheduler=Main (Loam has one scheduler);
# nothing else. Each case records the second it ran at; a case is rerun
# until it starts and ends in the same second, so the times it prints can be
# recomputed exactly.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
ids=()
trap 'scancel "${ids[@]}" 2>/dev/null; rm -rf "$work"' EXIT

sub() { # sub NAME [sbatch options...] -- submits, records the id
	local name=$1; shift
	local id
	id=$(cd "$work" && sbatch --parsable -J "$name" "$@")
	ids+=("${id%%;*}")
	echo "$name=${id%%;*}"
}

# Running jobs first, so they take nodes before anything else pends.
sub lmc-run1 -N1 -t 30 --wrap "sleep 900"
sub lmc-run2 -p urgent -N2 --gres=gpu:8 -t 1:00:00 --wrap "sleep 900"
sub lmc-runarr --array=0-2 -t 10 --wrap "sleep 900"
sub lmc-fail --wrap "exit 3"
sleep 3
run1=${ids[0]}
sub lmc-held --hold --wrap true
sub lmc-arr --hold --array=2-5%2 --wrap true
sub lmc-multi -p batch -N2 -n4 --hold --wrap true
sub lmc-opts -A acct1 --comment="hello world" -C gpu --nice=10 --hold -t 2-00:00:00 --mem=4G -c 2 \
	--gres=gpu:2 -x gpu003 --wrap true
sub lmc-dep --dependency=afterok:"$run1" --wrap true
sub lmc-begin --begin=now+1hour --wrap true
sub lmc-toobig -N 999 --wrap true
sub lmc-a-very-long-job-name --hold -p normal,batch --wrap true
sub lmc-excl --exclusive --hold -w gpu[005-006] --wrap true
sub lmc-memnode --mem-per-cpu=2000 -n 3 --ntasks-per-node=3 --hold --wrap true
sub lmc-cancel --hold --wrap true
scancel "${ids[-1]}"
sleep 2
sleep 1

list=$(IFS=,; echo "${ids[*]}")

names=lmc-run1,lmc-run2,lmc-runarr,lmc-fail,lmc-held,lmc-arr,lmc-multi,lmc-opts,lmc-dep,lmc-begin,lmc-toobig,lmc-a-very-long-job-name,lmc-excl,lmc-memnode,lmc-cancel
arr=${ids[5]}

# Every record the cases may show: the jobs, their array tasks, and any
# earlier lmc-* job still within MinJobAge, each once.
want=" $(squeue -h -t all -o %A -n "$names" | paste -sd' ') "
scontrol show job -d | awk -v want="$want" 'BEGIN { RS = ""; ORS = "\n\n" }
	{ split($1, a, "="); if (index(want, " " a[2] " ")) print }' |
	sed -E 's/(AllocNode:Sid=[^:]*):[0-9]+/\1:0/; s/Scheduler=Backfill/Scheduler=Main/' > jobs.txt
scontrol show partition > partitions.txt
scontrol show node > nodes.txt

# capture_cases FILE DIR COMMAND: runs every case of FILE ("name: arguments")
# with COMMAND and writes DIR/NN-name.txt.
capture_cases() {
	local file=$1 dir=$2 cmd=$3 n=0 line case_name args out rc t0 t1 try
	mkdir -p "$dir"
	rm -f "$dir"/*.txt "$dir"/*.nodes "$dir"/*.parts
	while IFS= read -r line; do
		[[ -z "$line" || "$line" == \#* ]] && continue
		n=$((n + 1))
		case_name=${line%%:*}
		args=${line#*:}
		args=${args# }
		args=${args//@NAMES@/$names}
		args=${args//@LIST@/$list}
		args=${args//@ARR@/$arr}
		args=${args//@RUN1@/$run1}
		args=${args//@RUNARR@/$runarr}
		args=${args//@OPTS@/$opts}
		eval "set -- $args"
		for try in 1 2 3 4 5; do
			t0=$(date +%s)
			if [[ -n ${SNAPSHOT:-} ]]; then
				scontrol show node -d > "$work/nodes"
				scontrol show partition > "$work/parts"
			fi
			set +e
			out=$("$cmd" "$@" 2>"$work/err"; echo "x$?")
			set -e
			t1=$(date +%s)
			[[ $t0 == "$t1" ]] && break
		done
		if [[ -n ${SNAPSHOT:-} ]]; then
			cp "$work/nodes" "$dir/$(printf '%02d' "$n")-$case_name.nodes"
			cp "$work/parts" "$dir/$(printf '%02d' "$n")-$case_name.parts"
		fi
		rc=${out##*x}
		out=${out%x*}
		{
			echo "cmd $cmd"
			for a in "$@"; do echo "arg $a"; done
			echo "now $t0"
			echo "exit $rc"
			echo "-- stdout --"
			printf '%s' "$out"
			echo "-- stderr --"
			sed -E 's/(AllocNode:Sid=[^:]*):[0-9]+/\1:0/' "$work/err"
		} | sed -E 's/(AllocNode:Sid=[^:]*):[0-9]+/\1:0/; s/Scheduler=Backfill/Scheduler=Main/' > "$dir/$(printf '%02d' "$n")-$case_name.txt"
	done < "$file"
	echo "captured $n $cmd cases"
}

runarr=${ids[2]}
opts=${ids[7]}
capture_cases squeue_cases.txt squeue squeue
capture_cases scontrol_cases.txt scontrol scontrol

# sinfo: nodes in more states, each case with the nodes and partitions it
# saw (written as NN-name.nodes / .parts, read in the same second).
scontrol update nodename=cpu008,cpu001 state=drain reason="lmc capture"
trap 'scontrol update nodename=cpu008,cpu001 state=resume; scancel "${ids[@]}" 2>/dev/null; rm -rf "$work"' EXIT
sleep 1
SNAPSHOT=1 capture_cases sinfo_cases.txt sinfo sinfo
scontrol update nodename=cpu008,cpu001 state=resume

scancel "${ids[@]}" 2>/dev/null || true
echo "captured jobs $list"
