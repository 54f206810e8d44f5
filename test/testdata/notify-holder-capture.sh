#!/bin/bash
# Captures scontrol notify to jobs held by srun and salloc on the Slurm
# peer (notify-holder-peer.txt): two running, two pending (--begin), each
# told "hello world"; the pending ones are then cancelled.
set -u
dir=$(mktemp -d) && cd "$dir"
run() { name=$1; shift; "$@" > "$name.out" 2> "$name.err" & }
run srun-running /usr/bin/srun -N1 -J notifycap1 bash -c 'while [ ! -e gate1 ]; do sleep 0.1; done'
run salloc-running /usr/bin/salloc -N1 -J notifycap2 bash -c 'while [ ! -e gate2 ]; do sleep 0.1; done'
run srun-pending /usr/bin/srun -N1 -J notifycap3 --begin=now+1hour true
run salloc-pending /usr/bin/salloc -N1 -J notifycap4 --begin=now+1hour true
sleep 4
for i in 1 2 3 4; do
	id=$(/usr/bin/squeue -h -u "$(id -un)" -n notifycap$i -o %i)
	/usr/bin/scontrol notify "$id" hello world > n$i.out 2> n$i.err
	echo "# notifycap$i: scontrol exit $? stdout '$(cat n$i.out)' stderr '$(cat n$i.err)'" >&2
	echo "$id" > id$i
done
sleep 2
touch gate1 gate2
/usr/bin/scancel "$(cat id3)" "$(cat id4)"
sleep 3
for i in 1 2 3 4; do
	n=$(sed -n ${i}p <<< $'srun-running\nsalloc-running\nsrun-pending\nsalloc-pending')
	echo "case $n"
	sed -e "s/$(cat id$i)/@ID@/g" -e 's/^/stderr /' "$n.err"
done
