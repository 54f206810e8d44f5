#!/bin/bash
# Captures scontrol suspend and resume on the peer Slurm into
# suspend-peer.txt: for each case, in order (the cases change the jobs'
# states), the arguments (job ids replaced by placeholders), the exit
# status and what scontrol printed on each stream, then what squeue and
# scontrol show job print for the suspended job. @PEND@ is a pending job,
# @RUN@ a running batch job, @DONE@ an ended one. "as nobody" runs the
# case as an unprivileged user. Run as root on the peer.
set -euo pipefail
out="$(cd "$(dirname "$0")" && pwd)/suspend-peer.txt"
cd /tmp
pend=$(sbatch --parsable --begin=now+1hour --wrap true)
run=$(sbatch --parsable -o /dev/null -t 5 --wrap 'sleep 120')
done=$(sbatch --parsable -o /dev/null --wrap true)
for _ in $(seq 50); do
	[ "$(squeue -h -j "$run" -o %T)" = RUNNING ] && [ "$(squeue -h -t all -j "$done" -o %T)" = COMPLETED ] && break
	sleep 0.2
done
subst() {
	local e=() id
	for id in "$pend:PEND" "$run:RUN" "$done:DONE"; do
		e+=(-e "s/(^|[^0-9])${id%%:*}([^0-9]|\$)/\1@${id##*:}@\2/g")
	done
	sed -E "${e[@]}"
}
cases=(
	"suspend" "resume" "suspend abc" "suspend 999999" "resume 999999" "su 999999" "re 999999" "res 999999"
	"suspend @PEND@" "resume @PEND@" "suspend @DONE@" "resume @DONE@" "resume @RUN@"
	"as nobody suspend @RUN@" "as nobody suspend 999999"
	"suspend @RUN@" "suspend @RUN@" "as nobody resume @RUN@" "show" "resume @RUN@" "resume @RUN@"
	"suspend JobId=@RUN@,999999" "resume @RUN@ 999999"
)
for c in "${cases[@]}"; do
	echo "case $c"
	if [ "$c" = show ]; then
		squeue -j "$run" -o '%i %t %T %r %N' | subst | sed 's/^/squeue /'
		scontrol show job "$run" | grep -E 'JobState|SuspendTime' | sed -E 's/[0-9]{4}-[0-9T:-]+/@TIME@/g; s/SecsPreSuspend=[0-9]+/SecsPreSuspend=@N@/; s/^ */show /'
		echo
		continue
	fi
	args=$(echo "${c#as nobody }" | sed -e "s/@PEND@/$pend/g; s/@RUN@/$run/g; s/@DONE@/$done/g")
	as=()
	[ "${c#as nobody }" != "$c" ] && as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	set +e
	# shellcheck disable=SC2086
	"${as[@]}" scontrol $args >/tmp/suspend.out 2>/tmp/suspend.err
	rc=$?
	set -e
	echo "exit $rc"
	sed 's/^/stdout /' /tmp/suspend.out | subst
	sed 's/^/stderr /' /tmp/suspend.err | subst
	echo
done | tee "$out"
scancel "$pend" "$run"
