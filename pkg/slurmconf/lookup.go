package slurmconf

import (
	"io/fs"
	"strings"
)

// Lookup returns the values that the slurm.conf called name, and the files
// it includes, give the cluster keys in keys: for each key found (matched
// case-insensitively, as Parse does), every value in reading order, under
// the spelling used in keys. It reads the files exactly as Parse does but
// decodes and checks nothing, which makes it a small fraction of Parse's
// cost: the user commands use it to find the controller before anything
// else. Any problem Parse's reader reports (a missing file, an Include
// cycle, a malformed line) is returned as Parse would report it, so a
// caller can fall back to Parse for the whole story.
func Lookup(fsys fs.FS, name string, keys ...string) (map[string][]string, error) {
	d := &diag{}
	r := newReader(fsys, d)
	r.unordered = true
	r.read(name, Pos{File: name})
	if err := d.sortedErr(); err != nil {
		return nil, err
	}
	out := make(map[string][]string, len(keys))
	for _, rec := range r.records {
		f := rec.Fields[0]
		for _, k := range keys {
			if strings.EqualFold(f.Key, k) {
				out[k] = append(out[k], f.Value)
			}
		}
	}
	return out, nil
}
