#!/bin/bash
# Records the peer's sbcast for each line of cases.txt into NAME.txt: the
# exit status, standard output and standard error. Run where the peer's
# sbcast is on PATH; no job is needed (999999 and friends do not exist).
# src.txt is made with fixed access and modification times; its change
# time is the capture's, which the test rewrites.
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=/tmp/sbcast-capture
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
echo "hello world" > src.txt
chmod 640 src.txt
touch -d '2020-01-02 03:04:05' src.txt
while IFS=$'\t' read -r name envs args; do
	case $name in '#'*|'') continue ;; esac
	[ "$envs" = - ] && envs=
	# shellcheck disable=SC2086
	env -u SLURM_JOB_ID $envs sbcast $args >out 2>err
	rc=$?
	{ echo "rc=$rc"; echo "--- stdout"; cat out; echo "--- stderr"; cat err; } > "$here/$name.txt"
done < "$here/cases.txt"
