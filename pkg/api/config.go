package api

// PingResponse answers PathPing and PathNodedPing.
type PingResponse struct {
	// Daemon is "loam-ctld" or "loam-noded"; Host its host (node) name.
	Daemon  string `json:"daemon"`
	Host    string `json:"host"`
	Version string `json:"version"`
	// Primary is set when the answering controller is the primary
	// (scontrol ping prints "primary").
	Primary bool  `json:"primary,omitempty"`
	Now     int64 `json:"now"`
	// StartTime is when the daemon started.
	StartTime int64 `json:"start_time"`
}

// KeyValue is one line of scontrol show config.
type KeyValue struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// ConfigResponse answers PathConfig: the running configuration as
// scontrol show config prints it, in its order.
type ConfigResponse struct {
	Now         int64  `json:"now"`
	ClusterName string `json:"cluster_name"`
	// LoadedAt is when this configuration was read (Last configuration
	// change).
	LoadedAt int64 `json:"loaded_at"`
	// BootTime is when the controller started (BOOT_TIME): the command
	// prints it in its own time format.
	BootTime int64      `json:"boot_time,omitempty"`
	Files    []string   `json:"files"`
	Entries  []KeyValue `json:"entries"`
}

// ReconfigureResponse answers PathReconfigure. On a refused configuration
// the answer is an error (CodeInvalidConfig) whose Detail lists every
// problem with file:line; nothing changed.
type ReconfigureResponse struct {
	// Warnings are the problems that did not stop loading.
	Warnings []string `json:"warnings,omitempty"`
	Files    []string `json:"files"`
}

// PathNodedReconfigure (signed by the controller) takes
// NodedReconfigureRequest and answers NodedResponse: after its own
// reconfigure, the controller asks every responding node daemon to reread
// its files, as slurmctld sends REQUEST_RECONFIGURE to every slurmd. A
// daemon whose files do not load answers CodeInvalidConfig and keeps the
// configuration in force.
const PathNodedReconfigure = "/v1/noded/reconfigure"

// NodedReconfigureRequest carries the controller's configuration
// generation (RegisterResponse.ConfigGeneration), so that the daemon does
// not reread its files again when a heartbeat answer brings the same one.
type NodedReconfigureRequest struct {
	Generation string `json:"generation"`
}
