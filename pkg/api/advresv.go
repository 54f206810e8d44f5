package api

// Administrators' advance reservations (scontrol create, update, delete
// and show reservation; sinfo -T). Creating, updating and deleting are
// reserved to root and SlurmUser.
const (
	// PathAdvResvCreate takes AdvResvSpec and answers AdvResvCreated.
	PathAdvResvCreate = "/v1/advresv/create"
	// PathAdvResvUpdate takes AdvResvUpdate and answers AdvResvCreated.
	PathAdvResvUpdate = "/v1/advresv/update"
	// PathAdvResvDelete takes AdvResvDelete and answers AdvResvCreated.
	PathAdvResvDelete = "/v1/advresv/delete"
	// PathAdvResvList takes ResvQuery and answers AdvResvsResponse.
	PathAdvResvList = "/v1/advresv/list"
)

// Node state flags of admin reservations (scontrol show node prints
// IDLE+MAINTENANCE+RESERVED).
const FlagMaintenance = "MAINTENANCE"

// Reservation flags Loam implements, as Slurm spells them.
const (
	ResvFlagMaint      = "MAINT"
	ResvFlagOverlap    = "OVERLAP"
	ResvFlagIgnoreJobs = "IGNORE_JOBS"
	// A recurring reservation moves to its next window when one ends.
	ResvFlagHourly    = "HOURLY"
	ResvFlagDaily     = "DAILY"
	ResvFlagWeekday   = "WEEKDAY"
	ResvFlagWeekend   = "WEEKEND"
	ResvFlagWeekly    = "WEEKLY"
	ResvFlagSpecNodes = "SPEC_NODES" // set by the controller: nodes were named
	ResvFlagAllNodes  = "ALL_NODES"  // set by the controller: Nodes=ALL
	// The nodes never change (shown STATIC); Loam never replaces them.
	ResvFlagStaticAlloc = "STATIC_ALLOC"
	// The reservation is deleted once it has had no job for its purge
	// time (AdvResvSpec.PurgeComp, shown PURGE_COMP=HH:MM:SS).
	ResvFlagPurgeComp = "PURGE_COMP"
	// Pending jobs of a reservation that ends run without it, not held.
	ResvFlagNoHoldJobs = "NO_HOLD_JOBS_AFTER_END"
)

// AdvResvSpec creates a reservation. Times are Unix seconds, already
// resolved by the client (StartTime=now is the client's now); End is
// Start+Duration when a duration was given.
type AdvResvSpec struct {
	Name      string   `json:"name,omitempty"` // empty: <user>_<n> or <account>_<n>
	Start     int64    `json:"start"`
	End       int64    `json:"end"`
	Nodes     string   `json:"nodes,omitempty"` // a host list or ALL
	NodeCount int      `json:"node_count,omitempty"`
	Partition string   `json:"partition,omitempty"`
	Users     []string `json:"users,omitempty"`  // "-name" entries: everyone but them
	Groups    []string `json:"groups,omitempty"` // their members (not with Users)
	Accounts  []string `json:"accounts,omitempty"`
	Flags     []string `json:"flags,omitempty"`
	// Features narrow the nodes picked for NodeCount (a -C expression);
	// with named nodes they are only recorded, as in Slurm.
	Features string `json:"features,omitempty"`
	// PurgeComp is PURGE_COMP=time in seconds; 0 is Slurm's 5 minutes.
	PurgeComp int64 `json:"purge_comp,omitempty"`
	// Sizes and options Loam checks and then refuses (licenses it knows,
	// cores, MaxStartDelay): the controller answers with Slurm's error
	// for a bad value, else "not supported".
	Licenses      string `json:"licenses,omitempty"`
	CoreCount     int    `json:"core_count,omitempty"`
	MaxStartDelay int64  `json:"max_start_delay,omitempty"` // seconds
}

// AdvResvUpdate changes the fields it sets of reservation Name. Users and
// Accounts entries are names (the list is replaced) or "+name"/"-name"
// (added, removed; "-name" on an empty list starts a deny list, as in
// Slurm). Flags entries are "NAME" or "+NAME" (set) and "-NAME" (cleared);
// flags not named stay. In a creation (AdvResvSpec) "-NAME" is ignored.
type AdvResvUpdate struct {
	Name     string `json:"name"`
	Start    *int64 `json:"start,omitempty"`
	End      *int64 `json:"end,omitempty"`
	Duration *int64 `json:"duration,omitempty"` // seconds from the (new) start
	// DurationChange is Duration+=/-=: seconds the end moves by.
	DurationChange *int64    `json:"duration_change,omitempty"`
	Nodes          *string   `json:"nodes,omitempty"`
	Partition      *string   `json:"partition,omitempty"`
	Users          *[]string `json:"users,omitempty"`
	Groups         *[]string `json:"groups,omitempty"`
	Accounts       *[]string `json:"accounts,omitempty"`
	Flags          *[]string `json:"flags,omitempty"`
	Features       *string   `json:"features,omitempty"`
	PurgeComp      *int64    `json:"purge_comp,omitempty"`
	Licenses       *string   `json:"licenses,omitempty"`
	CoreCount      *int      `json:"core_count,omitempty"`
	MaxStartDelay  *int64    `json:"max_start_delay,omitempty"`
}

// AdvResvDelete deletes reservation Name.
type AdvResvDelete struct {
	Name string `json:"name"`
}

// AdvResvCreated answers a create, update or delete with the
// reservation's name.
type AdvResvCreated struct {
	Name string `json:"name"`
}

// AdvResv is one reservation as scontrol show reservation prints it.
type AdvResv struct {
	Name      string   `json:"name"`
	Start     int64    `json:"start"`
	End       int64    `json:"end"`
	Nodes     string   `json:"nodes"` // compressed host list
	NodeCount int      `json:"node_count"`
	CPUs      int      `json:"cpus"`
	GPUs      int      `json:"gpus,omitempty"`
	Partition string   `json:"partition,omitempty"`
	Flags     []string `json:"flags,omitempty"` // as shown, in Slurm's order
	Users     []string `json:"users,omitempty"`
	Groups    []string `json:"groups,omitempty"`
	Accounts  []string `json:"accounts,omitempty"`
	Features  string   `json:"features,omitempty"`
}

// AdvResvsResponse answers PathAdvResvList, in creation order.
type AdvResvsResponse struct {
	Now          int64     `json:"now"`
	Reservations []AdvResv `json:"reservations"`
}
