package api

// sbcast: copying a file to every node of a running job. The command asks
// the controller for a grant per node (PathSbcast), then sends the file to
// each node's daemon itself, in chunks (PathNodedSbcast). A grant is signed
// by the controller with the cluster key as if it were a request with
// method SbcastGrantMethod to SbcastGrantURI from SbcastGrantSender, so it
// can never pass for one of the controller's orders to a node.

// Paths of sbcast.
const (
	// PathSbcast takes SbcastRequest and answers SbcastResponse
	// (controller).
	PathSbcast = "/v1/sbcast"
	// PathNodedSbcast takes SbcastChunk and answers SbcastChunkResponse
	// (node daemon, TCP; authorised by the grant inside the chunk).
	PathNodedSbcast = "/v1/noded/sbcast"
)

// What a grant's signature covers besides its claims.
const (
	SbcastGrantMethod = "SBCAST"
	SbcastGrantURI    = "/v1/noded/sbcast/grant"
	SbcastGrantSender = "loam-ctld/sbcast"
)

// SbcastChunkMax is the most file bytes one chunk carries (Slurm's default
// block size); a node daemon refuses larger chunks. sbcast's -s is kept
// within [SbcastChunkMin, SbcastChunkMax].
const (
	SbcastChunkMax = 8 << 20
	SbcastChunkMin = 64 << 10
)

// HeaderSbcastChunk carries a chunk's SbcastChunk, less its data, as
// base64url of its JSON; the request's body is the data itself, so a
// file's bytes are neither base64-encoded nor parsed as JSON.
const HeaderSbcastChunk = "X-Loam-Sbcast-Chunk"

// SbcastBatchStep is Slurm's id of a job's batch step: an SbcastRequest
// for it names the batch script's node alone.
const SbcastBatchStep = 0xfffffffb

// SbcastRequest asks for grants to write Dest on the nodes of a running
// job (all of them, or those of step StepID when HasStep).
type SbcastRequest struct {
	JobID   uint32 `json:"job_id"`
	StepID  uint32 `json:"step_id,omitempty"`
	HasStep bool   `json:"has_step,omitempty"`
	// Task, when HasTask, names array JobID's task Task (-j JOB_TASK).
	Task    uint32 `json:"task,omitempty"`
	HasTask bool   `json:"has_task,omitempty"`
	// Dest is the absolute destination path; Size the file's size.
	Dest string `json:"dest"`
	Size int64  `json:"size"`
}

// SbcastResponse names the job's nodes and carries one grant per node.
type SbcastResponse struct {
	JobID    uint32         `json:"job_id"`
	StepID   uint32         `json:"step_id"`
	NodeList string         `json:"node_list"`
	Issued   int64          `json:"issued"`  // Unix seconds
	Expires  int64          `json:"expires"` // Unix seconds: the job's end
	Targets  []SbcastTarget `json:"targets"`
}

// SbcastTarget is one node, its daemon's address and its grant.
type SbcastTarget struct {
	Node  string      `json:"node"`
	Addr  string      `json:"addr"`
	Grant SbcastGrant `json:"grant"`
}

// SbcastGrant is a signed SbcastClaims: Claims is the claims' JSON, the
// signed body; Sig the signature headers (name, value).
type SbcastGrant struct {
	Claims []byte      `json:"claims"`
	Sig    [][2]string `json:"sig"`
}

// SbcastClaims is what a grant allows: writing Dest (Size bytes) on Node
// as the job's user, until Expires (Unix nanoseconds).
type SbcastClaims struct {
	Transfer string   `json:"transfer"` // random, one per sbcast run
	JobID    uint32   `json:"job_id"`
	Node     string   `json:"node"`
	UID      uint32   `json:"uid"`
	GID      uint32   `json:"gid"`
	Groups   []uint32 `json:"groups,omitempty"`
	User     string   `json:"user"`
	Dest     string   `json:"dest"`
	Size     int64    `json:"size"`
	Expires  int64    `json:"expires"`
}

// SbcastChunk is Data at Offset of the file a grant allows. The first
// chunk (Offset 0) checks the grant and creates a temporary file next to
// the destination; the last (Last) moves it into place: replacing an
// existing file only with Force, applying Mode, and Atime and Mtime (Unix
// nanoseconds) when Preserve.
type SbcastChunk struct {
	Grant    SbcastGrant `json:"grant"`
	Offset   int64       `json:"offset"`
	Data     []byte      `json:"data,omitempty"` // the body on the wire
	Last     bool        `json:"last,omitempty"`
	Force    bool        `json:"force,omitempty"`
	Mode     uint32      `json:"mode"`
	Preserve bool        `json:"preserve,omitempty"`
	Atime    int64       `json:"atime,omitempty"`
	Mtime    int64       `json:"mtime,omitempty"`
}

// SbcastChunkResponse is a chunk's outcome. A failure of the file system
// (the destination exists, its directory does not, permission) is Errno
// (the system's error number) and Error (its text), as slurmd reports it;
// protocol failures are api errors.
type SbcastChunkResponse struct {
	Written int64  `json:"written"`
	Errno   int    `json:"errno,omitempty"`
	Error   string `json:"error,omitempty"`
}
