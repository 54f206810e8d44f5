package sim

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/loamhpc/loam/pkg/slurmconf"
)

// LoadConfig reads the cluster a replay runs on: slurm.conf at conf in fsys
// (with gres.conf, topology.conf and tenants.conf beside it, as the
// controller reads them) and, when tenants is not empty, the tenants.conf
// at that path instead of the one beside slurm.conf. The result is
// validated.
func LoadConfig(fsys fs.FS, conf, tenants string) (*slurmconf.Config, error) {
	cfg, err := slurmconf.Load(fsys, conf)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", conf, err)
	}
	if tenants != "" {
		t, err := slurmconf.ParseTenants(fsys, tenants)
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", tenants, err)
		}
		cfg.Tenants, cfg.Users = t.Tenants, t.Users
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("validate %s: %w", conf, err)
	}
	if len(cfg.Partitions) == 0 {
		return nil, errors.New("configuration has no partitions")
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
