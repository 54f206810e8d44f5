package job

import "strings"

// Export is a parsed --export spec: which of the submitter's environment
// variables the job gets.
type Export struct {
	// All: the whole environment ("ALL", no --export, or ALL in a list).
	All bool `json:"all,omitempty"`
	// Vars are the list entries other than ALL, in order: "NAME" copies the
	// submitter's variable if set, "NAME=value" sets it. Empty with All
	// false is NONE: only the SLURM_* variables.
	Vars []string `json:"vars,omitempty"`
}

// ParseExport parses --export as sbatch does: ALL or NONE (any case) alone,
// or a comma-separated list of ALL, NAME and NAME=value, where a quoted
// value may hold commas (FOO="a,b"). In a list NONE is an ordinary name.
// The empty spec exports only SLURM_* variables, like NONE.
func ParseExport(spec string) Export {
	switch {
	case strings.EqualFold(spec, "ALL"):
		return Export{All: true}
	case strings.EqualFold(spec, "NONE"):
		return Export{}
	}
	var e Export
	for _, tok := range splitQuoted(spec, ',') {
		if strings.EqualFold(tok, "ALL") {
			e.All = true
			continue
		}
		if tok == "" {
			continue
		}
		e.Vars = append(e.Vars, tok)
	}
	return e
}

// Environment returns the job's environment for a submitter whose
// environment is environ (KEY=VALUE entries): the exported variables, then
// every SLURM_* variable, later entries replacing earlier ones with the
// same name in place.
func (e Export) Environment(environ []string) []string {
	var env envList
	if e.All {
		env.merge(environ...)
	}
	for _, v := range e.Vars {
		if strings.Contains(v, "=") {
			env.merge(v)
			continue
		}
		for _, kv := range environ {
			if strings.HasPrefix(kv, v+"=") {
				env.merge(kv)
				break
			}
		}
	}
	for _, kv := range environ {
		if strings.HasPrefix(kv, "SLURM_") {
			env.merge(kv)
		}
	}
	return env.list
}

// envList is an environment that keeps insertion order.
type envList struct {
	list []string
	at   map[string]int
}

func (l *envList) merge(kvs ...string) {
	if l.at == nil {
		l.at = map[string]int{}
	}
	for _, kv := range kvs {
		name, _, _ := strings.Cut(kv, "=")
		if i, ok := l.at[name]; ok {
			l.list[i] = kv
			continue
		}
		l.at[name] = len(l.list)
		l.list = append(l.list, kv)
	}
}

// splitQuoted splits s at sep outside single or double quotes, as Slurm's
// find_quote_token does; a token wholly inside one pair of quotes loses them.
func splitQuoted(s string, sep byte) []string {
	var out []string
	single, double := false, false
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			switch s[i] {
			case '\'':
				single = !single
				continue
			case '"':
				double = !double
				continue
			}
			if s[i] != sep || single || double {
				continue
			}
		}
		tok := s[start:i]
		if len(tok) >= 2 && (tok[0] == '\'' || tok[0] == '"') && tok[len(tok)-1] == tok[0] {
			tok = tok[1 : len(tok)-1]
		}
		if i > start || i < len(s) {
			out = append(out, tok)
		}
		start = i + 1
	}
	return out
}
