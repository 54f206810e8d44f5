package job

import (
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/resource"
)

// Request is everything a batch submission carries, as sbatch builds it
// from its command line, #SBATCH lines and SBATCH_* variables, and as the
// controller stores and the scheduler reads it. It travels on the wire as
// JSON; field names follow slurmrestd's job description where it has one.
//
// Unset is distinguishable from set wherever Slurm distinguishes them: zero
// counts mean "not given" (Slurm refuses 0 for those options), pointers are
// nil when not given.
type Request struct {
	// Who and what.
	Name        string   `json:"name,omitempty"`
	Account     string   `json:"account,omitempty"`
	Partitions  []string `json:"partitions,omitempty"` // in the order given; -p a,b
	QOS         string   `json:"qos,omitempty"`
	Comment     string   `json:"comment,omitempty"`
	WCKey       string   `json:"wckey,omitempty"` // --wckey: recorded and shown, as without accounting
	Reservation string   `json:"reservation,omitempty"`
	// Licenses is -L as given ("matlab:1,wandb"); the controller checks
	// it against slurm.conf's Licenses.
	Licenses string `json:"licenses,omitempty"`
	// Container (--container), MCSLabel (--mcs-label) and TresFreq
	// (--gpu-freq, as "gpu:" and the value) are recorded and shown, as
	// Slurm does without an OCI runtime, an MCS plugin or NVML clocks.
	Container string `json:"container,omitempty"`
	MCSLabel  string `json:"mcs_label,omitempty"`
	TresFreq  string `json:"tres_freq,omitempty"`

	// The script and how it runs. Argv is the script path followed by its
	// arguments, as scontrol's Command= shows them; empty for --wrap and for
	// a script read from standard input.
	Script      string   `json:"script,omitempty"`
	Argv        []string `json:"argv,omitempty"`
	WorkDir     string   `json:"current_working_directory,omitempty"`
	StdOut      string   `json:"standard_output,omitempty"` // pattern (%j, %A_%a...); "" = controller default
	StdErr      string   `json:"standard_error,omitempty"`
	StdIn       string   `json:"standard_input,omitempty"`
	OpenMode    OpenMode `json:"open_mode,omitempty"`
	Export      *Export  `json:"export,omitempty"`      // nil: --export not given (ALL)
	Environment []string `json:"environment,omitempty"` // KEY=VALUE, as the job will see it

	// Shape.
	MinNodes int  `json:"min_nodes,omitempty"`
	MaxNodes int  `json:"max_nodes,omitempty"` // 0: no maximum given
	NodesSet bool `json:"nodes_set,omitempty"` // -N given (Slurm accepts -N 0)
	// NodesFromGPUs: the node count is --gpus over GPUs a node, set by the
	// client after its task count (Slurm's gres_job_state_validate): the
	// job asks no task a node, so a pending job shows one task's CPUs.
	NodesFromGPUs bool `json:"nodes_from_gpus,omitempty"`
	NTasks        int  `json:"tasks,omitempty"`
	NTasksPerNode int  `json:"tasks_per_node,omitempty"`
	CPUsPerTask   int  `json:"cpus_per_task,omitempty"`
	MinCPUs       int  `json:"min_cpus,omitempty"` // --mincpus: CPUs each node must have
	// NumCPUs and MaxCPUs come from scontrol update NumCPUs=N[-M] (or
	// MinCPUsNode=): the job's CPUs in place of its tasks' CPUs, as
	// Slurm's min_cpus and max_cpus. 0: from the tasks; no maximum.
	NumCPUs int `json:"num_cpus,omitempty"`
	MaxCPUs int `json:"max_cpus,omitempty"`
	// NoKill (-k, --no-kill): the job keeps running on its other nodes
	// when one of them fails (not its batch host), as in Slurm.
	NoKill bool `json:"no_kill,omitempty"`
	// Overcommit (-O) lets tasks share CPUs: each node gets one task's CPUs.
	Overcommit bool `json:"overcommit,omitempty"`
	// SpreadJob (--spread-job) spreads the tasks over as many nodes as
	// there are tasks, as far as the partition has nodes.
	SpreadJob bool `json:"spread_job,omitempty"`
	// UseMinNodes (--use-min-nodes): a -N min-max job starts on min nodes
	// even when more are free.
	UseMinNodes bool `json:"use_min_nodes,omitempty"`
	// Distribution is -m as given ("block:block", "plane=4"): the srun
	// in the job reads it from SLURM_DISTRIBUTION; the controller picks
	// the job's CPU ids by its second level.
	Distribution string `json:"distribution,omitempty"`
	// The CPU layout and binding asked for with -B, --sockets-per-node,
	// --cores-per-socket, --threads-per-core, --hint, --ntasks-per-core,
	// --ntasks-per-socket, --gpu-bind and --cpu-freq, after the commands'
	// rules between them (layout.go in jobopt). Loam records and shows
	// them as Slurm does but neither places nor binds by them. 0 is not
	// given; NTasksPerCore is NTasksPerCoreAny for --hint=multithread.
	SocketsPerNode  int      `json:"sockets_per_node,omitempty"`
	CoresPerSocket  int      `json:"cores_per_socket,omitempty"`
	ThreadsPerCore  int      `json:"threads_per_core,omitempty"`
	NTasksPerCore   int      `json:"ntasks_per_core,omitempty"`
	NTasksPerSocket int      `json:"ntasks_per_socket,omitempty"`
	TRESBind        string   `json:"tres_bind,omitempty"` // "gpu:closest": --gpu-bind
	CPUFreq         *CPUFreq `json:"cpu_frequency,omitempty"`

	// Memory in megabytes; at most one of the three is set.
	MemPerNode *int64 `json:"memory_per_node,omitempty"` // --mem; 0 means all of each node's memory
	MemPerCPU  *int64 `json:"memory_per_cpu,omitempty"`
	MemPerGPU  *int64 `json:"memory_per_gpu,omitempty"`
	// TmpDisk is --tmp in megabytes: the least TmpDisk a node of the job
	// must have (0: any). It is not consumed: jobs that each ask a node's
	// whole TmpDisk share the node, as in Slurm.
	TmpDisk int64 `json:"temporary_disk_per_node,omitempty"`

	// GPUs and other generic resources. Each GRES list has Name "gpu" for
	// the --gpus* options; --gres may name anything.
	GPUs        []resource.GRES `json:"gpus,omitempty"`          // -G, for the whole job
	GPUsPerNode []resource.GRES `json:"gpus_per_node,omitempty"` // --gpus-per-node
	GPUsPerTask []resource.GRES `json:"gpus_per_task,omitempty"` // --gpus-per-task
	CPUsPerGPU  int             `json:"cpus_per_gpu,omitempty"`
	// CPUsPerGPUDefault: CPUsPerGPU is the partition's DefCPUPerGPU, set
	// by the controller (scontrol shows CpusPerTres=gpu:N, not gres:gpu:N).
	CPUsPerGPUDefault bool            `json:"cpus_per_gpu_default,omitempty"`
	GRES              []resource.GRES `json:"gres,omitempty"` // --gres, per node
	// NTasksPerGPU is --ntasks-per-gpu (scontrol's NtasksPerTRES). With -n
	// and no GPU option it asks for a GPU per NTasksPerGPU tasks, as in
	// Slurm: GPUs holds that count and GPUsFromTasks is set, as Slurm
	// shows no TresPerJob for it.
	NTasksPerGPU  int  `json:"ntasks_per_gpu,omitempty"`
	GPUsFromTasks bool `json:"gpus_from_tasks,omitempty"`

	// Placement.
	Exclusive Exclusive `json:"exclusive,omitempty"`
	NodeList  string    `json:"required_nodes,omitempty"` // -w, a host list
	Exclude   string    `json:"excluded_nodes,omitempty"` // -x, a host list
	// Constraint is -C as given ("gpu&ib", "[rack1|rack2]"). Features holds
	// its features when it is a plain AND list ("a&b", "a,b"), else nil.
	Constraint string   `json:"constraints,omitempty"`
	Features   []string `json:"features,omitempty"`
	// Prefer is --prefer as given, commas made '&': features tried in
	// place of -C first, -C alone when no node set with them can start
	// the job now (Slurm 22.05's soft constraint).
	Prefer string `json:"prefer,omitempty"`
	// BatchFeatures is --batch as given: the features the node that runs
	// the batch script should have, a subset of -C's (or --prefer's). nil
	// is not given; "" is --batch= (Slurm keeps and shows it, and refuses
	// it without -C).
	BatchFeatures *string `json:"batch_features,omitempty"`
	// Switches is --switches' count: the most leaf switches of
	// topology.conf the job's nodes may span until it has waited
	// SwitchWait (0: no limit). SwitchWait is the @max-time in seconds,
	// capped by SchedulerParameters=max_switch_wait when the controller
	// accepts it; nil takes max_switch_wait (300 s by default), as Slurm.
	Switches   int    `json:"required_switches,omitempty"`
	SwitchWait *int64 `json:"wait_for_switch,omitempty"`
	// Contiguous is --contiguous: the job's nodes are consecutive in the
	// order slurm.conf lists them.
	Contiguous bool `json:"contiguous,omitempty"`
	// Reboot is --reboot. Slurm reboots the job's nodes before it starts
	// and so gives it whole nodes; Loam reboots nothing but gives it whole
	// nodes all the same (the controller makes it Exclusive).
	Reboot bool `json:"reboot,omitempty"`

	// Options Loam records and shows as Slurm does (scontrol show job,
	// squeue) but does not act on: it has no burst buffers, interconnect
	// or power plugins, federation, node features to boot into, or GPU
	// placement by socket. "" and 0 are not given.
	BurstBuffer       string `json:"burst_buffer,omitempty"`       // --bb as given
	Network           string `json:"network,omitempty"`            // --network as given
	ClusterConstraint string `json:"cluster_constraint,omitempty"` // --cluster-constraint as given
	// DelayBoot is --delay-boot in seconds; slurmtime.InfiniteSecs for
	// UNLIMITED.
	DelayBoot  int64 `json:"delay_boot,omitempty"`
	PowerLevel bool  `json:"power_level,omitempty"` // --power=level
	// GresFlags is --gres-flags: GresEnforceBinding or GresDisableBinding.
	GresFlags GresFlags `json:"gres_flags,omitempty"`
	// AdminComment is operators' note (scontrol update AdminComment=).
	AdminComment string `json:"admin_comment,omitempty"`
	// AcctgFreq is --acctg-freq as given: the controller refuses task
	// intervals Slurm refuses (TaskAcctgFreqAllowed); Loam reads usage
	// from the job's cgroup counters, which need no sampling.
	AcctgFreq string `json:"acctg_freq,omitempty"`
	// GPUsPerSocket is --gpus-per-socket as given ("2", "a100:2"): Slurm
	// prefixes it with "gres:gpu:" without reading it.
	GPUsPerSocket string `json:"gpus_per_socket,omitempty"`

	// Time. A nil limit was not given; slurmtime.Unlimited is UNLIMITED.
	TimeLimit *time.Duration `json:"time_limit,omitempty"`
	TimeMin   *time.Duration `json:"time_minimum,omitempty"`
	Begin     *time.Time     `json:"begin_time,omitempty"`
	Deadline  *time.Time     `json:"deadline,omitempty"`

	// Priority, life cycle and notification.
	Nice             *int     `json:"nice,omitempty"`
	Priority         *int64   `json:"priority,omitempty"` // --priority: operators' only, as slurmctld takes it
	Hold             bool     `json:"hold,omitempty"`
	Requeue          *bool    `json:"requeue,omitempty"` // nil: the cluster's JobRequeue default
	Signal           *Signal  `json:"signal,omitempty"`
	MailType         MailType `json:"mail_type,omitempty"`
	MailUser         string   `json:"mail_user,omitempty"`
	KillOnInvalidDep *bool    `json:"kill_on_invalid_dependency,omitempty"`

	// Arrays and dependencies stay in their spec syntax: only the
	// controller knows MaxArraySize and the jobs referenced, and Slurm
	// refuses bad specs there (ParseArray, ParseDependency).
	Array      string `json:"array,omitempty"`
	Dependency string `json:"dependency,omitempty"`

	// DataPaths (Loam, --data) must exist before the job is accepted.
	DataPaths []string `json:"data_paths,omitempty"`

	// RunAsUser is --uid, honoured for root only.
	RunAsUser string `json:"run_as_user,omitempty"`

	// AllocSID is the session id of the submitting command (sbatch,
	// salloc, srun), which scontrol shows as AllocNode:Sid.
	AllocSID int `json:"alloc_sid,omitempty"`
	// EmptyName: -J "" was given, so the job keeps an empty name where
	// the controller would name an unnamed job "sbatch".
	EmptyName bool `json:"empty_name,omitempty"`

	// Filled in by the controller from the submitter's credential, never
	// taken from the client.
	UserID     uint32 `json:"user_id"`
	GroupID    uint32 `json:"group_id"`
	UserName   string `json:"user_name,omitempty"`
	SubmitHost string `json:"submit_host,omitempty"`
	// AllocNode is the name of the host the request came from, as the
	// controller resolves the connection's address (scontrol's
	// AllocNode:Sid); SubmitHost stays the client's own hostname.
	AllocNode string `json:"alloc_node,omitempty"`
	SubmitDir string `json:"submit_dir,omitempty"`
	// DefaultOutput: -o was not given and StdOut is the name the
	// controller gave (slurm-%j.out), which squeue tells from the same
	// name given with -o.
	DefaultOutput bool `json:"default_output,omitempty"`
}

