#!/bin/bash
# capture-squeue-sweep.sh records what the peer's squeue prints for a second
# set of jobs (names sqs-*): running, held, throttled and held arrays, a
# dependency, a begin time, several partitions, options that leave fields
# NULL. It writes squeue-sweep/jobs.txt (scontrol show job -d) and one file
# per case of squeue_sweep_cases.txt, in capture.sh's format, then cancels
# its jobs. Run it from this directory on a host where the peer runs.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
ids=()
trap 'scancel "${ids[@]}" 2>/dev/null; rm -rf "$work"' EXIT
sub() { # sub NAME [sbatch options...]
	local name=$1 id
	shift
	id=$(cd "$work" && sbatch --parsable -J "$name" "$@")
	ids+=("${id%%;*}")
}
sub sqs-run1 -N1 -t 30 --wrap "sleep 900"
sub sqs-run2 -p urgent -N2 --gres=gpu:8 -t 1:00:00 --wrap "sleep 900"
sub sqs-runarr --array=0-2 -t 10 --wrap "sleep 900"
sub sqs-thr --array=1-6%2 -t 20 --wrap "sleep 900"
sub sqs-runmn -N2 -n4 -c2 --mem=2G -t 45 --wrap "sleep 900"
sleep 2
sub sqs-held --hold --wrap true
sub sqs-harr --hold --array=2-5 --wrap true
sub sqs-dep --dependency=afterok:"${ids[0]}" --wrap true
sub sqs-begin --begin=now+1hour --wrap true
sub sqs-multi -p normal,batch --hold -t 5 --wrap true
sub sqs-opts -A acct1 --comment="hi there" -C gpu --nice=10 --hold -t 2-00:00:00 --mem=4G -c 2 \
	--gres=gpu:2 -x gpu003 --wrap true
sub sqs-excl --exclusive --hold -w gpu[005-006] --wrap true
sub sqs-memcpu --mem-per-cpu=2000 -n 3 --ntasks-per-node=3 --hold -p batch --wrap true
sleep 3
names=sqs-run1,sqs-run2,sqs-runarr,sqs-thr,sqs-runmn,sqs-held,sqs-harr,sqs-dep,sqs-begin,sqs-multi,sqs-opts,sqs-excl,sqs-memcpu
want=" $(squeue -h -t all -o %A -n "$names" | paste -sd' ') "
scontrol show job -d | awk -v want="$want" 'BEGIN { RS = ""; ORS = "\n\n" }
	{ split($1, a, "="); if (index(want, " " a[2] " ")) print }' |
	sed -E 's/(AllocNode:Sid=[^:]*):[0-9]+/\1:0/; s/Scheduler=Backfill/Scheduler=Main/' > squeue-sweep/jobs.txt
dir=squeue-sweep/cases
mkdir -p "$dir"
rm -f "$dir"/*.txt
n=0
while IFS= read -r line; do
	[[ -z "$line" || "$line" == \#* ]] && continue
	n=$((n + 1))
	case_name=${line%%:*}
	args=${line#*: }
	args=${args//@NAMES@/$names}
	eval "set -- $args"
	for try in 1 2 3 4 5; do
		t0=$(date +%s)
		set +e
		out=$(squeue "$@" 2>"$work/err"; echo "x$?")
		set -e
		t1=$(date +%s)
		[[ $t0 == "$t1" ]] && break
	done
	rc=${out##*x}
	out=${out%x*}
	{
		echo "cmd squeue"
		for a in "$@"; do echo "arg $a"; done
		echo "now $t0"
		echo "exit $rc"
		echo "-- stdout --"
		printf '%s' "$out"
		echo "-- stderr --"
		cat "$work/err"
	} > "$dir/$(printf '%02d' "$n")-$case_name.txt"
done < squeue_sweep_cases.txt
echo "captured $n cases"
