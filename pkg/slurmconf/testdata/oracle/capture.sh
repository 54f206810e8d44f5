#!/bin/sh
# Records how real Slurm (the peer's 22.05 client) reads each test case, as
# the oracle for oracle_test.go. Run it on a host with Slurm installed:
#   slurm/<case>/slurm.conf  ->  slurm/<case>/slurm.out
# scontrol parses slurm.conf (with its Include files) before anything else;
# "show hostnames" then needs no controller. The output is the exit status
# and stderr, with the case directory replaced by DIR.
set -u
cd "$(dirname "$0")"
for d in slurm/*/; do
	d=${d%/}
	abs=$(cd "$d" && pwd)
	err=$(SLURM_CONF="$abs/slurm.conf" timeout 10 scontrol show hostnames x 2>&1 >/dev/null)
	rc=$?
	{
		echo "rc=$rc"
		printf '%s\n' "$err" | sed "s|$abs|DIR|g" | grep -v '^$'
	} > "$d/slurm.out"
done
