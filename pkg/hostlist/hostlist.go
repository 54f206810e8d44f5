// Package hostlist expands and compresses Slurm host lists ("gpu[001-004,07]",
// "r[1-2]n[01-02]") exactly as Slurm's `scontrol show hostnames` and
// `scontrol show hostlist` do.
package hostlist

import "errors"

// Expand returns every host name in list, in list order, duplicates kept.
func Expand(list string) ([]string, error) {
	return nil, errors.New("hostlist: not implemented")
}

// Compress returns the shortest Slurm host list for names, sorted and with
// duplicates removed, as `scontrol show hostlist` prints it.
func Compress(names []string) string {
	return ""
}
