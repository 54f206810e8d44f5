package sim

import (
	"fmt"
	"io/fs"

	"github.com/loamhpc/loam/pkg/slurmconf"
)

// LoadConfig reads the cluster a replay runs on: slurm.conf at conf in fsys
// (with gres.conf, topology.conf and tenants.conf beside it, as the
// controller reads them) and, when tenants is not empty, the tenants.conf
// at that path instead of the one beside slurm.conf. The result is
// validated. Errors name files with prefix before their fsys names ("/"
// for os.DirFS("/")).
func LoadConfig(fsys fs.FS, conf, tenants, prefix string) (*slurmconf.Config, error) {
	cfg, err := slurmconf.LoadCheckedWith(fsys, conf, prefix, func(c *slurmconf.Config) error {
		if tenants == "" {
			return nil
		}
		t, err := slurmconf.ParseTenants(fsys, tenants)
		if err != nil {
			return err
		}
		c.Tenants, c.Users = t.Tenants, t.Users
		return nil
	})
	if err != nil {
		return nil, err // its messages name the file and line
	}
	if len(cfg.Partitions) == 0 {
		return nil, fmt.Errorf("%s%s: configuration has no partitions", prefix, conf)
	}
	return cfg, nil
}

// DefaultPartition is the Default=YES partition's name, or "" (Prepare then
// takes the first).
func DefaultPartition(cfg *slurmconf.Config) string {
	if p, ok := cfg.DefaultPartition(); ok {
		return p.Name
	}
	return ""
}
