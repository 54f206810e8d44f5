package controller

import (
	"fmt"
	"os/user"
	"strconv"
	"time"

	"github.com/loamhpc/loam/pkg/slurmconf"
)

// confState is a loaded configuration with the indexes the controller
// looks things up in. It is replaced whole on reconfigure, never changed.
type confState struct {
	conf        *slurmconf.Config
	loadedAt    time.Time
	parts       map[string]*slurmconf.Partition
	defPart     string
	partsOfNode map[string][]string
	slurmUID    uint32
	gpuTRES     gpuTRESRule // which GPU TRES the strings name (tres_gres.go)
	// ctld is CtldScripts less the scripts that cannot run, named in
	// ctldInvalid (ctldscripts.go).
	ctld        slurmconf.CtldScripts
	ctldInvalid []string
	// partCaps are each partition's node capacities for admission
	// (admission_capacity.go): computed once here, not at every
	// submission, since a configuration never changes in place.
	partCaps map[*slurmconf.Partition][]nodeCap
}

func newConfState(conf *slurmconf.Config, now time.Time) (*confState, error) {
	cs := &confState{conf: conf, loadedAt: now, parts: make(map[string]*slurmconf.Partition),
		partsOfNode: make(map[string][]string), gpuTRES: newGPUTRESRule(conf), partCaps: make(map[*slurmconf.Partition][]nodeCap)}
	for i := range conf.Partitions {
		p := &conf.Partitions[i]
		cs.parts[p.Name] = p
		cs.partCaps[p] = partCaps(conf, p)
		if p.Default && cs.defPart == "" {
			cs.defPart = p.Name
		}
		for _, n := range p.Nodes {
			cs.partsOfNode[n] = append(cs.partsOfNode[n], p.Name)
		}
	}
	uid, ok := lookupUID(conf.SlurmUser)
	if !ok {
		return nil, fmt.Errorf("SlurmUser %q: no such user", conf.SlurmUser)
	}
	cs.slurmUID = uid
	cs.ctld, cs.ctldInvalid = checkedScripts(conf.CtldScripts)
	return cs, nil
}

// lookupUID resolves a user name or a numeric uid.
func lookupUID(name string) (uint32, bool) {
	if n, err := strconv.ParseUint(name, 10, 32); err == nil {
		return uint32(n), true
	}
	u, err := user.Lookup(name)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(u.Uid, 10, 32)
	return uint32(n), err == nil
}
