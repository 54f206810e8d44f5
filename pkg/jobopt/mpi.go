package jobopt

import "strings"

// MPITypes are the --mpi values Loam's srun lists (--mpi=list): it starts
// tasks without a PMI server, which is Slurm's "none".
var MPITypes = []string{"none"}

// slurmMPITypes are the MPI plugins of Slurm 22.05 that Loam recognizes
// and ignores with a warning: their tasks start without the PMI wire-up
// those plugins give (torchrun and NCCL do not need one).
func slurmMPIType(t string) bool {
	return t == "pmi2" || t == "cray_shasta" || t == "pmix" || strings.HasPrefix(t, "pmix_v")
}

func (st *srunState) setMPI(b *builder, v value) error {
	st.mpi, st.mpiSrc = v.str, v
	return nil
}

// checkMPI reads srun's final --mpi (or SLURM_MPI_TYPE) as srun does once
// its options are read: "list" prints the types and exits (before the
// command is checked), "none" is taken, Slurm's other plugins are ignored
// with a warning, and anything else, in any other case too, fails with
// the lines srun prints when it cannot load the plugin.
func (b *builder) checkMPI(st *srunState) error {
	switch {
	case st.mpiSrc.name == "" || st.mpi == "none" || st.mpi == "list":
		return nil
	case slurmMPIType(st.mpi):
		b.ignored(st.mpiSrc)
		return nil
	}
	prog := b.p.prog() + ": error: "
	return &Error{Code: ExitError, Lines: []string{
		prog + "Couldn't find the specified plugin name for mpi/" + st.mpi + " looking at all files",
		prog + "cannot find mpi plugin for mpi/" + st.mpi,
		prog + "MPI: Cannot create context for mpi/" + st.mpi,
		prog + "MPI: Unable to load any plugin",
		prog + "Invalid MPI type '" + st.mpi + "', --mpi=list for acceptable types",
	}}
}
