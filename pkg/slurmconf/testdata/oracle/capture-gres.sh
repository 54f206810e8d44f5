#!/bin/sh
# Records how real Slurm's slurmd reads gres.conf for node n1 of each case:
#   gres/<case>/{slurm,gres}.conf  ->  gres/<case>/slurmd.out
# The device files must exist, so they are created as symlinks to
# /dev/null under /tmp/loam-gres-oracle/dev (the path the cases use).
set -u
cd "$(dirname "$0")"
mkdir -p /tmp/loam-gres-oracle/dev
for i in 0 1 2 3 4 5 6 7; do ln -sf /dev/null /tmp/loam-gres-oracle/dev/nvidia$i; done
for d in gres/*/; do
	d=${d%/}
	abs=$(cd "$d" && pwd)
	out=$(timeout 10 slurmd -G -N n1 -f "$abs/slurm.conf" 2>&1)
	rc=$?
	{
		echo "rc=$rc"
		printf '%s\n' "$out" | sed -e "s|$abs|DIR|g" -e 's/ ID=[0-9]*//' | grep -v '^$'
	} > "$d/slurmd.out"
done
