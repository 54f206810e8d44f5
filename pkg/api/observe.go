package api

// Observability paths (R13-R15): suggestions, dashboard tokens, and the
// HTTP pages loam-ctld serves besides the JSON API.
const (
	// PathSuggestions (GET) answers SuggestionsResponse.
	PathSuggestions = "/v1/suggestions"
	// PathWebToken takes WebTokenRequest and answers WebTokenResponse: a
	// token that lets a browser open the dashboard as the caller.
	PathWebToken = "/v1/web/token"
	// PathMetrics serves Prometheus metrics (text exposition format).
	PathMetrics = "/metrics"
	// PathDashboard is the prefix of the web dashboard's pages.
	PathDashboard = "/ui/"
)

// SuggestionsResponse lists the configuration changes the recorded history
// suggests (scontrol show suggestions).
type SuggestionsResponse struct {
	// Generated is when they were computed (Unix seconds); Window is the
	// span of history read, in seconds.
	Generated   int64        `json:"generated"`
	Window      int64        `json:"window"`
	Suggestions []Suggestion `json:"suggestions"`
}

// Suggestion is one configuration change with the numbers behind it.
type Suggestion struct {
	Rule    string `json:"rule"`
	Subject string `json:"subject"`
	File    string `json:"file"`
	Line    string `json:"line,omitempty"`
	Key     string `json:"key"`
	From    string `json:"from"`
	To      string `json:"to"`
	Action  string `json:"action"`
	Why     string `json:"why"`
}

// WebTokenRequest asks for a dashboard token (scontrol token).
type WebTokenRequest struct {
	// Lifespan in seconds; 0 takes the default (1800, as Slurm's
	// scontrol token).
	Lifespan int64 `json:"lifespan,omitempty"`
	// User asks for another user's token (root and SlurmUser only).
	User string `json:"username,omitempty"`
}

// WebTokenResponse carries the token and where to use it.
type WebTokenResponse struct {
	Token   string `json:"token"`
	Expires int64  `json:"expires"`
	// Path is the dashboard path that takes the token (?token=...).
	Path string `json:"path"`
}
