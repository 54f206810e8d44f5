package api

// Controller paths used by the user commands. All are POST with a JSON body
// unless marked GET.
const (
	// PathPing (GET) answers PingResponse: the controller is up.
	PathPing = "/v1/ping"
	// PathSubmit takes SubmitRequest and answers SubmitResponse.
	PathSubmit = "/v1/jobs/submit"
	// PathJobs takes JobQuery and answers JobsResponse (full records).
	PathJobs = "/v1/jobs/query"
	// PathJobTable takes JobQuery (Fields required) and answers a JobTable.
	PathJobTable = "/v1/jobs/table"
	// PathCancel takes CancelRequest and answers JobResults.
	PathCancel = "/v1/jobs/cancel"
	// PathHold takes HoldRequest and answers JobResults.
	PathHold = "/v1/jobs/hold"
	// PathRelease takes ReleaseRequest and answers JobResults.
	PathRelease = "/v1/jobs/release"
	// PathUpdate takes UpdateRequest and answers JobResults.
	PathUpdate = "/v1/jobs/update"
	// PathRequeue takes RequeueRequest and answers JobResults.
	PathRequeue = "/v1/jobs/requeue"
	// PathNodes takes NodeQuery and answers NodesResponse.
	PathNodes = "/v1/nodes/query"
	// PathNodeUpdate takes NodeUpdateRequest and answers NodeUpdateResponse.
	PathNodeUpdate = "/v1/nodes/update"
	// PathPartitions (GET) answers PartitionsResponse.
	PathPartitions = "/v1/partitions"
	// PathConfig (GET) answers ConfigResponse.
	PathConfig = "/v1/config"
	// PathReconfigure (empty JSON object body) answers ReconfigureResponse.
	PathReconfigure = "/v1/reconfigure"
	// PathAccounting takes AcctQuery and answers AcctResponse.
	PathAccounting = "/v1/accounting/jobs"
)

// Controller paths used by node daemons. Requests must carry the cluster
// key's HMAC (package auth).
const (
	// PathNodeRegister takes RegisterRequest and answers RegisterResponse.
	PathNodeRegister = "/v1/node/register"
	// PathNodeHeartbeat takes HeartbeatRequest and answers HeartbeatResponse.
	PathNodeHeartbeat = "/v1/node/heartbeat"
	// PathNodeEvents takes JobEventsRequest and answers JobEventsResponse.
	PathNodeEvents = "/v1/node/events"
)

// Node daemon paths. The first is served on loam-noded's Unix socket to local
// users; the others take requests from the controller, signed with the
// cluster key's HMAC.
const (
	// PathCredential takes CredentialRequest and answers CredentialResponse:
	// a short-lived user credential minted from the caller's SO_PEERCRED.
	PathCredential = "/v1/credential"
	// PathLaunch takes LaunchRequest and answers LaunchResponse.
	PathLaunch = "/v1/noded/launch"
	// PathSignal takes SignalRequest and answers NodedResponse.
	PathSignal = "/v1/noded/signal"
	// PathNotifyJob takes NotifyRequest and answers NodedResponse: the
	// message goes to the batch step's standard error (scontrol notify);
	// Unknown when the node runs no batch step of the job.
	PathNotifyJob = "/v1/noded/notify"
	// PathTerminate takes TerminateRequest and answers NodedResponse.
	PathTerminate = "/v1/noded/terminate"
	// PathTimeLimit takes TimeLimitRequest and answers NodedResponse.
	PathTimeLimit = "/v1/noded/timelimit"
	// PathNodedPing (GET) answers PingResponse.
	PathNodedPing = "/v1/noded/ping"
)

// MaxRequestBytes bounds a request body. A batch script and its environment
// fit easily; Slurm's own limit on a script is 4 MB by default.
const MaxRequestBytes = 8 << 20

// ContentType is the media type of every request and response body.
const ContentType = "application/json"
