// Package isolation confines a job's processes: one control group per job
// (and later per step) that holds its CPUs, memory, process count and
// device access, and that can be signalled, killed and removed as a whole.
//
// The Isolator creates Groups from a Spec; package isolation/cgroup
// implements it with the kernel's cgroups (v1 controllers where the host
// mounts them, as on hosts in hybrid mode, v2 otherwise), isolation/cgfs
// loads and works on existing groups with imports light enough for a
// process started per job, and isolation/isolationtest is an in-memory
// fake for tests of callers.
//
// Device policy: every device stays allowed except those a Spec denies.
// The node daemon denies each GPU of the node that the job was not given,
// so a job can open only its own /dev/nvidiaN while /dev/null, ptys and the
// like keep working.
//
// Lifecycle of a job's group: the node daemon creates it, the job's
// supervisor loads it and drives the rest (the Loader is all it needs):
//
//	Create(spec) ──> Load(name) ──> Add(pid) ... Signal(sig) ... ──> Kill() ──> Delete()
//	 (daemon)         (supervisor)                                  (freeze, SIGKILL
//	                                                                 every pid, thaw,
//	                                                                 until empty)
//
// Delete refuses a group that still holds processes; Kill first.
package isolation