// OpenMode is how the job opens its output files.
type OpenMode string

// Open modes; "" leaves it to the cluster (JobFileAppend).
const (
	OpenAppend   OpenMode = "append"
	OpenTruncate OpenMode = "truncate"
)

// Exclusive is the node sharing the job asks for.
type Exclusive string

// Sharing modes; "" leaves it to the partition.
const (
	ExclusiveNodes Exclusive = "exclusive"     // --exclusive: whole nodes
	ExclusiveUser  Exclusive = "user"          // share only with the same user
	ExclusiveMCS   Exclusive = "mcs"           // share only with the same MCS label
	Oversubscribe  Exclusive = "oversubscribe" // --oversubscribe / --exclusive=oversubscribe
)

// GresFlags is --gres-flags' binding of CPUs to GRES.
type GresFlags string

// The two --gres-flags values; "" is not given.
const (
	GresEnforceBinding GresFlags = "enforce-binding"
	GresDisableBinding GresFlags = "disable-binding"
)

// SimpleFeatures returns the features of a constraint that is a plain AND
// list ("gpu&ib", "gpu,ib", "gpu"), or nil when it uses OR, brackets,
// parentheses or counts, whose meaning needs the node inventory.
func SimpleFeatures(constraint string) []string {
	if constraint == "" || strings.ContainsAny(constraint, "|[]()*!") {
		return nil
	}
	parts := strings.FieldsFunc(constraint, func(r rune) bool { return r == '&' || r == ',' })
	if len(parts) != strings.Count(constraint, "&")+strings.Count(constraint, ",")+1 {
		return nil // an empty feature: "a&&b", "&a"
	}
	return parts
}

// TasksOfGPUs is the task count --gpus over --gpus-per-task makes (Slurm's
// client counts --gpus=16 --gpus-per-task=2 as 8 tasks); 0 when either is
// missing or they do not divide.
func (r *Request) TasksOfGPUs() int {
	perJob, perTask := resource.GPUCount(r.GPUs), resource.GPUCount(r.GPUsPerTask)
	if perJob <= 0 || perTask <= 0 || perJob%perTask != 0 {
		return 0
	}
	return perJob / perTask
}

// NodeGPUs is the GPUs r asks of each node: --gpus-per-node and the gpu
// entries of --gres together, as Slurm's GRES checks count them.
func (r *Request) NodeGPUs() int {
	return resource.GPUCount(r.GPUsPerNode) + resource.GPUCount(r.GRES)
}
