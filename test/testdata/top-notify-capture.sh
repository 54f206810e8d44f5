#!/bin/bash
# Captures scontrol top and notify on the peer Slurm into
# top-notify-peer.txt: for each case the arguments (job ids replaced by
# placeholders), the exit status and what scontrol printed on each
# stream. @PEND@ is a pending job, @HELD@ a held one, @MULTI@ one that may
# run in two partitions, @RUN@ a running batch job, @DONE@ an ended one.
# Run as root on the peer.
set -euo pipefail
out="$(cd "$(dirname "$0")" && pwd)/top-notify-peer.txt"
cd /tmp
pend=$(sbatch --parsable --begin=now+1hour --wrap true)
held=$(sbatch --parsable -H --wrap true)
multi=$(sbatch --parsable -p normal,batch --begin=now+1hour --wrap true)
run=$(sbatch --parsable -o /dev/null --wrap 'sleep 60')
done=$(sbatch --parsable -o /dev/null --wrap true)
for _ in $(seq 50); do
	[ "$(squeue -h -j "$run" -o %T)" = RUNNING ] && [ "$(squeue -h -t all -j "$done" -o %T)" = COMPLETED ] && break
	sleep 0.2
done
subst() {
	local e=() id
	for id in "$pend:PEND" "$held:HELD" "$multi:MULTI" "$run:RUN" "$done:DONE"; do
		e+=(-e "s/(^|[^0-9])${id%%:*}([^0-9]|\$)/\1@${id##*:}@\2/g")
	done
	sed -E "${e[@]}"
}
cases=(
	"top" "top 1 2" "top 99999" "top abc" "top 0" "top ," "top @PEND@,99999" "top jobid=99999" "top job=99999"
	"top JobId=,99999," "-Q top 99999" "TOP 99999" "to 99999" "top @RUN@" "top @HELD@" "top @MULTI@"
	"top @PEND@" "top @RUN@,@PEND@" "top @PEND@_*" "top @PEND@_1"
	"notify" "notify 99999" "-Q notify" "notify 99999 hi" "-Q notify 99999 hi" "n 99999 hi"
	"notify abc hi" "notify 0 hi" "notify @PEND@ hello there" "notify @HELD@ hi" "notify @DONE@ hi"
)
for c in "${cases[@]}"; do
	args=$(echo "$c" | sed -e "s/@PEND@/$pend/g; s/@HELD@/$held/g; s/@MULTI@/$multi/g; s/@RUN@/$run/g; s/@DONE@/$done/g")
	set +e
	# shellcheck disable=SC2086
	scontrol $args >/tmp/top-notify.out 2>/tmp/top-notify.err
	rc=$?
	set -e
	echo "case $c"
	echo "exit $rc"
	sed 's/^/stdout /' /tmp/top-notify.out | subst
	sed 's/^/stderr /' /tmp/top-notify.err | subst
	if [ -s /tmp/top-notify.err ] && [ "$(tail -c1 /tmp/top-notify.err | od -An -c | tr -d ' ')" != '\n' ]; then
		echo
		echo "stderr-ends-without-newline"
	fi
	echo
done | tee "$out"
scancel "$pend" "$held" "$multi" "$run"
