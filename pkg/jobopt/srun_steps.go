package jobopt

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/loamhpc/loam/pkg/hostlist"
)

// arbitraryHosts keeps, for srun -m arbitrary, the node of each task in
// order: the -w list, or when there is none the file SLURM_HOSTFILE names
// (one node name a line, or several separated by commas), as Slurm's srun
// reads it. The node list the step asks for is then that file's nodes.
func (b *builder) arbitraryHosts(st *srunState) error {
	if !b.arbitrary || !st.srun {
		return nil
	}
	if b.req.NodeList == "" {
		file, ok := b.p.getenv("SLURM_HOSTFILE")
		if !ok || file == "" {
			return nil // verifyDistribution says -w is needed
		}
		list, err := readHostFile(file, b.p.Cwd)
		if err != nil {
			return b.exitError(err.Error())
		}
		b.req.NodeList = list
	}
	hosts, err := hostlist.Expand(b.req.NodeList)
	if err != nil {
		return b.exitError("Invalid node list \"" + b.req.NodeList + "\": " + err.Error())
	}
	st.TaskHosts = hosts
	return nil
}

// readHostFile reads a SLURM_HOSTFILE file as a comma separated list.
func readHostFile(file, cwd string) (string, error) {
	if !filepath.IsAbs(file) && cwd != "" {
		file = filepath.Join(cwd, file)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	var names []string
	for _, line := range strings.Split(string(data), "\n") {
		for _, f := range strings.Split(line, ",") {
			if f = strings.TrimSpace(f); f != "" && !strings.HasPrefix(f, "#") {
				names = append(names, f)
			}
		}
	}
	if len(names) == 0 {
		return "", os.ErrNotExist
	}
	return strings.Join(names, ","), nil
}

// setRelative reads -r: a node index, 0 or more.
func (st *srunState) setRelative(b *builder, v value) error {
	if v.reset {
		st.Relative = nil
		return nil
	}
	n, err := b.parseInt("--relative", v.str, false)
	if err != nil {
		return err
	}
	st.Relative = &n
	return nil
}
