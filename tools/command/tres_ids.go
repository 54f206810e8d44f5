package command

// accountingTRES are the TRES Loam counts, numbered as Slurm's accounting
// numbers them (sacctmgr list tres, sacct --json): the built-in types,
// then the first GRES at 1001.
var accountingTRES = []struct {
	typ, name string
	id        int
}{
	{"cpu", "", 1}, {"mem", "", 2}, {"energy", "", 3}, {"node", "", 4}, {"billing", "", 5},
	{"fs", "disk", 6}, {"vmem", "", 7}, {"pages", "", 8}, {"gres", "gpu", 1001},
}

// accountingTRESID is the id of a TRES by its full name ("cpu",
// "fs/disk", "gres/gpu"); a GRES Loam does not list takes the first
// GRES's id.
func accountingTRESID(full string) int {
	for _, t := range accountingTRES {
		if (t.name == "" && full == t.typ) || (t.name != "" && full == t.typ+"/"+t.name) {
			return t.id
		}
	}
	return 1001
}
